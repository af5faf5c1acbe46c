/* jet-bench-image: box and Gaussian filters (jetrt/filter.h), replicated
 * border; the Gaussian's sigma derived from the window (sigma <= 0). */
#include "bench-image.h"

static jet_status box5(jet_stream s, const bench_io *io) {
  return jet_filter_box(s, io->src, io->dst, 5, JET_BORDER_REPLICATE, NULL);
}
static jet_status box31(jet_stream s, const bench_io *io) {
  return jet_filter_box(s, io->src, io->dst, 31, JET_BORDER_REPLICATE, NULL);
}
static jet_status gauss5(jet_stream s, const bench_io *io) {
  return jet_filter_gaussian(s, io->src, io->dst, 5, 0.0, JET_BORDER_REPLICATE, NULL);
}

const bench_jet_entry bench_ops_filter[] = {
    {"box5", box5},
    {"gauss5", gauss5},
    {"box31", box31},
    {NULL, NULL},
};

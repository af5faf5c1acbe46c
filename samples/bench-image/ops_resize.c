/* jet-bench-image: resize (jetrt/resize.h). */
#include "bench-image.h"

static jet_status linear(jet_stream s, const bench_io *io) {
  return jet_resize(s, io->src, io->dst, JET_INTERP_LINEAR);
}
static jet_status nearest(jet_stream s, const bench_io *io) {
  return jet_resize(s, io->src, io->dst, JET_INTERP_NEAREST);
}
static jet_status area(jet_stream s, const bench_io *io) {
  return jet_resize(s, io->src, io->dst, JET_INTERP_AREA);
}

const bench_jet_entry bench_ops_resize[] = {
    {"resize_linear", linear},
    {"resize_nearest", nearest},
    {"resize_area", area},
    {NULL, NULL},
};

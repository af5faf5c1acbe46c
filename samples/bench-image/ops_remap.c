/* jet-bench-image: bilinear remap (jetrt/resize.h), replicated border. */
#include "bench-image.h"

static jet_status remap(jet_stream s, const bench_io *io) {
  return jet_remap(s, io->src, io->dst, (const float *)io->aux, io->aux_pitch,
                   JET_BORDER_REPLICATE, NULL);
}

const bench_jet_entry bench_ops_remap[] = {
    {"remap_linear", remap},
    {NULL, NULL},
};

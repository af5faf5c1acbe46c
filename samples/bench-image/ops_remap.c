/* jet-bench-image: bilinear remap (jetrt/resize.h); constant border 0. */
#include "bench-image.h"

jet_status bench_jet_remap(jet_stream s, const bench_io *io) {
  return jet_remap(s, io->src[0], io->dst[0], (const float *)io->aux, io->aux_pitch,
                   (jet_border)io->cfg->border, NULL);
}

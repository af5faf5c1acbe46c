/* jet-bench-image: box and Gaussian filters (jetrt/filter.h); the
 * Gaussian's sigma derived from the window (sigma <= 0), constant borders
 * with value 0 (NULL). */
#include "bench-image.h"

jet_status bench_jet_filter(jet_stream s, const bench_io *io) {
  const bench_cfg *c = io->cfg;
  if (c->op == BOP_GAUSS)
    return jet_filter_gaussian(s, io->src[0], io->dst[0], c->ksize, 0.0, (jet_border)c->border,
                               NULL);
  return jet_filter_box(s, io->src[0], io->dst[0], c->ksize, (jet_border)c->border, NULL);
}

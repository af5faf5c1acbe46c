/* jet-bench-image: flip, rotation and transpose (jetrt/geometry.h). */
#include "bench-image.h"

jet_status bench_jet_geometry(jet_stream s, const bench_io *io) {
  const bench_cfg *c = io->cfg;
  if (c->op == BOP_FLIP) return jet_flip_image(s, io->src[0], io->dst[0], (jet_flip)c->flip);
  if (c->op == BOP_ROTATE) return jet_rotate(s, io->src[0], io->dst[0], (jet_rotation)c->rotation);
  return jet_transpose(s, io->src[0], io->dst[0]);
}

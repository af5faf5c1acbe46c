/* jet-bench-image: transpose, flip and rotation (jetrt/geometry.h). */
#include "bench-image.h"

static jet_status transpose(jet_stream s, const bench_io *io) {
  return jet_transpose(s, io->src, io->dst);
}
static jet_status flip_h(jet_stream s, const bench_io *io) {
  return jet_flip_image(s, io->src, io->dst, JET_FLIP_HORIZONTAL);
}
static jet_status rotate90(jet_stream s, const bench_io *io) {
  return jet_rotate(s, io->src, io->dst, JET_ROTATE_90);
}

const bench_jet_entry bench_ops_geometry[] = {
    {"transpose_f32", transpose},
    {"flip_h_rgba8", flip_h},
    {"rotate90_rgba8", rotate90},
    {NULL, NULL},
};

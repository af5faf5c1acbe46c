/* jet-bench-image: colour conversions (jetrt/color.h), BT.601 limited range. */
#include "bench-image.h"

static jet_status convert(jet_stream s, const bench_io *io) {
  return jet_convert_color(s, io->src, io->dst, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED);
}

const bench_jet_entry bench_ops_color[] = {
    {"nv12_rgb8", convert},  {"nv12_rgba8", convert},  {"yuyv_rgba8", convert},
    {"rgba8_nv12", convert}, {"rgba8_gray8", convert}, {NULL, NULL},
};

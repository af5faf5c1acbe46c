/* jet-bench-image: colour conversion (jetrt/color.h), BT.601 limited range. */
#include "bench-image.h"

jet_status bench_jet_color(jet_stream s, const bench_io *io) {
  return jet_convert_color(s, io->src[0], io->dst[0], JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED);
}

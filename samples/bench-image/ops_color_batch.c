/* jet-bench-image: batched colour conversion (jet_convert_color_batch),
 * BT.601 limited range. */
#include "bench-image.h"

jet_status bench_jet_color_batch(jet_stream s, const bench_io *io) {
  return jet_convert_color_batch(s, io->src, io->dst, io->cfg->count, JET_COLOR_BT601,
                                 JET_COLOR_RANGE_LIMITED);
}

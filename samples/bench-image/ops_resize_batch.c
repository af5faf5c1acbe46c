/* jet-bench-image: batched resize (jet_resize_batch). */
#include "bench-image.h"

jet_status bench_jet_resize_batch(jet_stream s, const bench_io *io) {
  return jet_resize_batch(s, io->src, io->dst, io->cfg->count, (jet_interp)io->cfg->interp);
}

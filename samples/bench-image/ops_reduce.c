/* jet-bench-image: reductions (jetrt/reduce.h). One jet_reduce gives sum,
 * mean, min and max at once; results go to device memory, and the work
 * buffer is shared by every call (all on one stream). */
#include "bench-image.h"

jet_status bench_reduce_work_size(jet_context ctx, size_t *bytes) {
  return jet_reduce_work_size(ctx, bytes);
}

jet_status bench_jet_reduce(jet_stream s, const bench_io *io) {
  if (io->cfg->op == BOP_HIST)
    return jet_histogram(s, io->src[0], io->work, io->work_bytes, (uint32_t *)io->aux);
  return jet_reduce(s, io->src[0], io->work, io->work_bytes, (jet_reduce_result *)io->aux);
}

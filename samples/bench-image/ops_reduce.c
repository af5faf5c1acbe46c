/* jet-bench-image: reductions (jetrt/reduce.h). One jet_reduce gives sum,
 * mean, min and max at once; results go to device memory, and the work
 * buffer is shared by every call (all on one stream). */
#include "bench-image.h"

jet_status bench_reduce_work_size(jet_context ctx, size_t *bytes) {
  return jet_reduce_work_size(ctx, bytes);
}

static jet_status reduce(jet_stream s, const bench_io *io) {
  return jet_reduce(s, io->src, io->work, io->work_bytes, (jet_reduce_result *)io->aux);
}
static jet_status hist(jet_stream s, const bench_io *io) {
  return jet_histogram(s, io->src, io->work, io->work_bytes, (uint32_t *)io->aux);
}

const bench_jet_entry bench_ops_reduce[] = {
    {"reduce_f32", reduce},
    {"reduce_f32_minmax", reduce},
    {"hist_gray8", hist},
    {NULL, NULL},
};

/* jet-bench-image: batched DNN preprocess (jet_dnn_preprocess_batch), with
 * the parameters of ops_dnn.c. */
#include "bench-image.h"

jet_status bench_jet_dnn_batch(jet_stream s, const bench_io *io) {
  jet_dnn_params p;
  bench_dnn_params(io->cfg, &p);
  return jet_dnn_preprocess_batch(s, io->src, io->dst, io->cfg->count, &p);
}

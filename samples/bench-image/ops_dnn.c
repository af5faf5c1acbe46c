/* jet-bench-image: DNN preprocess (jetrt/dnn.h). The parameters come from
 * bench_dnn_params (bench-image.c): BT.601 limited range, grey 114 padding,
 * ImageNet mean and standard deviation, RGB planes. */
#include "bench-image.h"

jet_status bench_jet_dnn(jet_stream s, const bench_io *io) {
  jet_dnn_params p;
  bench_dnn_params(io->cfg, &p);
  return jet_dnn_preprocess(s, io->src[0], io->dst[0], &p);
}

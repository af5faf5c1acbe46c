/* jet-bench-image: DNN preprocess (jetrt/dnn.h): NV12 BT.601 limited range,
 * letterboxed with grey 114, ImageNet mean and standard deviation, RGB planes. */
#include "bench-image.h"

static jet_status dnn(jet_stream s, const bench_io *io) {
  static const jet_dnn_params p = {JET_COLOR_BT601,
                                   JET_COLOR_RANGE_LIMITED,
                                   1,
                                   0,
                                   {114.0f, 114.0f, 114.0f},
                                   {0.485f, 0.456f, 0.406f},
                                   {0.229f, 0.224f, 0.225f}};
  return jet_dnn_preprocess(s, io->src, io->dst, &p);
}

const bench_jet_entry bench_ops_dnn[] = {
    {"dnn_nv12_letterbox", dnn},
    {NULL, NULL},
};

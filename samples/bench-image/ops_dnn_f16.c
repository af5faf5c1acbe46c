/* jet-bench-image: the planar half-precision DNN destination. Compiles only
 * where JET_FORMAT_RGBF16P exists; the DNN groups then also time it. */
#include "bench-image.h"

const jet_format bench_format_rgbf16p = JET_FORMAT_RGBF16P;

/* Configure-time check (samples/pipeline/CMakeLists.txt): compiles only where
 * this tree's jetrt has every API jet-pipeline uses, with these signatures. */
#include "jetrt.h"

jet_status pipeline_check_apis(void);

jet_status pipeline_check_apis(void) {
  jet_status (*color)(jet_stream, const jet_image *, const jet_image *, int, jet_color_matrix,
                      jet_color_range) = jet_convert_color_batch;
  jet_status (*resize)(jet_stream, const jet_image *, const jet_image *, int, jet_interp) =
      jet_resize_batch;
  jet_status (*dnn)(jet_stream, const jet_image *, const jet_image *, int,
                    const jet_dnn_params *) = jet_dnn_preprocess_batch;
  jet_format f = JET_FORMAT_RGBF16P;
  int max = JET_IMAGE_BATCH_MAX;
  return (color && resize && dnn && f && max >= 4) ? JET_STATUS_OK : JET_STATUS_INVALID_ARGUMENT;
}

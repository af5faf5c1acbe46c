/* Configure-time check (samples/pipeline/CMakeLists.txt): compiles only where
 * jetrt can launch its image kernels with programmatic dependent launch. */
#include "jetrt.h"

jet_status pipeline_check_pdl(jet_stream s);

jet_status pipeline_check_pdl(jet_stream s) {
  jet_status (*set)(jet_stream, int) = jet_stream_set_programmatic;
  return set(s, 1);
}

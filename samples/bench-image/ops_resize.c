/* jet-bench-image: resize (jetrt/resize.h). */
#include "bench-image.h"

jet_status bench_jet_resize(jet_stream s, const bench_io *io) {
  return jet_resize(s, io->src[0], io->dst[0], (jet_interp)io->cfg->interp);
}

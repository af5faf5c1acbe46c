/*
 * Resolving a jet_stream for the other modules.
 */
#include "internal.h"

jet_status jet__stream_enter(jet_stream s, const struct jet_context_s *ctx, cudaStream_t *out,
                             const char *fn) {
  if (ctx)
    JET__TRY(jet__handle_check_in(s, JET__H_STREAM, ctx, fn, "stream"));
  else
    JET__TRY(jet__handle_check(s, JET__H_STREAM, fn, "stream"));
  JET__TRY(jet__ctx_activate(s->h.ctx, fn));
  *out = s->cu;
  return JET_STATUS_OK;
}

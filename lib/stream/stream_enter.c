/*
 * Resolving a jet_stream for the other modules.
 */
#include "internal.h"

static _Thread_local cudaStream_t tls_entered;
static _Thread_local int tls_programmatic;

jet_status jet__stream_enter(jet_stream s, const struct jet_context_s *ctx, cudaStream_t *out,
                             const char *fn) {
  if (ctx)
    JET__TRY(jet__handle_check_in(s, JET__H_STREAM, ctx, fn, "stream"));
  else
    JET__TRY(jet__handle_check(s, JET__H_STREAM, fn, "stream"));
  JET__TRY(jet__ctx_activate(s->h.ctx, fn));
  *out = s->cu;
  tls_entered = s->cu;
  tls_programmatic = atomic_load(&s->programmatic);
  return JET_STATUS_OK;
}

int jet__stream_programmatic(cudaStream_t cu) { return tls_programmatic && tls_entered == cu; }

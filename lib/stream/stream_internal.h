/*
 * Internal definitions of events, for lib/stream and any module that needs
 * the CUDA object behind a jet_event (graphs: lib/graph/graph_internal.h).
 */
#ifndef JET_STREAM_INTERNAL_H
#define JET_STREAM_INTERNAL_H

#include "internal.h"

struct jet_event_s {
  jet__handle h;
  cudaEvent_t cu;
  unsigned flags; /* JET_EVENT_* flags; an imported event has JET_EVENT_INTERPROCESS only */
  int imported;   /* opened with jet_event_ipc_import */
  int wrapped;    /* the caller's cudaEvent_t (jet_event_wrap): destroy leaves it alive */
};

/* Validate @e (and, when @ctx is non-NULL, that it belongs to @ctx), make its
 * device current and return its CUDA event. */
jet_status jet__event_enter(jet_event e, const struct jet_context_s *ctx, cudaEvent_t *out,
                            const char *fn);

/* A jet_event over a CUDA event another module created (an event made from an
 * EGLSync): jetrt owns it from here, cudaEventDestroy included, on failure too.
 * @flags are the JET_EVENT_* flags it behaves as. */
jet_status jet__event_adopt(struct jet_context_s *ctx, cudaEvent_t cu, unsigned flags,
                            jet_event *out, const char *fn);

/* OK when @cu is not capturing; INVALID_STATE (saying that @what is refused
 * during capture) when it is capturing or its capture was invalidated; a CUDA
 * status when cudaStreamIsCapturing fails. For calls that would otherwise
 * invalidate a capture. The device must be current. */
jet_status jet__stream_not_capturing(cudaStream_t cu, const char *fn, const char *what);

#endif /* JET_STREAM_INTERNAL_H */

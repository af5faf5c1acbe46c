/*
 * Shared buffers: the object and the per-backing strategies.
 *
 * lib/memory/shared.c owns validation, the access state machine and the
 * completion event; each backing (shared_mapped.c, shared_staged.c,
 * shared_managed.c) fills one jet__shared_ops table with what differs.
 */
#ifndef JET_SHARED_OPS_H
#define JET_SHARED_OPS_H

#include <pthread.h>

#include "internal.h"
#include "../lib/memory/alloc.h"

/* Which access is open. */
enum { JET__SHARED_IDLE = 0, JET__SHARED_CPU = 1, JET__SHARED_GPU = 2 };

struct jet_shared_s {
  jet__handle h;
  const struct jet__shared_ops *ops;
  size_t bytes;
  unsigned flags;
  jet_shared_backing backing;
  void *host;           /* CPU view: the mapped or managed memory, or the staging copy */
  void *dev;            /* GPU view */
  int managed_prefetch; /* MANAGED: 1 hand over by prefetch, 0 by stream attach */
  jet_ipc_mechanism ipc; /* STAGED: how the device part is exported (JET_SHARED_EXPORTABLE) */
  jet__alloc devmem;     /* STAGED: the device part; set before alloc when imported */

  pthread_mutex_t lock; /* serialises calls on the buffer */
  int open;             /* JET__SHARED_* */
  unsigned open_access;
  jet_stream open_stream;
  cudaEvent_t done;     /* recorded after the last stream work that touched the buffer */
  int done_pending;     /* done has been recorded and not yet waited for on the host */
  int host_stale;       /* STAGED: the GPU may have written since the last copy back */
  unsigned long long transfers;
};

/* One backing. Each hook gets the stream already resolved and the device
 * current; shared.c holds the buffer's lock and has done the ordering:
 *  - begin_cpu runs after the host waited for `done`; it must leave the CPU
 *    view ready (waiting for anything it enqueues).
 *  - end_cpu may enqueue work; it calls jet__shared_mark_pending if it does.
 *  - begin_gpu runs after the stream was made to wait for `done`.
 *  - end_gpu runs before shared.c records `done` on the stream. */
typedef struct jet__shared_ops {
  jet_shared_backing backing;
  const char *name;
  /* Fill host and dev (and any backing field) for sb->bytes; on failure leave
   * nothing allocated (except a devmem given in advance: the caller's). */
  jet_status (*alloc)(struct jet_shared_s *sb, const char *fn);
  /* Free what alloc made; the GPU is done with it. */
  void (*release)(struct jet_shared_s *sb);
  jet_status (*begin_cpu)(struct jet_shared_s *sb, cudaStream_t s, unsigned access, const char *fn);
  jet_status (*end_cpu)(struct jet_shared_s *sb, cudaStream_t s, unsigned access, const char *fn);
  jet_status (*begin_gpu)(struct jet_shared_s *sb, cudaStream_t s, unsigned access, const char *fn);
  jet_status (*end_gpu)(struct jet_shared_s *sb, cudaStream_t s, unsigned access, const char *fn);
} jet__shared_ops;

/* A hand-over step with nothing to do for a backing (zero-copy needs none). */
jet_status jet__shared_noop(struct jet_shared_s *sb, cudaStream_t s, unsigned access,
                            const char *fn);

/* jet_shared_create with @imported, when not NULL, as the device part of a
 * STAGED buffer (jet_ipc_import_shared): taken over on success only. */
jet_status jet__shared_create(jet_context ctx, size_t bytes, unsigned flags,
                              const jet__alloc *imported, jet_shared *out, const char *fn);

/* The table for @backing, or NULL for a value outside jet_shared_backing. */
const jet__shared_ops *jet__shared_ops_for(jet_shared_backing backing);

/* Record `done` on @s after work the hook enqueued there. */
jet_status jet__shared_mark_pending(struct jet_shared_s *sb, cudaStream_t s, const char *fn);

/* Record a failed allocation of @bytes by @call, with the memory free in the
 * detail (queried without letting that query overwrite the detail). */
jet_status jet__shared_alloc_failed(struct jet_shared_s *sb, cudaError_t err, const char *call,
                                    const char *what, const char *fn);

extern const jet__shared_ops jet__shared_mapped_ops;
extern const jet__shared_ops jet__shared_staged_ops;
extern const jet__shared_ops jet__shared_managed_ops;

#endif /* JET_SHARED_OPS_H */

/*
 * Shared buffers: validation, the access state machine and the ordering of
 * hand-overs. What differs per backing is in platform/shared_*.c.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"
#include "shared_ops.h"

#define BACKING_FLAGS (JET_SHARED_ZERO_COPY | JET_SHARED_STAGED | JET_SHARED_MANAGED)
#define ALL_FLAGS (BACKING_FLAGS | JET_SHARED_EXPORTABLE)

const jet__shared_ops *jet__shared_ops_for(jet_shared_backing backing) {
  switch (backing) {
    case JET_SHARED_BACKING_MAPPED_HOST: return &jet__shared_mapped_ops;
    case JET_SHARED_BACKING_DEVICE_STAGED: return &jet__shared_staged_ops;
    case JET_SHARED_BACKING_MANAGED: return &jet__shared_managed_ops;
  }
  return NULL;
}

static const char *open_name(int open) {
  return open == JET__SHARED_CPU ? "CPU" : open == JET__SHARED_GPU ? "GPU" : "no";
}

jet_status jet__shared_mark_pending(struct jet_shared_s *sb, cudaStream_t s, const char *fn) {
  cudaError_t e = cudaEventRecord(sb->done, s);
  if (e != cudaSuccess) {
    /* Without the event a later hand-over could not know what to wait for;
     * waiting for the whole device instead keeps it correct. */
    sb->done_pending = -1;
    return jet__cuda_error(e, fn, "cudaEventRecord", NULL, NULL);
  }
  sb->done_pending = 1;
  return JET_STATUS_OK;
}

/* Host wait for the last tracked work on the buffer. */
static jet_status wait_done_host(struct jet_shared_s *sb, const char *fn) {
  cudaError_t e = cudaSuccess;
  if (sb->done_pending > 0) {
    e = cudaEventSynchronize(sb->done);
    if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaEventSynchronize", NULL, NULL);
  } else if (sb->done_pending < 0) {
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaDeviceSynchronize", NULL, NULL);
  }
  sb->done_pending = 0;
  return JET_STATUS_OK;
}

/* Stream wait for the last tracked work on the buffer. */
static jet_status wait_done_stream(struct jet_shared_s *sb, cudaStream_t s, const char *fn) {
  if (sb->done_pending < 0) return wait_done_host(sb, fn);
  if (sb->done_pending > 0) {
    cudaError_t e = cudaStreamWaitEvent(s, sb->done, 0);
    if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaStreamWaitEvent", NULL, NULL);
  }
  return JET_STATUS_OK;
}

jet_status jet__shared_alloc_failed(struct jet_shared_s *sb, cudaError_t err, const char *call,
                                    const char *what, const char *fn) {
  struct jet_context_s *ctx = sb->h.ctx;
  size_t fr = 0, tot = 0;
  /* The query may record its own failure; ours is recorded after it, so the
   * allocation's error is what the user sees. */
  int have = ctx->platform.ops->mem_info(&ctx->platform, &ctx->info, &fr, &tot, fn) ==
             JET_STATUS_OK;
  const char *hint = NULL;
  if (err == cudaErrorMemoryAllocation)
    hint = ctx->info.integrated
               ? "the GPU shares DRAM with the CPU: free memory is the system's; pinned memory "
                 "cannot be swapped out"
               : "pinned host memory is limited by RAM and the locked-memory limit; device memory "
                 "by the GPU's free memory";
  if (have)
    return jet__cuda_error(err, fn, call, hint,
                           "%s: asked %zu bytes; the GPU reports %zu bytes free of %zu", what,
                           sb->bytes, fr, tot);
  return jet__cuda_error(err, fn, call, hint, "%s: asked %zu bytes; free memory unknown", what,
                         sb->bytes);
}

static jet_shared_backing choose_backing(const struct jet_context_s *ctx, unsigned flags) {
  if (flags & JET_SHARED_ZERO_COPY) return JET_SHARED_BACKING_MAPPED_HOST;
  /* an exportable buffer is staged on every platform (jetrt/shared.h) */
  if (flags & (JET_SHARED_STAGED | JET_SHARED_EXPORTABLE)) return JET_SHARED_BACKING_DEVICE_STAGED;
  if (flags & JET_SHARED_MANAGED) return JET_SHARED_BACKING_MANAGED;
  return ctx->platform.policy.shared_backing;
}

jet_status jet__shared_create(jet_context ctx, size_t bytes, unsigned flags,
                              const jet__alloc *imported, jet_shared *out, const char *fn) {
  if (!out) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "out is NULL");
  *out = NULL;
  if (flags & ~ALL_FLAGS)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown flags 0x%x", flags & ~ALL_FLAGS);
  unsigned bf = flags & BACKING_FLAGS;
  if (bf & (bf - 1))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "flags 0x%x force more than one backing: use at most one of "
                      "JET_SHARED_ZERO_COPY, JET_SHARED_STAGED and JET_SHARED_MANAGED",
                      flags);
  if ((flags & JET_SHARED_EXPORTABLE) && (bf & ~(unsigned)JET_SHARED_STAGED))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "flags 0x%x force more than one backing: JET_SHARED_EXPORTABLE uses the "
                      "staged backing and goes with neither JET_SHARED_ZERO_COPY nor "
                      "JET_SHARED_MANAGED",
                      flags);
  if (bytes == 0) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "bytes is 0");
  if (bytes > (size_t)PTRDIFF_MAX)
    return jet__error(JET_STATUS_OVERFLOW, fn, "%zu bytes exceeds the largest object (%td)",
                      bytes, (ptrdiff_t)PTRDIFF_MAX);
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, fn, "ctx"));
  jet_ipc_mechanism ipc = JET_IPC_MECHANISM_NONE;
  if ((flags & JET_SHARED_EXPORTABLE) && !imported)
    JET__TRY(jet__ipc_mechanism(&ctx->info, &ctx->platform.policy, JET__IPC_REQUEST_AUTO, &ipc,
                                fn));
  JET__TRY(jet__ctx_activate(ctx, fn));

  jet_shared_backing backing = choose_backing(ctx, flags);
  const jet__shared_ops *ops = jet__shared_ops_for(backing);
  if (!ops)
    return jet__error(JET_STATUS_INTERNAL, fn, "policy %s names unknown backing %d",
                      ctx->platform.policy.name, (int)backing);

  struct jet_shared_s *sb = calloc(1, sizeof *sb);
  if (!sb) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a jet_shared");
  sb->h.ctx = ctx; /* for the ops before registration */
  sb->ops = ops;
  sb->bytes = bytes;
  sb->flags = flags;
  sb->backing = backing;
  sb->ipc = ipc;
  if (imported) sb->devmem = *imported;
  if (pthread_mutex_init(&sb->lock, NULL) != 0) {
    free(sb);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "pthread_mutex_init failed");
  }
  jet_status st;
  cudaError_t e = cudaEventCreateWithFlags(&sb->done, cudaEventDisableTiming);
  if (e != cudaSuccess) {
    st = jet__cuda_error(e, fn, "cudaEventCreateWithFlags", NULL, NULL);
    goto fail_event;
  }
  st = ops->alloc(sb, fn);
  if (st != JET_STATUS_OK) goto fail_alloc;
  st = jet__handle_register(&sb->h, JET__H_SHARED, ctx, fn);
  if (st != JET_STATUS_OK) goto fail_register;
  jet__log(JET_LOG_DEBUG, "jet_shared %p: %zu bytes, %s backing (policy %s)%s%s", (void *)sb,
           bytes, ops->name, ctx->platform.policy.name,
           imported ? ", imported" : ipc ? ", exportable by " : "",
           imported || !ipc ? "" : jet__ipc_mechanism_name(ipc));
  *out = sb;
  return JET_STATUS_OK;

fail_register:
  if (imported) sb->devmem = jet__alloc_of(JET__ALLOC_NONE, ctx->device, NULL, 0);
  ops->release(sb);
fail_alloc:
  (void)cudaEventDestroy(sb->done);
fail_event:
  pthread_mutex_destroy(&sb->lock);
  free(sb);
  return st;
}

jet_status jet_shared_create(jet_context ctx, size_t bytes, unsigned flags, jet_shared *out) {
  return jet__shared_create(ctx, bytes, flags, NULL, out, __func__);
}

jet_status jet_shared_destroy(jet_shared sb) {
  if (!sb) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(sb, JET__H_SHARED, __func__, "sb"));
  pthread_mutex_lock(&sb->lock);
  if (sb->open != JET__SHARED_IDLE) {
    int open = sb->open;
    pthread_mutex_unlock(&sb->lock);
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "a %s access is open; end it (jet_shared_end_%s) before destroying",
                      open_name(open), open == JET__SHARED_CPU ? "cpu" : "gpu");
  }
  jet_status st = jet__ctx_activate(sb->h.ctx, __func__);
  if (st != JET_STATUS_OK) {
    pthread_mutex_unlock(&sb->lock);
    return st;
  }
  st = wait_done_host(sb, __func__);
  jet__handle_unregister(&sb->h);
  sb->ops->release(sb);
  (void)cudaEventDestroy(sb->done);
  pthread_mutex_unlock(&sb->lock);
  pthread_mutex_destroy(&sb->lock);
  free(sb);
  return st;
}

jet_status jet_shared_get_info(jet_shared sb, jet_shared_info *info) {
  JET__ARG(info, "info is NULL");
  JET__TRY(jet__handle_check(sb, JET__H_SHARED, __func__, "sb"));
  pthread_mutex_lock(&sb->lock);
  info->bytes = sb->bytes;
  info->backing = sb->backing;
  info->flags = sb->flags;
  info->zero_copy = sb->backing == JET_SHARED_BACKING_MAPPED_HOST;
  info->cpu_view_cached = sb->backing == JET_SHARED_BACKING_MANAGED
                              ? 1
                              : sb->h.ctx->platform.policy.pinned_cpu_reads_cached;
  info->transfers = sb->transfers;
  info->open_cpu_access = sb->open == JET__SHARED_CPU ? sb->open_access : 0;
  info->open_gpu_access = sb->open == JET__SHARED_GPU ? sb->open_access : 0;
  pthread_mutex_unlock(&sb->lock);
  return JET_STATUS_OK;
}

static jet_status check_access(unsigned access, const char *fn) {
  if (access == 0 || (access & ~(unsigned)JET_ACCESS_READ_WRITE))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "access 0x%x is not JET_ACCESS_READ, JET_ACCESS_WRITE or both", access);
  return JET_STATUS_OK;
}

/* Hand-overs wait on the host or copy, which a graph capture cannot hold. */
static jet_status refuse_capture(cudaStream_t s, const char *fn) {
  enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(s, &cs);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaStreamIsCapturing",
                           "shared-buffer hand-overs cannot run while a graph is being captured",
                           NULL);
  if (cs != cudaStreamCaptureStatusNone)
    return jet__error_native(
        JET_STATUS_INVALID_STATE, fn, "", "", 0,
        "begin the access before the capture starts and end it after the graph has run",
        "the stream is capturing a graph; shared-buffer hand-overs cannot be captured");
  return JET_STATUS_OK;
}

/* Validation common to both begins; on success the stream is resolved and the
 * buffer locked. */
static jet_status begin_enter(jet_shared sb, jet_stream stream, unsigned access, void **ptr,
                              cudaStream_t *cu, const char *fn, const char *what) {
  if (!ptr) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s is NULL", what);
  *ptr = NULL;
  JET__TRY(check_access(access, fn));
  JET__TRY(jet__handle_check(sb, JET__H_SHARED, fn, "sb"));
  JET__TRY(jet__stream_enter(stream, sb->h.ctx, cu, fn));
  pthread_mutex_lock(&sb->lock);
  jet_status st = JET_STATUS_OK;
  if (sb->open != JET__SHARED_IDLE)
    st = jet__error(JET_STATUS_INVALID_STATE, fn,
                    "a %s access is already open; end it first (one access at a time)",
                    open_name(sb->open));
  else
    st = refuse_capture(*cu, fn);
  if (st != JET_STATUS_OK) pthread_mutex_unlock(&sb->lock);
  return st;
}

/* Validation common to both ends; on success the buffer is locked. */
static jet_status end_enter(jet_shared sb, jet_stream stream, int kind, cudaStream_t *cu,
                            const char *fn) {
  JET__TRY(jet__handle_check(sb, JET__H_SHARED, fn, "sb"));
  JET__TRY(jet__stream_enter(stream, sb->h.ctx, cu, fn));
  pthread_mutex_lock(&sb->lock);
  jet_status st = JET_STATUS_OK;
  if (sb->open != kind)
    st = jet__error(JET_STATUS_INVALID_STATE, fn, "no %s access is open (%s access is)",
                    open_name(kind), open_name(sb->open));
  else if (stream != sb->open_stream)
    st = jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                    "the access was begun on stream %p, not on stream %p: end it on the same stream",
                    (void *)sb->open_stream, (void *)stream);
  else
    st = refuse_capture(*cu, fn);
  if (st != JET_STATUS_OK) pthread_mutex_unlock(&sb->lock);
  return st;
}

static void open_access(struct jet_shared_s *sb, int kind, unsigned access, jet_stream stream) {
  sb->open = kind;
  sb->open_access = access;
  sb->open_stream = stream;
}

static void close_access(struct jet_shared_s *sb) {
  sb->open = JET__SHARED_IDLE;
  sb->open_access = 0;
  sb->open_stream = NULL;
}

jet_status jet_shared_begin_cpu(jet_shared sb, jet_stream stream, unsigned access,
                                void **host_ptr) {
  cudaStream_t cu;
  JET__TRY(begin_enter(sb, stream, access, host_ptr, &cu, __func__, "host_ptr"));
  jet_status st = wait_done_host(sb, __func__);
  if (st == JET_STATUS_OK) st = sb->ops->begin_cpu(sb, cu, access, __func__);
  if (st == JET_STATUS_OK) {
    open_access(sb, JET__SHARED_CPU, access, stream);
    *host_ptr = sb->host;
  }
  pthread_mutex_unlock(&sb->lock);
  return st;
}

jet_status jet_shared_end_cpu(jet_shared sb, jet_stream stream) {
  cudaStream_t cu;
  JET__TRY(end_enter(sb, stream, JET__SHARED_CPU, &cu, __func__));
  /* The CPU's stores must be visible before any GPU work the caller enqueues next. */
  atomic_thread_fence(memory_order_seq_cst);
  jet_status st = sb->ops->end_cpu(sb, cu, sb->open_access, __func__);
  close_access(sb);
  pthread_mutex_unlock(&sb->lock);
  return st;
}

jet_status jet_shared_begin_gpu(jet_shared sb, jet_stream stream, unsigned access,
                                void **dev_ptr) {
  cudaStream_t cu;
  JET__TRY(begin_enter(sb, stream, access, dev_ptr, &cu, __func__, "dev_ptr"));
  jet_status st = wait_done_stream(sb, cu, __func__);
  if (st == JET_STATUS_OK) st = sb->ops->begin_gpu(sb, cu, access, __func__);
  if (st == JET_STATUS_OK) {
    open_access(sb, JET__SHARED_GPU, access, stream);
    *dev_ptr = sb->dev;
  }
  pthread_mutex_unlock(&sb->lock);
  return st;
}

jet_status jet_shared_end_gpu(jet_shared sb, jet_stream stream) {
  cudaStream_t cu;
  JET__TRY(end_enter(sb, stream, JET__SHARED_GPU, &cu, __func__));
  jet_status st = sb->ops->end_gpu(sb, cu, sb->open_access, __func__);
  jet_status rec = jet__shared_mark_pending(sb, cu, __func__);
  if (st == JET_STATUS_OK) st = rec;
  close_access(sb);
  pthread_mutex_unlock(&sb->lock);
  return st;
}

/*
 * Shared buffers backed by device memory plus a pinned staging copy: the
 * desktop default, where GPU access to host memory crosses PCIe. Copies are
 * made only when data moves: device -> staging for a CPU read after the GPU
 * wrote, staging -> device after a CPU write.
 */
#include "shared_ops.h"

static jet_status staged_alloc(struct jet_shared_s *sb, const char *fn) {
  void *h = NULL;
  int own_dev = sb->devmem.origin == JET__ALLOC_NONE;
  /* Device memory first: it is the scarcer kind on a discrete GPU, and failing
   * there costs no pinned allocation. An imported buffer comes with it. */
  if (own_dev && sb->ipc == JET_IPC_MECHANISM_NONE) {
    void *d = NULL;
    cudaError_t e = cudaMalloc(&d, sb->bytes);
    if (e != cudaSuccess)
      return jet__shared_alloc_failed(sb, e, "cudaMalloc", "device memory", fn);
    sb->devmem = jet__alloc_of(JET__ALLOC_CUDA, sb->h.ctx->device, d, sb->bytes);
  } else if (own_dev) {
    JET__TRY(jet__alloc_device(sb->h.ctx->device, sb->bytes, sb->ipc, &sb->devmem, fn));
  }
  cudaError_t e = cudaHostAlloc(&h, sb->bytes, cudaHostAllocDefault);
  if (e != cudaSuccess) {
    jet_status st = jet__shared_alloc_failed(sb, e, "cudaHostAlloc", "pinned staging memory", fn);
    if (own_dev) (void)jet__alloc_release(&sb->devmem, fn);
    return st;
  }
  sb->dev = sb->devmem.ptr;
  sb->host = h;
  /* An imported buffer's staging copy has never been filled. */
  sb->host_stale = !own_dev;
  return JET_STATUS_OK;
}

static void staged_release(struct jet_shared_s *sb) {
  (void)jet__alloc_release(&sb->devmem, "jet_shared_destroy");
  (void)cudaFreeHost(sb->host);
  sb->host = sb->dev = NULL;
}

static jet_status staged_begin_cpu(struct jet_shared_s *sb, cudaStream_t s, unsigned access,
                                   const char *fn) {
  /* Another process may write an exportable buffer's device part unseen. */
  int stale = sb->host_stale || (sb->flags & JET_SHARED_EXPORTABLE);
  if (!(access & JET_ACCESS_READ) || !stale) return JET_STATUS_OK;
  cudaError_t e = cudaMemcpyAsync(sb->host, sb->dev, sb->bytes, cudaMemcpyDeviceToHost, s);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaMemcpyAsync", NULL, NULL);
  e = cudaStreamSynchronize(s);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaStreamSynchronize", NULL, NULL);
  sb->host_stale = 0;
  sb->transfers++;
  return JET_STATUS_OK;
}

static jet_status staged_end_cpu(struct jet_shared_s *sb, cudaStream_t s, unsigned access,
                                 const char *fn) {
  if (!(access & JET_ACCESS_WRITE)) return JET_STATUS_OK;
  cudaError_t e = cudaMemcpyAsync(sb->dev, sb->host, sb->bytes, cudaMemcpyHostToDevice, s);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaMemcpyAsync", NULL, NULL);
  /* Both copies now hold what the CPU wrote (or unspecified bytes where a
   * write-only access left gaps, as documented). */
  sb->host_stale = 0;
  sb->transfers++;
  return jet__shared_mark_pending(sb, s, fn);
}

static jet_status staged_begin_gpu(struct jet_shared_s *sb, cudaStream_t s, unsigned access,
                                   const char *fn) {
  (void)s;
  (void)fn;
  if (access & JET_ACCESS_WRITE) sb->host_stale = 1;
  return JET_STATUS_OK;
}

const jet__shared_ops jet__shared_staged_ops = {
    JET_SHARED_BACKING_DEVICE_STAGED, "device memory with staging copy", staged_alloc,
    staged_release, staged_begin_cpu, staged_end_cpu, staged_begin_gpu, jet__shared_noop};

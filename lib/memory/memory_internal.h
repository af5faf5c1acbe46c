/*
 * Internal view of jet_buffer, shared by the files in lib/memory/ (and by tests that
 * build fake handles to reach policy checks without a GPU).
 */
#ifndef JET_MEMORY_INTERNAL_H
#define JET_MEMORY_INTERNAL_H

#include "internal.h"
#include "alloc.h"

struct jet_buffer_s {
  jet__handle h;
  jet_memory_kind kind;      /* obtained */
  jet_memory_kind requested; /* asked for */
  unsigned flags;
  void *dev;  /* NULL for HOST_PINNED */
  void *host; /* NULL for DEVICE */
  size_t width, height, depth, pitch, size;
  jet__alloc mem; /* what destroy releases; says whether and how it exports */
  const char *lender; /* borrowed: what lends the memory (jet__buffer_borrow), else NULL */
  jet__alloc_hold *hold; /* DLPack exports that keep mem alive past destroy; NULL if none yet */
  struct jet_mempool_s *pool; /* allocated from (or imported through) this pool, else NULL */
};

/* A memory pool handle (pool.c). */
struct jet_mempool_s {
  jet__handle h;
  cudaMemPool_t pool;
  int is_default; /* the device's default pool: destroy releases the handle only */
  int imported;   /* jet_mempool_import: imports pointers, allocates nothing */
  int exportable; /* created with JET_MEMPOOL_EXPORTABLE */
  atomic_int buffers; /* live buffers allocated from or imported through it */
};

/* Called by jet_buffer_destroy and jet_buffer_free_async once a pool buffer
 * is gone. */
static inline void jet__mempool_buffer_gone(struct jet_mempool_s *p) {
  if (p) atomic_fetch_sub(&p->buffers, 1);
}

/* Register the filled-in buffer @b (allocated with calloc, its memory in
 * b->mem) as a live handle of @ctx and give it to *@out. On failure @b's
 * memory is released and @b freed. */
jet_status jet__buffer_register(struct jet_context_s *ctx, struct jet_buffer_s *b, jet_buffer *out,
                                const char *fn);

/* A DEVICE buffer over @bytes of device memory another jetrt object lends for
 * a while (a mapped GL buffer): jet_buffer_destroy refuses it, naming @lender;
 * the lender releases it with jet__buffer_release_borrowed. */
jet_status jet__buffer_borrow(struct jet_context_s *ctx, void *dev, size_t bytes,
                              const char *lender, jet_buffer *out, const char *fn);
void jet__buffer_release_borrowed(jet_buffer buf);

/* Validate @buf as a live buffer of @ctx (any context when @ctx is NULL). */
static inline jet_status jet__buffer_check(jet_buffer buf, const struct jet_context_s *ctx,
                                           const char *fn) {
  if (ctx) return jet__handle_check_in(buf, JET__H_BUFFER, ctx, fn, "buf");
  return jet__handle_check(buf, JET__H_BUFFER, fn, "buf");
}

/* Validate a jet_copy_3d as jet_memcpy_3d does (NULL, empty extent, region
 * outside its pitch or rows, overflow) and give each side's byte offset of
 * its first element, so callers can fold the positions into the pointers. */
jet_status jet__copy_3d_check(const jet_copy_3d *p, size_t *dst_offset, size_t *src_offset,
                              const char *fn);

/* make_cudaExtent and make_cudaPitchedPtr live in driver_functions.h, which
 * cuda_runtime_api.h does not bring in. */
static inline struct cudaExtent jet__extent(size_t w, size_t h, size_t d) {
  struct cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

static inline struct cudaPitchedPtr jet__pitched(void *p, size_t pitch, size_t xsize,
                                                 size_t ysize) {
  struct cudaPitchedPtr r;
  r.ptr = p;
  r.pitch = pitch;
  r.xsize = xsize;
  r.ysize = ysize;
  return r;
}

/* Check @p as jet_memcpy_3d does and fill CUDA's parameters for it
 * (positions folded into the pointers, cudaMemcpyDefault): for copies made
 * elsewhere than a stream, e.g. graph copy nodes. */
jet_status jet__copy_3d_params(const jet_copy_3d *p, struct cudaMemcpy3DParms *out,
                               const char *fn);

/* A 2D copy (@height rows of @width_bytes) as a jet_copy_3d of one slice. */
jet_copy_3d jet__copy_2d_as_3d(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width_bytes, size_t height);

/* Lanes across a row (blockDim.x of kernels/memory/copy2d.cu's 256-thread
 * blocks) for rows of @nv vectors: the power of two from 256 down to 16 that
 * leaves the fewest idle lanes at a row's end, the widest among equals. */
unsigned jet__copy2d_lanes(unsigned long long nv);

#endif /* JET_MEMORY_INTERNAL_H */

/*
 * Buffers: allocation of every memory kind, host registration, accessors.
 */
#include <stdlib.h>

#include "memory_internal.h"

#define HOST_FLAGS (JET_MEM_PORTABLE | JET_MEM_WRITE_COMBINED)
#define ATTACH_FLAGS (JET_MEM_ATTACH_GLOBAL | JET_MEM_ATTACH_HOST)
#define EXPORT_FLAGS (JET_MEM_EXPORTABLE | JET_MEM_EXPORTABLE_LEGACY)
#define ALL_FLAGS \
  (JET_MEM_PITCHED | HOST_FLAGS | ATTACH_FLAGS | JET_MEM_FALLBACK_HOST | EXPORT_FLAGS)

static const char *kind_name(jet_memory_kind k) {
  switch (k) {
    case JET_MEMORY_DEVICE: return "device";
    case JET_MEMORY_HOST_PINNED: return "pinned host";
    case JET_MEMORY_HOST_MAPPED: return "mapped host";
    case JET_MEMORY_MANAGED: return "managed";
    case JET_MEMORY_HOST_REGISTERED: return "registered host";
  }
  return "unknown";
}

/* Which flags each kind accepts; the rest are refused by name. */
static unsigned allowed_flags(jet_memory_kind k) {
  switch (k) {
    case JET_MEMORY_DEVICE: return JET_MEM_PITCHED | JET_MEM_FALLBACK_HOST | EXPORT_FLAGS;
    case JET_MEMORY_HOST_PINNED:
    case JET_MEMORY_HOST_MAPPED: return HOST_FLAGS;
    case JET_MEMORY_MANAGED: return ATTACH_FLAGS;
    case JET_MEMORY_HOST_REGISTERED: return JET_MEM_PORTABLE;
  }
  return 0;
}

static const char *flag_name(unsigned f) {
  switch (f) {
    case JET_MEM_PITCHED: return "JET_MEM_PITCHED";
    case JET_MEM_PORTABLE: return "JET_MEM_PORTABLE";
    case JET_MEM_WRITE_COMBINED: return "JET_MEM_WRITE_COMBINED";
    case JET_MEM_ATTACH_GLOBAL: return "JET_MEM_ATTACH_GLOBAL";
    case JET_MEM_ATTACH_HOST: return "JET_MEM_ATTACH_HOST";
    case JET_MEM_FALLBACK_HOST: return "JET_MEM_FALLBACK_HOST";
    case JET_MEM_EXPORTABLE: return "JET_MEM_EXPORTABLE";
    case JET_MEM_EXPORTABLE_LEGACY: return "JET_MEM_EXPORTABLE_LEGACY";
  }
  return "?";
}

static jet_status check_flags(jet_memory_kind kind, unsigned flags, const char *fn) {
  if (flags & ~ALL_FLAGS)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown buffer flags 0x%x",
                      flags & ~ALL_FLAGS);
  unsigned bad = flags & ~allowed_flags(kind);
  if (bad) {
    unsigned first = bad & -bad;
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s does not apply to %s memory",
                      flag_name(first), kind_name(kind));
  }
  if ((flags & ATTACH_FLAGS) == ATTACH_FLAGS)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_MEM_ATTACH_GLOBAL and JET_MEM_ATTACH_HOST exclude each other");
  if ((flags & EXPORT_FLAGS) == EXPORT_FLAGS)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_MEM_EXPORTABLE and JET_MEM_EXPORTABLE_LEGACY exclude each other: "
                      "_LEGACY alone forces the legacy mechanism");
  if ((flags & EXPORT_FLAGS) && (flags & JET_MEM_FALLBACK_HOST))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_MEM_FALLBACK_HOST does not apply to exportable memory: host memory "
                      "cannot be exported");
  return JET_STATUS_OK;
}

/* Record a failed allocation with the bytes asked and, for device memory, the
 * platform's estimate of what was free. mem_info runs before the record so that
 * its own failure cannot overwrite the allocation error. */
static jet_status alloc_failed(struct jet_context_s *ctx, cudaError_t err, const char *fn,
                               const char *call, jet_memory_kind kind, size_t asked) {
  (void)cudaGetLastError();
  const char *hint = NULL;
  if (kind == JET_MEMORY_DEVICE && err == cudaErrorMemoryAllocation)
    hint = ctx->platform.policy.kind == JET_PLATFORM_TEGRA
               ? "CPU and GPU share DRAM here: free host memory too, or ask for less"
               : "free device memory, ask for less, or set JET_MEM_FALLBACK_HOST to fall back "
                 "to mapped host memory";
  if (kind == JET_MEMORY_DEVICE || kind == JET_MEMORY_MANAGED) {
    size_t fr = 0, tot = 0;
    if (ctx->platform.ops->mem_info(&ctx->platform, &ctx->info, &fr, &tot, fn) == JET_STATUS_OK)
      return jet__cuda_error(err, fn, call, hint,
                             "asked %zu bytes of %s memory, %zu bytes free of %zu (estimate of "
                             "policy %s)",
                             asked, kind_name(kind), fr, tot, ctx->platform.policy.name);
    return jet__cuda_error(err, fn, call, hint,
                           "asked %zu bytes of %s memory, free memory unknown (query failed)",
                           asked, kind_name(kind));
  }
  return jet__cuda_error(err, fn, call, hint, "asked %zu bytes of %s memory", asked,
                         kind_name(kind));
}

static jet_status alloc_host(struct jet_context_s *ctx, struct jet_buffer_s *b, int mapped,
                             const char *fn) {
  unsigned f = cudaHostAllocDefault;
  if (b->flags & JET_MEM_PORTABLE) f |= cudaHostAllocPortable;
  if (b->flags & JET_MEM_WRITE_COMBINED) f |= cudaHostAllocWriteCombined;
  if (mapped) f |= cudaHostAllocMapped;
  void *h = NULL;
  cudaError_t e = cudaHostAlloc(&h, b->size, f);
  if (e != cudaSuccess)
    return alloc_failed(ctx, e, fn, "cudaHostAlloc",
                        mapped ? JET_MEMORY_HOST_MAPPED : JET_MEMORY_HOST_PINNED, b->size);
  void *d = NULL;
  if (mapped) {
    e = cudaHostGetDevicePointer(&d, h, 0);
    if (e != cudaSuccess) {
      (void)cudaFreeHost(h);
      return jet__cuda_error(e, fn, "cudaHostGetDevicePointer",
                             "the CUDA context was created without cudaDeviceMapHost (by the "
                             "driver API?): create the jet_context with JET_CONTEXT_MAP_HOST first",
                             NULL);
    }
  }
  b->host = h;
  b->dev = d;
  b->kind = mapped ? JET_MEMORY_HOST_MAPPED : JET_MEMORY_HOST_PINNED;
  b->mem = jet__alloc_of(JET__ALLOC_CUDA_HOST, -1, h, b->size);
  return JET_STATUS_OK;
}

/* Exportable device memory: one allocation of whole granules (alloc.c), with
 * the pitch jet_buffer_create chose, since cudaMallocPitch cannot allocate it. */
static jet_status alloc_exportable(struct jet_context_s *ctx, struct jet_buffer_s *b,
                                   jet_ipc_mechanism mech, const char *fn) {
  jet_status st = jet__alloc_device(ctx->device, b->size, mech, &b->mem, fn);
  if (st != JET_STATUS_OK) {
    if (st == JET_STATUS_OUT_OF_MEMORY)
      jet__error_set_hint("%s", ctx->platform.policy.kind == JET_PLATFORM_TEGRA
                                    ? "CPU and GPU share DRAM here: free host memory too, or ask "
                                      "for less"
                                    : "free device memory or ask for less");
    return st;
  }
  b->dev = b->mem.ptr;
  b->kind = JET_MEMORY_DEVICE;
  return JET_STATUS_OK;
}

static jet_status alloc_device(struct jet_context_s *ctx, struct jet_buffer_s *b, size_t asked,
                               const char *fn) {
  cudaError_t e;
  const char *call;
  void *p = NULL;
  if (!(b->flags & JET_MEM_PITCHED)) {
    call = "cudaMalloc";
    e = cudaMalloc(&p, b->size);
  } else if (b->depth == 1) {
    call = "cudaMallocPitch";
    size_t pitch = 0;
    e = cudaMallocPitch(&p, &pitch, b->width, b->height);
    if (e == cudaSuccess) b->pitch = pitch;
  } else {
    call = "cudaMalloc3D";
    struct cudaPitchedPtr pp = {0};
    e = cudaMalloc3D(&pp, jet__extent(b->width, b->height, b->depth));
    if (e == cudaSuccess) {
      p = pp.ptr;
      b->pitch = pp.pitch;
    }
  }
  if (e == cudaSuccess) {
    b->dev = p;
    b->kind = JET_MEMORY_DEVICE;
    if (b->flags & JET_MEM_PITCHED) b->size = b->pitch * b->height * b->depth;
    b->mem = jet__alloc_of(JET__ALLOC_CUDA, ctx->device, p, b->size);
    return JET_STATUS_OK;
  }
  if (e != cudaErrorMemoryAllocation || !(b->flags & JET_MEM_FALLBACK_HOST))
    return alloc_failed(ctx, e, fn, call, JET_MEMORY_DEVICE, asked);
  if (!ctx->info.can_map_host_memory) {
    jet_status st = alloc_failed(ctx, e, fn, call, JET_MEMORY_DEVICE, asked);
    jet__error_set_hint("no JET_MEM_FALLBACK_HOST: device %d cannot map host memory", ctx->device);
    return st;
  }

  (void)cudaGetLastError();
  jet__log(JET_LOG_WARN, "%s: %s of %zu bytes failed (%s); falling back to mapped host memory",
           fn, call, asked, cudaGetErrorName(e));
  jet_status st = alloc_host(ctx, b, 1, fn);
  if (st != JET_STATUS_OK)
    jet__error_set_hint("this was the JET_MEM_FALLBACK_HOST retry: %s of %zu bytes had failed "
                        "on the device first",
                        call, asked);
  return st;
}

static void fill_info(const struct jet_buffer_s *b, jet_buffer_info *out) {
  const struct jet_context_s *ctx = b->h.ctx;
  out->kind = b->kind;
  out->requested_kind = b->requested;
  out->flags = b->flags;
  out->device_ptr = b->dev;
  out->host_ptr = b->host;
  out->width_bytes = b->width;
  out->height = b->height;
  out->depth = b->depth;
  out->pitch = b->pitch;
  out->size = b->size;
  int pinned = b->kind == JET_MEMORY_HOST_PINNED || b->kind == JET_MEMORY_HOST_MAPPED;
  int uncached =
      (b->flags & JET_MEM_WRITE_COMBINED) || !ctx->platform.policy.pinned_cpu_reads_cached;
  out->cpu_reads_uncached = pinned && uncached;
  out->gpu_access_crosses_bus = b->dev && !ctx->info.integrated &&
                                (b->kind == JET_MEMORY_HOST_MAPPED ||
                                 b->kind == JET_MEMORY_HOST_REGISTERED);
}

jet_status jet_buffer_create(jet_context ctx, const jet_buffer_desc *desc, jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  jet_buffer_desc d = *desc;
  JET__ARG(d.kind == JET_MEMORY_DEVICE || d.kind == JET_MEMORY_HOST_PINNED ||
               d.kind == JET_MEMORY_HOST_MAPPED || d.kind == JET_MEMORY_MANAGED,
           "kind %d is not one jet_buffer_create allocates%s", (int)d.kind,
           d.kind == JET_MEMORY_HOST_REGISTERED ? " (use jet_host_register)" : "");
  JET__TRY(check_flags(d.kind, d.flags, __func__));
  JET__ARG(d.width_bytes > 0, "width_bytes is 0");
  if (d.height == 0) d.height = 1;
  if (d.depth == 0) d.depth = 1;
  size_t rows, bytes;
  if (!jet__mul_ok(d.height, d.depth, &rows) || !jet__mul_ok(d.width_bytes, rows, &bytes))
    return jet__error(JET_STATUS_OVERFLOW, __func__, "%zu x %zu x %zu bytes overflows size_t",
                      d.width_bytes, d.height, d.depth);
  size_t pitch = d.width_bytes;
  if ((d.flags & EXPORT_FLAGS) && (d.flags & JET_MEM_PITCHED)) {
    /* cudaMallocPitch cannot allocate exportable memory: pad the rows here. */
    size_t t;
    if (!jet__add_ok(d.width_bytes, JET_MEM_EXPORTABLE_PITCH_ALIGN - 1, &t) ||
        !jet__mul_ok(t / JET_MEM_EXPORTABLE_PITCH_ALIGN * JET_MEM_EXPORTABLE_PITCH_ALIGN, rows,
                     &bytes))
      return jet__error(JET_STATUS_OVERFLOW, __func__,
                        "%zu x %zu x %zu bytes with rows padded to %d overflows size_t",
                        d.width_bytes, d.height, d.depth, JET_MEM_EXPORTABLE_PITCH_ALIGN);
    pitch = t / JET_MEM_EXPORTABLE_PITCH_ALIGN * JET_MEM_EXPORTABLE_PITCH_ALIGN;
  }

  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  jet_ipc_mechanism mech = JET_IPC_MECHANISM_NONE;
  if (d.flags & EXPORT_FLAGS)
    JET__TRY(jet__ipc_mechanism(&ctx->info, &ctx->platform.policy,
                                (d.flags & JET_MEM_EXPORTABLE_LEGACY) ? JET__IPC_REQUEST_LEGACY
                                                                      : JET__IPC_REQUEST_AUTO,
                                &mech, __func__));
  if (d.kind == JET_MEMORY_MANAGED)
    JET__TRY(jet__policy_managed_check(&ctx->platform.policy, ctx->device, __func__));
  if (d.kind == JET_MEMORY_MANAGED && !ctx->info.managed_memory)
    return jet__error(JET_STATUS_UNSUPPORTED, __func__,
                      "device %d does not support managed memory", ctx->device);
  if (d.kind == JET_MEMORY_HOST_MAPPED && !ctx->info.can_map_host_memory)
    return jet__error(JET_STATUS_UNSUPPORTED, __func__,
                      "device %d cannot map host memory (cudaDevAttrCanMapHostMemory is 0)",
                      ctx->device);
  JET__TRY(jet__ctx_activate(ctx, __func__));

  struct jet_buffer_s *b = calloc(1, sizeof *b);
  if (!b) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a buffer");
  b->requested = d.kind;
  b->flags = d.flags;
  b->width = d.width_bytes;
  b->height = d.height;
  b->depth = d.depth;
  b->pitch = pitch;
  b->size = bytes;

  jet_status st;
  switch (d.kind) {
    case JET_MEMORY_DEVICE:
      st = mech != JET_IPC_MECHANISM_NONE ? alloc_exportable(ctx, b, mech, __func__)
                                          : alloc_device(ctx, b, bytes, __func__);
      break;
    case JET_MEMORY_MANAGED: {
      unsigned f = (d.flags & JET_MEM_ATTACH_HOST) ? cudaMemAttachHost : cudaMemAttachGlobal;
      void *p = NULL;
      cudaError_t e = cudaMallocManaged(&p, bytes, f);
      if (e != cudaSuccess) {
        st = alloc_failed(ctx, e, __func__, "cudaMallocManaged", JET_MEMORY_MANAGED, bytes);
      } else {
        b->dev = b->host = p;
        b->kind = JET_MEMORY_MANAGED;
        b->mem = jet__alloc_of(JET__ALLOC_CUDA, ctx->device, p, bytes);
        st = JET_STATUS_OK;
      }
      break;
    }
    default:
      st = alloc_host(ctx, b, d.kind == JET_MEMORY_HOST_MAPPED, __func__);
      break;
  }
  if (st != JET_STATUS_OK) {
    free(b);
    return st;
  }
  return jet__buffer_register(ctx, b, out, __func__);
}

jet_status jet__buffer_register(struct jet_context_s *ctx, struct jet_buffer_s *b, jet_buffer *out,
                                const char *fn) {
  jet_status st = jet__handle_register(&b->h, JET__H_BUFFER, ctx, fn);
  if (st != JET_STATUS_OK) {
    (void)jet__alloc_release(&b->mem, fn);
    free(b);
    return st;
  }
  *out = b;
  return JET_STATUS_OK;
}

jet_status jet_host_register(jet_context ctx, void *ptr, size_t bytes, unsigned flags,
                             jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(ptr, "ptr is NULL");
  JET__ARG(bytes > 0, "bytes is 0");
  size_t end;
  if (!jet__add_ok((size_t)(uintptr_t)ptr, bytes, &end))
    return jet__error(JET_STATUS_OVERFLOW, __func__, "%p + %zu bytes wraps the address space",
                      ptr, bytes);
  JET__TRY(check_flags(JET_MEMORY_HOST_REGISTERED, flags, __func__));
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  static const char hint[] = "cudaHostRegister is unsupported on non-I/O-coherent Tegra";
  if (!ctx->platform.policy.host_register_allowed)
    return jet__error_native(JET_STATUS_UNSUPPORTED, __func__, "", "", 0, hint,
                             "policy %s does not allow host registration",
                             ctx->platform.policy.name);
  if (!ctx->info.host_register_supported)
    return jet__error_native(JET_STATUS_UNSUPPORTED, __func__, "", "", 0, hint,
                             "device %d lacks cudaDevAttrHostRegisterSupported", ctx->device);
  JET__TRY(jet__ctx_activate(ctx, __func__));

  struct jet_buffer_s *b = calloc(1, sizeof *b);
  if (!b) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a buffer");
  unsigned f = cudaHostRegisterDefault;
  if (flags & JET_MEM_PORTABLE) f |= cudaHostRegisterPortable;
  if (ctx->info.can_map_host_memory) f |= cudaHostRegisterMapped;
  cudaError_t e = cudaHostRegister(ptr, bytes, f);
  if (e != cudaSuccess) {
    free(b);
    return jet__cuda_error(e, __func__, "cudaHostRegister",
                           e == cudaErrorHostMemoryAlreadyRegistered
                               ? "part of the range is registered already: unregister it first"
                               : NULL,
                           "registering %zu bytes at %p: %s", bytes, ptr, cudaGetErrorString(e));
  }
  void *d = NULL;
  if (ctx->info.can_map_host_memory) {
    e = cudaHostGetDevicePointer(&d, ptr, 0);
    if (e != cudaSuccess) {
      (void)cudaHostUnregister(ptr);
      free(b);
      return jet__cuda_error(e, __func__, "cudaHostGetDevicePointer", NULL, NULL);
    }
  }
  b->kind = b->requested = JET_MEMORY_HOST_REGISTERED;
  b->mem = jet__alloc_of(JET__ALLOC_HOST_REGISTERED, -1, ptr, bytes);
  b->flags = flags;
  b->host = ptr;
  b->dev = d;
  b->width = b->pitch = b->size = bytes;
  b->height = b->depth = 1;
  return jet__buffer_register(ctx, b, out, __func__);
}

jet_status jet__buffer_borrow(struct jet_context_s *ctx, void *dev, size_t bytes,
                              const char *lender, jet_buffer *out, const char *fn) {
  struct jet_buffer_s *b = calloc(1, sizeof *b);
  if (!b) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a jet_buffer");
  b->kind = b->requested = JET_MEMORY_DEVICE;
  b->dev = dev;
  b->width = b->pitch = b->size = bytes;
  b->height = b->depth = 1;
  b->lender = lender;
  /* Not counted in the context's live objects: the lender is (as for images). */
  jet_status st = jet__handle_register_embedded(&b->h, JET__H_BUFFER, ctx, fn);
  if (st != JET_STATUS_OK) {
    free(b);
    return st;
  }
  *out = b;
  return JET_STATUS_OK;
}

void jet__buffer_release_borrowed(jet_buffer buf) {
  if (!buf) return;
  jet__handle_unregister_embedded(&buf->h);
  free(buf);
}

jet_status jet_buffer_destroy(jet_buffer buf) {
  if (!buf) return JET_STATUS_OK;
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  if (buf->lender)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "the buffer belongs to %s and is released with it (unmap or release "
                      "that); it is not destroyed by the caller",
                      buf->lender);
  /* Freeing goes on even if the device cannot be made current: the pointers
   * are unified addresses, and the handle must not outlive this call. */
  (void)jet__ctx_activate(buf->h.ctx, __func__);
  jet__alloc mem = buf->mem;
  jet__handle_unregister(&buf->h);
  free(buf);
  return jet__alloc_release(&mem, __func__);
}

jet_status jet_buffer_get_info(jet_buffer buf, jet_buffer_info *info) {
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  JET__ARG(info, "info is NULL");
  fill_info(buf, info);
  return JET_STATUS_OK;
}

jet_status jet_buffer_device_ptr(jet_buffer buf, void **out) {
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  JET__ARG(out, "out is NULL");
  *out = buf->dev;
  return JET_STATUS_OK;
}

jet_status jet_buffer_host_ptr(jet_buffer buf, void **out) {
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  JET__ARG(out, "out is NULL");
  *out = buf->host;
  return JET_STATUS_OK;
}

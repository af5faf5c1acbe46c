/*
 * External memory: import, buffer and image mappings, destroy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "external_internal.h"
#include "../image/image_internal.h"
#include "../memory/memory_internal.h"

/* Image mappings are rounded up to this (within the memory). */
#define MAP_ROUND ((size_t)64 << 10)

#define LENDER "a jet_external_memory (jet_external_memory_unmap_buffer / _unmap_image)"

static const char import_hint[] =
    "the descriptor must come from the exporter's fd export (Vulkan vkGetMemoryFdKHR with "
    "VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT on a physical device whose deviceUUID is this "
    "GPU's), @size the whole allocation's size, and DEDICATED set exactly when the exporter "
    "made a dedicated allocation; a descriptor is imported once";

static const char *type_name(jet_external_memory_type t) {
  switch (t) {
    case JET_EXTERNAL_MEMORY_OPAQUE_FD: return "opaque fd";
    case JET_EXTERNAL_MEMORY_DMABUF_FD: return "dma-buf";
    case JET_EXTERNAL_MEMORY_NVSCIBUF: return "NvSciBuf";
  }
  return "unknown";
}

jet_status jet__external_fd_check(int fd, const char *fn) {
  if (fd < 0) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "fd is %d", fd);
  if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "descriptor %d is not open in this process (a descriptor number sent as "
                      "plain data means nothing in another process: pass it with SCM_RIGHTS)",
                      fd);
  return JET_STATUS_OK;
}

jet_status jet__external_fd_dup(int fd, int *dup, const char *fn) {
  *dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (*dup >= 0) return JET_STATUS_OK;
  int err = errno;
  return jet__error_native(JET_STATUS_IO_ERROR, fn, "fcntl(F_DUPFD_CLOEXEC)", "errno", err,
                           err == EMFILE || err == ENFILE
                               ? "the process is out of file descriptors (ulimit -n)"
                               : NULL,
                           "cannot duplicate descriptor %d: %s", fd, strerror(err));
}

/* Whether @a and @b are one open file description: kcmp(2) where the kernel
 * has it, else the same file (device and inode). */
static int same_file(int a, int b) {
#ifdef SYS_kcmp
  pid_t pid = getpid();
  long r = syscall(SYS_kcmp, (long)pid, (long)pid, 0L /* KCMP_FILE */, (long)a, (long)b);
  if (r == 0 || r > 0) return r == 0;
#endif
  struct stat sa, sb;
  return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

void jet__external_fd_settle(int fd, int dup, int imported) {
  if (imported) {
    (void)close(fd);
  } else if (same_file(fd, dup)) {
    (void)close(dup);
  }
}

jet_status jet__external_nvsci_refused(const struct jet_context_s *ctx, const char *what,
                                       const char *fn) {
  if (ctx->platform.policy.kind != JET_PLATFORM_TEGRA)
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "", "", 0,
                             "NvSci is a Jetson / DRIVE facility; on a desktop GPU share memory "
                             "through opaque descriptors (Vulkan, CUDA VMM)",
                             "%s import needs a Tegra policy (policy %s)", what,
                             ctx->platform.policy.name);
  return jet__error_native(JET_STATUS_NOT_BUILT_IN, fn, "", "", 0,
                           "rebuild jetrt where the NvSci headers (nvscibuf.h, nvscisync.h from "
                           "the Jetson Linux / DRIVE OS SDK) are installed",
                           "%s import was left out of this build: no NvSci headers", what);
}

static jet_status check_desc(const jet_external_memory_desc *d, const char *fn) {
  switch (d->type) {
    case JET_EXTERNAL_MEMORY_OPAQUE_FD:
    case JET_EXTERNAL_MEMORY_DMABUF_FD:
      JET__TRY(jet__external_fd_check(d->fd, fn));
      break;
    case JET_EXTERNAL_MEMORY_NVSCIBUF:
      if (!d->nvsci_object)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "nvsci_object is NULL");
      break;
    default:
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown external memory type %d",
                        (int)d->type);
  }
  if (d->flags & ~(unsigned)JET_EXTERNAL_MEMORY_DEDICATED)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown external memory flags 0x%x",
                      d->flags & ~(unsigned)JET_EXTERNAL_MEMORY_DEDICATED);
  if (d->type == JET_EXTERNAL_MEMORY_DMABUF_FD && d->flags)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_EXTERNAL_MEMORY_DEDICATED does not apply to dma-buf (the driver "
                      "takes no flags for it)");
  if (d->size == 0) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "size is 0");
  return JET_STATUS_OK;
}

/* A driver's refusal of the handle is the caller's argument, whatever code it
 * comes with; anything else keeps its translation. */
static jet_status import_failed(cudaError_t e, const jet_external_memory_desc *d, const char *fn) {
  int refused = e == cudaErrorInvalidValue || e == cudaErrorInvalidResourceHandle ||
                e == cudaErrorOperatingSystem || e == cudaErrorUnknown;
  if (!refused)
    return jet__cuda_error(e, fn, "cudaImportExternalMemory", import_hint,
                           "%s descriptor %d, %zu bytes", type_name(d->type), d->fd, d->size);
  (void)cudaGetLastError();
  return jet__error_native(JET_STATUS_INVALID_ARGUMENT, fn, "cudaImportExternalMemory",
                           cudaGetErrorName(e), (int)e, import_hint,
                           "the driver refused %s descriptor %d of %zu bytes: %s",
                           type_name(d->type), d->fd, d->size, cudaGetErrorString(e));
}

/* A dma-buf knows its size (lseek to the end); a larger @size is refused
 * before the driver sees it. The descriptor's offset is put back. */
static jet_status dmabuf_size_check(const jet_external_memory_desc *d, const char *fn) {
  off_t cur = lseek(d->fd, 0, SEEK_CUR);
  off_t end = lseek(d->fd, 0, SEEK_END);
  if (cur >= 0) (void)lseek(d->fd, cur, SEEK_SET);
  if (end > 0 && (unsigned long long)end < (unsigned long long)d->size)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "size %zu exceeds the dma-buf's %lld bytes (descriptor %d)", d->size,
                      (long long)end, d->fd);
  return JET_STATUS_OK;
}

static jet_status import_dmabuf(struct jet_external_memory_s *m, const jet_external_memory_desc *d,
                                int fd, const char *fn) {
  const jet__driver_api *cu;
  JET__TRY(jet__driver(&cu, fn));
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC hd;
  memset(&hd, 0, sizeof hd);
  hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
  hd.handle.fd = fd;
  hd.size = d->size;
  CUresult r = cu->cuImportExternalMemory(&m->drv, &hd);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuImportExternalMemory",
                         "the descriptor must be a dma-buf (V4L2 VIDIOC_EXPBUF, DRM PRIME, "
                         "NvBufSurface) of at least @size bytes; CUDA imports dma-buf only on "
                         "Jetson Thor and later",
                         "dma-buf descriptor %d, %zu bytes", d->fd, d->size);
  m->via_driver = 1;
  return JET_STATUS_OK;
}

jet_status jet_external_memory_import(jet_context ctx, const jet_external_memory_desc *desc,
                                      jet_external_memory *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(desc, "desc is NULL");
  jet_external_memory_desc d = *desc;
  JET__TRY(check_desc(&d, __func__));
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  if (d.type == JET_EXTERNAL_MEMORY_NVSCIBUF)
    return jet__external_nvsci_refused(ctx, "NvSciBuf", __func__);
  if (d.type == JET_EXTERNAL_MEMORY_DMABUF_FD && !ctx->platform.policy.external_dmabuf)
    return jet__error_native(JET_STATUS_UNSUPPORTED, __func__, "", "", 0,
                             "CUDA imports dma-buf only on Jetson Thor and later (cuda.h, "
                             "cuImportExternalMemory); elsewhere export an opaque descriptor "
                             "(Vulkan OPAQUE_FD) instead",
                             "policy %s has no dma-buf import", ctx->platform.policy.name);
  if (d.type == JET_EXTERNAL_MEMORY_DMABUF_FD) JET__TRY(dmabuf_size_check(&d, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));

  struct jet_external_memory_s *m = calloc(1, sizeof *m);
  if (!m)
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for external memory");
  m->type = d.type;
  m->size = d.size;
  m->flags = d.flags;
  /* CUDA gets a duplicate: a refused import may close what it was given. */
  int dup;
  jet_status st = jet__external_fd_dup(d.fd, &dup, __func__);
  if (st != JET_STATUS_OK) {
    free(m);
    return st;
  }
  if (d.type == JET_EXTERNAL_MEMORY_DMABUF_FD) {
    st = import_dmabuf(m, &d, dup, __func__);
  } else {
    struct cudaExternalMemoryHandleDesc hd;
    memset(&hd, 0, sizeof hd);
    hd.type = cudaExternalMemoryHandleTypeOpaqueFd;
    hd.handle.fd = dup;
    hd.size = d.size;
    hd.flags = (d.flags & JET_EXTERNAL_MEMORY_DEDICATED) ? cudaExternalMemoryDedicated : 0;
    cudaError_t e = cudaImportExternalMemory(&m->rt, &hd);
    st = e == cudaSuccess ? JET_STATUS_OK : import_failed(e, &d, __func__);
  }
  jet__external_fd_settle(d.fd, dup, st == JET_STATUS_OK);
  if (st != JET_STATUS_OK) {
    free(m);
    return st;
  }
  pthread_mutex_init(&m->lock, NULL);
  st = jet__handle_register(&m->h, JET__H_EXTERNAL_MEMORY, ctx, __func__);
  if (st != JET_STATUS_OK) {
    /* The import succeeded, so CUDA owns the duplicate: destroying closes it. */
    if (m->via_driver) {
      const jet__driver_api *cu;
      if (jet__driver(&cu, __func__) == JET_STATUS_OK) (void)cu->cuDestroyExternalMemory(m->drv);
    } else {
      (void)cudaDestroyExternalMemory(m->rt);
    }
    pthread_mutex_destroy(&m->lock);
    free(m);
    jet__error_set_hint("the descriptor was imported and is closed again: export a new one");
    return st;
  }
  *out = m;
  return JET_STATUS_OK;
}

/* Ask CUDA for @size bytes at @offset of @m: the address in *@dev. */
static jet_status map_range(struct jet_external_memory_s *m, size_t offset, size_t size,
                            void **dev, const char *fn) {
  static const char hint[] =
      "offset and size must meet the exporter's alignment (Vulkan: "
      "VkMemoryRequirements.alignment of the resource bound there)";
  JET__TRY(jet__ctx_activate(m->h.ctx, fn));
  if (m->via_driver) {
    const jet__driver_api *cu;
    JET__TRY(jet__driver(&cu, fn));
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd;
    memset(&bd, 0, sizeof bd);
    bd.offset = offset;
    bd.size = size;
    CUdeviceptr p = 0;
    CUresult r = cu->cuExternalMemoryGetMappedBuffer(&p, m->drv, &bd);
    if (r != CUDA_SUCCESS)
      return jet__cu_error(r, fn, "cuExternalMemoryGetMappedBuffer", hint,
                           "%zu bytes at offset %zu of %zu-byte %s memory", size, offset, m->size,
                           type_name(m->type));
    *dev = (void *)(uintptr_t)p;
    return JET_STATUS_OK;
  }
  struct cudaExternalMemoryBufferDesc bd;
  memset(&bd, 0, sizeof bd);
  bd.offset = offset;
  bd.size = size;
  void *p = NULL;
  cudaError_t e = cudaExternalMemoryGetMappedBuffer(&p, m->rt, &bd);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaExternalMemoryGetMappedBuffer", hint,
                           "%zu bytes at offset %zu of %zu-byte %s memory", size, offset, m->size,
                           type_name(m->type));
  *dev = p;
  return JET_STATUS_OK;
}

static jet_status free_range(const struct jet_external_memory_s *m, void *dev, const char *fn) {
  if (m->via_driver) {
    const jet__driver_api *cu;
    JET__TRY(jet__driver(&cu, fn));
    CUresult r = cu->cuMemFree((CUdeviceptr)(uintptr_t)dev);
    if (r != CUDA_SUCCESS)
      return jet__cu_error(r, fn, "cuMemFree", NULL, "the mapping at %p", dev);
    return JET_STATUS_OK;
  }
  cudaError_t e = cudaFree(dev);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaFree", NULL, "the mapping at %p", dev);
  return JET_STATUS_OK;
}

/* Record a mapping; on failure nothing is recorded (the caller undoes). */
static jet_status add_mapping(struct jet_external_memory_s *m, jet__ext_map_kind kind,
                              void *object, void *dev, const char *fn) {
  jet__ext_mapping *e = calloc(1, sizeof *e);
  if (!e) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a mapping record");
  e->kind = kind;
  e->object = object;
  e->dev = dev;
  pthread_mutex_lock(&m->lock);
  e->next = m->maps;
  m->maps = e;
  m->nmaps++;
  pthread_mutex_unlock(&m->lock);
  return JET_STATUS_OK;
}

/* Take @object's record out of @m's list: NULL when it is not there. */
static jet__ext_mapping *take_mapping(struct jet_external_memory_s *m, jet__ext_map_kind kind,
                                      const void *object) {
  pthread_mutex_lock(&m->lock);
  jet__ext_mapping **pp = &m->maps, *e = NULL;
  for (; *pp; pp = &(*pp)->next)
    if ((*pp)->kind == kind && (*pp)->object == object) {
      e = *pp;
      *pp = e->next;
      m->nmaps--;
      break;
    }
  pthread_mutex_unlock(&m->lock);
  return e;
}

jet_status jet_external_memory_map_buffer(jet_external_memory mem, size_t offset, size_t size,
                                          jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__ext_memory_check(mem, __func__));
  JET__ARG(size > 0, "size is 0");
  size_t end;
  if (!jet__add_ok(offset, size, &end))
    return jet__error(JET_STATUS_OVERFLOW, __func__, "offset %zu + size %zu overflows size_t",
                      offset, size);
  JET__ARG(end <= mem->size,
           "bytes [%zu, %zu) lie past the end of the %zu-byte external memory", offset, end,
           mem->size);
  void *dev = NULL;
  JET__TRY(map_range(mem, offset, size, &dev, __func__));
  jet_buffer b = NULL;
  jet_status st = jet__buffer_borrow(mem->h.ctx, dev, size, LENDER, &b, __func__);
  if (st == JET_STATUS_OK) {
    st = add_mapping(mem, JET__EXT_MAP_BUFFER, b, dev, __func__);
    if (st != JET_STATUS_OK) jet__buffer_release_borrowed(b);
  }
  if (st != JET_STATUS_OK) {
    (void)free_range(mem, dev, __func__);
    return st;
  }
  *out = b;
  return JET_STATUS_OK;
}

jet_status jet_external_memory_map_image(jet_external_memory mem, jet_format format, int width,
                                         int height, const size_t *pitches, const size_t *offsets,
                                         jet_image *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__ext_memory_check(mem, __func__));
  jet__image_layout l;
  JET__TRY(jet__image_layout_compute(format, width, height, pitches, 1, &l, __func__));
  size_t pitch[JET_IMAGE_MAX_PLANES] = {0, 0, 0};
  size_t off[JET_IMAGE_MAX_PLANES] = {0, 0, 0};
  size_t next = 0, hi = 0;
  for (int i = 0; i < l.planes; i++) {
    const jet__plane_layout *pl = &l.plane[i];
    size_t o = offsets ? offsets[i] : next, end, full;
    pitch[i] = pl->pitch;
    off[i] = o;
    if (!jet__add_ok(o, pl->extent, &end) || end > mem->size)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "plane %d of the %dx%d %s image (offset %zu, %zu bytes) lies past the end "
                        "of the %zu-byte external memory",
                        i, width, height, jet_format_name(format), o, pl->extent, mem->size);
    if (end > hi) hi = end;
    if (!jet__mul_ok(pl->pitch, (size_t)pl->height, &full) || !jet__add_ok(o, full, &next))
      next = SIZE_MAX;
  }
  /* From offset 0, and to a whole 64 KiB where the memory has it, so that
   * the exporter's alignment rules never meet the plane offsets and sizes. */
  size_t span = hi;
  if (jet__add_ok(hi, MAP_ROUND - 1, &span)) span = span / MAP_ROUND * MAP_ROUND;
  if (span < hi || span > mem->size) span = mem->size;
  void *dev = NULL;
  JET__TRY(map_range(mem, 0, span, &dev, __func__));
  void *ptrs[JET_IMAGE_MAX_PLANES] = {NULL, NULL, NULL};
  for (int i = 0; i < l.planes; i++) ptrs[i] = (char *)dev + off[i];
  jet_image img = NULL;
  jet_status st =
      jet__image_borrow(mem->h.ctx, format, width, height, pitch, ptrs, LENDER, &img, __func__);
  if (st == JET_STATUS_OK) {
    st = add_mapping(mem, JET__EXT_MAP_IMAGE, img, dev, __func__);
    if (st != JET_STATUS_OK) jet__image_release_borrowed(img);
  }
  if (st != JET_STATUS_OK) {
    (void)free_range(mem, dev, __func__);
    return st;
  }
  *out = img;
  return JET_STATUS_OK;
}

static jet_status unmap(jet_external_memory mem, jet__ext_map_kind kind, void *object,
                        const char *what, const char *fn) {
  jet__ext_mapping *e = take_mapping(mem, kind, object);
  if (!e)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the %s is not a mapping of this external memory (mapped from another, or "
                      "unmapped already)",
                      what);
  if (kind == JET__EXT_MAP_BUFFER) jet__buffer_release_borrowed(object);
  else jet__image_release_borrowed(object);
  /* The record goes whatever the free says: the handle is gone already. */
  jet_status st = jet__ctx_activate(mem->h.ctx, fn);
  if (st == JET_STATUS_OK) st = free_range(mem, e->dev, fn);
  free(e);
  return st;
}

jet_status jet_external_memory_unmap_buffer(jet_external_memory mem, jet_buffer buf) {
  JET__TRY(jet__ext_memory_check(mem, __func__));
  JET__TRY(jet__buffer_check(buf, mem->h.ctx, __func__));
  return unmap(mem, JET__EXT_MAP_BUFFER, buf, "buffer", __func__);
}

jet_status jet_external_memory_unmap_image(jet_external_memory mem, jet_image image) {
  JET__TRY(jet__ext_memory_check(mem, __func__));
  JET__TRY(jet__handle_check_in(image, JET__H_IMAGE, mem->h.ctx, __func__, "image"));
  return unmap(mem, JET__EXT_MAP_IMAGE, image, "image", __func__);
}

jet_status jet__external_memory_map_array(jet_external_memory mem, size_t offset,
                                          const struct cudaChannelFormatDesc *format,
                                          struct cudaExtent extent, unsigned flags,
                                          unsigned levels, cudaMipmappedArray_t *out,
                                          const char *fn) {
  JET__TRY(jet__ext_memory_check(mem, fn));
  if (!out || !format) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "out or format is NULL");
  *out = NULL;
  if (levels == 0 || extent.width == 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "levels (%u) and width (%zu) must be > 0",
                      levels, extent.width);
  if (offset >= mem->size)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "offset %zu lies past the end of the %zu-byte external memory", offset,
                      mem->size);
  if (mem->via_driver)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "%s memory cannot be mapped as a CUDA array (cuImportExternalMemory: "
                      "\"not supported\"); map it as a buffer or an image",
                      type_name(mem->type));
  JET__TRY(jet__ctx_activate(mem->h.ctx, fn));
  struct cudaExternalMemoryMipmappedArrayDesc ad;
  memset(&ad, 0, sizeof ad);
  ad.offset = offset;
  ad.formatDesc = *format;
  ad.extent = extent;
  ad.flags = flags;
  ad.numLevels = levels;
  cudaMipmappedArray_t a = NULL;
  cudaError_t e = cudaExternalMemoryGetMappedMipmappedArray(&a, mem->rt, &ad);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaExternalMemoryGetMappedMipmappedArray",
                           "the description must match the exporter's image (Vulkan: format, "
                           "extent, mip levels, VK_IMAGE_TILING_OPTIMAL) at its bound offset",
                           "%zux%zux%zu, %u level(s) at offset %zu", extent.width, extent.height,
                           extent.depth, levels, offset);
  jet_status st = add_mapping(mem, JET__EXT_MAP_ARRAY, a, NULL, fn);
  if (st != JET_STATUS_OK) {
    (void)cudaFreeMipmappedArray(a);
    return st;
  }
  *out = a;
  return JET_STATUS_OK;
}

jet_status jet__external_memory_unmap_array(jet_external_memory mem, cudaMipmappedArray_t array,
                                            const char *fn) {
  JET__TRY(jet__ext_memory_check(mem, fn));
  jet__ext_mapping *e = take_mapping(mem, JET__EXT_MAP_ARRAY, array);
  if (!e)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the array is not a mapping of this external memory");
  free(e);
  jet_status st = jet__ctx_activate(mem->h.ctx, fn);
  if (st != JET_STATUS_OK) return st;
  cudaError_t err = cudaFreeMipmappedArray(array);
  if (err != cudaSuccess) return jet__cuda_error(err, fn, "cudaFreeMipmappedArray", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet_external_memory_get_info(jet_external_memory mem, jet_external_memory_type *type,
                                        size_t *size, int *mappings) {
  JET__TRY(jet__ext_memory_check(mem, __func__));
  JET__ARG(type || size || mappings, "type, size and mappings are all NULL");
  if (type) *type = mem->type;
  if (size) *size = mem->size;
  if (mappings) {
    pthread_mutex_lock(&mem->lock);
    *mappings = mem->nmaps;
    pthread_mutex_unlock(&mem->lock);
  }
  return JET_STATUS_OK;
}

jet_status jet_external_memory_destroy(jet_external_memory mem) {
  if (!mem) return JET_STATUS_OK;
  JET__TRY(jet__ext_memory_check(mem, __func__));
  pthread_mutex_lock(&mem->lock);
  int n = mem->nmaps;
  pthread_mutex_unlock(&mem->lock);
  if (n)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d buffer/image/array mapping(s) of this external memory are live: "
                      "unmap them first (jet_external_memory_unmap_buffer / _unmap_image)",
                      n);
  jet_status st = jet__ctx_activate(mem->h.ctx, __func__);
  if (mem->via_driver) {
    const jet__driver_api *cu;
    jet_status ds = jet__driver(&cu, __func__);
    if (ds == JET_STATUS_OK) {
      CUresult r = cu->cuDestroyExternalMemory(mem->drv);
      if (r != CUDA_SUCCESS) ds = jet__cu_error(r, __func__, "cuDestroyExternalMemory", NULL, NULL);
    }
    if (st == JET_STATUS_OK) st = ds;
  } else {
    cudaError_t e = cudaDestroyExternalMemory(mem->rt);
    if (e != cudaSuccess && st == JET_STATUS_OK)
      st = jet__cuda_error(e, __func__, "cudaDestroyExternalMemory", NULL, NULL);
  }
  jet__handle_unregister(&mem->h);
  pthread_mutex_destroy(&mem->lock);
  free(mem);
  return st;
}

/*
 * Export and import of buffers, images and shared buffers between processes
 * (jetrt/ipc.h). How memory is mapped is alloc.c's; this file describes
 * objects and checks descriptions.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory_ipc.h"
#include "../memory/memory_internal.h"
#include "shared_ops.h"

_Static_assert(sizeof(jet_ipc_memory_desc) == 208, "jet_ipc_memory_desc has no padding");
_Static_assert(offsetof(jet_ipc_memory_desc, alloc_size) == 32, "fixed layout");
_Static_assert(offsetof(jet_ipc_memory_desc, format) == 80, "fixed layout");
_Static_assert(offsetof(jet_ipc_memory_desc, plane_offset) == 96, "fixed layout");
_Static_assert(offsetof(jet_ipc_memory_desc, legacy_handle) == 144, "fixed layout");
_Static_assert(sizeof(((jet_ipc_memory_desc *)0)->legacy_handle) == sizeof(cudaIpcMemHandle_t),
               "the legacy handle field holds a cudaIpcMemHandle_t");
_Static_assert(sizeof(((jet_ipc_memory_desc *)0)->device_uuid) ==
                   sizeof(((jet_platform_info *)0)->uuid),
               "the UUID field holds a device UUID");

#define BUFFER_FLAGS (JET_MEM_PITCHED | JET_MEM_EXPORTABLE | JET_MEM_EXPORTABLE_LEGACY)
#define IMAGE_FLAGS (JET_IMAGE_EXPORTABLE | JET_IMAGE_EXPORTABLE_LEGACY)
#define SHARED_FLAGS (JET_SHARED_EXPORTABLE | JET_SHARED_STAGED)

static const char *object_name(uint32_t o) {
  switch (o) {
    case JET_IPC_OBJECT_BUFFER: return "buffer";
    case JET_IPC_OBJECT_IMAGE: return "image";
    case JET_IPC_OBJECT_SHARED: return "shared";
  }
  return "unknown object";
}

/* ------------------------------------------------------------ description check */

static int all_zero(const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i]) return 0;
  return 1;
}

#define BAD(...) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, __VA_ARGS__)

static jet_status check_flags(const jet_ipc_memory_desc *d, const char *fn) {
  uint32_t allowed, exp, legacy;
  const char *name;
  switch (d->object) {
    case JET_IPC_OBJECT_BUFFER:
      allowed = BUFFER_FLAGS, exp = JET_MEM_EXPORTABLE, legacy = JET_MEM_EXPORTABLE_LEGACY;
      name = "JET_MEM_EXPORTABLE";
      break;
    case JET_IPC_OBJECT_IMAGE:
      allowed = IMAGE_FLAGS, exp = JET_IMAGE_EXPORTABLE, legacy = JET_IMAGE_EXPORTABLE_LEGACY;
      name = "JET_IMAGE_EXPORTABLE";
      break;
    default:
      allowed = SHARED_FLAGS, exp = JET_SHARED_EXPORTABLE, legacy = 0;
      name = "JET_SHARED_EXPORTABLE";
      break;
  }
  if (d->flags & ~allowed)
    BAD("description flags 0x%x: 0x%x are not creation flags of an exportable %s", d->flags,
        d->flags & ~allowed, object_name(d->object));
  uint32_t e = d->flags & (exp | legacy);
  if (e == 0 || (e != exp && e != legacy)) {
    if (!legacy)
      BAD("description flags 0x%x: an exported %s has %s: exactly one exportable flag",
          d->flags, object_name(d->object), name);
    BAD("description flags 0x%x: an exported %s has exactly one of %s and %s_LEGACY", d->flags,
        object_name(d->object), name, name);
  }
  if (legacy && e == legacy && d->mechanism != JET_IPC_MECHANISM_LEGACY)
    BAD("description flags 0x%x say %s_LEGACY but the mechanism is %u", d->flags, name,
        d->mechanism);
  return JET_STATUS_OK;
}

static jet_status check_buffer(const jet_ipc_memory_desc *d, const char *fn) {
  if (d->width_bytes == 0 || d->height == 0 || d->depth == 0)
    BAD("buffer extent %llu x %llu x %llu: each must be >= 1", (unsigned long long)d->width_bytes,
        (unsigned long long)d->height, (unsigned long long)d->depth);
  if (d->pitch < d->width_bytes)
    BAD("buffer pitch %llu is smaller than its width %llu bytes", (unsigned long long)d->pitch,
        (unsigned long long)d->width_bytes);
  if (!(d->flags & JET_MEM_PITCHED) && d->pitch != d->width_bytes)
    BAD("buffer pitch %llu differs from its width %llu bytes without JET_MEM_PITCHED",
        (unsigned long long)d->pitch, (unsigned long long)d->width_bytes);
  if ((d->flags & JET_MEM_PITCHED) && d->pitch % JET_MEM_EXPORTABLE_PITCH_ALIGN)
    BAD("pitched buffer pitch %llu is not a multiple of %d", (unsigned long long)d->pitch,
        JET_MEM_EXPORTABLE_PITCH_ALIGN);
  uint64_t rows, bytes;
  if (__builtin_mul_overflow(d->height, d->depth, &rows) ||
      __builtin_mul_overflow(d->pitch, rows, &bytes))
    BAD("buffer pitch %llu x %llu x %llu overflows 64 bits", (unsigned long long)d->pitch,
        (unsigned long long)d->height, (unsigned long long)d->depth);
  if (bytes != d->data_size)
    BAD("buffer pitch x height x depth is %llu bytes, data_size says %llu",
        (unsigned long long)bytes, (unsigned long long)d->data_size);
  return JET_STATUS_OK;
}

static jet_status check_image(const jet_ipc_memory_desc *d, jet__image_layout *out,
                              const char *fn) {
  const jet_format_desc *f = jet__format((jet_format)d->format);
  if (d->format > INT_MAX || !f) BAD("unknown image format %u", d->format);
  if (d->width == 0 || d->width > INT_MAX || d->image_height == 0 || d->image_height > INT_MAX)
    BAD("image size %ux%u: each must be 1..%d", d->width, d->image_height, INT_MAX);
  if (d->plane_count != (uint32_t)f->planes)
    BAD("%s has %d plane(s); the description says %u", f->name, f->planes, d->plane_count);
  size_t pitches[JET_IMAGE_MAX_PLANES] = {0, 0, 0};
  for (uint32_t i = 0; i < JET_IMAGE_MAX_PLANES; i++) {
    if (i >= d->plane_count) {
      if (d->plane_offset[i] || d->plane_pitch[i])
        BAD("%s plane %u does not exist but has offset %llu, pitch %llu", f->name, i,
            (unsigned long long)d->plane_offset[i], (unsigned long long)d->plane_pitch[i]);
      continue;
    }
    if (d->plane_pitch[i] > SIZE_MAX)
      BAD("plane %u pitch %llu does not fit size_t", i, (unsigned long long)d->plane_pitch[i]);
    pitches[i] = (size_t)d->plane_pitch[i];
  }
  jet__image_layout l;
  JET__TRY(jet__image_layout_compute((jet_format)d->format, (int)d->width, (int)d->image_height,
                                     pitches, 1, &l, fn));
  uint64_t last_end = 0;
  for (int i = 0; i < l.planes; i++) {
    uint64_t off = d->plane_offset[i], end;
    if (off % (uint64_t)l.elem_size)
      BAD("%s plane %d offset %llu is not a multiple of the element size %d", f->name, i,
          (unsigned long long)off, l.elem_size);
    if (__builtin_add_overflow(off, (uint64_t)l.plane[i].extent, &end) || end > d->data_size)
      BAD("%s plane %d at offset %llu spanning %zu bytes ends past data_size %llu", f->name, i,
          (unsigned long long)off, l.plane[i].extent, (unsigned long long)d->data_size);
    l.plane[i].offset = (size_t)off;
    if (end > last_end) last_end = end;
  }
  for (int i = 0; i < l.planes; i++)
    for (int j = i + 1; j < l.planes; j++) {
      uint64_t a = l.plane[i].offset, b = l.plane[j].offset;
      if (a < b + l.plane[j].extent && b < a + l.plane[i].extent)
        BAD("%s planes %d [%llu, +%zu) and %d [%llu, +%zu) overlap", f->name, i,
            (unsigned long long)a, l.plane[i].extent, j, (unsigned long long)b,
            l.plane[j].extent);
    }
  if (last_end != d->data_size)
    BAD("%s planes end at byte %llu; data_size says %llu", f->name,
        (unsigned long long)last_end, (unsigned long long)d->data_size);
  l.total_bytes = (size_t)d->data_size;
  if (out) *out = l;
  return JET_STATUS_OK;
}

jet_status jet__ipc_desc_check(const jet_ipc_memory_desc *d, jet_ipc_object object, int fd,
                               jet__image_layout *layout, const char *fn) {
  if (d->version != JET_IPC_DESC_VERSION)
    BAD("description version %u; this jetrt reads version %u (both processes need the same "
        "jetrt description layout)",
        d->version, JET_IPC_DESC_VERSION);
  if (d->object != (uint32_t)object)
    BAD("the description is of a%s %s, not of a%s %s: use jet_ipc_import_%s",
        d->object == JET_IPC_OBJECT_IMAGE ? "n" : "", object_name(d->object),
        object == JET_IPC_OBJECT_IMAGE ? "n" : "", object_name(object), object_name(d->object));
  if (d->mechanism != JET_IPC_MECHANISM_VMM_FD && d->mechanism != JET_IPC_MECHANISM_LEGACY)
    BAD("unknown mechanism %u in the description", d->mechanism);
  JET__TRY(check_flags(d, fn));
  if (d->mechanism == JET_IPC_MECHANISM_VMM_FD) {
    if (fd < 0)
      BAD("fd %d: a VMM description comes with the file descriptor jet_ipc_export_%s returned",
          fd, object_name(object));
    if (!all_zero(d->legacy_handle, sizeof d->legacy_handle))
      BAD("a VMM description has a legacy handle set");
  } else {
    if (fd != -1)
      BAD("fd %d: a legacy description has no file descriptor; pass -1", fd);
    if (all_zero(d->legacy_handle, sizeof d->legacy_handle))
      BAD("a legacy description has an all-zero handle");
  }
  if (d->alloc_size == 0 || d->alloc_size % JET_IPC_ALLOC_ALIGN || d->alloc_size > SIZE_MAX)
    BAD("alloc_size %llu is not a positive multiple of %llu that fits size_t",
        (unsigned long long)d->alloc_size, (unsigned long long)JET_IPC_ALLOC_ALIGN);
  if (d->data_size == 0 || d->data_size > d->alloc_size)
    BAD("data_size %llu is not within 1..alloc_size (%llu)", (unsigned long long)d->data_size,
        (unsigned long long)d->alloc_size);
  int buffer_zero = !d->width_bytes && !d->height && !d->depth && !d->pitch;
  int image_zero = !d->format && !d->width && !d->image_height && !d->plane_count &&
                   all_zero(d->plane_offset, sizeof d->plane_offset) &&
                   all_zero(d->plane_pitch, sizeof d->plane_pitch);
  switch (object) {
    case JET_IPC_OBJECT_BUFFER:
      if (!image_zero) BAD("a buffer description has image fields set");
      return check_buffer(d, fn);
    case JET_IPC_OBJECT_IMAGE:
      if (!buffer_zero) BAD("an image description has buffer fields set");
      return check_image(d, layout, fn);
    case JET_IPC_OBJECT_SHARED:
      if (!buffer_zero || !image_zero)
        BAD("a shared-buffer description has buffer or image fields set");
      if (d->data_size > PTRDIFF_MAX)
        BAD("data_size %llu exceeds the largest object", (unsigned long long)d->data_size);
      return JET_STATUS_OK;
  }
  return jet__error(JET_STATUS_INTERNAL, fn, "unknown object %d", (int)object);
}

/* ------------------------------------------------------------ export */

static void format_uuid(const unsigned char *u, char out[41]) {
  snprintf(out, 41,
           "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
           u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
           u[15]);
}

/* The common part of every export: @a's handle and the header fields. */
static jet_status export_alloc(const struct jet_context_s *ctx, const jet__alloc *a,
                               jet_ipc_object object, unsigned flags, jet_ipc_memory_desc *d,
                               int *fd, const char *flag, const char *fn) {
  if (a->exportable == JET_IPC_MECHANISM_NONE && !a->imported)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "the %s was created without %s: only memory created with %s (or "
                      "%s_LEGACY) can be shared with another process",
                      object_name(object), flag, flag, flag);
  unsigned char legacy[64];
  JET__TRY(jet__alloc_export(a, fd, legacy, fn));
  memset(d, 0, sizeof *d);
  d->version = JET_IPC_DESC_VERSION;
  d->mechanism = (uint32_t)a->exportable;
  d->object = (uint32_t)object;
  d->flags = flags;
  memcpy(d->device_uuid, ctx->info.uuid, sizeof d->device_uuid);
  d->alloc_size = a->size;
  memcpy(d->legacy_handle, legacy, sizeof d->legacy_handle);
  return JET_STATUS_OK;
}

static jet_status export_args(jet_ipc_memory_desc *desc, int *fd, const char *fn) {
  if (fd) *fd = -1;
  if (!desc) BAD("desc is NULL");
  if (!fd) BAD("fd is NULL");
  return JET_STATUS_OK;
}

jet_status jet_ipc_export_buffer(jet_buffer buf, jet_ipc_memory_desc *desc, int *fd) {
  JET__TRY(export_args(desc, fd, __func__));
  JET__TRY(jet__buffer_check(buf, NULL, __func__));
  jet_ipc_memory_desc d;
  JET__TRY(export_alloc(buf->h.ctx, &buf->mem, JET_IPC_OBJECT_BUFFER, buf->flags, &d, fd,
                        "JET_MEM_EXPORTABLE", __func__));
  d.data_size = buf->size;
  d.width_bytes = buf->width;
  d.height = buf->height;
  d.depth = buf->depth;
  d.pitch = buf->pitch;
  *desc = d;
  return JET_STATUS_OK;
}

jet_status jet_ipc_export_image(jet_image image, jet_ipc_memory_desc *desc, int *fd) {
  JET__TRY(export_args(desc, fd, __func__));
  JET__TRY(jet__handle_check(image, JET__H_IMAGE, __func__, "image"));
  jet_ipc_memory_desc d;
  JET__TRY(export_alloc(image->h.ctx, &image->mem, JET_IPC_OBJECT_IMAGE, image->flags, &d, fd,
                        "JET_IMAGE_EXPORTABLE", __func__));
  const jet__image_layout *l = &image->layout;
  d.data_size = l->total_bytes;
  d.format = (uint32_t)l->format;
  d.width = (uint32_t)l->width;
  d.image_height = (uint32_t)l->height;
  d.plane_count = (uint32_t)l->planes;
  for (int i = 0; i < l->planes; i++) {
    d.plane_offset[i] = l->plane[i].offset;
    d.plane_pitch[i] = l->plane[i].pitch;
  }
  *desc = d;
  return JET_STATUS_OK;
}

jet_status jet_ipc_export_shared(jet_shared sb, jet_ipc_memory_desc *desc, int *fd) {
  JET__TRY(export_args(desc, fd, __func__));
  JET__TRY(jet__handle_check(sb, JET__H_SHARED, __func__, "sb"));
  pthread_mutex_lock(&sb->lock);
  jet_ipc_memory_desc d;
  jet_status st = export_alloc(sb->h.ctx, &sb->devmem, JET_IPC_OBJECT_SHARED, sb->flags, &d, fd,
                               "JET_SHARED_EXPORTABLE", __func__);
  d.data_size = sb->bytes;
  pthread_mutex_unlock(&sb->lock);
  if (st == JET_STATUS_OK) *desc = d;
  return st;
}

/* ------------------------------------------------------------ import */

/* Everything about @ctx and @fd that can be checked before any CUDA call. */
static jet_status import_enter(jet_context ctx, const jet_ipc_memory_desc *d, int fd,
                               const char *fn) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, fn, "ctx"));
  if (memcmp(d->device_uuid, ctx->info.uuid, sizeof ctx->info.uuid) != 0) {
    char theirs[41], ours[41];
    format_uuid((const unsigned char *)d->device_uuid, theirs);
    format_uuid(ctx->info.uuid, ours);
    BAD("the memory belongs to the GPU %s; this context's device %d (%s) is %s: import it "
        "in a context on the exporting GPU",
        theirs, ctx->device, ctx->info.name, ours);
  }
  JET__TRY(jet__ipc_mechanism_usable(&ctx->info, &ctx->platform.policy,
                                     (jet_ipc_mechanism)d->mechanism, fn));
  if (d->alloc_size > ctx->info.total_memory)
    BAD("the description declares an allocation of %llu bytes, more than device %d's %zu bytes "
        "of memory (a forged or corrupted description)",
        (unsigned long long)d->alloc_size, ctx->device, ctx->info.total_memory);
  if (d->mechanism == JET_IPC_MECHANISM_VMM_FD && fcntl(fd, F_GETFD) < 0) {
    int err = errno;
    return jet__error_native(JET_STATUS_INVALID_ARGUMENT, fn, "fcntl", strerror(err), err,
                             "pass the descriptor as received through the socket (SCM_RIGHTS), "
                             "and close it only after the import",
                             "fd %d is not an open descriptor in this process", fd);
  }
  return jet__ctx_activate(ctx, fn);
}

static jet_status import_args(const jet_ipc_memory_desc *desc, void *out, const char *fn) {
  if (!out) BAD("out is NULL");
  if (!desc) BAD("desc is NULL");
  return JET_STATUS_OK;
}

static jet_status import_memory(jet_context ctx, const jet_ipc_memory_desc *d, int fd,
                                jet__alloc *mem, const char *fn) {
  return jet__alloc_import(ctx->device, (jet_ipc_mechanism)d->mechanism, fd,
                           (const unsigned char *)d->legacy_handle, (size_t)d->alloc_size, mem,
                           fn);
}

jet_status jet_ipc_import_buffer(jet_context ctx, const jet_ipc_memory_desc *desc, int fd,
                                 jet_buffer *out) {
  if (out) *out = NULL;
  JET__TRY(import_args(desc, out, __func__));
  JET__TRY(jet__ipc_desc_check(desc, JET_IPC_OBJECT_BUFFER, fd, NULL, __func__));
  JET__TRY(import_enter(ctx, desc, fd, __func__));
  struct jet_buffer_s *b = calloc(1, sizeof *b);
  if (!b) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a buffer");
  jet_status st = import_memory(ctx, desc, fd, &b->mem, __func__);
  if (st != JET_STATUS_OK) {
    free(b);
    return st;
  }
  b->kind = b->requested = JET_MEMORY_DEVICE;
  b->flags = desc->flags;
  b->dev = b->mem.ptr;
  b->width = (size_t)desc->width_bytes;
  b->height = (size_t)desc->height;
  b->depth = (size_t)desc->depth;
  b->pitch = (size_t)desc->pitch;
  b->size = (size_t)desc->data_size;
  return jet__buffer_register(ctx, b, out, __func__);
}

jet_status jet_ipc_import_image(jet_context ctx, const jet_ipc_memory_desc *desc, int fd,
                                jet_image *out) {
  if (out) *out = NULL;
  JET__TRY(import_args(desc, out, __func__));
  jet__image_layout l;
  JET__TRY(jet__ipc_desc_check(desc, JET_IPC_OBJECT_IMAGE, fd, &l, __func__));
  JET__TRY(import_enter(ctx, desc, fd, __func__));
  jet__alloc mem;
  JET__TRY(import_memory(ctx, desc, fd, &mem, __func__));
  void *ptrs[JET_IMAGE_MAX_PLANES] = {NULL, NULL, NULL};
  for (int i = 0; i < l.planes; i++) ptrs[i] = (char *)mem.ptr + l.plane[i].offset;
  jet_status st =
      jet__image_new(ctx, &l, JET_IMAGE_MEMORY_DEVICE, ptrs, &mem, desc->flags, out, __func__);
  if (st != JET_STATUS_OK) (void)jet__alloc_release(&mem, __func__);
  return st;
}

jet_status jet_ipc_import_shared(jet_context ctx, const jet_ipc_memory_desc *desc, int fd,
                                 jet_shared *out) {
  if (out) *out = NULL;
  JET__TRY(import_args(desc, out, __func__));
  JET__TRY(jet__ipc_desc_check(desc, JET_IPC_OBJECT_SHARED, fd, NULL, __func__));
  JET__TRY(import_enter(ctx, desc, fd, __func__));
  jet__alloc mem;
  JET__TRY(import_memory(ctx, desc, fd, &mem, __func__));
  jet_status st =
      jet__shared_create(ctx, (size_t)desc->data_size, desc->flags, &mem, out, __func__);
  if (st != JET_STATUS_OK) (void)jet__alloc_release(&mem, __func__);
  return st;
}

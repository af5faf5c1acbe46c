/*
 * The public VMM API and the growable buffer (jetrt/vmm.h), composed from
 * the steps of vmm.c, which stays the only caller of the VMM driver entry
 * points.
 */
#include <stdlib.h>
#include <string.h>

#include "memory_internal.h"

/* A reservation and the mappings in it, sorted by offset. */
typedef struct vspace {
  int device;
  CUdeviceptr base;
  size_t size;
  size_t gmin, grec;
  struct vmapping {
    size_t offset, size;
  } *maps;
  int nmaps, cap;
  size_t mapped; /* bytes mapped in all */
} vspace;

struct jet_vmm_range_s {
  jet__handle h;
  vspace sp;
};

struct jet_vmm_mem_s {
  jet__handle h;
  CUmemGenericAllocationHandle handle;
  size_t size;
};

struct jet_growable_s {
  jet__handle h;
  vspace sp;
  jet_buffer view; /* borrowed, made on first jet_growable_buffer */
};

/* ------------------------------------------------------------ common steps */

/* The device has VMM; its primary context current for the driver calls. */
static jet_status vmm_enter(struct jet_context_s *ctx, const char *fn) {
  if (!ctx->info.vmm_supported)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "device %d (%s) lacks virtual memory management "
                      "(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED is 0)",
                      ctx->device, ctx->info.name);
  JET__TRY(jet__ctx_activate(ctx, fn));
  return jet__vmm_enter(ctx->device, fn);
}

static jet_status granularity(int device, size_t *gmin, size_t *grec, const char *fn) {
  CUmemAllocationProp prop = jet__vmm_prop(device, 0);
  return jet__vmm_granularity(&prop, gmin, grec, fn);
}

static jet_status aligned(size_t v, size_t g, const char *what, const char *fn) {
  if (v % g)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s %zu is not a multiple of the device's minimum granularity %zu", what, v,
                      g);
  return JET_STATUS_OK;
}

static jet_status space_reserve(struct jet_context_s *ctx, size_t bytes, vspace *sp,
                                const char *fn) {
  CUdeviceptr p = 0;
  JET__TRY(jet__vmm_reserve(bytes, sp->grec, &p, fn));
  sp->device = ctx->device;
  sp->base = p;
  sp->size = bytes;
  return JET_STATUS_OK;
}

/* Index where a mapping at @offset goes (first one starting after it). */
static int space_slot(const vspace *sp, size_t offset) {
  int i = 0;
  while (i < sp->nmaps && sp->maps[i].offset < offset) i++;
  return i;
}

static jet_status space_room(vspace *sp, const char *fn);

static jet_status space_add(vspace *sp, size_t offset, size_t size, const char *fn) {
  JET__TRY(space_room(sp, fn));
  int i = space_slot(sp, offset);
  memmove(&sp->maps[i + 1], &sp->maps[i], (size_t)(sp->nmaps - i) * sizeof sp->maps[0]);
  sp->maps[i].offset = offset;
  sp->maps[i].size = size;
  sp->nmaps++;
  sp->mapped += size;
  return JET_STATUS_OK;
}

static void space_remove(vspace *sp, int i) {
  sp->mapped -= sp->maps[i].size;
  memmove(&sp->maps[i], &sp->maps[i + 1], (size_t)(sp->nmaps - i - 1) * sizeof sp->maps[0]);
  sp->nmaps--;
}

/* Reserve room in the record first, so that a mapping made is always recorded. */
static jet_status space_room(vspace *sp, const char *fn) {
  if (sp->nmaps < sp->cap) return JET_STATUS_OK;
  int cap = sp->cap ? sp->cap * 2 : 8;
  struct vmapping *m = realloc(sp->maps, (size_t)cap * sizeof *m);
  if (!m) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a mapping record");
  sp->maps = m;
  sp->cap = cap;
  return JET_STATUS_OK;
}

/* Unmap every mapping and free the reservation; returns the first failure.
 * A mapping that fails to unmap keeps the reservation (it cannot be freed
 * under a live mapping). */
static jet_status space_release(vspace *sp, const char *fn) {
  jet_status first = JET_STATUS_OK;
  int left = 0;
  for (int i = 0; i < sp->nmaps; i++) {
    jet_status st = jet__vmm_unmap(sp->base + sp->maps[i].offset, sp->maps[i].size, fn);
    if (st != JET_STATUS_OK) {
      left++;
      if (first == JET_STATUS_OK) first = st;
    }
  }
  if (!left && sp->base) {
    jet_status st = jet__vmm_address_free(sp->base, sp->size, fn);
    if (first == JET_STATUS_OK) first = st;
  }
  free(sp->maps);
  memset(sp, 0, sizeof *sp);
  return first;
}

/* ------------------------------------------------------------ granularity, ranges */

jet_status jet_vmm_granularity(jet_context ctx, size_t *minimum, size_t *recommended) {
  if (minimum) *minimum = 0;
  if (recommended) *recommended = 0;
  JET__ARG(minimum || recommended, "minimum and recommended are both NULL");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(vmm_enter(ctx, __func__));
  return granularity(ctx->device, minimum, recommended, __func__);
}

jet_status jet_vmm_reserve(jet_context ctx, size_t bytes, jet_vmm_range *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(bytes > 0, "bytes is 0");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(vmm_enter(ctx, __func__));
  struct jet_vmm_range_s *r = calloc(1, sizeof *r);
  if (!r) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a range");
  jet_status st = granularity(ctx->device, &r->sp.gmin, &r->sp.grec, __func__);
  if (st == JET_STATUS_OK) st = aligned(bytes, r->sp.gmin, "bytes", __func__);
  if (st == JET_STATUS_OK) st = space_reserve(ctx, bytes, &r->sp, __func__);
  if (st == JET_STATUS_OK) st = jet__handle_register(&r->h, JET__H_VMM_RANGE, ctx, __func__);
  if (st != JET_STATUS_OK) {
    if (r->sp.base) (void)jet__vmm_address_free(r->sp.base, r->sp.size, __func__);
    free(r);
    return st;
  }
  *out = r;
  return JET_STATUS_OK;
}

jet_status jet_vmm_range_info(jet_vmm_range range, void **base, size_t *bytes,
                              size_t *mapped_bytes) {
  JET__TRY(jet__handle_check(range, JET__H_VMM_RANGE, __func__, "range"));
  if (base) *base = (void *)(uintptr_t)range->sp.base;
  if (bytes) *bytes = range->sp.size;
  if (mapped_bytes) *mapped_bytes = range->sp.mapped;
  return JET_STATUS_OK;
}

jet_status jet_vmm_free_range(jet_vmm_range range) {
  if (!range) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(range, JET__H_VMM_RANGE, __func__, "range"));
  if (range->sp.nmaps)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d mapping(s) (%zu bytes) remain in the range: unmap them first",
                      range->sp.nmaps, range->sp.mapped);
  (void)jet__vmm_enter(range->sp.device, __func__);
  vspace sp = range->sp;
  jet__handle_unregister(&range->h);
  free(range);
  return space_release(&sp, __func__);
}

/* ------------------------------------------------------------ physical memory */

jet_status jet_vmm_mem_create(jet_context ctx, size_t bytes, jet_vmm_mem *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(bytes > 0, "bytes is 0");
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(vmm_enter(ctx, __func__));
  size_t gmin = 0;
  JET__TRY(granularity(ctx->device, &gmin, NULL, __func__));
  JET__TRY(aligned(bytes, gmin, "bytes", __func__));
  struct jet_vmm_mem_s *m = calloc(1, sizeof *m);
  if (!m) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a handle");
  CUmemAllocationProp prop = jet__vmm_prop(ctx->device, 0);
  jet_status st = jet__vmm_create(&prop, bytes, &m->handle, __func__);
  if (st != JET_STATUS_OK) {
    free(m);
    return st;
  }
  m->size = bytes;
  st = jet__handle_register(&m->h, JET__H_VMM_MEM, ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)jet__vmm_release(m->handle, __func__);
    free(m);
    return st;
  }
  *out = m;
  return JET_STATUS_OK;
}

jet_status jet_vmm_mem_size(jet_vmm_mem mem, size_t *bytes) {
  JET__ARG(bytes, "bytes is NULL");
  *bytes = 0;
  JET__TRY(jet__handle_check(mem, JET__H_VMM_MEM, __func__, "mem"));
  *bytes = mem->size;
  return JET_STATUS_OK;
}

jet_status jet_vmm_mem_release(jet_vmm_mem mem) {
  if (!mem) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(mem, JET__H_VMM_MEM, __func__, "mem"));
  (void)jet__vmm_enter(mem->h.ctx->device, __func__);
  CUmemGenericAllocationHandle h = mem->handle;
  jet__handle_unregister(&mem->h);
  free(mem);
  return jet__vmm_release(h, __func__);
}

/* ------------------------------------------------------------ mappings */

jet_status jet_vmm_map(jet_vmm_range range, size_t offset, jet_vmm_mem mem) {
  JET__TRY(jet__handle_check(range, JET__H_VMM_RANGE, __func__, "range"));
  JET__TRY(jet__handle_check_in(mem, JET__H_VMM_MEM, range->h.ctx, __func__, "mem"));
  vspace *sp = &range->sp;
  JET__TRY(aligned(offset, sp->gmin, "offset", __func__));
  size_t end;
  if (!jet__add_ok(offset, mem->size, &end) || end > sp->size)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "%zu bytes at offset %zu pass the end of the %zu-byte range", mem->size,
                      offset, sp->size);
  int i = space_slot(sp, offset);
  if ((i > 0 && sp->maps[i - 1].offset + sp->maps[i - 1].size > offset) ||
      (i < sp->nmaps && sp->maps[i].offset < end)) {
    const struct vmapping *o = (i > 0 && sp->maps[i - 1].offset + sp->maps[i - 1].size > offset)
                                   ? &sp->maps[i - 1]
                                   : &sp->maps[i];
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "[%zu, +%zu) overlaps the mapping [%zu, +%zu): unmap it first", offset,
                      mem->size, o->offset, o->size);
  }
  JET__TRY(space_room(sp, __func__));
  JET__TRY(jet__vmm_enter(sp->device, __func__));
  JET__TRY(jet__vmm_map_handle(sp->base + offset, mem->size, mem->handle, __func__));
  return space_add(sp, offset, mem->size, __func__); /* room was made: cannot fail */
}

jet_status jet_vmm_set_access(jet_vmm_range range, size_t offset, size_t bytes,
                              jet_mem_access access) {
  JET__ARG(access == JET_MEM_ACCESS_READ || access == JET_MEM_ACCESS_READ_WRITE,
           "access %d: set JET_MEM_ACCESS_READ or JET_MEM_ACCESS_READ_WRITE (unmap to take "
           "access away)",
           (int)access);
  JET__ARG(bytes > 0, "bytes is 0");
  JET__TRY(jet__handle_check(range, JET__H_VMM_RANGE, __func__, "range"));
  vspace *sp = &range->sp;
  JET__TRY(aligned(offset, sp->gmin, "offset", __func__));
  JET__TRY(aligned(bytes, sp->gmin, "bytes", __func__));
  size_t end;
  if (!jet__add_ok(offset, bytes, &end) || end > sp->size)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "%zu bytes at offset %zu pass the end of the %zu-byte range", bytes, offset,
                      sp->size);
  size_t at = offset;
  for (int i = 0; i < sp->nmaps && at < end; i++) {
    const struct vmapping *m = &sp->maps[i];
    if (m->offset + m->size <= at) continue;
    if (m->offset > at) break;
    at = m->offset + m->size;
  }
  if (at < end)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "byte %zu of [%zu, +%zu) is not mapped: access is set on mapped memory only",
                      at, offset, bytes);
  JET__TRY(jet__vmm_enter(sp->device, __func__));
  return jet__vmm_set_access_flags(sp->base + offset, bytes, sp->device,
                                   access == JET_MEM_ACCESS_READ
                                       ? CU_MEM_ACCESS_FLAGS_PROT_READ
                                       : CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
                                   __func__);
}

jet_status jet_vmm_unmap(jet_vmm_range range, size_t offset) {
  JET__TRY(jet__handle_check(range, JET__H_VMM_RANGE, __func__, "range"));
  vspace *sp = &range->sp;
  int i = space_slot(sp, offset);
  if (i >= sp->nmaps || sp->maps[i].offset != offset)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "no mapping starts at offset %zu of the range (%d mapping(s))", offset,
                      sp->nmaps);
  JET__TRY(jet__vmm_enter(sp->device, __func__));
  JET__TRY(jet__vmm_unmap(sp->base + offset, sp->maps[i].size, __func__));
  space_remove(sp, i);
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ growable buffer */

/* Map fresh memory for [g->sp.mapped, g->sp.mapped + bytes), read-write;
 * on failure nothing changes. */
static jet_status grow_by(vspace *sp, size_t bytes, const char *fn) {
  JET__TRY(space_room(sp, fn));
  CUmemAllocationProp prop = jet__vmm_prop(sp->device, 0);
  CUmemGenericAllocationHandle h = 0;
  jet_status st = jet__vmm_create(&prop, bytes, &h, fn);
  if (st != JET_STATUS_OK) {
    if (st == JET_STATUS_OUT_OF_MEMORY)
      jet__error_set_hint("growing by %zu bytes from %zu mapped", bytes, sp->mapped);
    return st;
  }
  CUdeviceptr at = sp->base + sp->mapped;
  st = jet__vmm_map_handle(at, bytes, h, fn);
  if (st == JET_STATUS_OK) {
    st = jet__vmm_set_access(at, bytes, sp->device, fn);
    if (st != JET_STATUS_OK) (void)jet__vmm_unmap(at, bytes, fn);
  }
  /* the mapping holds the memory from here on */
  jet_status rs = jet__vmm_release(h, fn);
  if (st != JET_STATUS_OK) return st;
  if (rs != JET_STATUS_OK) {
    (void)jet__vmm_unmap(at, bytes, fn);
    return rs;
  }
  return space_add(sp, sp->mapped, bytes, fn);
}

static void view_follow(jet_growable g) {
  if (!g->view) return;
  g->view->dev = (void *)(uintptr_t)g->sp.base;
  g->view->width = g->view->pitch = g->view->size = g->sp.mapped;
}

static jet_status grow_to(jet_growable g, size_t bytes, const char *fn) {
  vspace *sp = &g->sp;
  if (bytes <= sp->mapped) return JET_STATUS_OK;
  if (bytes > sp->size)
    return jet__error_native(JET_STATUS_OVERFLOW, fn, "", "", 0,
                             "create the growable buffer with a larger max_bytes",
                             "%zu bytes exceed the %zu bytes reserved: the buffer keeps its "
                             "address, so it cannot grow past its reservation (%zu mapped now)",
                             bytes, sp->size, sp->mapped);
  size_t need = bytes - sp->mapped, t;
  if (!jet__add_ok(need, sp->grec - 1, &t))
    return jet__error(JET_STATUS_OVERFLOW, fn, "%zu bytes rounded up overflows", need);
  need = t / sp->grec * sp->grec;
  if (need > sp->size - sp->mapped) need = sp->size - sp->mapped;
  JET__TRY(jet__vmm_enter(sp->device, fn));
  JET__TRY(grow_by(sp, need, fn));
  view_follow(g);
  return JET_STATUS_OK;
}

jet_status jet_growable_create(jet_context ctx, size_t max_bytes, size_t initial_bytes,
                               jet_growable *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(max_bytes > 0, "max_bytes is 0");
  JET__ARG(initial_bytes <= max_bytes, "initial_bytes %zu exceed max_bytes %zu", initial_bytes,
           max_bytes);
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(vmm_enter(ctx, __func__));
  struct jet_growable_s *g = calloc(1, sizeof *g);
  if (!g) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a buffer");
  jet_status st = granularity(ctx->device, &g->sp.gmin, &g->sp.grec, __func__);
  size_t cap = 0;
  if (st == JET_STATUS_OK) {
    size_t t;
    if (!jet__add_ok(max_bytes, g->sp.grec - 1, &t))
      st = jet__error(JET_STATUS_OVERFLOW, __func__,
                      "max_bytes %zu rounded up to %zu overflows size_t", max_bytes, g->sp.grec);
    else
      cap = t / g->sp.grec * g->sp.grec;
  }
  if (st == JET_STATUS_OK) st = space_reserve(ctx, cap, &g->sp, __func__);
  if (st == JET_STATUS_OK) st = grow_to(g, initial_bytes, __func__);
  if (st == JET_STATUS_OK) st = jet__handle_register(&g->h, JET__H_GROWABLE, ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)space_release(&g->sp, __func__);
    free(g);
    return st;
  }
  *out = g;
  return JET_STATUS_OK;
}

jet_status jet_growable_grow(jet_growable g, size_t bytes) {
  JET__TRY(jet__handle_check(g, JET__H_GROWABLE, __func__, "g"));
  return grow_to(g, bytes, __func__);
}

jet_status jet_growable_get_info(jet_growable g, jet_growable_info *info) {
  JET__TRY(jet__handle_check(g, JET__H_GROWABLE, __func__, "g"));
  JET__ARG(info, "info is NULL");
  info->device_ptr = (void *)(uintptr_t)g->sp.base;
  info->size = g->sp.mapped;
  info->capacity = g->sp.size;
  info->granularity = g->sp.grec;
  return JET_STATUS_OK;
}

jet_status jet_growable_buffer(jet_growable g, jet_buffer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(g, JET__H_GROWABLE, __func__, "g"));
  if (!g->sp.mapped)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "nothing is mapped yet: grow the buffer first (jet_growable_grow)");
  if (!g->view)
    JET__TRY(jet__buffer_borrow(g->h.ctx, (void *)(uintptr_t)g->sp.base, g->sp.mapped,
                                "its jet_growable (jet_growable_destroy)", &g->view, __func__));
  *out = g->view;
  return JET_STATUS_OK;
}

jet_status jet_growable_destroy(jet_growable g) {
  if (!g) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(g, JET__H_GROWABLE, __func__, "g"));
  /* unmapping does not wait as cudaFree does: kernels may still use it */
  jet_status waited = JET_STATUS_OK;
  if (jet__vmm_enter(g->sp.device, __func__) == JET_STATUS_OK) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
      waited = jet__cuda_error(e, __func__, "cudaDeviceSynchronize", NULL,
                               "waiting for the device before unmapping: %s",
                               cudaGetErrorString(e));
  }
  jet__buffer_release_borrowed(g->view);
  vspace sp = g->sp;
  jet__handle_unregister(&g->h);
  free(g);
  jet_status st = space_release(&sp, __func__);
  return st != JET_STATUS_OK ? st : waited;
}

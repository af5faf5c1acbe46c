/*
 * Registry of live handles: an open-addressing hash set of pointers.
 *
 * Validation looks a pointer up here before dereferencing it, so a destroyed
 * or made-up handle gives JET_STATUS_INVALID_HANDLE instead of a crash.
 */
#include <pthread.h>
#include <stdlib.h>

#include "internal.h"

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *slots; /* 0 = empty, 1 = tombstone */
static size_t cap, used, tombs;

#define TOMB ((uintptr_t)1)

static size_t hash_ptr(uintptr_t p) {
  p ^= p >> 33;
  p *= 0xff51afd7ed558ccdULL;
  p ^= p >> 33;
  return (size_t)p;
}

static size_t find(uintptr_t p) {
  size_t mask = cap - 1;
  for (size_t i = hash_ptr(p) & mask;; i = (i + 1) & mask)
    if (slots[i] == p || slots[i] == 0) return i;
}

static int grow(void) {
  size_t ncap = cap ? cap * 2 : 64;
  if (used * 4 < cap * 2) ncap = cap; /* only tombstones to sweep */
  uintptr_t *n = calloc(ncap, sizeof *n);
  if (!n) return 0;
  uintptr_t *old = slots;
  size_t ocap = cap;
  slots = n;
  cap = ncap;
  tombs = 0;
  for (size_t i = 0; i < ocap; i++)
    if (old[i] > TOMB) slots[find(old[i])] = old[i];
  free(old);
  return 1;
}

const char *jet__handle_type_name(int type) {
  static const char *const names[JET__H_TYPE_COUNT] = {
      [JET__H_CONTEXT] = "jet_context", [JET__H_BUFFER] = "jet_buffer",
      [JET__H_SHARED] = "jet_shared",   [JET__H_STREAM] = "jet_stream",
      [JET__H_EVENT] = "jet_event",     [JET__H_GRAPH] = "jet_graph",
      [JET__H_GRAPH_EXEC] = "jet_graph_exec", [JET__H_MODULE] = "jet_module",
      [JET__H_IMAGE] = "jet_image", [JET__H_KERNEL] = "jet_kernel",
      [JET__H_EGL] = "jet_egl", [JET__H_EGL_IMAGE] = "jet_egl_image",
      [JET__H_EGL_CONSUMER] = "jet_egl_consumer", [JET__H_EGL_PRODUCER] = "jet_egl_producer",
      [JET__H_GL_RESOURCE] = "jet_gl_resource", [JET__H_PRESENTER] = "jet_presenter",
      [JET__H_CHANNEL] = "jet_channel", [JET__H_RING] = "jet_ring",
      [JET__H_ARRAY] = "jet_array", [JET__H_TEXTURE] = "jet_texture",
      [JET__H_SURFACE] = "jet_surface",
      [JET__H_USER_OBJECT] = "jet_user_object",
      [JET__H_MEMPOOL] = "jet_mempool", [JET__H_VMM_RANGE] = "jet_vmm_range",
      [JET__H_VMM_MEM] = "jet_vmm_mem", [JET__H_GROWABLE] = "jet_growable",
      [JET__H_EXTERNAL_MEMORY] = "jet_external_memory",
      [JET__H_EXTERNAL_SEMAPHORE] = "jet_external_semaphore"};
  return (type > 0 && type < JET__H_TYPE_COUNT && names[type]) ? names[type] : "handle";
}

static jet_status reg(jet__handle *h, int type, struct jet_context_s *ctx, const char *fn) {
  h->type = type;
  h->ctx = ctx;
  pthread_mutex_lock(&reg_lock);
  if ((used + tombs + 1) * 4 >= cap * 3 && !grow()) {
    pthread_mutex_unlock(&reg_lock);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no memory to register a %s",
                      jet__handle_type_name(type));
  }
  size_t i = find((uintptr_t)h);
  slots[i] = (uintptr_t)h;
  used++;
  pthread_mutex_unlock(&reg_lock);
  return JET_STATUS_OK;
}

jet_status jet__handle_register(jet__handle *h, int type, struct jet_context_s *ctx,
                                const char *fn) {
  JET__TRY(reg(h, type, ctx, fn));
  if (ctx && type != JET__H_CONTEXT) atomic_fetch_add(&ctx->live_objects, 1);
  return JET_STATUS_OK;
}

jet_status jet__handle_register_embedded(jet__handle *h, int type, struct jet_context_s *ctx,
                                         const char *fn) {
  return reg(h, type, ctx, fn);
}

static void unreg(jet__handle *h) {
  pthread_mutex_lock(&reg_lock);
  if (cap) {
    size_t i = find((uintptr_t)h);
    if (slots[i] == (uintptr_t)h) {
      slots[i] = TOMB;
      used--;
      tombs++;
    }
  }
  if (used == 0) { /* nothing alive: give the table back so long runs hold no memory */
    free(slots);
    slots = NULL;
    cap = tombs = 0;
  }
  pthread_mutex_unlock(&reg_lock);
}

void jet__handle_unregister(jet__handle *h) {
  unreg(h);
  if (h->ctx && h->type != JET__H_CONTEXT) atomic_fetch_sub(&h->ctx->live_objects, 1);
  h->type = 0;
}

void jet__handle_unregister_embedded(jet__handle *h) {
  unreg(h);
  h->type = 0;
}

static int is_live(const void *h) {
  pthread_mutex_lock(&reg_lock);
  int live = cap && slots[find((uintptr_t)h)] == (uintptr_t)h;
  pthread_mutex_unlock(&reg_lock);
  return live;
}

jet_status jet__handle_check(const void *h, int type, const char *fn, const char *what) {
  if (!h)
    return jet__error(JET_STATUS_INVALID_HANDLE, fn, "%s is NULL", what);
  if (!is_live(h))
    return jet__error(JET_STATUS_INVALID_HANDLE, fn,
                      "%s (%p) is not a live %s: destroyed, never created or corrupted", what, h,
                      jet__handle_type_name(type));
  const jet__handle *hd = h;
  if (hd->type != type)
    return jet__error(JET_STATUS_INVALID_HANDLE, fn, "%s is a %s, expected a %s", what,
                      jet__handle_type_name(hd->type), jet__handle_type_name(type));
  return JET_STATUS_OK;
}

jet_status jet__handle_check_in(const void *h, int type, const struct jet_context_s *ctx,
                                const char *fn, const char *what) {
  JET__TRY(jet__handle_check(h, type, fn, what));
  const jet__handle *hd = h;
  if (hd->ctx != ctx)
    return jet__error(JET_STATUS_WRONG_CONTEXT, fn,
                      "%s belongs to context %p (device %d), not to context %p (device %d)", what,
                      (void *)hd->ctx, hd->ctx ? hd->ctx->device : -1, (const void *)ctx,
                      ctx ? ctx->device : -1);
  return JET_STATUS_OK;
}

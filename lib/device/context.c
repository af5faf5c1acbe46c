/*
 * Contexts: one CUDA device, its platform report and its policy.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SYNC_FLAGS (JET_CONTEXT_SYNC_SPIN | JET_CONTEXT_SYNC_YIELD | JET_CONTEXT_SYNC_BLOCKING)
#define ALL_FLAGS (JET_CONTEXT_MAP_HOST | SYNC_FLAGS | JET_CONTEXT_NO_JIT)

static unsigned cuda_flags(unsigned f) {
  unsigned c = cudaDeviceScheduleAuto;
  if (f & JET_CONTEXT_SYNC_SPIN) c = cudaDeviceScheduleSpin;
  if (f & JET_CONTEXT_SYNC_YIELD) c = cudaDeviceScheduleYield;
  if (f & JET_CONTEXT_SYNC_BLOCKING) c = cudaDeviceScheduleBlockingSync;
  /* Mapping is implicit for the runtime; setting it always keeps a later context
   * from dropping it for an earlier one that asked. */
  return c | cudaDeviceMapHost;
}

/* Contexts of one device share its CUDA primary context, and CUDA lets the
 * scheduling flags of an active primary context change under a live context.
 * Track the sync mode of live contexts per device and refuse a conflict. */
#define MAX_DEVICES 64
static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  int live;
  unsigned sync; /* JET_CONTEXT_SYNC_* of the first live context that asked for one */
} dev_state[MAX_DEVICES];

/* On success *flags carries the sync mode in force, so a context asking for
 * none does not overwrite that of a live one. */
static jet_status claim_device(int device, unsigned *flags, const char *fn) {
  unsigned sync = *flags & SYNC_FLAGS;
  if (device >= MAX_DEVICES)
    return jet__error(JET_STATUS_UNSUPPORTED, fn, "device %d: jetrt handles %d devices at most",
                      device, MAX_DEVICES);
  pthread_mutex_lock(&dev_lock);
  unsigned have = dev_state[device].sync;
  if (dev_state[device].live > 0 && sync && have && sync != have) {
    pthread_mutex_unlock(&dev_lock);
    return jet__error_native(JET_STATUS_INVALID_STATE, fn, "", "", 0,
                             "create every context of a device with the same SYNC flag",
                             "device %d already has a live context with sync flags 0x%x; asked "
                             "for 0x%x",
                             device, have, sync);
  }
  if (!have) dev_state[device].sync = sync;
  else *flags |= have;
  dev_state[device].live++;
  pthread_mutex_unlock(&dev_lock);
  return JET_STATUS_OK;
}

static void release_device(int device) {
  pthread_mutex_lock(&dev_lock);
  if (--dev_state[device].live == 0) dev_state[device].sync = 0;
  pthread_mutex_unlock(&dev_lock);
}

/* Apply the flags to the device's primary context. A primary context that is
 * already active keeps its flags; accept it when they agree with the request. */
static jet_status apply_flags(int device, unsigned flags, const char *fn) {
  unsigned want = cuda_flags(flags);
  cudaError_t e = cudaSetDevice(device);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaSetDevice", NULL, NULL);
  e = cudaSetDeviceFlags(want);
  if (e == cudaSuccess) return JET_STATUS_OK;
  if (e != cudaErrorSetOnActiveProcess) return jet__cuda_error(e, fn, "cudaSetDeviceFlags", NULL, NULL);
  (void)cudaGetLastError();
  unsigned have = 0;
  e = cudaGetDeviceFlags(&have);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaGetDeviceFlags", NULL, NULL);
  unsigned sched_want = want & cudaDeviceScheduleMask, sched_have = have & cudaDeviceScheduleMask;
  int sched_ok = sched_want == cudaDeviceScheduleAuto || sched_want == sched_have;
  int map_ok = !(want & cudaDeviceMapHost) || (have & cudaDeviceMapHost);
  if (sched_ok && map_ok) return JET_STATUS_OK;
  return jet__error_native(JET_STATUS_INVALID_STATE, fn, "cudaSetDeviceFlags",
                           "cudaErrorSetOnActiveProcess", (int)cudaErrorSetOnActiveProcess,
                           "create every context of a device with the same flags, before other "
                           "CUDA use of that device",
                           "device %d is already active with flags 0x%x, asked for 0x%x", device,
                           have, want);
}

jet_status jet__context_register(struct jet_context_s *ctx, const char *fn) {
  atomic_init(&ctx->live_objects, 0);
  JET__TRY(jet__handle_register(&ctx->h, JET__H_CONTEXT, ctx, fn));
  pthread_mutex_init(&ctx->builtin_lock, NULL);
  pthread_mutex_init(&ctx->res_lock, NULL);
  ctx->res_head.prev = ctx->res_head.next = &ctx->res_head;
  ctx->res_count = 0;
  ctx->default_streams[JET_STREAM_LEGACY].cu = cudaStreamLegacy;
  ctx->default_streams[JET_STREAM_PER_THREAD].cu = cudaStreamPerThread;
  jet_status st = JET_STATUS_OK;
  for (int k = 0; k < 2 && st == JET_STATUS_OK; k++) {
    ctx->default_streams[k].is_default = 1;
    st = jet__handle_register_embedded(&ctx->default_streams[k].h, JET__H_STREAM, ctx, fn);
  }
  if (st != JET_STATUS_OK) {
    for (int k = 0; k < 2; k++)
      if (ctx->default_streams[k].h.type) jet__handle_unregister_embedded(&ctx->default_streams[k].h);
    pthread_mutex_destroy(&ctx->builtin_lock);
    pthread_mutex_destroy(&ctx->res_lock);
    jet__handle_unregister(&ctx->h);
  }
  return st;
}

void jet__ctx_resource_add(struct jet_context_s *ctx, jet__ctx_resource *r, const char *kind,
                           void (*release)(jet__ctx_resource *r)) {
  r->kind = kind;
  r->release = release;
  pthread_mutex_lock(&ctx->res_lock);
  r->next = &ctx->res_head;
  r->prev = ctx->res_head.prev;
  r->prev->next = r;
  ctx->res_head.prev = r;
  ctx->res_count++;
  pthread_mutex_unlock(&ctx->res_lock);
}

void jet__ctx_resource_remove(struct jet_context_s *ctx, jet__ctx_resource *r) {
  pthread_mutex_lock(&ctx->res_lock);
  if (r->next) {
    r->prev->next = r->next;
    r->next->prev = r->prev;
    r->next = r->prev = NULL;
    ctx->res_count--;
  }
  pthread_mutex_unlock(&ctx->res_lock);
}

/* Release what modules still hold on @ctx, newest first, and say so: a context
 * destroyed with registrations alive is a leak in the caller's shutdown path. */
static void release_resources(struct jet_context_s *ctx) {
  char list[512];
  size_t used = 0;
  int n = 0;
  list[0] = '\0';
  for (;;) {
    pthread_mutex_lock(&ctx->res_lock);
    jet__ctx_resource *r = ctx->res_head.prev;
    if (r == &ctx->res_head) {
      pthread_mutex_unlock(&ctx->res_lock);
      break;
    }
    r->prev->next = r->next;
    r->next->prev = r->prev;
    r->next = r->prev = NULL;
    ctx->res_count--;
    pthread_mutex_unlock(&ctx->res_lock);
    if (used < sizeof list) {
      int k = snprintf(list + used, sizeof list - used, "%s%s", n ? ", " : "", r->kind);
      if (k > 0) used += (size_t)k;
    }
    n++;
    r->release(r);
  }
  if (n)
    jet__log(JET_LOG_WARN,
             "leak report: context on device %d destroyed with %d registration(s) still alive; "
             "jetrt released them: %s",
             ctx->device, n, list);
}

void jet__context_unregister(struct jet_context_s *ctx) {
  release_resources(ctx);
  jet__builtins_release(ctx);
  pthread_mutex_destroy(&ctx->builtin_lock);
  pthread_mutex_destroy(&ctx->res_lock);
  for (int k = 0; k < 2; k++) jet__handle_unregister_embedded(&ctx->default_streams[k].h);
  jet__handle_unregister(&ctx->h);
}

jet_status jet_context_create(jet_context *out, const jet_context_desc *desc) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  jet_context_desc d = {0, 0, NULL};
  if (desc) d = *desc;
  JET__ARG(!(d.flags & ~ALL_FLAGS), "unknown context flags 0x%x", d.flags & ~ALL_FLAGS);
  unsigned sync = d.flags & SYNC_FLAGS;
  JET__ARG((sync & (sync - 1)) == 0, "flags 0x%x ask for more than one SYNC mode", d.flags);
  JET__ARG(d.device >= 0, "device index %d is negative", d.device);

  jet_platform_info info;
  JET__TRY(jet__device_query(d.device, &info, __func__));
  jet__platform plat;
  JET__TRY(jet__platform_select(&info, jet__platform_request(d.platform), &plat, __func__));
  if ((d.flags & JET_CONTEXT_MAP_HOST) && !info.can_map_host_memory)
    return jet__error(JET_STATUS_UNSUPPORTED, __func__,
                      "JET_CONTEXT_MAP_HOST asked, but device %d cannot map host memory", d.device);
  unsigned effective = d.flags;
  JET__TRY(claim_device(d.device, &effective, __func__));
  jet_status st = apply_flags(d.device, effective, __func__);
  struct jet_context_s *ctx = NULL;
  if (st == JET_STATUS_OK && !(ctx = calloc(1, sizeof *ctx)))
    st = jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a context");
  if (st != JET_STATUS_OK) {
    release_device(d.device);
    return st;
  }
  ctx->device = d.device;
  ctx->flags = d.flags;
  ctx->info = info;
  ctx->platform = plat;
  st = jet__context_register(ctx, __func__);
  if (st != JET_STATUS_OK) {
    release_device(d.device);
    free(ctx);
    return st;
  }
  jet__log(JET_LOG_INFO, "context on device %d (%s, SM %d.%d): policy %s: %s", d.device, info.name,
           info.cc_major, info.cc_minor, plat.policy.name, plat.policy.reason);
  *out = ctx;
  return JET_STATUS_OK;
}

jet_status jet_context_destroy(jet_context ctx) {
  if (!ctx) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  pthread_mutex_lock(&ctx->res_lock);
  int held = ctx->res_count;
  pthread_mutex_unlock(&ctx->res_lock);
  int live = atomic_load(&ctx->live_objects) - held;
  if (live > 0)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d object(s) created from this context are still alive; destroy them first",
                      live);
  jet__context_unregister(ctx);
  release_device(ctx->device);
  free(ctx);
  return JET_STATUS_OK;
}

jet_status jet_context_default_stream(jet_context ctx, jet_default_stream kind, jet_stream *out) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(out, "out is NULL");
  JET__ARG(kind == JET_STREAM_LEGACY || kind == JET_STREAM_PER_THREAD, "unknown default stream %d",
           (int)kind);
  *out = &ctx->default_streams[kind];
  return JET_STATUS_OK;
}

jet_status jet__ctx_activate(struct jet_context_s *ctx, const char *fn) {
  cudaError_t e = cudaSetDevice(ctx->device);
  if (e != cudaSuccess) return jet__cuda_error(e, fn, "cudaSetDevice", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet__ctx_enter(jet_context ctx, const char *fn) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, fn, "ctx"));
  return jet__ctx_activate(ctx, fn);
}

jet_status jet_context_platform(jet_context ctx, jet_platform_info *info) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(info, "info is NULL");
  *info = ctx->info;
  return JET_STATUS_OK;
}

jet_status jet_context_policy(jet_context ctx, jet_policy *policy) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(policy, "policy is NULL");
  *policy = ctx->platform.policy;
  return JET_STATUS_OK;
}

jet_status jet_context_mem_info(jet_context ctx, size_t *free_bytes, size_t *total_bytes) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(free_bytes || total_bytes, "free_bytes and total_bytes are both NULL");
  JET__TRY(jet__ctx_activate(ctx, __func__));
  size_t f = 0, t = 0;
  JET__TRY(ctx->platform.ops->mem_info(&ctx->platform, &ctx->info, &f, &t, __func__));
  if (free_bytes) *free_bytes = f;
  if (total_bytes) *total_bytes = t;
  return JET_STATUS_OK;
}

jet_status jet_context_synchronize(jet_context ctx) {
  JET__TRY(jet__ctx_enter(ctx, __func__));
  JET__CUDA(cudaDeviceSynchronize, ());
  return JET_STATUS_OK;
}

/*
 * L2 persistence: the set-aside, stream access policy windows, reset.
 */
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "l2_internal.h"

static const char *prop_name(int p) {
  switch (p) {
    case JET_ACCESS_NORMAL: return "NORMAL";
    case JET_ACCESS_STREAMING: return "STREAMING";
    case JET_ACCESS_PERSISTING: return "PERSISTING";
    default: return "unknown";
  }
}

jet_status jet__access_policy_check(const jet_access_policy *p, size_t max_window,
                                    struct cudaAccessPolicyWindow *out, const char *fn) {
  if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "access policy is NULL");
  memset(out, 0, sizeof *out);
  out->hitProp = cudaAccessPropertyNormal;
  out->missProp = cudaAccessPropertyNormal;
  if (p->bytes == 0) return JET_STATUS_OK;
  if (!p->base)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "access policy window of %zu bytes has a NULL base", p->bytes);
  size_t end;
  if (!jet__add_ok((size_t)(uintptr_t)p->base, p->bytes, &end))
    return jet__error(JET_STATUS_OVERFLOW, fn,
                      "access policy window %p + %zu bytes wraps the address space", p->base,
                      p->bytes);
  if (p->bytes > max_window)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "access policy window of %zu bytes exceeds the device's "
                      "accessPolicyMaxWindowSize of %zu bytes",
                      p->bytes, max_window);
  /* Written so that NaN fails too. */
  if (!(p->hit_ratio >= 0.0f && p->hit_ratio <= 1.0f))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "hit_ratio %g is outside [0, 1]", (double)p->hit_ratio);
  if ((int)p->hit < JET_ACCESS_NORMAL || (int)p->hit > JET_ACCESS_PERSISTING)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown hit property %d", (int)p->hit);
  if ((int)p->miss < JET_ACCESS_NORMAL || (int)p->miss > JET_ACCESS_PERSISTING)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown miss property %d", (int)p->miss);
  if (p->miss == JET_ACCESS_PERSISTING)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "miss property PERSISTING is not allowed: use NORMAL or STREAMING "
                      "(hit %s)", prop_name(p->hit));
  out->base_ptr = (void *)(uintptr_t)p->base;
  out->num_bytes = p->bytes;
  out->hitRatio = p->hit_ratio;
  out->hitProp = (enum cudaAccessProperty)p->hit;
  out->missProp = (enum cudaAccessProperty)p->miss;
  return JET_STATUS_OK;
}

jet_status jet__access_policy_native(const jet_access_policy *p, int device,
                                     struct cudaAccessPolicyWindow *out, const char *fn) {
  if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "access policy is NULL");
  int max_window = 0;
  cudaError_t e = cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaDeviceGetAttribute", NULL,
                           "cudaDevAttrMaxAccessPolicyWindowSize of device %d", device);
  if (max_window <= 0 && p->bytes != 0)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "device %d has no access policy windows (accessPolicyMaxWindowSize 0): "
                      "L2 persistence needs SM 8.0 or later", device);
  return jet__access_policy_check(p, (size_t)(max_window > 0 ? max_window : 0), out, fn);
}

jet_status jet__l2_require(const struct jet_context_s *ctx, const char *fn) {
  const jet_policy *pol = &ctx->platform.policy;
  if (pol->l2_persistence) return JET_STATUS_OK;
  jet__error(JET_STATUS_UNSUPPORTED, fn,
             "L2 persistence is unsupported on device %d under policy %s: %s", ctx->device,
             pol->name, pol->l2_persistence_why);
  jet__error_set_hint("check jet_policy.l2_persistence before using jetrt/l2.h");
  return JET_STATUS_UNSUPPORTED;
}

static jet_status get_limit(size_t *v, const char *fn) {
  cudaError_t e = cudaDeviceGetLimit(v, cudaLimitPersistingL2CacheSize);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaDeviceGetLimit", NULL, "cudaLimitPersistingL2CacheSize");
  return JET_STATUS_OK;
}

jet_status jet_l2_query(jet_context ctx, jet_l2_info *info) {
  JET__ARG(info, "info is NULL");
  memset(info, 0, sizeof *info);
  JET__TRY(jet__ctx_enter(ctx, __func__));
  info->l2_bytes = ctx->info.l2_size;
  info->persisting_max = ctx->info.persisting_l2_max;
  info->supported = ctx->platform.policy.l2_persistence;
  int max_window = 0;
  JET__CUDA(cudaDeviceGetAttribute, (&max_window, cudaDevAttrMaxAccessPolicyWindowSize,
                                     ctx->device));
  info->max_window_bytes = max_window > 0 ? (size_t)max_window : 0;
  if (info->supported) JET__TRY(get_limit(&info->set_aside, __func__));
  return JET_STATUS_OK;
}

jet_status jet_l2_set_aside(jet_context ctx, size_t bytes, size_t *granted) {
  if (granted) *granted = 0;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(jet__l2_require(ctx, __func__));
  JET__ARG(bytes <= ctx->info.persisting_l2_max,
           "set-aside of %zu bytes exceeds the device's persistingL2CacheMaxSize of %zu bytes",
           bytes, ctx->info.persisting_l2_max);
  JET__TRY(jet__ctx_activate(ctx, __func__));
  cudaError_t e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes);
  if (e == cudaErrorUnsupportedLimit || e == cudaErrorNotSupported) {
    (void)cudaGetLastError();
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, __func__, "cudaDeviceSetLimit", cudaGetErrorName(e), (int)e,
        "MIG mode disables the L2 set-aside; under MPS it is set only through "
        "CUDA_DEVICE_DEFAULT_PERSISTING_L2_CACHE_PERCENTAGE_LIMIT when the server starts",
        "the driver refused cudaLimitPersistingL2CacheSize = %zu on device %d", bytes,
        ctx->device);
  }
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaDeviceSetLimit", NULL,
                           "cudaLimitPersistingL2CacheSize = %zu", bytes);
  if (granted) JET__TRY(get_limit(granted, __func__));
  return JET_STATUS_OK;
}

static jet_status window_stream(jet_stream stream, cudaStream_t *cu, const char *fn) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, fn, "stream"));
  JET__TRY(jet__l2_require(stream->h.ctx, fn));
  if (stream->is_default)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "a context's default stream keeps no attributes: set the window on a "
                      "stream made by jet_stream_create, or per launch with jet_launch_ex");
  return jet__stream_enter(stream, NULL, cu, fn);
}

static jet_status set_window(jet_stream stream, const jet_access_policy *policy, const char *fn) {
  cudaStream_t cu;
  JET__TRY(window_stream(stream, &cu, fn));
  cudaStreamAttrValue v;
  memset(&v, 0, sizeof v);
  JET__TRY(jet__access_policy_native(policy, stream->h.ctx->device, &v.accessPolicyWindow, fn));
  cudaError_t e = cudaStreamSetAttribute(cu, cudaStreamAttributeAccessPolicyWindow, &v);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaStreamSetAttribute", NULL,
                           "access policy window %p + %zu bytes, hit ratio %g", policy->base,
                           policy->bytes, (double)policy->hit_ratio);
  return JET_STATUS_OK;
}

jet_status jet_l2_stream_set_window(jet_stream stream, const jet_access_policy *policy) {
  JET__ARG(policy, "policy is NULL");
  return set_window(stream, policy, __func__);
}

jet_status jet_l2_stream_clear_window(jet_stream stream) {
  jet_access_policy none;
  memset(&none, 0, sizeof none);
  return set_window(stream, &none, __func__);
}

jet_status jet_l2_stream_window(jet_stream stream, jet_access_policy *policy) {
  JET__ARG(policy, "policy is NULL");
  memset(policy, 0, sizeof *policy);
  cudaStream_t cu;
  JET__TRY(window_stream(stream, &cu, __func__));
  cudaStreamAttrValue v;
  memset(&v, 0, sizeof v);
  cudaError_t e = cudaStreamGetAttribute(cu, cudaStreamAttributeAccessPolicyWindow, &v);
  if (e != cudaSuccess) return jet__cuda_error(e, __func__, "cudaStreamGetAttribute", NULL, NULL);
  const struct cudaAccessPolicyWindow *w = &v.accessPolicyWindow;
  policy->base = w->base_ptr;
  policy->bytes = w->num_bytes;
  policy->hit_ratio = w->hitRatio;
  policy->hit = (jet_access_property)w->hitProp;
  policy->miss = (jet_access_property)w->missProp;
  return JET_STATUS_OK;
}

jet_status jet_l2_reset_persisting(jet_context ctx) {
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__TRY(jet__l2_require(ctx, __func__));
  JET__TRY(jet__ctx_activate(ctx, __func__));
  JET__CUDA(cudaCtxResetPersistingL2Cache, ());
  return JET_STATUS_OK;
}

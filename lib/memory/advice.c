/*
 * Advice, range prefetch and range queries on managed buffers (Unified Memory
 * appendix). What each call does per platform is decided by the platform
 * layer's managed rules (jet__managed_rules_of); see jetrt/memory.h.
 */
#include <stdio.h>
#include <string.h>

#include "memory_internal.h"

/* Plain range arguments, before any handle is looked at. */
static jet_status range_plain(size_t off, size_t bytes, size_t *end, const char *fn) {
  if (bytes == 0) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "bytes is 0");
  if (!jet__add_ok(off, bytes, end))
    return jet__error(JET_STATUS_OVERFLOW, fn, "offset %zu + bytes %zu overflows size_t", off,
                      bytes);
  return JET_STATUS_OK;
}

/* @buf is a live managed buffer (of @ctx when non-NULL) holding [off, end). */
static jet_status range_buffer(jet_buffer buf, const struct jet_context_s *ctx, size_t off,
                               size_t end, const char *fn) {
  JET__TRY(jet__buffer_check(buf, ctx, fn));
  if (buf->kind != JET_MEMORY_MANAGED)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "buf is not managed memory (kind %d); advice, range prefetch and range "
                      "queries take JET_MEMORY_MANAGED buffers only",
                      (int)buf->kind);
  if (end > buf->size)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "range [%zu, %zu) runs past the end of the %zu-byte buffer", off, end,
                      buf->size);
  return JET_STATUS_OK;
}

static struct cudaMemLocation location(const struct jet_context_s *ctx, jet_processor p) {
  struct cudaMemLocation loc;
  memset(&loc, 0, sizeof loc);
  if (p == JET_PROCESSOR_CPU) {
    loc.type = cudaMemLocationTypeHost;
  } else {
    /* Advice without a location ignores it; a valid device is the safe value. */
    loc.type = cudaMemLocationTypeDevice;
    loc.id = ctx->device;
  }
  return loc;
}

static const char *advice_name(jet_managed_advice a) {
  switch (a) {
    case JET_ADVISE_READ_MOSTLY: return "JET_ADVISE_READ_MOSTLY";
    case JET_ADVISE_UNSET_READ_MOSTLY: return "JET_ADVISE_UNSET_READ_MOSTLY";
    case JET_ADVISE_PREFERRED_LOCATION: return "JET_ADVISE_PREFERRED_LOCATION";
    case JET_ADVISE_UNSET_PREFERRED_LOCATION: return "JET_ADVISE_UNSET_PREFERRED_LOCATION";
    case JET_ADVISE_ACCESSED_BY: return "JET_ADVISE_ACCESSED_BY";
    case JET_ADVISE_UNSET_ACCESSED_BY: return "JET_ADVISE_UNSET_ACCESSED_BY";
  }
  return NULL;
}

jet_status jet_managed_advise(jet_buffer buf, size_t offset, size_t bytes,
                              jet_managed_advice advice, jet_processor where) {
  size_t end = 0;
  JET__TRY(range_plain(offset, bytes, &end, __func__));
  const char *name = advice_name(advice);
  JET__ARG(name, "unknown advice %d", (int)advice);
  int needs_where = advice == JET_ADVISE_PREFERRED_LOCATION || advice == JET_ADVISE_ACCESSED_BY ||
                    advice == JET_ADVISE_UNSET_ACCESSED_BY;
  if (needs_where)
    JET__ARG(where == JET_PROCESSOR_GPU || where == JET_PROCESSOR_CPU,
             "%s needs where = JET_PROCESSOR_GPU or JET_PROCESSOR_CPU, not %d", name, (int)where);
  else
    JET__ARG(where == JET_PROCESSOR_NONE,
             "%s takes no location: where must be JET_PROCESSOR_NONE, not %d", name, (int)where);
  JET__TRY(range_buffer(buf, NULL, offset, end, __func__));

  struct jet_context_s *ctx = buf->h.ctx;
  jet__managed_rules r;
  jet__managed_rules_of(&ctx->info, &ctx->platform.policy, &r);
  if (!r.advice) {
    if (advice == JET_ADVISE_READ_MOSTLY || advice == JET_ADVISE_UNSET_READ_MOSTLY) {
      jet__log(JET_LOG_DEBUG,
               "%s: %s is a no-op under the %s policy (no concurrent managed access)", __func__,
               name, ctx->platform.policy.name);
      return JET_STATUS_OK;
    }
    char what[80];
    snprintf(what, sizeof what, "cudaMemAdvise(%s)", name);
    return jet__managed_refuse(&ctx->info, &ctx->platform.policy, what, NULL, __func__);
  }
  JET__TRY(jet__ctx_activate(ctx, __func__));
  static const enum cudaMemoryAdvise native[] = {
      [JET_ADVISE_READ_MOSTLY] = cudaMemAdviseSetReadMostly,
      [JET_ADVISE_UNSET_READ_MOSTLY] = cudaMemAdviseUnsetReadMostly,
      [JET_ADVISE_PREFERRED_LOCATION] = cudaMemAdviseSetPreferredLocation,
      [JET_ADVISE_UNSET_PREFERRED_LOCATION] = cudaMemAdviseUnsetPreferredLocation,
      [JET_ADVISE_ACCESSED_BY] = cudaMemAdviseSetAccessedBy,
      [JET_ADVISE_UNSET_ACCESSED_BY] = cudaMemAdviseUnsetAccessedBy,
  };
  cudaError_t e = cudaMemAdvise((char *)buf->dev + offset, bytes, native[advice],
                                location(ctx, where));
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaMemAdvise", NULL, "%s on [%zu, %zu) for %s: %s", name,
                           offset, end,
                           where == JET_PROCESSOR_CPU   ? "the CPU"
                           : where == JET_PROCESSOR_GPU ? "the GPU"
                                                        : "no location",
                           cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_managed_prefetch_range(jet_stream stream, jet_buffer buf, size_t offset,
                                      size_t bytes, jet_processor to) {
  size_t end = 0;
  JET__TRY(range_plain(offset, bytes, &end, __func__));
  JET__ARG(to == JET_PROCESSOR_GPU || to == JET_PROCESSOR_CPU,
           "to %d is not exactly one of JET_PROCESSOR_GPU or JET_PROCESSOR_CPU", (int)to);
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  const struct jet_context_s *ctx = stream->h.ctx;
  JET__TRY(range_buffer(buf, ctx, offset, end, __func__));
  jet__managed_rules r;
  jet__managed_rules_of(&ctx->info, &ctx->platform.policy, &r);
  if (!r.prefetch)
    return jet__managed_refuse(
        &ctx->info, &ctx->platform.policy, "cudaMemPrefetchAsync",
        "cudaMemPrefetchAsync is unsupported on Tegra before Thor and without concurrent managed "
        "access; hand the whole buffer over with jet_managed_make_available (stream attach there)",
        __func__);
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, NULL, &cu, __func__));
  cudaError_t e =
      cudaMemPrefetchAsync((char *)buf->dev + offset, bytes, location(ctx, to), 0, cu);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaMemPrefetchAsync", NULL,
                           "[%zu, %zu) to the %s: %s", offset, end,
                           to == JET_PROCESSOR_GPU ? "GPU" : "CPU", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

static jet_managed_location typed_location(enum cudaMemLocationType t, int id) {
  jet_managed_location l = {JET_PROCESSOR_NONE, -1};
  switch (t) {
    case cudaMemLocationTypeDevice:
      l.processor = JET_PROCESSOR_GPU;
      l.device = id;
      break;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent: l.processor = JET_PROCESSOR_CPU; break;
    default: break;
  }
  return l;
}

jet_status jet_managed_range_query(jet_buffer buf, size_t offset, size_t bytes,
                                   jet_managed_range_info *info) {
  JET__ARG(info, "info is NULL");
  memset(info, 0, sizeof *info);
  info->preferred.device = info->last_prefetch.device = -1;
  size_t end = 0;
  JET__TRY(range_plain(offset, bytes, &end, __func__));
  JET__TRY(range_buffer(buf, NULL, offset, end, __func__));
  struct jet_context_s *ctx = buf->h.ctx;
  JET__TRY(jet__ctx_activate(ctx, __func__));

  int read_mostly = 0, pref_id = 0, last_id = 0;
  enum cudaMemLocationType pref_type = cudaMemLocationTypeInvalid,
                           last_type = cudaMemLocationTypeInvalid;
  int by[JET_MANAGED_ACCESSED_BY_MAX];
  void *data[] = {&read_mostly, &pref_type, &pref_id, &last_type, &last_id, by};
  size_t sizes[] = {sizeof read_mostly, sizeof pref_type, sizeof pref_id,
                    sizeof last_type,   sizeof last_id,   sizeof by};
  enum cudaMemRangeAttribute attrs[] = {
      cudaMemRangeAttributeReadMostly,
      cudaMemRangeAttributePreferredLocationType,
      cudaMemRangeAttributePreferredLocationId,
      cudaMemRangeAttributeLastPrefetchLocationType,
      cudaMemRangeAttributeLastPrefetchLocationId,
      cudaMemRangeAttributeAccessedBy,
  };
  cudaError_t e = cudaMemRangeGetAttributes(data, sizes, attrs, sizeof attrs / sizeof attrs[0],
                                            (char *)buf->dev + offset, bytes);
  if (e != cudaSuccess) {
    jet__managed_rules r;
    jet__managed_rules_of(&ctx->info, &ctx->platform.policy, &r);
    return jet__cuda_error(
        e, __func__, "cudaMemRangeGetAttributes",
        r.advice ? NULL
                 : "without concurrent managed access jetrt sets no advice and no prefetch "
                   "(they are no-ops or refused here), so there is nothing to read back",
        "[%zu, %zu): %s", offset, end, cudaGetErrorString(e));
  }
  info->read_mostly = read_mostly != 0;
  info->preferred = typed_location(pref_type, pref_id);
  info->last_prefetch = typed_location(last_type, last_id);
  for (int i = 0; i < JET_MANAGED_ACCESSED_BY_MAX && by[i] != cudaInvalidDeviceId; i++) {
    jet_managed_location l = {JET_PROCESSOR_GPU, by[i]};
    if (by[i] == cudaCpuDeviceId) l.processor = JET_PROCESSOR_CPU, l.device = -1;
    info->accessed_by[info->accessed_by_count++] = l;
  }
  return JET_STATUS_OK;
}

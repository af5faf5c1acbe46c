/*
 * jetrt/l2.h - L2 cache persistence (CUDA Programming Guide 3.2.3).
 *
 * Devices of SM 8.0 and later can set aside part of their L2 cache for
 * "persisting" accesses: data touched through an access policy window whose
 * hit property is JET_ACCESS_PERSISTING stays in that set-aside portion while
 * other (streaming) traffic passes through the rest. Three pieces work
 * together:
 *  1. the set-aside (jet_l2_set_aside): how many bytes of L2 persisting lines
 *     may occupy, bounded by the device's persistingL2CacheMaxSize;
 *  2. an access policy window on a stream (jet_l2_stream_set_window), on one
 *     launch (jet_launch_ex, jetrt/module.h) or on a graph kernel node
 *     (jet_graph_kernel_set_access_policy, jetrt/graph.h): the
 *     address range [base, base + bytes) and the fraction of it (hit_ratio)
 *     whose lines get the hit property, the rest the miss property;
 *  3. jet_l2_reset_persisting, which turns every persisting line back into a
 *     normal one (persisting lines otherwise stay until evicted).
 *
 * When the hot data is larger than the set-aside, a hit ratio of 1 makes the
 * persisting lines evict each other (thrash); set hit_ratio to about
 * set_aside / bytes so that only a set-aside's worth of lines persist.
 *
 * Whether the device supports persistence is decided by the platform policy
 * from the device's attributes (jet_policy.l2_persistence): unsupported where
 * persistingL2CacheMaxSize is 0 or the device is older than SM 8.0. Jetson
 * Orin (SM 8.7) reports a persisting maximum and is supported. MIG mode
 * disables the set-aside, and under MPS it can only be set through
 * CUDA_DEVICE_DEFAULT_PERSISTING_L2_CACHE_PERCENTAGE_LIMIT before the server
 * starts; jet_l2_set_aside reports JET_STATUS_UNSUPPORTED with that hint there.
 */
#ifndef JETRT_L2_H
#define JETRT_L2_H

#include <stddef.h>
#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Cache property of the lines of an access policy window (cudaAccessProperty). */
typedef enum jet_access_property {
  JET_ACCESS_NORMAL = 0,    /**< normal cache behaviour */
  JET_ACCESS_STREAMING = 1, /**< less likely to stay in L2: evicted first */
  JET_ACCESS_PERSISTING = 2 /**< likely to stay in the set-aside part of L2 */
} jet_access_property;

/**
 * An access policy window (cudaAccessPolicyWindow).
 * @base: first byte of the window (any device-accessible address).
 * @bytes: length; at most the device's accessPolicyMaxWindowSize
 *        (jet_l2_info.max_window_bytes). 0 means "no window" (@base ignored).
 * @hit_ratio: fraction in [0, 1] of the window's lines given @hit; the rest
 *        get @miss. The lines are chosen at random by the hardware.
 * @hit: property of the hit fraction.
 * @miss: property of the rest; JET_ACCESS_NORMAL or JET_ACCESS_STREAMING
 *        (PERSISTING is refused, as by CUDA).
 */
typedef struct jet_access_policy {
  const void *base;
  size_t bytes;
  float hit_ratio;
  jet_access_property hit, miss;
} jet_access_policy;

/** L2 facts of a context's device (jet_l2_query). */
typedef struct jet_l2_info {
  size_t l2_bytes;          /**< size of the L2 cache */
  size_t persisting_max;    /**< persistingL2CacheMaxSize: largest set-aside; 0 if none */
  size_t set_aside;         /**< current set-aside (cudaLimitPersistingL2CacheSize) */
  size_t max_window_bytes;  /**< accessPolicyMaxWindowSize: largest window; 0 if none */
  int supported;            /**< the policy's jet_policy.l2_persistence */
} jet_l2_info;

/**
 * jet_l2_query - the L2 sizes of @ctx's device and the current set-aside.
 *
 * Works on every device; where persistence is unsupported, persisting_max,
 * set_aside and max_window_bytes are those the device reports (usually 0) and
 * supported is 0.
 * @info: receives the facts.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @info;
 *         JET_STATUS_INVALID_HANDLE for a bad @ctx; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_l2_query(jet_context ctx, jet_l2_info *info);

/**
 * jet_l2_set_aside - set how much of L2 persisting lines may occupy
 * (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize)).
 *
 * The set-aside is a device-wide setting shared by every context and thread
 * using the device. The driver rounds the request to its granularity, so the
 * value in effect is read back into @granted.
 * @bytes: 0 (no set-aside) up to jet_l2_info.persisting_max.
 * @granted: receives the set-aside now in effect; may be NULL.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED
 *         where the policy says persistence is unsupported (the detail says
 *         why), or the driver refuses the limit (MIG, MPS: see the hint);
 *         JET_STATUS_INVALID_ARGUMENT when @bytes exceeds persisting_max (the
 *         detail says the maximum); or a CUDA status.
 * Thread safety: safe from any thread; concurrent callers race for the value.
 */
jet_status jet_l2_set_aside(jet_context ctx, size_t bytes, size_t *granted);

/**
 * jet_l2_stream_set_window - give @stream an access policy window
 * (cudaStreamSetAttribute(cudaStreamAttributeAccessPolicyWindow)). Kernels
 * launched on the stream afterwards use it; work already queued does not.
 * @policy: the window; bytes 0 clears it (as jet_l2_stream_clear_window).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @stream;
 *         JET_STATUS_UNSUPPORTED where the policy says persistence is
 *         unsupported; JET_STATUS_INVALID_ARGUMENT for a NULL @policy, a
 *         window larger than max_window_bytes, a NULL base with non-zero
 *         bytes, a hit ratio outside [0, 1] (or NaN), an unknown property,
 *         or a PERSISTING miss property; JET_STATUS_OVERFLOW when base + bytes
 *         wraps the address space; JET_STATUS_INVALID_ARGUMENT for a default
 *         stream of the context (CUDA keeps no attributes on the legacy or
 *         per-thread stream: create a stream); or a CUDA status.
 * Thread safety: safe from any thread; do not race with launches on @stream
 *         whose window matters.
 */
jet_status jet_l2_stream_set_window(jet_stream stream, const jet_access_policy *policy);

/**
 * jet_l2_stream_clear_window - remove @stream's access policy window.
 * @return as jet_l2_stream_set_window (UNSUPPORTED included).
 * Thread safety: as jet_l2_stream_set_window.
 */
jet_status jet_l2_stream_clear_window(jet_stream stream);

/**
 * jet_l2_stream_window - read @stream's access policy window back
 * (cudaStreamGetAttribute). A stream without a window gives bytes 0.
 * @policy: receives the window.
 * @return as jet_l2_stream_set_window, plus JET_STATUS_INVALID_ARGUMENT for a
 *         NULL @policy.
 * Thread safety: safe from any thread.
 */
jet_status jet_l2_stream_window(jet_stream stream, jet_access_policy *policy);

/**
 * jet_l2_reset_persisting - turn every persisting L2 line of @ctx's device
 * back into a normal one (cudaCtxResetPersistingL2Cache). Do it when the hot
 * data changes, or before work that should have the whole L2.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_UNSUPPORTED
 *         where the policy says persistence is unsupported; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_l2_reset_persisting(jet_context ctx);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_L2_H */

/*
 * Internal interface of lib/l2: access policy windows in CUDA's form, for the
 * stream, launch (lib/module/launch.c) and graph kernel node code.
 */
#ifndef JET_L2_INTERNAL_H
#define JET_L2_INTERNAL_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "jetrt/l2.h"

/* Validate @p against a device whose accessPolicyMaxWindowSize is
 * @max_window and convert it. Pure: no CUDA call. bytes 0 gives an empty
 * window (base NULL, ratio 0, both properties normal). INVALID_ARGUMENT for a
 * NULL @p, bytes above @max_window (or any window when @max_window is 0), a
 * NULL base with non-zero bytes, a ratio outside [0, 1] or NaN, an unknown
 * property or a PERSISTING miss; OVERFLOW when base + bytes wraps. */
jet_status jet__access_policy_check(const jet_access_policy *p, size_t max_window,
                                    struct cudaAccessPolicyWindow *out, const char *fn);

/* jet__access_policy_check with @device's cudaDevAttrMaxAccessPolicyWindowSize;
 * UNSUPPORTED (with the reason) for a non-empty window on a device reporting
 * 0, i.e. without L2 persistence. The graph code uses it for kernel nodes. */
jet_status jet__access_policy_native(const jet_access_policy *p, int device,
                                     struct cudaAccessPolicyWindow *out, const char *fn);

/* UNSUPPORTED with the policy's reason unless @ctx's policy allows L2
 * persistence. */
struct jet_context_s;
jet_status jet__l2_require(const struct jet_context_s *ctx, const char *fn);

#endif /* JET_L2_INTERNAL_H */

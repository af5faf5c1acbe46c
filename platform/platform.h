/*
 * Platform layer: the policy table and the few operations that differ between
 * a discrete GPU and Tegra. lib/ asks this layer; it never tests for Tegra itself.
 */
#ifndef JET_PLATFORM_H
#define JET_PLATFORM_H

#include <stddef.h>

#include "jetrt/context.h"

struct jet__platform;

/* Operations that differ per platform. Every slot is filled for every platform. */
typedef struct jet__platform_ops {
  /* Free and total memory the GPU can allocate. */
  jet_status (*mem_info)(const struct jet__platform *p, const jet_platform_info *dev,
                         size_t *free_bytes, size_t *total_bytes, const char *fn);
} jet__platform_ops;

typedef struct jet__platform {
  jet_policy policy;
  const jet__platform_ops *ops;
} jet__platform;

/*
 * Choose the policy for @dev. @request is a platform name ("desktop", "xavier",
 * "orin", "thor") that forces a policy, or NULL/"" (or "auto") to detect from
 * the device's attributes. Pure: reads no environment, touches no GPU.
 * Returns INVALID_ARGUMENT for an unknown name.
 */
jet_status jet__platform_select(const jet_platform_info *dev, const char *request,
                                jet__platform *out, const char *fn);

/* The request to use: @desc_request if set, else $JET_PLATFORM, else NULL. */
const char *jet__platform_request(const char *desc_request);

/* Parse a /proc/meminfo-format file into the Tegra estimate of free and total
 * memory (MemAvailable, MemTotal). Returns IO_ERROR where it cannot. */
jet_status jet__meminfo_parse(const char *path, size_t *free_bytes, size_t *total_bytes,
                              const char *fn);
/* The same over @len bytes of text (need not be NUL-terminated). */
jet_status jet__meminfo_parse_text(const char *text, size_t len, size_t *free_bytes,
                                   size_t *total_bytes, const char *fn);

extern const jet__platform_ops jet__desktop_ops;
extern const jet__platform_ops jet__tegra_ops;

#endif /* JET_PLATFORM_H */

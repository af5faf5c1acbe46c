/*
 * Is the host a Tegra SoC? A discrete GPU there (IGX Orin's dGPU) gets its own
 * policy: unified memory is unsupported on a dGPU attached to Tegra (UM appendix).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int jet__compatible_is_tegra(const char *text, size_t len) {
  static const char want[] = "nvidia,tegra";
  size_t pos = 0;
  while (pos < len) {
    size_t end = pos;
    while (end < len && text[end] != '\0') end++;
    if (end - pos >= sizeof want - 1 && memcmp(text + pos, want, sizeof want - 1) == 0) return 1;
    pos = end + 1;
  }
  return 0;
}

int jet__tegra_host_detect(int any_integrated, const char *compatible_path) {
  const char *env = getenv("JET_TEGRA_HOST");
  if (env && strcmp(env, "1") == 0) return 1;
  if (env && strcmp(env, "0") == 0) return 0;
  if (any_integrated) return 1;
  if (!compatible_path) return 0;
  FILE *f = fopen(compatible_path, "rb");
  if (!f) return 0; /* no device tree: a PC or server */
  char buf[1024];   /* a few NUL-separated strings */
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return jet__compatible_is_tegra(buf, n);
}

/* libFuzzer target: the /proc/meminfo parser behind Tegra's free-memory estimate. */
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t fr = 0, tot = 0;
  if (jet__meminfo_parse_text((const char *)data, size, &fr, &tot, "fuzz") == JET_STATUS_OK &&
      fr > tot)
    __builtin_trap(); /* the parser promises free <= total */
  return 0;
}

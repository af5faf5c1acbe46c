/* libFuzzer target: the device-choice inputs, a PCI bus id string (user or
 * nvidia-smi text) and a device-tree "compatible" property (a file). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)jet__compatible_is_tegra((const char *)data, size);
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = '\0';
  int dom = -1, bus = -1, dev = -1;
  if (jet__pci_bus_id_parse(s, &dom, &bus, &dev, "fuzz") == JET_STATUS_OK &&
      (dom < 0 || bus < 0 || bus > 0xff || dev < 0 || dev > 0x1f))
    __builtin_trap(); /* the parser promises fields in range */
  free(s);
  return 0;
}

/* libFuzzer target: the check of a memory IPC description received from
 * another process (jet__ipc_desc_check). The first byte picks the object and
 * whether a descriptor comes with it; the rest is the description. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "../../lib/ipc/memory_ipc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  jet_ipc_memory_desc d;
  memset(&d, 0, sizeof d);
  memcpy(&d, data + 1, size - 1 < sizeof d ? size - 1 : sizeof d);
  jet_ipc_object object = (jet_ipc_object)(1 + data[0] % 3);
  int fd = (data[0] & 0x80) ? -1 : 5;
  jet__image_layout l;
  if (jet__ipc_desc_check(&d, object, fd, &l, "fuzz") != JET_STATUS_OK) return 0;
  /* what passes lies inside the allocation */
  if (d.data_size > d.alloc_size) __builtin_trap();
  if (object == JET_IPC_OBJECT_IMAGE)
    for (int i = 0; i < l.planes; i++)
      if (l.plane[i].offset + l.plane[i].extent > d.data_size) __builtin_trap();
  if (object == JET_IPC_OBJECT_BUFFER && d.pitch * d.height * d.depth != d.data_size)
    __builtin_trap();
  return 0;
}

/*
 * Memory export and import between processes (jetrt/ipc.h): the pure check of
 * a received description, shared with the host tests and the fuzz target.
 */
#ifndef JET_MEMORY_IPC_H
#define JET_MEMORY_IPC_H

#include "internal.h"
#include "../image/image_internal.h"

/*
 * Check every field of @d as a description of an @object to import with
 * @fd, against itself only: no CUDA call, no system call. Version, object,
 * mechanism, flags (one EXPORTABLE flag; _LEGACY only with the legacy
 * mechanism), @fd (>= 0 for VMM_FD, -1 for LEGACY) and the legacy handle
 * (all zero for VMM_FD, not all zero for LEGACY), alloc_size (> 0, a multiple
 * of JET_IPC_ALLOC_ALIGN, fits size_t), data_size (> 0, <= alloc_size), and
 * the object's fields, computed without overflow: a buffer's extent and pitch
 * give data_size exactly; an image's planes follow jetrt/image.h with the
 * given pitches, sit at offsets aligned to the element size, inside
 * data_size, without overlapping, and the last one ends at data_size; a shared
 * buffer has only data_size. Fields of other objects must be 0.
 * For an image, @layout (may be NULL otherwise) receives the layout with the
 * description's offsets and total_bytes = data_size.
 * Returns INVALID_ARGUMENT (or OVERFLOW where jet__image_layout_compute says
 * so) naming the field.
 */
jet_status jet__ipc_desc_check(const jet_ipc_memory_desc *d, jet_ipc_object object, int fd,
                               jet__image_layout *layout, const char *fn);

#endif /* JET_MEMORY_IPC_H */

/*
 * Internal view of jet_external_memory and jet_external_semaphore, shared by
 * lib/external/ and by host tests that build fake handles to reach argument
 * checks without a GPU.
 */
#ifndef JET_EXTERNAL_INTERNAL_H
#define JET_EXTERNAL_INTERNAL_H

#include <pthread.h>

#include "internal.h"

typedef enum jet__ext_map_kind {
  JET__EXT_MAP_BUFFER = 1,
  JET__EXT_MAP_IMAGE,
  JET__EXT_MAP_ARRAY
} jet__ext_map_kind;

/* One live mapping: the object handed out and what CUDA gave for it. */
typedef struct jet__ext_mapping {
  struct jet__ext_mapping *next;
  jet__ext_map_kind kind;
  void *object;               /* jet_buffer, jet_image or cudaMipmappedArray_t */
  void *dev;                  /* BUFFER, IMAGE: the mapped address CUDA gave (freed at unmap) */
} jet__ext_mapping;

struct jet_external_memory_s {
  jet__handle h;
  jet_external_memory_type type;
  size_t size;
  unsigned flags;
  /* dma-buf has no runtime handle type: it is imported, mapped and destroyed
   * through the driver API (CUexternalMemory, cuMemFree); the rest through
   * the runtime. */
  int via_driver;
  cudaExternalMemory_t rt;
  CUexternalMemory drv;
  pthread_mutex_t lock; /* guards maps and nmaps */
  jet__ext_mapping *maps;
  int nmaps;
};

struct jet_external_semaphore_s {
  jet__handle h;
  jet_external_semaphore_type type;
  cudaExternalSemaphore_t rt;
};

/* INVALID_ARGUMENT for a negative or closed descriptor, before CUDA sees it. */
jet_status jet__external_fd_check(int fd, const char *fn);

/* CUDA may close a descriptor whose import it refuses, so it is handed a
 * close-on-exec duplicate (*@dup; IO_ERROR when none can be made). Then
 * jet__external_fd_settle: after a successful import (@imported) it closes the
 * caller's @fd, which CUDA's duplicate now stands for; after a refused one it
 * closes @dup unless CUDA already did, so the caller's @fd is as it was. */
jet_status jet__external_fd_dup(int fd, int *dup, const char *fn);
void jet__external_fd_settle(int fd, int dup, int imported);

/* The refusal of an NvSci (@what: "NvSciBuf", "NvSciSync") import: NvSci
 * exists on Tegra only (UNSUPPORTED under another policy), and this build has
 * no NvSci headers (NOT_BUILT_IN under a Tegra policy). */
jet_status jet__external_nvsci_refused(const struct jet_context_s *ctx, const char *what,
                                       const char *fn);

/* Validate @mem as a live external memory. */
static inline jet_status jet__ext_memory_check(jet_external_memory mem, const char *fn) {
  return jet__handle_check(mem, JET__H_EXTERNAL_MEMORY, fn, "mem");
}

/*
 * Map a mipmapped CUDA array over @mem (cudaExternalMemoryGetMappedMipmappedArray)
 * at @offset with @format, @extent (depth 0 for 2D, height 0 for 1D, as
 * cudaMallocMipmappedArray), cudaArray* @flags and @levels (>= 1) levels.
 * The array counts as a mapping of @mem (its destroy is refused until
 * jet__external_memory_unmap_array). Not for dma-buf memory (the driver does
 * not map it as arrays): UNSUPPORTED.
 *
 * Not public yet: jet_array (another area) will wrap the result; level 0 is
 * cudaGetMipmappedArrayLevel(&a, *out, 0).
 */
jet_status jet__external_memory_map_array(jet_external_memory mem, size_t offset,
                                          const struct cudaChannelFormatDesc *format,
                                          struct cudaExtent extent, unsigned flags,
                                          unsigned levels, cudaMipmappedArray_t *out,
                                          const char *fn);
/* Free an array jet__external_memory_map_array made (cudaFreeMipmappedArray). */
jet_status jet__external_memory_unmap_array(jet_external_memory mem, cudaMipmappedArray_t array,
                                            const char *fn);

#endif /* JET_EXTERNAL_INTERNAL_H */

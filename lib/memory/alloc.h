/*
 * jet__alloc: memory an object holds and how to give it back.
 *
 * Buffers, images and shared buffers keep one jet__alloc per allocation they
 * own, so destroy releases it the way it was obtained (cudaFree, cudaFreeHost,
 * cudaHostUnregister, VMM unmap, cudaIpcCloseMemHandle) without each object
 * knowing the ways. Export and import of device memory between processes go
 * through here too, because the origin decides what can be exported.
 */
#ifndef JET_ALLOC_H
#define JET_ALLOC_H

#include "internal.h"
#include "vmm.h"

typedef enum jet__alloc_origin {
  JET__ALLOC_NONE = 0,        /* nothing owned (wrapped memory): nothing to release */
  JET__ALLOC_CUDA,            /* cudaMalloc, cudaMallocPitch/3D, cudaMallocManaged: cudaFree */
  JET__ALLOC_CUDA_HOST,       /* cudaHostAlloc: cudaFreeHost */
  JET__ALLOC_HOST_REGISTERED, /* cudaHostRegister on user memory: cudaHostUnregister */
  JET__ALLOC_VMM,             /* jet__vmm_alloc or jet__vmm_import_fd: unmap, free the range */
  JET__ALLOC_IPC_OPENED,      /* cudaIpcOpenMemHandle: cudaIpcCloseMemHandle */
  JET__ALLOC_CUDA_ASYNC,      /* cudaMallocAsync, cudaMallocFromPoolAsync, cudaMemPoolImportPointer:
                                 device idle, then cudaFreeAsync on the legacy stream */
  JET__ALLOC_EXTERNAL         /* lent by a foreign owner (a DLPack tensor): release calls
                                 release_cb(release_arg), which hands it back */
} jet__alloc_origin;

typedef struct jet__alloc {
  jet__alloc_origin origin;
  jet_ipc_mechanism exportable; /* how this process may export it; NONE if it may not */
  int imported;                 /* mapped from another process's export */
  int device;                   /* device of device memory; -1 for host memory */
  void *ptr;                    /* base address: what the release call takes */
  size_t size;                  /* bytes from ptr that belong to the allocation */
  jet__vmm_map vmm;             /* JET__ALLOC_VMM */
  void (*release_cb)(void *arg); /* JET__ALLOC_EXTERNAL */
  void *release_arg;
} jet__alloc;

/* An allocation obtained elsewhere (the buffer's own cudaMalloc* or
 * cudaHostAlloc paths), to be released by @origin's call. */
jet__alloc jet__alloc_of(jet__alloc_origin origin, int device, void *ptr, size_t size);

/* Memory a foreign owner lends: releasing it calls @cb(@arg) once. */
jet__alloc jet__alloc_external(int device, void *ptr, size_t size, void (*cb)(void *arg),
                               void *arg);

/* Holders of an object's memory besides the object (DLPack exports), which
 * may outlive it. The object (buffer, image) keeps a pointer to its hold,
 * NULL until the first holder comes; it frees its memory with
 * jet__alloc_object_release, which hands the memory to the hold while holders
 * remain. Each holder also counts as a live object of @ctx, so the context
 * (and its device's primary context) outlives the memory. */
typedef struct jet__alloc_hold {
  atomic_int refs;             /* the object's own reference + one per holder */
  jet__alloc mem;              /* the object's memory once the object is gone */
  struct jet_context_s *ctx;
} jet__alloc_hold;

/* Add a holder to the object whose hold pointer is *@slot (made on first use;
 * thread-safe); *@out receives the hold to pass to jet__alloc_hold_drop. */
jet_status jet__alloc_hold_add(jet__alloc_hold **slot, struct jet_context_s *ctx,
                               jet__alloc_hold **out, const char *fn);
/* A holder lets go; the last one out releases the memory (the device made
 * current; a failure is logged, there is no caller to tell). Any thread. */
void jet__alloc_hold_drop(jet__alloc_hold *h);
/* The object's destroy: release @mem now when @hold is NULL or has no other
 * holder, else move it into @hold for the last holder to release. Leaves
 * @mem as JET__ALLOC_NONE. */
jet_status jet__alloc_object_release(jet__alloc_hold *hold, jet__alloc *mem, const char *fn);

/* Allocate @bytes of device memory on @device (its context current) for
 * export by @mech: NONE is plain cudaMalloc; VMM_FD is jet__vmm_alloc; LEGACY
 * is cudaMalloc rounded up to JET__VMM_MIN_SHARE_ALIGN. out->size is the
 * rounded size. On failure nothing is allocated and the detail says the bytes
 * asked and allocated. */
jet_status jet__alloc_device(int device, size_t bytes, jet_ipc_mechanism mech, jet__alloc *out,
                             const char *fn);

/* Release @a by its origin (@a's device current). VMM memory is unmapped only
 * after the device is idle, as cudaFree waits. Always leaves @a as
 * JET__ALLOC_NONE; returns the first failure. */
jet_status jet__alloc_release(jet__alloc *a, const char *fn);

/* Export @a: for VMM_FD a new descriptor (the caller's, FD_CLOEXEC) in *@fd;
 * for LEGACY the cudaIpcMemHandle_t bytes in @legacy and -1 in *@fd.
 * INVALID_ARGUMENT when @a is not exportable or was imported. */
jet_status jet__alloc_export(const jet__alloc *a, int *fd, unsigned char legacy[64],
                             const char *fn);

/* Map @size bytes another process exported with @mech into @device (its
 * context current): VMM_FD from @fd (never closed), LEGACY from @legacy. A
 * @size larger than the allocation behind the handle is INVALID_ARGUMENT with
 * nothing left mapped. */
jet_status jet__alloc_import(int device, jet_ipc_mechanism mech, int fd,
                             const unsigned char legacy[64], size_t size, jet__alloc *out,
                             const char *fn);

#endif /* JET_ALLOC_H */

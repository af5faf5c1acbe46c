/*
 * Internal declarations shared by every file in lib/ and platform/.
 * Internal non-static names start with jet__.
 */
#ifndef JET_INTERNAL_H
#define JET_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>

#include <cuda_runtime_api.h>

#include "jetrt.h"
#include "platform.h"

/* ------------------------------------------------------------ errors */

/* Record a failure with no native call behind it and return @st. */
jet_status jet__error(jet_status st, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record a failure of a native call (any API) and return @st. @hint may be NULL. */
jet_status jet__error_native(jet_status st, const char *fn, const char *native_call,
                             const char *native_name, int native_code, const char *hint,
                             const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Translate a failed CUDA runtime call, record it and return the jet_status.
 * Also clears the runtime's non-sticky last error. @fmt may be NULL, then the
 * message is cudaGetErrorString's. */
jet_status jet__cuda_error(cudaError_t err, const char *fn, const char *call, const char *hint,
                           const char *fmt, ...) __attribute__((format(printf, 5, 6)));

jet_status jet__status_from_cuda(cudaError_t err);

/* Append a hint to the current thread's detail (kept when already set). */
void jet__error_set_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define JET__ARG(cond, ...)                                                  \
  do {                                                                       \
    if (!(cond)) return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__, __VA_ARGS__); \
  } while (0)

#define JET__TRY(expr)                      \
  do {                                      \
    jet_status jet__s_ = (expr);            \
    if (jet__s_ != JET_STATUS_OK) return jet__s_; \
  } while (0)

/* Call a CUDA runtime function, translating a failure: JET__CUDA(cudaMalloc, (&p, n)). */
#define JET__CUDA(call, args)                                           \
  do {                                                                  \
    cudaError_t jet__e_ = call args;                                    \
    if (jet__e_ != cudaSuccess) return jet__cuda_error(jet__e_, __func__, #call, NULL, NULL); \
  } while (0)

/* a * b into *out; returns 0 on overflow. */
static inline int jet__mul_ok(size_t a, size_t b, size_t *out) { return !__builtin_mul_overflow(a, b, out); }
static inline int jet__add_ok(size_t a, size_t b, size_t *out) { return !__builtin_add_overflow(a, b, out); }

/* ------------------------------------------------------------ logging */

void jet__log(jet_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int jet__log_enabled(jet_log_level level);

/* ------------------------------------------------------------ handles */

typedef enum jet__handle_type {
  JET__H_CONTEXT = 1,
  JET__H_BUFFER,
  JET__H_SHARED,
  JET__H_STREAM,
  JET__H_EVENT,
  JET__H_GRAPH,
  JET__H_GRAPH_EXEC,
  JET__H_MODULE,
  JET__H_IMAGE,
  JET__H_KERNEL,
  JET__H_EGL,            /* lib/interop: an EGL display bound to a context */
  JET__H_EGL_IMAGE,      /* lib/interop: a registered EGLImage */
  JET__H_EGL_CONSUMER,   /* lib/interop: CUDA consumer of an EGLStream */
  JET__H_EGL_PRODUCER,   /* lib/interop: CUDA producer of an EGLStream */
  JET__H_GL_RESOURCE,    /* lib/interop: a registered GL buffer, texture or renderbuffer */
  JET__H_PRESENTER,      /* lib/interop: GL display helper */
  JET__H_CHANNEL,        /* lib/ipc: Unix-domain-socket channel */
  JET__H_RING,           /* lib/ipc: frame ring, producer or consumer end */
  JET__H_ARRAY,          /* lib/texture: CUDA array or mipmapped array */
  JET__H_TEXTURE,        /* lib/texture: texture object */
  JET__H_SURFACE,        /* lib/texture: surface object */
  JET__H_USER_OBJECT,    /* lib/graph: the caller's references to a graph user object */
  JET__H_MEMPOOL,        /* lib/memory: memory pool (pool.c) */
  JET__H_VMM_RANGE,      /* lib/memory: reserved address range (vmm_api.c) */
  JET__H_VMM_MEM,        /* lib/memory: physical VMM allocation (vmm_api.c) */
  JET__H_GROWABLE,       /* lib/memory: growable VMM buffer (vmm_api.c) */
  JET__H_EXTERNAL_MEMORY,    /* lib/external: imported memory object */
  JET__H_EXTERNAL_SEMAPHORE, /* lib/external: imported semaphore */
  JET__H_TYPE_COUNT
} jet__handle_type;

/* Every handle struct starts with this header. */
typedef struct jet__handle {
  int type;
  struct jet_context_s *ctx; /* owning context; the context itself for JET__H_CONTEXT */
} jet__handle;

/* Live handles are kept in a registry so that a destroyed or foreign pointer is
 * detected without dereferencing it. (A later create may reuse the address of a
 * destroyed handle; the registry cannot tell those apart.) */
jet_status jet__handle_register(jet__handle *h, int type, struct jet_context_s *ctx, const char *fn);
/* As jet__handle_register, for a handle embedded in its context, or a
 * borrowed image or buffer whose lender is counted instead (not counted in
 * live_objects); pair with jet__handle_unregister_embedded. */
jet_status jet__handle_register_embedded(jet__handle *h, int type, struct jet_context_s *ctx,
                                         const char *fn);
void jet__handle_unregister_embedded(jet__handle *h);
void jet__handle_unregister(jet__handle *h);

/* INVALID_HANDLE unless @h is a live handle of @type. */
jet_status jet__handle_check(const void *h, int type, const char *fn, const char *what);
/* As jet__handle_check, plus WRONG_CONTEXT unless it belongs to @ctx. */
jet_status jet__handle_check_in(const void *h, int type, const struct jet_context_s *ctx,
                                const char *fn, const char *what);
const char *jet__handle_type_name(int type);

/* ------------------------------------------------------------ streams */

struct jet_stream_s {
  jet__handle h;
  cudaStream_t cu;
  unsigned flags;   /* JET_STREAM_* creation flags */
  int priority;
  int is_default;   /* owned by the context (legacy or per-thread): never destroyed by users */
  int wrapped;      /* the caller's cudaStream_t (jet_stream_wrap): destroy leaves it alive */
  _Atomic int programmatic; /* jet_stream_set_programmatic: built-in kernels launch with PDL */
};

/* Validate @s (and, when @ctx is non-NULL, that it belongs to @ctx), make its
 * device current and return its CUDA stream. It also notes, for this thread,
 * whether @s launches built-in kernels programmatically: jet__launch on the
 * same CUDA stream reads that note, so operations need no extra argument. */
jet_status jet__stream_enter(jet_stream s, const struct jet_context_s *ctx, cudaStream_t *out,
                             const char *fn);

/* 1 when the last jet__stream_enter on this thread entered @cu with
 * programmatic launches on. */
int jet__stream_programmatic(cudaStream_t cu);

/* ------------------------------------------------------------ context */

#include <pthread.h>
#define JET__BUILTIN_MAX 16

/* A registration a module holds on a context and releases by itself when the
 * context is destroyed with it still alive (graphics resources, which outlive
 * careless shutdown paths more than anything else). The owner embeds the node,
 * adds it with jet__ctx_resource_add after registering its handle, and removes
 * it before unregistering the handle. @release frees the owner (handle and all)
 * and must not call jet__ctx_resource_remove. */
typedef struct jet__ctx_resource {
  struct jet__ctx_resource *prev, *next;
  const char *kind; /* a few words for the leak report, e.g. "GL buffer" */
  void (*release)(struct jet__ctx_resource *r);
} jet__ctx_resource;

struct jet_context_s {
  jet__handle h;
  int device;
  unsigned flags;
  jet_platform_info info;
  jet__platform platform;
  atomic_int live_objects; /* handles created from this context, default streams excluded */
  struct jet_stream_s default_streams[2]; /* indexed by jet_default_stream */
  /* jetrt's own kernel modules, loaded on first use (jet__builtin_kernel). */
  pthread_mutex_t builtin_lock;
  struct {
    const jet_kernel_image_set *set;
    struct jet_module_s *mod;
  } builtins[JET__BUILTIN_MAX];
  /* Module-held registrations released at destroy (jet__ctx_resource). */
  pthread_mutex_t res_lock;
  jet__ctx_resource res_head; /* circular list; empty when res_head.next == &res_head */
  int res_count;
};

void jet__ctx_resource_add(struct jet_context_s *ctx, jet__ctx_resource *r, const char *kind,
                           void (*release)(jet__ctx_resource *r));
void jet__ctx_resource_remove(struct jet_context_s *ctx, jet__ctx_resource *r);

/* jet_device_query without the public argument checks; @fn names the caller. */
jet_status jet__device_query(int device, jet_platform_info *info, const char *fn);

/* Device choice (jet_device_choose), apart for host tests: parse a PCI bus id
 * ("[domain:]bus:device.function", hex); validate criteria without a GPU;
 * whether a report fits (criteria already validated). */
jet_status jet__pci_bus_id_parse(const char *text, int *domain, int *bus, int *device,
                                 const char *fn);
jet_status jet__device_criteria_check(const jet_device_criteria *c, const char *fn);
int jet__device_fits(const jet_platform_info *info, const jet_device_criteria *c);

/* Make @ctx's device current on the calling thread. */
jet_status jet__ctx_activate(struct jet_context_s *ctx, const char *fn);

/* Register a filled-in context (device, flags, info, platform) as a live
 * handle with its default streams and built-in module lock; on failure nothing
 * stays registered. jet__context_unregister undoes it (and unloads built-in
 * modules). Used by jet_context_create/destroy, and by host tests to make
 * contexts that never touch a GPU. */
jet_status jet__context_register(struct jet_context_s *ctx, const char *fn);
void jet__context_unregister(struct jet_context_s *ctx);

/* Validate @ctx and make its device current. */
jet_status jet__ctx_enter(jet_context ctx, const char *fn);

/* ------------------------------------------------------------ jetrt's own kernels */

/* The kernel @name of jetrt's module @set on @ctx. The first call on a context
 * loads the module (cubin, else PTX, else NVRTC, per the policy and JET_JIT);
 * it stays loaded until jet_context_destroy. Thread-safe. */
jet_status jet__builtin_kernel(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                               const char *name, jet_kernel *out, const char *fn);
/* jet__builtin_kernel of @name, or of @ptx_name where the module was loaded
 * from its PTX image, which leaves out some speed-only kernels (kernels built
 * with JET_IMAGE_PTX): one lookup of the module for the choice and the
 * kernel. Thread-safe. */
jet_status jet__builtin_kernel_or(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                                  const char *name, const char *ptx_name, jet_kernel *out,
                                  const char *fn);
/* How jetrt's module @set is loaded on @ctx (loading it on first use, as
 * jet__builtin_kernel does): JET_KERNEL_PATH_CUBIN, _PTX or _NVRTC. Thread-safe. */
jet_status jet__builtin_path(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                             jet_kernel_path *path, const char *fn);
/* As jet__builtin_path, with the SM of the image loaded (jet_module_load_info's
 * image_sm: the cubin's, the PTX's, or for NVRTC the device's). */
jet_status jet__builtin_image(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                              jet_kernel_path *path, int *image_sm, const char *fn);

/* How many blocks of min(256, its most threads a block) threads (no dynamic
 * shared memory) of @k, a kernel from jet__builtin_kernel, are resident on
 * one SM at once (the driver's occupancy, taken when the kernel was looked
 * up). Thread-safe. */
int jet__kernel_resident(jet_kernel k);

/* Unload the context's built-in modules (jet_context_destroy). */
void jet__builtins_release(struct jet_context_s *ctx);

/* cuLaunchKernel on a stream already resolved (jet__stream_enter) with a kernel
 * from jet__builtin_kernel: the launch path of jetrt's own operations, without
 * jet_launch's argument checks (the operation did its own). */
jet_status jet__launch(cudaStream_t s, jet_kernel k, jet_dim3 grid, jet_dim3 block,
                       size_t shared_bytes, void **args, const char *fn);

/* What jet_launch checks a launch of @k against, for other launch paths
 * (lib/graph kernel nodes). @k must be a live kernel handle. */
typedef struct jet__kernel_desc {
  struct CUfunc_st *fn; /* CUfunction */
  int params;         /* parameter count; -1 when the driver cannot say */
  int max_threads;    /* per block */
  int max_dyn_shared; /* dynamic shared bytes allowed at lookup */
  const char *name;
} jet__kernel_desc;
void jet__kernel_describe(jet_kernel k, jet__kernel_desc *out);

/* jet_launch's checks of a launch configuration and arguments for @k
 * (zero dimensions, threads per block, shared bytes, NULL arguments), without
 * touching the device unless @shared_bytes exceeds the limit at lookup. */
jet_status jet__launch_check(jet_kernel k, jet_dim3 grid, jet_dim3 block, size_t shared_bytes,
                             void **args, const char *fn);

/* ------------------------------------------------------------ driver API */

/* Driver entry points, fetched through the runtime (cudaGetDriverEntryPointByVersion)
 * so that nothing links libcuda directly. See driver_syms.h for the list. */
#include <cuda.h>
#include "driver_syms.h"
typedef struct jet__driver_api {
#define JET__DRIVER_SYM(name, version, ret, params) ret(CUDAAPI *name) params;
  JET__DRIVER_SYMS(JET__DRIVER_SYM)
#undef JET__DRIVER_SYM
} jet__driver_api;

/* Load the table once; returns NO_DEVICE / DRIVER_ERROR when the driver lacks it. */
jet_status jet__driver(const jet__driver_api **api, const char *fn);

/* Translate a failed driver call, record it and return the jet_status. */
jet_status jet__cu_error(CUresult res, const char *fn, const char *call, const char *hint,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif /* JET_INTERNAL_H */

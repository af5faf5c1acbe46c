/*
 * Internal interface of lib/module: image selection (pure, host-testable),
 * the NVRTC disk cache format, and the NVRTC wrapper.
 */
#ifndef JET_MODULE_INT_H
#define JET_MODULE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "jetrt/module.h"

/* ------------------------------------------------------------ handles */

#include <pthread.h>
#include "internal.h"

struct jet_kernel_s {
  jet__handle h;
  struct jet_module_s *mod;
  CUfunction fn;
  int params;         /* parameter count; -1 when the driver cannot say */
  int max_threads;    /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
  int max_dyn_shared; /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES at lookup */
  int resident;       /* jetrt's own: resident blocks per SM of min(256, max_threads) threads (jet__kernel_resident) */
  struct jet_kernel_s *next;
  char name[];
};

struct jet_module_s {
  jet__handle h;
  CUmodule cu;
  const jet_kernel_image_set *set;
  jet_module_load_info info;
  pthread_mutex_t lock; /* guards kernels */
  struct jet_kernel_s *kernels;
  int builtin;          /* jetrt's own (jet__builtin_kernel): its kernels wait with griddepcontrol */
};

/* The checks jet_launch and jet_launch_ex share: dimensions, threads per
 * block, dynamic shared memory against the kernel's current limit, arguments. */
jet_status jet__launch_args_check(const struct jet_kernel_s *k, jet_dim3 grid, jet_dim3 block,
                                  size_t shared_bytes, void **args, const char *fn);

/* ------------------------------------------------------------ extended launch */

/* A cuLaunchKernelEx configuration: @n attributes at @attrs (none: NULL). */
void jet__launch_config(CUlaunchConfig *lc, jet_dim3 grid, jet_dim3 block, size_t shared,
                        CUstream s, CUlaunchAttribute *attrs, unsigned n);

/* What jet_launch_ex checks a configuration against: the device's attributes
 * and the context's policy (filled by launch.c; host tests fill it by hand). */
typedef struct jet__launch_limits {
  int device;
  int sm;                 /* 10*major+minor */
  int cooperative_launch; /* cudaDevAttrCooperativeLaunch */
  int cluster_launch;     /* cudaDevAttrClusterLaunch */
  int prio_least, prio_greatest; /* cudaDeviceGetStreamPriorityRange */
  size_t max_window;      /* cudaDevAttrMaxAccessPolicyWindowSize */
  int l2_persistence;     /* jet_policy.l2_persistence */
  const char *l2_why;     /* jet_policy.l2_persistence_why */
} jet__launch_limits;

#define JET__LAUNCH_ATTRS_MAX 5

/* Validate the attributes of @cfg (flags, cluster, priority, window, and
 * their combinations) against @lim and translate them into @attrs (*count
 * entries). Pure: no CUDA call. Grid co-residency of a cooperative launch and
 * the schedulability of a cluster need the driver: the caller checks those. */
jet_status jet__launch_attrs(const jet__launch_limits *lim, const jet_launch_config *cfg,
                             const char *kernel, CUlaunchAttribute *attrs, unsigned *count,
                             const char *fn);

/* ------------------------------------------------------------ selection */

/* One step of a load plan: a cubin or PTX image (index into the set), or NVRTC. */
typedef struct jet__plan_step {
  jet_kernel_path path;
  int image; /* index into set->images; -1 for NVRTC */
} jet__plan_step;

#define JET__PLAN_MAX 64

typedef struct jet__select_in {
  int device_sm;         /* 10*major+minor */
  jet_cubin_match match; /* from the context's policy */
  const char *policy;    /* policy name, for messages */
  int jit_allowed;       /* 0: deterministic mode, PTX and NVRTC refused */
  const char *jit_why;   /* why JIT is forbidden, e.g. "JET_JIT=forbid" */
  jet_kernel_path force; /* AUTO or one path */
  int nvrtc_built_in;
} jet__select_in;

typedef struct jet__plan {
  jet__plan_step steps[JET__PLAN_MAX + 1];
  int count;
  /* Every image present and why it was rejected, or its rank in the plan:
   * "device sm_87 (policy orin: exact SM): sm_90 cubin: not sm_87; ..." */
  char report[640];
} jet__plan;

/* Order the candidates of @set for the device described by @in, best first.
 * Pure: no CUDA, no environment. The set must have passed jet__set_check.
 * Returns OK with count >= 1, or NO_KERNEL_IMAGE (detail = the report). */
jet_status jet__select(const jet_kernel_image_set *set, const jet__select_in *in, jet__plan *plan,
                       const char *fn);

/* Validate the layout of a set (abi, pointers, sizes, kinds, NUL terminators). */
jet_status jet__set_check(const jet_kernel_image_set *set, const char *fn);

/* "sm_90 cubin" / "compute_75 ptx". */
void jet__image_label(const jet_kernel_image *img, char *buf, size_t cap);

/* ------------------------------------------------------------ NVRTC cache */

/* FNV-1a 64 over @n bytes, continuing from @h (start with JET__FNV_SEED). */
#define JET__FNV_SEED 0xcbf29ce484222325ULL
uint64_t jet__fnv1a64(uint64_t h, const void *data, size_t n);

typedef struct jet__cache_key {
  uint64_t source_hash; /* FNV-1a of the source and the compile options */
  int sm;
  int nvrtc_major, nvrtc_minor;
} jet__cache_key;

/* The cache directory to use, or "" when none can be found. @opt_dir wins;
 * @use_env enables JET_CACHE_DIR, XDG_CACHE_HOME and HOME. */
void jet__cache_dir(const char *opt_dir, int use_env, char *buf, size_t cap);

/* <dir>/<name>-<hash>-sm_XX-nvrtcM.m.cubin; returns 0 when it does not fit. */
int jet__cache_path(const char *dir, const char *name, const jet__cache_key *key, char *buf,
                    size_t cap);

/* Write an entry atomically (temporary file + rename), creating @path's
 * directory. IO_ERROR on failure (detail says why). */
jet_status jet__cache_write(const char *path, const jet__cache_key *key, const void *data,
                            size_t size, const char *fn);

/* Read and verify an entry. OK with *data (malloc'd, caller frees) and *size;
 * IO_ERROR when missing or unreadable; INVALID_STATE when the file is corrupt,
 * truncated or belongs to another key (the detail says which). */
jet_status jet__cache_read(const char *path, const jet__cache_key *key, void **data, size_t *size,
                           const char *fn);

/* ------------------------------------------------------------ NVRTC */

/* 1 when this build has NVRTC. */
int jet__nvrtc_built_in(void);

/* NVRTC's version; NOT_BUILT_IN without it. */
jet_status jet__nvrtc_version(int *major, int *minor, const char *fn);

/* The options jetrt compiles with for @sm, one string, for the cache key. */
const char *jet__nvrtc_options_text(void);

/* Compile @source for sm_@sm into a cubin (malloc'd; caller frees).
 * COMPILE_FAILED with NVRTC's log in the detail; NOT_BUILT_IN without NVRTC. */
jet_status jet__nvrtc_compile(const char *name, const char *source, int sm, void **cubin,
                              size_t *size, const char *fn);

/* ------------------------------------------------------------ jetrt's own kernels */

/* Generated by jetrt_add_kernels from kernels/ (build/jetrt_kernels/jetrt/). */
extern const jet_kernel_image_set jet__images_pattern;

#endif /* JET_MODULE_INT_H */

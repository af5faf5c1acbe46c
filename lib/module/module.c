/*
 * Modules: load the image jet__select chose through the driver API (fetched
 * via the runtime, see driver.c), look kernels up, launch them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "module_int.h"

#define ALL_FLAGS (JET_MODULE_NO_JIT | JET_MODULE_NO_CACHE | JET_MODULE_IGNORE_ENV)
#define LOG_CAP 8192

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ------------------------------------------------------------ options */

typedef struct load_cfg {
  jet__select_in sel;
  int use_cache;
  char cache_dir[400];
} load_cfg;

static jet_status read_env_path(jet_kernel_path *out, const char *fn) {
  const char *e = getenv("JET_KERNEL_PATH");
  if (!e || !e[0] || strcmp(e, "auto") == 0) return JET_STATUS_OK;
  if (strcmp(e, "cubin") == 0) *out = JET_KERNEL_PATH_CUBIN;
  else if (strcmp(e, "ptx") == 0) *out = JET_KERNEL_PATH_PTX;
  else if (strcmp(e, "nvrtc") == 0) *out = JET_KERNEL_PATH_NVRTC;
  else
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "JET_KERNEL_PATH='%s': expected auto, cubin, ptx or nvrtc", e);
  return JET_STATUS_OK;
}

static jet_status make_cfg(const struct jet_context_s *ctx, const jet_module_options *o,
                           load_cfg *c, const char *fn) {
  memset(c, 0, sizeof *c);
  int use_env = !(o->flags & JET_MODULE_IGNORE_ENV);
  c->sel.device_sm = ctx->info.cc_major * 10 + ctx->info.cc_minor;
  c->sel.match = ctx->platform.policy.cubin_match;
  c->sel.policy = ctx->platform.policy.name;
  c->sel.nvrtc_built_in = jet__nvrtc_built_in();
  c->sel.jit_allowed = 1;
  c->sel.force = o->path;
  if (o->flags & JET_MODULE_NO_JIT) {
    c->sel.jit_allowed = 0;
    c->sel.jit_why = "JIT forbidden (JET_MODULE_NO_JIT)";
  } else if (ctx->flags & JET_CONTEXT_NO_JIT) {
    c->sel.jit_allowed = 0;
    c->sel.jit_why = "JIT forbidden (JET_CONTEXT_NO_JIT)";
  }
  if (use_env) {
    const char *e = getenv("JET_JIT");
    if (e && strcmp(e, "forbid") == 0) {
      if (c->sel.jit_allowed) c->sel.jit_why = "JIT forbidden (JET_JIT=forbid)";
      c->sel.jit_allowed = 0;
    } else if (e && e[0] && strcmp(e, "allow") != 0) {
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "JET_JIT='%s': expected forbid or allow",
                        e);
    }
    if (c->sel.force == JET_KERNEL_PATH_AUTO) JET__TRY(read_env_path(&c->sel.force, fn));
  }
  c->use_cache = !(o->flags & JET_MODULE_NO_CACHE);
  if (c->use_cache) jet__cache_dir(o->cache_dir, use_env, c->cache_dir, sizeof c->cache_dir);
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ loading */

typedef struct jit_result {
  double load_ms, jit_ms;
  char error_log[LOG_CAP], info_log[LOG_CAP];
} jit_result;

static CUresult load_image(const jet__driver_api *api, const void *image, CUmodule *mod,
                           jit_result *jr) {
  jr->error_log[0] = jr->info_log[0] = '\0';
  CUjit_option keys[] = {CU_JIT_WALL_TIME,
                         CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_LOG_VERBOSE};
  void *vals[] = {NULL,
                  jr->info_log,
                  (void *)(uintptr_t)LOG_CAP,
                  jr->error_log,
                  (void *)(uintptr_t)LOG_CAP,
                  (void *)(uintptr_t)1};
  double t0 = now_ms();
  CUresult r = api->cuModuleLoadDataEx(mod, image, (unsigned)(sizeof keys / sizeof keys[0]), keys,
                                       vals);
  jr->load_ms = now_ms() - t0;
  float wall = 0.0f; /* the driver writes the float into the option's slot */
  memcpy(&wall, &vals[0], sizeof wall);
  jr->jit_ms = wall;
  jr->error_log[LOG_CAP - 1] = jr->info_log[LOG_CAP - 1] = '\0';
  return r;
}

static jet_status load_failed(CUresult r, const jit_result *jr, const jet_kernel_image_set *set,
                              const char *what, int is_ptx, const char *fn) {
  if (jr->error_log[0])
    jet__log(JET_LOG_ERROR, "module '%s': %s: JIT error log:\n%s", set->name, what, jr->error_log);
  const char *hint = is_ptx ? "the driver's JIT could not compile the PTX; its log is in the message"
                            : NULL;
  jet_status st = jet__cu_error(r, fn, "cuModuleLoadDataEx", hint, "module '%s': %s refused%s%s",
                                set->name, what, jr->error_log[0] ? ": JIT log: " : "",
                                jr->error_log);
  if (!is_ptx || st == JET_STATUS_JIT_FAILED || st == JET_STATUS_NO_KERNEL_IMAGE ||
      st == JET_STATUS_OUT_OF_MEMORY || st == JET_STATUS_DEVICE_FAULT)
    return st;
  /* Any other refusal of PTX is the JIT's: report it as such, same detail. */
  char name[64];
  snprintf(name, sizeof name, "%s", jet_last_error()->native_name);
  return jet__error_native(JET_STATUS_JIT_FAILED, fn, "cuModuleLoadDataEx", name, (int)r, hint,
                           "module '%s': %s refused: JIT log: %s", set->name, what,
                           jr->error_log[0] ? jr->error_log : "(empty)");
}

/* Failures after which another candidate may still load. */
static int try_next(jet_status st) {
  return st == JET_STATUS_NO_KERNEL_IMAGE || st == JET_STATUS_JIT_FAILED ||
         st == JET_STATUS_COMPILE_FAILED || st == JET_STATUS_INVALID_ARGUMENT ||
         st == JET_STATUS_NOT_BUILT_IN;
}

static jet_status load_nvrtc(const jet__driver_api *api, const jet_kernel_image_set *set,
                             const load_cfg *c, CUmodule *mod, jet_module_load_info *info,
                             const char *fn) {
  int sm = c->sel.device_sm;
  jet__cache_key key = {0, sm, 0, 0};
  JET__TRY(jet__nvrtc_version(&key.nvrtc_major, &key.nvrtc_minor, fn));
  key.source_hash = jet__fnv1a64(JET__FNV_SEED, set->source, set->source_size);
  const char *opts = jet__nvrtc_options_text();
  key.source_hash = jet__fnv1a64(key.source_hash, opts, strlen(opts));
  char path[512] = "";
  if (c->use_cache && c->cache_dir[0] &&
      !jet__cache_path(c->cache_dir, set->name, &key, path, sizeof path))
    path[0] = '\0';

  jit_result *jr = malloc(sizeof *jr);
  if (!jr) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no memory for JIT logs");
  void *cubin = NULL;
  size_t size = 0;
  jet_status st;
  if (path[0]) {
    st = jet__cache_read(path, &key, &cubin, &size, fn);
    if (st == JET_STATUS_OK) {
      CUresult r = load_image(api, cubin, mod, jr);
      free(cubin);
      cubin = NULL;
      if (r == CUDA_SUCCESS) {
        info->cache_hit = 1;
        info->load_ms = jr->load_ms;
        snprintf(info->cache_file, sizeof info->cache_file, "%s", path);
        snprintf(info->image, sizeof info->image, "nvrtc sm_%d (cached)", sm);
        free(jr);
        return JET_STATUS_OK;
      }
      jet__log(JET_LOG_WARN, "module '%s': cached cubin %s refused by the driver (%d); rebuilding",
               set->name, path, (int)r);
      unlink(path);
    } else if (st == JET_STATUS_INVALID_STATE) {
      jet__log(JET_LOG_WARN, "%s; rebuilding", jet_last_error()->message);
    }
  }
  double t0 = now_ms();
  st = jet__nvrtc_compile(set->name, set->source, sm, &cubin, &size, fn);
  info->compile_ms = now_ms() - t0;
  if (st != JET_STATUS_OK) {
    free(jr);
    return st;
  }
  if (path[0]) {
    if (jet__cache_write(path, &key, cubin, size, fn) == JET_STATUS_OK)
      snprintf(info->cache_file, sizeof info->cache_file, "%s", path);
    else
      jet__log(JET_LOG_WARN, "NVRTC cache not written: %s", jet_last_error()->message);
  }
  CUresult r = load_image(api, cubin, mod, jr);
  free(cubin);
  info->load_ms = jr->load_ms;
  if (r != CUDA_SUCCESS) {
    char what[48];
    snprintf(what, sizeof what, "NVRTC cubin for sm_%d", sm);
    st = load_failed(r, jr, set, what, 0, fn);
    free(jr);
    return st;
  }
  snprintf(info->image, sizeof info->image, "nvrtc sm_%d", sm);
  free(jr);
  return JET_STATUS_OK;
}

static jet_status run_plan(const jet__driver_api *api, const jet_kernel_image_set *set,
                           const load_cfg *c, const jet__plan *plan, CUmodule *mod,
                           jet_module_load_info *info, const char *fn) {
  jet_status st = JET_STATUS_INTERNAL;
  for (int i = 0; i < plan->count; i++) {
    const jet__plan_step *s = &plan->steps[i];
    jet_module_load_info attempt = *info;
    if (s->path == JET_KERNEL_PATH_NVRTC) {
      attempt.image_sm = c->sel.device_sm;
      st = load_nvrtc(api, set, c, mod, &attempt, fn);
    } else {
      const jet_kernel_image *img = &set->images[s->image];
      jit_result *jr = malloc(sizeof *jr);
      if (!jr) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no memory for JIT logs");
      jet__image_label(img, attempt.image, sizeof attempt.image);
      attempt.image_sm = img->sm;
      CUresult r = load_image(api, img->data, mod, jr);
      attempt.load_ms = jr->load_ms;
      if (s->path == JET_KERNEL_PATH_PTX) attempt.jit_ms = jr->jit_ms;
      if (r == CUDA_SUCCESS) {
        if (jr->info_log[0])
          jet__log(JET_LOG_DEBUG, "module '%s': %s: JIT info log:\n%s", set->name, attempt.image,
                   jr->info_log);
        st = JET_STATUS_OK;
      } else {
        st = load_failed(r, jr, set, attempt.image, s->path == JET_KERNEL_PATH_PTX, fn);
      }
      free(jr);
    }
    if (st == JET_STATUS_OK) {
      attempt.path = s->path;
      *info = attempt;
      return JET_STATUS_OK;
    }
    if (!try_next(st) || i + 1 == plan->count) return st;
    jet__log(JET_LOG_WARN, "%s; trying the next image", jet_last_error_string());
  }
  return st;
}

/* Load @set on @ctx. @owned: the module belongs to the context (jetrt's own
 * modules): not counted as a live object, released by jet_context_destroy. */
static jet_status module_load(jet_context ctx, const jet_kernel_image_set *set,
                              const jet_module_options *opt, int owned, jet_module *out,
                              const char *fn) {
  double t0 = now_ms();
  JET__TRY(jet__set_check(set, fn));
  jet_module_options o = {0, JET_KERNEL_PATH_AUTO, NULL};
  if (opt) o = *opt;
  JET__ARG(!(o.flags & ~ALL_FLAGS), "unknown module flags 0x%x", o.flags & ~ALL_FLAGS);
  JET__ARG(o.path >= JET_KERNEL_PATH_AUTO && o.path <= JET_KERNEL_PATH_NVRTC,
           "unknown kernel path %d", (int)o.path);
  JET__ARG(!((o.flags & JET_MODULE_NO_JIT) &&
             (o.path == JET_KERNEL_PATH_PTX || o.path == JET_KERNEL_PATH_NVRTC)),
           "JET_MODULE_NO_JIT forbids the forced %s path",
           o.path == JET_KERNEL_PATH_PTX ? "PTX" : "NVRTC");

  load_cfg cfg;
  JET__TRY(make_cfg(ctx, &o, &cfg, fn));
  jet__plan plan;
  JET__TRY(jet__select(set, &cfg.sel, &plan, fn));

  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, fn));
  JET__TRY(jet__ctx_activate(ctx, fn));
  /* Make sure the runtime's primary context exists and is current: modules
   * must live where the runtime's streams run. cudaSetDevice (CUDA 12+)
   * already made it current; cudaFree(NULL) is the fallback, and is skipped
   * when a context is current because it is refused inside stream capture,
   * where an operation's first use loads its module. */
  CUcontext current = NULL;
  if (api->cuCtxGetCurrent(&current) != CUDA_SUCCESS || !current) JET__CUDA(cudaFree, (NULL));

  struct jet_module_s *m = calloc(1, sizeof *m);
  if (!m) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a module");
  m->set = set;
  snprintf(m->info.name, sizeof m->info.name, "%s", set->name);
  m->info.device_sm = cfg.sel.device_sm;
  jet_status st = run_plan(api, set, &cfg, &plan, &m->cu, &m->info, fn);
  if (st != JET_STATUS_OK) {
    free(m);
    return st;
  }
  if (pthread_mutex_init(&m->lock, NULL) != 0) {
    api->cuModuleUnload(m->cu);
    free(m);
    return jet__error(JET_STATUS_INTERNAL, fn, "pthread_mutex_init failed");
  }
  m->builtin = owned;
  st = owned ? jet__handle_register_embedded(&m->h, JET__H_MODULE, ctx, fn)
             : jet__handle_register(&m->h, JET__H_MODULE, ctx, fn);
  if (st != JET_STATUS_OK) {
    pthread_mutex_destroy(&m->lock);
    api->cuModuleUnload(m->cu);
    free(m);
    return st;
  }
  m->info.total_ms = now_ms() - t0;
  jet__log(JET_LOG_INFO, "module '%s' on device %d (sm_%d): %s, load %.2f ms, jit %.2f ms, "
           "compile %.2f ms", set->name, ctx->device, cfg.sel.device_sm, m->info.image,
           m->info.load_ms, m->info.jit_ms, m->info.compile_ms);
  *out = m;
  return JET_STATUS_OK;
}

jet_status jet_module_load(jet_context ctx, const jet_kernel_image_set *set,
                           const jet_module_options *opt, jet_module *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  return module_load(ctx, set, opt, 0, out, __func__);
}

static jet_status module_free(jet_module m, int owned, const char *fn) {
  for (struct jet_kernel_s *k = m->kernels, *next; k; k = next) {
    next = k->next;
    jet__handle_unregister_embedded(&k->h);
    free(k);
  }
  m->kernels = NULL;
  struct jet_context_s *ctx = m->h.ctx;
  if (owned)
    jet__handle_unregister_embedded(&m->h);
  else
    jet__handle_unregister(&m->h);
  pthread_mutex_destroy(&m->lock);
  CUmodule cu = m->cu;
  free(m);
  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, fn));
  JET__TRY(jet__ctx_activate(ctx, fn));
  CUresult r = api->cuModuleUnload(cu);
  if (r != CUDA_SUCCESS) return jet__cu_error(r, fn, "cuModuleUnload", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet_module_destroy(jet_module m) {
  if (!m) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(m, JET__H_MODULE, __func__, "module"));
  for (int i = 0; i < JET__BUILTIN_MAX; i++)
    if (m->h.ctx->builtins[i].mod == m)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "module '%s' is jetrt's own and belongs to its context", m->info.name);
  return module_free(m, 0, __func__);
}

/* ------------------------------------------------------------ jetrt's own modules */

/* The context's module of @set, loaded on first use. */
static jet_status builtin_module(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                                 jet_module *out, const char *fn) {
  jet_module m = NULL;
  jet_status st = JET_STATUS_OK;
  pthread_mutex_lock(&ctx->builtin_lock);
  int i = 0;
  while (i < JET__BUILTIN_MAX && ctx->builtins[i].set && ctx->builtins[i].set != set) i++;
  if (i == JET__BUILTIN_MAX)
    st = jet__error(JET_STATUS_INTERNAL, fn, "more than %d built-in modules", JET__BUILTIN_MAX);
  else if (ctx->builtins[i].set)
    m = ctx->builtins[i].mod;
  else if ((st = module_load(ctx, set, NULL, 1, &m, fn)) == JET_STATUS_OK) {
    ctx->builtins[i].set = set;
    ctx->builtins[i].mod = m;
  }
  pthread_mutex_unlock(&ctx->builtin_lock);
  *out = m;
  return st;
}

jet_status jet__builtin_image(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                              jet_kernel_path *path, int *image_sm, const char *fn) {
  jet_module m = NULL;
  JET__TRY(builtin_module(ctx, set, &m, fn));
  *path = m->info.path;
  *image_sm = m->info.image_sm;
  return JET_STATUS_OK;
}

jet_status jet__builtin_path(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                             jet_kernel_path *path, const char *fn) {
  int sm;
  return jet__builtin_image(ctx, set, path, &sm, fn);
}

jet_status jet__builtin_kernel_or(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                                  const char *name, const char *ptx_name, jet_kernel *out,
                                  const char *fn) {
  jet_module m = NULL;
  JET__TRY(builtin_module(ctx, set, &m, fn));
  if (m->info.path == JET_KERNEL_PATH_PTX) name = ptx_name;
  jet_status st = jet_module_kernel(m, name, out);
  if (st != JET_STATUS_OK) jet__error_set_hint("built-in module '%s' used by %s", set->name, fn);
  return st;
}

jet_status jet__builtin_kernel(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                               const char *name, jet_kernel *out, const char *fn) {
  return jet__builtin_kernel_or(ctx, set, name, name, out, fn);
}

int jet__kernel_resident(jet_kernel k) {
  return k->resident;
}

void jet__builtins_release(struct jet_context_s *ctx) {
  for (int i = 0; i < JET__BUILTIN_MAX && ctx->builtins[i].set; i++) {
    (void)module_free(ctx->builtins[i].mod, 1, "jet_context_destroy");
    ctx->builtins[i].set = NULL;
    ctx->builtins[i].mod = NULL;
  }
}

jet_status jet__launch(cudaStream_t s, jet_kernel k, jet_dim3 grid, jet_dim3 block,
                       size_t shared_bytes, void **args, const char *fn) {
  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, fn));
  CUresult r;
  /* Only jetrt's own kernels, from an image built for SM 9.0 or newer: those
   * wait (griddepcontrol.wait) before they touch memory. A user's kernel may
   * not, and a PTX fallback for an older SM has no such instruction. */
  if (k->mod->builtin && k->mod->info.image_sm >= 90 && jet__stream_programmatic(s)) {
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig lc;
    jet__launch_config(&lc, grid, block, shared_bytes, (CUstream)s, &attr, 1);
    r = api->cuLaunchKernelEx(&lc, k->fn, args, NULL);
    if (r != CUDA_SUCCESS)
      return jet__cu_error(r, fn, "cuLaunchKernelEx", NULL,
                           "kernel '%s' with programmatic stream serialization, grid (%u, %u, %u), "
                           "block (%u, %u, %u)",
                           k->name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    return JET_STATUS_OK;
  }
  r = api->cuLaunchKernel(k->fn, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                          (unsigned)shared_bytes, (CUstream)s, args, NULL);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, fn, "cuLaunchKernel", NULL,
                         "kernel '%s', grid (%u, %u, %u), block (%u, %u, %u), %zu shared bytes",
                         k->name, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                         shared_bytes);
  return JET_STATUS_OK;
}

jet_status jet_module_info(jet_module m, jet_module_load_info *info) {
  JET__TRY(jet__handle_check(m, JET__H_MODULE, __func__, "module"));
  JET__ARG(info, "info is NULL");
  *info = m->info;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ kernels */

static int count_params(const jet__driver_api *api, CUfunction f) {
  for (size_t i = 0; i < 4096; i++) {
    size_t off, size;
    CUresult r = api->cuFuncGetParamInfo(f, i, &off, &size);
    if (r == CUDA_ERROR_INVALID_VALUE) return (int)i;
    if (r != CUDA_SUCCESS) return -1;
  }
  return -1;
}

jet_status jet_module_kernel(jet_module m, const char *name, jet_kernel *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(m, JET__H_MODULE, __func__, "module"));
  JET__ARG(name && name[0], "kernel name is NULL or empty");
  size_t len = strlen(name);
  JET__ARG(len < 1024, "kernel name is %zu characters long", len);
  pthread_mutex_lock(&m->lock);
  for (struct jet_kernel_s *k = m->kernels; k; k = k->next)
    if (strcmp(k->name, name) == 0) {
      pthread_mutex_unlock(&m->lock);
      *out = k;
      return JET_STATUS_OK;
    }
  jet_status st = JET_STATUS_OK;
  const jet__driver_api *api = NULL;
  struct jet_kernel_s *k = NULL;
  CUfunction f = NULL;
  CUresult r = CUDA_SUCCESS;
  if ((st = jet__driver(&api, __func__)) != JET_STATUS_OK) goto done;
  if ((st = jet__ctx_activate(m->h.ctx, __func__)) != JET_STATUS_OK) goto done;
  r = api->cuModuleGetFunction(&f, m->cu, name);
  if (r == CUDA_ERROR_NOT_FOUND) {
    st = jet__error_native(JET_STATUS_INVALID_ARGUMENT, __func__, "cuModuleGetFunction",
                           "CUDA_ERROR_NOT_FOUND", (int)r,
                           "kernels must be extern \"C\" __global__ so that names do not mangle",
                           "module '%s' has no kernel '%s'", m->info.name, name);
    goto done;
  }
  if (r != CUDA_SUCCESS) {
    st = jet__cu_error(r, __func__, "cuModuleGetFunction", NULL, "module '%s', kernel '%s'",
                       m->info.name, name);
    goto done;
  }
  k = calloc(1, sizeof *k + len + 1);
  if (!k) {
    st = jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a kernel");
    goto done;
  }
  memcpy(k->name, name, len + 1);
  k->mod = m;
  k->fn = f;
  r = api->cuFuncGetAttribute(&k->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
  if (r == CUDA_SUCCESS)
    r = api->cuFuncGetAttribute(&k->max_dyn_shared,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f);
  if (r != CUDA_SUCCESS) {
    st = jet__cu_error(r, __func__, "cuFuncGetAttribute", NULL, "kernel '%s'", name);
    free(k);
    k = NULL;
    goto done;
  }
  /* jetrt's own kernels size their grids by it (blocks of 256 threads, or
   * their launch bound where that is less; no dynamic shared memory):
   * looked up once, here */
  if (m->builtin) {
    const int threads = k->max_threads < 256 ? k->max_threads : 256;
    r = api->cuOccupancyMaxActiveBlocksPerMultiprocessor(&k->resident, f, threads, 0);
    if (r != CUDA_SUCCESS) {
      st = jet__cu_error(r, __func__, "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL,
                         "kernel '%s', %d threads", name, threads);
      free(k);
      k = NULL;
      goto done;
    }
  }
  k->params = count_params(api, f);
  st = jet__handle_register_embedded(&k->h, JET__H_KERNEL, m->h.ctx, __func__);
  if (st != JET_STATUS_OK) {
    free(k);
    k = NULL;
    goto done;
  }
  k->next = m->kernels;
  m->kernels = k;
done:
  pthread_mutex_unlock(&m->lock);
  if (st == JET_STATUS_OK) *out = k;
  return st;
}

jet_status jet__launch_args_check(const struct jet_kernel_s *kernel, jet_dim3 grid,
                                  jet_dim3 block, size_t shared_bytes, void **args,
                                  const char *fn) {
  if (!(grid.x && grid.y && grid.z))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "grid (%u, %u, %u) has a zero dimension",
                      grid.x, grid.y, grid.z);
  if (!(block.x && block.y && block.z))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "block (%u, %u, %u) has a zero dimension",
                      block.x, block.y, block.z);
  uint64_t threads = (uint64_t)block.x * block.y * block.z;
  if (threads > (uint64_t)kernel->max_threads)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "block (%u, %u, %u) has %llu threads; kernel '%s' allows at most %d",
                      block.x, block.y, block.z, (unsigned long long)threads, kernel->name,
                      kernel->max_threads);
  if (shared_bytes > 0xffffffffu)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "shared_bytes %zu does not fit the driver's 32 bits", shared_bytes);
  if (shared_bytes > (size_t)kernel->max_dyn_shared) {
    /* The limit may have been raised (jet_kernel_set_max_dynamic_shared, or
     * through the native handle) since lookup. */
    const jet__driver_api *api;
    JET__TRY(jet__driver(&api, fn));
    int limit = kernel->max_dyn_shared;
    if (api->cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                kernel->fn) != CUDA_SUCCESS)
      limit = kernel->max_dyn_shared;
    if (shared_bytes > (size_t)limit) {
      jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                 "shared_bytes %zu exceeds the dynamic shared memory limit %d of kernel '%s'",
                 shared_bytes, limit, kernel->name);
      jet__error_set_hint("more than 48 KiB needs an opt-in: jet_kernel_set_max_dynamic_shared");
      return JET_STATUS_INVALID_ARGUMENT;
    }
  }
  if (kernel->params > 0) {
    if (!args)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "args is NULL but kernel '%s' takes %d parameter(s)", kernel->name,
                        kernel->params);
    for (int i = 0; i < kernel->params; i++)
      if (!args[i])
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "args[%d] is NULL (kernel '%s')", i,
                          kernel->name);
  }
  return JET_STATUS_OK;
}

jet_status jet_launch(jet_stream stream, jet_kernel kernel, jet_dim3 grid, jet_dim3 block,
                      size_t shared_bytes, void **args) {
  JET__TRY(jet__handle_check(kernel, JET__H_KERNEL, __func__, "kernel"));
  cudaStream_t s;
  JET__TRY(jet__stream_enter(stream, kernel->h.ctx, &s, __func__));
  JET__TRY(jet__launch_args_check(kernel, grid, block, shared_bytes, args, __func__));
  /* cudaStreamLegacy / cudaStreamPerThread have the same values as
   * CU_STREAM_LEGACY / CU_STREAM_PER_THREAD, so any runtime stream passes as is. */
  return jet__launch(s, kernel, grid, block, shared_bytes, args, __func__);
}

jet_status jet_kernel_suggest_block(jet_kernel kernel, size_t shared_bytes, int *block_size,
                                    int *min_grid) {
  JET__TRY(jet__handle_check(kernel, JET__H_KERNEL, __func__, "kernel"));
  JET__ARG(block_size, "block_size is NULL");
  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, __func__));
  JET__TRY(jet__ctx_activate(kernel->h.ctx, __func__));
  int grid = 0, block = 0;
  CUresult r = api->cuOccupancyMaxPotentialBlockSize(&grid, &block, kernel->fn, NULL, shared_bytes,
                                                     0);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, __func__, "cuOccupancyMaxPotentialBlockSize", NULL,
                         "kernel '%s', %zu shared bytes", kernel->name, shared_bytes);
  *block_size = block;
  if (min_grid) *min_grid = grid;
  return JET_STATUS_OK;
}

jet_status jet_kernel_native(jet_kernel kernel, void **cu_function) {
  JET__TRY(jet__handle_check(kernel, JET__H_KERNEL, __func__, "kernel"));
  JET__ARG(cu_function, "cu_function is NULL");
  *cu_function = (void *)kernel->fn;
  return JET_STATUS_OK;
}

void jet__kernel_describe(jet_kernel k, jet__kernel_desc *out) {
  out->fn = k->fn;
  out->params = k->params;
  out->max_threads = k->max_threads;
  out->max_dyn_shared = k->max_dyn_shared;
  out->name = k->name;
}

jet_status jet__launch_check(jet_kernel k, jet_dim3 grid, jet_dim3 block, size_t shared_bytes,
                             void **args, const char *fn) {
  if (!grid.x || !grid.y || !grid.z)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "grid (%u, %u, %u) has a zero dimension",
                      grid.x, grid.y, grid.z);
  if (!block.x || !block.y || !block.z)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "block (%u, %u, %u) has a zero dimension",
                      block.x, block.y, block.z);
  uint64_t threads = (uint64_t)block.x * block.y * block.z;
  if (threads > (uint64_t)k->max_threads)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "block (%u, %u, %u) has %llu threads; kernel '%s' allows at most %d",
                      block.x, block.y, block.z, (unsigned long long)threads, k->name,
                      k->max_threads);
  if (shared_bytes > 0xffffffffu)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "shared_bytes %zu does not fit the driver's 32 bits", shared_bytes);
  if (shared_bytes > (size_t)k->max_dyn_shared) {
    /* The limit may have been raised through the native handle since lookup. */
    const jet__driver_api *api;
    JET__TRY(jet__driver(&api, fn));
    int limit = k->max_dyn_shared;
    if (api->cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k->fn) !=
        CUDA_SUCCESS)
      limit = k->max_dyn_shared;
    if (shared_bytes > (size_t)limit)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "shared_bytes %zu exceeds the dynamic shared memory limit %d of kernel "
                        "'%s'",
                        shared_bytes, limit, k->name);
  }
  if (k->params > 0) {
    if (!args)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "args is NULL but kernel '%s' takes %d parameter(s)", k->name, k->params);
    for (int i = 0; i < k->params; i++)
      if (!args[i])
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "args[%d] is NULL (kernel '%s')", i,
                          k->name);
  }
  return JET_STATUS_OK;
}

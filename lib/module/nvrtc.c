/*
 * NVRTC: compile an embedded module source for the device's exact SM.
 * Built only with JET_WITH_NVRTC (JET_HAVE_NVRTC=1); otherwise every entry
 * point reports JET_STATUS_NOT_BUILT_IN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "module_int.h"

#ifndef JET_HAVE_NVRTC
#define JET_HAVE_NVRTC 0
#endif

/* Match nvcc's defaults for device code, so that the NVRTC cubin computes the
 * same bits as the precompiled ones. */
#define OPTS_TEXT "-default-device --std=c++17 -fmad=true -prec-div=true -prec-sqrt=true -ftz=false"

const char *jet__nvrtc_options_text(void) { return OPTS_TEXT; }

#if JET_HAVE_NVRTC

#include <nvrtc.h>

int jet__nvrtc_built_in(void) { return 1; }

jet_status jet__nvrtc_version(int *major, int *minor, const char *fn) {
  nvrtcResult r = nvrtcVersion(major, minor);
  if (r != NVRTC_SUCCESS)
    return jet__error_native(JET_STATUS_COMPILE_FAILED, fn, "nvrtcVersion", nvrtcGetErrorString(r),
                             (int)r, NULL, "NVRTC does not report its version");
  return JET_STATUS_OK;
}

jet_status jet__nvrtc_compile(const char *name, const char *source, int sm, void **cubin,
                              size_t *size, const char *fn) {
  *cubin = NULL;
  *size = 0;
  char arch[32];
  snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d", sm);
  const char *opts[] = {arch, "-default-device", "--std=c++17", "-fmad=true", "-prec-div=true",
                        "-prec-sqrt=true", "-ftz=false"};
  char file[80];
  snprintf(file, sizeof file, "%s.cu", name);
  nvrtcProgram prog;
  nvrtcResult r = nvrtcCreateProgram(&prog, source, file, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS)
    return jet__error_native(r == NVRTC_ERROR_OUT_OF_MEMORY ? JET_STATUS_OUT_OF_MEMORY
                                                            : JET_STATUS_COMPILE_FAILED,
                             fn, "nvrtcCreateProgram", nvrtcGetErrorString(r), (int)r, NULL,
                             "module '%s'", name);
  r = nvrtcCompileProgram(prog, (int)(sizeof opts / sizeof opts[0]), opts);
  if (r != NVRTC_SUCCESS) {
    size_t n = 0;
    char *log = NULL;
    if (nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 1 && (log = malloc(n)) &&
        nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS)
      log[0] = '\0';
    if (log) jet__log(JET_LOG_ERROR, "NVRTC log for module '%s' (sm_%d):\n%s", name, sm, log);
    jet_status st = jet__error_native(JET_STATUS_COMPILE_FAILED, fn, "nvrtcCompileProgram",
                                      nvrtcGetErrorString(r), (int)r,
                                      "the module source must compile under NVRTC: no host "
                                      "headers, extern \"C\" kernels",
                                      "module '%s' for sm_%d: NVRTC log: %s", name, sm,
                                      log ? log : "(none)");
    free(log);
    nvrtcDestroyProgram(&prog);
    return st;
  }
  size_t n = 0;
  r = nvrtcGetCUBINSize(prog, &n);
  void *buf = (r == NVRTC_SUCCESS && n) ? malloc(n) : NULL;
  if (r == NVRTC_SUCCESS && n && !buf) {
    nvrtcDestroyProgram(&prog);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no memory for a %zu-byte cubin", n);
  }
  if (r == NVRTC_SUCCESS && buf) r = nvrtcGetCUBIN(prog, buf);
  nvrtcDestroyProgram(&prog);
  if (r != NVRTC_SUCCESS || !buf) {
    free(buf);
    return jet__error_native(JET_STATUS_COMPILE_FAILED, fn, "nvrtcGetCUBIN",
                             r != NVRTC_SUCCESS ? nvrtcGetErrorString(r) : "", (int)r, NULL,
                             "module '%s': NVRTC produced no cubin for sm_%d", name, sm);
  }
  *cubin = buf;
  *size = n;
  return JET_STATUS_OK;
}

#else /* !JET_HAVE_NVRTC */

int jet__nvrtc_built_in(void) { return 0; }

static jet_status not_built_in(const char *fn) {
  return jet__error(JET_STATUS_NOT_BUILT_IN, fn,
                    "NVRTC was left out of this build (JET_WITH_NVRTC=OFF or no NVRTC for the "
                    "target)");
}

jet_status jet__nvrtc_version(int *major, int *minor, const char *fn) {
  *major = *minor = 0;
  return not_built_in(fn);
}

jet_status jet__nvrtc_compile(const char *name, const char *source, int sm, void **cubin,
                              size_t *size, const char *fn) {
  (void)name;
  (void)source;
  (void)sm;
  *cubin = NULL;
  *size = 0;
  return not_built_in(fn);
}

#endif

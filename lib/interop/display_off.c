/*
 * jetrt/display.h in a build without the EGL or the OpenGL headers: every
 * call says how to build it in. Destroying NULL stays a no-op.
 */
#include "internal.h"

#if !(JET_HAVE_EGL && JET_HAVE_GL)

#define OFF(fn)                                                                               \
  jet__error(JET_STATUS_NOT_BUILT_IN, fn,                                                    \
             "the display helper is not built in (EGL headers %s, GL headers %s): install "  \
             "libegl-dev and libgl-dev (or set JET_GL_PREFIX) and configure with "           \
             "-DJET_WITH_EGL and -DJET_WITH_GL AUTO or ON",                                  \
             JET_HAVE_EGL ? "found" : "missing", JET_HAVE_GL ? "found" : "missing")

jet_status jet_presenter_create(jet_egl egl, const jet_presenter_desc *desc, jet_presenter *out) {
  (void)egl, (void)desc;
  if (out) *out = NULL;
  return OFF(__func__);
}

jet_status jet_presenter_destroy(jet_presenter p) { return p ? OFF(__func__) : JET_STATUS_OK; }

jet_status jet_presenter_get_info(jet_presenter p, jet_presenter_info *info) {
  (void)p, (void)info;
  return OFF(__func__);
}

jet_status jet_presenter_make_current(jet_presenter p) {
  (void)p;
  return OFF(__func__);
}

jet_status jet_presenter_draw(jet_presenter p, jet_image image, jet_stream stream) {
  (void)p, (void)image, (void)stream;
  return OFF(__func__);
}

jet_status jet_presenter_swap(jet_presenter p) {
  (void)p;
  return OFF(__func__);
}

jet_status jet_presenter_read(jet_presenter p, void *rgba, size_t pitch) {
  (void)p, (void)rgba, (void)pitch;
  return OFF(__func__);
}

#endif /* !(JET_HAVE_EGL && JET_HAVE_GL) */

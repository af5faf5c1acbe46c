/*
 * jetrt/gl.h in a build without the OpenGL headers: every call says how to
 * build it in. Unregistering NULL stays a no-op, so cleanup code is the same
 * in both builds.
 */
#include "internal.h"

#if !JET_HAVE_GL

#define OFF(fn)                                                                        \
  jet__error(JET_STATUS_NOT_BUILT_IN, fn,                                             \
             "OpenGL interop is not built in: install the GL headers (Debian/Ubuntu: " \
             "libgl-dev, or set JET_GL_PREFIX) and configure with -DJET_WITH_GL=AUTO or ON")

jet_status jet_gl_register_buffer(jet_context ctx, unsigned buffer, unsigned flags,
                                  jet_gl_resource *out) {
  (void)ctx, (void)buffer, (void)flags;
  if (out) *out = NULL;
  return OFF(__func__);
}

jet_status jet_gl_register_image(jet_context ctx, unsigned name, unsigned target, unsigned flags,
                                 jet_gl_resource *out) {
  (void)ctx, (void)name, (void)target, (void)flags;
  if (out) *out = NULL;
  return OFF(__func__);
}

jet_status jet_gl_unregister(jet_gl_resource r) { return r ? OFF(__func__) : JET_STATUS_OK; }

jet_status jet_gl_get_info(jet_gl_resource r, jet_gl_info *info) {
  (void)r, (void)info;
  return OFF(__func__);
}

jet_status jet_gl_map(jet_gl_resource r, jet_stream stream) {
  (void)r, (void)stream;
  return OFF(__func__);
}

jet_status jet_gl_unmap(jet_gl_resource r, jet_stream stream) {
  (void)r, (void)stream;
  return OFF(__func__);
}

jet_status jet_gl_mapped_pointer(jet_gl_resource r, void **ptr, size_t *bytes) {
  (void)r, (void)ptr, (void)bytes;
  return OFF(__func__);
}

jet_status jet_gl_mapped_buffer(jet_gl_resource r, jet_buffer *out) {
  (void)r;
  if (out) *out = NULL;
  return OFF(__func__);
}

jet_status jet_gl_mapped_image(jet_gl_resource r, jet_format format, int width, int height,
                               const size_t *pitches, const size_t *offsets, jet_image *out) {
  (void)r, (void)format, (void)width, (void)height, (void)pitches, (void)offsets;
  if (out) *out = NULL;
  return OFF(__func__);
}

jet_status jet_gl_mapped_array(jet_gl_resource r, unsigned layer, unsigned level, void **array) {
  (void)r, (void)layer, (void)level;
  if (array) *array = NULL;
  return OFF(__func__);
}

jet_status jet_gl_copy_to_image(jet_gl_resource r, jet_image dst, jet_stream stream) {
  (void)r, (void)dst, (void)stream;
  return OFF(__func__);
}

jet_status jet_gl_copy_from_image(jet_gl_resource r, jet_image src, jet_stream stream) {
  (void)r, (void)src, (void)stream;
  return OFF(__func__);
}

#endif /* !JET_HAVE_GL */

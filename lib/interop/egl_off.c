/*
 * jetrt/egl.h in a build without the EGL headers (JET_WITH_EGL=OFF, or
 * EGL/egl.h not found): every call says so.
 */
#include "internal.h"

#if !JET_HAVE_EGL

#define OFF()                                                                                \
  return jet__error(JET_STATUS_NOT_BUILT_IN, __func__,                                       \
                    "EGL interop was left out of this build: install the EGL headers "       \
                    "(libegl-dev) or set JET_GL_PREFIX, and configure with JET_WITH_EGL=AUTO or ON")

jet_status jet_egl_open(jet_context ctx, const jet_egl_desc *desc, jet_egl *out) {
  (void)ctx, (void)desc;
  if (out) *out = NULL;
  OFF();
}
jet_status jet_egl_close(jet_egl egl) {
  if (!egl) return JET_STATUS_OK;
  OFF();
}
jet_status jet_egl_get_info(jet_egl egl, jet_egl_info *info) { (void)egl, (void)info; OFF(); }
jet_status jet_egl_has_extension(jet_egl egl, const char *name, int *has) {
  (void)egl, (void)name, (void)has;
  OFF();
}
jet_status jet_egl_frame_copy(const jet_egl_frame *frame, jet_image dst, jet_stream stream) {
  (void)frame, (void)dst, (void)stream;
  OFF();
}
jet_status jet_egl_format_from_native(int native, jet_format *format, jet_color_matrix *matrix,
                                      jet_color_range *range) {
  (void)native, (void)format, (void)matrix, (void)range;
  OFF();
}
jet_status jet_egl_create_image_gl_texture(jet_egl egl, void *gl_context, unsigned texture,
                                           int level, void **egl_image) {
  (void)egl, (void)gl_context, (void)texture, (void)level, (void)egl_image;
  OFF();
}
jet_status jet_egl_create_image_dmabuf(jet_egl egl, const jet_egl_dmabuf_desc *desc,
                                       void **egl_image) {
  (void)egl, (void)desc, (void)egl_image;
  OFF();
}
jet_status jet_egl_destroy_image(jet_egl egl, void *egl_image) {
  (void)egl, (void)egl_image;
  OFF();
}
jet_status jet_egl_image_register(jet_egl egl, void *egl_image, unsigned flags,
                                  jet_egl_image *out) {
  (void)egl, (void)egl_image, (void)flags;
  if (out) *out = NULL;
  OFF();
}
jet_status jet_egl_image_unregister(jet_egl_image img) {
  if (!img) return JET_STATUS_OK;
  OFF();
}
jet_status jet_egl_image_map(jet_egl_image img, jet_stream stream, jet_egl_frame *frame) {
  (void)img, (void)stream, (void)frame;
  OFF();
}
jet_status jet_egl_image_unmap(jet_egl_image img, jet_stream stream) {
  (void)img, (void)stream;
  OFF();
}
jet_status jet_egl_stream_create(jet_egl egl, const jet_egl_stream_desc *desc, void **stream) {
  (void)egl, (void)desc, (void)stream;
  OFF();
}
jet_status jet_egl_stream_destroy(jet_egl egl, void *stream) {
  (void)egl, (void)stream;
  OFF();
}
jet_status jet_egl_stream_get_state(jet_egl egl, void *stream, jet_egl_stream_state *state) {
  (void)egl, (void)stream, (void)state;
  OFF();
}
jet_status jet_egl_consumer_connect(jet_egl egl, void *stream, unsigned flags,
                                    jet_egl_consumer *out) {
  (void)egl, (void)stream, (void)flags;
  if (out) *out = NULL;
  OFF();
}
jet_status jet_egl_consumer_disconnect(jet_egl_consumer c) {
  if (!c) return JET_STATUS_OK;
  OFF();
}
jet_status jet_egl_consumer_acquire(jet_egl_consumer c, jet_stream stream, unsigned timeout_us,
                                    jet_egl_frame *frame) {
  (void)c, (void)stream, (void)timeout_us, (void)frame;
  OFF();
}
jet_status jet_egl_consumer_release(jet_egl_consumer c, const jet_egl_frame *frame,
                                    jet_stream stream) {
  (void)c, (void)frame, (void)stream;
  OFF();
}
jet_status jet_egl_producer_connect(jet_egl egl, void *stream, int width, int height,
                                    jet_egl_producer *out) {
  (void)egl, (void)stream, (void)width, (void)height;
  if (out) *out = NULL;
  OFF();
}
jet_status jet_egl_producer_disconnect(jet_egl_producer p) {
  if (!p) return JET_STATUS_OK;
  OFF();
}
jet_status jet_egl_producer_present(jet_egl_producer p, jet_image image, jet_stream stream) {
  (void)p, (void)image, (void)stream;
  OFF();
}
jet_status jet_egl_producer_return(jet_egl_producer p, jet_stream stream, unsigned timeout_us,
                                   jet_image *image) {
  (void)p, (void)stream, (void)timeout_us;
  if (image) *image = NULL;
  OFF();
}
jet_status jet_egl_sync_to_event(jet_egl egl, void *egl_sync, unsigned timeout_us,
                                 jet_event *out) {
  (void)egl, (void)egl_sync, (void)timeout_us;
  if (out) *out = NULL;
  OFF();
}
jet_status jet_egl_sync_from_event(jet_egl egl, jet_event event, void **egl_sync) {
  (void)egl, (void)event;
  if (egl_sync) *egl_sync = NULL;
  OFF();
}
jet_status jet_egl_sync_destroy(jet_egl egl, void *egl_sync) {
  if (!egl_sync) return JET_STATUS_OK;
  (void)egl;
  OFF();
}

#endif /* !JET_HAVE_EGL */

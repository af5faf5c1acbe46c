/* EGL interop without a GPU: argument validation of every jetrt/egl.h call,
 * the colour-format table, extension matching, the loader's failure status,
 * and (with Mesa's surfaceless platform) a caller's display, EGLImages of GL
 * textures, missing extensions and the leak report. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "egl_test_util.h"
#include "test_gl_util.h"
#include "internal.h"

#if JET_HAVE_EGL

TEST(egl_format_table) {
  static const struct {
    int native;
    jet_format f;
    jet_color_matrix m;
    jet_color_range r;
  } rows[] = {
      {cudaEglColorFormatYUV420SemiPlanar, JET_FORMAT_NV12, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
      {cudaEglColorFormatYUV420SemiPlanar_ER, JET_FORMAT_NV12, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
      {cudaEglColorFormatYUV420SemiPlanar_709, JET_FORMAT_NV12, JET_COLOR_BT709, JET_COLOR_RANGE_LIMITED},
      {cudaEglColorFormatYVU420SemiPlanar, JET_FORMAT_NV21, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
      {cudaEglColorFormatYUV420Planar_709, JET_FORMAT_I420, JET_COLOR_BT709, JET_COLOR_RANGE_LIMITED},
      {cudaEglColorFormatYUYV422, JET_FORMAT_YUYV, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
      {cudaEglColorFormatUYVY709_ER, JET_FORMAT_UYVY, JET_COLOR_BT709, JET_COLOR_RANGE_FULL},
      {cudaEglColorFormatABGR, JET_FORMAT_RGBA8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
      {cudaEglColorFormatARGB, JET_FORMAT_BGRA8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
      {cudaEglColorFormatL, JET_FORMAT_GRAY8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
      {cudaEglColorFormatY, JET_FORMAT_GRAY8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
      {cudaEglColorFormatBayerRGGB, JET_FORMAT_NONE_, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
      {cudaEglColorFormatYVU420Planar, JET_FORMAT_NONE_, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
      {-1, JET_FORMAT_NONE_, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    jet_format f = (jet_format)99;
    jet_color_matrix m = (jet_color_matrix)9;
    jet_color_range r = (jet_color_range)9;
    CHECK_OK(jet_egl_format_from_native(rows[i].native, &f, &m, &r));
    CHECK_MSG(f == rows[i].f && m == rows[i].m && r == rows[i].r, "row %zu: %s %d %d", i,
              jet_format_name(f), (int)m, (int)r);
  }
  /* On Jetson a producer presents the label a consumer maps back to the same
   * format; the desktop driver swaps the semi-planar labels on the way
   * (gpu_egl_stream_format_labels), so there the producer swaps them first. */
  for (jet_format f = JET_FORMAT_GRAY8; f < JET_FORMAT_COUNT_; f++) {
    int n = jet__egl_native_from_format(f, 1);
    if (n < 0) continue;
    jet_format back;
    CHECK_OK(jet_egl_format_from_native(n, &back, NULL, NULL));
    CHECK_MSG(back == f, "%s -> %d -> %s", jet_format_name(f), n, jet_format_name(back));
  }
  CHECK(jet__egl_native_from_format(JET_FORMAT_NV12, 0) == cudaEglColorFormatYVU420SemiPlanar);
  CHECK(jet__egl_native_from_format(JET_FORMAT_NV21, 0) == cudaEglColorFormatYUV420SemiPlanar);
  CHECK(jet__egl_native_from_format(JET_FORMAT_RGBA8, 0) == cudaEglColorFormatABGR);
  CHECK(jet__egl_native_from_format(JET_FORMAT_GRAY8, 1) == cudaEglColorFormatY);
  CHECK(jet__egl_native_from_format(JET_FORMAT_RGBF32P, 1) < 0);
  CHECK(jet__egl_native_from_format(JET_FORMAT_YUYV, 1) < 0);
  CHECK_ST(jet_egl_format_from_native(1, NULL, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

TEST(egl_extension_words) {
  const char *l = "EGL_KHR_stream EGL_KHR_stream_fifo EGL_NV_device_cuda";
  CHECK(jet__ext_listed(l, "EGL_KHR_stream"));
  CHECK(jet__ext_listed(l, "EGL_KHR_stream_fifo"));
  CHECK(jet__ext_listed(l, "EGL_NV_device_cuda"));
  CHECK(!jet__ext_listed(l, "EGL_KHR_str"));
  CHECK(!jet__ext_listed(l, "EGL_NV_device"));
  CHECK(!jet__ext_listed("EGL_KHR_stream_fifo", "EGL_KHR_stream"));
  CHECK(!jet__ext_listed(NULL, "EGL_KHR_stream"));
  CHECK(!jet__ext_listed(l, ""));
  return 0;
}

TEST(egl_missing_library_is_a_clear_status) {
  setenv("JET_EGL_LIBRARY", "libjet-no-such-egl.so.1", 1);
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  jet_egl egl = (jet_egl)1;
  CHECK_ST(jet_egl_open(&c, NULL, &egl), JET_STATUS_UNSUPPORTED);
  CHECK(egl == NULL);
  CHECK(strstr(jet_last_error()->message, "libjet-no-such-egl.so.1") != NULL);
  CHECK(strstr(jet_last_error()->hint, "libegl1") != NULL);
  jt_fake_context_done(&c);
  return 0;
}

/* Every call with NULL or made-up handles, before any EGL or CUDA work. */
TEST(egl_bad_arguments) {
  jet_egl egl = (jet_egl)1;
  int dummy = 0;
  void *p = &dummy;
  jet_egl_info info;
  jet_egl_frame frame;
  memset(&frame, 0, sizeof frame);
  CHECK_ST(jet_egl_open(NULL, NULL, &egl), JET_STATUS_INVALID_HANDLE);
  CHECK(egl == NULL);
  CHECK_ST(jet_egl_open((jet_context)&dummy, NULL, &egl), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_open(NULL, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_egl_close(NULL));
  CHECK_ST(jet_egl_close((jet_egl)&dummy), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_get_info(NULL, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_has_extension(NULL, "EGL_KHR_stream", &dummy), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_frame_copy(NULL, (jet_image)p, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_frame_copy(&frame, (jet_image)p, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_create_image_gl_texture(NULL, p, 1, 0, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_create_image_dmabuf(NULL, NULL, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_destroy_image(NULL, p), JET_STATUS_INVALID_HANDLE);
  jet_egl_image img = (jet_egl_image)1;
  CHECK_ST(jet_egl_image_register(NULL, p, 0, &img), JET_STATUS_INVALID_HANDLE);
  CHECK(img == NULL);
  CHECK_OK(jet_egl_image_unregister(NULL));
  CHECK_ST(jet_egl_image_unregister((jet_egl_image)&dummy), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_image_map(NULL, NULL, &frame), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_image_unmap(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_stream_create(NULL, NULL, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_stream_destroy(NULL, p), JET_STATUS_INVALID_HANDLE);
  jet_egl_stream_state state;
  CHECK_ST(jet_egl_stream_get_state(NULL, p, &state), JET_STATUS_INVALID_HANDLE);
  jet_egl_consumer cons = (jet_egl_consumer)1;
  CHECK_ST(jet_egl_consumer_connect(NULL, p, 0, &cons), JET_STATUS_INVALID_HANDLE);
  CHECK(cons == NULL);
  CHECK_OK(jet_egl_consumer_disconnect(NULL));
  CHECK_ST(jet_egl_consumer_disconnect((jet_egl_consumer)&dummy), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_consumer_acquire(NULL, NULL, 0, &frame), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_consumer_release(NULL, &frame, NULL), JET_STATUS_INVALID_HANDLE);
  jet_egl_producer prod = (jet_egl_producer)1;
  CHECK_ST(jet_egl_producer_connect(NULL, p, 4, 4, &prod), JET_STATUS_INVALID_HANDLE);
  CHECK(prod == NULL);
  CHECK_OK(jet_egl_producer_disconnect(NULL));
  CHECK_ST(jet_egl_producer_disconnect((jet_egl_producer)&dummy), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_producer_present(NULL, (jet_image)p, NULL), JET_STATUS_INVALID_HANDLE);
  jet_image back = (jet_image)1;
  CHECK_ST(jet_egl_producer_return(NULL, NULL, 0, &back), JET_STATUS_INVALID_HANDLE);
  jet_event ev = (jet_event)1;
  CHECK_ST(jet_egl_sync_to_event(NULL, p, 0, &ev), JET_STATUS_INVALID_HANDLE);
  CHECK(ev == NULL);
  CHECK_ST(jet_egl_sync_from_event(NULL, (jet_event)p, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_egl_sync_destroy(NULL, p), JET_STATUS_INVALID_HANDLE);
  return 0;
}

/* Without an EGL device that offers EGL_NV_device_cuda (Mesa's software
 * device here), the headless display is refused with every device listed. */
TEST(egl_headless_needs_the_cuda_device) {
  const jet__egl_api *api;
  if (jet__egl_load(&api, "test") != JET_STATUS_OK) SKIP(jet_last_error_string());
  if (!jet__ext_listed(api->client_extensions, "EGL_EXT_device_enumeration") &&
      !jet__ext_listed(api->client_extensions, "EGL_EXT_device_base"))
    SKIP("this EGL has no device enumeration");
  EGLDeviceEXT devs[32];
  EGLint n = 0;
  CHECK(api->eglQueryDevicesEXT(32, devs, &n));
  for (EGLint i = 0; i < n; i++)
    if (jet__ext_listed(api->eglQueryDeviceStringEXT(devs[i], EGL_EXTENSIONS),
                        "EGL_NV_device_cuda"))
      SKIP("an NVIDIA EGL device is present: gpu_egl_headless_display covers it");
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  jet_egl egl = (jet_egl)1;
  CHECK_ST(jet_egl_open(&c, NULL, &egl), JET_STATUS_UNSUPPORTED);
  CHECK(egl == NULL);
  const jet_error_info *e = jet_last_error();
  CHECK_MSG(strstr(e->message, "no EGL device is CUDA device 0") != NULL, "%s", e->message);
  CHECK_MSG(strstr(e->hint, "EGL_NV_device_cuda") != NULL, "%s", e->hint);
  jt_fake_context_done(&c);
  return 0;
}

#if JET_HAVE_GL
static char leak_log[1024];
static void capture(jet_log_level level, const char *msg, void *user) {
  (void)user;
  if (level == JET_LOG_WARN && strstr(msg, "leak report:"))
    snprintf(leak_log, sizeof leak_log, "%s", msg);
}

/* A caller's display (Mesa surfaceless): binding, capabilities, EGLImages of
 * GL textures, an extension the display lacks, wrong-context checks, and a
 * context destroyed with the binding alive. */
TEST(egl_caller_display_mesa) {
  jt_mesa mesa;
  char why[512];
  if (jt_mesa_open(&mesa, why, sizeof why)) SKIP(why);
  const jet__egl_api *api = mesa.egl;
  EGLDisplay dpy = mesa.dpy;
  jt_gl g;
  if (jt_gl_context(&g, dpy)) SKIP("no GL context on Mesa's surfaceless display");
  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, NULL));
  CHECK(jt_fake_context(&other, NULL));
  jet_egl_desc d = {dpy};
  jet_egl egl = NULL;
  CHECK_OK(jet_egl_open(&c, &d, &egl));
  jet_egl_info info;
  CHECK_OK(jet_egl_get_info(egl, &info));
  CHECK(info.display == dpy && info.owned == 0 && info.initialized_here == 0);
  CHECK(info.egl_device == -1 && info.major == 1 && info.minor >= 4);
  CHECK(info.image_base && info.gl_texture_image);
  int has = -1;
  CHECK_OK(jet_egl_has_extension(egl, "EGL_KHR_image_base", &has));
  CHECK(has == 1);
  CHECK_OK(jet_egl_has_extension(egl, "EGL_JET_no_such_extension", &has));
  CHECK(has == 0);
  CHECK_ST(jet_egl_has_extension(egl, "", &has), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_has_extension(egl, "x", NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_get_info(egl, NULL), JET_STATUS_INVALID_ARGUMENT);

  /* EGLImage of a GL texture with random texels. */
  unsigned char px[4 * 5 * 3];
  jt_fill_random(px, sizeof px);
  unsigned tex = jt_gl_texture(&g, 5, 3, px);
  CHECK(tex != 0);
  void *im = NULL;
  CHECK_ST(jet_egl_create_image_gl_texture(egl, g.ctx, 0, 0, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_create_image_gl_texture(egl, NULL, tex, 0, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_create_image_gl_texture(egl, g.ctx, tex, -1, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_create_image_gl_texture(egl, g.ctx, tex, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  /* A name that is no texture of that context: EGL refuses, jetrt names the error. */
  CHECK_ST(jet_egl_create_image_gl_texture(egl, g.ctx, tex + 1000, 0, &im), JET_STATUS_EGL_ERROR);
  CHECK(im == NULL);
  CHECK(strncmp(jet_last_error()->native_name, "EGL_BAD_", 8) == 0);
  CHECK_OK(jet_egl_create_image_gl_texture(egl, g.ctx, tex, 0, &im));
  CHECK(im != NULL);
  CHECK_OK(jet_egl_destroy_image(egl, im));
  CHECK_OK(jet_egl_destroy_image(egl, NULL));

  /* dma-buf descriptions are checked before EGL sees them. */
  jet_egl_dmabuf_desc db;
  memset(&db, 0, sizeof db);
  CHECK_ST(jet_egl_create_image_dmabuf(egl, NULL, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_create_image_dmabuf(egl, &db, &im), JET_STATUS_INVALID_ARGUMENT);
  db.width = 64, db.height = 64, db.plane_count = 1, db.fourcc = 0x34324241; /* AB24 */
  db.planes[0].fd = -1, db.planes[0].pitch = 256;
  CHECK_ST(jet_egl_create_image_dmabuf(egl, &db, &im), JET_STATUS_INVALID_ARGUMENT);
  db.planes[0].fd = 0, db.plane_count = 4;
  CHECK_ST(jet_egl_create_image_dmabuf(egl, &db, &im), JET_STATUS_INVALID_ARGUMENT);
  db.plane_count = 1;
  if (!info.dma_buf_import) {
    CHECK_ST(jet_egl_create_image_dmabuf(egl, &db, &im), JET_STATUS_UNSUPPORTED);
    CHECK(strstr(jet_last_error()->message, "EGL_EXT_image_dma_buf_import") != NULL);
  }

  /* Streams: Mesa has none, and the status says which extension is missing. */
  void *stream = NULL;
  jet_egl_stream_desc sd = {-1, 0};
  CHECK_ST(jet_egl_stream_create(egl, &sd, &stream), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_stream_create(egl, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  if (!info.stream) {
    CHECK_ST(jet_egl_stream_create(egl, NULL, &stream), JET_STATUS_UNSUPPORTED);
    CHECK(strstr(jet_last_error()->message, "EGL_KHR_stream") != NULL);
  }
  jet_egl_stream_state st;
  CHECK_ST(jet_egl_stream_get_state(egl, NULL, &st), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_egl_stream_get_state(egl, &st, NULL), JET_STATUS_INVALID_ARGUMENT);

  /* Arguments checked before CUDA is reached. */
  jet_egl_image reg = NULL;
  CHECK_ST(jet_egl_image_register(egl, NULL, 0, &reg), JET_STATUS_INVALID_ARGUMENT);
  jet_egl_consumer cons = NULL;
  CHECK_ST(jet_egl_consumer_connect(egl, NULL, 0, &cons), JET_STATUS_INVALID_ARGUMENT);
  jet_egl_producer prod = NULL;
  CHECK_ST(jet_egl_producer_connect(egl, &st, 0, 4, &prod), JET_STATUS_INVALID_ARGUMENT);
  jet_event ev = NULL;
  CHECK_ST(jet_egl_sync_to_event(egl, NULL, 0, &ev), JET_STATUS_INVALID_ARGUMENT);

  /* One display bound twice (two contexts): the first close must not end it. */
  jet_egl egl2 = NULL;
  CHECK_OK(jet_egl_open(&other, &d, &egl2));
  CHECK_OK(jet_egl_close(egl2));
  CHECK(api->eglQueryString(dpy, EGL_VERSION) != NULL);

  /* The context goes with the binding alive: released and reported. */
  leak_log[0] = '\0';
  CHECK_OK(jet_set_log_callback(capture, NULL, JET_LOG_WARN));
  jt_fake_context_done(&c);
  CHECK_OK(jet_set_log_callback(NULL, NULL, JET_LOG_OFF));
  CHECK_MSG(strstr(leak_log, "EGL display") != NULL, "log: %s", leak_log);
  CHECK_ST(jet_egl_get_info(egl, &info), JET_STATUS_INVALID_HANDLE);
  CHECK(api->eglQueryString(dpy, EGL_VERSION) != NULL); /* the caller initialised it */
  jt_fake_context_done(&other);

  g.gl->glDeleteTextures(1, &tex);
  jt_gl_done(&g);
  jt_mesa_close(&mesa);
  return 0;
}
#else
TEST(egl_caller_display_mesa) { SKIP("built without GL (JET_WITH_GL=OFF)"); }
#endif /* JET_HAVE_GL */

#else
/* Built without EGL (JET_WITH_EGL=OFF): the tests above have nothing to
 * test; egl_left_out_says_not_built_in checks what the calls say instead. */
#define EGL_LEFT_OUT SKIP("built without EGL (JET_WITH_EGL=OFF)")
TEST(egl_format_table) { EGL_LEFT_OUT; }
TEST(egl_extension_words) { EGL_LEFT_OUT; }
TEST(egl_missing_library_is_a_clear_status) { EGL_LEFT_OUT; }
TEST(egl_bad_arguments) { EGL_LEFT_OUT; }
TEST(egl_headless_needs_the_cuda_device) { EGL_LEFT_OUT; }
TEST(egl_caller_display_mesa) { EGL_LEFT_OUT; }
#endif /* JET_HAVE_EGL */

/* A build without EGL: every call says how to get it, and hands back no
 * handle; destroying NULL stays OK. */
TEST(egl_left_out_says_not_built_in) {
#if JET_HAVE_EGL
  SKIP("built with EGL: the calls are tested above");
#else
  jet_egl egl = (jet_egl)(uintptr_t)1;
  CHECK_ST(jet_egl_open(NULL, NULL, &egl), JET_STATUS_NOT_BUILT_IN);
  CHECK(egl == NULL);
  CHECK_MSG(strstr(jet_last_error()->message, "JET_WITH_EGL") != NULL, "%s", jet_last_error()->message);
  CHECK_OK(jet_egl_close(NULL));
  jet_egl_image im = (jet_egl_image)(uintptr_t)1;
  CHECK_ST(jet_egl_image_register(NULL, NULL, 0, &im), JET_STATUS_NOT_BUILT_IN);
  CHECK(im == NULL);
  CHECK_OK(jet_egl_image_unregister(NULL));
  jet_format f;
  CHECK_ST(jet_egl_format_from_native(0, &f, NULL, NULL), JET_STATUS_NOT_BUILT_IN);
  return 0;
#endif
}

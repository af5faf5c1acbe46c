/* The display helper without a GPU: argument checks of jetrt/display.h, and
 * its GL half (context, surface, program, draw, read-back) on Mesa's
 * surfaceless EGL display, with a GL-uploaded texture in place of the CUDA
 * copy. A presenter needs no CUDA until it draws, so presenters are also made
 * here, on fake contexts. Where Mesa is not usable the tests skip, saying why. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/image/image_internal.h"
#include "test_gl_util.h"

/* ------------------------------------------------------------ no display needed */

TEST(display_create_bad_arguments) {
  jet_presenter_desc d = {64, 32, NULL, 0};
  jet_presenter p = (jet_presenter)(uintptr_t)1;
#if JET_HAVE_EGL && JET_HAVE_GL
  CHECK_ST(jet_presenter_create(NULL, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_presenter_create(NULL, &d, &p), JET_STATUS_INVALID_HANDLE);
  CHECK(p == NULL);
  int junk[64] = {0};
  p = (jet_presenter)(uintptr_t)1;
  CHECK_ST(jet_presenter_create((jet_egl)(void *)junk, &d, &p), JET_STATUS_INVALID_HANDLE);
  CHECK(p == NULL);
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  /* a context is not a jet_egl */
  CHECK_ST(jet_presenter_create((jet_egl)(void *)&c, &d, &p), JET_STATUS_INVALID_HANDLE);
  jt_fake_context_done(&c);
#else
  CHECK_ST(jet_presenter_create(NULL, &d, &p), JET_STATUS_NOT_BUILT_IN);
  CHECK(p == NULL);
  CHECK(strstr(jet_last_error()->message, "JET_WITH_GL") != NULL);
#endif
  return 0;
}

TEST(display_calls_refuse_bad_handles) {
  int junk[64] = {0};
  jet_presenter fake = (jet_presenter)(void *)junk;
  jet_presenter_info info;
  unsigned char px[16];
  CHECK_OK(jet_presenter_destroy(NULL));
#if JET_HAVE_EGL && JET_HAVE_GL
  const jet_status bad = JET_STATUS_INVALID_HANDLE;
#else
  const jet_status bad = JET_STATUS_NOT_BUILT_IN;
#endif
  jet_presenter hs[2] = {NULL, fake};
  for (int i = 0; i < 2; i++) {
    CHECK_ST(jet_presenter_get_info(hs[i], &info), bad);
    CHECK_ST(jet_presenter_make_current(hs[i]), bad);
    CHECK_ST(jet_presenter_swap(hs[i]), bad);
    CHECK_ST(jet_presenter_read(hs[i], px, 16), bad);
    CHECK_ST(jet_presenter_draw(hs[i], NULL, NULL), bad);
  }
  CHECK_ST(jet_presenter_destroy(fake), bad);
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
  /* a stream is not a presenter */
  CHECK_ST(jet_presenter_draw((jet_presenter)(void *)s, NULL, s), bad);
  CHECK_ST(jet_presenter_destroy((jet_presenter)(void *)s), bad);
  jt_fake_context_done(&c);
  return 0;
}

#if JET_HAVE_EGL && JET_HAVE_GL
#define GL_TEST(fn) return fn()

/* ------------------------------------------------------------ the GL half on Mesa */

static const jet_format modes_fmt[3] = {JET_FORMAT_RGBA8, JET_FORMAT_BGRA8, JET_FORMAT_GRAY8};

/* Draw a random texture of each kind 1:1 and read it back exactly; the
 * read-back's row padding stays as it was. */
static int view_round_trip(jt_mesa *m, int es_only, int w, int h) {
  jet_presenter_desc d = {w, h, NULL, 0};
  jet__gl_view v;
  jet_status st = jet__gl_view_create(m->egl, m->dpy, &d, es_only, &v, "test");
  if (st == JET_STATUS_UNSUPPORTED && es_only) {
    fprintf(stderr, "SKIP: no GLES 3 context on Mesa: %s\n", jet_last_error_string());
    return TEST_SKIP;
  }
  CHECK_OK(st);
  CHECK(v.es == es_only);
  CHECK(m->egl->eglGetCurrentContext() == v.ctx);
  int sw = 0, sh = 0;
  CHECK_OK(jet__gl_view_size(&v, &sw, &sh, "test"));
  CHECK_MSG(sw == w && sh == h, "surface %dx%d, asked %dx%d", sw, sh, w, h);
  size_t pitch = (size_t)w * 4 + 12;
  unsigned char *back = malloc(pitch * (size_t)h);
  CHECK(back);
  /* Freshly made: opaque black. */
  memset(back, 0xA5, pitch * (size_t)h);
  CHECK_OK(jet__gl_view_read(&v, back, pitch, "test"));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const unsigned char *p = back + (size_t)y * pitch + 4 * (size_t)x;
      CHECK_MSG(p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 255,
                "new surface pixel (%d, %d) is %u,%u,%u,%u", x, y, p[0], p[1], p[2], p[3]);
    }
  for (int k = 0; k < 3; k++) {
    jet_format f = modes_fmt[k];
    size_t ipitch = (size_t)w * (f == JET_FORMAT_GRAY8 ? 1 : 4); /* packed: odd rows for GRAY8 */
    unsigned char *img = malloc(ipitch * (size_t)h);
    CHECK(img);
    jt_fill_random(img, ipitch * (size_t)h);
    GLuint tex = 0;
    CHECK_OK(jet__gl_texture_create(m->gl, (jet__gl_draw_mode)k, w, h, img, &tex, "test"));
    CHECK_OK(jet__gl_view_draw(&v, tex, (jet__gl_draw_mode)k, w, h, "test"));
    CHECK_OK(jet__gl_view_swap(&v, "test"));
    memset(back, 0xA5, pitch * (size_t)h);
    CHECK_OK(jet__gl_view_read(&v, back, pitch, "test"));
    char why[256] = "";
    int bad = jt_compare_shown(back, pitch, f, img, ipitch, w, h, why, sizeof why);
    for (int y = 0; y < h && !bad; y++)
      for (size_t b = (size_t)w * 4; b < pitch; b++)
        if (back[(size_t)y * pitch + b] != 0xA5) {
          snprintf(why, sizeof why, "row %d: padding byte %zu was written", y, b);
          bad = 1;
          break;
        }
    m->gl->glDeleteTextures(1, &tex);
    free(img);
    CHECK_MSG(!bad, "%s (%s)", why, es_only ? "GLES 3" : "GL core");
  }
  free(back);
  CHECK_OK(jet__gl_view_destroy(&v, "test"));
  CHECK(m->egl->eglGetCurrentContext() == EGL_NO_CONTEXT);
  return 0;
}

static int run_display_view_round_trip_mesa(void) {
  jt_mesa m;
  char why[512];
  if (jt_mesa_open(&m, why, sizeof why)) SKIP(why);
  static const int sizes[][2] = {{1, 1}, {3, 2}, {37, 23}, {1921, 1081}};
  for (int i = 0; i < 4; i++) {
    int rc = view_round_trip(&m, 0, sizes[i][0], sizes[i][1]);
    if (rc) return rc;
  }
  jt_mesa_close(&m);
  return 0;
}

static int run_display_view_gles_round_trip_mesa(void) {
  jt_mesa m;
  char why[512];
  if (jt_mesa_open(&m, why, sizeof why)) SKIP(why);
  static const int sizes[][2] = {{1, 1}, {3, 2}, {37, 23}, {641, 479}};
  for (int i = 0; i < 4; i++) {
    int rc = view_round_trip(&m, 1, sizes[i][0], sizes[i][1]);
    if (rc) return rc;
  }
  jt_mesa_close(&m);
  return 0;
}

/* Scaled draws (GL_LINEAR): a uniform texture stays uniform; a 2x2 texture
 * keeps its corners where they belong (top-left on top at the left). */
static int run_display_view_scaled_mesa(void) {
  jt_mesa m;
  char why[512];
  if (jt_mesa_open(&m, why, sizeof why)) SKIP(why);
  int w = 64, h = 48;
  jet_presenter_desc d = {w, h, NULL, 0};
  jet__gl_view v;
  CHECK_OK(jet__gl_view_create(m.egl, m.dpy, &d, 0, &v, "test"));
  unsigned char *back = malloc((size_t)w * 4 * (size_t)h);
  CHECK(back);
  unsigned char uni[5 * 3 * 4];
  unsigned char c[4] = {(unsigned char)(jt_rand() | 1), (unsigned char)jt_rand(), (unsigned char)jt_rand(), 7};
  for (int i = 0; i < 15; i++) memcpy(uni + 4 * i, c, 4);
  GLuint tex;
  CHECK_OK(jet__gl_texture_create(m.gl, JET__GL_DRAW_RGBA, 5, 3, uni, &tex, "test"));
  CHECK_OK(jet__gl_view_draw(&v, tex, JET__GL_DRAW_RGBA, 5, 3, "test"));
  CHECK_OK(jet__gl_view_read(&v, back, (size_t)w * 4, "test"));
  for (int i = 0; i < w * h; i++)
    CHECK_MSG(back[4 * i] == c[0] && back[4 * i + 1] == c[1] && back[4 * i + 2] == c[2] &&
                  back[4 * i + 3] == 255,
              "pixel %d: %u,%u,%u,%u, expected %u,%u,%u,255", i, back[4 * i], back[4 * i + 1],
              back[4 * i + 2], back[4 * i + 3], c[0], c[1], c[2]);
  m.gl->glDeleteTextures(1, &tex);
  /* 2x2 grey: top-left 10, top-right 60, bottom-left 110, bottom-right 160 */
  unsigned char q[4] = {10, 60, 110, 160};
  CHECK_OK(jet__gl_texture_create(m.gl, JET__GL_DRAW_GRAY, 2, 2, q, &tex, "test"));
  CHECK_OK(jet__gl_view_draw(&v, tex, JET__GL_DRAW_GRAY, 2, 2, "test"));
  CHECK_OK(jet__gl_view_read(&v, back, (size_t)w * 4, "test"));
  unsigned tl = back[0], tr = back[4 * (w - 1)], bl = back[4 * (size_t)w * (h - 1)],
           br = back[4 * ((size_t)w * h - 1)];
  CHECK_MSG(tl == 10 && tr == 60 && bl == 110 && br == 160,
            "corners top-left %u top-right %u bottom-left %u bottom-right %u, expected 10 60 110 "
            "160",
            tl, tr, bl, br);
  m.gl->glDeleteTextures(1, &tex);
  free(back);
  CHECK_OK(jet__gl_view_destroy(&v, "test"));
  jt_mesa_close(&m);
  return 0;
}

/* Mesa's surfaceless platform has no window surfaces: a clear UNSUPPORTED,
 * and nothing left current or alive. The window pointer is never used. */
static int run_display_view_window_unsupported_mesa(void) {
  jt_mesa m;
  char why[512];
  if (jt_mesa_open(&m, why, sizeof why)) SKIP(why);
  int not_a_window = 0;
  jet_presenter_desc d = {64, 32, &not_a_window, 1};
  jet__gl_view v;
  CHECK_ST(jet__gl_view_create(m.egl, m.dpy, &d, 0, &v, "test"), JET_STATUS_UNSUPPORTED);
  CHECK(strstr(jet_last_error()->message, "window") != NULL);
  CHECK(v.ctx == EGL_NO_CONTEXT && v.surf == EGL_NO_SURFACE);
  CHECK(m.egl->eglGetCurrentContext() == EGL_NO_CONTEXT);
  jt_mesa_close(&m);
  return 0;
}

/* ------------------------------------------------------------ presenters on fake contexts */

/* A fake context, a jet_egl over Mesa's display and a presenter; every call
 * that needs no CUDA, and every refusal before CUDA. */
static int run_display_presenter_mesa_fake_context(void) {
  jt_mesa m;
  char why[512];
  if (jt_mesa_open(&m, why, sizeof why)) SKIP(why);
  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop") && jt_fake_context(&other, "desktop"));
  jet_egl_desc ed = {m.dpy};
  jet_egl egl;
  CHECK_OK(jet_egl_open(&c, &ed, &egl));
  jet_presenter p = NULL;
  jet_presenter_desc d = {0, 16, NULL, 0};
  CHECK_ST(jet_presenter_create(egl, NULL, &p), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_presenter_create(egl, &d, &p), JET_STATUS_INVALID_ARGUMENT);
  d.width = 31;
  d.height = -1;
  CHECK_ST(jet_presenter_create(egl, &d, &p), JET_STATUS_INVALID_ARGUMENT);
  d.height = 17;
  d.swap_interval = -1;
  CHECK_ST(jet_presenter_create(egl, &d, &p), JET_STATUS_INVALID_ARGUMENT);
  d.swap_interval = 0;
  int not_a_window = 0;
  d.native_window = &not_a_window;
  CHECK_ST(jet_presenter_create(egl, &d, &p), JET_STATUS_UNSUPPORTED);
  CHECK(p == NULL);
  d.native_window = NULL;
  CHECK_OK(jet_presenter_create(egl, &d, &p));

  jet_presenter_info info;
  CHECK_ST(jet_presenter_get_info(p, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_presenter_get_info(p, &info));
  CHECK(info.width == 31 && info.height == 17 && info.is_window == 0 && info.gl_es == 0);
  CHECK(info.egl_context && info.egl_surface && info.texture == 0 && info.renderer[0]);
  fprintf(stderr, "renderer: %s\n", info.renderer);
  CHECK(m.egl->eglGetCurrentContext() == (EGLContext)info.egl_context);

  /* jet_egl_close refuses while the presenter lives */
  CHECK_ST(jet_egl_close(egl), JET_STATUS_INVALID_STATE);

  /* another context current in between: each call makes the presenter's current again */
  m.egl->eglMakeCurrent(m.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  CHECK_OK(jet_presenter_make_current(p));
  CHECK(m.egl->eglGetCurrentContext() == (EGLContext)info.egl_context);
  m.egl->eglMakeCurrent(m.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  CHECK_OK(jet_presenter_swap(p));
  m.egl->eglMakeCurrent(m.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  size_t pitch = 31 * 4 + 3;
  unsigned char *back = malloc(pitch * 17);
  CHECK(back);
  CHECK_ST(jet_presenter_read(p, NULL, pitch), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_presenter_read(p, back, 31 * 4 - 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_presenter_read(p, back, pitch));
  for (int y = 0; y < 17; y++)
    for (int x = 0; x < 31; x++) {
      const unsigned char *q = back + (size_t)y * pitch + 4 * (size_t)x;
      CHECK(q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 255);
    }
  free(back);

  /* draw: every refusal that comes before CUDA (fake images: never touched) */
  jet_stream s, so;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
  CHECK_OK(jet_context_default_stream(&other, JET_STREAM_LEGACY, &so));
  static unsigned char mem[64 * 1024] __attribute__((aligned(256)));
  void *ptrs[3] = {mem, mem + 32768, NULL};
  jet_image nv12, rgba, foreign;
  CHECK_OK(jet__image_borrow(&c, JET_FORMAT_NV12, 16, 8, NULL, ptrs, "test", &nv12, "test"));
  CHECK_OK(jet__image_borrow(&c, JET_FORMAT_RGBA8, 16, 8, NULL, ptrs, "test", &rgba, "test"));
  CHECK_OK(jet__image_borrow(&other, JET_FORMAT_RGBA8, 16, 8, NULL, ptrs, "test", &foreign, "test"));
  CHECK_ST(jet_presenter_draw(p, NULL, s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_draw(p, rgba, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_draw(p, foreign, s), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_presenter_draw(p, rgba, so), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_presenter_draw(p, nv12, s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "NV12") != NULL);
  CHECK_ST(jet_presenter_draw(p, (jet_image)(void *)s, s), JET_STATUS_INVALID_HANDLE);
  jet__image_release_borrowed(nv12);
  jet__image_release_borrowed(rgba);
  jet__image_release_borrowed(foreign);

  CHECK_OK(jet_presenter_destroy(p));
  CHECK(m.egl->eglGetCurrentContext() == EGL_NO_CONTEXT);
  /* destroyed: every call refuses it */
  CHECK_ST(jet_presenter_get_info(p, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_make_current(p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_swap(p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_read(p, mem, 1024), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_draw(p, NULL, s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_destroy(p), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_egl_close(egl));
  CHECK(atomic_load(&c.live_objects) == 0 && atomic_load(&other.live_objects) == 0);
  jt_fake_context_done(&c);
  jt_fake_context_done(&other);
  jt_mesa_close(&m);
  return 0;
}

/* A context that goes with its presenter alive releases it (GL context and
 * surface included) and says so in a "leak report:" warning. */
static int run_display_presenter_released_with_context_mesa(void) {
  jt_mesa m;
  char why[512];
  if (jt_mesa_open(&m, why, sizeof why)) SKIP(why);
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  jet_egl_desc ed = {m.dpy};
  jet_egl egl;
  CHECK_OK(jet_egl_open(&c, &ed, &egl));
  jet_presenter p, p2;
  jet_presenter_desc d = {8, 8, NULL, 0};
  CHECK_OK(jet_presenter_create(egl, &d, &p));
  CHECK_OK(jet_presenter_create(egl, &d, &p2));
  jt_log log;
  jt_log_start(&log, JET_LOG_WARN);
  jt_fake_context_done(&c);
  jt_log_stop(&log);
  const char *line = jt_log_find(&log, "leak report:");
  CHECK_MSG(line != NULL, "no leak report logged; log: %s", log.text);
  CHECK_MSG(strstr(line, "presenter, presenter") != NULL, "the report does not name both "
            "presenters: %s", line);
  CHECK_MSG(strstr(line, "EGL display") != NULL, "%s", line);
  CHECK(m.egl->eglGetCurrentContext() == EGL_NO_CONTEXT);
  CHECK_ST(jet_presenter_get_info(p, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_destroy(p2), JET_STATUS_INVALID_HANDLE);
  jt_mesa_close(&m);
  return 0;
}

#else
#define GL_TEST(fn) SKIP("built without the EGL or GL headers")
#endif

TEST(display_view_round_trip_mesa) { GL_TEST(run_display_view_round_trip_mesa); }
TEST(display_view_gles_round_trip_mesa) { GL_TEST(run_display_view_gles_round_trip_mesa); }
TEST(display_view_scaled_mesa) { GL_TEST(run_display_view_scaled_mesa); }
TEST(display_view_window_unsupported_mesa) { GL_TEST(run_display_view_window_unsupported_mesa); }
TEST(display_presenter_mesa_fake_context) { GL_TEST(run_display_presenter_mesa_fake_context); }
TEST(display_presenter_released_with_context_mesa) { GL_TEST(run_display_presenter_released_with_context_mesa); }

/* jetrt/gl.h and jetrt/display.h on a GPU: the headless EGL display of the
 * context's device (jet_egl_open with no display), a pbuffer presenter whose
 * GL context makes the test's GL objects, and CUDA on them. Every comparison
 * is bit-exact against fresh random data (never zeros); outputs start
 * poisoned; each failure says which size, format and pixel. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "internal.h"
#include "../../lib/image/image_internal.h"
#include "../ref/ref_image.h"
#include "test_gl_util.h"

#if JET_HAVE_EGL && JET_HAVE_GL
#define GL_TEST(fn) return fn()

static const int sizes[][2] = {{1, 1}, {3, 2}, {1921, 1081}};
#define N_SIZES 3

/* Context, stream, headless display and a pbuffer presenter (current). */
typedef struct gx {
  jet_context ctx;
  jet_stream s;
  jet_egl egl;
  jet_presenter p;
  const jet__gl_api *gl;
  const jet__egl_api *eglapi;
} gx;

/* 0, 1 (failure) or TEST_SKIP when the machine has no EGL for the device. */
static int gx_open(gx *g, int w, int h) {
  memset(g, 0, sizeof *g);
  CHECK_OK(jt_context(&g->ctx, 0));
  CHECK_OK(jet_context_default_stream(g->ctx, JET_STREAM_PER_THREAD, &g->s));
  jet_status st = jet_egl_open(g->ctx, NULL, &g->egl);
  if (st == JET_STATUS_UNSUPPORTED) {
    fprintf(stderr, "SKIP: no headless EGL display for the CUDA device: %s\n",
            jet_last_error_string());
    CHECK_OK(jet_context_destroy(g->ctx));
    return TEST_SKIP;
  }
  CHECK_OK(st);
  jet_presenter_desc d = {w, h, NULL, 0};
  CHECK_OK(jet_presenter_create(g->egl, &d, &g->p));
  jet_presenter_info info;
  CHECK_OK(jet_presenter_get_info(g->p, &info));
  fprintf(stderr, "presenter: %s, %s, %dx%d pbuffer\n", info.renderer,
          info.gl_es ? "OpenGL ES 3" : "OpenGL core", info.width, info.height);
  CHECK_OK(jet__gl_load(&g->gl, "test"));
  CHECK_OK(jet__egl_load(&g->eglapi, "test"));
  CHECK_OK(jet_presenter_make_current(g->p));
  return 0;
}

static int gx_close(gx *g) {
  CHECK_OK(jet_presenter_destroy(g->p));
  CHECK_OK(jet_egl_close(g->egl));
  CHECK_OK(jet_context_destroy(g->ctx));
  return 0;
}

#define GX_OPEN(g, w, h)            \
  do {                              \
    int rc_ = gx_open((g), (w), (h)); \
    if (rc_) return rc_;            \
  } while (0)

#define GL_OK(g, what) CHECK_OK(jet__gl_check((g)->gl, "test", what))

/* Texture contents through an FBO (texture row 0 first). */
static int read_texture(gx *g, GLuint tex, int gray, int w, int h, unsigned char *out) {
  const jet__gl_api *gl = g->gl;
  GLuint fbo = 0;
  gl->glGenFramebuffers(1, &fbo);
  gl->glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  gl->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  GLenum fs = gl->glCheckFramebufferStatus(GL_FRAMEBUFFER);
  CHECK_MSG(fs == GL_FRAMEBUFFER_COMPLETE, "FBO of texture %u: status 0x%x", tex, fs);
  gl->glPixelStorei(GL_PACK_ALIGNMENT, 1);
  gl->glReadPixels(0, 0, w, h, gray ? GL_RED : GL_RGBA, GL_UNSIGNED_BYTE, out);
  gl->glBindFramebuffer(GL_FRAMEBUFFER, 0);
  gl->glDeleteFramebuffers(1, &fbo);
  GL_OK(g, "reading the texture back");
  return 0;
}

static int compare_bytes(const unsigned char *got, const unsigned char *exp, int w, int h,
                         int bpp, const char *what) {
  long bad = 0, first = -1;
  size_t n = (size_t)w * (size_t)h * (size_t)bpp;
  for (size_t i = 0; i < n; i++)
    if (got[i] != exp[i] && bad++ == 0) first = (long)i;
  if (bad) {
    long px = first / bpp;
    fprintf(stderr, "%s %dx%d: %ld of %zu bytes differ; first at pixel (%ld, %ld) byte %ld: %u, "
            "expected %u\n",
            what, w, h, bad, n, px % w, px / w, first % bpp, got[first], exp[first]);
  }
  return bad != 0;
}

/* GL texture <-> jet_image, both directions, for one size and kind. */
static int texture_case(gx *g, jet_format f, int w, int h) {
  const jet__gl_api *gl = g->gl;
  int gray = f == JET_FORMAT_GRAY8, bpp = gray ? 1 : 4;
  size_t n = (size_t)w * (size_t)h * (size_t)bpp;
  unsigned char *a = malloc(n), *b = malloc(n), *back = malloc(n);
  CHECK(a && b && back);
  jt_fill_random(a, n);
  jt_fill_random(b, n);
  GLuint tex = 0;
  CHECK_OK(jet__gl_texture_create(gl, gray ? JET__GL_DRAW_GRAY : JET__GL_DRAW_RGBA, w, h, a, &tex,
                                  "test"));
  jet_image img;
  CHECK_OK(jet_image_create(g->ctx, f, w, h, &img));
  jet_image_plane hp = {back, (size_t)w * (size_t)bpp};

  /* GL -> CUDA, registered read-only */
  jet_gl_resource r;
  CHECK_OK(jet_gl_register_image(g->ctx, tex, GL_TEXTURE_2D, JET_GL_READ_ONLY, &r));
  memset(back, 0xA7, n);
  CHECK_OK(jet_image_upload(img, &hp, 1)); /* poison the destination */
  CHECK_OK(jet_gl_map(r, g->s));
  void *arr = NULL;
  CHECK_OK(jet_gl_mapped_array(r, 0, 0, &arr));
  CHECK(arr != NULL);
  CHECK_ST(jet_gl_mapped_pointer(r, &arr, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_gl_copy_to_image(r, img, g->s));
  CHECK_ST(jet_gl_copy_from_image(r, img, g->s), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_gl_unmap(r, g->s));
  CHECK_OK(jet_stream_synchronize(g->s));
  CHECK_OK(jet_gl_unregister(r));
  CHECK_OK(jet_image_download(img, &hp, 1));
  char what[96];
  snprintf(what, sizeof what, "GL %s texture -> %s image", gray ? "R8" : "RGBA8",
           jet_format_name(f));
  if (compare_bytes(back, a, w, h, bpp, what)) return 1;

  /* CUDA -> GL, registered write-discard */
  CHECK_OK(jet_gl_register_image(g->ctx, tex, GL_TEXTURE_2D, JET_GL_WRITE_DISCARD, &r));
  jet_image_plane bp = {b, (size_t)w * (size_t)bpp};
  CHECK_OK(jet_image_upload(img, &bp, 1));
  CHECK_OK(jet_gl_map(r, g->s));
  CHECK_OK(jet_gl_copy_from_image(r, img, g->s));
  CHECK_OK(jet_gl_unmap(r, g->s));
  CHECK_OK(jet_gl_unregister(r));
  memset(back, 0xA7, n);
  if (read_texture(g, tex, gray, w, h, back)) return 1;
  snprintf(what, sizeof what, "%s image -> GL %s texture", jet_format_name(f),
           gray ? "R8" : "RGBA8");
  if (compare_bytes(back, b, w, h, bpp, what)) return 1;

  /* size and texel-size mismatches */
  CHECK_OK(jet_gl_register_image(g->ctx, tex, GL_TEXTURE_2D, 0, &r));
  CHECK_OK(jet_gl_map(r, g->s));
  jet_image wrong;
  CHECK_OK(jet_image_create(g->ctx, f, w + 1, h, &wrong));
  CHECK_ST(jet_gl_copy_to_image(r, wrong, g->s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "size mismatch") != NULL);
  CHECK_OK(jet_image_destroy(wrong));
  CHECK_OK(jet_image_create(g->ctx, gray ? JET_FORMAT_RGBA8 : JET_FORMAT_GRAY16, w, h, &wrong));
  CHECK_ST(jet_gl_copy_from_image(r, wrong, g->s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "texel size mismatch") != NULL);
  CHECK_OK(jet_image_destroy(wrong));
  CHECK_OK(jet_gl_unmap(r, g->s));
  CHECK_OK(jet_gl_unregister(r));

  gl->glDeleteTextures(1, &tex);
  GL_OK(g, "glDeleteTextures");
  CHECK_OK(jet_image_destroy(img));
  free(a);
  free(b);
  free(back);
  return 0;
}

static int run_gpu_gl_texture_round_trip(void) {
  gx g;
  GX_OPEN(&g, 16, 16);
  static const jet_format fmts[] = {JET_FORMAT_RGBA8, JET_FORMAT_BGRA8, JET_FORMAT_GRAY8};
  for (int s = 0; s < N_SIZES; s++)
    for (int k = 0; k < 3; k++)
      if (texture_case(&g, fmts[k], sizes[s][0], sizes[s][1])) {
        fprintf(stderr, "  in: %s %dx%d\n", jet_format_name(fmts[k]), sizes[s][0], sizes[s][1]);
        return 1;
      }
  return gx_close(&g);
}

static GLuint make_buffer(gx *g, size_t bytes, const void *data) {
  GLuint b = 0;
  g->gl->glGenBuffers(1, &b);
  g->gl->glBindBuffer(GL_ARRAY_BUFFER, b);
  g->gl->glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, data, GL_DYNAMIC_DRAW);
  g->gl->glBindBuffer(GL_ARRAY_BUFFER, 0);
  return b;
}

/* The buffer's contents as GL sees them. */
static int read_buffer(gx *g, GLuint b, size_t bytes, unsigned char *out) {
  g->gl->glBindBuffer(GL_ARRAY_BUFFER, b);
  void *p = g->gl->glMapBufferRange(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT);
  CHECK_MSG(p != NULL, "glMapBufferRange of buffer %u failed (GL error 0x%x)", b,
            g->gl->glGetError());
  memcpy(out, p, bytes);
  CHECK(g->gl->glUnmapBuffer(GL_ARRAY_BUFFER) == GL_TRUE);
  g->gl->glBindBuffer(GL_ARRAY_BUFFER, 0);
  GL_OK(g, "reading the buffer back");
  return 0;
}

/* A PBO both ways: GL data read by CUDA through the mapped pointer; CUDA
 * writes through a mapped jet_image read by GL. Borrowed handles refuse
 * destroy and go at unmap. */
static int buffer_case(gx *g, jet_format f, int w, int h) {
  int bpp = f == JET_FORMAT_GRAY8 ? 1 : 4;
  size_t n = (size_t)w * (size_t)h * (size_t)bpp;
  unsigned char *a = malloc(n), *b = malloc(n), *back = malloc(n);
  CHECK(a && b && back);
  jt_fill_random(a, n);
  jt_fill_random(b, n);
  GLuint buf = make_buffer(g, n, a);
  GL_OK(g, "glBufferData");

  jet_gl_resource r;
  CHECK_OK(jet_gl_register_buffer(g->ctx, buf, JET_GL_READ_ONLY, &r));
  CHECK_OK(jet_gl_map(r, g->s));
  void *p = NULL;
  size_t bytes = 0;
  CHECK_OK(jet_gl_mapped_pointer(r, &p, &bytes));
  CHECK_MSG(p && bytes >= n, "mapped %p, %zu bytes for a %zu-byte buffer", p, bytes, n);
  jet_gl_info info;
  CHECK_OK(jet_gl_get_info(r, &info));
  CHECK(info.mapped && info.is_buffer && info.bytes == bytes && info.name == buf);
  jet_buffer jb;
  CHECK_OK(jet_gl_mapped_buffer(r, &jb));
  CHECK_ST(jet_buffer_destroy(jb), JET_STATUS_INVALID_STATE);
  jet_image view;
  CHECK_OK(jet_gl_mapped_image(r, f, w, h, NULL, NULL, &view));
  CHECK_ST(jet_image_destroy(view), JET_STATUS_INVALID_STATE);
  memset(back, 0xA7, n);
  jet_image_plane hp = {back, (size_t)w * (size_t)bpp};
  CHECK_OK(jet_image_download(view, &hp, 1));
  CHECK_OK(jet_gl_unmap(r, g->s));
  jet_buffer_info bi;
  CHECK_ST(jet_buffer_get_info(jb, &bi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_destroy(view), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_gl_unregister(r));
  char what[96];
  snprintf(what, sizeof what, "GL buffer -> mapped %s image", jet_format_name(f));
  if (compare_bytes(back, a, w, h, bpp, what)) return 1;

  CHECK_OK(jet_gl_register_buffer(g->ctx, buf, JET_GL_WRITE_DISCARD, &r));
  CHECK_OK(jet_gl_map(r, g->s));
  CHECK_OK(jet_gl_mapped_image(r, f, w, h, NULL, NULL, &view));
  jet_image_plane bp = {b, (size_t)w * (size_t)bpp};
  CHECK_OK(jet_image_upload(view, &bp, 1));
  CHECK_OK(jet_gl_unmap(r, g->s));
  CHECK_OK(jet_gl_unregister(r));
  memset(back, 0xA7, n);
  if (read_buffer(g, buf, n, back)) return 1;
  snprintf(what, sizeof what, "mapped %s image -> GL buffer", jet_format_name(f));
  if (compare_bytes(back, b, w, h, bpp, what)) return 1;
  g->gl->glDeleteBuffers(1, &buf);
  free(a);
  free(b);
  free(back);
  return 0;
}

static int run_gpu_gl_buffer_round_trip(void) {
  gx g;
  GX_OPEN(&g, 16, 16);
  static const jet_format fmts[] = {JET_FORMAT_RGBA8, JET_FORMAT_GRAY8};
  for (int s = 0; s < N_SIZES; s++)
    for (int k = 0; k < 2; k++)
      if (buffer_case(&g, fmts[k], sizes[s][0], sizes[s][1])) {
        fprintf(stderr, "  in: %s %dx%d\n", jet_format_name(fmts[k]), sizes[s][0], sizes[s][1]);
        return 1;
      }
  return gx_close(&g);
}

/* NV12 in one PBO (padded pitches, chroma at its own offset) mapped as a
 * jet_image, converted by jet_convert_color into an RGBA8 image mapped from
 * a second PBO (padded pitch), read by GL and compared with ref_convert. */
static int nv12_case(gx *g, int w, int h) {
  ref_image src, exp;
  CHECK(ref_image_alloc(&src, JET_FORMAT_NV12, w, h, 0) == 0);
  CHECK(ref_image_alloc(&exp, JET_FORMAT_RGBA8, w, h, 0) == 0);
  ref_image_randomize(&src, jt_rand);
  CHECK(ref_convert(&src, &exp, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED) == 0);
  size_t pitches[2] = {(size_t)w + 64 + 3 * (jt_rand() % 8), (size_t)w + 128};
  size_t offsets[2] = {256, 0};
  offsets[1] = (offsets[0] + pitches[0] * (size_t)h + 4095) / 4096 * 4096 + 64;
  size_t in_bytes = offsets[1] + pitches[1] * (size_t)(h / 2) + 100;
  unsigned char *in = malloc(in_bytes);
  CHECK(in);
  jt_fill_random(in, in_bytes); /* padding random too */
  for (int i = 0; i < 2; i++)
    for (int y = 0; y < src.plane_h[i]; y++)
      memcpy(in + offsets[i] + pitches[i] * (size_t)y, src.data[i] + src.pitch[i] * (size_t)y,
             src.row_bytes[i]);
  size_t opitch = (size_t)w * 4 + 64;
  size_t out_bytes = opitch * (size_t)h;
  unsigned char *poison = malloc(out_bytes), *back = malloc(out_bytes);
  CHECK(poison && back);
  memset(poison, 0xA5, out_bytes);
  GLuint pin = make_buffer(g, in_bytes, in), pout = make_buffer(g, out_bytes, poison);
  GL_OK(g, "glBufferData");

  jet_gl_resource rin, rout;
  CHECK_OK(jet_gl_register_buffer(g->ctx, pin, JET_GL_READ_ONLY, &rin));
  CHECK_OK(jet_gl_register_buffer(g->ctx, pout, 0, &rout)); /* keeps the padding */
  CHECK_OK(jet_gl_map(rin, g->s));
  CHECK_OK(jet_gl_map(rout, g->s));
  jet_image nv12, rgba;
  CHECK_OK(jet_gl_mapped_image(rin, JET_FORMAT_NV12, w, h, pitches, offsets, &nv12));
  size_t op[1] = {opitch};
  CHECK_OK(jet_gl_mapped_image(rout, JET_FORMAT_RGBA8, w, h, op, NULL, &rgba));
  CHECK_OK(jet_convert_color(g->s, nv12, rgba, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED));
  CHECK_OK(jet_gl_unmap(rout, g->s));
  CHECK_OK(jet_gl_unmap(rin, g->s));
  CHECK_OK(jet_stream_synchronize(g->s));
  CHECK_OK(jet_gl_unregister(rin));
  CHECK_OK(jet_gl_unregister(rout));
  if (read_buffer(g, pout, out_bytes, back)) return 1;
  long bad = 0;
  for (int y = 0; y < h; y++) {
    const unsigned char *gr = back + opitch * (size_t)y, *er = exp.data[0] + exp.pitch[0] * (size_t)y;
    for (int x = 0; x < w; x++)
      if (memcmp(gr + 4 * x, er + 4 * x, 4) && bad++ == 0)
        fprintf(stderr, "NV12 %dx%d -> RGBA8 in a PBO: pixel (%d, %d) %u,%u,%u,%u, reference "
                "%u,%u,%u,%u\n",
                w, h, x, y, gr[4 * x], gr[4 * x + 1], gr[4 * x + 2], gr[4 * x + 3], er[4 * x],
                er[4 * x + 1], er[4 * x + 2], er[4 * x + 3]);
    for (size_t b = (size_t)w * 4; b < opitch; b++)
      if (gr[b] != 0xA5 && bad++ == 0)
        fprintf(stderr, "NV12 %dx%d -> RGBA8: row %d padding byte %zu written\n", w, h, y, b);
  }
  CHECK_MSG(bad == 0, "%ld differences", bad);
  g->gl->glDeleteBuffers(1, &pin);
  g->gl->glDeleteBuffers(1, &pout);
  free(in);
  free(poison);
  free(back);
  ref_image_free(&src);
  ref_image_free(&exp);
  return 0;
}

static int run_gpu_gl_pbo_convert_color(void) {
  gx g;
  GX_OPEN(&g, 16, 16);
  static const int nsz[][2] = {{2, 2}, {1920, 1080}, {1922, 1082}};
  for (int i = 0; i < 3; i++)
    if (nv12_case(&g, nsz[i][0], nsz[i][1])) return 1;
  return gx_close(&g);
}

/* Every registration hint is accepted by CUDA and kept; what jetrt does with
 * them: READ_ONLY refuses copies into a texture; the others allow them. */
static int run_gpu_gl_register_hints(void) {
  gx g;
  GX_OPEN(&g, 16, 16);
  const jet__gl_api *gl = g.gl;
  unsigned char px[8 * 4 * 4];
  jt_fill_random(px, sizeof px);
  GLuint tex = 0, rb = 0, buf = make_buffer(&g, 4096, NULL);
  CHECK_OK(jet__gl_texture_create(gl, JET__GL_DRAW_RGBA, 8, 4, px, &tex, "test"));
  gl->glGenRenderbuffers(1, &rb);
  gl->glBindRenderbuffer(GL_RENDERBUFFER, rb);
  gl->glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 8, 4);
  GL_OK(&g, "GL objects");
  jet_image img;
  CHECK_OK(jet_image_create(g.ctx, JET_FORMAT_RGBA8, 8, 4, &img));
  const unsigned hints[] = {0, JET_GL_READ_ONLY, JET_GL_WRITE_DISCARD, JET_GL_SURFACE_LOAD_STORE};
  for (int k = 0; k < 4; k++) {
    jet_gl_resource r;
    jet_gl_info info;
    for (int obj = 0; obj < 2; obj++) {
      unsigned name = obj ? rb : tex, target = obj ? GL_RENDERBUFFER : GL_TEXTURE_2D;
      CHECK_OK(jet_gl_register_image(g.ctx, name, target, hints[k], &r));
      CHECK_OK(jet_gl_get_info(r, &info));
      CHECK(info.flags == hints[k] && info.target == target && !info.is_buffer);
      CHECK_OK(jet_gl_map(r, g.s));
      CHECK_OK(jet_gl_copy_to_image(r, img, g.s));
      CHECK_ST(jet_gl_copy_from_image(r, img, g.s),
               hints[k] == JET_GL_READ_ONLY ? JET_STATUS_INVALID_STATE : JET_STATUS_OK);
      CHECK_OK(jet_gl_unmap(r, g.s));
      CHECK_OK(jet_gl_unregister(r));
    }
    if (hints[k] == JET_GL_SURFACE_LOAD_STORE) continue;
    CHECK_OK(jet_gl_register_buffer(g.ctx, buf, hints[k], &r));
    CHECK_OK(jet_gl_map(r, g.s));
    CHECK_ST(jet_gl_map(r, g.s), JET_STATUS_INVALID_STATE);
    CHECK_OK(jet_gl_unmap(r, g.s));
    CHECK_ST(jet_gl_unmap(r, g.s), JET_STATUS_INVALID_STATE);
    CHECK_OK(jet_gl_unregister(r));
  }
  CHECK_OK(jet_stream_synchronize(g.s));
  CHECK_OK(jet_image_destroy(img));
  gl->glDeleteTextures(1, &tex);
  gl->glDeleteRenderbuffers(1, &rb);
  gl->glDeleteBuffers(1, &buf);
  return gx_close(&g);
}

/* Without a current GL context, registering is INVALID_STATE with a hint. */
static int run_gpu_gl_no_current_context(void) {
  gx g;
  GX_OPEN(&g, 16, 16);
  GLuint buf = make_buffer(&g, 256, NULL);
  jet_egl_info ei;
  CHECK_OK(jet_egl_get_info(g.egl, &ei));
  CHECK(g.eglapi->eglMakeCurrent(ei.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  jet_gl_resource r = (jet_gl_resource)(uintptr_t)1;
  CHECK_ST(jet_gl_register_buffer(g.ctx, buf, 0, &r), JET_STATUS_INVALID_STATE);
  CHECK(r == NULL);
  CHECK(strstr(jet_last_error()->hint, "current") != NULL);
  CHECK_OK(jet_presenter_make_current(g.p));
  CHECK_OK(jet_gl_register_buffer(g.ctx, buf, 0, &r));
  CHECK_OK(jet_gl_unregister(r));
  g.gl->glDeleteBuffers(1, &buf);
  return gx_close(&g);
}

/* Draw 1:1 (GL_NEAREST, no filtering) and read back: exactly the image, top
 * row first, opaque; formats switch and sizes change the texture. */
static int presenter_case(gx *g, jet_format f, int w, int h) {
  int bpp = f == JET_FORMAT_GRAY8 ? 1 : 4;
  size_t ip = (size_t)w * (size_t)bpp + (size_t)(jt_rand() % 9);
  unsigned char *data = malloc(ip * (size_t)h);
  size_t pitch = (size_t)w * 4 + 20;
  unsigned char *back = malloc(pitch * (size_t)h);
  CHECK(data && back);
  jt_fill_random(data, ip * (size_t)h);
  jet_image img;
  CHECK_OK(jet_image_create(g->ctx, f, w, h, &img));
  jet_image_plane hp = {data, ip};
  CHECK_OK(jet_image_upload(img, &hp, 1));
  CHECK_OK(jet_presenter_draw(g->p, img, g->s));
  memset(back, 0xA5, pitch * (size_t)h);
  CHECK_OK(jet_presenter_read(g->p, back, pitch));
  char why[320] = "";
  int bad = jt_compare_shown(back, pitch, f, data, ip, w, h, why, sizeof why);
  CHECK_MSG(!bad, "%s", why);
  for (int y = 0; y < h; y++)
    for (size_t b = (size_t)w * 4; b < pitch; b++)
      CHECK_MSG(back[(size_t)y * pitch + b] == 0xA5, "row %d: padding byte %zu written", y, b);
  jet_presenter_info info;
  CHECK_OK(jet_presenter_get_info(g->p, &info));
  CHECK(info.texture != 0 && info.width == w && info.height == h);
  CHECK_OK(jet_image_destroy(img));
  free(data);
  free(back);
  return 0;
}

static int run_gpu_presenter_draw_read(void) {
  static const jet_format fmts[] = {JET_FORMAT_RGBA8, JET_FORMAT_BGRA8, JET_FORMAT_GRAY8,
                                    JET_FORMAT_RGBA8};
  for (int s = 0; s < N_SIZES; s++) {
    gx g;
    int w = sizes[s][0], h = sizes[s][1];
    GX_OPEN(&g, w, h);
    for (int k = 0; k < 4; k++)
      if (presenter_case(&g, fmts[k], w, h)) {
        fprintf(stderr, "  in: presenter %dx%d, %s image\n", w, h, jet_format_name(fmts[k]));
        return 1;
      }
    /* scaled (GL_LINEAR): a uniform image stays uniform */
    jet_image big, nv12;
    CHECK_OK(jet_image_create(g.ctx, JET_FORMAT_BGRA8, 2 * w + 1, h + 3, &big));
    unsigned char c[4] = {(unsigned char)jt_rand(), (unsigned char)jt_rand(), (unsigned char)jt_rand(), 9};
    size_t n = (size_t)(2 * w + 1) * (size_t)(h + 3);
    unsigned char *u = malloc(n * 4), *back = malloc((size_t)w * 4 * (size_t)h);
    CHECK(u && back);
    for (size_t i = 0; i < n; i++) memcpy(u + 4 * i, c, 4);
    jet_image_plane up = {u, (size_t)(2 * w + 1) * 4};
    CHECK_OK(jet_image_upload(big, &up, 1));
    CHECK_OK(jet_presenter_draw(g.p, big, g.s));
    CHECK_OK(jet_presenter_read(g.p, back, (size_t)w * 4));
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
      CHECK_MSG(back[4 * i] == c[2] && back[4 * i + 1] == c[1] && back[4 * i + 2] == c[0] &&
                    back[4 * i + 3] == 255,
                "scaled draw, pixel %zu: %u,%u,%u,%u", i, back[4 * i], back[4 * i + 1],
                back[4 * i + 2], back[4 * i + 3]);
    free(u);
    free(back);
    CHECK_OK(jet_image_destroy(big));
    CHECK_OK(jet_image_create(g.ctx, JET_FORMAT_NV12, 2, 2, &nv12));
    CHECK_ST(jet_presenter_draw(g.p, nv12, g.s), JET_STATUS_INVALID_ARGUMENT);
    CHECK_OK(jet_image_destroy(nv12));
    if (gx_close(&g)) return 1;
  }
  return 0;
}

static size_t resident_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long size = 0, res = 0;
  if (!f) return 0;
  if (fscanf(f, "%lu %lu", &size, &res) != 2) res = 0;
  fclose(f);
  return (size_t)res * (size_t)sysconf(_SC_PAGESIZE);
}

static int cycle(gx *g, GLuint buf, GLuint tex, jet_image small, int i) {
  static const unsigned bflags[3] = {0, JET_GL_READ_ONLY, JET_GL_WRITE_DISCARD};
  jet_gl_resource r;
  CHECK_OK(jet_gl_register_buffer(g->ctx, buf, bflags[i % 3], &r));
  CHECK_OK(jet_gl_map(r, g->s));
  jet_buffer b;
  jet_image im;
  CHECK_OK(jet_gl_mapped_buffer(r, &b));
  CHECK_OK(jet_gl_mapped_image(r, JET_FORMAT_GRAY8, 61, 64, NULL, NULL, &im));
  CHECK_OK(jet_gl_unmap(r, g->s));
  CHECK_OK(jet_gl_unregister(r));
  CHECK_OK(jet_gl_register_image(g->ctx, tex, GL_TEXTURE_2D, JET_GL_WRITE_DISCARD, &r));
  CHECK_OK(jet_gl_map(r, g->s));
  CHECK_OK(jet_gl_copy_from_image(r, small, g->s));
  CHECK_OK(jet_gl_unmap(r, g->s));
  CHECK_OK(jet_gl_unregister(r));
  return 0;
}

static int run_gpu_gl_register_cycles_alone(void) {
  gx g;
  GX_OPEN(&g, 16, 16);
  GLuint buf = make_buffer(&g, 64 * 64, NULL), tex = 0;
  CHECK_OK(jet__gl_texture_create(g.gl, JET__GL_DRAW_RGBA, 64, 64, NULL, &tex, "test"));
  jet_image small;
  CHECK_OK(jet_image_create(g.ctx, JET_FORMAT_RGBA8, 64, 64, &small));
  for (int i = 0; i < 200; i++)
    if (cycle(&g, buf, tex, small, i)) return 1;
  CHECK_OK(jet_stream_synchronize(g.s));
  size_t host0 = resident_bytes(), free0 = 0, total = 0, free1 = 0;
  CHECK(cudaMemGetInfo(&free0, &total) == cudaSuccess);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  const int n = 10000;
  for (int i = 0; i < n; i++) {
    if (cycle(&g, buf, tex, small, i)) {
      fprintf(stderr, "  in cycle %d\n", i);
      return 1;
    }
    if (i % 500 == 499) CHECK_OK(jet_stream_synchronize(g.s));
  }
  CHECK_OK(jet_stream_synchronize(g.s));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  size_t host1 = resident_bytes();
  CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  long dh = (long)host1 - (long)host0, dd = (long)free0 - (long)free1;
  fprintf(stderr,
          "%d cycles (buffer + texture register/map/unmap/unregister) in %.2f s (%.1f us each); "
          "host resident %+ld KiB (%zu -> %zu KiB); device used %+ld KiB\n",
          n, s, s * 1e6 / n, dh / 1024, host0 / 1024, host1 / 1024, dd / 1024);
  CHECK_MSG(dh <= 2L << 20, "host memory grew by %ld KiB over %d cycles", dh / 1024, n);
  CHECK_MSG(dd <= 4L << 20, "device memory in use grew by %ld KiB over %d cycles", dd / 1024, n);
  CHECK_OK(jet_image_destroy(small));
  g.gl->glDeleteBuffers(1, &buf);
  g.gl->glDeleteTextures(1, &tex);
  return gx_close(&g);
}

/* jet_context_destroy with registrations alive (a mapped buffer with views
 * out, a texture), the presenter and the display: OK, all released, and a
 * "leak report:" names them. */
static int run_gpu_gl_context_destroy_reports_leaks(void) {
  gx g;
  GX_OPEN(&g, 16, 16);
  GLuint buf = make_buffer(&g, 4096, NULL), tex = 0;
  CHECK_OK(jet__gl_texture_create(g.gl, JET__GL_DRAW_RGBA, 4, 4, NULL, &tex, "test"));
  jet_gl_resource rb, rt;
  CHECK_OK(jet_gl_register_buffer(g.ctx, buf, 0, &rb));
  CHECK_OK(jet_gl_register_image(g.ctx, tex, GL_TEXTURE_2D, 0, &rt));
  CHECK_OK(jet_gl_map(rb, g.s));
  jet_buffer b;
  jet_image im;
  CHECK_OK(jet_gl_mapped_buffer(rb, &b));
  CHECK_OK(jet_gl_mapped_image(rb, JET_FORMAT_RGBA8, 16, 16, NULL, NULL, &im));
  jt_log log;
  jt_log_start(&log, JET_LOG_WARN);
  jet_status st = jet_context_destroy(g.ctx);
  jt_log_stop(&log);
  CHECK_OK(st);
  const char *line = jt_log_find(&log, "leak report:");
  CHECK_MSG(line != NULL, "no leak report; log: %s", log.text);
  CHECK_MSG(strstr(line, "GL texture, GL buffer, presenter, EGL display") != NULL,
            "the report does not name what was alive: %s", line);
  CHECK_ST(jet_gl_get_info(rb, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_presenter_make_current(g.p), JET_STATUS_INVALID_HANDLE);
  jet_buffer_info bi;
  CHECK_ST(jet_buffer_get_info(b, &bi), JET_STATUS_INVALID_HANDLE);
  jet_format f;
  CHECK_ST(jet_image_get_format(im, &f), JET_STATUS_INVALID_HANDLE);
  CHECK(g.eglapi->eglGetCurrentContext() == EGL_NO_CONTEXT);
  return 0;
}

#else
#define GL_TEST(fn) SKIP("built without the EGL or GL headers")
#endif

TEST(gpu_gl_texture_round_trip) {
  REQUIRE_GPU();
  GL_TEST(run_gpu_gl_texture_round_trip);
}
TEST(gpu_gl_buffer_round_trip) {
  REQUIRE_GPU();
  GL_TEST(run_gpu_gl_buffer_round_trip);
}
TEST(gpu_gl_pbo_convert_color) {
  REQUIRE_GPU();
  GL_TEST(run_gpu_gl_pbo_convert_color);
}
TEST(gpu_gl_register_hints) {
  REQUIRE_GPU();
  GL_TEST(run_gpu_gl_register_hints);
}
TEST(gpu_gl_no_current_context) {
  REQUIRE_GPU();
  GL_TEST(run_gpu_gl_no_current_context);
}
TEST(gpu_presenter_draw_read) {
  REQUIRE_GPU();
  GL_TEST(run_gpu_presenter_draw_read);
}
TEST(gpu_gl_register_cycles_alone) {
  REQUIRE_GPU();
  GL_TEST(run_gpu_gl_register_cycles_alone);
}
TEST(gpu_gl_context_destroy_reports_leaks) {
  REQUIRE_GPU();
  GL_TEST(run_gpu_gl_context_destroy_reports_leaks);
}

/* jetrt/gl.h without a GPU: every refusal that comes before CUDA, on fake
 * contexts; and the bookkeeping of a mapping (borrowed buffer and images,
 * their release at unmap, unregister and context destroy) on registrations
 * adopted with no CUDA resource behind them (jet__gl_resource_adopt) and
 * "mapped" by hand over host memory that nothing dereferences. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/image/image_internal.h"
#include "../../lib/memory/memory_internal.h"
#include "test_gl_util.h"

#if JET_HAVE_GL
#include "../../lib/interop/interop_internal.h"
#endif

/* Target values as GL defines them (no GL header needed for the test list). */
#define T_TEXTURE_1D 0x0DE0u
#define T_TEXTURE_2D 0x0DE1u
#define T_TEXTURE_BUFFER 0x8C2Au
#define T_RENDERBUFFER 0x8D41u

TEST(gl_register_bad_arguments) {
  jet_gl_resource r = (jet_gl_resource)(uintptr_t)1;
  struct jet_context_s c, gone;
  CHECK(jt_fake_context(&c, "desktop") && jt_fake_context(&gone, "desktop"));
  jt_fake_context_done(&gone);
#if JET_HAVE_GL
  CHECK_ST(jet_gl_register_buffer(&c, 1, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_register_buffer(NULL, 1, 0, &r), JET_STATUS_INVALID_HANDLE);
  CHECK(r == NULL);
  CHECK_ST(jet_gl_register_buffer(&gone, 1, 0, &r), JET_STATUS_INVALID_HANDLE);
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
  CHECK_ST(jet_gl_register_buffer((jet_context)(void *)s, 1, 0, &r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_register_buffer(&c, 0, 0, &r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_register_buffer(&c, 1, 1u << 5, &r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_register_buffer(&c, 1, JET_GL_READ_ONLY | JET_GL_WRITE_DISCARD, &r),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_register_buffer(&c, 1, JET_GL_SURFACE_LOAD_STORE, &r),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "textures") != NULL);

  CHECK_ST(jet_gl_register_image(&c, 1, T_TEXTURE_2D, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  r = (jet_gl_resource)(uintptr_t)1;
  CHECK_ST(jet_gl_register_image(NULL, 1, T_TEXTURE_2D, 0, &r), JET_STATUS_INVALID_HANDLE);
  CHECK(r == NULL);
  CHECK_ST(jet_gl_register_image(&gone, 1, T_TEXTURE_2D, 0, &r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_register_image(&c, 0, T_TEXTURE_2D, 0, &r), JET_STATUS_INVALID_ARGUMENT);
  const unsigned bad_targets[] = {0, T_TEXTURE_1D, T_TEXTURE_BUFFER, 0x1234, 0xFFFFFFFFu};
  for (size_t i = 0; i < sizeof bad_targets / sizeof bad_targets[0]; i++) {
    CHECK_ST(jet_gl_register_image(&c, 1, bad_targets[i], 0, &r), JET_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(jet_last_error()->message, "target") != NULL);
  }
  CHECK_ST(jet_gl_register_image(&c, 1, T_RENDERBUFFER, 1u << 3, &r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_register_image(&c, 1, T_TEXTURE_2D, JET_GL_READ_ONLY | JET_GL_SURFACE_LOAD_STORE,
                                 &r),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(r == NULL);
#else
  CHECK_ST(jet_gl_register_buffer(&c, 1, 0, &r), JET_STATUS_NOT_BUILT_IN);
  CHECK(r == NULL);
  CHECK(strstr(jet_last_error()->message, "JET_WITH_GL") != NULL);
  r = (jet_gl_resource)(uintptr_t)1;
  CHECK_ST(jet_gl_register_image(&c, 1, T_TEXTURE_2D, 0, &r), JET_STATUS_NOT_BUILT_IN);
  CHECK(r == NULL);
#endif
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

TEST(gl_calls_refuse_bad_handles) {
  int junk[64] = {0};
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
#if JET_HAVE_GL
  const jet_status bad = JET_STATUS_INVALID_HANDLE;
#else
  const jet_status bad = JET_STATUS_NOT_BUILT_IN;
#endif
  CHECK_OK(jet_gl_unregister(NULL));
  jet_gl_resource hs[3] = {NULL, (jet_gl_resource)(void *)junk, (jet_gl_resource)(void *)s};
  for (int i = 0; i < 3; i++) {
    jet_gl_resource h = hs[i];
    jet_gl_info info;
    void *p;
    size_t n;
    jet_buffer b = (jet_buffer)(uintptr_t)1;
    jet_image im = (jet_image)(uintptr_t)1;
    void *arr = (void *)1;
    if (h) CHECK_ST(jet_gl_unregister(h), bad);
    CHECK_ST(jet_gl_get_info(h, &info), bad);
    CHECK_ST(jet_gl_map(h, s), bad);
    CHECK_ST(jet_gl_unmap(h, s), bad);
    CHECK_ST(jet_gl_mapped_pointer(h, &p, &n), bad);
    CHECK_ST(jet_gl_mapped_buffer(h, &b), bad);
    CHECK(b == NULL);
    CHECK_ST(jet_gl_mapped_image(h, JET_FORMAT_RGBA8, 4, 4, NULL, NULL, &im), bad);
    CHECK(im == NULL);
    CHECK_ST(jet_gl_mapped_array(h, 0, 0, &arr), bad);
    CHECK(arr == NULL);
    CHECK_ST(jet_gl_copy_to_image(h, NULL, s), bad);
    CHECK_ST(jet_gl_copy_from_image(h, NULL, s), bad);
  }
  jt_fake_context_done(&c);
  return 0;
}

#if JET_HAVE_GL
#define GL_TEST(fn) return fn()

static unsigned char *aligned_block(size_t n) {
  void *p = NULL;
  return posix_memalign(&p, 4096, n) == 0 ? p : NULL;
}

/* A buffer "mapped" over host memory: the pointer and size, the one borrowed
 * jet_buffer, images at given pitches and offsets, planes past the end
 * refused, and every borrowed handle gone at unmap. */
static int run_gl_mapped_buffer_views(void) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
  jet_gl_resource r;
  CHECK_OK(jet__gl_resource_adopt(&c, NULL, 7, 0, 1, JET_GL_WRITE_DISCARD, &r, "test"));
  jet_gl_info info;
  CHECK_ST(jet_gl_get_info(r, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_gl_get_info(r, &info));
  CHECK(info.name == 7 && info.target == 0 && info.is_buffer == 1 &&
        info.flags == JET_GL_WRITE_DISCARD && info.mapped == 0 && info.bytes == 0);
  void *p = NULL;
  size_t n = 0;
  jet_buffer b;
  jet_image im;
  CHECK_ST(jet_gl_mapped_pointer(r, &p, &n), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_gl_mapped_buffer(r, &b), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_RGBA8, 4, 4, NULL, NULL, &im), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_gl_unmap(r, s), JET_STATUS_INVALID_STATE);

  const size_t bytes = 1920 * 1080 * 3 / 2 + 8192;
  unsigned char *mem = aligned_block(bytes);
  CHECK(mem);
  jet__gl_resource_set_mapped(r, mem, bytes, 1);
  CHECK_OK(jet_gl_get_info(r, &info));
  CHECK(info.mapped == 1 && info.bytes == bytes);
  CHECK_ST(jet_gl_map(r, s), JET_STATUS_INVALID_STATE); /* already mapped */
  CHECK_ST(jet_gl_mapped_pointer(r, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_gl_mapped_pointer(r, &p, NULL));
  CHECK_OK(jet_gl_mapped_pointer(r, NULL, &n));
  CHECK(p == mem && n == bytes);
  CHECK_ST(jet_gl_mapped_buffer(r, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_buffer b2;
  CHECK_OK(jet_gl_mapped_buffer(r, &b));
  CHECK_OK(jet_gl_mapped_buffer(r, &b2));
  CHECK(b == b2);
  jet_buffer_info bi;
  CHECK_OK(jet_buffer_get_info(b, &bi));
  CHECK(bi.kind == JET_MEMORY_DEVICE && bi.size == bytes);
  void *dp = NULL;
  CHECK_OK(jet_buffer_device_ptr(b, &dp));
  CHECK(dp == mem);
  CHECK_ST(jet_buffer_destroy(b), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "GL buffer") != NULL);
  CHECK(atomic_load(&c.live_objects) == 1); /* the registration; borrowed ones are its own */

  /* packed RGBA8 at offset 0 */
  jet_image rgba, nv12, nv12p;
  CHECK_OK(jet_gl_mapped_image(r, JET_FORMAT_RGBA8, 33, 7, NULL, NULL, &rgba));
  jet_image_plane_info pi;
  CHECK_OK(jet_image_get_plane(rgba, 0, &pi));
  CHECK(pi.ptr == mem && pi.pitch == 33 * 4);
  /* NV12, planes one after another (packed) */
  CHECK_OK(jet_gl_mapped_image(r, JET_FORMAT_NV12, 1920, 1080, NULL, NULL, &nv12));
  CHECK_OK(jet_image_get_plane(nv12, 0, &pi));
  CHECK(pi.ptr == mem && pi.pitch == 1920);
  CHECK_OK(jet_image_get_plane(nv12, 1, &pi));
  CHECK(pi.ptr == mem + 1920 * 1080 && pi.pitch == 1920);
  /* NV12, given pitches, planes placed one after another at those pitches */
  size_t pitches[2] = {1984, 2048};
  CHECK_OK(jet_gl_mapped_image(r, JET_FORMAT_NV12, 1920, 2, pitches, NULL, &nv12p));
  CHECK_OK(jet_image_get_plane(nv12p, 1, &pi));
  CHECK(pi.ptr == mem + 1984 * 2 && pi.pitch == 2048);
  /* NV12, given pitches and offsets */
  size_t offs[2] = {8192, 256};
  jet_image nv12o;
  CHECK_OK(jet_gl_mapped_image(r, JET_FORMAT_NV12, 1920, 4, pitches, offs, &nv12o));
  CHECK_OK(jet_image_get_plane(nv12o, 0, &pi));
  CHECK(pi.ptr == mem + 8192 && pi.pitch == 1984);
  CHECK_OK(jet_image_get_plane(nv12o, 1, &pi));
  CHECK(pi.ptr == mem + 256);
  CHECK_ST(jet_image_destroy(nv12o), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "GL buffer") != NULL);

  /* refusals: the plane rules, and planes past the end of the buffer */
  im = (jet_image)(uintptr_t)1;
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_RGBA8, 4, 4, NULL, NULL, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_NONE_, 4, 4, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(im == NULL);
  CHECK_ST(jet_gl_mapped_image(r, (jet_format)99, 4, 4, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_NV12, 3, 4, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_RGBA8, 0, 4, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  size_t small[1] = {15};
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_RGBA8, 4, 4, small, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  size_t odd[1] = {18};
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_GRAYF32, 4, 4, odd, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_RGBA8, 1920, 1080, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT); /* 8 MB in a 3 MB buffer */
  CHECK(strstr(jet_last_error()->message, "past the end") != NULL);
  size_t end_off[1] = {bytes - 16 * 4 + 1};
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_RGBA8, 16, 1, NULL, end_off, &im),
           JET_STATUS_INVALID_ARGUMENT);
  end_off[0] = bytes - 16 * 4; /* exactly fits */
  jet_image last;
  CHECK_OK(jet_gl_mapped_image(r, JET_FORMAT_RGBA8, 16, 1, NULL, end_off, &last));
  size_t huge[2] = {SIZE_MAX - 8, 0};
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_NV12, 2, 2, NULL, huge, &im),
           JET_STATUS_INVALID_ARGUMENT);
  size_t uv_out[2] = {0, bytes - 100};
  CHECK_ST(jet_gl_mapped_image(r, JET_FORMAT_NV12, 1920, 2, NULL, uv_out, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(im == NULL);
  /* a buffer has no CUDA array and takes no texture copies (refused before CUDA) */
  void *arr;
  CHECK_ST(jet_gl_mapped_array(r, 0, 0, &arr), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_mapped_array(r, 0, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_copy_to_image(r, rgba, s), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_copy_from_image(r, rgba, s), JET_STATUS_INVALID_ARGUMENT);

  /* unmap (by hand: nothing is mapped in CUDA) releases every borrowed handle */
  jet__gl_resource_set_mapped(r, NULL, 0, 0);
  CHECK_ST(jet_buffer_get_info(b, &bi), JET_STATUS_INVALID_HANDLE);
  jet_image all[] = {rgba, nv12, nv12p, nv12o, last};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    CHECK_ST(jet_image_get_plane(all[i], 0, &pi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_mapped_buffer(r, &b), JET_STATUS_INVALID_STATE);

  /* mapped again: views again; unregister releases them too */
  jet__gl_resource_set_mapped(r, mem, bytes, 1);
  CHECK_OK(jet_gl_mapped_buffer(r, &b));
  CHECK_OK(jet_gl_mapped_image(r, JET_FORMAT_GRAY8, 5, 5, NULL, NULL, &im));
  CHECK_OK(jet_gl_unregister(r));
  CHECK_ST(jet_buffer_get_info(b, &bi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_get_plane(im, 0, &pi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_get_info(r, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_unregister(r), JET_STATUS_INVALID_HANDLE);
  CHECK(atomic_load(&c.live_objects) == 0);
  free(mem);
  jt_fake_context_done(&c);
  return 0;
}

/* Handles of two contexts do not mix; a texture's copies check the image
 * (one plane) and the mapping before any CUDA call; read-only refuses writes. */
static int run_gl_texture_checks_before_cuda(void) {
  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop") && jt_fake_context(&other, "desktop"));
  jet_stream s, so;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_context_default_stream(&other, JET_STREAM_PER_THREAD, &so));
  jet_gl_resource t, ro;
  CHECK_OK(jet__gl_resource_adopt(&c, NULL, 3, T_TEXTURE_2D, 0, 0, &t, "test"));
  CHECK_OK(jet__gl_resource_adopt(&c, NULL, 4, T_RENDERBUFFER, 0, JET_GL_READ_ONLY, &ro, "test"));
  jet_gl_info info;
  CHECK_OK(jet_gl_get_info(ro, &info));
  CHECK(info.name == 4 && info.target == T_RENDERBUFFER && !info.is_buffer &&
        info.flags == JET_GL_READ_ONLY && !info.mapped && info.bytes == 0);
  static unsigned char mem[1 << 16] __attribute__((aligned(256)));
  void *ptrs[3] = {mem, mem + 32768, NULL};
  jet_image rgba, nv12, foreign;
  CHECK_OK(jet__image_borrow(&c, JET_FORMAT_RGBA8, 16, 8, NULL, ptrs, "test", &rgba, "test"));
  CHECK_OK(jet__image_borrow(&c, JET_FORMAT_NV12, 16, 8, NULL, ptrs, "test", &nv12, "test"));
  CHECK_OK(jet__image_borrow(&other, JET_FORMAT_RGBA8, 16, 8, NULL, ptrs, "test", &foreign, "test"));

  CHECK_ST(jet_gl_map(t, so), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_gl_map(t, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_unmap(t, so), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_gl_unmap(t, s), JET_STATUS_INVALID_STATE); /* not mapped */
  CHECK_ST(jet_gl_copy_to_image(t, foreign, s), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_gl_copy_to_image(t, rgba, so), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_gl_copy_from_image(t, foreign, s), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_gl_copy_from_image(t, rgba, so), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_gl_copy_to_image(t, NULL, s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_copy_to_image(t, (jet_image)(void *)s, s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_copy_to_image(t, nv12, s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "one-plane") != NULL);
  CHECK_ST(jet_gl_copy_to_image(t, rgba, s), JET_STATUS_INVALID_STATE); /* not mapped */
  CHECK_ST(jet_gl_copy_from_image(t, rgba, s), JET_STATUS_INVALID_STATE);
  void *arr = (void *)1;
  CHECK_ST(jet_gl_mapped_array(t, 0, 0, &arr), JET_STATUS_INVALID_STATE);
  CHECK(arr == NULL);
  /* a texture has no pointer, buffer or image view */
  jet__gl_resource_set_mapped(t, NULL, 0, 1);
  void *p;
  jet_buffer b;
  jet_image im;
  CHECK_ST(jet_gl_mapped_pointer(t, &p, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_mapped_buffer(t, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_mapped_image(t, JET_FORMAT_RGBA8, 4, 4, NULL, NULL, &im),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_gl_map(t, s), JET_STATUS_INVALID_STATE);
  jet__gl_resource_set_mapped(t, NULL, 0, 0);
  /* read-only: CUDA may not write it, mapped or not */
  CHECK_ST(jet_gl_copy_from_image(ro, rgba, s), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "READ_ONLY") != NULL);

  jet__image_release_borrowed(rgba);
  jet__image_release_borrowed(nv12);
  jet__image_release_borrowed(foreign);
  CHECK_OK(jet_gl_unregister(t));
  CHECK_OK(jet_gl_unregister(ro));
  CHECK(atomic_load(&c.live_objects) == 0 && atomic_load(&other.live_objects) == 0);
  jt_fake_context_done(&c);
  jt_fake_context_done(&other);
  return 0;
}

/* A context released with registrations alive (one mapped, with borrowed
 * views out) releases them all and names them in a "leak report:" warning. */
static int run_gl_released_with_context(void) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  jet_gl_resource buf, tex;
  CHECK_OK(jet__gl_resource_adopt(&c, NULL, 11, 0, 1, 0, &buf, "test"));
  CHECK_OK(jet__gl_resource_adopt(&c, NULL, 12, T_TEXTURE_2D, 0, 0, &tex, "test"));
  unsigned char *mem = aligned_block(1 << 16);
  CHECK(mem);
  jet__gl_resource_set_mapped(buf, mem, 1 << 16, 1);
  jet_buffer b;
  jet_image im;
  CHECK_OK(jet_gl_mapped_buffer(buf, &b));
  CHECK_OK(jet_gl_mapped_image(buf, JET_FORMAT_NV12, 64, 32, NULL, NULL, &im));
  /* what jet_context_destroy weighs: only the registrations count */
  CHECK(atomic_load(&c.live_objects) == 2 && c.res_count == 2);
  jt_log log;
  jt_log_start(&log, JET_LOG_WARN);
  jt_fake_context_done(&c);
  jt_log_stop(&log);
  const char *line = jt_log_find(&log, "leak report:");
  CHECK_MSG(line != NULL, "no leak report logged; log: %s", log.text);
  CHECK_MSG(strstr(line, "2 registration(s)") && strstr(line, "GL texture, GL buffer"),
            "the report does not name both registrations: %s", line);
  CHECK_ST(jet_gl_get_info(buf, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_gl_unregister(tex), JET_STATUS_INVALID_HANDLE);
  jet_buffer_info bi;
  CHECK_ST(jet_buffer_get_info(b, &bi), JET_STATUS_INVALID_HANDLE);
  jet_format f;
  CHECK_ST(jet_image_get_format(im, &f), JET_STATUS_INVALID_HANDLE);
  free(mem);
  return 0;
}

#else
#define GL_TEST(fn) SKIP("built without the GL headers")
#endif

TEST(gl_mapped_buffer_views) { GL_TEST(run_gl_mapped_buffer_views); }
TEST(gl_texture_checks_before_cuda) { GL_TEST(run_gl_texture_checks_before_cuda); }
TEST(gl_released_with_context) { GL_TEST(run_gl_released_with_context); }

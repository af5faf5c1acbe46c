/* Native handles, host side: argument checks of the getters and of
 * jet_stream_wrap / jet_event_wrap (all before any CUDA call), and what the
 * getters read from fake buffers, images and events. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/image/image_internal.h"
#include "../../lib/memory/memory_internal.h"
#include "../../lib/stream/stream_internal.h"

#define BAD ((void *)(uintptr_t)0x100000) /* never dereferenced */

static int has(const char *hay, const char *needle) { return hay && strstr(hay, needle) != NULL; }

TEST(native_getters_bad_arguments) {
  void *p = BAD;
  size_t pitch = 7;
  int dev = -5;
  jet_buffer_native_info bi;
  CHECK_ST(jet_context_native(NULL, &p, &dev), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_native(NULL, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_native(NULL, &bi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_plane_native(NULL, 0, &p, &pitch), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_native(NULL, &p), JET_STATUS_INVALID_HANDLE);
  int w = 3;
  CHECK_ST(jet_stream_is_wrapped(NULL, &w), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_is_wrapped(NULL, &w), JET_STATUS_INVALID_HANDLE);

  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK_ST(jet_context_native(&c, NULL, &dev), JET_STATUS_INVALID_ARGUMENT);
  CHECK(dev == -5);
  /* a context is not an event, buffer, image or stream */
  CHECK_ST(jet_event_native((jet_event)(void *)&c, &p), JET_STATUS_INVALID_HANDLE);
  CHECK(has(jet_last_error()->message, "jet_context"));
  CHECK_ST(jet_buffer_native((jet_buffer)(void *)&c, &bi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_image_plane_native((jet_image)(void *)&c, 0, &p, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_is_wrapped((jet_stream)(void *)&c, &w), JET_STATUS_INVALID_HANDLE);

  /* a default stream: not wrapped, gives the runtime's special handles */
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  CHECK_ST(jet_stream_is_wrapped(s, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_stream_is_wrapped(s, &w));
  CHECK(w == 0);
  CHECK_OK(jet_stream_native(s, &p));
  CHECK(p == (void *)cudaStreamPerThread);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

TEST(native_getters_read_fake_objects) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  c.device = 2;

  struct jet_buffer_s b;
  memset(&b, 0, sizeof b);
  b.kind = b.requested = JET_MEMORY_HOST_MAPPED;
  b.dev = BAD;
  b.host = (void *)(uintptr_t)0x200000;
  b.width = 100;
  b.pitch = 128;
  b.height = 3;
  b.depth = 1;
  b.size = 384;
  CHECK_OK(jet__handle_register(&b.h, JET__H_BUFFER, &c, "test"));
  jet_buffer_native_info bi;
  memset(&bi, 0xA5, sizeof bi);
  CHECK_ST(jet_buffer_native(&b, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_buffer_native(&b, &bi));
  CHECK(bi.device_ptr == BAD && bi.host_ptr == b.host && bi.size == 384 && bi.pitch == 128);
  CHECK(bi.kind == JET_MEMORY_HOST_MAPPED && bi.device == 2);
  jet__handle_unregister(&b.h);

  struct jet_event_s e;
  memset(&e, 0, sizeof e);
  e.cu = (cudaEvent_t)BAD;
  e.wrapped = 1;
  CHECK_OK(jet__handle_register(&e.h, JET__H_EVENT, &c, "test"));
  void *p = NULL;
  CHECK_ST(jet_event_native(&e, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_event_native(&e, &p));
  CHECK(p == BAD);
  int w = 0;
  CHECK_OK(jet_event_is_wrapped(&e, &w));
  CHECK(w == 1);
  jet__handle_unregister(&e.h);

  /* an NV12 image 6x4 with pitches 8 and 16 */
  void *ptrs[2] = {BAD, (char *)BAD + 4096};
  size_t pitches[2] = {8, 16};
  jet_image img;
  CHECK_OK(jet__image_borrow(&c, JET_FORMAT_NV12, 6, 4, pitches, ptrs, "test", &img, "test"));
  size_t pitch = 0;
  CHECK_ST(jet_image_plane_native(img, 0, NULL, &pitch), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_plane_native(img, 2, &p, &pitch), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "2-plane NV12"));
  CHECK_ST(jet_image_plane_native(img, -1, &p, &pitch), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_image_plane_native(img, 1, &p, &pitch));
  CHECK(p == ptrs[1] && pitch == 16);
  CHECK_OK(jet_image_plane_native(img, 0, &p, NULL));
  CHECK(p == ptrs[0]);
  jet__image_release_borrowed(img);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

TEST(native_wrap_bad_arguments) {
  jet_stream s = (jet_stream)BAD;
  jet_event e = (jet_event)BAD;
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK_ST(jet_stream_wrap(&c, BAD, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_wrap(NULL, BAD, &s), JET_STATUS_INVALID_HANDLE);
  CHECK(s == NULL);
  s = (jet_stream)BAD;
  CHECK_ST(jet_stream_wrap(&c, NULL, &s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(s == NULL && has(jet_last_error()->message, "jet_context_default_stream"));
  CHECK_ST(jet_stream_wrap(&c, (void *)cudaStreamLegacy, &s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "legacy"));
  CHECK_ST(jet_stream_wrap(&c, (void *)cudaStreamPerThread, &s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "cudaStreamPerThread"));

  CHECK_ST(jet_event_wrap(&c, BAD, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_event_wrap(&c, NULL, 0, &e), JET_STATUS_INVALID_ARGUMENT);
  CHECK(e == NULL);
  CHECK_ST(jet_event_wrap(&c, BAD, 1u << 7, &e), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "0x80"));
  CHECK_ST(jet_event_wrap(&c, BAD, JET_EVENT_INTERPROCESS | JET_EVENT_TIMING, &e),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_event_wrap(NULL, BAD, 0, &e), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_wrap((jet_context)BAD, BAD, 0, &e), JET_STATUS_INVALID_HANDLE);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

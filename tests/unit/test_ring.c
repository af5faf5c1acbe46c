/* The frame ring without a GPU: every call's argument checks, which come
 * before any CUDA call or socket. */
#include <string.h>

#include "test.h"
#include "internal.h"

TEST(ring_bad_arguments) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  int bogus[32] = {0};
  jet_ring r = (jet_ring)1;
  jet_ring_desc d;
  memset(&d, 0, sizeof d);
  CHECK_ST(jet_ring_create(&c, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_ring_create(NULL, &d, &r), JET_STATUS_INVALID_HANDLE);
  CHECK(r == NULL);
  CHECK_ST(jet_ring_create((jet_context)bogus, &d, &r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_create(&c, NULL, &r), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_ring_create(&c, &d, &r), JET_STATUS_INVALID_ARGUMENT); /* no path */
  d.path = "@jetrt-test";
  d.slots = 1;
  CHECK_ST(jet_ring_create(&c, &d, &r), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "slots 1") != NULL);
  d.slots = JET_RING_MAX_SLOTS + 1;
  CHECK_ST(jet_ring_create(&c, &d, &r), JET_STATUS_INVALID_ARGUMENT);
  d.slots = 4;
  d.max_consumers = JET_RING_MAX_CONSUMERS + 1;
  CHECK_ST(jet_ring_create(&c, &d, &r), JET_STATUS_INVALID_ARGUMENT);
  d.max_consumers = 0;
  CHECK_ST(jet_ring_create(&c, &d, &r), JET_STATUS_INVALID_ARGUMENT); /* buffers of 0 bytes */
  CHECK(strstr(jet_last_error()->message, "bytes") != NULL);
  d.format = (jet_format)999;
  CHECK_ST(jet_ring_create(&c, &d, &r), JET_STATUS_INVALID_ARGUMENT);
  d.format = JET_FORMAT_NV12;
  d.width = 0;
  CHECK_ST(jet_ring_create(&c, &d, &r), JET_STATUS_INVALID_ARGUMENT);
  d.width = d.height = 16;
  d.flags = 0x80;
  CHECK_ST(jet_ring_create(&c, &d, &r), JET_STATUS_INVALID_ARGUMENT);

  jet_ring_consumer_desc cd;
  memset(&cd, 0, sizeof cd);
  CHECK_ST(jet_ring_connect(&c, &cd, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_ring_connect(NULL, &cd, &r), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_connect(&c, &cd, &r), JET_STATUS_INVALID_ARGUMENT); /* no path */
  cd.path = "@jetrt-test";
  cd.policy = (jet_ring_policy)7;
  CHECK_ST(jet_ring_connect(&c, &cd, &r), JET_STATUS_INVALID_ARGUMENT);
  cd.policy = JET_RING_LOSSLESS;
  cd.queue_depth = JET_RING_MAX_QUEUE + 1;
  CHECK_ST(jet_ring_connect(&c, &cd, &r), JET_STATUS_INVALID_ARGUMENT);
  cd.queue_depth = 0;
  cd.timeout_ms = -1;
  CHECK_ST(jet_ring_connect(&c, &cd, &r), JET_STATUS_INVALID_ARGUMENT);
  cd.timeout_ms = 10;
  cd.name = "a name that is much too long for the thirty-one characters";
  CHECK_ST(jet_ring_connect(&c, &cd, &r), JET_STATUS_INVALID_ARGUMENT);
  cd.name = "bad\001name";
  CHECK_ST(jet_ring_connect(&c, &cd, &r), JET_STATUS_INVALID_ARGUMENT);
  /* No one listens: a clear failure within the timeout, nothing left open. */
  int fds = jt_count_fds();
  cd.name = "nobody";
  cd.path = "@jetrt-test-ring-nobody-listens";
  jet_status st = jet_ring_connect(&c, &cd, &r);
  CHECK_MSG(st == JET_STATUS_DISCONNECTED || st == JET_STATUS_TIMEOUT || st == JET_STATUS_IO_ERROR,
            "%s", jet_last_error_string());
  CHECK(r == NULL);
  CHECK(jt_count_fds() == fds);

  jet_ring_frame f;
  memset(&f, 0, sizeof f);
  jet_ring_stats stats;
  int fd;
  CHECK_OK(jet_ring_destroy(NULL));
  CHECK_ST(jet_ring_destroy((jet_ring)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_poll(NULL, 0), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_loan(NULL, 0, &f), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_publish(NULL, &f, NULL, 0, NULL, 0), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_discard(NULL, &f), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_take(NULL, JET_RING_NEXT, NULL, 0, &f), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_release(NULL, &f, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_fd(NULL, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ring_get_stats((jet_ring)bogus, &stats), JET_STATUS_INVALID_HANDLE);
  jt_fake_context_done(&c);
  return 0;
}

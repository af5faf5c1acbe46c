/* Streams: argument checks, flags and priorities, host callbacks, waits, queries. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "test_stream_util.h"

static void noop_cb(void *user) { (void)user; }

TEST(badarg_stream_null_handles) {
  int bogus[16] = {0};
  jet_stream s = (jet_stream)(uintptr_t)0x1;
  jet_stream_desc d = {1u << 7, 0};
  /* flags are checked before the context and before any CUDA call */
  CHECK_ST(jet_stream_create(NULL, &d, &s), JET_STATUS_INVALID_ARGUMENT);
  CHECK(s == NULL);
  CHECK(strstr(jet_last_error()->message, "0x80") != NULL);
  CHECK_ST(jet_stream_create(NULL, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_create(NULL, NULL, &s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_create((jet_context)bogus, NULL, &s), JET_STATUS_INVALID_HANDLE);
  CHECK(s == NULL);
  int lo, hi;
  CHECK_ST(jet_stream_priority_range(NULL, &lo, &hi), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_priority_range((jet_context)bogus, &lo, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_stream_destroy(NULL));
  CHECK_ST(jet_stream_destroy((jet_stream)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_add_callback(NULL, noop_cb, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_add_callback((jet_stream)bogus, NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_wait_event(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_wait_event((jet_stream)bogus, (jet_event)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_query(NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_query((jet_stream)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_synchronize(NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_synchronize((jet_stream)bogus), JET_STATUS_INVALID_HANDLE);
  void *native = NULL;
  CHECK_ST(jet_stream_native(NULL, &native), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_native((jet_stream)bogus, &native), JET_STATUS_INVALID_HANDLE);
  return 0;
}

TEST(gpu_stream_create_flags_and_priorities) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  int least = 99, greatest = 99;
  CHECK_OK(jet_stream_priority_range(ctx, &least, &greatest));
  int cl = 0, cg = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&cl, &cg) == cudaSuccess);
  CHECK(least == cl && greatest == cg && greatest <= least);
  int only = 99;
  CHECK_OK(jet_stream_priority_range(ctx, NULL, &only));
  CHECK(only == greatest);
  CHECK_ST(jet_stream_priority_range(ctx, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);

  const size_t n = 1 << 20;
  unsigned char *src = NULL, *dst = NULL, *dev = NULL;
  CHECK(cudaMallocHost((void **)&src, n) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&dst, n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dev, n) == cudaSuccess);

  const unsigned flag_set[2] = {0, JET_STREAM_NON_BLOCKING};
  const int prio_set[2] = {least, greatest};
  for (int fi = 0; fi < 2; fi++)
    for (int pi = 0; pi < 2; pi++) {
      jet_stream_desc d = {flag_set[fi], prio_set[pi]};
      jet_stream s = NULL;
      CHECK_OK(jet_stream_create(ctx, &d, &s));
      unsigned cf = 99;
      int cp = 99;
      CHECK(cudaStreamGetFlags(s->cu, &cf) == cudaSuccess);
      CHECK(cudaStreamGetPriority(s->cu, &cp) == cudaSuccess);
      CHECK_MSG(((cf & cudaStreamNonBlocking) != 0) == (flag_set[fi] != 0), "flags 0x%x", cf);
      CHECK_MSG(cp == prio_set[pi], "priority %d, asked %d", cp, prio_set[pi]);
      /* the stream works: a round trip of fresh data */
      jt_fill_random(src, n);
      memset(dst, 0x5a, n);
      CHECK(cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, s->cu) == cudaSuccess);
      CHECK(cudaMemcpyAsync(dst, dev, n, cudaMemcpyDeviceToHost, s->cu) == cudaSuccess);
      CHECK_OK(jet_stream_synchronize(s));
      CHECK(memcmp(src, dst, n) == 0);
      /* the context refuses to go while the stream lives */
      CHECK_ST(jet_context_destroy(ctx), JET_STATUS_INVALID_STATE);
      CHECK_OK(jet_stream_destroy(s));
    }

  /* NULL desc: a blocking stream */
  jet_stream s = NULL;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  unsigned cf = 99;
  CHECK(cudaStreamGetFlags(s->cu, &cf) == cudaSuccess && !(cf & cudaStreamNonBlocking));
  CHECK_OK(jet_stream_destroy(s));

  /* out of range on either side; the message gives the range */
  char lo_txt[16], hi_txt[16];
  snprintf(lo_txt, sizeof lo_txt, "%d", least);
  snprintf(hi_txt, sizeof hi_txt, "%d", greatest);
  const int bad[2] = {least + 1, greatest - 1};
  for (int b = 0; b < 2; b++) {
    jet_stream_desc d = {0, bad[b]};
    s = (jet_stream)(uintptr_t)0x1;
    CHECK_ST(jet_stream_create(ctx, &d, &s), JET_STATUS_INVALID_ARGUMENT);
    CHECK(s == NULL);
    const char *m = jet_last_error()->message;
    CHECK_MSG(strstr(m, lo_txt) && strstr(m, hi_txt) && strstr(m, "range"), "message: %s", m);
  }
  jet_stream_desc d = {JET_STREAM_NON_BLOCKING | (1u << 9), 0};
  CHECK_ST(jet_stream_create(ctx, &d, &s), JET_STATUS_INVALID_ARGUMENT);

  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK(cudaFreeHost(src) == cudaSuccess && cudaFreeHost(dst) == cudaSuccess);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_stream_default_streams_are_owned_by_context) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream legacy, per_thread;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &legacy));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &per_thread));
  CHECK_ST(jet_stream_destroy(legacy), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_destroy(per_thread), JET_STATUS_INVALID_ARGUMENT);
  void *native = NULL;
  CHECK_OK(jet_stream_native(legacy, &native));
  CHECK(native == (void *)cudaStreamLegacy);
  CHECK_OK(jet_stream_native(per_thread, &native));
  CHECK(native == (void *)cudaStreamPerThread);
  CHECK_ST(jet_stream_native(per_thread, NULL), JET_STATUS_INVALID_ARGUMENT);
  /* still usable afterwards */
  const size_t n = 256 * 1024;
  unsigned char *src = NULL, *dst = NULL, *dev = NULL;
  CHECK(cudaMallocHost((void **)&src, n) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&dst, n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dev, n) == cudaSuccess);
  jet_stream both[2] = {legacy, per_thread};
  for (int k = 0; k < 2; k++) {
    jt_fill_random(src, n);
    memset(dst, 0xa5, n);
    CHECK(cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, both[k]->cu) == cudaSuccess);
    CHECK(cudaMemcpyAsync(dst, dev, n, cudaMemcpyDeviceToHost, both[k]->cu) == cudaSuccess);
    CHECK_OK(jet_stream_synchronize(both[k]));
    CHECK_OK(jet_stream_query(both[k]));
    CHECK(memcmp(src, dst, n) == 0);
  }
  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK(cudaFreeHost(src) == cudaSuccess && cudaFreeHost(dst) == cudaSuccess);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Callback ordering: each callback appends its index and checks that the copy
 * enqueued just before it has landed. */
#define CB_COUNT 8
typedef struct cb_log {
  atomic_int n;
  int order[CB_COUNT * 2];
  int data_ok[CB_COUNT * 2];
  const unsigned char *got;
  size_t len;
} cb_log;

typedef struct cb_arg {
  cb_log *log;
  int index;
  const unsigned char *expect;
} cb_arg;

static void cb_append(void *user) {
  cb_arg *a = user;
  int k = atomic_fetch_add(&a->log->n, 1);
  if (k < CB_COUNT * 2) {
    a->log->order[k] = a->index;
    a->log->data_ok[k] = memcmp(a->log->got, a->expect, a->log->len) == 0;
  }
}

TEST(gpu_stream_callbacks_run_in_order_after_earlier_work) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc d = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, &d, &s));
  const size_t n = 4u << 20;
  unsigned char *src[CB_COUNT], *got = NULL, *dev = NULL;
  for (int i = 0; i < CB_COUNT; i++) {
    CHECK(cudaMallocHost((void **)&src[i], n) == cudaSuccess);
    jt_fill_random(src[i], n);
  }
  CHECK(cudaMallocHost((void **)&got, n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dev, n) == cudaSuccess);
  memset(got, 0x3c, n);
  cb_log log;
  atomic_init(&log.n, 0);
  log.got = got;
  log.len = n;
  cb_arg args[CB_COUNT];
  for (int i = 0; i < CB_COUNT; i++) {
    args[i].log = &log;
    args[i].index = i;
    args[i].expect = src[i];
    CHECK(cudaMemcpyAsync(dev, src[i], n, cudaMemcpyHostToDevice, s->cu) == cudaSuccess);
    CHECK(cudaMemcpyAsync(got, dev, n, cudaMemcpyDeviceToHost, s->cu) == cudaSuccess);
    CHECK_OK(jet_stream_add_callback(s, cb_append, &args[i]));
  }
  CHECK_ST(jet_stream_add_callback(s, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_MSG(atomic_load(&log.n) == CB_COUNT, "%d callbacks ran", atomic_load(&log.n));
  for (int i = 0; i < CB_COUNT; i++) {
    CHECK_MSG(log.order[i] == i, "position %d holds callback %d", i, log.order[i]);
    CHECK_MSG(log.data_ok[i], "callback %d ran before its copy landed", i);
  }
  CHECK(cudaFree(dev) == cudaSuccess);
  for (int i = 0; i < CB_COUNT; i++) CHECK(cudaFreeHost(src[i]) == cudaSuccess);
  CHECK(cudaFreeHost(got) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_stream_query_not_ready_while_callback_blocks) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream created, per_thread;
  CHECK_OK(jet_stream_create(ctx, NULL, &created));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &per_thread));
  jet_stream streams[2] = {created, per_thread};
  for (int k = 0; k < 2; k++) {
    jet_stream s = streams[k];
    CHECK_OK(jet_stream_query(s)); /* idle */
    jts_gate g;
    jts_gate_init(&g);
    CHECK_OK(jet_stream_add_callback(s, jts_gate_wait, &g));
    int entered = jts_wait_flag(&g.entered, 10.0);
    jet_clear_error();
    jet_status q1 = jet_stream_query(s);
    jet_status detail = jet_last_error()->status;
    jet_status q2 = jet_stream_query(s);
    jts_gate_open(&g);
    CHECK_MSG(entered, "the gate callback never started");
    CHECK_MSG(q1 == JET_STATUS_NOT_READY && q2 == JET_STATUS_NOT_READY, "query gave %s, %s",
              jet_status_name(q1), jet_status_name(q2));
    CHECK_MSG(detail == JET_STATUS_OK, "NOT_READY was recorded as a failure");
    CHECK(cudaPeekAtLastError() == cudaSuccess);
    CHECK_OK(jet_stream_synchronize(s));
    CHECK_OK(jet_stream_query(s));
    CHECK(!atomic_load(&g.timed_out));
  }
  CHECK_OK(jet_stream_destroy(created));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_stream_wait_event_orders_two_streams) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc d = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream a, b;
  CHECK_OK(jet_stream_create(ctx, &d, &a));
  CHECK_OK(jet_stream_create(ctx, &d, &b));
  jet_event e;
  CHECK_OK(jet_event_create(ctx, 0, &e));
  const size_t n = 64u << 20;
  unsigned char *src = NULL, *out = NULL, *dx = NULL, *dy = NULL;
  CHECK(cudaMallocHost((void **)&src, n) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&out, n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dx, n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dy, n) == cudaSuccess);
  jt_fill_random(src, n);
  const unsigned char poison = (unsigned char)(0x11 + jt_rand() % 0xe0);
  memset(out, poison, n);
  CHECK(cudaMemset(dx, poison ^ 0xff, n) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  /* A is held at a gate, then copies; B waits for A's event, then copies on. */
  jts_gate g;
  jts_gate_init(&g);
  CHECK_OK(jet_stream_add_callback(a, jts_gate_wait, &g));
  CHECK(cudaMemcpyAsync(dx, src, n, cudaMemcpyHostToDevice, a->cu) == cudaSuccess);
  CHECK_OK(jet_event_record(e, a));
  CHECK_OK(jet_stream_wait_event(b, e));
  CHECK(cudaMemcpyAsync(dy, dx, n, cudaMemcpyDeviceToDevice, b->cu) == cudaSuccess);
  CHECK(cudaMemcpyAsync(out, dy, n, cudaMemcpyDeviceToHost, b->cu) == cudaSuccess);

  int entered = jts_wait_flag(&g.entered, 10.0);
  jts_sleep_us(20000); /* give B every chance to run early if the wait did not hold */
  jet_status qa = jet_stream_query(a), qb = jet_stream_query(b), qe = jet_event_query(e);
  int untouched = out[0] == poison && out[n / 2] == poison && out[n - 1] == poison;
  jts_gate_open(&g);
  CHECK_MSG(entered, "the gate callback never started");
  CHECK(qa == JET_STATUS_NOT_READY && qb == JET_STATUS_NOT_READY && qe == JET_STATUS_NOT_READY);
  CHECK_MSG(untouched, "stream B copied before A's event completed");
  CHECK_OK(jet_stream_synchronize(b));
  CHECK_OK(jet_event_query(e));
  CHECK(!atomic_load(&g.timed_out));
  CHECK(memcmp(src, out, n) == 0);

  CHECK(cudaFree(dx) == cudaSuccess && cudaFree(dy) == cudaSuccess);
  CHECK(cudaFreeHost(src) == cudaSuccess && cudaFreeHost(out) == cudaSuccess);
  CHECK_OK(jet_event_destroy(e));
  CHECK_OK(jet_stream_destroy(a));
  CHECK_OK(jet_stream_destroy(b));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_stream_destroyed_handle) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_event e;
  CHECK_OK(jet_event_create(ctx, 0, &e));
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_ST(jet_stream_destroy(s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_add_callback(s, noop_cb, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_wait_event(s, e), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_query(s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_synchronize(s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_record(e, s), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_begin_capture(s, JET_CAPTURE_GLOBAL), JET_STATUS_INVALID_HANDLE);
  jet_capture_status cs;
  CHECK_ST(jet_stream_is_capturing(s, &cs), JET_STATUS_INVALID_HANDLE);
  jet_graph g;
  CHECK_ST(jet_stream_end_capture(s, &g), JET_STATUS_INVALID_HANDLE);
  /* a destroyed context's default stream is dead too */
  jet_context other;
  CHECK_OK(jt_context(&other, 0));
  jet_stream legacy;
  CHECK_OK(jet_context_default_stream(other, JET_STREAM_LEGACY, &legacy));
  CHECK_OK(jet_context_destroy(other));
  CHECK_ST(jet_stream_query(legacy), JET_STATUS_INVALID_HANDLE);
  /* a live handle of another type is not a stream */
  CHECK_ST(jet_stream_query((jet_stream)(void *)e), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_destroy((jet_stream)(void *)ctx), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_event_destroy(e));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_stream_wrong_context) {
  REQUIRE_GPU();
  jet_context a, b;
  CHECK_OK(jt_context(&a, 0));
  CHECK_OK(jt_context(&b, 0));
  jet_stream sa, lb;
  CHECK_OK(jet_stream_create(a, NULL, &sa));
  CHECK_OK(jet_context_default_stream(b, JET_STREAM_LEGACY, &lb));
  jet_event ea, eb;
  CHECK_OK(jet_event_create(a, 0, &ea));
  CHECK_OK(jet_event_create(b, 0, &eb));
  CHECK_ST(jet_stream_wait_event(sa, eb), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_stream_wait_event(lb, ea), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_event_record(eb, sa), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_event_record(ea, lb), JET_STATUS_WRONG_CONTEXT);
  /* the same pairs within one context work */
  CHECK_OK(jet_event_record(ea, sa));
  CHECK_OK(jet_stream_wait_event(sa, ea));
  CHECK_OK(jet_stream_synchronize(sa));
  CHECK_OK(jet_event_destroy(ea));
  CHECK_OK(jet_event_destroy(eb));
  CHECK_OK(jet_stream_destroy(sa));
  CHECK_OK(jet_context_destroy(a));
  CHECK_OK(jet_context_destroy(b));
  return 0;
}

/* jet_stream_set_programmatic / _get on fake contexts: refusals before any
 * CUDA call, SM 9.0 and newer only, the flag per stream. */
TEST(badarg_stream_programmatic) {
  struct jet_context_s hopper, orin;
  CHECK(jt_fake_context(&hopper, "desktop") && jt_fake_context(&orin, "orin"));
  orin.info.cc_major = 8;
  orin.info.cc_minor = 7;
  jet_stream hs, os;
  CHECK_OK(jet_context_default_stream(&hopper, JET_STREAM_PER_THREAD, &hs));
  CHECK_OK(jet_context_default_stream(&orin, JET_STREAM_PER_THREAD, &os));
  int on = -1;
  CHECK_ST(jet_stream_set_programmatic(NULL, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_get_programmatic(NULL, &on), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_get_programmatic(hs, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_set_programmatic(hs, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_set_programmatic(hs, -1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_stream_get_programmatic(hs, &on));
  CHECK(on == 0);
  CHECK_OK(jet_stream_set_programmatic(hs, 1));
  CHECK_OK(jet_stream_get_programmatic(hs, &on));
  CHECK(on == 1);
  /* below SM 9.0: refused, the flag left off; turning it off is fine */
  CHECK_ST(jet_stream_set_programmatic(os, 1), JET_STATUS_UNSUPPORTED);
  CHECK(strstr(jet_last_error()->message, "9.0") != NULL);
  CHECK_OK(jet_stream_get_programmatic(os, &on));
  CHECK(on == 0);
  CHECK_OK(jet_stream_set_programmatic(os, 0));
  /* the other stream of the first context is untouched */
  jet_stream legacy;
  CHECK_OK(jet_context_default_stream(&hopper, JET_STREAM_LEGACY, &legacy));
  CHECK_OK(jet_stream_get_programmatic(legacy, &on));
  CHECK(on == 0);
  CHECK_OK(jet_stream_set_programmatic(hs, 0));
  CHECK_OK(jet_stream_get_programmatic(hs, &on));
  CHECK(on == 0);
  jt_fake_context_done(&hopper);
  jt_fake_context_done(&orin);
  return 0;
}

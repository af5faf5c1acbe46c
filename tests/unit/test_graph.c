/* Graphs by stream capture: capture, replay, in-place update, refusals, leaks. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "test_stream_util.h"

TEST(badarg_graph_null_handles) {
  int bogus[16] = {0};
  jet_graph g = (jet_graph)(uintptr_t)0x1;
  jet_graph_exec x = (jet_graph_exec)(uintptr_t)0x1;
  jet_capture_status cs;
  CHECK_ST(jet_stream_begin_capture(NULL, JET_CAPTURE_GLOBAL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_begin_capture((jet_stream)bogus, JET_CAPTURE_RELAXED),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_end_capture(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_end_capture(NULL, &g), JET_STATUS_INVALID_HANDLE);
  CHECK(g == NULL);
  CHECK_ST(jet_stream_end_capture((jet_stream)bogus, &g), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_is_capturing(NULL, &cs), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_is_capturing((jet_stream)bogus, &cs), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_graph_destroy(NULL));
  CHECK_ST(jet_graph_destroy((jet_graph)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_instantiate(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_instantiate(NULL, &x), JET_STATUS_INVALID_HANDLE);
  CHECK(x == NULL);
  CHECK_ST(jet_graph_instantiate((jet_graph)bogus, &x), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_launch(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_launch((jet_graph_exec)bogus, (jet_stream)bogus),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_update(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_update((jet_graph_exec)bogus, (jet_graph)bogus),
           JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_graph_exec_destroy(NULL));
  CHECK_ST(jet_graph_exec_destroy((jet_graph_exec)bogus), JET_STATUS_INVALID_HANDLE);
  return 0;
}

/* A frame pipeline: upload in, fill b with a value, copy a into the middle of
 * b, optionally stamp b's first bytes (a different topology), download b, and
 * count the launch in a host node. */
typedef struct frame {
  size_t n;
  unsigned char *in, *out; /* pinned host: in is n bytes, out 2n */
  unsigned char *da, *db;  /* device: a is n bytes, b 2n */
  atomic_int host_calls;
} frame;

#define STAMP 16

static void count_launch(void *user) {
  frame *f = user;
  atomic_fetch_add(&f->host_calls, 1);
}

static int frame_init(frame *f, size_t n) {
  memset(f, 0, sizeof *f);
  f->n = n;
  atomic_init(&f->host_calls, 0);
  CHECK(cudaMallocHost((void **)&f->in, n) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&f->out, 2 * n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&f->da, n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&f->db, 2 * n) == cudaSuccess);
  return 0;
}

static int frame_free(frame *f) {
  CHECK(cudaFree(f->da) == cudaSuccess && cudaFree(f->db) == cudaSuccess);
  CHECK(cudaFreeHost(f->in) == cudaSuccess && cudaFreeHost(f->out) == cudaSuccess);
  return 0;
}

static int capture_frame(jet_stream s, jet_capture_mode mode, frame *f, int value, int stamp,
                         jet_graph *g) {
  size_t n = f->n;
  CHECK_OK(jet_stream_begin_capture(s, mode));
  jet_capture_status cs = JET_CAPTURE_NONE;
  CHECK_OK(jet_stream_is_capturing(s, &cs));
  CHECK(cs == JET_CAPTURE_ACTIVE);
  CHECK(cudaMemcpyAsync(f->da, f->in, n, cudaMemcpyHostToDevice, s->cu) == cudaSuccess);
  CHECK(cudaMemsetAsync(f->db, value, 2 * n, s->cu) == cudaSuccess);
  CHECK(cudaMemcpyAsync(f->db + n / 2, f->da, n, cudaMemcpyDeviceToDevice, s->cu) == cudaSuccess);
  if (stamp >= 0) CHECK(cudaMemsetAsync(f->db, stamp, STAMP, s->cu) == cudaSuccess);
  CHECK(cudaMemcpyAsync(f->out, f->db, 2 * n, cudaMemcpyDeviceToHost, s->cu) == cudaSuccess);
  CHECK_OK(jet_stream_add_callback(s, count_launch, f));
  CHECK_OK(jet_stream_end_capture(s, g));
  CHECK_OK(jet_stream_is_capturing(s, &cs));
  CHECK(cs == JET_CAPTURE_NONE);
  return 0;
}

/* Fresh input, poisoned output, one launch, full check against the CPU. */
static int launch_and_check(jet_graph_exec x, jet_stream s, frame *f, int value, int stamp) {
  size_t n = f->n;
  jt_fill_random(f->in, n);
  memset(f->out, value ^ 0xff, 2 * n);
  int before = atomic_load(&f->host_calls);
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_MSG(atomic_load(&f->host_calls) == before + 1, "host node ran %d times",
            atomic_load(&f->host_calls) - before);
  for (size_t i = 0; i < 2 * n; i++) {
    unsigned char want = (unsigned char)value;
    if (i >= n / 2 && i < n / 2 + n) want = f->in[i - n / 2];
    if (stamp >= 0 && i < STAMP) want = (unsigned char)stamp;
    CHECK_MSG(f->out[i] == want, "byte %zu is %u, expected %u", i, f->out[i], want);
  }
  return 0;
}

static int pick_value(int avoid1, int avoid2) {
  int v;
  do v = 1 + (int)(jt_rand() % 254);
  while (v == avoid1 || v == avoid2);
  return v;
}

TEST(gpu_graph_capture_replay_and_update_in_place) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc d = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream s, per_thread, legacy;
  CHECK_OK(jet_stream_create(ctx, &d, &s));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &per_thread));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &legacy));
  frame f;
  if (frame_init(&f, 1u << 20)) return 1;

  int v1 = pick_value(-1, -1), v2 = pick_value(v1, -1), v3 = pick_value(v1, v2);
  jet_graph g1;
  if (capture_frame(s, JET_CAPTURE_THREAD_LOCAL, &f, v1, -1, &g1)) return 1;
  CHECK(atomic_load(&f.host_calls) == 0); /* captured, not run */
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g1, &x));
  CHECK_OK(jet_graph_destroy(g1)); /* the executable graph does not need it */
  for (int k = 0; k < 5; k++)
    if (launch_and_check(x, s, &f, v1, -1)) return 1;
  /* any stream of the context can launch it */
  if (launch_and_check(x, per_thread, &f, v1, -1)) return 1;
  if (launch_and_check(x, legacy, &f, v1, -1)) return 1;

  /* same shape, new memset value: updated in place */
  jet_graph g2;
  if (capture_frame(s, JET_CAPTURE_GLOBAL, &f, v2, -1, &g2)) return 1;
  CHECK_OK(jet_graph_exec_update(x, g2));
  CHECK_OK(jet_graph_destroy(g2));
  for (int k = 0; k < 3; k++)
    if (launch_and_check(x, s, &f, v2, -1)) return 1;

  /* another shape: refused, and x still runs its previous work */
  jet_graph g3;
  if (capture_frame(s, JET_CAPTURE_RELAXED, &f, v2, v3, &g3)) return 1;
  CHECK_ST(jet_graph_exec_update(x, g3), JET_STATUS_GRAPH_UPDATE_FAILED);
  const jet_error_info *err = jet_last_error();
  CHECK_MSG(strstr(err->message, "opology") != NULL, "message: %s", err->message);
  CHECK(strcmp(err->native_call, "cudaGraphExecUpdate") == 0);
  CHECK(err->hint[0] != '\0');
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  for (int k = 0; k < 3; k++)
    if (launch_and_check(x, s, &f, v2, -1)) return 1;
  /* the new shape instantiated on its own */
  jet_graph_exec x3;
  CHECK_OK(jet_graph_instantiate(g3, &x3));
  if (launch_and_check(x3, s, &f, v2, v3)) return 1;
  if (launch_and_check(x, s, &f, v2, -1)) return 1;

  CHECK_ST(jet_context_destroy(ctx), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_graph_exec_destroy(x3));
  CHECK_OK(jet_graph_destroy(g3));
  CHECK_OK(jet_graph_exec_destroy(x));
  if (frame_free(&f)) return 1;
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_graph_capture_states_and_refusals) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc d = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream s, per_thread, legacy;
  CHECK_OK(jet_stream_create(ctx, &d, &s));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &per_thread));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &legacy));
  unsigned char *dev = NULL;
  CHECK(cudaMalloc((void **)&dev, 4096) == cudaSuccess);
  jet_graph g = NULL;
  jet_capture_status cs = JET_CAPTURE_ACTIVE;

  CHECK_ST(jet_stream_begin_capture(s, (jet_capture_mode)3), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_begin_capture(s, (jet_capture_mode)-1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_stream_is_capturing(s, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_stream_is_capturing(s, &cs));
  CHECK(cs == JET_CAPTURE_NONE);
  CHECK_ST(jet_stream_end_capture(s, &g), JET_STATUS_INVALID_STATE);
  CHECK(g == NULL);

  /* the legacy stream cannot be captured; CUDA's refusal is translated */
  CHECK_ST(jet_stream_begin_capture(legacy, JET_CAPTURE_GLOBAL), JET_STATUS_UNSUPPORTED);
  CHECK(jet_last_error()->hint[0] != '\0');
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK_OK(jet_stream_is_capturing(legacy, &cs));
  CHECK(cs == JET_CAPTURE_NONE);

  /* during a capture: no second begin, no query, no sync, no destroy; the
   * capture survives every refusal */
  const jet_capture_mode modes[3] = {JET_CAPTURE_GLOBAL, JET_CAPTURE_THREAD_LOCAL,
                                     JET_CAPTURE_RELAXED};
  jet_stream targets[2] = {s, per_thread};
  for (int t = 0; t < 2; t++)
    for (int m = 0; m < 3; m++) {
      jet_stream c = targets[t];
      CHECK_OK(jet_stream_begin_capture(c, modes[m]));
      CHECK_ST(jet_stream_begin_capture(c, modes[m]), JET_STATUS_INVALID_STATE);
      CHECK_ST(jet_stream_query(c), JET_STATUS_INVALID_STATE);
      CHECK_ST(jet_stream_synchronize(c), JET_STATUS_INVALID_STATE);
      if (c == s) CHECK_ST(jet_stream_destroy(c), JET_STATUS_INVALID_STATE);
      CHECK(cudaMemsetAsync(dev, 0x5c, 4096, c->cu) == cudaSuccess);
      CHECK_OK(jet_stream_is_capturing(c, &cs));
      CHECK(cs == JET_CAPTURE_ACTIVE);
      CHECK_ST(jet_stream_end_capture(c, NULL), JET_STATUS_INVALID_ARGUMENT);
      CHECK_OK(jet_stream_end_capture(c, &g));
      CHECK(g != NULL);
      CHECK_OK(jet_graph_destroy(g));
      g = NULL;
    }

  /* an illegal call invalidates a capture: end reports it and ends it */
  CHECK_OK(jet_stream_begin_capture(s, JET_CAPTURE_GLOBAL));
  CHECK(cudaStreamSynchronize(s->cu) != cudaSuccess);
  (void)cudaGetLastError();
  CHECK_OK(jet_stream_is_capturing(s, &cs));
  CHECK(cs == JET_CAPTURE_INVALIDATED);
  CHECK_ST(jet_stream_query(s), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_stream_end_capture(s, &g), JET_STATUS_INVALID_STATE);
  CHECK(g == NULL && jet_last_error()->hint[0] != '\0');
  CHECK_OK(jet_stream_is_capturing(s, &cs));
  CHECK(cs == JET_CAPTURE_NONE);
  /* and the stream works again */
  CHECK_OK(jet_stream_query(s));
  CHECK_OK(jet_stream_synchronize(s));

  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_graph_destroyed_and_wrong_context) {
  REQUIRE_GPU();
  jet_context a, b;
  CHECK_OK(jt_context(&a, 0));
  CHECK_OK(jt_context(&b, 0));
  jet_stream sa, sb;
  CHECK_OK(jet_stream_create(a, NULL, &sa));
  CHECK_OK(jet_stream_create(b, NULL, &sb));
  unsigned char *dev = NULL;
  CHECK(cudaMalloc((void **)&dev, 4096) == cudaSuccess);
  jet_graph ga, gb;
  CHECK_OK(jet_stream_begin_capture(sa, JET_CAPTURE_THREAD_LOCAL));
  CHECK(cudaMemsetAsync(dev, 1, 4096, sa->cu) == cudaSuccess);
  CHECK_OK(jet_stream_end_capture(sa, &ga));
  CHECK_OK(jet_stream_begin_capture(sb, JET_CAPTURE_THREAD_LOCAL));
  CHECK(cudaMemsetAsync(dev, 2, 4096, sb->cu) == cudaSuccess);
  CHECK_OK(jet_stream_end_capture(sb, &gb));
  jet_graph_exec xa;
  CHECK_OK(jet_graph_instantiate(ga, &xa));

  CHECK_ST(jet_graph_exec_launch(xa, sb), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_graph_exec_update(xa, gb), JET_STATUS_WRONG_CONTEXT);
  CHECK_OK(jet_graph_exec_launch(xa, sa));
  CHECK_OK(jet_graph_exec_update(xa, ga));
  CHECK_OK(jet_stream_synchronize(sa));

  /* destroyed handles */
  CHECK_OK(jet_graph_destroy(gb));
  CHECK_ST(jet_graph_destroy(gb), JET_STATUS_INVALID_HANDLE);
  jet_graph_exec x2 = (jet_graph_exec)(uintptr_t)0x1;
  CHECK_ST(jet_graph_instantiate(gb, &x2), JET_STATUS_INVALID_HANDLE);
  CHECK(x2 == NULL);
  CHECK_ST(jet_graph_exec_update(xa, gb), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_instantiate(ga, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_exec_destroy(xa));
  CHECK_ST(jet_graph_exec_destroy(xa), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_launch(xa, sa), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_update(xa, ga), JET_STATUS_INVALID_HANDLE);
  /* a live handle of another type */
  CHECK_ST(jet_graph_exec_launch((jet_graph_exec)(void *)ga, sa), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_destroy((jet_graph)(void *)sa), JET_STATUS_INVALID_HANDLE);

  CHECK_OK(jet_graph_destroy(ga));
  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(sa));
  CHECK_OK(jet_stream_destroy(sb));
  CHECK_OK(jet_context_destroy(a));
  CHECK_OK(jet_context_destroy(b));
  return 0;
}

/* 10000 events, streams, graphs and executable graphs created and destroyed:
 * the process must not grow. The first rounds warm up CUDA's own pools. */
TEST(gpu_stream_event_graph_no_leak) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream work;
  CHECK_OK(jet_stream_create(ctx, NULL, &work));
  unsigned char *dev = NULL;
  CHECK(cudaMalloc((void **)&dev, 4096) == cudaSuccess);
  const int warm = 500, rounds = 10000;
  size_t base = 0;
  double t0 = jts_now();
  for (int i = 0; i < warm + rounds; i++) {
    if (i == warm) base = jts_rss_bytes();
    jet_event e;
    CHECK_OK(jet_event_create(ctx, (i & 1) ? JET_EVENT_TIMING : JET_EVENT_BLOCKING_SYNC, &e));
    jet_stream_desc d = {(i & 2) ? JET_STREAM_NON_BLOCKING : 0u, 0};
    jet_stream s;
    CHECK_OK(jet_stream_create(ctx, &d, &s));
    CHECK_OK(jet_event_record(e, s));
    CHECK_OK(jet_stream_wait_event(work, e));
    jet_graph g;
    CHECK_OK(jet_stream_begin_capture(s, JET_CAPTURE_THREAD_LOCAL));
    CHECK(cudaMemsetAsync(dev, i & 0xff, 4096, s->cu) == cudaSuccess);
    CHECK_OK(jet_stream_end_capture(s, &g));
    jet_graph_exec x;
    CHECK_OK(jet_graph_instantiate(g, &x));
    CHECK_OK(jet_graph_destroy(g));
    if (i % 64 == 0) CHECK_OK(jet_graph_exec_launch(x, s));
    CHECK_OK(jet_graph_exec_destroy(x));
    CHECK_OK(jet_stream_destroy(s));
    CHECK_OK(jet_event_destroy(e));
    if (i % 1000 == 0) CHECK_OK(jet_stream_synchronize(work));
  }
  CHECK_OK(jet_stream_synchronize(work));
  size_t end = jts_rss_bytes();
  CHECK(base > 0 && end > 0);
  double grew_mib = ((double)end - (double)base) / (1024.0 * 1024.0);
  fprintf(stderr, "%d rounds in %.1f s; RSS %zu -> %zu bytes (%+.2f MiB)\n", rounds,
          jts_now() - t0, base, end, grew_mib);
  CHECK_MSG(grew_mib < 4.0, "RSS grew %.2f MiB over %d rounds", grew_mib, rounds);
  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(work));
  CHECK_OK(jet_context_destroy(ctx)); /* every handle was released */
  return 0;
}

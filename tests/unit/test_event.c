/* Events: argument checks, timing, blocking sync, interprocess sharing. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "internal.h"
#include "test_stream_util.h"

extern char **environ;

TEST(badarg_event_flags_and_null_handles) {
  int bogus[16] = {0};
  jet_event e = (jet_event)(uintptr_t)0x1;
  CHECK(sizeof(jet_ipc_event_handle) == 64);
  /* the wrong combination is refused before the context is looked at, so
   * before any CUDA call */
  CHECK_ST(jet_event_create(NULL, JET_EVENT_INTERPROCESS | JET_EVENT_TIMING, &e),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(e == NULL);
  CHECK(strstr(jet_last_error()->message, "cudaEventDisableTiming") != NULL);
  CHECK_ST(jet_event_create((jet_context)bogus,
                            JET_EVENT_INTERPROCESS | JET_EVENT_TIMING | JET_EVENT_BLOCKING_SYNC, &e),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_event_create(NULL, 1u << 6, &e), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "0x40") != NULL);
  CHECK_ST(jet_event_create(NULL, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_event_create(NULL, JET_EVENT_TIMING, &e), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_create((jet_context)bogus, JET_EVENT_INTERPROCESS, &e),
           JET_STATUS_INVALID_HANDLE);
  CHECK(e == NULL);

  CHECK_OK(jet_event_destroy(NULL));
  CHECK_ST(jet_event_destroy((jet_event)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_record(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_record((jet_event)bogus, (jet_stream)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_query(NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_synchronize((jet_event)bogus), JET_STATUS_INVALID_HANDLE);
  float ms;
  CHECK_ST(jet_event_elapsed_ms(NULL, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_event_elapsed_ms(NULL, NULL, &ms), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_elapsed_ms((jet_event)bogus, (jet_event)bogus, &ms), JET_STATUS_INVALID_HANDLE);

  jet_ipc_event_handle h;
  memset(&h, 0, sizeof h);
  CHECK_ST(jet_event_ipc_export(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_event_ipc_export(NULL, &h), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_ipc_export((jet_event)bogus, &h), JET_STATUS_INVALID_HANDLE);
  e = (jet_event)(uintptr_t)0x1;
  CHECK_ST(jet_event_ipc_import(NULL, &h, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_event_ipc_import(NULL, NULL, &e), JET_STATUS_INVALID_ARGUMENT);
  CHECK(e == NULL);
  CHECK_ST(jet_event_ipc_import(NULL, &h, &e), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_ipc_import((jet_context)bogus, &h, &e), JET_STATUS_INVALID_HANDLE);
  return 0;
}

TEST(gpu_event_never_recorded_is_complete) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  const unsigned flag_set[4] = {0, JET_EVENT_TIMING, JET_EVENT_BLOCKING_SYNC,
                                JET_EVENT_TIMING | JET_EVENT_BLOCKING_SYNC};
  for (int k = 0; k < 4; k++) {
    jet_event e;
    CHECK_OK(jet_event_create(ctx, flag_set[k], &e));
    CHECK_OK(jet_event_query(e));
    CHECK_OK(jet_event_synchronize(e));
    CHECK_ST(jet_context_destroy(ctx), JET_STATUS_INVALID_STATE);
    CHECK_OK(jet_event_destroy(e));
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_event_timing_of_a_big_copy) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc d = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, &d, &s));
  jet_event start, end, plain;
  CHECK_OK(jet_event_create(ctx, JET_EVENT_TIMING, &start));
  CHECK_OK(jet_event_create(ctx, JET_EVENT_TIMING, &end));
  CHECK_OK(jet_event_create(ctx, 0, &plain));
  float ms = -1.0f;
  /* never recorded: an error, not a number */
  CHECK(jet_event_elapsed_ms(start, end, &ms) != JET_STATUS_OK);
  CHECK(ms == -1.0f);

  const size_t n = 64u << 20;
  unsigned char *src = NULL, *back = NULL, *dev = NULL;
  CHECK(cudaMallocHost((void **)&src, n) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&back, n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dev, n) == cudaSuccess);
  jt_fill_random(src, n);
  memset(back, 0x77, n);
  CHECK_OK(jet_event_record(start, s));
  CHECK(cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, s->cu) == cudaSuccess);
  CHECK_OK(jet_event_record(end, s));
  CHECK_OK(jet_event_record(plain, s));
  CHECK(cudaMemcpyAsync(back, dev, n, cudaMemcpyDeviceToHost, s->cu) == cudaSuccess);
  CHECK_OK(jet_event_synchronize(end));
  CHECK_OK(jet_event_elapsed_ms(start, end, &ms));
  CHECK_MSG(ms > 0.0f && ms < 60000.0f, "a 64 MiB copy took %f ms", (double)ms);
  float back_ms = 1.0f;
  CHECK_OK(jet_event_elapsed_ms(end, start, &back_ms));
  CHECK_MSG(back_ms <= 0.0f, "end to start gave %f ms", (double)back_ms);
  /* both need JET_EVENT_TIMING */
  CHECK_ST(jet_event_elapsed_ms(start, plain, &ms), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "JET_EVENT_TIMING") != NULL);
  CHECK_ST(jet_event_elapsed_ms(plain, end, &ms), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_event_elapsed_ms(start, end, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_stream_synchronize(s));
  CHECK(memcmp(src, back, n) == 0);

  /* end not reached yet: NOT_READY, then a time once it is */
  jts_gate g;
  jts_gate_init(&g);
  CHECK_OK(jet_event_record(start, s));
  CHECK_OK(jet_stream_add_callback(s, jts_gate_wait, &g));
  CHECK_OK(jet_event_record(end, s));
  int entered = jts_wait_flag(&g.entered, 10.0);
  jet_status pending = jet_event_elapsed_ms(start, end, &ms);
  jts_gate_open(&g);
  CHECK(entered);
  CHECK_MSG(pending == JET_STATUS_NOT_READY, "got %s", jet_status_name(pending));
  CHECK_OK(jet_event_synchronize(end));
  CHECK_OK(jet_event_elapsed_ms(start, end, &ms));
  CHECK(ms >= 0.0f);
  CHECK(!atomic_load(&g.timed_out));

  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK(cudaFreeHost(src) == cudaSuccess && cudaFreeHost(back) == cudaSuccess);
  CHECK_OK(jet_event_destroy(start));
  CHECK_OK(jet_event_destroy(end));
  CHECK_OK(jet_event_destroy(plain));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

typedef struct opener {
  jts_gate *gate;
  long delay_us;
} opener;

static void *open_later(void *p) {
  opener *o = p;
  jts_sleep_us(o->delay_us);
  jts_gate_open(o->gate);
  return NULL;
}

TEST(gpu_event_blocking_sync_waits_for_work) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  const size_t n = 16u << 20;
  unsigned char *src = NULL, *back = NULL, *dev = NULL;
  CHECK(cudaMallocHost((void **)&src, n) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&back, n) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dev, n) == cudaSuccess);
  const unsigned flag_set[2] = {JET_EVENT_BLOCKING_SYNC, JET_EVENT_BLOCKING_SYNC | JET_EVENT_TIMING};
  for (int k = 0; k < 2; k++) {
    jet_event e;
    CHECK_OK(jet_event_create(ctx, flag_set[k], &e));
    jt_fill_random(src, n);
    memset(back, 0xc3, n);
    jts_gate g;
    jts_gate_init(&g);
    CHECK_OK(jet_stream_add_callback(s, jts_gate_wait, &g));
    CHECK(cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, s->cu) == cudaSuccess);
    CHECK(cudaMemcpyAsync(back, dev, n, cudaMemcpyDeviceToHost, s->cu) == cudaSuccess);
    CHECK_OK(jet_event_record(e, s));
    int entered = jts_wait_flag(&g.entered, 10.0);
    jet_status q = jet_event_query(e);
    opener o = {&g, 50000};
    pthread_t t;
    int started = pthread_create(&t, NULL, open_later, &o) == 0;
    if (!started) jts_gate_open(&g);
    double t0 = jts_now();
    jet_status st = jet_event_synchronize(e);
    double waited = jts_now() - t0;
    if (started) pthread_join(t, NULL);
    CHECK(started && entered);
    CHECK_MSG(q == JET_STATUS_NOT_READY, "query gave %s", jet_status_name(q));
    CHECK_OK(st);
    CHECK_MSG(waited >= 0.03, "synchronize returned after %f s, before the gate opened", waited);
    CHECK(memcmp(src, back, n) == 0);
    CHECK_OK(jet_event_query(e));
    CHECK(!atomic_load(&g.timed_out));
    CHECK_OK(jet_event_destroy(e));
  }
  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK(cudaFreeHost(src) == cudaSuccess && cudaFreeHost(back) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_event_ipc_refused_by_policy) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_event e = NULL, plain = NULL;
  CHECK_ST(jet_event_create(ctx, JET_EVENT_INTERPROCESS | JET_EVENT_TIMING, &e),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_event_create(ctx, JET_EVENT_TIMING, &plain));
  jet_ipc_event_handle h;
  CHECK_ST(jet_event_ipc_export(plain, &h), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "JET_EVENT_INTERPROCESS") != NULL);
  CHECK_ST(jet_event_ipc_export(plain, NULL), JET_STATUS_INVALID_ARGUMENT);

  int can = ctx->platform.policy.event_ipc_allowed && ctx->info.ipc_event_supported;
  if (can) {
    CHECK_OK(jet_event_create(ctx, JET_EVENT_INTERPROCESS, &e));
    CHECK_OK(jet_event_ipc_export(e, &h));
  } else {
    CHECK_ST(jet_event_create(ctx, JET_EVENT_INTERPROCESS, &e), JET_STATUS_UNSUPPORTED);
    CHECK(jet_last_error()->hint[0] != '\0');
  }
  /* a policy without event IPC refuses every step, with a hint */
  int saved = ctx->platform.policy.event_ipc_allowed;
  ctx->platform.policy.event_ipc_allowed = 0;
  jet_event x = (jet_event)(uintptr_t)0x1;
  CHECK_ST(jet_event_create(ctx, JET_EVENT_INTERPROCESS | JET_EVENT_BLOCKING_SYNC, &x),
           JET_STATUS_UNSUPPORTED);
  CHECK(x == NULL);
  CHECK(jet_last_error()->hint[0] != '\0');
  CHECK(strstr(jet_last_error()->message, ctx->platform.policy.name) != NULL);
  if (e) {
    CHECK_ST(jet_event_ipc_export(e, &h), JET_STATUS_UNSUPPORTED);
    CHECK(jet_last_error()->hint[0] != '\0');
  }
  CHECK_ST(jet_event_ipc_import(ctx, &h, &x), JET_STATUS_UNSUPPORTED);
  CHECK(x == NULL && jet_last_error()->hint[0] != '\0');
  ctx->platform.policy.event_ipc_allowed = saved;

  /* every named policy (Tegra included) allows event IPC */
  static const char *const names[] = {"desktop", "xavier", "orin", "thor"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    jet_context_desc d = {0, 0, names[i]};
    jet_context c;
    CHECK_OK(jet_context_create(&c, &d));
    CHECK(c->platform.policy.event_ipc_allowed);
    jet_event ie = NULL;
    jet_status st = jet_event_create(c, JET_EVENT_INTERPROCESS, &ie);
    CHECK_MSG(st == (c->info.ipc_event_supported ? JET_STATUS_OK : JET_STATUS_UNSUPPORTED),
              "%s: %s", names[i], jet_last_error_string());
    CHECK_OK(jet_event_destroy(ie));
    CHECK_OK(jet_context_destroy(c));
  }

  CHECK_OK(jet_event_destroy(e));
  CHECK_OK(jet_event_destroy(plain));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Interprocess: the parent records an event behind a gate and exports it; a
 * child process (this executable, re-run with JT_IPC_EVENT set) imports it,
 * sees it pending, reports, and waits for it to complete once the parent
 * opens the gate. CUDA does not open a handle in its exporting process, and a
 * forked child may not use the parent's CUDA state, hence exec. */
#define IPC_TEST "gpu_event_ipc_across_processes"

static int hex_decode(const char *hex, unsigned char *out, size_t n) {
  if (strlen(hex) != 2 * n) return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return 0;
    out[i] = (unsigned char)v;
  }
  return 1;
}

static int ipc_child(const char *hex) {
  jet_ipc_event_handle h;
  CHECK(hex_decode(hex, h.bytes, sizeof h.bytes));
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_event e;
  CHECK_OK(jet_event_ipc_import(ctx, &h, &e));
  CHECK_ST(jet_event_query(e), JET_STATUS_NOT_READY);
  printf("pending\n");
  fflush(stdout);
  CHECK_OK(jet_event_synchronize(e));
  CHECK_OK(jet_event_query(e));
  /* the imported event works on this process's streams too */
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  CHECK_OK(jet_stream_wait_event(s, e));
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_event_destroy(e));
  CHECK_OK(jet_context_destroy(ctx));
  printf("done\n");
  fflush(stdout);
  return 0;
}

/* Read a line from @fd within @seconds into @buf; 1 on success. */
static int read_line(int fd, char *buf, size_t cap, double seconds) {
  size_t len = 0;
  double t0 = jts_now();
  while (len + 1 < cap) {
    double left = seconds - (jts_now() - t0);
    if (left <= 0) break;
    struct pollfd p = {fd, POLLIN, 0};
    int r = poll(&p, 1, (int)(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    ssize_t got = read(fd, buf + len, 1);
    if (got <= 0) break;
    if (buf[len] == '\n') {
      buf[len] = '\0';
      return 1;
    }
    len++;
  }
  buf[len] = '\0';
  return 0;
}

/* Wait for @pid up to @seconds, killing it after; its exit status or -1. */
static int reap(pid_t pid, double seconds) {
  double t0 = jts_now();
  int status = 0;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (r < 0) return -1;
    if (jts_now() - t0 > seconds) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    jts_sleep_us(1000);
  }
}

TEST(gpu_event_ipc_across_processes) {
  REQUIRE_GPU();
  const char *child_hex = getenv("JT_IPC_EVENT");
  if (child_hex) return ipc_child(child_hex);

  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  if (!ctx->platform.policy.event_ipc_allowed || !ctx->info.ipc_event_supported) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("event IPC is not available on this device or policy");
  }
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_event e;
  CHECK_OK(jet_event_create(ctx, JET_EVENT_INTERPROCESS | JET_EVENT_BLOCKING_SYNC, &e));
  jts_gate g;
  jts_gate_init(&g);
  CHECK_OK(jet_stream_add_callback(s, jts_gate_wait, &g));
  CHECK_OK(jet_event_record(e, s));
  jet_ipc_event_handle h;
  jet_status exp = jet_event_ipc_export(e, &h);
  if (exp != JET_STATUS_OK) jts_gate_open(&g);
  CHECK_OK(exp);

  char hex[2 * sizeof h.bytes + 1];
  for (size_t i = 0; i < sizeof h.bytes; i++) snprintf(hex + 2 * i, 3, "%02x", h.bytes[i]);
  int fds[2];
  int ok = pipe(fds) == 0;
  pid_t pid = -1;
  if (ok) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    char exe[] = "/proc/self/exe", name[] = IPC_TEST;
    char *argv[] = {exe, name, NULL};
    setenv("JT_IPC_EVENT", hex, 1);
    ok = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ) == 0;
    unsetenv("JT_IPC_EVENT");
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
  }
  char line[64] = "";
  int got_pending = ok && read_line(fds[0], line, sizeof line, 60.0) && strcmp(line, "pending") == 0;
  /* the child saw it pending; it still is here too */
  jet_status here = jet_event_query(e);
  jts_gate_open(&g);
  char line2[64] = "";
  int got_done = got_pending && read_line(fds[0], line2, sizeof line2, 60.0) &&
                 strcmp(line2, "done") == 0;
  int rc = pid > 0 ? reap(pid, 60.0) : -1;
  if (ok) close(fds[0]);
  CHECK_MSG(ok, "could not start the child process");
  CHECK_MSG(got_pending, "child said \"%s\", expected \"pending\"", line);
  CHECK(here == JET_STATUS_NOT_READY);
  CHECK_MSG(got_done, "child said \"%s\", expected \"done\"", line2);
  CHECK_MSG(rc == 0, "child exited with %d", rc);
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_OK(jet_event_query(e));
  CHECK(!atomic_load(&g.timed_out));
  CHECK_OK(jet_event_destroy(e));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_badarg_event_destroyed_and_wrong_context) {
  REQUIRE_GPU();
  jet_context a, b;
  CHECK_OK(jt_context(&a, 0));
  CHECK_OK(jt_context(&b, 0));
  jet_stream sa;
  CHECK_OK(jet_stream_create(a, NULL, &sa));
  jet_event ta, tb, dead;
  CHECK_OK(jet_event_create(a, JET_EVENT_TIMING, &ta));
  CHECK_OK(jet_event_create(b, JET_EVENT_TIMING, &tb));
  CHECK_OK(jet_event_create(a, JET_EVENT_TIMING, &dead));
  CHECK_OK(jet_event_record(ta, sa));
  CHECK_OK(jet_event_record(dead, sa));
  CHECK_OK(jet_stream_synchronize(sa));
  float ms;
  CHECK_ST(jet_event_elapsed_ms(ta, tb, &ms), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_event_elapsed_ms(tb, ta, &ms), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_event_record(tb, sa), JET_STATUS_WRONG_CONTEXT);
  CHECK_OK(jet_event_destroy(dead));
  CHECK_ST(jet_event_destroy(dead), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_record(dead, sa), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_query(dead), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_synchronize(dead), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_elapsed_ms(ta, dead, &ms), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_event_elapsed_ms(dead, ta, &ms), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_stream_wait_event(sa, dead), JET_STATUS_INVALID_HANDLE);
  jet_ipc_event_handle h;
  CHECK_ST(jet_event_ipc_export(dead, &h), JET_STATUS_INVALID_HANDLE);
  /* a live handle of another type is not an event */
  CHECK_ST(jet_event_query((jet_event)(void *)sa), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_event_destroy(ta));
  CHECK_OK(jet_event_destroy(tb));
  CHECK_OK(jet_stream_destroy(sa));
  CHECK_OK(jet_context_destroy(a));
  CHECK_OK(jet_context_destroy(b));
  return 0;
}

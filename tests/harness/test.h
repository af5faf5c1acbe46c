/*
 * Minimal test harness. A test is `TEST(name) { ... return 0; }` at the start
 * of a line in a tests/unit/ source; CMake finds it and CTest runs it in its own
 * process. Return 0 to pass, 1 to fail, TEST_SKIP (77) to skip.
 * Tests named gpu_* need a CUDA device and must start with REQUIRE_GPU().
 *
 * Tests that need a second process (CUDA must not be used in a forked child
 * once the parent initialised it) define a child role, `CHILD(name) { ... }`
 * at the start of a line; CMake lists roles apart from tests (they are not
 * CTest tests), and jt_spawn_child runs this executable again as
 * `jet-tests --child name FD`, where FD is the socket the role talks over.
 * A role returns 0 on success, like a test; CHECK and friends work in it.
 */
#ifndef JET_TEST_H
#define JET_TEST_H

#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "jetrt.h"

#define TEST_SKIP 77

#define TEST(name) int test_##name(void)
#define CHILD(name) int child_##name(int sock)

#define SKIP(why)                            \
  do {                                       \
    fprintf(stderr, "SKIP: %s\n", why);      \
    return TEST_SKIP;                        \
  } while (0)

#define REQUIRE_GPU()                                             \
  do {                                                            \
    if (!jt_have_gpu()) SKIP("no CUDA device on this machine");   \
  } while (0)

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

#define CHECK_MSG(cond, ...)                                                  \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                           \
      fputc('\n', stderr);                                                    \
      return 1;                                                               \
    }                                                                         \
  } while (0)

/* Expect a status; on mismatch print both names and the error detail. */
#define CHECK_ST(expr, expected)                                                        \
  do {                                                                                  \
    jet_status jt_s_ = (expr);                                                          \
    if (jt_s_ != (expected)) {                                                          \
      fprintf(stderr, "%s:%d: %s\n  returned %s, expected %s\n  detail: %s\n", __FILE__, \
              __LINE__, #expr, jet_status_name(jt_s_), jet_status_name(expected),      \
              jet_last_error_string());                                                 \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

#define CHECK_OK(expr) CHECK_ST(expr, JET_STATUS_OK)

/* 1 when a CUDA device is usable. */
int jt_have_gpu(void);
/* Context on device 0 with @flags; the platform follows JET_PLATFORM. */
jet_status jt_context(jet_context *ctx, unsigned flags);
/* A device report with only integrated and the compute capability set, for
 * host-only tests of policy selection. */
jet_platform_info jt_fake_device(int integrated, int cc_major, int cc_minor);
/* A context registered like a real one but never touching a GPU: an SM 9.0
 * device report with every capability on, and the policy @platform (NULL:
 * auto). For host tests of checks that come before any CUDA call. Returns 1 on
 * success; undo with jt_fake_context_done. */
struct jet_context_s;
int jt_fake_context(struct jet_context_s *c, const char *platform);
void jt_fake_context_done(struct jet_context_s *c);
/* An image of @f, @w x @h registered in @c (a fake context) with its planes
 * at @base onward, addresses that are never touched: for host tests of image
 * checks. Returns 1 on success; undo with jet__handle_unregister(&im->h). */
struct jet_image_s;
int jt_fake_image(struct jet_image_s *im, struct jet_context_s *c, jet_format f, int w, int h,
                  uintptr_t base);
/* ---- second processes (see CHILD above) */

/* A connected pair of Unix-domain SOCK_SEQPACKET sockets (message boundaries
 * kept), both FD_CLOEXEC. Returns 1 on success. */
int jt_socketpair(int sv[2]);
/* Start child role @role of this executable (posix_spawn of /proc/self/exe,
 * environment inherited) with @fd_to_pass inherited as its socket. Returns 1
 * on success, with *@pid set; prints why and returns 0 otherwise. */
int jt_spawn_child(const char *role, int fd_to_pass, pid_t *pid);
/* Wait up to @seconds for @pid, then kill it (SIGKILL). Returns its exit
 * status, or -1 when it was killed or died of a signal (printed). */
int jt_wait_child(pid_t pid, double seconds);
/* Send @n bytes as one message on @sock, with descriptor @fd attached
 * (SCM_RIGHTS) when @fd >= 0. Returns 1 on success; prints why not. */
int jt_send_msg(int sock, const void *data, size_t n, int fd);
/* Receive one message of exactly @n bytes within @seconds. *@fd (may be NULL
 * when none is expected) receives the attached descriptor (FD_CLOEXEC set) or
 * -1. Returns 1 on success; 0 on timeout, end of stream, a message of another
 * size, more than one descriptor, or truncated control data (every received
 * descriptor closed), printing which. */
int jt_recv_msg(int sock, void *data, size_t n, int *fd, double seconds);
/* Open descriptors of this process (entries of /proc/self/fd), or -1. */
int jt_count_fds(void);
/* Print this process's open descriptors and their targets to stderr. */
void jt_print_fds(const char *label);
/* Monotonic seconds. */
double jt_now(void);

/* Fresh random bytes (seeded from time and pid each run, printed once). */
void jt_fill_random(void *dst, size_t n);
uint32_t jt_rand(void);

#endif

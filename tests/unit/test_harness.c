/* The harness's second-process support on the host: a child role started by
 * jt_spawn_child receives a descriptor over the socket pair (SCM_RIGHTS),
 * uses it, and refuses a message it did not expect without leaking its
 * descriptor. */
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

typedef struct echo_reply {
  uint64_t nonce;      /* the parent's nonce, inverted */
  int32_t cloexec;     /* FD_CLOEXEC of the received descriptor (MSG_CMSG_CLOEXEC) */
  int32_t fd_growth;   /* open descriptors after the exchange minus before */
  int32_t refused;     /* 1: the unexpected descriptor was refused */
  int32_t pad;
} echo_reply;

CHILD(harness_echo) {
  int before = jt_count_fds();
  uint64_t nonce = 0;
  int fd = -1;
  CHECK(jt_recv_msg(sock, &nonce, sizeof nonce, &fd, 30.0));
  CHECK_MSG(fd >= 0, "no descriptor came with the message");
  int flags = fcntl(fd, F_GETFD);
  uint64_t inv = ~nonce;
  CHECK(write(fd, &inv, sizeof inv) == (ssize_t)sizeof inv);
  CHECK(close(fd) == 0);
  /* a descriptor where none is expected: refused, and closed here */
  uint64_t again = 0;
  int refused = !jt_recv_msg(sock, &again, sizeof again, NULL, 30.0);
  echo_reply r = {inv, flags >= 0 && (flags & FD_CLOEXEC), jt_count_fds() - before, refused, 0};
  CHECK(jt_send_msg(sock, &r, sizeof r, -1));
  return 0;
}

TEST(harness_child_receives_descriptor) {
  int sv[2], pfd[2];
  CHECK(jt_socketpair(sv));
  CHECK(pipe2(pfd, O_CLOEXEC) == 0);
  pid_t pid;
  int spawned = jt_spawn_child("harness_echo", sv[1], &pid);
  close(sv[1]);
  CHECK(spawned);
  uint64_t nonce = ((uint64_t)jt_rand() << 32) | jt_rand();
  CHECK(jt_send_msg(sv[0], &nonce, sizeof nonce, pfd[1]));
  CHECK(close(pfd[1]) == 0);
  int extra[2];
  CHECK(pipe2(extra, O_CLOEXEC) == 0);
  CHECK(jt_send_msg(sv[0], &nonce, sizeof nonce, extra[0]));
  close(extra[0]);
  close(extra[1]);

  uint64_t echoed = 0;
  struct pollfd p = {pfd[0], POLLIN, 0};
  CHECK_MSG(poll(&p, 1, 30000) == 1, "the child wrote nothing into the passed pipe");
  CHECK(read(pfd[0], &echoed, sizeof echoed) == (ssize_t)sizeof echoed);
  close(pfd[0]);
  echo_reply r;
  memset(&r, 0xa5, sizeof r);
  int got = jt_recv_msg(sv[0], &r, sizeof r, NULL, 30.0);
  close(sv[0]);
  int rc = jt_wait_child(pid, 30.0);
  CHECK_MSG(rc == 0, "child exited with %d", rc);
  CHECK(got);
  CHECK_MSG(echoed == ~nonce, "pipe carried %016llx, expected %016llx",
            (unsigned long long)echoed, (unsigned long long)~nonce);
  CHECK(r.nonce == ~nonce);
  CHECK_MSG(r.cloexec == 1, "received descriptor lacks FD_CLOEXEC");
  CHECK_MSG(r.refused == 1, "a descriptor nobody expected was accepted");
  CHECK_MSG(r.fd_growth == 0, "the child holds %d more descriptors after the exchange",
            r.fd_growth);
  return 0;
}

TEST(harness_recv_refuses_wrong_size_and_times_out) {
  int sv[2];
  CHECK(jt_socketpair(sv));
  int before = jt_count_fds();
  uint32_t small = jt_rand();
  int pfd[2];
  CHECK(pipe2(pfd, O_CLOEXEC) == 0);
  CHECK(jt_send_msg(sv[0], &small, sizeof small, pfd[0]));
  close(pfd[0]);
  close(pfd[1]);
  uint64_t big = 0;
  int fd = 7;
  CHECK(!jt_recv_msg(sv[1], &big, sizeof big, &fd, 5.0));
  CHECK(fd == -1);
  /* the refused message's descriptor was closed, not leaked */
  CHECK_MSG(jt_count_fds() == before, "%d descriptors before, %d after", before, jt_count_fds());
  double t0 = jt_now();
  CHECK(!jt_recv_msg(sv[1], &big, sizeof big, &fd, 0.2));
  CHECK(jt_now() - t0 >= 0.19);
  close(sv[0]);
  CHECK(!jt_recv_msg(sv[1], &big, sizeof big, &fd, 5.0)); /* end of stream */
  close(sv[1]);
  return 0;
}

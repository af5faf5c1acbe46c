#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "internal.h"
#include "../../lib/image/image_internal.h"

int jt_have_gpu(void) {
  int n = 0;
  return jet_device_count(&n) == JET_STATUS_OK && n > 0;
}

jet_status jt_context(jet_context *ctx, unsigned flags) {
  jet_context_desc d = {0, flags, NULL};
  return jet_context_create(ctx, &d);
}

static uint64_t rng_state;

uint32_t jt_rand(void) {
  if (!rng_state) {
    rng_state = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ 0x9e3779b97f4a7c15ULL;
    fprintf(stderr, "random seed %llu\n", (unsigned long long)rng_state);
  }
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

void jt_fill_random(void *dst, size_t n) {
  unsigned char *p = dst;
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)jt_rand();
}

jet_platform_info jt_fake_device(int integrated, int cc_major, int cc_minor) {
  jet_platform_info i;
  memset(&i, 0, sizeof i);
  i.integrated = integrated;
  i.cc_major = cc_major;
  i.cc_minor = cc_minor;
  return i;
}

int jt_fake_context(struct jet_context_s *c, const char *platform) {
  memset(c, 0, sizeof *c);
  jet_platform_info *i = &c->info;
  i->cc_major = 9;
  i->total_memory = (size_t)1 << 30;
  i->can_map_host_memory = 1;
  i->host_register_supported = 1;
  i->managed_memory = 1;
  i->concurrent_managed_access = 1;
  i->unified_addressing = 1;
  return jet__platform_select(i, platform, &c->platform, "test") == JET_STATUS_OK &&
         jet__context_register(c, "test") == JET_STATUS_OK;
}

void jt_fake_context_done(struct jet_context_s *c) { jet__context_unregister(c); }

int jt_fake_image(struct jet_image_s *im, struct jet_context_s *c, jet_format f, int w, int h,
                  uintptr_t base) {
  memset(im, 0, sizeof *im);
  if (jet__image_layout_compute(f, w, h, NULL, JET_IMAGE_PITCH_ALIGN, &im->layout, "test") !=
      JET_STATUS_OK)
    return 0;
  for (int i = 0; i < im->layout.planes; i++) im->plane[i] = (void *)(base + im->layout.plane[i].offset);
  return jet__handle_register(&im->h, JET__H_IMAGE, c, "test") == JET_STATUS_OK;
}

/* ------------------------------------------------------------ second processes */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>

extern char **environ;

double jt_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int jt_socketpair(int sv[2]) {
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
    fprintf(stderr, "socketpair: %s\n", strerror(errno));
    return 0;
  }
  return 1;
}

int jt_spawn_child(const char *role, int fd_to_pass, pid_t *pid) {
  /* The descriptor reaches the child under a fixed number, without
   * FD_CLOEXEC (dup2 clears it), whatever its number and flags here. */
  int target = fd_to_pass == 100 ? 101 : 100;
  char fdarg[16], exe[] = "/proc/self/exe", flag[] = "--child";
  snprintf(fdarg, sizeof fdarg, "%d", target);
  char rolebuf[128];
  snprintf(rolebuf, sizeof rolebuf, "%s", role);
  char *argv[] = {exe, flag, rolebuf, fdarg, NULL};
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0) return 0;
  int rc = posix_spawn_file_actions_adddup2(&fa, fd_to_pass, target);
  if (rc == 0) rc = posix_spawn(pid, "/proc/self/exe", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    fprintf(stderr, "posix_spawn of child role %s: %s\n", role, strerror(rc));
    return 0;
  }
  return 1;
}

int jt_wait_child(pid_t pid, double seconds) {
  double t0 = jt_now();
  int status = 0;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) {
      fprintf(stderr, "waitpid(%d): %s\n", (int)pid, strerror(errno));
      return -1;
    }
    if (jt_now() - t0 > seconds) {
      fprintf(stderr, "child %d still running after %.0f s: killing it\n", (int)pid, seconds);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    struct timespec d = {0, 1000000};
    nanosleep(&d, NULL);
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    fprintf(stderr, "child %d died of signal %d\n", (int)pid, WTERMSIG(status));
  return -1;
}

int jt_send_msg(int sock, const void *data, size_t n, int fd) {
  struct iovec iov = {(void *)(uintptr_t)data, n};
  struct msghdr m;
  memset(&m, 0, sizeof m);
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  union {
    struct cmsghdr align;
    char buf[CMSG_SPACE(sizeof(int))];
  } ctl;
  if (fd >= 0) {
    memset(&ctl, 0, sizeof ctl);
    m.msg_control = ctl.buf;
    m.msg_controllen = sizeof ctl.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
  }
  for (;;) {
    ssize_t w = sendmsg(sock, &m, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      fprintf(stderr, "sendmsg (%zu bytes, fd %d): %s\n", n, fd, strerror(errno));
      return 0;
    }
    if ((size_t)w != n) {
      fprintf(stderr, "sendmsg sent %zd of %zu bytes\n", w, n);
      return 0;
    }
    return 1;
  }
}

int jt_recv_msg(int sock, void *data, size_t n, int *fd, double seconds) {
  if (fd) *fd = -1;
  double t0 = jt_now();
  for (;;) {
    double left = seconds - (jt_now() - t0);
    if (left <= 0) {
      fprintf(stderr, "no message within %.0f s\n", seconds);
      return 0;
    }
    struct pollfd p = {sock, POLLIN, 0};
    int r = poll(&p, 1, (int)(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      fprintf(stderr, "poll: %s\n", strerror(errno));
      return 0;
    }
    if (r > 0) break;
  }
  struct iovec iov = {data, n};
  struct msghdr m;
  memset(&m, 0, sizeof m);
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  union {
    struct cmsghdr align;
    char buf[CMSG_SPACE(4 * sizeof(int))];
  } ctl;
  m.msg_control = ctl.buf;
  m.msg_controllen = sizeof ctl.buf;
  ssize_t got;
  do got = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
  while (got < 0 && errno == EINTR);
  if (got < 0) {
    fprintf(stderr, "recvmsg: %s\n", strerror(errno));
    return 0;
  }
  /* From here every received descriptor is ours: collect them all first. */
  int fds[8], nfd = 0;
  for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < k && nfd < 8; i++)
      memcpy(&fds[nfd++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
  }
  const char *why = NULL;
  if (got == 0) why = "end of stream (the peer closed its socket)";
  else if (m.msg_flags & MSG_CTRUNC) why = "control data truncated (descriptors were dropped)";
  else if ((m.msg_flags & MSG_TRUNC) || (size_t)got != n) why = "message of another size";
  else if (nfd > 1) why = "more than one descriptor";
  else if (nfd == 1 && !fd) why = "a descriptor nobody expected";
  if (why) {
    fprintf(stderr, "received %zd bytes (expected %zu), %d descriptor(s): %s\n", got, n, nfd, why);
    for (int i = 0; i < nfd; i++) close(fds[i]);
    return 0;
  }
  if (fd && nfd == 1) *fd = fds[0];
  return 1;
}

int jt_count_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n - 1; /* the directory's own descriptor */
}

void jt_print_fds(const char *label) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return;
  int self = dirfd(d);
  fprintf(stderr, "%s: open descriptors of pid %d:\n", label, (int)getpid());
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || atoi(e->d_name) == self) continue;
    char path[300], target[PATH_MAX];
    snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
    ssize_t k = readlink(path, target, sizeof target - 1);
    target[k > 0 ? k : 0] = '\0';
    fprintf(stderr, "  %s -> %s\n", e->d_name, target);
  }
  closedir(d);
}

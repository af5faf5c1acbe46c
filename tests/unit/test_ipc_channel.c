/* The Unix-domain-socket channel (jetrt/channel.h) with real sockets in a
 * temporary directory; fork() gives a second process where one is needed.
 * Every test counts the open descriptors before and after. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "channel_internal.h"

/* ------------------------------------------------------------ helpers */

static int count_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n - 1; /* the DIR's own descriptor */
}

/* Which of the descriptors 0..255 are open, as a string of '0'/'1'. */
static void fd_snapshot(char set[257]) {
  for (int i = 0; i < 256; i++) set[i] = fcntl(i, F_GETFD) == -1 && errno == EBADF ? '0' : '1';
  set[256] = '\0';
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct tmpdir {
  char dir[64];
  char path[96]; /* dir/sock */
} tmpdir;

static int tmpdir_make(tmpdir *t) {
  snprintf(t->dir, sizeof t->dir, "/tmp/jt-chan-XXXXXX");
  if (!mkdtemp(t->dir)) return 0;
  snprintf(t->path, sizeof t->path, "%s/sock", t->dir);
  return 1;
}

static void tmpdir_done(tmpdir *t) {
  DIR *d = opendir(t->dir);
  if (d) {
    struct dirent *e;
    char p[512];
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      snprintf(p, sizeof p, "%s/%s", t->dir, e->d_name);
      if (rmdir(p) != 0) unlink(p);
    }
    closedir(d);
  }
  rmdir(t->dir);
}

static void abstract_name(char *buf, size_t cap) {
  snprintf(buf, cap, "@jetrt-test-%d-%08x", (int)getpid(), jt_rand());
}

static jet_channel_desc desc_of(const char *path) {
  jet_channel_desc d;
  memset(&d, 0, sizeof d);
  d.path = path;
  return d;
}

/* listener + connected pair, all in this process */
typedef struct pair {
  jet_channel l, server, client;
} pair;

static jet_status pair_open(pair *p, const char *path) {
  jet_channel_desc d = desc_of(path);
  memset(p, 0, sizeof *p);
  JET__TRY(jet_channel_listen(&d, &p->l));
  JET__TRY(jet_channel_connect(&d, 1000, &p->client));
  return jet_channel_accept(p->l, 1000, &p->server);
}

static void pair_close(pair *p) {
  jet_channel_close(p->client);
  jet_channel_close(p->server);
  jet_channel_close(p->l);
}

static int raw_connect(const char *path) {
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
  int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static void put32le(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put16le(unsigned char *p, unsigned v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}

static void header(unsigned char *h, uint32_t magic, unsigned version, unsigned type,
                   uint32_t payload_len, unsigned nfds, unsigned reserved) {
  put32le(h, magic);
  put16le(h + 4, version);
  put16le(h + 6, type);
  put32le(h + 8, payload_len);
  put16le(h + 12, nfds);
  put16le(h + 14, reserved);
}

/* Send @len bytes as one record with @nfds copies of @fd attached. */
static int raw_send(int sock, const void *buf, size_t len, int fd, int nfds) {
  struct iovec iov = {(void *)buf, len};
  static union {
    struct cmsghdr align;
    unsigned char b[CMSG_SPACE(sizeof(int) * 253)];
  } cbuf;
  struct msghdr mh;
  memset(&mh, 0, sizeof mh);
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  if (nfds > 0) {
    mh.msg_control = cbuf.b;
    mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
    struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
    for (int i = 0; i < nfds; i++) memcpy(CMSG_DATA(cm) + i * sizeof(int), &fd, sizeof fd);
  }
  return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

/* ------------------------------------------------------------ data path */

TEST(ipc_channel_send_recv_payload_and_fds) {
  int fd0 = count_fds();
  tmpdir t;
  CHECK(tmpdir_make(&t));
  pair p;
  CHECK_OK(pair_open(&p, t.path));

  int pipefd[2];
  CHECK(pipe(pipefd) == 0);
  int mfd = memfd_create("jt-channel", MFD_CLOEXEC);
  CHECK(mfd >= 0);
  CHECK(write(mfd, "memfd contents", 14) == 14);

  static unsigned char out[JET_CHANNEL_MAX_PAYLOAD], in[JET_CHANNEL_MAX_PAYLOAD];
  size_t len = 1 + jt_rand() % 4000;
  jt_fill_random(out, len);
  int fds[2] = {pipefd[0], mfd};
  CHECK_OK(jet_channel_send(p.client, 77, out, len, fds, 2, 1000));

  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = in;
  m.capacity = sizeof in;
  CHECK_OK(jet_channel_recv(p.server, 1000, &m));
  CHECK(m.type == 77 && m.len == len && memcmp(in, out, len) == 0);
  CHECK(m.nfds == 2);
  for (int i = 0; i < 2; i++) {
    CHECK(m.fds[i] >= 0 && m.fds[i] != fds[0] && m.fds[i] != fds[1]);
    CHECK_MSG(fcntl(m.fds[i], F_GETFD) & FD_CLOEXEC, "received fd %d is not CLOEXEC", m.fds[i]);
  }
  CHECK(m.fds[2] == -1);
  /* The received pipe end reads what the original write end writes. */
  CHECK(write(pipefd[1], "ping", 4) == 4);
  char b[32] = {0};
  CHECK(read(m.fds[0], b, sizeof b) == 4 && memcmp(b, "ping", 4) == 0);
  CHECK(pread(m.fds[1], b, 14, 0) == 14 && memcmp(b, "memfd contents", 14) == 0);
  jet__fd_kind k;
  char link[128];
  CHECK_OK(jet__fd_kind_of(m.fds[0], &k, link, sizeof link, "test"));
  CHECK_MSG(k == JET__FD_PIPE, "%s (%s)", jet__fd_kind_name(k), link);
  CHECK_OK(jet__fd_kind_of(m.fds[1], &k, link, sizeof link, "test"));
  CHECK_MSG(k == JET__FD_MEMFD, "%s (%s)", jet__fd_kind_name(k), link);
  close(m.fds[0]);
  close(m.fds[1]);

  /* Both directions, empty payload, no descriptors. */
  CHECK_OK(jet_channel_send(p.server, 65535, NULL, 0, NULL, 0, 0));
  CHECK_OK(jet_channel_recv(p.client, 1000, &m));
  CHECK(m.type == 65535 && m.len == 0 && m.nfds == 0);

  /* The limits exactly: 64 KiB payload and 64 descriptors. */
  int many[JET_CHANNEL_MAX_FDS];
  for (int i = 0; i < JET_CHANNEL_MAX_FDS; i++) many[i] = pipefd[1];
  jt_fill_random(out, sizeof out);
  CHECK_OK(jet_channel_send(p.client, 9, out, sizeof out, many, JET_CHANNEL_MAX_FDS, 1000));
  CHECK_OK(jet_channel_recv(p.server, 1000, &m));
  CHECK(m.type == 9 && m.len == sizeof out && memcmp(in, out, sizeof out) == 0);
  CHECK(m.nfds == JET_CHANNEL_MAX_FDS);
  for (int i = 0; i < m.nfds; i++) close(m.fds[i]);

  jet_channel_peer peer;
  CHECK_OK(jet_channel_peer_info(p.server, &peer));
  CHECK(peer.pid == (int)getpid() && peer.uid == (unsigned)geteuid() &&
        peer.gid == (unsigned)getegid());
  CHECK_OK(jet_channel_peer_info(p.client, &peer));
  CHECK(peer.pid == (int)getpid() && peer.uid == (unsigned)geteuid());
  int sfd = -1;
  CHECK_OK(jet_channel_fd(p.server, &sfd));
  CHECK(sfd >= 0 && (fcntl(sfd, F_GETFD) & FD_CLOEXEC));

  close(pipefd[0]);
  close(pipefd[1]);
  close(mfd);
  pair_close(&p);
  tmpdir_done(&t);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_fd_passing_across_processes) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  jet_channel_desc d = desc_of(name);
  jet_channel l, c;
  CHECK_OK(jet_channel_listen(&d, &l));
  pid_t child = fork();
  CHECK(child >= 0);
  if (child == 0) {
    jet_channel_close(l);
    jet_channel ch;
    if (jet_channel_connect(&d, 2000, &ch) != JET_STATUS_OK) _exit(10);
    int mfd = memfd_create("from-child", 0);
    if (mfd < 0 || write(mfd, "hello from the child", 20) != 20) _exit(11);
    if (jet_channel_send(ch, 5, "x", 1, &mfd, 1, 2000) != JET_STATUS_OK) _exit(12);
    close(mfd);
    unsigned char b[8];
    jet_channel_msg m;
    memset(&m, 0, sizeof m);
    m.payload = b;
    m.capacity = sizeof b;
    if (jet_channel_recv(ch, 5000, &m) != JET_STATUS_OK || m.type != 6 || m.len != 2 ||
        memcmp(b, "ok", 2) != 0)
      _exit(13);
    jet_channel_close(ch);
    _exit(0);
  }
  CHECK_OK(jet_channel_accept(l, 5000, &c));
  jet_channel_peer peer;
  CHECK_OK(jet_channel_peer_info(c, &peer));
  CHECK(peer.pid == (int)child);
  unsigned char b[8];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  CHECK_OK(jet_channel_recv(c, 5000, &m));
  CHECK(m.type == 5 && m.len == 1 && m.nfds == 1);
  char text[32] = {0};
  CHECK(pread(m.fds[0], text, 20, 0) == 20 && strcmp(text, "hello from the child") == 0);
  CHECK(fcntl(m.fds[0], F_GETFD) & FD_CLOEXEC);
  close(m.fds[0]);
  CHECK_OK(jet_channel_send(c, 6, "ok", 2, NULL, 0, 1000));
  int status;
  CHECK(waitpid(child, &status, 0) == child);
  CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
  /* It has gone: what it sent was read, so the next receive says so. */
  CHECK_ST(jet_channel_recv(c, 1000, &m), JET_STATUS_DISCONNECTED);
  CHECK(m.nfds == 0);
  CHECK_OK(jet_channel_close(c));
  CHECK_OK(jet_channel_close(l));
  CHECK(count_fds() == fd0);
  return 0;
}

/* ------------------------------------------------------------ timeouts */

TEST(ipc_channel_recv_timeout) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  pair p;
  CHECK_OK(pair_open(&p, name));
  unsigned char b[16];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  int64_t t0 = now_ms();
  CHECK_ST(jet_channel_recv(p.server, 150, &m), JET_STATUS_TIMEOUT);
  int64_t dt = now_ms() - t0;
  CHECK_MSG(dt >= 149 && dt < 2000, "waited %lld ms for a 150 ms timeout", (long long)dt);
  CHECK(strstr(jet_last_error()->message, "150 ms") != NULL);
  t0 = now_ms();
  CHECK_ST(jet_channel_recv(p.server, 0, &m), JET_STATUS_TIMEOUT);
  CHECK(now_ms() - t0 < 100);
  /* A message already there is taken with timeout 0. */
  CHECK_OK(jet_channel_send(p.client, 3, "abc", 3, NULL, 0, 0));
  CHECK_OK(jet_channel_recv(p.server, 0, &m));
  CHECK(m.type == 3 && m.len == 3);
  pair_close(&p);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_accept_timeout) {
  int fd0 = count_fds();
  tmpdir t;
  CHECK(tmpdir_make(&t));
  jet_channel_desc d = desc_of(t.path);
  jet_channel l, c = (jet_channel)1;
  CHECK_OK(jet_channel_listen(&d, &l));
  int64_t t0 = now_ms();
  CHECK_ST(jet_channel_accept(l, 120, &c), JET_STATUS_TIMEOUT);
  int64_t dt = now_ms() - t0;
  CHECK_MSG(dt >= 119 && dt < 2000, "waited %lld ms for a 120 ms timeout", (long long)dt);
  CHECK(c == NULL);
  t0 = now_ms();
  CHECK_ST(jet_channel_accept(l, 0, &c), JET_STATUS_TIMEOUT);
  CHECK(now_ms() - t0 < 100);
  CHECK_OK(jet_channel_close(l));
  tmpdir_done(&t);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_send_timeout_when_peer_does_not_read) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  pair p;
  CHECK_OK(pair_open(&p, name));
  static unsigned char big[JET_CHANNEL_MAX_PAYLOAD];
  int sent = 0;
  jet_status st = JET_STATUS_OK;
  while (sent < 100000 && (st = jet_channel_send(p.client, 1, big, sizeof big, NULL, 0, 0)) ==
                              JET_STATUS_OK)
    sent++;
  CHECK_MSG(st == JET_STATUS_TIMEOUT, "after %d messages: %s", sent, jet_last_error_string());
  int64_t t0 = now_ms();
  CHECK_ST(jet_channel_send(p.client, 1, big, 100, NULL, 0, 100), JET_STATUS_TIMEOUT);
  CHECK(now_ms() - t0 >= 99);
  /* Reading one makes room again. */
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = big;
  m.capacity = sizeof big;
  CHECK_OK(jet_channel_recv(p.server, 0, &m));
  CHECK_OK(jet_channel_send(p.client, 1, big, 100, NULL, 0, 1000));
  pair_close(&p);
  CHECK(count_fds() == fd0);
  return 0;
}

static void on_alarm(int sig) { (void)sig; }

TEST(ipc_channel_wait_survives_signals) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  pair p;
  CHECK_OK(pair_open(&p, name));
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm; /* no SA_RESTART: poll() returns EINTR */
  CHECK(sigaction(SIGALRM, &sa, &old) == 0);
  struct itimerval it = {{0, 20000}, {0, 20000}}; /* every 20 ms */
  CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
  unsigned char b[16];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  int64_t t0 = now_ms();
  jet_status st = jet_channel_recv(p.server, 200, &m);
  int64_t dt = now_ms() - t0;
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  sigaction(SIGALRM, &old, NULL);
  CHECK_ST(st, JET_STATUS_TIMEOUT);
  CHECK_MSG(dt >= 199 && dt < 2000, "waited %lld ms for a 200 ms timeout", (long long)dt);
  pair_close(&p);
  CHECK(count_fds() == fd0);
  return 0;
}

/* ------------------------------------------------------------ disconnection */

TEST(ipc_channel_peer_closed_is_disconnected) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  pair p;
  CHECK_OK(pair_open(&p, name));
  /* What was sent before the close is still delivered, then DISCONNECTED. */
  CHECK_OK(jet_channel_send(p.client, 2, "last", 4, NULL, 0, 0));
  CHECK_OK(jet_channel_close(p.client));
  p.client = NULL;
  unsigned char b[16];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  CHECK_OK(jet_channel_recv(p.server, 1000, &m));
  CHECK(m.type == 2 && m.len == 4);
  CHECK_ST(jet_channel_recv(p.server, 1000, &m), JET_STATUS_DISCONNECTED);
  CHECK_ST(jet_channel_recv(p.server, 0, &m), JET_STATUS_DISCONNECTED);
  /* Sending to a closed peer: DISCONNECTED, and no SIGPIPE (its default
   * action would have killed this test). */
  CHECK(signal(SIGPIPE, SIG_DFL) != SIG_ERR);
  CHECK_ST(jet_channel_send(p.server, 1, "x", 1, NULL, 0, 1000), JET_STATUS_DISCONNECTED);
  CHECK(strcmp(jet_last_error()->native_name, "EPIPE") == 0);
  pair_close(&p);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_killed_peer_is_disconnected) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  jet_channel_desc d = desc_of(name);
  jet_channel l, c;
  CHECK_OK(jet_channel_listen(&d, &l));
  pid_t child = fork();
  CHECK(child >= 0);
  if (child == 0) {
    jet_channel ch;
    if (jet_channel_connect(&d, 2000, &ch) != JET_STATUS_OK) _exit(10);
    for (;;) pause();
  }
  CHECK_OK(jet_channel_accept(l, 5000, &c));
  unsigned char b[16];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  CHECK_ST(jet_channel_recv(c, 0, &m), JET_STATUS_TIMEOUT);
  CHECK(kill(child, SIGKILL) == 0);
  int status;
  CHECK(waitpid(child, &status, 0) == child);
  int64_t t0 = now_ms();
  CHECK_ST(jet_channel_recv(c, 5000, &m), JET_STATUS_DISCONNECTED);
  CHECK(now_ms() - t0 < 1000);
  CHECK_OK(jet_channel_close(c));
  CHECK_OK(jet_channel_close(l));
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_connect_with_nobody_listening) {
  int fd0 = count_fds();
  tmpdir t;
  CHECK(tmpdir_make(&t));
  jet_channel_desc d = desc_of(t.path);
  jet_channel c = (jet_channel)1;
  CHECK_ST(jet_channel_connect(&d, 100, &c), JET_STATUS_DISCONNECTED);
  CHECK(c == NULL && strcmp(jet_last_error()->native_name, "ENOENT") == 0);
  /* A stale socket file: connect() is refused. */
  jet_channel l;
  CHECK_OK(jet_channel_listen(&d, &l));
  char keep[160];
  snprintf(keep, sizeof keep, "%s/keep", t.dir);
  CHECK(link(t.path, keep) == 0); /* survives the listener's unlink */
  CHECK_OK(jet_channel_close(l));
  jet_channel_desc dk = desc_of(keep);
  CHECK_ST(jet_channel_connect(&dk, 100, &c), JET_STATUS_DISCONNECTED);
  CHECK(strcmp(jet_last_error()->native_name, "ECONNREFUSED") == 0);
  char name[64];
  abstract_name(name, sizeof name);
  jet_channel_desc da = desc_of(name);
  CHECK_ST(jet_channel_connect(&da, 0, &c), JET_STATUS_DISCONNECTED);
  tmpdir_done(&t);
  CHECK(count_fds() == fd0);
  return 0;
}

/* ------------------------------------------------------------ malformed records */

TEST(ipc_channel_bad_records_are_protocol_errors_and_leak_no_fd) {
  tmpdir t;
  CHECK(tmpdir_make(&t));
  jet_channel_desc d = desc_of(t.path);
  jet_channel l, c;
  CHECK_OK(jet_channel_listen(&d, &l));
  int raw = raw_connect(t.path);
  CHECK(raw >= 0);
  CHECK_OK(jet_channel_accept(l, 1000, &c));
  int pipefd[2];
  CHECK(pipe(pipefd) == 0);
  int fd0 = count_fds();
  char snap0[257], snap1[257];
  fd_snapshot(snap0);

  static unsigned char rec[16 + JET_CHANNEL_MAX_PAYLOAD + 256], in[1024];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = in;
  m.capacity = sizeof in;

  const uint32_t MAGIC = 0x4354454Au;
  struct {
    const char *what;
    uint32_t magic;
    unsigned version, type;
    uint32_t payload_len; /* in the header */
    unsigned hdr_nfds, reserved;
    size_t send_len;      /* bytes actually sent, header included */
    int send_nfds;
    const char *expect;   /* in the message */
  } cases[] = {
      {"bad magic", 0x11223344u, 1, 1, 4, 2, 0, 20, 2, "magic"},
      {"bad version", MAGIC, 2, 1, 4, 0, 0, 20, 0, "version"},
      {"bad version, fds", MAGIC, 0xffff, 1, 0, 3, 0, 16, 3, "version"},
      {"type 0", MAGIC, 1, 0, 0, 1, 0, 16, 1, "type"},
      {"reserved", MAGIC, 1, 1, 0, 1, 7, 16, 1, "reserved"},
      {"payload_len too big", MAGIC, 1, 1, 100, 1, 0, 20, 1, "payload_len"},
      {"payload_len too small", MAGIC, 1, 1, 2, 0, 0, 20, 0, "payload_len"},
      {"payload_len over limit", MAGIC, 1, 1, 0x7fffffffu, 0, 0, 20, 0, "payload_len"},
      {"nfds says 1, 2 sent", MAGIC, 1, 1, 0, 1, 0, 16, 2, "nfds"},
      {"nfds says 2, none sent", MAGIC, 1, 1, 0, 2, 0, 16, 0, "nfds"},
      {"nfds over limit", MAGIC, 1, 1, 0, 65, 0, 16, 5, "nfds"},
      {"short record with fds", MAGIC, 1, 1, 0, 0, 0, 8, 2, "shorter"},
      {"empty record", MAGIC, 1, 1, 0, 0, 0, 0, 0, "shorter"},
      {"empty record with fds", MAGIC, 1, 1, 0, 0, 0, 0, 2, "shorter"},
      {"oversized record", MAGIC, 1, 1, JET_CHANNEL_MAX_PAYLOAD + 100, 1, 0,
       16 + JET_CHANNEL_MAX_PAYLOAD + 100, 1, "payload_len"},
      {"over capacity", MAGIC, 1, 1, 2000, 1, 0, 16 + 2000, 1, "capacity"},
      {"too many fds", MAGIC, 1, 1, 0, 100, 0, 16, 100, "MSG_CTRUNC"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memset(rec, 0, sizeof rec);
    header(rec, cases[i].magic, cases[i].version, cases[i].type, cases[i].payload_len,
           cases[i].hdr_nfds, cases[i].reserved);
    CHECK_MSG(raw_send(raw, rec, cases[i].send_len, pipefd[0], cases[i].send_nfds) == 0,
              "%s: sendmsg: %s", cases[i].what, strerror(errno));
    jet_status st = jet_channel_recv(c, 1000, &m);
    CHECK_MSG(st == JET_STATUS_PROTOCOL_ERROR, "%s: got %s (%s)", cases[i].what,
              jet_status_name(st), jet_last_error_string());
    CHECK_MSG(strstr(jet_last_error()->message, cases[i].expect) != NULL, "%s: message \"%s\"",
              cases[i].what, jet_last_error()->message);
    CHECK(m.nfds == 0 && m.fds[0] == -1);
    fd_snapshot(snap1);
    CHECK_MSG(strcmp(snap0, snap1) == 0 && count_fds() == fd0,
              "%s: descriptors leaked (%d open, %d before)", cases[i].what, count_fds(), fd0);
  }
  /* The channel goes on: a good record after all that. */
  header(rec, MAGIC, 1, 42, 3, 1, 0);
  memcpy(rec + 16, "end", 3);
  CHECK(raw_send(raw, rec, 19, pipefd[1], 1) == 0);
  CHECK_OK(jet_channel_recv(c, 1000, &m));
  CHECK(m.type == 42 && m.len == 3 && m.nfds == 1 && memcmp(in, "end", 3) == 0);
  close(m.fds[0]);
  CHECK(count_fds() == fd0);

  close(raw);
  close(pipefd[0]);
  close(pipefd[1]);
  CHECK_OK(jet_channel_close(c));
  CHECK_OK(jet_channel_close(l));
  tmpdir_done(&t);
  return 0;
}

TEST(ipc_channel_zero_capacity_takes_only_empty_messages) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  pair p;
  CHECK_OK(pair_open(&p, name));
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  int pipefd[2];
  CHECK(pipe(pipefd) == 0);
  CHECK_OK(jet_channel_send(p.client, 1, NULL, 0, pipefd, 2, 0));
  CHECK_OK(jet_channel_recv(p.server, 1000, &m));
  CHECK(m.len == 0 && m.nfds == 2);
  close(m.fds[0]);
  close(m.fds[1]);
  CHECK_OK(jet_channel_send(p.client, 1, "x", 1, pipefd, 2, 0));
  CHECK_ST(jet_channel_recv(p.server, 1000, &m), JET_STATUS_PROTOCOL_ERROR);
  CHECK(m.nfds == 0);
  close(pipefd[0]);
  close(pipefd[1]);
  pair_close(&p);
  CHECK(count_fds() == fd0);
  return 0;
}

/* ------------------------------------------------------------ the socket file */

TEST(ipc_channel_socket_file_mode_0600) {
  int fd0 = count_fds();
  tmpdir t;
  CHECK(tmpdir_make(&t));
  mode_t old = umask(0); /* the mode must not come from the umask */
  jet_channel_desc d = desc_of(t.path);
  jet_channel l;
  jet_status st = jet_channel_listen(&d, &l);
  umask(old);
  CHECK_OK(st);
  struct stat s;
  CHECK(lstat(t.path, &s) == 0);
  CHECK(S_ISSOCK(s.st_mode));
  CHECK_MSG((s.st_mode & 07777) == 0600, "mode 0%o", (unsigned)(s.st_mode & 07777));
  CHECK_OK(jet_channel_close(l));
  CHECK(lstat(t.path, &s) != 0 && errno == ENOENT); /* removed at close */
  tmpdir_done(&t);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_stale_socket_file_is_replaced) {
  int fd0 = count_fds();
  tmpdir t;
  CHECK(tmpdir_make(&t));
  /* A server that died without removing its file. */
  struct sockaddr_un sa;
  memset(&sa, 0, sizeof sa);
  sa.sun_family = AF_UNIX;
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", t.path);
  int s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
  CHECK(s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(s, 1) == 0);
  close(s);
  struct stat st0, st1;
  CHECK(lstat(t.path, &st0) == 0 && S_ISSOCK(st0.st_mode));
  char old[160];
  snprintf(old, sizeof old, "%s/old", t.dir);
  CHECK(link(t.path, old) == 0); /* keeps the stale inode alive, so its number is not reused */

  pair p;
  CHECK_OK(pair_open(&p, t.path));
  CHECK(lstat(t.path, &st1) == 0 && S_ISSOCK(st1.st_mode));
  CHECK(st1.st_ino != st0.st_ino);
  CHECK_OK(jet_channel_send(p.client, 1, "y", 1, NULL, 0, 0));
  pair_close(&p);
  tmpdir_done(&t);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_live_socket_is_refused) {
  int fd0 = count_fds();
  tmpdir t;
  CHECK(tmpdir_make(&t));
  jet_channel_desc d = desc_of(t.path);
  jet_channel l, l2 = (jet_channel)1;
  CHECK_OK(jet_channel_listen(&d, &l));
  CHECK_ST(jet_channel_listen(&d, &l2), JET_STATUS_INVALID_STATE);
  CHECK(l2 == NULL && strstr(jet_last_error()->message, "in use") != NULL);
  /* The first server is untouched: its file is there and it takes clients. */
  jet_channel c, a;
  CHECK_OK(jet_channel_connect(&d, 1000, &c));
  CHECK_OK(jet_channel_accept(l, 1000, &a));
  jet_channel_close(a);
  jet_channel_close(c);
  /* Abstract names too. */
  char name[64];
  abstract_name(name, sizeof name);
  jet_channel_desc da = desc_of(name);
  jet_channel la;
  CHECK_OK(jet_channel_listen(&da, &la));
  CHECK_ST(jet_channel_listen(&da, &l2), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "in use") != NULL);
  CHECK_OK(jet_channel_close(la));
  CHECK_OK(jet_channel_listen(&da, &la)); /* free again */
  CHECK_OK(jet_channel_close(la));
  CHECK_OK(jet_channel_close(l));
  tmpdir_done(&t);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_non_socket_path_is_left_alone) {
  int fd0 = count_fds();
  tmpdir t;
  CHECK(tmpdir_make(&t));
  int f = open(t.path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  CHECK(f >= 0 && write(f, "data", 4) == 4);
  close(f);
  jet_channel_desc d = desc_of(t.path);
  jet_channel l = (jet_channel)1;
  CHECK_ST(jet_channel_listen(&d, &l), JET_STATUS_INVALID_STATE);
  CHECK(l == NULL && strstr(jet_last_error()->message, "not a socket") != NULL);
  struct stat s;
  CHECK(lstat(t.path, &s) == 0 && S_ISREG(s.st_mode) && s.st_size == 4);
  CHECK(unlink(t.path) == 0);
  CHECK(mkdir(t.path, 0700) == 0);
  CHECK_ST(jet_channel_listen(&d, &l), JET_STATUS_INVALID_STATE);
  CHECK(lstat(t.path, &s) == 0 && S_ISDIR(s.st_mode));
  CHECK(rmdir(t.path) == 0);
  CHECK(symlink("/nonexistent", t.path) == 0);
  CHECK_ST(jet_channel_listen(&d, &l), JET_STATUS_INVALID_STATE);
  CHECK(lstat(t.path, &s) == 0 && S_ISLNK(s.st_mode));
  tmpdir_done(&t);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_close_keeps_a_replaced_file) {
  int fd0 = count_fds();
  tmpdir t;
  CHECK(tmpdir_make(&t));
  jet_channel_desc d = desc_of(t.path);
  jet_channel l;
  CHECK_OK(jet_channel_listen(&d, &l));
  CHECK(unlink(t.path) == 0);
  int f = open(t.path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  CHECK(f >= 0);
  close(f);
  CHECK_OK(jet_channel_close(l));
  struct stat s;
  CHECK(lstat(t.path, &s) == 0 && S_ISREG(s.st_mode));
  tmpdir_done(&t);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_abstract_name) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  pair p;
  CHECK_OK(pair_open(&p, name));
  CHECK(access(name, F_OK) != 0); /* no file named "@..." in the working directory */
  CHECK_OK(jet_channel_send(p.client, 11, "abstract", 8, NULL, 0, 0));
  unsigned char b[16];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  CHECK_OK(jet_channel_recv(p.server, 1000, &m));
  CHECK(m.type == 11 && m.len == 8 && memcmp(b, "abstract", 8) == 0);
  /* The longest abstract name that fits: '@' + 107 bytes. */
  char longname[109];
  memset(longname, 'a', sizeof longname - 1);
  longname[0] = '@';
  longname[108] = '\0';
  snprintf(longname + 1, 20, "jt%d", (int)getpid());
  longname[strlen(longname)] = 'b';
  jet_channel_desc d = desc_of(longname);
  jet_channel l;
  CHECK_OK(jet_channel_listen(&d, &l));
  jet_channel c, a;
  CHECK_OK(jet_channel_connect(&d, 1000, &c));
  CHECK_OK(jet_channel_accept(l, 1000, &a));
  jet_channel_close(a);
  jet_channel_close(c);
  jet_channel_close(l);
  pair_close(&p);
  CHECK(count_fds() == fd0);
  return 0;
}

/* ------------------------------------------------------------ credentials */

/* Child: become nobody, connect with @flags/@allow_uid, report by exit code:
 * 0 connected and then saw the server hang up or say "ok", 20 + status
 * otherwise. */
static void child_as_nobody(const char *name, unsigned flags, unsigned allow_uid) {
  if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) _exit(3);
  jet_channel_desc d = desc_of(name);
  d.flags = flags;
  d.allow_uid = allow_uid;
  jet_channel ch;
  jet_status st = jet_channel_connect(&d, 2000, &ch);
  if (st != JET_STATUS_OK) _exit(20 + (int)st);
  unsigned char b[8];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  st = jet_channel_recv(ch, 5000, &m);
  jet_channel_close(ch);
  if (st == JET_STATUS_DISCONNECTED) _exit(0);
  if (st == JET_STATUS_OK && m.len == 2 && memcmp(b, "ok", 2) == 0) _exit(1);
  _exit(20 + (int)st);
}

static int wait_exit(pid_t pid) {
  int status;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

TEST(ipc_channel_peer_credentials_checked) {
  if (geteuid() != 0) SKIP("needs root to run a child under another uid");
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  jet_channel_desc d = desc_of(name);
  jet_channel l, c = (jet_channel)1;

  /* 1. No flags: a client of another uid is refused and disconnected (the
   * allow_* fields are not read without their flags). */
  d.allow_uid = 65534;
  d.allow_gid = 65534;
  CHECK_OK(jet_channel_listen(&d, &l));
  pid_t child = fork();
  CHECK(child >= 0);
  if (child == 0) child_as_nobody(name, JET_CHANNEL_ALLOW_UID, 0);
  CHECK_ST(jet_channel_accept(l, 5000, &c), JET_STATUS_PERMISSION_DENIED);
  CHECK(c == NULL && strstr(jet_last_error()->message, "uid 65534") != NULL);
  int rc = wait_exit(child);
  CHECK_MSG(rc == 0, "child saw no hang-up (exit %d)", rc);
  CHECK_OK(jet_channel_close(l));

  /* 2. JET_CHANNEL_ALLOW_UID 65534 lets it in. */
  d.flags = JET_CHANNEL_ALLOW_UID;
  d.allow_uid = 65534;
  CHECK_OK(jet_channel_listen(&d, &l));
  child = fork();
  CHECK(child >= 0);
  if (child == 0) child_as_nobody(name, JET_CHANNEL_ALLOW_UID, 0);
  CHECK_OK(jet_channel_accept(l, 5000, &c));
  jet_channel_peer peer;
  CHECK_OK(jet_channel_peer_info(c, &peer));
  CHECK(peer.uid == 65534 && peer.gid == 65534 && peer.pid == (int)child);
  CHECK_OK(jet_channel_send(c, 1, "ok", 2, NULL, 0, 1000));
  CHECK(wait_exit(child) == 1);
  CHECK_OK(jet_channel_close(c));
  CHECK_OK(jet_channel_close(l));

  /* 3. JET_CHANNEL_ALLOW_GID 65534 lets it in by its group. */
  d.flags = JET_CHANNEL_ALLOW_GID;
  d.allow_uid = 12345;
  d.allow_gid = 65534;
  CHECK_OK(jet_channel_listen(&d, &l));
  child = fork();
  CHECK(child >= 0);
  if (child == 0) child_as_nobody(name, JET_CHANNEL_ALLOW_UID, 0);
  CHECK_OK(jet_channel_accept(l, 5000, &c));
  CHECK_OK(jet_channel_send(c, 1, "ok", 2, NULL, 0, 1000));
  CHECK(wait_exit(child) == 1);
  CHECK_OK(jet_channel_close(c));
  CHECK_OK(jet_channel_close(l));

  /* 4. The client checks the server: a zero-initialised desc does not mean
   * "allow uid 0", so nobody refuses this root server. */
  d = desc_of(name);
  d.flags = JET_CHANNEL_ALLOW_UID;
  d.allow_uid = 65534;
  CHECK_OK(jet_channel_listen(&d, &l));
  child = fork();
  CHECK(child >= 0);
  if (child == 0) child_as_nobody(name, 0, 0);
  CHECK_MSG(wait_exit(child) == 20 + JET_STATUS_PERMISSION_DENIED,
            "the child's connect was not refused");
  CHECK_OK(jet_channel_close(l));
  CHECK(count_fds() == fd0);
  return 0;
}

/* ------------------------------------------------------------ arguments */

TEST(ipc_channel_argument_checks) {
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  pair p;
  CHECK_OK(pair_open(&p, name));
  jet_channel_desc d = desc_of(name);
  jet_channel out = (jet_channel)1;
  unsigned char b[16] = {0};
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  int fd, pipefd[2];
  CHECK(pipe(pipefd) == 0);

  /* listen / connect: NULLs, paths, flags, timeouts */
  CHECK_ST(jet_channel_listen(NULL, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_ST(jet_channel_listen(&d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_connect(NULL, 0, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_connect(&d, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_connect(&d, -1, &out), JET_STATUS_INVALID_ARGUMENT);
  const char *bad_paths[] = {NULL, "", "@"};
  for (int i = 0; i < 3; i++) {
    jet_channel_desc bd = desc_of(bad_paths[i]);
    CHECK_ST(jet_channel_listen(&bd, &out), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_channel_connect(&bd, 0, &out), JET_STATUS_INVALID_ARGUMENT);
  }
  char longp[200];
  memset(longp, 'p', sizeof longp);
  longp[0] = '/';
  longp[108] = '\0'; /* 108 bytes + NUL: one too many for sun_path */
  jet_channel_desc ld = desc_of(longp);
  CHECK_ST(jet_channel_listen(&ld, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "at most 107") != NULL);
  CHECK_ST(jet_channel_connect(&ld, 0, &out), JET_STATUS_INVALID_ARGUMENT);
  longp[0] = '@';
  longp[108] = 'p';
  longp[109] = '\0'; /* '@' + 108 bytes: one too many */
  CHECK_ST(jet_channel_listen(&ld, &out), JET_STATUS_INVALID_ARGUMENT);
  jet_channel_desc fd_flags = desc_of(name);
  fd_flags.flags = 1u << 5;
  CHECK_ST(jet_channel_listen(&fd_flags, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_connect(&fd_flags, 0, &out), JET_STATUS_INVALID_ARGUMENT);

  /* accept */
  CHECK_ST(jet_channel_accept(p.l, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_accept(p.l, -5, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_accept(NULL, 0, &out), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_channel_accept(p.server, 0, &out), JET_STATUS_INVALID_STATE);

  /* send */
  CHECK_ST(jet_channel_send(NULL, 1, b, 1, NULL, 0, 0), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_channel_send(p.l, 1, b, 1, NULL, 0, 0), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_channel_send(p.client, 0, b, 1, NULL, 0, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_send(p.client, 65536, b, 1, NULL, 0, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_send(p.client, 1, NULL, 1, NULL, 0, 0), JET_STATUS_INVALID_ARGUMENT);
  static unsigned char big[JET_CHANNEL_MAX_PAYLOAD + 1];
  CHECK_ST(jet_channel_send(p.client, 1, big, sizeof big, NULL, 0, 0),
           JET_STATUS_INVALID_ARGUMENT);
  int many[JET_CHANNEL_MAX_FDS + 1];
  for (int i = 0; i <= JET_CHANNEL_MAX_FDS; i++) many[i] = pipefd[0];
  CHECK_ST(jet_channel_send(p.client, 1, b, 1, many, JET_CHANNEL_MAX_FDS + 1, 0),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_send(p.client, 1, b, 1, many, -1, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_send(p.client, 1, b, 1, NULL, 1, 0), JET_STATUS_INVALID_ARGUMENT);
  int negfd = -3;
  CHECK_ST(jet_channel_send(p.client, 1, b, 1, &negfd, 1, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_send(p.client, 1, b, 1, NULL, 0, -1), JET_STATUS_INVALID_ARGUMENT);
  int closed = dup(pipefd[0]);
  close(closed);
  CHECK_ST(jet_channel_send(p.client, 1, b, 1, &closed, 1, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strcmp(jet_last_error()->native_name, "EBADF") == 0);
  /* None of those sent anything. */
  CHECK_ST(jet_channel_recv(p.server, 0, &m), JET_STATUS_TIMEOUT);

  /* recv */
  CHECK_ST(jet_channel_recv(p.server, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_recv(NULL, 0, &m), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_channel_recv(p.l, 0, &m), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_channel_recv(p.server, -1, &m), JET_STATUS_INVALID_ARGUMENT);
  m.payload = NULL;
  CHECK_ST(jet_channel_recv(p.server, 0, &m), JET_STATUS_INVALID_ARGUMENT);
  CHECK(m.nfds == 0 && m.fds[0] == -1 && m.fds[JET_CHANNEL_MAX_FDS - 1] == -1);
  m.payload = b;

  /* fd, peer_info */
  CHECK_ST(jet_channel_fd(p.server, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_fd(NULL, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_channel_fd(p.l, &fd));
  jet_channel_peer peer;
  CHECK_ST(jet_channel_peer_info(p.server, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_channel_peer_info(NULL, &peer), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_channel_peer_info(p.l, &peer), JET_STATUS_INVALID_STATE);

  /* Destroyed handles (the registry is consulted; the memory is not read). */
  jet_channel dead = p.client;
  CHECK_OK(jet_channel_close(dead));
  p.client = NULL;
  CHECK_ST(jet_channel_send(dead, 1, b, 1, NULL, 0, 0), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_channel_recv(dead, 0, &m), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_channel_fd(dead, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_channel_peer_info(dead, &peer), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_channel_close(dead), JET_STATUS_INVALID_HANDLE);
  jet_channel dead_l = p.l;
  CHECK_OK(jet_channel_close(dead_l));
  p.l = NULL;
  CHECK_ST(jet_channel_accept(dead_l, 0, &out), JET_STATUS_INVALID_HANDLE);
  int not_a_channel = 0;
  CHECK_ST(jet_channel_close((jet_channel)&not_a_channel), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_channel_close(NULL));

  close(pipefd[0]);
  close(pipefd[1]);
  pair_close(&p);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_fd_kind_classifies_descriptors) {
  int fd0 = count_fds();
  jet__fd_kind k;
  char link[256];
  struct {
    int fd;
    jet__fd_kind want;
  } c[8];
  int n = 0;
  int pipefd[2], sv[2];
  CHECK(pipe(pipefd) == 0);
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  char tmpl[] = "/tmp/jt-kind-XXXXXX";
  int reg = mkstemp(tmpl);
  CHECK(reg >= 0);
  unlink(tmpl);
  c[n].fd = reg, c[n++].want = JET__FD_REGULAR;
  c[n].fd = memfd_create("kind", MFD_CLOEXEC), c[n++].want = JET__FD_MEMFD;
  c[n].fd = open("/dev/null", O_RDONLY | O_CLOEXEC), c[n++].want = JET__FD_CHAR_DEVICE;
  c[n].fd = sv[0], c[n++].want = JET__FD_SOCKET;
  c[n].fd = pipefd[0], c[n++].want = JET__FD_PIPE;
  c[n].fd = eventfd(0, EFD_CLOEXEC), c[n++].want = JET__FD_ANON_INODE;
  c[n].fd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC), c[n++].want = JET__FD_DIRECTORY;
  for (int i = 0; i < n; i++) {
    CHECK(c[i].fd >= 0);
    CHECK_OK(jet__fd_kind_of(c[i].fd, &k, link, sizeof link, "test"));
    CHECK_MSG(k == c[i].want, "fd %d (%s): %s, expected %s", c[i].fd, link, jet__fd_kind_name(k),
              jet__fd_kind_name(c[i].want));
  }
  CHECK_OK(jet__fd_kind_of(pipefd[1], &k, NULL, 0, "test"));
  CHECK(k == JET__FD_PIPE);
  int closed = dup(0);
  close(closed);
  CHECK_ST(jet__fd_kind_of(closed, &k, link, sizeof link, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strcmp(jet_last_error()->native_name, "EBADF") == 0);
  CHECK_ST(jet__fd_kind_of(-1, &k, NULL, 0, "test"), JET_STATUS_INVALID_ARGUMENT);
  for (int i = 0; i < n; i++)
    if (c[i].fd != sv[0] && c[i].fd != pipefd[0]) close(c[i].fd);
  close(pipefd[0]);
  close(pipefd[1]);
  close(sv[0]);
  close(sv[1]);
  CHECK(count_fds() == fd0);
  return 0;
}

TEST(ipc_channel_other_control_messages_are_ignored) {
  /* With SO_PASSCRED on the receiving socket every record also carries an
   * SCM_CREDENTIALS message: the walk must skip it and still count the
   * SCM_RIGHTS descriptors, up to the limit. */
  int fd0 = count_fds();
  char name[64];
  abstract_name(name, sizeof name);
  pair p;
  CHECK_OK(pair_open(&p, name));
  int sfd, one = 1;
  CHECK_OK(jet_channel_fd(p.server, &sfd));
  CHECK(setsockopt(sfd, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) == 0);
  int pipefd[2];
  CHECK(pipe(pipefd) == 0);
  int many[JET_CHANNEL_MAX_FDS];
  for (int i = 0; i < JET_CHANNEL_MAX_FDS; i++) many[i] = pipefd[i & 1];
  unsigned char b[16];
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  m.payload = b;
  m.capacity = sizeof b;
  for (int nfds = 0; nfds <= JET_CHANNEL_MAX_FDS; nfds += 16) {
    CHECK_OK(jet_channel_send(p.client, 8, "cred", 4, many, nfds, 0));
    CHECK_OK(jet_channel_recv(p.server, 1000, &m));
    CHECK(m.type == 8 && m.len == 4 && m.nfds == nfds);
    for (int i = 0; i < m.nfds; i++) close(m.fds[i]);
  }
  /* SO_PASSPIDFD (Linux 6.5) adds an SCM_PIDFD message that carries a
   * descriptor of its own: it must be closed, and not counted. */
#ifndef SO_PASSPIDFD
#define SO_PASSPIDFD 76
#endif
  int pidfd_on = setsockopt(sfd, SOL_SOCKET, SO_PASSPIDFD, &one, sizeof one) == 0;
  if (pidfd_on) {
    int base = count_fds();
    for (int nfds = 0; nfds <= JET_CHANNEL_MAX_FDS; nfds += 32) {
      CHECK_OK(jet_channel_send(p.client, 8, "pidfd", 5, many, nfds, 0));
      CHECK_OK(jet_channel_recv(p.server, 1000, &m));
      CHECK(m.type == 8 && m.len == 5 && m.nfds == nfds);
      for (int i = 0; i < m.nfds; i++) close(m.fds[i]);
      CHECK_MSG(count_fds() == base, "the SCM_PIDFD descriptor was left open");
    }
  } else {
    fprintf(stderr, "note: SO_PASSPIDFD not supported here, SCM_PIDFD not exercised\n");
  }
  /* And a bad record with credentials and descriptors still closes them all. */
  CHECK_OK(jet_channel_send(p.client, 8, "x", 1, many, 3, 0));
  m.capacity = 0;
  CHECK_ST(jet_channel_recv(p.server, 1000, &m), JET_STATUS_PROTOCOL_ERROR);
  close(pipefd[0]);
  close(pipefd[1]);
  pair_close(&p);
  CHECK(count_fds() == fd0);
  return 0;
}

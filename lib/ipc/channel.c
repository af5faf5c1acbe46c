/*
 * The Unix-domain-socket channel: SOCK_SEQPACKET records of a 16-byte header
 * plus payload, with descriptors as SCM_RIGHTS. Every socket is non-blocking;
 * waits are poll() against a CLOCK_MONOTONIC deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "channel_internal.h"

/* SCM_PIDFD (Linux 6.5) carries a descriptor too; only sent with SO_PASSPIDFD,
 * which is never set here, but a descriptor that arrives is closed anyway. */
#define JET__SCM_PIDFD 0x04

#define SUN_PATH_CAP sizeof(((struct sockaddr_un *)0)->sun_path)

struct jet_channel_s {
  jet__handle h;
  int fd;
  int listening;
  unsigned flags, allow_uid, allow_gid; /* listener: applied to clients */
  jet_channel_peer peer;                /* connection: the other end */
  int owns_file;                        /* listener bound to a file it created */
  dev_t dev;
  ino_t ino;
  char path[SUN_PATH_CAP];
};

/* ------------------------------------------------------------ errors */

const char *jet__errno_name(int err) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  const char *s = strerrorname_np(err);
  if (s) return s;
#endif
  /* Older C libraries (JetPack 5 has glibc 2.31): the errors met here. */
  switch (err) {
#define E(x) \
  case x:    \
    return #x;
    E(EPERM) E(ENOENT) E(EINTR) E(EIO) E(EBADF) E(EAGAIN) E(ENOMEM) E(EACCES) E(EFAULT)
    E(EEXIST) E(ENOTDIR) E(EISDIR) E(EINVAL) E(ENFILE) E(EMFILE) E(ENOSPC) E(EROFS) E(EPIPE)
    E(ENAMETOOLONG) E(ELOOP) E(ENOTSOCK) E(EMSGSIZE) E(EPROTOTYPE) E(EOPNOTSUPP)
    E(EADDRINUSE) E(EADDRNOTAVAIL) E(ENOBUFS) E(ENOTCONN) E(ECONNABORTED) E(ECONNRESET)
    E(ETOOMANYREFS) E(ECONNREFUSED) E(EISCONN)
#undef E
    default:
      return "E?";
  }
}

__attribute__((format(printf, 6, 7))) static jet_status sys_error(jet_status st, const char *fn,
                                                                  const char *call, int err,
                                                                  const char *hint,
                                                                  const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return jet__error_native(st, fn, call, jet__errno_name(err), err, hint, "%s: %s", msg,
                           strerror(err));
}

static jet_status errno_status(int err) {
  switch (err) {
    case EACCES:
    case EPERM:
      return JET_STATUS_PERMISSION_DENIED;
    case ENOMEM:
    case ENOBUFS:
      return JET_STATUS_OUT_OF_MEMORY;
    case EPIPE:
    case ECONNRESET:
    case ENOTCONN:
      return JET_STATUS_DISCONNECTED;
    default:
      return JET_STATUS_IO_ERROR;
  }
}

static const char *fd_limit_hint(int err) {
  return (err == EMFILE || err == ENFILE) ? "the process or system is out of file descriptors "
                                            "(RLIMIT_NOFILE, fs.file-max)"
                                          : NULL;
}

/* ------------------------------------------------------------ time */

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t deadline_of(int timeout_ms) { return now_ns() + (int64_t)timeout_ms * 1000000; }

/* Milliseconds left, rounded up so that poll never returns early for good. */
static int remaining_ms(int64_t deadline) {
  int64_t left = deadline - now_ns();
  if (left <= 0) return 0;
  int64_t ms = (left + 999999) / 1000000;
  return ms > 0x7fffffff ? 0x7fffffff : (int)ms;
}

/* Wait until @fd reports @events (or an error or hang-up, which the caller's
 * next syscall reports), or the deadline passes. */
static jet_status wait_fd(int fd, short events, int64_t deadline, int timeout_ms, const char *fn,
                          const char *what) {
  for (;;) {
    struct pollfd p = {fd, events, 0};
    int ms = remaining_ms(deadline);
    int r = poll(&p, 1, ms);
    if (r > 0) {
      if (p.revents & POLLNVAL)
        return jet__error(JET_STATUS_INTERNAL, fn, "poll: descriptor %d is not open", fd);
      return JET_STATUS_OK;
    }
    if (r == 0) {
      if (remaining_ms(deadline) == 0)
        return jet__error(JET_STATUS_TIMEOUT, fn, "%s within %d ms", what, timeout_ms);
      continue;
    }
    if (errno == EINTR) continue;
    return sys_error(JET_STATUS_IO_ERROR, fn, "poll", errno, NULL, "waiting on descriptor %d", fd);
  }
}

/* ------------------------------------------------------------ header codec */

static void put16(unsigned char *p, unsigned v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}
static void put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint16_t get16(const unsigned char *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void jet__chan_header_encode(unsigned char out[JET__CHAN_HEADER_SIZE], unsigned type,
                             uint32_t payload_len, unsigned nfds) {
  put32(out, JET__CHAN_MAGIC);
  put16(out + 4, JET__CHAN_VERSION);
  put16(out + 6, type);
  put32(out + 8, payload_len);
  put16(out + 12, nfds);
  put16(out + 14, 0);
}

jet_status jet__chan_header_parse(const unsigned char *rec, size_t avail, size_t len,
                                  int nfds_received, jet__chan_header *out, const char *fn) {
  if (len < JET__CHAN_HEADER_SIZE || avail < JET__CHAN_HEADER_SIZE)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "record of %zu bytes is shorter than the %u-byte header", len,
                      JET__CHAN_HEADER_SIZE);
  jet__chan_header h;
  h.magic = get32(rec);
  h.version = get16(rec + 4);
  h.type = get16(rec + 6);
  h.payload_len = get32(rec + 8);
  h.nfds = get16(rec + 12);
  h.reserved = get16(rec + 14);
  if (h.magic != JET__CHAN_MAGIC)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "header magic is 0x%08x, expected 0x%08x (\"JETC\"): not a jetrt channel record",
                      (unsigned)h.magic, JET__CHAN_MAGIC);
  if (h.version != JET__CHAN_VERSION)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "header version is %u, this build speaks version %u", (unsigned)h.version,
                      JET__CHAN_VERSION);
  if (h.type == 0)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn, "header type is 0, which is never valid");
  if (h.reserved != 0)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn, "header reserved field is 0x%04x, must be 0",
                      (unsigned)h.reserved);
  if (h.nfds > JET_CHANNEL_MAX_FDS)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn, "header nfds is %u, the limit is %d",
                      (unsigned)h.nfds, JET_CHANNEL_MAX_FDS);
  if (nfds_received < 0 || h.nfds != (unsigned)nfds_received)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "header nfds is %u but %d descriptors came with the record",
                      (unsigned)h.nfds, nfds_received);
  if (h.payload_len > JET_CHANNEL_MAX_PAYLOAD)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn, "header payload_len is %u, the limit is %d",
                      (unsigned)h.payload_len, JET_CHANNEL_MAX_PAYLOAD);
  if (h.payload_len != len - JET__CHAN_HEADER_SIZE)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "header payload_len is %u but the record has %zu bytes after the header",
                      (unsigned)h.payload_len, len - JET__CHAN_HEADER_SIZE);
  *out = h;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ descriptors */

const char *jet__fd_kind_name(jet__fd_kind kind) {
  switch (kind) {
    case JET__FD_REGULAR: return "regular file";
    case JET__FD_MEMFD: return "memfd";
    case JET__FD_CHAR_DEVICE: return "character device";
    case JET__FD_SOCKET: return "socket";
    case JET__FD_PIPE: return "pipe";
    case JET__FD_ANON_INODE: return "anonymous inode";
    case JET__FD_DIRECTORY: return "directory";
    case JET__FD_OTHER: return "other";
  }
  return "unknown";
}

jet_status jet__fd_kind_of(int fd, jet__fd_kind *kind, char *link, size_t link_cap,
                           const char *fn) {
  struct stat st;
  if (link && link_cap) link[0] = '\0';
  if (fd < 0)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "descriptor %d is negative", fd);
  if (fstat(fd, &st) != 0)
    return sys_error(errno == EBADF ? JET_STATUS_INVALID_ARGUMENT : JET_STATUS_IO_ERROR, fn,
                     "fstat", errno, NULL, "descriptor %d", fd);
  char proc[40], target[256];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(proc, target, sizeof target - 1);
  target[n > 0 ? n : 0] = '\0';
  if (link && link_cap) snprintf(link, link_cap, "%s", target);
  /* Anonymous inodes (eventfd, sync_file, ...) have no file type bits on most
   * kernels, but some give them S_IFREG: the link decides. */
  if (strncmp(target, "anon_inode:", 11) == 0) {
    *kind = JET__FD_ANON_INODE;
    return JET_STATUS_OK;
  }
  switch (st.st_mode & S_IFMT) {
    case S_IFREG:
      *kind = strncmp(target, "/memfd:", 7) == 0 ? JET__FD_MEMFD : JET__FD_REGULAR;
      break;
    case S_IFCHR: *kind = JET__FD_CHAR_DEVICE; break;
    case S_IFSOCK: *kind = JET__FD_SOCKET; break;
    case S_IFIFO: *kind = JET__FD_PIPE; break;
    case S_IFDIR: *kind = JET__FD_DIRECTORY; break;
    default: *kind = JET__FD_OTHER; break;
  }
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ addresses and peers */

static jet_status check_desc(const jet_channel_desc *desc, struct sockaddr_un *sa,
                             socklen_t *salen, int *abstract, const char *fn) {
  if (!desc) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "desc is NULL");
  const unsigned known = JET_CHANNEL_ALLOW_UID | JET_CHANNEL_ALLOW_GID;
  if (desc->flags & ~known)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "desc->flags 0x%x has unknown bits 0x%x",
                      desc->flags, desc->flags & ~known);
  const char *path = desc->path;
  if (!path) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "desc->path is NULL");
  size_t n = strlen(path);
  memset(sa, 0, sizeof *sa);
  sa->sun_family = AF_UNIX;
  *abstract = path[0] == '@';
  if (n == 0 || (*abstract && n == 1))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "desc->path \"%s\" is empty", path);
  /* A file path needs its terminating NUL inside sun_path; an abstract name
   * is the NUL that replaces '@' followed by the name, unterminated. */
  size_t need = *abstract ? n : n + 1;
  if (need > SUN_PATH_CAP)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "desc->path is %zu bytes, a socket address holds at most %zu", n,
                      *abstract ? SUN_PATH_CAP : SUN_PATH_CAP - 1);
  memcpy(sa->sun_path, path, n);
  if (*abstract) sa->sun_path[0] = '\0';
  *salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + need);
  return JET_STATUS_OK;
}

static int peer_allowed(const struct ucred *cr, unsigned flags, unsigned allow_uid,
                        unsigned allow_gid) {
  if ((unsigned)cr->uid == (unsigned)geteuid()) return 1;
  if ((flags & JET_CHANNEL_ALLOW_UID) && (unsigned)cr->uid == allow_uid) return 1;
  if ((flags & JET_CHANNEL_ALLOW_GID) && (unsigned)cr->gid == allow_gid) return 1;
  return 0;
}

static jet_status peer_check(int fd, unsigned flags, unsigned allow_uid, unsigned allow_gid,
                             const char *who, jet_channel_peer *peer, const char *fn) {
  struct ucred cr;
  socklen_t n = sizeof cr;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &n) != 0)
    return sys_error(JET_STATUS_IO_ERROR, fn, "getsockopt", errno, NULL,
                     "SO_PEERCRED of the %s", who);
  if (!peer_allowed(&cr, flags, allow_uid, allow_gid)) {
    char extra[64] = "";
    if (flags & JET_CHANNEL_ALLOW_UID) snprintf(extra, sizeof extra, ", uid %u", allow_uid);
    if (flags & JET_CHANNEL_ALLOW_GID)
      snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ", gid %u", allow_gid);
    return jet__error(JET_STATUS_PERMISSION_DENIED, fn,
                      "%s pid %d runs as uid %u gid %u; allowed: euid %u%s", who, (int)cr.pid,
                      (unsigned)cr.uid, (unsigned)cr.gid, (unsigned)geteuid(), extra);
  }
  peer->pid = (int)cr.pid;
  peer->uid = (unsigned)cr.uid;
  peer->gid = (unsigned)cr.gid;
  return JET_STATUS_OK;
}

static jet_status new_channel(int fd, jet_channel *out, const char *fn) {
  jet_channel ch = calloc(1, sizeof *ch);
  if (!ch) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no memory for a channel");
  ch->fd = fd;
  jet_status st = jet__handle_register(&ch->h, JET__H_CHANNEL, NULL, fn);
  if (st != JET_STATUS_OK) {
    free(ch);
    return st;
  }
  *out = ch;
  return JET_STATUS_OK;
}

static jet_status check_channel(jet_channel ch, int want_listener, const char *fn) {
  JET__TRY(jet__handle_check(ch, JET__H_CHANNEL, fn, "channel"));
  if (ch->listening != want_listener)
    return jet__error(JET_STATUS_INVALID_STATE, fn, "channel is %s, this needs %s",
                      ch->listening ? "a listener" : "a connection",
                      want_listener ? "a listener" : "a connection");
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ listen */

/* Make way for bind() at a file path: nothing there is fine; a socket nobody
 * listens on is removed; anything else is left alone and refused. */
static jet_status clear_stale(const char *path, const struct sockaddr_un *sa, socklen_t salen,
                              const char *fn) {
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return JET_STATUS_OK;
    return sys_error(errno_status(errno), fn, "lstat", errno, NULL, "%s", path);
  }
  if (!S_ISSOCK(st.st_mode))
    return jet__error(JET_STATUS_INVALID_STATE, fn,
                      "%s exists and is not a socket (mode 0%o); it is left alone", path,
                      (unsigned)st.st_mode);
  int p = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (p < 0)
    return sys_error(errno_status(errno), fn, "socket", errno, fd_limit_hint(errno),
                     "probe socket for %s", path);
  int r = connect(p, (const struct sockaddr *)sa, salen);
  int err = r == 0 ? 0 : errno;
  close(p);
  if (r == 0 || err == EAGAIN)
    return jet__error(JET_STATUS_INVALID_STATE, fn, "%s is in use: a server is listening on it",
                      path);
  if (err == EPROTOTYPE)
    return jet__error(JET_STATUS_INVALID_STATE, fn,
                      "%s is in use: a socket of another type (not SOCK_SEQPACKET) is bound to it",
                      path);
  if (err != ECONNREFUSED)
    return sys_error(errno_status(err), fn, "connect", err, NULL,
                     "probing whether %s is still in use", path);
  /* Stale. Remove it only if it is still the socket just probed. */
  struct stat st2;
  if (lstat(path, &st2) == 0 && st2.st_dev == st.st_dev && st2.st_ino == st.st_ino &&
      unlink(path) != 0 && errno != ENOENT)
    return sys_error(errno_status(errno), fn, "unlink", errno, NULL,
                     "removing the stale socket file %s", path);
  return JET_STATUS_OK;
}

static void unlink_own(jet_channel ch) {
  struct stat st;
  if (ch->owns_file && lstat(ch->path, &st) == 0 && S_ISSOCK(st.st_mode) &&
      st.st_dev == ch->dev && st.st_ino == ch->ino)
    unlink(ch->path);
  ch->owns_file = 0;
}

jet_status jet_channel_listen(const jet_channel_desc *desc, jet_channel *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  struct sockaddr_un sa;
  socklen_t salen = 0;
  int abstract = 0;
  JET__TRY(check_desc(desc, &sa, &salen, &abstract, __func__));
  const char *path = desc->path;

  int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    return sys_error(errno_status(errno), __func__, "socket", errno, fd_limit_hint(errno),
                     "AF_UNIX SOCK_SEQPACKET for %s", path);
  jet_status st = JET_STATUS_OK;
  struct stat sst;
  memset(&sst, 0, sizeof sst);
  int bound_file = 0;
  if (!abstract) {
    st = clear_stale(path, &sa, salen, __func__);
    if (st != JET_STATUS_OK) goto fail;
    /* The socket inode's mode, less the umask, becomes the file's mode at
     * bind: no window in which the file is open to others, and no process-wide
     * umask change that would race with other threads. */
    if (fchmod(fd, 0600) != 0) {
      st = sys_error(JET_STATUS_IO_ERROR, __func__, "fchmod", errno, NULL, "socket for %s", path);
      goto fail;
    }
  }
  if (bind(fd, (const struct sockaddr *)&sa, salen) != 0) {
    int err = errno;
    if (err == EADDRINUSE)
      st = sys_error(JET_STATUS_INVALID_STATE, __func__, "bind", err, NULL,
                     "%s is in use: a server is listening on it", path);
    else
      st = sys_error(errno_status(err), __func__, "bind", err, NULL, "%s", path);
    goto fail;
  }
  if (!abstract) {
    bound_file = 1;
    if (lstat(path, &sst) != 0) {
      st = sys_error(JET_STATUS_IO_ERROR, __func__, "lstat", errno, NULL,
                     "the socket file %s just bound", path);
      goto fail;
    }
    /* Kernels that ignore the socket inode's mode at bind. */
    if ((sst.st_mode & 07777) != 0600 && chmod(path, 0600) != 0) {
      st = sys_error(JET_STATUS_IO_ERROR, __func__, "chmod", errno, NULL, "%s to 0600", path);
      goto fail;
    }
  }
  if (listen(fd, SOMAXCONN) != 0) {
    st = sys_error(errno_status(errno), __func__, "listen", errno, NULL, "%s", path);
    goto fail;
  }
  jet_channel ch = NULL;
  st = new_channel(fd, &ch, __func__);
  if (st != JET_STATUS_OK) goto fail;
  ch->listening = 1;
  ch->flags = desc->flags;
  ch->allow_uid = desc->allow_uid;
  ch->allow_gid = desc->allow_gid;
  if (bound_file) {
    ch->owns_file = 1;
    ch->dev = sst.st_dev;
    ch->ino = sst.st_ino;
    memcpy(ch->path, path, strlen(path) + 1);
  }
  *out = ch;
  return JET_STATUS_OK;

fail:
  if (bound_file) unlink(path);
  close(fd);
  return st;
}

/* ------------------------------------------------------------ accept, connect */

jet_status jet_channel_accept(jet_channel listener, int timeout_ms, jet_channel *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(check_channel(listener, 1, __func__));
  JET__ARG(timeout_ms >= 0, "timeout_ms is %d; it must be >= 0", timeout_ms);
  int64_t deadline = deadline_of(timeout_ms);
  int fd;
  for (;;) {
    fd = accept4(listener->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd >= 0) break;
    int err = errno;
    if (err == EINTR || err == ECONNABORTED) continue;
    if (err == EAGAIN || err == EWOULDBLOCK) {
      JET__TRY(wait_fd(listener->fd, POLLIN, deadline, timeout_ms, __func__,
                       "no client connected"));
      continue;
    }
    return sys_error(errno_status(err), __func__, "accept4", err, fd_limit_hint(err),
                     "listener descriptor %d", listener->fd);
  }
  jet_channel_peer peer = {0, 0, 0};
  jet_status st = peer_check(fd, listener->flags, listener->allow_uid, listener->allow_gid,
                             "client", &peer, __func__);
  jet_channel ch = NULL;
  if (st == JET_STATUS_OK) st = new_channel(fd, &ch, __func__);
  if (st != JET_STATUS_OK) {
    close(fd);
    return st;
  }
  ch->peer = peer;
  *out = ch;
  return JET_STATUS_OK;
}

jet_status jet_channel_connect(const jet_channel_desc *desc, int timeout_ms, jet_channel *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  struct sockaddr_un sa;
  socklen_t salen = 0;
  int abstract = 0;
  JET__TRY(check_desc(desc, &sa, &salen, &abstract, __func__));
  JET__ARG(timeout_ms >= 0, "timeout_ms is %d; it must be >= 0", timeout_ms);
  const char *path = desc->path;
  int64_t deadline = deadline_of(timeout_ms);

  int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    return sys_error(errno_status(errno), __func__, "socket", errno, fd_limit_hint(errno),
                     "AF_UNIX SOCK_SEQPACKET for %s", path);
  jet_status st;
  for (;;) {
    if (connect(fd, (const struct sockaddr *)&sa, salen) == 0) break;
    int err = errno;
    if (err == EINTR) continue;
    if (err == EISCONN) break;
    if (err == EAGAIN) {
      /* The server's backlog is full. A Unix socket gives no readiness event
       * for that, so retry every few milliseconds until the deadline. */
      int ms = remaining_ms(deadline);
      if (ms == 0) {
        st = jet__error(JET_STATUS_TIMEOUT, __func__,
                        "the server at %s did not take the connection within %d ms (its "
                        "backlog stayed full)",
                        path, timeout_ms);
        goto fail;
      }
      poll(NULL, 0, ms < 5 ? ms : 5);
      continue;
    }
    if (err == ENOENT || err == ECONNREFUSED)
      st = sys_error(JET_STATUS_DISCONNECTED, __func__, "connect", err, NULL,
                     "nobody is listening at %s", path);
    else if (err == EPROTOTYPE)
      st = sys_error(JET_STATUS_PROTOCOL_ERROR, __func__, "connect", err, NULL,
                     "the socket at %s is not a SOCK_SEQPACKET socket", path);
    else
      st = sys_error(errno_status(err), __func__, "connect", err, NULL, "%s", path);
    goto fail;
  }
  jet_channel_peer peer = {0, 0, 0};
  st = peer_check(fd, desc->flags, desc->allow_uid, desc->allow_gid, "server", &peer, __func__);
  if (st != JET_STATUS_OK) goto fail;
  jet_channel ch = NULL;
  st = new_channel(fd, &ch, __func__);
  if (st != JET_STATUS_OK) goto fail;
  ch->peer = peer;
  *out = ch;
  return JET_STATUS_OK;

fail:
  close(fd);
  return st;
}

jet_status jet_channel_close(jet_channel ch) {
  if (!ch) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(ch, JET__H_CHANNEL, __func__, "channel"));
  jet__handle_unregister(&ch->h);
  if (ch->listening) unlink_own(ch);
  close(ch->fd);
  free(ch);
  return JET_STATUS_OK;
}

jet_status jet_channel_fd(jet_channel ch, int *fd) {
  JET__ARG(fd, "fd is NULL");
  JET__TRY(jet__handle_check(ch, JET__H_CHANNEL, __func__, "channel"));
  *fd = ch->fd;
  return JET_STATUS_OK;
}

jet_status jet_channel_peer_info(jet_channel ch, jet_channel_peer *peer) {
  JET__ARG(peer, "peer is NULL");
  JET__TRY(check_channel(ch, 0, __func__));
  *peer = ch->peer;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ send, recv */

jet_status jet_channel_send(jet_channel ch, unsigned type, const void *payload, size_t len,
                            const int *fds, int nfds, int timeout_ms) {
  JET__TRY(check_channel(ch, 0, __func__));
  JET__ARG(type >= 1 && type <= 0xffff, "type %u is outside 1..65535", type);
  JET__ARG(len <= JET_CHANNEL_MAX_PAYLOAD, "len %zu exceeds JET_CHANNEL_MAX_PAYLOAD (%d)", len,
           JET_CHANNEL_MAX_PAYLOAD);
  JET__ARG(payload || len == 0, "payload is NULL with len %zu", len);
  JET__ARG(nfds >= 0 && nfds <= JET_CHANNEL_MAX_FDS, "nfds %d is outside 0..%d", nfds,
           JET_CHANNEL_MAX_FDS);
  JET__ARG(fds || nfds == 0, "fds is NULL with nfds %d", nfds);
  for (int i = 0; i < nfds; i++) JET__ARG(fds[i] >= 0, "fds[%d] is %d", i, fds[i]);
  JET__ARG(timeout_ms >= 0, "timeout_ms is %d; it must be >= 0", timeout_ms);

  unsigned char hdr[JET__CHAN_HEADER_SIZE];
  jet__chan_header_encode(hdr, type, (uint32_t)len, (unsigned)nfds);
  struct iovec iov[2] = {{hdr, sizeof hdr}, {(void *)payload, len}};
  union {
    struct cmsghdr align;
    unsigned char buf[CMSG_SPACE(sizeof(int) * JET_CHANNEL_MAX_FDS)];
  } cbuf;
  struct msghdr mh;
  memset(&mh, 0, sizeof mh);
  mh.msg_iov = iov;
  mh.msg_iovlen = len ? 2 : 1;
  if (nfds) {
    memset(cbuf.buf, 0, sizeof cbuf.buf);
    mh.msg_control = cbuf.buf;
    mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
    struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
    memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
  }
  int64_t deadline = deadline_of(timeout_ms);
  for (;;) {
    ssize_t r = sendmsg(ch->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (r >= 0) {
      if ((size_t)r != sizeof hdr + len)
        return jet__error(JET_STATUS_INTERNAL, __func__,
                          "sendmsg sent %zd of %zu bytes of a SOCK_SEQPACKET record", r,
                          sizeof hdr + len);
      return JET_STATUS_OK;
    }
    int err = errno;
    if (err == EINTR) continue;
    if (err == EAGAIN || err == EWOULDBLOCK) {
      JET__TRY(wait_fd(ch->fd, POLLOUT, deadline, timeout_ms, __func__,
                       "the peer did not drain its queue enough to take the message"));
      continue;
    }
    if (err == EBADF)
      return sys_error(JET_STATUS_INVALID_ARGUMENT, __func__, "sendmsg", err, NULL,
                       "a descriptor in fds (%d of them) is not open", nfds);
    if (err == EPIPE || err == ECONNRESET || err == ENOTCONN)
      return sys_error(JET_STATUS_DISCONNECTED, __func__, "sendmsg", err, NULL,
                       "the peer (pid %d) has closed the channel", ch->peer.pid);
    return sys_error(errno_status(err), __func__, "sendmsg", err,
                     err == ETOOMANYREFS ? "too many descriptors in flight; the receiver "
                                           "must read its queue"
                                         : NULL,
                     "type %u, %zu bytes, %d descriptors", type, len, nfds);
  }
}

/* Room for a full SCM_RIGHTS message and the other control messages a peer's
 * socket options could add; more descriptors than that set MSG_CTRUNC. */
#define CBUF_SIZE                                                                  \
  (CMSG_SPACE(sizeof(int) * JET_CHANNEL_MAX_FDS) + CMSG_SPACE(sizeof(struct ucred)) + \
   CMSG_SPACE(sizeof(int)))

static void close_all(const int *fds, int n) {
  for (int i = 0; i < n; i++) close(fds[i]);
}

jet_status jet_channel_recv(jet_channel ch, int timeout_ms, jet_channel_msg *msg) {
  JET__ARG(msg, "msg is NULL");
  msg->nfds = 0;
  msg->type = 0;
  msg->len = 0;
  for (int i = 0; i < JET_CHANNEL_MAX_FDS; i++) msg->fds[i] = -1;
  JET__TRY(check_channel(ch, 0, __func__));
  JET__ARG(msg->payload || msg->capacity == 0, "msg->payload is NULL with capacity %zu",
           msg->capacity);
  JET__ARG(timeout_ms >= 0, "timeout_ms is %d; it must be >= 0", timeout_ms);

  size_t cap = msg->capacity < JET_CHANNEL_MAX_PAYLOAD ? msg->capacity : JET_CHANNEL_MAX_PAYLOAD;
  unsigned char hdr[JET__CHAN_HEADER_SIZE];
  struct iovec iov[2] = {{hdr, sizeof hdr}, {msg->payload, cap}};
  union {
    struct cmsghdr align;
    unsigned char buf[CBUF_SIZE];
  } cbuf;
  struct msghdr mh;
  int64_t deadline = deadline_of(timeout_ms);
  ssize_t r;
  for (;;) {
    memset(&mh, 0, sizeof mh);
    mh.msg_iov = iov;
    mh.msg_iovlen = cap ? 2 : 1;
    mh.msg_control = cbuf.buf;
    mh.msg_controllen = sizeof cbuf.buf;
    /* MSG_TRUNC: return the record's real length, so oversize is measured. */
    r = recvmsg(ch->fd, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT | MSG_TRUNC);
    if (r >= 0) break;
    int err = errno;
    if (err == EINTR) continue;
    if (err == EAGAIN || err == EWOULDBLOCK) {
      JET__TRY(wait_fd(ch->fd, POLLIN, deadline, timeout_ms, __func__, "no message arrived"));
      continue;
    }
    if (err == ECONNRESET || err == ENOTCONN || err == EPIPE)
      return sys_error(JET_STATUS_DISCONNECTED, __func__, "recvmsg", err, NULL,
                       "the peer (pid %d) has gone", ch->peer.pid);
    return sys_error(errno_status(err), __func__, "recvmsg", err, NULL, "descriptor %d",
                     ch->fd);
  }

  /* From here every descriptor that arrived is ours: each error path closes
   * them all. Walk every control message; only SCM_RIGHTS count. */
  int got[CBUF_SIZE / sizeof(int)];
  int ngot = 0;
  for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
    if (cm->cmsg_level != SOL_SOCKET) continue;
    if (cm->cmsg_type != SCM_RIGHTS && cm->cmsg_type != JET__SCM_PIDFD) continue;
    if (cm->cmsg_len < CMSG_LEN(0)) continue;
    size_t n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    const unsigned char *data = CMSG_DATA(cm);
    for (size_t i = 0; i < n; i++) {
      int fd;
      memcpy(&fd, data + i * sizeof fd, sizeof fd);
      if (cm->cmsg_type == SCM_RIGHTS && ngot < (int)(sizeof got / sizeof got[0])) {
        got[ngot++] = fd;
      } else {
        close(fd);
      }
    }
  }
  jet_status st;
  size_t len = (size_t)r;
  jet__chan_header h;
  if (len == 0 && ngot == 0) {
    struct pollfd p = {ch->fd, POLLRDHUP, 0};
    if (poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP)))
      return jet__error(JET_STATUS_DISCONNECTED, __func__,
                        "the peer (pid %d) closed the channel", ch->peer.pid);
  }
  if (mh.msg_flags & MSG_CTRUNC) {
    st = jet__error(JET_STATUS_PROTOCOL_ERROR, __func__,
                    "control data truncated (MSG_CTRUNC): the peer sent more than %d "
                    "descriptors and the kernel dropped some (%d arrived)",
                    JET_CHANNEL_MAX_FDS, ngot);
    goto fail;
  }
  st = jet__chan_header_parse(hdr, len < sizeof hdr ? len : sizeof hdr, len, ngot, &h, __func__);
  if (st != JET_STATUS_OK) goto fail;
  if (h.payload_len > msg->capacity) {
    st = jet__error(JET_STATUS_PROTOCOL_ERROR, __func__,
                    "message type %u has %u payload bytes, more than msg->capacity %zu; it was "
                    "discarded",
                    (unsigned)h.type, (unsigned)h.payload_len, msg->capacity);
    goto fail;
  }
  if (mh.msg_flags & MSG_TRUNC) {
    st = jet__error(JET_STATUS_PROTOCOL_ERROR, __func__, "record of %zu bytes was truncated",
                    len);
    goto fail;
  }
  memcpy(msg->fds, got, sizeof(int) * (size_t)ngot);
  msg->nfds = ngot;
  msg->type = h.type;
  msg->len = h.payload_len;
  return JET_STATUS_OK;

fail:
  close_all(got, ngot);
  return st;
}

/* Memory IPC on a GPU, across real processes: this executable runs again as
 * the child role ipc_peer (jt_spawn_child), which serves requests over a
 * socket pair (import, verify, write, destroy, ...) while the parent test
 * drives it. Data are fresh random patterns from seeds; a receiver regenerates
 * the pattern, compares a checksum, and on a mismatch names the first wrong
 * byte. Reads go into poisoned host memory. Every reply carries the child's
 * jet_last_error_string, so one run says what failed on which side. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "test.h"

#define MIB ((size_t)1 << 20)
#define TIMEOUT_S 120.0

#define CU_OK(call)                                                                 \
  do {                                                                              \
    cudaError_t cu_e_ = (call);                                                     \
    CHECK_MSG(cu_e_ == cudaSuccess, "%s returned %s", #call, cudaGetErrorName(cu_e_)); \
  } while (0)

/* ------------------------------------------------------------ patterns */

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void pattern(uint64_t seed, unsigned char *p, size_t n) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t v = splitmix(&s);
    size_t k = n - i < 8 ? n - i : 8;
    memcpy(p + i, &v, k);
  }
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}

static uint64_t new_seed(void) { return ((uint64_t)jt_rand() << 32) | jt_rand(); }

/* ------------------------------------------------------------ objects under test */

/* A buffer, image or shared buffer, read and written as its "logical bytes":
 * the rows of width bytes (buffer), the planes' rows of row bytes one after
 * another (image), or the bytes (shared). */
typedef struct tobj {
  jet_ipc_object kind;
  jet_buffer b;
  jet_image im;
  jet_shared sb;
} tobj;

static size_t tobj_bytes(const tobj *o) {
  if (o->kind == JET_IPC_OBJECT_BUFFER) {
    jet_buffer_info i;
    if (jet_buffer_get_info(o->b, &i) != JET_STATUS_OK) return 0;
    return i.width_bytes * i.height * i.depth;
  }
  if (o->kind == JET_IPC_OBJECT_IMAGE) {
    int n = 0;
    size_t total = 0;
    if (jet_image_get_plane_count(o->im, &n) != JET_STATUS_OK) return 0;
    for (int p = 0; p < n; p++) {
      jet_image_plane_info pi;
      if (jet_image_get_plane(o->im, p, &pi) != JET_STATUS_OK) return 0;
      total += pi.row_bytes * (size_t)pi.height;
    }
    return total;
  }
  jet_shared_info si;
  if (jet_shared_get_info(o->sb, &si) != JET_STATUS_OK) return 0;
  return si.bytes;
}

/* Image planes over a tight host copy of the logical bytes. */
static int host_planes(jet_image im, unsigned char *host, jet_image_plane *planes) {
  int n = 0;
  if (jet_image_get_plane_count(im, &n) != JET_STATUS_OK) return 0;
  size_t at = 0;
  for (int p = 0; p < n; p++) {
    jet_image_plane_info pi;
    if (jet_image_get_plane(im, p, &pi) != JET_STATUS_OK) return 0;
    planes[p].ptr = host + at;
    planes[p].pitch = pi.row_bytes;
    at += pi.row_bytes * (size_t)pi.height;
  }
  return n;
}

static jet_status tobj_put(jet_context ctx, const tobj *o, const unsigned char *data) {
  if (o->kind == JET_IPC_OBJECT_BUFFER) {
    jet_buffer_info i;
    jet_status st = jet_buffer_get_info(o->b, &i);
    if (st != JET_STATUS_OK) return st;
    return jet_memcpy_2d(ctx, i.device_ptr, i.pitch, data, i.width_bytes, i.width_bytes,
                         i.height * i.depth);
  }
  if (o->kind == JET_IPC_OBJECT_IMAGE) {
    jet_image_plane planes[3];
    int n = host_planes(o->im, (unsigned char *)(uintptr_t)data, planes);
    return jet_image_upload(o->im, planes, n);
  }
  jet_stream L;
  void *h = NULL;
  jet_status st = jet_context_default_stream(ctx, JET_STREAM_LEGACY, &L);
  if (st == JET_STATUS_OK) st = jet_shared_begin_cpu(o->sb, L, JET_ACCESS_WRITE, &h);
  if (st != JET_STATUS_OK) return st;
  memcpy(h, data, tobj_bytes(o));
  st = jet_shared_end_cpu(o->sb, L);
  /* the upload is queued: another process reads only after it is done */
  if (st == JET_STATUS_OK) st = jet_stream_synchronize(L);
  return st;
}

static jet_status tobj_get(jet_context ctx, const tobj *o, unsigned char *data) {
  if (o->kind == JET_IPC_OBJECT_BUFFER) {
    jet_buffer_info i;
    jet_status st = jet_buffer_get_info(o->b, &i);
    if (st != JET_STATUS_OK) return st;
    return jet_memcpy_2d(ctx, data, i.width_bytes, i.device_ptr, i.pitch, i.width_bytes,
                         i.height * i.depth);
  }
  if (o->kind == JET_IPC_OBJECT_IMAGE) {
    jet_image_plane planes[3];
    int n = host_planes(o->im, data, planes);
    return jet_image_download(o->im, planes, n);
  }
  jet_stream L;
  void *h = NULL;
  jet_status st = jet_context_default_stream(ctx, JET_STREAM_LEGACY, &L);
  if (st == JET_STATUS_OK) st = jet_shared_begin_cpu(o->sb, L, JET_ACCESS_READ, &h);
  if (st != JET_STATUS_OK) return st;
  memcpy(data, h, tobj_bytes(o));
  return jet_shared_end_cpu(o->sb, L);
}

/* Write pattern(@seed). Returns 0 on success, else fills @why. */
static int tobj_write(jet_context ctx, const tobj *o, uint64_t seed, char *why, size_t cap) {
  size_t n = tobj_bytes(o);
  unsigned char *d = malloc(n ? n : 1);
  if (!n || !d) {
    snprintf(why, cap, "no bytes (%zu) or no host memory", n);
    free(d);
    return 1;
  }
  pattern(seed, d, n);
  jet_status st = tobj_put(ctx, o, d);
  free(d);
  if (st != JET_STATUS_OK) {
    snprintf(why, cap, "writing %zu bytes: %s", n, jet_last_error_string());
    return 1;
  }
  return 0;
}

/* Read into poisoned memory and compare with pattern(@seed): checksum first,
 * then the first differing byte. Returns 0 when equal, else fills @why. */
static int tobj_verify(jet_context ctx, const tobj *o, uint64_t seed, char *why, size_t cap) {
  size_t n = tobj_bytes(o);
  unsigned char *got = malloc(n ? n : 1), *want = malloc(n ? n : 1);
  int bad = 1;
  if (!n || !got || !want) {
    snprintf(why, cap, "no bytes (%zu) or no host memory", n);
    goto out;
  }
  jt_fill_random(got, n);
  pattern(seed, want, n);
  jet_status st = tobj_get(ctx, o, got);
  if (st != JET_STATUS_OK) {
    snprintf(why, cap, "reading %zu bytes: %s", n, jet_last_error_string());
    goto out;
  }
  uint64_t hg = fnv1a(got, n), hw = fnv1a(want, n);
  if (hg == hw && memcmp(got, want, n) == 0) {
    bad = 0;
    goto out;
  }
  size_t at = 0;
  while (at < n && got[at] == want[at]) at++;
  size_t wrong = 0;
  for (size_t i = at; i < n; i++) wrong += got[i] != want[i];
  snprintf(why, cap,
           "%s content differs: checksum %016llx, expected %016llx (seed %016llx); first "
           "difference at logical byte %zu of %zu: 0x%02x, expected 0x%02x; %zu bytes differ",
           o->kind == JET_IPC_OBJECT_BUFFER  ? "buffer"
           : o->kind == JET_IPC_OBJECT_IMAGE ? "image"
                                             : "shared",
           (unsigned long long)hg, (unsigned long long)hw, (unsigned long long)seed, at, n,
           at < n ? got[at] : 0, at < n ? want[at] : 0, wrong);
out:
  free(got);
  free(want);
  return bad;
}

static jet_status tobj_destroy(tobj *o) {
  jet_status st = JET_STATUS_OK;
  if (o->kind == JET_IPC_OBJECT_BUFFER) st = jet_buffer_destroy(o->b);
  if (o->kind == JET_IPC_OBJECT_IMAGE) st = jet_image_destroy(o->im);
  if (o->kind == JET_IPC_OBJECT_SHARED) st = jet_shared_destroy(o->sb);
  memset(o, 0, sizeof *o);
  return st;
}

static jet_status tobj_export(const tobj *o, jet_ipc_memory_desc *d, int *fd) {
  if (o->kind == JET_IPC_OBJECT_BUFFER) return jet_ipc_export_buffer(o->b, d, fd);
  if (o->kind == JET_IPC_OBJECT_IMAGE) return jet_ipc_export_image(o->im, d, fd);
  return jet_ipc_export_shared(o->sb, d, fd);
}

static jet_status tobj_import(jet_context ctx, const jet_ipc_memory_desc *d, int fd, tobj *o) {
  memset(o, 0, sizeof *o);
  o->kind = (jet_ipc_object)d->object;
  if (o->kind == JET_IPC_OBJECT_BUFFER) return jet_ipc_import_buffer(ctx, d, fd, &o->b);
  if (o->kind == JET_IPC_OBJECT_IMAGE) return jet_ipc_import_image(ctx, d, fd, &o->im);
  if (o->kind == JET_IPC_OBJECT_SHARED) return jet_ipc_import_shared(ctx, d, fd, &o->sb);
  o->kind = 0;
  return jet_ipc_import_buffer(ctx, d, fd, &o->b); /* reports the unknown object */
}

/* A device pointer of the object, for pointer-attribute diagnostics. */
static void *tobj_dev(const tobj *o) {
  void *p = NULL;
  if (o->kind == JET_IPC_OBJECT_BUFFER) (void)jet_buffer_device_ptr(o->b, &p);
  if (o->kind == JET_IPC_OBJECT_IMAGE) {
    jet_image_plane_info pi;
    if (jet_image_get_plane(o->im, 0, &pi) == JET_STATUS_OK) p = pi.ptr;
  }
  return p;
}

/* ------------------------------------------------------------ the peer protocol */

enum {
  OP_HELLO = 1,      /* create the context on .platform ("" = JET_PLATFORM or auto) */
  OP_IMPORT,         /* import .desc with the attached descriptor into .slot, close it */
  OP_HOLD_FD,        /* keep the attached descriptor for .slot without importing */
  OP_IMPORT_HELD,    /* import .desc with the held descriptor, then close it */
  OP_IMPORT_FAIL,    /* import .desc (descriptor attached or held) expecting a refusal */
  OP_VERIFY,         /* compare .slot with pattern(.seed) */
  OP_WRITE,          /* write pattern(.seed) into .slot */
  OP_DESTROY,        /* destroy .slot */
  OP_EXPORT_AGAIN,   /* try to export the imported .slot (must be refused) */
  OP_STATS,          /* descriptors open and free device memory */
  OP_CYCLE,          /* import, check the 8-byte marker .seed, destroy, close */
  OP_BYE             /* destroy the context and exit */
};

#define SLOTS 8

typedef struct ipc_msg {
  uint32_t op;
  uint32_t slot;
  int32_t status;      /* reply: jet_status of the step; -1 when the child's own check failed */
  uint32_t mechanism;  /* reply to an import: jet_ipc_mechanism of the import */
  uint64_t seed;
  int64_t fds;         /* reply: descriptors open in the child */
  int64_t free_bytes;  /* reply: cudaMemGetInfo's free bytes in the child */
  char platform[16];
  char text[1536];     /* reply: what failed, with jet_last_error_string */
  jet_ipc_memory_desc desc;
} ipc_msg;

static const char *op_name(uint32_t op) {
  static const char *const n[] = {"?", "HELLO", "IMPORT", "HOLD_FD", "IMPORT_HELD", "IMPORT_FAIL",
                                  "VERIFY", "WRITE", "DESTROY", "EXPORT_AGAIN", "STATS", "CYCLE",
                                  "BYE"};
  return op < sizeof n / sizeof n[0] ? n[op] : "?";
}

/* ---- child side */

static struct {
  jet_context ctx;
  tobj obj[SLOTS];
  int held[SLOTS];
} peer_state;

static void reply_error(ipc_msg *m, jet_status st, const char *what) {
  m->status = (int32_t)st;
  snprintf(m->text, sizeof m->text, "%s: %s", what, jet_last_error_string());
}

static void child_stats(ipc_msg *m) {
  size_t fr = 0, tot = 0;
  m->fds = jt_count_fds();
  m->free_bytes = cudaMemGetInfo(&fr, &tot) == cudaSuccess ? (int64_t)fr : -1;
}

static void serve(ipc_msg *m, int fd) {
  jet_context ctx = peer_state.ctx;
  uint32_t s = m->slot < SLOTS ? m->slot : 0;
  tobj *o = &peer_state.obj[s];
  char why[512] = "";
  m->status = 0;
  m->text[0] = '\0';
  switch (m->op) {
    case OP_HELLO: {
      jet_context_desc d = {0, 0, m->platform[0] ? m->platform : NULL};
      jet_status st = jet_context_create(&peer_state.ctx, &d);
      if (st != JET_STATUS_OK) reply_error(m, st, "jet_context_create");
      for (int i = 0; i < SLOTS; i++) peer_state.held[i] = -1;
      child_stats(m);
      break;
    }
    case OP_HOLD_FD:
      peer_state.held[s] = fd;
      fd = -1;
      break;
    case OP_IMPORT:
    case OP_IMPORT_HELD:
    case OP_IMPORT_FAIL:
    case OP_CYCLE: {
      if (m->op == OP_IMPORT_HELD || (m->op == OP_IMPORT_FAIL && fd < 0)) {
        fd = peer_state.held[s];
        peer_state.held[s] = -1;
      }
      int before = jt_count_fds(), had_fd = fd >= 0;
      tobj t;
      jet_status st = tobj_import(ctx, &m->desc, fd, &t);
      /* the import must not have closed the caller's descriptor */
      int still_open = fd < 0 || fcntl(fd, F_GETFD) >= 0;
      if (fd >= 0) close(fd);
      fd = -1;
      m->mechanism = m->desc.mechanism;
      if (m->op == OP_IMPORT_FAIL) {
        m->status = (int32_t)st;
        snprintf(m->text, sizeof m->text, "%s", st ? jet_last_error_string() : "import succeeded");
        if (st == JET_STATUS_OK) (void)tobj_destroy(&t);
        /* the refused import left nothing open (the descriptor was ours, closed above) */
        m->fds = jt_count_fds() - (before - had_fd);
        break;
      }
      if (st != JET_STATUS_OK) {
        reply_error(m, st, "import");
        break;
      }
      if (!still_open) {
        m->status = -1;
        snprintf(m->text, sizeof m->text, "the import closed the caller's descriptor");
      }
      if (m->op == OP_CYCLE) {
        uint64_t marker = 0;
        void *p = tobj_dev(&t);
        cudaError_t e = cudaSuccess;
        if (t.kind == JET_IPC_OBJECT_SHARED) {
          jet_stream L;
          void *h = NULL;
          st = jet_context_default_stream(ctx, JET_STREAM_LEGACY, &L);
          if (st == JET_STATUS_OK) st = jet_shared_begin_cpu(t.sb, L, JET_ACCESS_READ, &h);
          if (st == JET_STATUS_OK) {
            memcpy(&marker, h, sizeof marker);
            st = jet_shared_end_cpu(t.sb, L);
          }
        } else {
          e = cudaMemcpy(&marker, p, sizeof marker, cudaMemcpyDeviceToHost);
        }
        jet_status ds = tobj_destroy(&t);
        if (st != JET_STATUS_OK || e != cudaSuccess || ds != JET_STATUS_OK)
          snprintf(m->text, sizeof m->text, "cycle: read %s, cudaMemcpy %s, destroy %s: %s",
                   jet_status_name(st), cudaGetErrorName(e), jet_status_name(ds),
                   jet_last_error_string());
        else if (marker != m->seed)
          snprintf(m->text, sizeof m->text, "cycle: marker %016llx, expected %016llx",
                   (unsigned long long)marker, (unsigned long long)m->seed);
        if (m->text[0]) m->status = -1;
        break;
      }
      if (o->kind) (void)tobj_destroy(o);
      *o = t;
      /* what kind of memory the driver says an import is (VMM or legacy) */
      void *p = tobj_dev(o);
      if (p) {
        struct cudaPointerAttributes a;
        memset(&a, 0, sizeof a);
        cudaError_t e = cudaPointerGetAttributes(&a, p);
        fprintf(stderr, "child: imported %s %p: cudaPointerGetAttributes %s, type %d, device %d\n",
                op_name(m->op), p, cudaGetErrorName(e), (int)a.type, a.device);
      }
      break;
    }
    case OP_VERIFY:
      if (tobj_verify(ctx, o, m->seed, why, sizeof why)) {
        m->status = -1;
        snprintf(m->text, sizeof m->text, "verify slot %u: %s", s, why);
      }
      break;
    case OP_WRITE:
      if (tobj_write(ctx, o, m->seed, why, sizeof why)) {
        m->status = -1;
        snprintf(m->text, sizeof m->text, "write slot %u: %s", s, why);
      }
      break;
    case OP_DESTROY: {
      jet_status st = tobj_destroy(o);
      if (st != JET_STATUS_OK) reply_error(m, st, "destroy");
      break;
    }
    case OP_EXPORT_AGAIN: {
      jet_ipc_memory_desc d;
      int efd = 12345;
      jet_status st = tobj_export(o, &d, &efd);
      m->status = (int32_t)st;
      snprintf(m->text, sizeof m->text, "%s (fd %d)", jet_last_error()->message, efd);
      if (efd >= 0 && efd != 12345) close(efd);
      break;
    }
    case OP_STATS:
      break;
    case OP_BYE: {
      jet_status st = JET_STATUS_OK;
      for (int i = 0; i < SLOTS; i++) {
        if (peer_state.obj[i].kind) {
          jet_status d = tobj_destroy(&peer_state.obj[i]);
          if (st == JET_STATUS_OK) st = d;
        }
        if (peer_state.held[i] >= 0) close(peer_state.held[i]);
      }
      jet_status cs = jet_context_destroy(ctx);
      if (st == JET_STATUS_OK) st = cs;
      if (st != JET_STATUS_OK) reply_error(m, st, "shutdown");
      break;
    }
    default:
      m->status = -1;
      snprintf(m->text, sizeof m->text, "unknown op %u", m->op);
      break;
  }
  if (fd >= 0) close(fd);
  if (m->op != OP_HELLO && m->op != OP_IMPORT_FAIL && m->op != OP_BYE) child_stats(m);
}

CHILD(ipc_peer) {
  for (;;) {
    ipc_msg m;
    int fd = -1;
    if (!jt_recv_msg(sock, &m, sizeof m, &fd, TIMEOUT_S)) {
      fprintf(stderr, "child ipc_peer: the parent went away without BYE\n");
      return 1;
    }
    uint32_t op = m.op;
    serve(&m, fd);
    if (m.status != 0) fprintf(stderr, "child ipc_peer: %s: %s\n", op_name(op), m.text);
    if (!jt_send_msg(sock, &m, sizeof m, -1)) return 1;
    if (op == OP_BYE) return m.status != 0;
  }
}

/* ---- parent side */

typedef struct peer {
  int sock;
  pid_t pid;
} peer;

/* Send @m (with @fd when >= 0; the caller keeps its copy), receive the reply
 * into @m. 1 when the exchange happened (look at m->status for the result). */
static int call(peer *p, ipc_msg *m, int fd) {
  uint32_t op = m->op;
  if (!jt_send_msg(p->sock, m, sizeof *m, fd)) return 0;
  if (!jt_recv_msg(p->sock, m, sizeof *m, NULL, TIMEOUT_S)) {
    fprintf(stderr, "no reply from the child to %s\n", op_name(op));
    return 0;
  }
  return 1;
}

/* call() that must succeed. */
#define CALL_OK(p, m, fd)                                                                     \
  do {                                                                                        \
    uint32_t op_ = (m)->op;                                                                   \
    CHECK_MSG(call((p), (m), (fd)), "exchange %s with the child failed", op_name(op_));       \
    CHECK_MSG((m)->status == 0, "child %s returned %d (%s): %s", op_name(op_), (m)->status,   \
              (m)->status > 0 ? jet_status_name((jet_status)(m)->status) : "check failed",    \
              (m)->text);                                                                     \
  } while (0)

static ipc_msg msg(uint32_t op, uint32_t slot) {
  ipc_msg m;
  memset(&m, 0, sizeof m);
  m.op = op;
  m.slot = slot;
  return m;
}

static int peer_start(peer *p, const char *platform) {
  int sv[2];
  p->pid = -1;
  CHECK(jt_socketpair(sv));
  int ok = jt_spawn_child("ipc_peer", sv[1], &p->pid);
  close(sv[1]);
  p->sock = sv[0];
  CHECK(ok);
  ipc_msg m = msg(OP_HELLO, 0);
  snprintf(m.platform, sizeof m.platform, "%s", platform ? platform : "");
  CALL_OK(p, &m, -1);
  return 0;
}

static int peer_stop(peer *p) {
  ipc_msg m = msg(OP_BYE, 0);
  int talked = call(p, &m, -1);
  close(p->sock);
  int rc = jt_wait_child(p->pid, TIMEOUT_S);
  CHECK_MSG(talked && m.status == 0, "child shutdown: %s", m.text);
  CHECK_MSG(rc == 0, "child exited with %d", rc);
  return 0;
}

static void print_fd_kind(int fd) {
  struct stat st;
  if (fstat(fd, &st) == 0)
    fprintf(stderr, "exported descriptor %d: st_mode 0%o (%s), st_size %lld, st_rdev %llx\n", fd,
            (unsigned)st.st_mode,
            S_ISCHR(st.st_mode)    ? "character device"
            : S_ISREG(st.st_mode)  ? "regular file"
            : S_ISFIFO(st.st_mode) ? "fifo"
            : S_ISSOCK(st.st_mode) ? "socket"
                                   : "other",
            (long long)st.st_size, (unsigned long long)st.st_rdev);
  else
    fprintf(stderr, "fstat of exported descriptor %d: %s\n", fd, strerror(errno));
}

/* Export @o into the child's @slot: message + descriptor, then our copy of the
 * descriptor is closed. */
static int send_import(peer *p, const tobj *o, uint32_t slot, jet_ipc_mechanism want) {
  ipc_msg m = msg(OP_IMPORT, slot);
  int fd = 12345;
  CHECK_OK(tobj_export(o, &m.desc, &fd));
  CHECK_MSG(m.desc.mechanism == (uint32_t)want, "exported by mechanism %u, expected %d",
            m.desc.mechanism, (int)want);
  CHECK_MSG(want == JET_IPC_MECHANISM_VMM_FD ? fd >= 0 : fd == -1, "fd %d for mechanism %d", fd,
            (int)want);
  if (fd >= 0) {
    int fl = fcntl(fd, F_GETFD);
    CHECK_MSG(fl >= 0 && (fl & FD_CLOEXEC), "exported descriptor flags %d: FD_CLOEXEC not set",
              fl);
    static int printed;
    if (!printed++) print_fd_kind(fd);
  }
  CHECK(m.desc.alloc_size % JET_IPC_ALLOC_ALIGN == 0 && m.desc.data_size <= m.desc.alloc_size);
  int sent = call(p, &m, fd);
  if (fd >= 0) close(fd);
  CHECK_MSG(sent, "exchange IMPORT with the child failed");
  CHECK_MSG(m.status == 0, "child import into slot %u returned %d (%s): %s", slot, m.status,
            m.status > 0 ? jet_status_name((jet_status)m.status) : "check failed", m.text);
  return 0;
}

static int child_verify(peer *p, uint32_t slot, uint64_t seed) {
  ipc_msg m = msg(OP_VERIFY, slot);
  m.seed = seed;
  CALL_OK(p, &m, -1);
  return 0;
}

static int child_write(peer *p, uint32_t slot, uint64_t seed) {
  ipc_msg m = msg(OP_WRITE, slot);
  m.seed = seed;
  CALL_OK(p, &m, -1);
  return 0;
}

static int child_destroy(peer *p, uint32_t slot) {
  ipc_msg m = msg(OP_DESTROY, slot);
  CALL_OK(p, &m, -1);
  return 0;
}

static int verify_here(jet_context ctx, const tobj *o, uint64_t seed, const char *when) {
  char why[512];
  CHECK_MSG(!tobj_verify(ctx, o, seed, why, sizeof why), "parent, %s: %s", when, why);
  return 0;
}

static int write_here(jet_context ctx, const tobj *o, uint64_t seed) {
  char why[512];
  CHECK_MSG(!tobj_write(ctx, o, seed, why, sizeof why), "parent: %s", why);
  return 0;
}

/* ------------------------------------------------------------ object factories */

static jet_status make_buffer(jet_context ctx, unsigned flags, size_t w, size_t h, size_t d,
                              tobj *o) {
  memset(o, 0, sizeof *o);
  o->kind = JET_IPC_OBJECT_BUFFER;
  jet_buffer_desc bd = {JET_MEMORY_DEVICE, flags, w, h, d};
  return jet_buffer_create(ctx, &bd, &o->b);
}

static jet_status make_image(jet_context ctx, unsigned flags, jet_format f, int w, int h,
                             tobj *o) {
  memset(o, 0, sizeof *o);
  o->kind = JET_IPC_OBJECT_IMAGE;
  jet_image_desc d = {f, w, h, flags};
  return jet_image_create_ex(ctx, &d, &o->im);
}

static jet_status make_shared(jet_context ctx, size_t bytes, tobj *o) {
  memset(o, 0, sizeof *o);
  o->kind = JET_IPC_OBJECT_SHARED;
  return jet_shared_create(ctx, bytes, JET_SHARED_EXPORTABLE, &o->sb);
}

/* The mechanism JET_*_EXPORTABLE gets on @ctx, or NONE when there is none. */
static jet_ipc_mechanism auto_mechanism(jet_context ctx) {
  jet_platform_info pi;
  jet_policy pol;
  if (jet_context_platform(ctx, &pi) != JET_STATUS_OK ||
      jet_context_policy(ctx, &pol) != JET_STATUS_OK)
    return JET_IPC_MECHANISM_NONE;
  if (pi.vmm_supported && pi.posix_fd_handles_supported) return JET_IPC_MECHANISM_VMM_FD;
  if (pol.kind == JET_PLATFORM_DESKTOP && pol.memory_ipc_allowed && pi.ipc_event_supported)
    return JET_IPC_MECHANISM_LEGACY;
  return JET_IPC_MECHANISM_NONE;
}

/* The round trip every kind goes through: the child imports, checks what the
 * parent wrote and writes its own pattern; the parent sees it and writes
 * again; the child sees that through the same mapping; an import cannot be
 * exported again; the child destroys first (the legacy mechanism needs it). */
static int round_trip(jet_context ctx, peer *p, tobj *o, jet_ipc_mechanism mech,
                      const char *what) {
  fprintf(stderr, "round trip: %s\n", what);
  uint64_t s1 = new_seed(), s2 = new_seed(), s3 = new_seed();
  if (write_here(ctx, o, s1)) return 1;
  if (send_import(p, o, 0, mech)) return 1;
  if (child_verify(p, 0, s1) || child_write(p, 0, s2)) return 1;
  if (verify_here(ctx, o, s2, "after the child wrote")) return 1;
  if (write_here(ctx, o, s3) || child_verify(p, 0, s3)) return 1;
  ipc_msg m = msg(OP_EXPORT_AGAIN, 0);
  CHECK(call(p, &m, -1));
  CHECK_MSG(m.status == JET_STATUS_INVALID_ARGUMENT && strstr(m.text, "imported") &&
                strstr(m.text, "fd -1"),
            "re-export of an import: %d, %s", m.status, m.text);
  if (child_destroy(p, 0)) return 1;
  if (verify_here(ctx, o, s3, "after the child destroyed its import")) return 1;
  CHECK_OK(tobj_destroy(o));
  return 0;
}

/* ------------------------------------------------------------ round trips */

TEST(gpu_ipc_buffer_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_ipc_mechanism mech = auto_mechanism(ctx);
  if (mech == JET_IPC_MECHANISM_NONE) {
    tobj o;
    CHECK_ST(make_buffer(ctx, JET_MEM_EXPORTABLE, 64, 1, 1, &o), JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("no memory IPC mechanism on this device and policy");
  }
  peer p;
  if (peer_start(&p, "")) return 1;
  int ptr_type_bad = 0;
  static const struct {
    unsigned flags;
    size_t w, h, d;
  } rows[] = {
      {JET_MEM_EXPORTABLE, 1000003, 1, 1},
      {JET_MEM_EXPORTABLE | JET_MEM_PITCHED, 1921, 1081, 1},
      {JET_MEM_EXPORTABLE | JET_MEM_PITCHED, 67, 13, 5},
      {JET_MEM_EXPORTABLE, 5 * MIB + 17, 1, 1}, /* three granules */
      {JET_MEM_EXPORTABLE, 1, 1, 1},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    tobj o;
    size_t w = rows[r].w + (r == 0 ? jt_rand() % 4096 : 0);
    CHECK_OK(make_buffer(ctx, rows[r].flags, w, rows[r].h, rows[r].d, &o));
    jet_buffer_info i;
    CHECK_OK(jet_buffer_get_info(o.b, &i));
    CHECK(i.kind == JET_MEMORY_DEVICE && i.device_ptr && !i.host_ptr && i.flags == rows[r].flags);
    if (rows[r].flags & JET_MEM_PITCHED)
      CHECK_MSG(i.pitch % JET_MEM_EXPORTABLE_PITCH_ALIGN == 0 && i.pitch >= w &&
                    i.pitch < w + JET_MEM_EXPORTABLE_PITCH_ALIGN,
                "pitch %zu for width %zu", i.pitch, w);
    else
      CHECK(i.pitch == w);
    CHECK(i.size == i.pitch * i.height * i.depth);
    /* jet_image_wrap and cudaMemcpyDefault rely on this; checked at the end
     * so that the round trips still run and report */
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t e = cudaPointerGetAttributes(&a, i.device_ptr);
    fprintf(stderr, "exportable buffer %p: cudaPointerGetAttributes %s, type %d, device %d\n",
            i.device_ptr, cudaGetErrorName(e), (int)a.type, a.device);
    if (e != cudaSuccess || a.type != cudaMemoryTypeDevice) ptr_type_bad = 1;
    char what[96];
    snprintf(what, sizeof what, "buffer %zu x %zu x %zu, flags 0x%x", w, rows[r].h, rows[r].d,
             rows[r].flags);
    if (round_trip(ctx, &p, &o, mech, what)) return 1;
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  CHECK_MSG(!ptr_type_bad, "exportable memory is not cudaMemoryTypeDevice (see above)");
  return 0;
}

TEST(gpu_ipc_image_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_ipc_mechanism mech = auto_mechanism(ctx);
  if (mech == JET_IPC_MECHANISM_NONE) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("no memory IPC mechanism on this device and policy");
  }
  peer p;
  if (peer_start(&p, "")) return 1;
  static const struct {
    jet_format f;
    int w, h;
  } rows[] = {{JET_FORMAT_NV12, 1920, 1080}, {JET_FORMAT_RGBA8, 3, 2}, {JET_FORMAT_GRAY8, 1, 1},
              {JET_FORMAT_I420, 642, 482},   {JET_FORMAT_RGBF32P, 33, 7}};
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    tobj o, plain;
    CHECK_OK(make_image(ctx, JET_IMAGE_EXPORTABLE, rows[r].f, rows[r].w, rows[r].h, &o));
    /* the plane layout is exactly jet_image_create's */
    CHECK_OK(make_image(ctx, 0, rows[r].f, rows[r].w, rows[r].h, &plain));
    int n = 0;
    CHECK_OK(jet_image_get_plane_count(o.im, &n));
    jet_image_plane_info p0, q0;
    CHECK_OK(jet_image_get_plane(o.im, 0, &p0));
    CHECK_OK(jet_image_get_plane(plain.im, 0, &q0));
    for (int k = 0; k < n; k++) {
      jet_image_plane_info a, b;
      CHECK_OK(jet_image_get_plane(o.im, k, &a));
      CHECK_OK(jet_image_get_plane(plain.im, k, &b));
      CHECK_MSG(a.pitch == b.pitch &&
                    (char *)a.ptr - (char *)p0.ptr == (char *)b.ptr - (char *)q0.ptr,
                "%s plane %d: pitch %zu vs %zu", jet_format_name(rows[r].f), k, a.pitch, b.pitch);
    }
    CHECK_OK(tobj_destroy(&plain));
    jet_image_memory mem;
    int owned = 0;
    CHECK_OK(jet_image_get_memory(o.im, &mem, &owned));
    CHECK(mem == JET_IMAGE_MEMORY_DEVICE && owned == 1);
    char what[64];
    snprintf(what, sizeof what, "image %s %dx%d", jet_format_name(rows[r].f), rows[r].w,
             rows[r].h);
    if (round_trip(ctx, &p, &o, mech, what)) return 1;
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_ipc_shared_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_ipc_mechanism mech = auto_mechanism(ctx);
  if (mech == JET_IPC_MECHANISM_NONE) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("no memory IPC mechanism on this device and policy");
  }
  peer p;
  if (peer_start(&p, "")) return 1;
  size_t sizes[] = {1 + jt_rand() % 4096, 3 * MIB + 1 + jt_rand() % 4096};
  for (size_t r = 0; r < 2; r++) {
    tobj o;
    CHECK_OK(make_shared(ctx, sizes[r], &o));
    jet_shared_info si;
    CHECK_OK(jet_shared_get_info(o.sb, &si));
    CHECK(si.backing == JET_SHARED_BACKING_DEVICE_STAGED && si.bytes == sizes[r]);
    CHECK(si.flags == JET_SHARED_EXPORTABLE && !si.zero_copy);
    char what[64];
    snprintf(what, sizeof what, "shared %zu bytes", sizes[r]);
    if (round_trip(ctx, &p, &o, mech, what)) return 1;
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Legacy CUDA IPC under the desktop policy, in both processes. */
TEST(gpu_ipc_legacy_on_desktop_policy) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_context_desc cd = {0, 0, "desktop"};
  CHECK_OK(jet_context_create(&ctx, &cd));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  tobj o;
  if (!pi.ipc_event_supported) {
    CHECK_ST(make_buffer(ctx, JET_MEM_EXPORTABLE_LEGACY, 64, 1, 1, &o), JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("the device reports no CUDA IPC support");
  }
  peer p;
  if (peer_start(&p, "desktop")) return 1;
  CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE_LEGACY | JET_MEM_PITCHED, 1921, 1081, 1, &o));
  if (round_trip(ctx, &p, &o, JET_IPC_MECHANISM_LEGACY, "legacy pitched buffer")) return 1;
  CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE_LEGACY, 3 * MIB + 5, 1, 1, &o));
  if (round_trip(ctx, &p, &o, JET_IPC_MECHANISM_LEGACY, "legacy buffer")) return 1;
  CHECK_OK(make_image(ctx, JET_IMAGE_EXPORTABLE_LEGACY, JET_FORMAT_NV12, 1920, 1080, &o));
  if (round_trip(ctx, &p, &o, JET_IPC_MECHANISM_LEGACY, "legacy NV12 image")) return 1;
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Under a Tegra policy: EXPORTABLE uses descriptors, LEGACY is refused with
 * the L4T hint, and legacy memory from a desktop-policy process is refused at
 * import. */
TEST(gpu_ipc_tegra_policy_uses_descriptors) {
  REQUIRE_GPU();
  jet_context ctx, desk;
  jet_context_desc cd = {0, 0, "orin"}, dd = {0, 0, "desktop"};
  CHECK_OK(jet_context_create(&ctx, &cd));
  CHECK_OK(jet_context_create(&desk, &dd));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  int vmm = pi.vmm_supported && pi.posix_fd_handles_supported;
  tobj o;
  static const char *const names[] = {"orin", "xavier"};
  for (int k = 0; k < 2; k++) {
    jet_context t;
    jet_context_desc td = {0, 0, names[k]};
    CHECK_OK(jet_context_create(&t, &td));
    CHECK_ST(make_buffer(t, JET_MEM_EXPORTABLE_LEGACY, 4096, 1, 1, &o), JET_STATUS_UNSUPPORTED);
    CHECK_MSG(strstr(jet_last_error()->hint, "L4T") && strstr(jet_last_error()->hint, "Thor") &&
                  strstr(jet_last_error()->hint, "file descriptors"),
              "%s hint: %s", names[k], jet_last_error()->hint);
    CHECK(o.b == NULL);
    CHECK_ST(make_image(t, JET_IMAGE_EXPORTABLE_LEGACY, JET_FORMAT_RGBA8, 3, 2, &o),
             JET_STATUS_UNSUPPORTED);
    CHECK(strstr(jet_last_error()->hint, "L4T"));
    CHECK_OK(jet_context_destroy(t));
  }
  /* Thor with CUDA 13 allows legacy handles when asked */
  jet_context thor;
  jet_context_desc thd = {0, 0, "thor"};
  CHECK_OK(jet_context_create(&thor, &thd));
  jet_status st = make_buffer(thor, JET_MEM_EXPORTABLE_LEGACY, 4096, 1, 1, &o);
  CHECK_MSG(st == (pi.ipc_event_supported ? JET_STATUS_OK : JET_STATUS_UNSUPPORTED), "thor: %s",
            jet_last_error_string());
  if (st == JET_STATUS_OK) CHECK_OK(tobj_destroy(&o));
  CHECK_OK(jet_context_destroy(thor));

  if (!vmm) {
    CHECK_ST(make_buffer(ctx, JET_MEM_EXPORTABLE, 4096, 1, 1, &o), JET_STATUS_UNSUPPORTED);
    CHECK(strstr(jet_last_error()->hint, "L4T"));
    CHECK_OK(jet_context_destroy(ctx));
    CHECK_OK(jet_context_destroy(desk));
    SKIP("the device cannot export VMM descriptors: the Tegra policy has no mechanism");
  }
  peer p;
  if (peer_start(&p, "orin")) return 1;
  CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE | JET_MEM_PITCHED, 1921, 1081, 1, &o));
  if (round_trip(ctx, &p, &o, JET_IPC_MECHANISM_VMM_FD, "orin policy buffer")) return 1;
  CHECK_OK(make_image(ctx, JET_IMAGE_EXPORTABLE, JET_FORMAT_NV12, 1920, 1080, &o));
  if (round_trip(ctx, &p, &o, JET_IPC_MECHANISM_VMM_FD, "orin policy NV12 image")) return 1;
  CHECK_OK(make_shared(ctx, 100000, &o));
  if (round_trip(ctx, &p, &o, JET_IPC_MECHANISM_VMM_FD, "orin policy shared")) return 1;
  /* legacy memory of a desktop-policy process: the Tegra child refuses it */
  if (pi.ipc_event_supported) {
    CHECK_OK(make_buffer(desk, JET_MEM_EXPORTABLE_LEGACY, 4096, 1, 1, &o));
    ipc_msg m = msg(OP_IMPORT_FAIL, 1);
    int fd = 0;
    CHECK_OK(tobj_export(&o, &m.desc, &fd));
    CHECK(fd == -1 && m.desc.mechanism == JET_IPC_MECHANISM_LEGACY);
    CHECK(call(&p, &m, -1));
    CHECK_MSG(m.status == JET_STATUS_UNSUPPORTED && strstr(m.text, "L4T"),
              "legacy import under orin: %d: %s", m.status, m.text);
    CHECK_OK(tobj_destroy(&o));
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  CHECK_OK(jet_context_destroy(desk));
  return 0;
}

/* ------------------------------------------------------------ lifetime in any order */

static int need_vmm(jet_context ctx) {
  return auto_mechanism(ctx) == JET_IPC_MECHANISM_VMM_FD;
}

/* The exporter destroys its object (and closes its descriptor) before the
 * importer maps it; then, second case, while the importer has it mapped. */
TEST(gpu_ipc_lifetime_exporter_destroys_first) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  if (!need_vmm(ctx)) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("any-order lifetime is a VMM property; this device or policy has no VMM descriptors");
  }
  peer p;
  if (peer_start(&p, "")) return 1;
  for (int kind = JET_IPC_OBJECT_BUFFER; kind <= JET_IPC_OBJECT_SHARED; kind++) {
    tobj o;
    if (kind == JET_IPC_OBJECT_BUFFER)
      CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE | JET_MEM_PITCHED, 999, 77, 3, &o));
    else if (kind == JET_IPC_OBJECT_IMAGE)
      CHECK_OK(make_image(ctx, JET_IMAGE_EXPORTABLE, JET_FORMAT_NV12, 1920, 1080, &o));
    else
      CHECK_OK(make_shared(ctx, 3 * MIB + 3, &o));
    uint64_t s1 = new_seed(), s2 = new_seed(), s3 = new_seed();
    if (write_here(ctx, &o, s1)) return 1;
    /* 1. destroyed before the descriptor even leaves this process */
    ipc_msg m = msg(OP_IMPORT, 0);
    int fd = -1;
    CHECK_OK(tobj_export(&o, &m.desc, &fd));
    CHECK_OK(tobj_destroy(&o));
    int sent = call(&p, &m, fd);
    close(fd);
    CHECK(sent);
    CHECK_MSG(m.status == 0, "kind %d: import after the exporter destroyed: %s", kind, m.text);
    if (child_verify(&p, 0, s1) || child_write(&p, 0, s2) || child_verify(&p, 0, s2)) return 1;
    if (child_destroy(&p, 0)) return 1;

    /* 2. destroyed while the importer has it mapped */
    if (kind == JET_IPC_OBJECT_BUFFER)
      CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE, 123457, 1, 1, &o));
    else if (kind == JET_IPC_OBJECT_IMAGE)
      CHECK_OK(make_image(ctx, JET_IMAGE_EXPORTABLE, JET_FORMAT_RGBA8, 3, 2, &o));
    else
      CHECK_OK(make_shared(ctx, 777, &o));
    if (write_here(ctx, &o, s1) || send_import(&p, &o, 1, JET_IPC_MECHANISM_VMM_FD)) return 1;
    CHECK_OK(tobj_destroy(&o));
    CHECK_OK(jet_context_synchronize(ctx));
    if (child_verify(&p, 1, s1) || child_write(&p, 1, s3) || child_verify(&p, 1, s3)) return 1;
    if (child_destroy(&p, 1)) return 1;
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* The importer destroys its mapping first; the exporter's object is intact
 * and keeps what the importer wrote. */
TEST(gpu_ipc_lifetime_importer_destroys_first) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  if (auto_mechanism(ctx) == JET_IPC_MECHANISM_NONE) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("no memory IPC mechanism on this device and policy");
  }
  jet_ipc_mechanism mech = auto_mechanism(ctx);
  peer p;
  if (peer_start(&p, "")) return 1;
  for (int kind = JET_IPC_OBJECT_BUFFER; kind <= JET_IPC_OBJECT_SHARED; kind++) {
    tobj o;
    if (kind == JET_IPC_OBJECT_BUFFER)
      CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE, 2 * MIB, 1, 1, &o)); /* exactly one granule */
    else if (kind == JET_IPC_OBJECT_IMAGE)
      CHECK_OK(make_image(ctx, JET_IMAGE_EXPORTABLE, JET_FORMAT_GRAY8, 1, 1, &o));
    else
      CHECK_OK(make_shared(ctx, 1, &o));
    uint64_t s1 = new_seed(), s2 = new_seed(), s3 = new_seed();
    if (write_here(ctx, &o, s1) || send_import(&p, &o, 2, mech)) return 1;
    if (child_verify(&p, 2, s1) || child_write(&p, 2, s2) || child_destroy(&p, 2)) return 1;
    if (verify_here(ctx, &o, s2, "after the importer destroyed")) return 1;
    if (write_here(ctx, &o, s3) || verify_here(ctx, &o, s3, "written after")) return 1;
    /* exported again after the first import went: a fresh descriptor works */
    if (send_import(&p, &o, 2, mech) || child_verify(&p, 2, s3) || child_destroy(&p, 2)) return 1;
    CHECK_OK(tobj_destroy(&o));
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* The exporter closes its descriptor and destroys its object while the
 * importer holds the received descriptor unimported; the import then works
 * from that descriptor alone, which the importer closes before using the
 * mapping. */
TEST(gpu_ipc_lifetime_descriptor_closed_before_import) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  if (!need_vmm(ctx)) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("descriptors are a VMM matter; this device or policy has no VMM descriptors");
  }
  peer p;
  if (peer_start(&p, "")) return 1;
  for (int kind = JET_IPC_OBJECT_BUFFER; kind <= JET_IPC_OBJECT_SHARED; kind++) {
    tobj o;
    if (kind == JET_IPC_OBJECT_BUFFER)
      CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE | JET_MEM_PITCHED, 4000, 600, 1, &o));
    else if (kind == JET_IPC_OBJECT_IMAGE)
      CHECK_OK(make_image(ctx, JET_IMAGE_EXPORTABLE, JET_FORMAT_I420, 1280, 720, &o));
    else
      CHECK_OK(make_shared(ctx, 65537, &o));
    uint64_t s1 = new_seed(), s2 = new_seed();
    if (write_here(ctx, &o, s1)) return 1;
    ipc_msg m = msg(OP_HOLD_FD, 3);
    int fd = -1;
    CHECK_OK(tobj_export(&o, &m.desc, &fd));
    jet_ipc_memory_desc desc = m.desc;
    int sent = call(&p, &m, fd);
    close(fd);
    CHECK(sent && m.status == 0);
    CHECK_OK(tobj_destroy(&o));
    CHECK_OK(jet_context_synchronize(ctx));
    m = msg(OP_IMPORT_HELD, 3);
    m.desc = desc;
    CALL_OK(&p, &m, -1);
    if (child_verify(&p, 3, s1) || child_write(&p, 3, s2) || child_verify(&p, 3, s2)) return 1;
    if (child_destroy(&p, 3)) return 1;
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ forged descriptions */

static int expect_refusal(peer *p, const jet_ipc_memory_desc *d, int fd, jet_status want,
                          const char *word, const char *what) {
  ipc_msg m = msg(OP_IMPORT_FAIL, 4);
  m.desc = *d;
  CHECK_MSG(call(p, &m, fd), "%s: no exchange", what);
  fprintf(stderr, "%s: %s: %s\n", what, jet_status_name((jet_status)m.status), m.text);
  CHECK_MSG(m.status == (int32_t)want, "%s: child got %s, expected %s: %s", what,
            jet_status_name((jet_status)m.status), jet_status_name(want), m.text);
  CHECK_MSG(!word || strstr(m.text, word), "%s: \"%s\" not in \"%s\"", what, word, m.text);
  CHECK_MSG(m.fds == 0, "%s: the refused import left %lld descriptors open", what,
            (long long)m.fds);
  return 0;
}

TEST(gpu_ipc_forged_description_fails_cleanly) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  jet_policy pol;
  CHECK_OK(jet_context_platform(ctx, &pi));
  CHECK_OK(jet_context_policy(ctx, &pol));
  if (!need_vmm(ctx)) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("no VMM descriptors on this device or policy");
  }
  peer p;
  if (peer_start(&p, "")) return 1;
  tobj o;
  /* a genuine import first, so whatever the driver opens once per process is
   * open before the refused imports count descriptors */
  CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE, 4096, 1, 1, &o));
  uint64_t s0 = new_seed();
  if (write_here(ctx, &o, s0) || send_import(&p, &o, 6, JET_IPC_MECHANISM_VMM_FD)) return 1;
  if (child_verify(&p, 6, s0) || child_destroy(&p, 6)) return 1;
  CHECK_OK(tobj_destroy(&o));
  CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE, 3 * MIB, 1, 1, &o)); /* 4 MiB allocated */
  uint64_t s1 = new_seed();
  if (write_here(ctx, &o, s1)) return 1;
  jet_ipc_memory_desc d;
  int fd = -1;
  CHECK_OK(tobj_export(&o, &d, &fd));
  fprintf(stderr, "3 MiB exportable buffer: alloc_size %llu\n", (unsigned long long)d.alloc_size);
  CHECK(d.alloc_size >= 3 * MIB && d.alloc_size % JET_IPC_ALLOC_ALIGN == 0);

  /* 2 MiB more than the real allocation (a whole granule where the minimum
   * granularity is 2 MiB, else refused as a partial granule), then twice the
   * allocation: cuMemMap refuses both */
  jet_ipc_memory_desc f = d;
  f.alloc_size += 2 * MIB;
  if (expect_refusal(&p, &f, fd, JET_STATUS_INVALID_ARGUMENT, NULL, "alloc_size + 2 MiB"))
    return 1;
  f = d;
  f.alloc_size *= 2;
  if (expect_refusal(&p, &f, fd, JET_STATUS_INVALID_ARGUMENT, "forged", "alloc_size x 2"))
    return 1;
  /* many times larger, still below the device's memory */
  f = d;
  f.alloc_size = (pi.total_memory / 2) / JET_IPC_ALLOC_ALIGN * JET_IPC_ALLOC_ALIGN;
  if (f.alloc_size > d.alloc_size &&
      expect_refusal(&p, &f, fd, JET_STATUS_INVALID_ARGUMENT, NULL, "alloc_size half the device"))
    return 1;
  /* larger than the device: refused before any CUDA call */
  f = d;
  f.alloc_size = ((uint64_t)pi.total_memory + JET_IPC_ALLOC_ALIGN) / JET_IPC_ALLOC_ALIGN *
                 JET_IPC_ALLOC_ALIGN;
  if (expect_refusal(&p, &f, fd, JET_STATUS_INVALID_ARGUMENT, "more than", "alloc_size > device"))
    return 1;
  /* another GPU's UUID */
  f = d;
  f.device_uuid[1] ^= 0x5a5a5a5au;
  if (expect_refusal(&p, &f, fd, JET_STATUS_INVALID_ARGUMENT, "exporting GPU", "foreign UUID"))
    return 1;
  /* data larger than the allocation */
  f = d;
  f.data_size = f.alloc_size + 1;
  f.width_bytes = f.pitch = f.data_size;
  if (expect_refusal(&p, &f, fd, JET_STATUS_INVALID_ARGUMENT, "data_size", "data past alloc"))
    return 1;
  /* a descriptor that is not CUDA memory: refused by the driver, no crash */
  int pfd[2];
  CHECK(pipe2(pfd, O_CLOEXEC) == 0);
  close(pfd[1]);
  {
    ipc_msg m = msg(OP_IMPORT_FAIL, 4);
    m.desc = d;
    CHECK(call(&p, &m, pfd[0]));
    fprintf(stderr, "pipe as descriptor: %s: %s\n", jet_status_name((jet_status)m.status), m.text);
    CHECK_MSG(m.status != JET_STATUS_OK && m.status > 0, "a pipe imported as GPU memory: %d, %s",
              m.status, m.text);
    CHECK(strstr(m.text, "cuMemImportFromShareableHandle"));
    CHECK_MSG(m.fds == 0, "the refused import left %lld descriptors open", (long long)m.fds);
  }
  close(pfd[0]);
  /* after all that, the real description still imports and reads right */
  ipc_msg m = msg(OP_IMPORT, 5);
  m.desc = d;
  int sent = call(&p, &m, fd);
  close(fd);
  CHECK(sent);
  CHECK_MSG(m.status == 0, "the genuine import after the forged ones: %s", m.text);
  if (child_verify(&p, 5, s1) || child_destroy(&p, 5)) return 1;
  CHECK_OK(tobj_destroy(&o));

  /* legacy: the declared size is checked against the opened allocation */
  if (pol.memory_ipc_allowed && pol.kind == JET_PLATFORM_DESKTOP && pi.ipc_event_supported) {
    jet_context desk;
    jet_context_desc dd = {0, 0, "desktop"};
    CHECK_OK(jet_context_create(&desk, &dd));
    /* a genuine legacy import first (what the driver opens once is then open) */
    CHECK_OK(make_buffer(desk, JET_MEM_EXPORTABLE_LEGACY, 4096, 1, 1, &o));
    if (write_here(desk, &o, s0) || send_import(&p, &o, 7, JET_IPC_MECHANISM_LEGACY)) return 1;
    if (child_verify(&p, 7, s0) || child_destroy(&p, 7)) return 1;
    CHECK_OK(tobj_destroy(&o));
    CHECK_OK(make_buffer(desk, JET_MEM_EXPORTABLE_LEGACY, 3 * MIB, 1, 1, &o));
    CHECK_OK(tobj_export(&o, &d, &fd));
    CHECK(fd == -1);
    f = d;
    f.alloc_size += 2 * MIB;
    if (expect_refusal(&p, &f, -1, JET_STATUS_INVALID_ARGUMENT, "handle opens",
                       "legacy alloc_size + 2 MiB"))
      return 1;
    CHECK_OK(tobj_destroy(&o));
    CHECK_OK(jet_context_destroy(desk));
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ argument checks with real objects */

TEST(gpu_badarg_ipc_destroyed_and_not_exportable) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_ipc_memory_desc d;
  int fd = 7;
  tobj o;
  CHECK_OK(make_buffer(ctx, 0, 4096, 1, 1, &o));
  CHECK_ST(jet_ipc_export_buffer(o.b, &d, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "JET_MEM_EXPORTABLE") && fd == -1);
  CHECK_OK(tobj_destroy(&o));
  CHECK_OK(make_image(ctx, 0, JET_FORMAT_NV12, 64, 64, &o));
  CHECK_ST(jet_ipc_export_image(o.im, &d, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "JET_IMAGE_EXPORTABLE"));
  CHECK_OK(tobj_destroy(&o));
  memset(&o, 0, sizeof o);
  o.kind = JET_IPC_OBJECT_SHARED;
  CHECK_OK(jet_shared_create(ctx, 4096, JET_SHARED_STAGED, &o.sb));
  CHECK_ST(jet_ipc_export_shared(o.sb, &d, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "JET_SHARED_EXPORTABLE"));
  CHECK_OK(tobj_destroy(&o));

  if (auto_mechanism(ctx) != JET_IPC_MECHANISM_NONE) {
    jet_buffer dead;
    jet_buffer_desc bd = {JET_MEMORY_DEVICE, JET_MEM_EXPORTABLE, 4096, 1, 1};
    CHECK_OK(jet_buffer_create(ctx, &bd, &dead));
    CHECK_OK(jet_buffer_destroy(dead));
    CHECK_ST(jet_ipc_export_buffer(dead, &d, &fd), JET_STATUS_INVALID_HANDLE);
    CHECK(fd == -1);
    /* a description exported here, imported into a destroyed context */
    CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE, 4096, 1, 1, &o));
    CHECK_OK(tobj_export(&o, &d, &fd));
    jet_context gone;
    CHECK_OK(jt_context(&gone, 0));
    CHECK_OK(jet_context_destroy(gone));
    jet_buffer b = (jet_buffer)(uintptr_t)0x1;
    CHECK_ST(jet_ipc_import_buffer(gone, &d, fd, &b), JET_STATUS_INVALID_HANDLE);
    CHECK(b == NULL);
    CHECK_MSG(fd < 0 || fcntl(fd, F_GETFD) >= 0, "the failed import closed the descriptor");
    if (fd >= 0) close(fd);
    CHECK_OK(tobj_destroy(&o));
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ many cycles */

static int stats(peer *p, int64_t *fds, int64_t *free_bytes) {
  ipc_msg m = msg(OP_STATS, 0);
  CALL_OK(p, &m, -1);
  *fds = m.fds;
  *free_bytes = m.free_bytes;
  return 0;
}

/* One export/import/release cycle of a small object of kind @i % 4 (buffer,
 * buffer, image, shared), with an 8-byte marker the child checks. Odd cycles
 * destroy the exporter's object before the child imports. */
static int one_cycle(jet_context ctx, peer *p, int i) {
  tobj o;
  int kind = i % 4;
  if (kind < 2) CHECK_OK(make_buffer(ctx, JET_MEM_EXPORTABLE, 4096, 1, 1, &o));
  else if (kind == 2) CHECK_OK(make_image(ctx, JET_IMAGE_EXPORTABLE, JET_FORMAT_RGBA8, 64, 4, &o));
  else CHECK_OK(make_shared(ctx, 4096, &o));
  uint64_t marker = new_seed();
  if (o.kind == JET_IPC_OBJECT_SHARED) {
    jet_stream L;
    void *h;
    CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &L));
    CHECK_OK(jet_shared_begin_cpu(o.sb, L, JET_ACCESS_WRITE, &h));
    jt_fill_random(h, 4096);
    memcpy(h, &marker, sizeof marker);
    CHECK_OK(jet_shared_end_cpu(o.sb, L));
    CHECK_OK(jet_stream_synchronize(L));
  } else {
    CU_OK(cudaMemcpy(tobj_dev(&o), &marker, sizeof marker, cudaMemcpyHostToDevice));
  }
  ipc_msg m = msg(OP_CYCLE, 0);
  m.seed = marker;
  int fd = -1;
  CHECK_OK(tobj_export(&o, &m.desc, &fd));
  if (i & 1) CHECK_OK(tobj_destroy(&o));
  int sent = call(p, &m, fd);
  if (fd >= 0) close(fd);
  CHECK_MSG(sent, "cycle %d: no exchange", i);
  CHECK_MSG(m.status == 0, "cycle %d (kind %d): child: %s", i, kind, m.text);
  if (!(i & 1)) CHECK_OK(tobj_destroy(&o));
  return 0;
}

TEST(gpu_ipc_cycles_10000_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  if (!need_vmm(ctx)) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("no VMM descriptors on this device or policy");
  }
  peer p;
  if (peer_start(&p, "")) return 1;
  /* Warm-up: the driver and this harness set up what they keep (handle
   * tables, staging pools, CUDA's own descriptors) in the first cycles. */
  for (int i = 0; i < 200; i++)
    if (one_cycle(ctx, &p, i)) return 1;
  CU_OK(cudaDeviceSynchronize());
  size_t free0 = 0, free1 = 0, total = 0;
  CU_OK(cudaMemGetInfo(&free0, &total));
  int fds0 = jt_count_fds();
  int64_t cfds0, cfree0, cfds1, cfree1;
  if (stats(&p, &cfds0, &cfree0)) return 1;
  double t0 = jt_now();
  const int n = 10000;
  for (int i = 0; i < n; i++)
    if (one_cycle(ctx, &p, i)) return 1;
  double dt = jt_now() - t0;
  CU_OK(cudaDeviceSynchronize());
  CU_OK(cudaMemGetInfo(&free1, &total));
  int fds1 = jt_count_fds();
  if (stats(&p, &cfds1, &cfree1)) return 1;
  fprintf(stderr,
          "%d cycles in %.1f s (%.0f us each); parent: free %zu -> %zu bytes, %d -> %d "
          "descriptors; child: free %lld -> %lld bytes, %lld -> %lld descriptors\n",
          n, dt, dt / n * 1e6, free0, free1, fds0, fds1, (long long)cfree0, (long long)cfree1,
          (long long)cfds0, (long long)cfds1);
  /* Each cycle maps a 2 MiB granule in both processes, so a leaked mapping,
   * handle or descriptor (which pins its allocation) loses 2 MiB per cycle:
   * 20 GiB over the run. The margin covers what the driver may keep growing
   * on its own in 2 MiB steps (page tables, VA bookkeeping): it is 32 granules,
   * below one leak in 300 cycles. Both processes see the device-wide figure. */
  const size_t margin = 64 * MIB;
  int rc = 0;
  if (free1 + margin < free0) {
    fprintf(stderr, "device memory fell by %zu bytes over %d cycles: a leak\n", free0 - free1, n);
    rc = 1;
  }
  if (cfree1 >= 0 && cfree0 >= 0 && cfree1 + (int64_t)margin < cfree0) {
    fprintf(stderr, "the child saw device memory fall by %lld bytes: a leak\n",
            (long long)(cfree0 - cfree1));
    rc = 1;
  }
  /* Descriptors: one leaked per cycle would be 10000; CUDA may open one or
   * two of its own lazily (printed below if it does). */
  if (fds1 != fds0) jt_print_fds("parent after the cycles");
  if (fds1 > fds0 + 2) {
    fprintf(stderr, "the parent holds %d more descriptors: a leak\n", fds1 - fds0);
    rc = 1;
  }
  if (cfds1 > cfds0 + 2) {
    fprintf(stderr, "the child holds %lld more descriptors: a leak\n", (long long)(cfds1 - cfds0));
    rc = 1;
  }
  if (peer_stop(&p)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return rc;
}

/*
 * The frame ring (jetrt/ring.h): slots of exportable GPU memory shared once,
 * then only small messages; who holds a slot lives in a per-consumer sealed
 * memfd of atomic words, so a take and a reclaim can never both win.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "wire.h"

/* The control block one consumer shares with the producer. A word is
 * seq << 2 | state; the seq makes a stale take or reclaim fail its CAS. */
enum { WORD_FREE = 0, WORD_QUEUED = 1, WORD_TAKEN = 2 };
#define CONTROL_MAGIC 0x474e4952u /* "RING" */
#define CONTROL_SIZE 4096u
typedef struct control {
  uint32_t magic, version, slot_count, reserved;
  uint32_t pad[12];
  _Atomic uint64_t word[JET_RING_MAX_SLOTS];
} control;
_Static_assert(sizeof(control) <= CONTROL_SIZE, "control block fits its page");
_Static_assert(offsetof(control, word) == 64, "words start at byte 64");

static uint64_t word_of(uint64_t seq, unsigned state) { return seq << 2 | state; }
static unsigned state_of(uint64_t w) { return (unsigned)(w & 3u); }

/* CAS one word; 1 when it was @from and is now @to. */
static int word_cas(_Atomic uint64_t *w, uint64_t from, uint64_t to) {
  return atomic_compare_exchange_strong_explicit(w, &from, to, memory_order_acq_rel,
                                                 memory_order_acquire);
}

typedef struct peer {
  jet_channel ch;
  int active;
  jet_ring_policy policy;
  int depth;
  int pid;
  char name[JET__WIRE_NAME_LEN];
  control *ctl;
  /* DROP_OLDEST: the newest frame message its full socket refused (seq 0:
   * none), sent when the socket has room unless its slot was reclaimed */
  uint64_t unsent_seq;
  uint32_t unsent_slot;
  size_t unsent_len;
  unsigned char unsent[JET__WIRE_FRAME_MAX];
} peer;

typedef struct queued {
  uint32_t slot;
  uint64_t seq, ts;
  uint32_t user_len;
  unsigned char user[JET__WIRE_USER_MAX];
} queued;

struct jet_ring_s {
  jet__handle h;
  int producer;
  jet_channel ch; /* producer: the listener; consumer: the connection */
  int nslots;
  int is_image;
  jet_image img[JET_RING_MAX_SLOTS];
  jet_buffer buf[JET_RING_MAX_SLOTS];
  jet_event ev[JET_RING_MAX_SLOTS]; /* interprocess: written-by-producer */
  jet_ring_stats stats;
  unsigned char *msg; /* receive buffer of JET__WIRE_WELCOME_MAX bytes */

  /* producer */
  jet_ipc_memory_desc mdesc[JET_RING_MAX_SLOTS];
  int mfd[JET_RING_MAX_SLOTS];
  jet_ipc_event_handle evh[JET_RING_MAX_SLOTS];
  int loaned[JET_RING_MAX_SLOTS];
  uint64_t slot_seq[JET_RING_MAX_SLOTS]; /* last seq published in the slot */
  uint64_t next_seq;
  int max_peers;
  peer peers[JET_RING_MAX_CONSUMERS];
  unsigned char uuid[16];

  /* consumer */
  control *ctl;
  jet_ring_policy policy;
  int depth;
  unsigned spin_us;
  int gone; /* the producer said BYE or hung up */
  queued queue[JET_RING_MAX_QUEUE];
  int qhead, qlen;
  uint64_t taken_seq[JET_RING_MAX_SLOTS]; /* 0: not held */
  jet_event done_ev[JET_RING_MAX_SLOTS];  /* recorded by release on the caller's stream */
  int done_pending[JET_RING_MAX_SLOTS];
};

static uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static jet_status check_end(jet_ring r, int producer, const char *fn) {
  JET__TRY(jet__handle_check(r, JET__H_RING, fn, "ring"));
  if (r->producer != producer)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "this is a %s end; the call is for a %s end",
                      r->producer ? "producer" : "consumer", producer ? "producer" : "consumer");
  return JET_STATUS_OK;
}

/* One message into r->msg (the ring's receive buffer); the descriptors that
 * came with it are in m->fds, the caller's to close. */
static jet_status recv_msg(jet_ring r, jet_channel ch, int timeout_ms, jet_channel_msg *m) {
  memset(m, 0, sizeof *m);
  m->payload = r->msg;
  m->capacity = JET__WIRE_WELCOME_MAX;
  return jet_channel_recv(ch, timeout_ms, m);
}

/* ================================================================ producer */

static void peer_drop(jet_ring r, peer *p, const char *why) {
  if (!p->active) return;
  int held = 0;
  for (int s = 0; s < r->nslots; s++)
    if (atomic_exchange(&p->ctl->word[s], 0) != 0) held++;
  r->stats.reclaimed += (uint64_t)held;
  jet__log(JET_LOG_INFO, "ring %p: consumer \"%s\" (pid %d) %s; %d slot(s) reclaimed", (void *)r,
           p->name, p->pid, why, held);
  munmap(p->ctl, CONTROL_SIZE);
  jet_channel_close(p->ch);
  memset(p, 0, sizeof *p);
  r->stats.consumers--;
  r->stats.lost_consumers++;
}

static jet_status new_control(control **out, int *fd, uint32_t slots, const char *fn) {
  int m = memfd_create("jetrt-ring-control", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (m < 0)
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "memfd_create", "errno", errno, NULL, "%s",
                             strerror(errno));
  if (ftruncate(m, CONTROL_SIZE) != 0) {
    int e = errno;
    close(m);
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "ftruncate", "errno", e, NULL, "%s",
                             strerror(e));
  }
  /* Sealed so that a consumer cannot shrink it under the producer's mapping. */
  if (fcntl(m, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    int e = errno;
    close(m);
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "fcntl(F_ADD_SEALS)", "errno", e, NULL,
                             "%s", strerror(e));
  }
  void *p = mmap(NULL, CONTROL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
  if (p == MAP_FAILED) {
    int e = errno;
    close(m);
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "mmap", "errno", e, NULL, "%s", strerror(e));
  }
  control *c = p;
  c->magic = CONTROL_MAGIC;
  c->version = JET__WIRE_RING_VERSION;
  c->slot_count = slots;
  for (uint32_t s = 0; s < JET_RING_MAX_SLOTS; s++) atomic_init(&c->word[s], 0);
  *out = c;
  *fd = m;
  return JET_STATUS_OK;
}

/* A consumer connected: HELLO in, WELCOME (control block, slots, events) out. */
static void admit(jet_ring r, jet_channel ch, const char *fn) {
  int idx = -1;
  for (int i = 0; i < r->max_peers && idx < 0; i++)
    if (!r->peers[i].active) idx = i;
  jet_channel_msg m;
  /* A bounded wait: a silent client must not stall the producer. */
  jet_status st = recv_msg(r, ch, 200, &m);
  jet__wire_hello hello;
  if (st == JET_STATUS_OK && m.type != JET__WIRE_HELLO)
    st = jet__error(JET_STATUS_PROTOCOL_ERROR, fn, "expected HELLO, got %s",
                    jet__wire_type_name(m.type));
  if (st == JET_STATUS_OK) st = jet__wire_decode_hello(r->msg, m.len, m.nfds, &hello, fn);
  for (int i = 0; i < m.nfds; i++) close(m.fds[i]);
  if (st == JET_STATUS_OK && idx < 0) {
    jet__wire_bye bye = {JET__WIRE_BYE_ERROR};
    size_t len;
    if (jet__wire_encode_bye(&bye, r->msg, JET__WIRE_WELCOME_MAX, &len) == JET_STATUS_OK)
      (void)jet_channel_send(ch, JET__WIRE_BYE, r->msg, len, NULL, 0, 0);
    st = jet__error(JET_STATUS_INVALID_STATE, fn, "%d consumers connected: no room",
                    r->max_peers);
  }
  peer *p = idx >= 0 ? &r->peers[idx] : NULL;
  int cfd = -1;
  if (st == JET_STATUS_OK) st = new_control(&p->ctl, &cfd, (uint32_t)r->nslots, fn);
  if (st == JET_STATUS_OK) {
    jet__wire_welcome w;
    memset(&w, 0, sizeof w);
    const jet_ipc_memory_desc *d = &r->mdesc[0];
    w.ring_version = JET__WIRE_RING_VERSION;
    w.consumer_index = (uint32_t)idx;
    w.slot_count = (uint32_t)r->nslots;
    w.mechanism = d->mechanism == JET_IPC_MECHANISM_VMM_FD ? JET__WIRE_MECH_VMM_FD
                                                          : JET__WIRE_MECH_LEGACY_IPC;
    w.object = r->is_image ? JET__WIRE_OBJECT_IMAGE : JET__WIRE_OBJECT_BUFFER;
    w.user_bytes_max = JET__WIRE_USER_MAX;
    w.alloc_size = d->alloc_size;
    w.data_size = d->data_size;
    memcpy(w.device_uuid, d->device_uuid, sizeof w.device_uuid);
    if (r->is_image) {
      w.image.format = (int32_t)d->format;
      w.image.width = (int32_t)d->width;
      w.image.height = (int32_t)d->image_height;
      w.image.plane_count = d->plane_count;
      for (int i = 0; i < 3; i++) {
        w.image.offset[i] = d->plane_offset[i];
        w.image.pitch[i] = d->plane_pitch[i];
      }
    } else {
      w.buffer.width_bytes = d->width_bytes;
      w.buffer.height = d->height;
      w.buffer.depth = d->depth;
      w.buffer.pitch = d->pitch;
    }
    w.control_size = CONTROL_SIZE;
    int fds[1 + JET_RING_MAX_SLOTS], nfds = 0;
    fds[nfds++] = cfd;
    for (int s = 0; s < r->nslots; s++) {
      memcpy(w.slot[s].event_handle, r->evh[s].bytes, JET__WIRE_HANDLE_LEN);
      if (w.mechanism == JET__WIRE_MECH_LEGACY_IPC)
        memcpy(w.slot[s].mem_handle, r->mdesc[s].legacy_handle, JET__WIRE_HANDLE_LEN);
      else
        fds[nfds++] = r->mfd[s];
    }
    size_t len = 0;
    st = jet__wire_encode_welcome(&w, r->msg, JET__WIRE_WELCOME_MAX, &len);
    if (st == JET_STATUS_OK) st = jet_channel_send(ch, JET__WIRE_WELCOME, r->msg, len, fds, nfds, 1000);
  }
  if (cfd >= 0) close(cfd); /* the mapping stays; the consumer has its own copy */
  if (st != JET_STATUS_OK) {
    if (p && p->ctl) munmap(p->ctl, CONTROL_SIZE);
    if (p) memset(p, 0, sizeof *p);
    jet_channel_close(ch);
    r->stats.lost_consumers++;
    jet__log(JET_LOG_WARN, "ring %p: a consumer was refused: %s", (void *)r,
             jet_last_error_string());
    return;
  }
  p->ch = ch;
  p->active = 1;
  p->policy = hello.policy == JET__WIRE_POLICY_LOSSLESS ? JET_RING_LOSSLESS : JET_RING_DROP_OLDEST;
  p->depth = (int)hello.queue_depth;
  p->pid = (int)hello.pid;
  memcpy(p->name, hello.name, sizeof p->name);
  r->stats.consumers++;
  jet__log(JET_LOG_INFO, "ring %p: consumer \"%s\" (pid %d) joined as %d, %s, depth %d",
           (void *)r, p->name, p->pid, idx, p->policy == JET_RING_LOSSLESS ? "lossless" : "drop-oldest",
           p->depth);
}

/* Messages from one consumer: releases only wake us (the words are the truth). */
static void drain_peer(jet_ring r, peer *p, const char *fn) {
  for (;;) {
    jet_channel_msg m;
    jet_status st = recv_msg(r, p->ch, 0, &m);
    for (int i = 0; i < m.nfds; i++) close(m.fds[i]);
    if (st == JET_STATUS_TIMEOUT) return;
    if (st == JET_STATUS_DISCONNECTED) return peer_drop(r, p, "went away");
    if (st != JET_STATUS_OK) return peer_drop(r, p, "sent a malformed message");
    if (m.type == JET__WIRE_BYE) return peer_drop(r, p, "said goodbye");
    jet__wire_release rel;
    if (m.type != JET__WIRE_RELEASE ||
        jet__wire_decode_release(r->msg, m.len, m.nfds, (uint32_t)r->nslots, &rel, fn) !=
            JET_STATUS_OK)
      return peer_drop(r, p, "sent a malformed message");
  }
}

/* Send a drop-oldest consumer's unsent frame if its socket has room now.
 * Messages of frames reclaimed since sit ahead of it; without this, a
 * producer that stops publishing would leave the consumer none to take. */
static void flush_unsent(jet_ring r, peer *p) {
  if (!p->active || !p->unsent_seq) return;
  if (atomic_load(&p->ctl->word[p->unsent_slot]) != word_of(p->unsent_seq, WORD_QUEUED)) {
    p->unsent_seq = 0; /* reclaimed for a newer frame, and counted there */
    return;
  }
  jet_status st = jet_channel_send(p->ch, JET__WIRE_FRAME, p->unsent, p->unsent_len, NULL, 0, 0);
  if (st == JET_STATUS_TIMEOUT) return;
  p->unsent_seq = 0;
  if (st == JET_STATUS_OK) r->stats.delivered++;
  else peer_drop(r, p, st == JET_STATUS_DISCONNECTED ? "went away" : "could not be reached");
}

/* Wait up to @timeout_ms for connections, releases, hang-ups or room for an
 * unsent frame, and handle them. 1 when something happened. */
static int pump(jet_ring r, int timeout_ms, const char *fn) {
  struct pollfd pf[1 + JET_RING_MAX_CONSUMERS];
  int who[1 + JET_RING_MAX_CONSUMERS], n = 0;
  int lfd = -1;
  (void)jet_channel_fd(r->ch, &lfd);
  pf[n].fd = lfd, pf[n].events = POLLIN, who[n++] = -1;
  for (int i = 0; i < r->max_peers; i++)
    if (r->peers[i].active) {
      int fd = -1;
      (void)jet_channel_fd(r->peers[i].ch, &fd);
      pf[n].fd = fd, who[n] = i;
      pf[n++].events = (short)(POLLIN | (r->peers[i].unsent_seq ? POLLOUT : 0));
    }
  int k;
  do k = poll(pf, (nfds_t)n, timeout_ms);
  while (k < 0 && errno == EINTR);
  if (k <= 0) return 0;
  for (int j = 0; j < n; j++) {
    if (!pf[j].revents) continue;
    if (who[j] < 0) {
      jet_channel c;
      if (jet_channel_accept(r->ch, 0, &c) == JET_STATUS_OK) admit(r, c, fn);
      else r->stats.lost_consumers++; /* refused credentials, or gone already */
    } else {
      peer *p = &r->peers[who[j]];
      if (pf[j].revents & ~POLLOUT) drain_peer(r, p, fn);
      if (pf[j].revents & POLLOUT) flush_unsent(r, p);
    }
  }
  return 1;
}

static void destroy_slots(jet_ring r) {
  for (int s = 0; s < JET_RING_MAX_SLOTS; s++) {
    if (r->mfd[s] >= 0) close(r->mfd[s]);
    r->mfd[s] = -1;
    (void)jet_event_destroy(r->ev[s]);
    (void)jet_event_destroy(r->done_ev[s]);
    (void)jet_image_destroy(r->img[s]);
    (void)jet_buffer_destroy(r->buf[s]);
    r->ev[s] = r->done_ev[s] = NULL;
    r->img[s] = NULL;
    r->buf[s] = NULL;
  }
}

static jet_status new_ring(jet_context ctx, int producer, jet_ring *out, const char *fn) {
  struct jet_ring_s *r = calloc(1, sizeof *r);
  unsigned char *msg = malloc(JET__WIRE_WELCOME_MAX);
  if (!r || !msg) {
    free(r);
    free(msg);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for a ring");
  }
  r->msg = msg;
  r->producer = producer;
  for (int s = 0; s < JET_RING_MAX_SLOTS; s++) r->mfd[s] = -1;
  jet_status st = jet__handle_register(&r->h, JET__H_RING, ctx, fn);
  if (st != JET_STATUS_OK) {
    free(msg);
    free(r);
    return st;
  }
  *out = r;
  return JET_STATUS_OK;
}

static void free_ring(jet_ring r) {
  destroy_slots(r);
  jet__handle_unregister(&r->h);
  free(r->msg);
  free(r);
}

jet_status jet_ring_create(jet_context ctx, const jet_ring_desc *desc, jet_ring *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(desc && desc->path && desc->path[0], "desc or desc->path is NULL or empty");
  JET__ARG(desc->slots >= 2 && desc->slots <= JET_RING_MAX_SLOTS, "slots %d (2..%d)", desc->slots,
           JET_RING_MAX_SLOTS);
  int consumers = desc->max_consumers ? desc->max_consumers : 4;
  JET__ARG(consumers >= 1 && consumers <= JET_RING_MAX_CONSUMERS, "max_consumers %d (1..%d)",
           desc->max_consumers, JET_RING_MAX_CONSUMERS);
  JET__ARG(!(desc->flags & ~(unsigned)(JET_RING_ALLOW_UID | JET_RING_ALLOW_GID)),
           "unknown flags 0x%x", desc->flags);
  int is_image = desc->format != JET_FORMAT_NONE_;
  if (is_image) {
    jet_format_desc fd;
    JET__ARG(jet_format_info(desc->format, &fd) == JET_STATUS_OK, "unknown format %d",
             (int)desc->format);
    JET__ARG(desc->width > 0 && desc->height > 0, "image size %dx%d", desc->width, desc->height);
  } else {
    JET__ARG(desc->bytes > 0, "buffer slots (format NONE_) need bytes > 0");
  }
  jet_ring r;
  JET__TRY(new_ring(ctx, 1, &r, __func__));
  r->nslots = desc->slots;
  r->is_image = is_image;
  r->max_peers = consumers;
  jet_status st = JET_STATUS_OK;
  for (int s = 0; s < r->nslots && st == JET_STATUS_OK; s++) {
    if (is_image) {
      jet_image_desc id = {desc->format, desc->width, desc->height, JET_IMAGE_EXPORTABLE};
      st = jet_image_create_ex(ctx, &id, &r->img[s]);
      if (st == JET_STATUS_OK) st = jet_ipc_export_image(r->img[s], &r->mdesc[s], &r->mfd[s]);
    } else {
      jet_buffer_desc bd = {JET_MEMORY_DEVICE, JET_MEM_EXPORTABLE, desc->bytes, 0, 0};
      st = jet_buffer_create(ctx, &bd, &r->buf[s]);
      if (st == JET_STATUS_OK) st = jet_ipc_export_buffer(r->buf[s], &r->mdesc[s], &r->mfd[s]);
    }
    if (st == JET_STATUS_OK) st = jet_event_create(ctx, JET_EVENT_INTERPROCESS, &r->ev[s]);
    if (st == JET_STATUS_OK) st = jet_event_ipc_export(r->ev[s], &r->evh[s]);
  }
  if (st == JET_STATUS_OK) {
    jet_channel_desc cd = {desc->path, 0, desc->allow_uid, desc->allow_gid};
    if (desc->flags & JET_RING_ALLOW_UID) cd.flags |= JET_CHANNEL_ALLOW_UID;
    if (desc->flags & JET_RING_ALLOW_GID) cd.flags |= JET_CHANNEL_ALLOW_GID;
    st = jet_channel_listen(&cd, &r->ch);
  }
  if (st != JET_STATUS_OK) {
    free_ring(r);
    return st;
  }
  *out = r;
  return JET_STATUS_OK;
}

jet_status jet_ring_poll(jet_ring r, int timeout_ms) {
  JET__TRY(check_end(r, 1, __func__));
  JET__ARG(timeout_ms >= 0, "timeout_ms %d is negative", timeout_ms);
  if (pump(r, timeout_ms, __func__)) return JET_STATUS_OK;
  return jet__error(JET_STATUS_TIMEOUT, __func__, "nothing happened within %d ms", timeout_ms);
}

/* A slot no one holds, else the oldest one only DROP_OLDEST consumers queued
 * (reclaimed here); -1 when LOSSLESS consumers or takers hold every slot. */
static int pick_slot(jet_ring r) {
  int order[JET_RING_MAX_SLOTS], n = 0;
  for (int s = 0; s < r->nslots; s++)
    if (!r->loaned[s]) order[n++] = s;
  /* Oldest published first: a fresh slot (seq 0) before any. */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && r->slot_seq[order[j]] < r->slot_seq[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int i = 0; i < n; i++) {
    int s = order[i], held = 0;
    for (int c = 0; c < r->max_peers; c++)
      if (r->peers[c].active && atomic_load(&r->peers[c].ctl->word[s]) != 0) held = 1;
    if (!held) return s;
  }
  for (int i = 0; i < n; i++) {
    int s = order[i], ok = 1;
    for (int c = 0; c < r->max_peers && ok; c++) {
      peer *p = &r->peers[c];
      if (!p->active) continue;
      uint64_t w = atomic_load(&p->ctl->word[s]);
      if (w == 0) continue;
      if (p->policy != JET_RING_DROP_OLDEST || state_of(w) != WORD_QUEUED) {
        ok = 0;
        continue;
      }
      if (word_cas(&p->ctl->word[s], w, 0)) r->stats.dropped++;
      else ok = 0; /* taken just now */
    }
    if (ok) return s;
  }
  return -1;
}

static void fill_frame(jet_ring r, int s, jet_ring_frame *f) {
  memset(f, 0, sizeof *f);
  f->slot = s;
  f->image = r->img[s];
  f->buffer = r->buf[s];
}

jet_status jet_ring_loan(jet_ring r, int timeout_ms, jet_ring_frame *frame) {
  JET__TRY(check_end(r, 1, __func__));
  JET__ARG(frame, "frame is NULL");
  JET__ARG(timeout_ms >= 0, "timeout_ms %d is negative", timeout_ms);
  int loaned = 0;
  for (int s = 0; s < r->nslots; s++) loaned += r->loaned[s];
  if (loaned == r->nslots)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "all %d slots are loaned; publish or discard one", r->nslots);
  (void)pump(r, 0, __func__);
  uint64_t deadline = now_ms() + (uint64_t)timeout_ms;
  for (;;) {
    int s = pick_slot(r);
    if (s >= 0) {
      r->loaned[s] = 1;
      fill_frame(r, s, frame);
      return JET_STATUS_OK;
    }
    uint64_t t = now_ms();
    if (t >= deadline) {
      char who[256];
      size_t used = 0;
      who[0] = '\0';
      for (int c = 0; c < r->max_peers; c++)
        if (r->peers[c].active && used < sizeof who) {
          int k = snprintf(who + used, sizeof who - used, "%s\"%s\" (%s)", used ? ", " : "",
                           r->peers[c].name,
                           r->peers[c].policy == JET_RING_LOSSLESS ? "lossless" : "drop-oldest");
          if (k > 0) used += (size_t)k;
        }
      return jet__error(JET_STATUS_TIMEOUT, __func__,
                        "no slot came free within %d ms: consumers hold them: %s", timeout_ms,
                        who);
    }
    /* Releases send a wake-up; re-scan at least every millisecond anyway. */
    uint64_t left = deadline - t;
    (void)pump(r, left > 1 ? 1 : (int)left, __func__);
  }
}

jet_status jet_ring_discard(jet_ring r, const jet_ring_frame *frame) {
  JET__TRY(check_end(r, 1, __func__));
  JET__ARG(frame && frame->slot >= 0 && frame->slot < r->nslots && r->loaned[frame->slot],
           "the frame is not a loaned slot of this ring");
  r->loaned[frame->slot] = 0;
  return JET_STATUS_OK;
}

jet_status jet_ring_publish(jet_ring r, jet_ring_frame *frame, jet_stream stream,
                            uint64_t timestamp_ns, const void *user, size_t user_len) {
  JET__TRY(check_end(r, 1, __func__));
  JET__ARG(frame && frame->slot >= 0 && frame->slot < r->nslots && r->loaned[frame->slot],
           "the frame is not a loaned slot of this ring");
  JET__ARG(user_len <= JET_RING_MAX_USER_BYTES, "%zu user bytes (at most %d)", user_len,
           JET_RING_MAX_USER_BYTES);
  JET__ARG(user || !user_len, "user is NULL with user_len %zu", user_len);
  int s = frame->slot;
  JET__TRY(jet_event_record(r->ev[s], stream));
  uint64_t seq = ++r->next_seq;
  r->slot_seq[s] = seq;
  r->loaned[s] = 0;
  jet__wire_frame fm;
  memset(&fm, 0, sizeof fm);
  fm.slot = (uint32_t)s;
  fm.user_len = (uint32_t)user_len;
  fm.seq = seq;
  fm.timestamp_ns = timestamp_ns;
  if (user_len) memcpy(fm.user, user, user_len);
  unsigned char buf[JET__WIRE_FRAME_MAX];
  size_t len = 0;
  JET__TRY(jet__wire_encode_frame(&fm, buf, sizeof buf, &len));
  for (int c = 0; c < r->max_peers; c++) {
    peer *p = &r->peers[c];
    if (!p->active) continue;
    if (p->policy == JET_RING_DROP_OLDEST) {
      flush_unsent(r, p);
      if (!p->active) continue;
      /* Keep at most depth frames queued: the oldest untaken ones go first. */
      for (;;) {
        int nqueued = 0, oldest = -1;
        uint64_t oldest_w = 0;
        for (int k = 0; k < r->nslots; k++) {
          uint64_t w = atomic_load(&p->ctl->word[k]);
          if (state_of(w) != WORD_QUEUED) continue;
          nqueued++;
          if (oldest < 0 || w < oldest_w) oldest = k, oldest_w = w;
        }
        if (nqueued < p->depth) break;
        if (word_cas(&p->ctl->word[oldest], oldest_w, 0)) r->stats.dropped++;
      }
    }
    atomic_store_explicit(&p->ctl->word[s], word_of(seq, WORD_QUEUED), memory_order_release);
    jet_status st = jet_channel_send(p->ch, JET__WIRE_FRAME, buf, len, NULL, 0,
                             p->policy == JET_RING_LOSSLESS ? 100 : 0);
    if (st == JET_STATUS_OK) {
      r->stats.delivered++;
    } else if (st == JET_STATUS_TIMEOUT && p->policy == JET_RING_DROP_OLDEST) {
      /* the socket is full: this frame replaces an older unsent one */
      if (p->unsent_seq &&
          word_cas(&p->ctl->word[p->unsent_slot], word_of(p->unsent_seq, WORD_QUEUED), 0))
        r->stats.dropped++;
      p->unsent_seq = seq;
      p->unsent_slot = (uint32_t)s;
      p->unsent_len = len;
      memcpy(p->unsent, buf, len);
      r->stats.deferred++;
    } else if (st == JET_STATUS_TIMEOUT) {
      (void)word_cas(&p->ctl->word[s], word_of(seq, WORD_QUEUED), 0);
      r->stats.dropped++;
    } else {
      peer_drop(r, p, st == JET_STATUS_DISCONNECTED ? "went away" : "could not be reached");
    }
  }
  r->stats.published++;
  frame->seq = seq;
  frame->timestamp_ns = timestamp_ns;
  return JET_STATUS_OK;
}

/* ================================================================ consumer */

static jet_status import_slots(jet_ring r, jet_context ctx, const jet__wire_welcome *w,
                               const int *fds) {
  for (int s = 0; s < r->nslots; s++) {
    jet_ipc_memory_desc d;
    memset(&d, 0, sizeof d);
    d.version = JET_IPC_DESC_VERSION;
    int vmm = w->mechanism == JET__WIRE_MECH_VMM_FD;
    d.mechanism = vmm ? JET_IPC_MECHANISM_VMM_FD : JET_IPC_MECHANISM_LEGACY;
    d.alloc_size = w->alloc_size;
    d.data_size = w->data_size;
    memcpy(d.device_uuid, w->device_uuid, sizeof d.device_uuid);
    if (!vmm) memcpy(d.legacy_handle, w->slot[s].mem_handle, sizeof d.legacy_handle);
    int fd = vmm ? fds[1 + s] : -1;
    if (r->is_image) {
      d.object = JET_IPC_OBJECT_IMAGE;
      d.flags = vmm ? JET_IMAGE_EXPORTABLE : JET_IMAGE_EXPORTABLE_LEGACY;
      d.format = (uint32_t)w->image.format;
      d.width = (uint32_t)w->image.width;
      d.image_height = (uint32_t)w->image.height;
      d.plane_count = w->image.plane_count;
      for (int i = 0; i < 3; i++) {
        d.plane_offset[i] = w->image.offset[i];
        d.plane_pitch[i] = w->image.pitch[i];
      }
      JET__TRY(jet_ipc_import_image(ctx, &d, fd, &r->img[s]));
    } else {
      d.object = JET_IPC_OBJECT_BUFFER;
      d.flags = vmm ? JET_MEM_EXPORTABLE : JET_MEM_EXPORTABLE_LEGACY;
      d.width_bytes = w->buffer.width_bytes;
      d.height = w->buffer.height;
      d.depth = w->buffer.depth;
      d.pitch = w->buffer.pitch;
      JET__TRY(jet_ipc_import_buffer(ctx, &d, fd, &r->buf[s]));
    }
    jet_ipc_event_handle eh;
    memcpy(eh.bytes, w->slot[s].event_handle, sizeof eh.bytes);
    JET__TRY(jet_event_ipc_import(ctx, &eh, &r->ev[s]));
    JET__TRY(jet_event_create(ctx, 0, &r->done_ev[s]));
  }
  return JET_STATUS_OK;
}

/* The control block a producer sent: a sealed memfd of the right size. */
static jet_status map_control(jet_ring r, int fd, uint64_t size, const char *fn) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "the control block descriptor is not a memfd (mode 0%o)",
                      (unsigned)st.st_mode);
  int seals = fcntl(fd, F_GET_SEALS);
  if (seals < 0 || !(seals & F_SEAL_SHRINK))
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "the control block is not sealed against shrinking (seals 0x%x)",
                      (unsigned)seals);
  if (size != CONTROL_SIZE || (uint64_t)st.st_size < size)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "control block of %llu bytes (file %lld), expected %u",
                      (unsigned long long)size, (long long)st.st_size, CONTROL_SIZE);
  void *p = mmap(NULL, CONTROL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "mmap", "errno", errno, NULL, "%s",
                             strerror(errno));
  r->ctl = p;
  if (r->ctl->magic != CONTROL_MAGIC || r->ctl->slot_count != (uint32_t)r->nslots)
    return jet__error(JET_STATUS_PROTOCOL_ERROR, fn,
                      "control block magic 0x%08x, %u slots: not this ring's", r->ctl->magic,
                      r->ctl->slot_count);
  return JET_STATUS_OK;
}

static void free_consumer(jet_ring r) {
  if (r->ctl) munmap(r->ctl, CONTROL_SIZE);
  r->ctl = NULL;
  jet_channel_close(r->ch);
  r->ch = NULL;
  free_ring(r);
}

jet_status jet_ring_connect(jet_context ctx, const jet_ring_consumer_desc *desc, jet_ring *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(ctx, JET__H_CONTEXT, __func__, "ctx"));
  JET__ARG(desc && desc->path && desc->path[0], "desc or desc->path is NULL or empty");
  JET__ARG(desc->policy == JET_RING_DROP_OLDEST || desc->policy == JET_RING_LOSSLESS,
           "unknown policy %d", (int)desc->policy);
  int depth = desc->queue_depth ? desc->queue_depth : 2;
  JET__ARG(depth >= 1 && depth <= JET_RING_MAX_QUEUE, "queue_depth %d (1..%d)", desc->queue_depth,
           JET_RING_MAX_QUEUE);
  JET__ARG(desc->timeout_ms >= 0, "timeout_ms %d is negative", desc->timeout_ms);
  JET__ARG(!(desc->flags & ~(unsigned)(JET_RING_ALLOW_UID | JET_RING_ALLOW_GID)),
           "unknown flags 0x%x", desc->flags);
  jet__wire_hello hello;
  memset(&hello, 0, sizeof hello);
  hello.ring_version = JET__WIRE_RING_VERSION;
  hello.policy = desc->policy == JET_RING_LOSSLESS ? JET__WIRE_POLICY_LOSSLESS
                                                   : JET__WIRE_POLICY_DROP_OLDEST;
  hello.queue_depth = (uint32_t)depth;
  hello.pid = (uint32_t)getpid();
  if (desc->name) {
    size_t n = strlen(desc->name);
    JET__ARG(n < JET__WIRE_NAME_LEN, "name of %zu characters (at most %d)", n,
             JET__WIRE_NAME_LEN - 1);
    for (size_t i = 0; i < n; i++)
      JET__ARG(desc->name[i] >= 0x20 && desc->name[i] < 0x7f, "name has an unprintable byte");
    memcpy(hello.name, desc->name, n);
  }
  jet_ring r;
  JET__TRY(new_ring(ctx, 0, &r, __func__));
  r->policy = desc->policy;
  r->depth = depth;
  r->spin_us = desc->spin_us;
  jet_channel_desc cd = {desc->path, 0, desc->allow_uid, desc->allow_gid};
  if (desc->flags & JET_RING_ALLOW_UID) cd.flags |= JET_CHANNEL_ALLOW_UID;
  if (desc->flags & JET_RING_ALLOW_GID) cd.flags |= JET_CHANNEL_ALLOW_GID;
  uint64_t deadline = now_ms() + (uint64_t)desc->timeout_ms;
  jet_status st = jet_channel_connect(&cd, desc->timeout_ms, &r->ch);
  size_t len = 0;
  if (st == JET_STATUS_OK)
    st = jet__wire_encode_hello(&hello, r->msg, JET__WIRE_WELCOME_MAX, &len);
  if (st == JET_STATUS_OK) st = jet_channel_send(r->ch, JET__WIRE_HELLO, r->msg, len, NULL, 0, desc->timeout_ms);
  jet_channel_msg m;
  memset(&m, 0, sizeof m);
  if (st == JET_STATUS_OK) {
    uint64_t t = now_ms();
    st = recv_msg(r, r->ch, t < deadline ? (int)(deadline - t) : 0, &m);
  }
  jet__wire_welcome *w = NULL;
  if (st == JET_STATUS_OK && m.type == JET__WIRE_BYE)
    st = jet__error(JET_STATUS_DISCONNECTED, __func__,
                    "the producer at %s refused the connection (it has no room)", desc->path);
  else if (st == JET_STATUS_OK && m.type != JET__WIRE_WELCOME)
    st = jet__error(JET_STATUS_PROTOCOL_ERROR, __func__, "expected WELCOME, got %s",
                    jet__wire_type_name(m.type));
  if (st == JET_STATUS_OK && !(w = malloc(sizeof *w)))
    st = jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory");
  if (st == JET_STATUS_OK) st = jet__wire_decode_welcome(r->msg, m.len, m.nfds, w, __func__);
  if (st == JET_STATUS_OK &&
      (w->object == JET__WIRE_OBJECT_IMAGE) != (w->image.format != 0))
    st = jet__error(JET_STATUS_PROTOCOL_ERROR, __func__, "WELCOME object and format disagree");
  if (st == JET_STATUS_OK) {
    r->nslots = (int)w->slot_count;
    r->is_image = w->object == JET__WIRE_OBJECT_IMAGE;
    st = map_control(r, m.fds[0], w->control_size, __func__);
  }
  if (st == JET_STATUS_OK) st = import_slots(r, ctx, w, m.fds);
  for (int i = 0; i < m.nfds; i++) close(m.fds[i]);
  free(w);
  if (st != JET_STATUS_OK) {
    free_consumer(r);
    return st;
  }
  *out = r;
  return JET_STATUS_OK;
}

/* Hand a held slot back: its word goes free, and the producer is woken. */
static void give_back(jet_ring r, int s) {
  uint64_t seq = r->taken_seq[s];
  r->taken_seq[s] = 0;
  r->done_pending[s] = 0;
  (void)word_cas(&r->ctl->word[s], word_of(seq, WORD_TAKEN), 0);
  jet__wire_release rel = {(uint32_t)s, seq};
  unsigned char buf[JET__WIRE_RELEASE_SIZE];
  size_t len;
  if (!r->gone && jet__wire_encode_release(&rel, buf, sizeof buf, &len) == JET_STATUS_OK &&
      jet_channel_send(r->ch, JET__WIRE_RELEASE, buf, len, NULL, 0, 0) == JET_STATUS_DISCONNECTED)
    r->gone = 1;
}

/* Releases whose stream work has finished. */
static void finish_releases(jet_ring r) {
  for (int s = 0; s < r->nslots; s++)
    if (r->done_pending[s] && jet_event_query(r->done_ev[s]) == JET_STATUS_OK) give_back(r, s);
}

/* Free a queued frame the consumer will not take. */
static void unqueue(jet_ring r, const queued *q) {
  if (word_cas(&r->ctl->word[q->slot], word_of(q->seq, WORD_QUEUED), 0)) r->stats.dropped++;
}

/* Receive what has arrived (waiting up to @timeout_ms for the first). */
static jet_status receive(jet_ring r, int timeout_ms, const char *fn) {
  for (int first = 1;; first = 0) {
    jet_channel_msg m;
    jet_status st = recv_msg(r, r->ch, first ? timeout_ms : 0, &m);
    for (int i = 0; i < m.nfds; i++) close(m.fds[i]);
    if (st == JET_STATUS_TIMEOUT) return first ? st : JET_STATUS_OK;
    if (st == JET_STATUS_DISCONNECTED || (st == JET_STATUS_OK && m.type == JET__WIRE_BYE)) {
      r->gone = 1;
      return jet__error(JET_STATUS_DISCONNECTED, fn, "the producer has gone");
    }
    if (st != JET_STATUS_OK) return st;
    jet__wire_frame f;
    if (m.type != JET__WIRE_FRAME)
      return jet__error(JET_STATUS_PROTOCOL_ERROR, fn, "unexpected %s from the producer",
                        jet__wire_type_name(m.type));
    JET__TRY(jet__wire_decode_frame(r->msg, m.len, m.nfds, (uint32_t)r->nslots,
                                    JET__WIRE_USER_MAX, &f, fn));
    r->stats.delivered++;
    if (r->qlen == JET_RING_MAX_QUEUE) { /* the producer keeps depth; this is a safety net */
      unqueue(r, &r->queue[r->qhead]);
      r->qhead = (r->qhead + 1) % JET_RING_MAX_QUEUE;
      r->qlen--;
    }
    queued *q = &r->queue[(r->qhead + r->qlen) % JET_RING_MAX_QUEUE];
    q->slot = f.slot;
    q->seq = f.seq;
    q->ts = f.timestamp_ns;
    q->user_len = f.user_len;
    memcpy(q->user, f.user, f.user_len);
    r->qlen++;
  }
}

/* Take a queued frame: 1 when its word went QUEUED -> TAKEN. */
static int claim(jet_ring r, jet_ring_take_mode mode, queued *out) {
  while (r->qlen > 0) {
    queued q;
    if (mode == JET_RING_NEWEST) {
      while (r->qlen > 1) { /* older ones go back unseen */
        unqueue(r, &r->queue[r->qhead]);
        r->qhead = (r->qhead + 1) % JET_RING_MAX_QUEUE;
        r->qlen--;
      }
    }
    q = r->queue[r->qhead];
    r->qhead = (r->qhead + 1) % JET_RING_MAX_QUEUE;
    r->qlen--;
    if (word_cas(&r->ctl->word[q.slot], word_of(q.seq, WORD_QUEUED), word_of(q.seq, WORD_TAKEN))) {
      *out = q;
      return 1;
    }
    r->stats.dropped++; /* the producer reclaimed it first */
  }
  return 0;
}

jet_status jet_ring_take(jet_ring r, jet_ring_take_mode mode, jet_stream stream, int timeout_ms,
                         jet_ring_frame *frame) {
  JET__TRY(check_end(r, 0, __func__));
  JET__ARG(frame, "frame is NULL");
  JET__ARG(mode == JET_RING_NEXT || mode == JET_RING_NEWEST, "unknown mode %d", (int)mode);
  JET__ARG(timeout_ms >= 0, "timeout_ms %d is negative", timeout_ms);
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, r->h.ctx, &cu, __func__));
  (void)cu;
  finish_releases(r);
  int held = 0;
  for (int s = 0; s < r->nslots; s++) held += r->taken_seq[s] != 0;
  if (held >= r->depth)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d frames held (queue_depth %d): release one first", held, r->depth);
  if (r->gone) return jet__error(JET_STATUS_DISCONNECTED, __func__, "the producer has gone");
  uint64_t t0 = now_us(), deadline = t0 + (uint64_t)timeout_ms * 1000u;
  queued q;
  for (;;) {
    jet_status st = receive(r, 0, __func__);
    if (st != JET_STATUS_OK && st != JET_STATUS_TIMEOUT) return st;
    if (claim(r, mode, &q)) break;
    uint64_t t = now_us();
    if (t >= deadline)
      return jet__error(JET_STATUS_TIMEOUT, __func__, "no frame within %d ms", timeout_ms);
    if (t - t0 < r->spin_us) continue; /* spin: lower latency than a sleep */
    uint64_t left_ms = (deadline - t + 999) / 1000;
    int fd = -1;
    (void)jet_channel_fd(r->ch, &fd);
    struct pollfd pf = {fd, POLLIN, 0};
    int k;
    do k = poll(&pf, 1, (int)(left_ms > 1000 ? 1000 : left_ms));
    while (k < 0 && errno == EINTR);
  }
  jet_status st = jet_stream_wait_event(stream, r->ev[q.slot]);
  if (st != JET_STATUS_OK) {
    (void)word_cas(&r->ctl->word[q.slot], word_of(q.seq, WORD_TAKEN), 0);
    return st;
  }
  r->taken_seq[q.slot] = q.seq;
  r->stats.taken++;
  fill_frame(r, (int)q.slot, frame);
  frame->seq = q.seq;
  frame->timestamp_ns = q.ts;
  frame->user_len = q.user_len;
  memcpy(frame->user, q.user, q.user_len);
  return JET_STATUS_OK;
}

jet_status jet_ring_release(jet_ring r, const jet_ring_frame *frame, jet_stream stream) {
  JET__TRY(check_end(r, 0, __func__));
  JET__ARG(frame && frame->slot >= 0 && frame->slot < r->nslots &&
               r->taken_seq[frame->slot] == frame->seq && frame->seq != 0 &&
               !r->done_pending[frame->slot],
           "the frame is not one this consumer holds (released already?)");
  int s = frame->slot;
  if (!stream) {
    give_back(r, s);
    return JET_STATUS_OK;
  }
  JET__TRY(jet_event_record(r->done_ev[s], stream));
  r->done_pending[s] = 1;
  finish_releases(r);
  return JET_STATUS_OK;
}

/* ================================================================ both */

jet_status jet_ring_destroy(jet_ring r) {
  if (!r) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(r, JET__H_RING, __func__, "ring"));
  (void)jet__ctx_activate(r->h.ctx, __func__);
  jet__wire_bye bye = {JET__WIRE_BYE_NORMAL};
  unsigned char buf[JET__WIRE_BYE_SIZE];
  size_t len = 0;
  (void)jet__wire_encode_bye(&bye, buf, sizeof buf, &len);
  if (r->producer) {
    for (int c = 0; c < r->max_peers; c++) {
      peer *p = &r->peers[c];
      if (!p->active) continue;
      (void)jet_channel_send(p->ch, JET__WIRE_BYE, buf, len, NULL, 0, 0);
      munmap(p->ctl, CONTROL_SIZE);
      jet_channel_close(p->ch);
    }
    jet_channel_close(r->ch);
    r->ch = NULL;
    free_ring(r);
  } else {
    for (int s = 0; s < r->nslots; s++)
      if (r->done_pending[s]) (void)jet_event_synchronize(r->done_ev[s]);
    for (int s = 0; s < r->nslots; s++)
      if (r->taken_seq[s]) give_back(r, s);
    while (r->qlen > 0) {
      unqueue(r, &r->queue[r->qhead]);
      r->qhead = (r->qhead + 1) % JET_RING_MAX_QUEUE;
      r->qlen--;
    }
    if (!r->gone) (void)jet_channel_send(r->ch, JET__WIRE_BYE, buf, len, NULL, 0, 0);
    free_consumer(r);
  }
  return JET_STATUS_OK;
}

jet_status jet_ring_fd(jet_ring r, int *fd) {
  JET__TRY(jet__handle_check(r, JET__H_RING, __func__, "ring"));
  JET__ARG(fd, "fd is NULL");
  return jet_channel_fd(r->ch, fd);
}

jet_status jet_ring_get_stats(jet_ring r, jet_ring_stats *stats) {
  JET__TRY(jet__handle_check(r, JET__H_RING, __func__, "ring"));
  JET__ARG(stats, "stats is NULL");
  *stats = r->stats;
  return JET_STATUS_OK;
}

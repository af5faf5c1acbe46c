/* The frame ring across real processes (this executable in child roles):
 * every frame's content checked by hash, a consumer killed while it holds a
 * slot, a producer killed under a consumer, drop-oldest never blocking the
 * producer, and many connections with no growth. Frames carry fresh random
 * patterns; the user bytes carry the pattern's seed and hash. */
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "test.h"

#define WAIT_S 120.0

typedef struct ctl {
  char path[64];
  int count;     /* frames to check, or to publish */
  int policy;    /* jet_ring_policy */
  int depth;
  int format;    /* jet_format of the slots */
  int width, height;
  uint64_t seq;  /* a sequence number being reported */
  int ok;        /* frames verified, or 1/0 */
  char err[400];
} ctl;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}

/* Host copy of an image's planes, one after another (rows only, no padding). */
typedef struct host_img {
  jet_image_plane planes[3];
  int nplanes;
  size_t bytes;
  unsigned char *data;
} host_img;

static int host_img_init(host_img *h, jet_image img) {
  memset(h, 0, sizeof *h);
  CHECK_OK(jet_image_get_plane_count(img, &h->nplanes));
  size_t off[3];
  for (int i = 0; i < h->nplanes; i++) {
    jet_image_plane_info pi;
    CHECK_OK(jet_image_get_plane(img, i, &pi));
    off[i] = h->bytes;
    h->planes[i].pitch = pi.row_bytes;
    h->bytes += pi.row_bytes * (size_t)pi.height;
  }
  h->data = malloc(h->bytes);
  CHECK(h->data != NULL);
  for (int i = 0; i < h->nplanes; i++) h->planes[i].ptr = h->data + off[i];
  return 0;
}

static void fill_pattern(host_img *h, uint64_t seed) {
  uint64_t s = seed;
  for (size_t i = 0; i < h->bytes; i += 8) {
    uint64_t v = splitmix(&s);
    memcpy(h->data + i, &v, h->bytes - i < 8 ? h->bytes - i : 8);
  }
}

static char *unique_path(char *buf, size_t n) {
  snprintf(buf, n, "@jetrt-test-ring-%d-%08x", (int)getpid(), (unsigned)jt_rand());
  return buf;
}

/* Producer: wait until @n consumers are in. */
static int wait_consumers(jet_ring r, int n, double seconds) {
  uint64_t t0 = now_ns();
  jet_ring_stats st;
  for (;;) {
    CHECK_OK(jet_ring_get_stats(r, &st));
    if (st.consumers >= n) return 0;
    CHECK_MSG((now_ns() - t0) / 1e9 < seconds, "%d consumer(s) after %.0f s", st.consumers,
              seconds);
    (void)jet_ring_poll(r, 10);
  }
}

/* Producer: publish one frame of a fresh pattern; user bytes = seed, hash. */
static int publish_one(jet_ring r, jet_stream s, host_img *h, int loan_timeout_ms) {
  jet_ring_frame f;
  CHECK_OK(jet_ring_loan(r, loan_timeout_ms, &f));
  uint64_t seed = ((uint64_t)jt_rand() << 32) | jt_rand();
  fill_pattern(h, seed);
  uint64_t user[2] = {seed, fnv1a(h->data, h->bytes)};
  CHECK_OK(jet_image_upload_async(f.image, h->planes, h->nplanes, s));
  CHECK_OK(jet_ring_publish(r, &f, s, now_ns(), user, sizeof user));
  /* The upload reads h->data from pageable memory: done when the call returns. */
  return 0;
}

/* Consumer: read a taken frame back and compare with the hash it carries. */
static int verify_frame(const jet_ring_frame *f, jet_stream s, host_img *h, char *err, size_t n) {
  uint64_t user[2];
  if (f->user_len != sizeof user) {
    snprintf(err, n, "frame %llu: %zu user bytes", (unsigned long long)f->seq, f->user_len);
    return 1;
  }
  memcpy(user, f->user, sizeof user);
  memset(h->data, 0xA5, h->bytes);
  if (jet_image_download_async(f->image, h->planes, h->nplanes, s) != JET_STATUS_OK ||
      jet_stream_synchronize(s) != JET_STATUS_OK) {
    snprintf(err, n, "frame %llu: %s", (unsigned long long)f->seq, jet_last_error_string());
    return 1;
  }
  uint64_t got = fnv1a(h->data, h->bytes);
  if (got != user[1]) {
    snprintf(err, n, "frame %llu (slot %d): hash %016llx, producer's %016llx",
             (unsigned long long)f->seq, f->slot, (unsigned long long)got,
             (unsigned long long)user[1]);
    return 1;
  }
  return 0;
}

/* Child: connect with the policy asked, take @count frames in order and check
 * each; report how many were right. */
CHILD(ring_verify) {
  ctl c;
  CHECK(jt_recv_msg(sock, &c, sizeof c, NULL, WAIT_S));
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_ring_consumer_desc d = {c.path, (jet_ring_policy)c.policy, c.depth, "verify", 10000, 0, 0, 0, 0};
  jet_ring r;
  jet_status st = jet_ring_connect(ctx, &d, &r);
  ctl rep = c;
  rep.ok = 0;
  rep.err[0] = '\0';
  if (st != JET_STATUS_OK) snprintf(rep.err, sizeof rep.err, "connect: %s", jet_last_error_string());
  host_img h = {0};
  uint64_t last = 0;
  for (int k = 0; st == JET_STATUS_OK && k < c.count; k++) {
    jet_ring_frame f;
    st = jet_ring_take(r, JET_RING_NEXT, s, 20000, &f);
    if (st != JET_STATUS_OK) {
      snprintf(rep.err, sizeof rep.err, "take %d: %s", k, jet_last_error_string());
      break;
    }
    if (!h.data && host_img_init(&h, f.image)) break;
    if (c.policy == JET_RING_LOSSLESS && f.seq != last + 1 && last) {
      snprintf(rep.err, sizeof rep.err, "lossless: seq %llu after %llu",
               (unsigned long long)f.seq, (unsigned long long)last);
      break;
    }
    last = f.seq;
    if (verify_frame(&f, s, &h, rep.err, sizeof rep.err)) break;
    st = jet_ring_release(r, &f, s);
    rep.ok++;
  }
  rep.seq = last;
  free(h.data);
  CHECK(jt_send_msg(sock, &rep, sizeof rep, -1));
  CHECK_OK(jet_ring_destroy(r));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

static int spawn(const char *role, int *sock, pid_t *pid) {
  int sv[2];
  CHECK(jt_socketpair(sv));
  CHECK(jt_spawn_child(role, sv[1], pid));
  close(sv[1]);
  *sock = sv[0];
  return 0;
}

static int ring_of(jet_context ctx, const char *path, jet_format f, int w, int h, int slots,
                   jet_ring *r) {
  jet_ring_desc d;
  memset(&d, 0, sizeof d);
  d.path = path;
  d.slots = slots;
  d.format = f;
  d.width = w;
  d.height = h;
  CHECK_OK(jet_ring_create(ctx, &d, r));
  return 0;
}

TEST(gpu_ring_frames_checked) {
  REQUIRE_GPU();
  static const struct {
    jet_format f;
    int w, h, frames, policy;
  } cases[] = {{JET_FORMAT_NV12, 640, 480, 1000, JET_RING_LOSSLESS},
               {JET_FORMAT_RGBA8, 1921, 1081, 60, JET_RING_LOSSLESS},
               {JET_FORMAT_GRAY8, 1, 1, 200, JET_RING_LOSSLESS},
               {JET_FORMAT_RGBA8, 3, 2, 200, JET_RING_DROP_OLDEST}};
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ctl c;
    memset(&c, 0, sizeof c);
    unique_path(c.path, sizeof c.path);
    c.count = cases[i].frames;
    c.policy = cases[i].policy;
    c.depth = 4;
    jet_ring r;
    if (ring_of(ctx, c.path, cases[i].f, cases[i].w, cases[i].h, 4, &r)) return 1;
    int sock;
    pid_t pid;
    if (spawn("ring_verify", &sock, &pid)) return 1;
    CHECK(jt_send_msg(sock, &c, sizeof c, -1));
    if (wait_consumers(r, 1, 30)) return 1;
    host_img h;
    jet_ring_frame probe;
    CHECK_OK(jet_ring_loan(r, 0, &probe));
    if (host_img_init(&h, probe.image)) return 1;
    CHECK_OK(jet_ring_discard(r, &probe));
    uint64_t t0 = now_ns();
    /* Drop-oldest loses frames when it falls behind: publish, one frame
     * every 0.2 ms at most, until it has seen its count and left, however
     * slowly it runs (a fixed 50 publishes per frame it must see ran out
     * under memcheck with 7 tests beside it: it had taken 3 frames). */
    for (int k = 0; c.policy == JET_RING_DROP_OLDEST || k < c.count; k++) {
      if (publish_one(r, s, &h, 20000)) return 1;
      if (c.policy == JET_RING_DROP_OLDEST) {
        jet_ring_stats st;
        CHECK_OK(jet_ring_get_stats(r, &st));
        if (st.consumers == 0) break; /* it saw its count and left */
        CHECK_MSG((now_ns() - t0) / 1e9 < WAIT_S, "drop-oldest: %d frames published in %.0f s", k + 1,
                  WAIT_S);
        struct timespec pace = {0, 200000};
        nanosleep(&pace, NULL);
      }
    }
    ctl rep;
    CHECK(jt_recv_msg(sock, &rep, sizeof rep, NULL, WAIT_S));
    CHECK(jt_wait_child(pid, WAIT_S) == 0);
    jet_ring_stats st;
    CHECK_OK(jet_ring_get_stats(r, &st));
    fprintf(stderr, "%s %dx%d %s: %d/%d frames verified in %.0f ms; published %llu, dropped %llu\n",
            jet_format_name(cases[i].f), cases[i].w, cases[i].h,
            c.policy == JET_RING_LOSSLESS ? "lossless" : "drop-oldest", rep.ok, c.count,
            (now_ns() - t0) / 1e6, (unsigned long long)st.published,
            (unsigned long long)st.dropped);
    CHECK_MSG(rep.ok == c.count, "%s", rep.err);
    free(h.data);
    close(sock);
    CHECK_OK(jet_ring_destroy(r));
  }
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Child: take one frame, say so, and hold it until killed. */
CHILD(ring_hold) {
  ctl c;
  CHECK(jt_recv_msg(sock, &c, sizeof c, NULL, WAIT_S));
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_ring_consumer_desc d = {c.path, JET_RING_DROP_OLDEST, 2, "hold", 10000, 0, 0, 0, 0};
  jet_ring r;
  CHECK_OK(jet_ring_connect(ctx, &d, &r));
  jet_ring_frame f;
  CHECK_OK(jet_ring_take(r, JET_RING_NEWEST, s, 20000, &f));
  ctl rep = c;
  rep.seq = f.seq;
  rep.ok = f.slot;
  CHECK(jt_send_msg(sock, &rep, sizeof rep, -1));
  for (;;) pause(); /* killed here, mid-frame */
}

TEST(gpu_ring_consumer_killed_mid_frame) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  ctl c;
  memset(&c, 0, sizeof c);
  unique_path(c.path, sizeof c.path);
  c.count = 300;
  c.policy = JET_RING_LOSSLESS;
  c.depth = 2;
  jet_ring r;
  if (ring_of(ctx, c.path, JET_FORMAT_RGBA8, 256, 128, 4, &r)) return 1;
  int hs, vs;
  pid_t hp, vp;
  if (spawn("ring_hold", &hs, &hp) || spawn("ring_verify", &vs, &vp)) return 1;
  CHECK(jt_send_msg(hs, &c, sizeof c, -1));
  CHECK(jt_send_msg(vs, &c, sizeof c, -1));
  if (wait_consumers(r, 2, 30)) return 1;
  host_img h;
  jet_ring_frame probe;
  CHECK_OK(jet_ring_loan(r, 0, &probe));
  if (host_img_init(&h, probe.image)) return 1;
  CHECK_OK(jet_ring_discard(r, &probe));
  int killed = 0;
  ctl held;
  for (int k = 0; k < c.count; k++) {
    if (publish_one(r, s, &h, 20000)) return 1;
    if (!killed && jt_recv_msg(hs, &held, sizeof held, NULL, k < 20 ? 0.001 : WAIT_S)) {
      fprintf(stderr, "holder took seq %llu in slot %d; killing it\n",
              (unsigned long long)held.seq, held.ok);
      CHECK(kill(hp, SIGKILL) == 0);
      killed = 1;
    }
  }
  CHECK(killed);
  ctl rep;
  CHECK(jt_recv_msg(vs, &rep, sizeof rep, NULL, WAIT_S));
  CHECK(jt_wait_child(vp, WAIT_S) == 0);
  (void)jt_wait_child(hp, WAIT_S); /* killed: -1 */
  uint64_t t0 = now_ns();
  jet_ring_stats st;
  do {
    (void)jet_ring_poll(r, 10);
    CHECK_OK(jet_ring_get_stats(r, &st));
  } while (st.lost_consumers < 1 && (now_ns() - t0) < 5000000000ull);
  fprintf(stderr, "verify: %d/%d; producer: published %llu, reclaimed %llu, lost %d, now %d\n",
          rep.ok, c.count, (unsigned long long)st.published, (unsigned long long)st.reclaimed,
          st.lost_consumers, st.consumers);
  CHECK_MSG(rep.ok == c.count, "%s", rep.err);
  CHECK(st.lost_consumers >= 1 && st.reclaimed >= 1);
  /* Every slot is usable again: four loans at once succeed without waiting. */
  jet_ring_frame f[4];
  for (int i = 0; i < 4; i++) CHECK_OK(jet_ring_loan(r, 0, &f[i]));
  for (int i = 0; i < 4; i++) CHECK_OK(jet_ring_discard(r, &f[i]));
  free(h.data);
  close(hs);
  close(vs);
  CHECK_OK(jet_ring_destroy(r));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Child: a producer that publishes until it is killed. */
CHILD(ring_producer) {
  ctl c;
  CHECK(jt_recv_msg(sock, &c, sizeof c, NULL, WAIT_S));
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_ring r;
  if (ring_of(ctx, c.path, (jet_format)c.format, c.width, c.height, 4, &r)) return 1;
  ctl rep = c;
  rep.ok = 1;
  CHECK(jt_send_msg(sock, &rep, sizeof rep, -1));
  if (wait_consumers(r, 1, 30)) return 1;
  host_img h;
  jet_ring_frame probe;
  CHECK_OK(jet_ring_loan(r, 0, &probe));
  if (host_img_init(&h, probe.image)) return 1;
  CHECK_OK(jet_ring_discard(r, &probe));
  for (;;) {
    if (publish_one(r, s, &h, 20000)) return 1;
    CHECK_OK(jet_stream_synchronize(s));
    struct timespec d = {0, 2000000};
    nanosleep(&d, NULL);
  }
}

TEST(gpu_ring_producer_killed) {
  REQUIRE_GPU();
  ctl c;
  memset(&c, 0, sizeof c);
  unique_path(c.path, sizeof c.path);
  c.format = JET_FORMAT_NV12;
  c.width = 320;
  c.height = 240;
  int sock;
  pid_t pid;
  if (spawn("ring_producer", &sock, &pid)) return 1;
  CHECK(jt_send_msg(sock, &c, sizeof c, -1));
  ctl ready;
  CHECK(jt_recv_msg(sock, &ready, sizeof ready, NULL, WAIT_S));
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_ring_consumer_desc d = {c.path, JET_RING_DROP_OLDEST, 2, "survivor", 10000, 0, 0, 0, 0};
  jet_ring r;
  CHECK_OK(jet_ring_connect(ctx, &d, &r));
  host_img h = {0};
  char err[400];
  jet_ring_frame held;
  for (int k = 0; k < 5; k++) {
    CHECK_OK(jet_ring_take(r, JET_RING_NEWEST, s, 20000, &held));
    if (!h.data && host_img_init(&h, held.image)) return 1;
    CHECK_MSG(!verify_frame(&held, s, &h, err, sizeof err), "%s", err);
    if (k < 4) CHECK_OK(jet_ring_release(r, &held, s));
  }
  CHECK(kill(pid, SIGKILL) == 0);
  (void)jt_wait_child(pid, WAIT_S);
  uint64_t t0 = now_ns();
  jet_ring_frame f;
  jet_status st;
  do st = jet_ring_take(r, JET_RING_NEXT, s, 2000, &f);
  while (st == JET_STATUS_OK && jet_ring_release(r, &f, s) == JET_STATUS_OK);
  double ms = (now_ns() - t0) / 1e6;
  fprintf(stderr, "after the producer was killed: %s in %.1f ms (%s)\n", jet_status_name(st), ms,
          jet_last_error_string());
  CHECK(st == JET_STATUS_DISCONNECTED);
  CHECK(ms < 2000);
  CHECK_ST(jet_ring_take(r, JET_RING_NEXT, s, 0, &f), JET_STATUS_DISCONNECTED);
  /* The frame held when the producer died is still readable, intact. */
  CHECK_MSG(!verify_frame(&held, s, &h, err, sizeof err), "after the producer died: %s", err);
  CHECK_OK(jet_ring_release(r, &held, s));
  free(h.data);
  close(sock);
  CHECK_OK(jet_ring_destroy(r));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Child: connect (drop-oldest), wait for "go", take the newest, report it. */
CHILD(ring_slow) {
  ctl c;
  CHECK(jt_recv_msg(sock, &c, sizeof c, NULL, WAIT_S));
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_ring_consumer_desc d = {c.path, JET_RING_DROP_OLDEST, c.depth, "slow", 10000, 0, 0, 0, 0};
  jet_ring r;
  CHECK_OK(jet_ring_connect(ctx, &d, &r));
  ctl go;
  CHECK(jt_recv_msg(sock, &go, sizeof go, NULL, WAIT_S));
  jet_ring_frame f;
  ctl rep = c;
  rep.ok = jet_ring_take(r, JET_RING_NEWEST, s, 5000, &f) == JET_STATUS_OK;
  rep.seq = rep.ok ? f.seq : 0;
  snprintf(rep.err, sizeof rep.err, "%s", jet_last_error_string());
  if (rep.ok) {
    host_img h;
    if (host_img_init(&h, f.image)) return 1;
    rep.ok = !verify_frame(&f, s, &h, rep.err, sizeof rep.err);
    free(h.data);
    CHECK_OK(jet_ring_release(r, &f, NULL));
  }
  CHECK(jt_send_msg(sock, &rep, sizeof rep, -1));
  CHECK_OK(jet_ring_destroy(r));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* A DROP_OLDEST consumer (ring_slow, depth 2) reads nothing while frames are
 * published with no wait: @frames of them, or, with @fill, until its full
 * socket has refused @frames of them. Then the producer only polls while the
 * consumer catches up, and the consumer's newest must be the last published. */
static int slow_consumer(int frames, int fill) {
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  ctl c;
  memset(&c, 0, sizeof c);
  unique_path(c.path, sizeof c.path);
  c.depth = 2;
  jet_ring r;
  if (ring_of(ctx, c.path, JET_FORMAT_RGBA8, 64, 48, 3, &r)) return 1;
  int sock;
  pid_t pid;
  if (spawn("ring_slow", &sock, &pid)) return 1;
  CHECK(jt_send_msg(sock, &c, sizeof c, -1));
  if (wait_consumers(r, 1, 30)) return 1;
  host_img h;
  jet_ring_frame probe;
  CHECK_OK(jet_ring_loan(r, 0, &probe));
  if (host_img_init(&h, probe.image)) return 1;
  CHECK_OK(jet_ring_discard(r, &probe));
  /* Loans with no wait at all: the consumer never takes, yet never blocks us. */
  int n = 0;
  jet_ring_stats st;
  for (;;) {
    CHECK_OK(jet_ring_get_stats(r, &st));
    if (fill ? st.deferred >= (uint64_t)frames : n >= frames) break;
    CHECK_MSG(n < 100000, "the socket refused no frame message in %d", n);
    if (publish_one(r, s, &h, 0)) return 1;
    CHECK_OK(jet_stream_synchronize(s));
    n++;
  }
  CHECK(jt_send_msg(sock, &c, sizeof c, -1)); /* go */
  struct pollfd pf = {sock, POLLIN, 0};
  for (double t0 = jt_now(); poll(&pf, 1, 0) == 0 && jt_now() - t0 < WAIT_S;) {
    jet_status ps = jet_ring_poll(r, 5);
    CHECK_MSG(ps == JET_STATUS_OK || ps == JET_STATUS_TIMEOUT, "%s", jet_last_error_string());
  }
  ctl rep;
  CHECK(jt_recv_msg(sock, &rep, sizeof rep, NULL, WAIT_S));
  CHECK(jt_wait_child(pid, WAIT_S) == 0);
  fprintf(stderr,
          "%d frames, 3 slots, depth 2: deferred %llu, dropped %llu; the consumer's newest: %llu "
          "(%s)\n",
          n, (unsigned long long)st.deferred, (unsigned long long)st.dropped,
          (unsigned long long)rep.seq, rep.ok ? "content ok" : rep.err);
  CHECK_MSG(rep.ok && rep.seq == (uint64_t)n, "%s", rep.err);
  CHECK(st.dropped >= (uint64_t)n - 2);
  free(h.data);
  close(sock);
  CHECK_OK(jet_ring_destroy(r));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_ring_drop_oldest_never_blocks) {
  REQUIRE_GPU();
  return slow_consumer(40, 0);
}

/* The consumer's socket fills with messages of frames reclaimed since; the
 * newest frame waits for room instead of being lost, so the consumer gets it
 * although the producer publishes nothing after it. */
TEST(gpu_ring_drop_oldest_full_socket) {
  REQUIRE_GPU();
  return slow_consumer(20, 1);
}

/* Child: connect and disconnect @count times, taking one frame each time;
 * reports how far it got and why it stopped. */
CHILD(ring_reconnect) {
  ctl c;
  CHECK(jt_recv_msg(sock, &c, sizeof c, NULL, WAIT_S));
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  int fds0 = -1;
  size_t free0 = 0, free1 = 0, total = 0;
  ctl rep = c;
  rep.ok = 0;
  rep.err[0] = '\0';
  for (int k = 0; k < c.count; k++) {
    if (k == 20) {
      fds0 = jt_count_fds();
      CHECK(cudaMemGetInfo(&free0, &total) == cudaSuccess);
    }
    jet_ring_consumer_desc d = {c.path, JET_RING_DROP_OLDEST, 1, "reconnect", 10000, 0, 0, 0, 0};
    jet_ring r;
    jet_ring_frame f;
    const char *step = "connect";
    jet_status st = jet_ring_connect(ctx, &d, &r);
    if (st == JET_STATUS_OK) {
      step = "take";
      st = jet_ring_take(r, JET_RING_NEWEST, s, 10000, &f);
      if (st == JET_STATUS_OK) {
        step = "release";
        st = jet_ring_release(r, &f, s);
      }
      jet_status st2 = jet_ring_destroy(r);
      if (st == JET_STATUS_OK) step = "destroy", st = st2;
    }
    if (st != JET_STATUS_OK) {
      snprintf(rep.err, sizeof rep.err, "cycle %d, %s: %s", k, step, jet_last_error_string());
      break;
    }
    rep.ok++;
    if (k % 100 == 99) fprintf(stderr, "ring_reconnect: %d cycles\n", k + 1);
  }
  CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
  int fds1 = jt_count_fds();
  if (!rep.err[0])
    snprintf(rep.err, sizeof rep.err, "consumer: fds %d -> %d, device free %+lld KiB", fds0, fds1,
             ((long long)free1 - (long long)free0) / 1024);
  rep.seq = (uint64_t)(fds1 - fds0);
  rep.depth = (int)(((long long)free0 - (long long)free1) / 1024);
  CHECK(jt_send_msg(sock, &rep, sizeof rep, -1));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_ring_reconnect_cycles_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  jet_stream s;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  ctl c;
  memset(&c, 0, sizeof c);
  unique_path(c.path, sizeof c.path);
  c.count = 500;
  jet_ring r;
  if (ring_of(ctx, c.path, JET_FORMAT_NV12, 640, 480, 4, &r)) return 1;
  int fds0 = jt_count_fds();
  int sock;
  pid_t pid;
  if (spawn("ring_reconnect", &sock, &pid)) return 1;
  fds0++; /* our end of the socket pair */
  CHECK(jt_send_msg(sock, &c, sizeof c, -1));
  host_img h;
  jet_ring_frame probe;
  CHECK_OK(jet_ring_loan(r, 0, &probe));
  if (host_img_init(&h, probe.image)) return 1;
  CHECK_OK(jet_ring_discard(r, &probe));
  ctl rep;
  int got = 0;
  uint64_t t0 = now_ns();
  while (!got && (now_ns() - t0) < 120000000000ull) {
    jet_ring_stats st;
    CHECK_OK(jet_ring_get_stats(r, &st));
    if (st.consumers > 0) {
      if (publish_one(r, s, &h, 1000)) return 1;
      CHECK_OK(jet_stream_synchronize(s));
    }
    (void)jet_ring_poll(r, 1);
    struct pollfd pf = {sock, POLLIN, 0};
    if (poll(&pf, 1, 0) == 1) got = jt_recv_msg(sock, &rep, sizeof rep, NULL, 1.0);
  }
  if (!got) {
    jet_ring_stats st;
    CHECK_OK(jet_ring_get_stats(r, &st));
    fprintf(stderr, "no report after 120 s: published %llu, consumers %d, lost %d\n",
            (unsigned long long)st.published, st.consumers, st.lost_consumers);
    kill(pid, SIGKILL);
    (void)jt_wait_child(pid, 10);
  }
  CHECK(got);
  CHECK(jt_wait_child(pid, WAIT_S) == 0);
  for (int i = 0; i < 50; i++) (void)jet_ring_poll(r, 2);
  int fds1 = jt_count_fds();
  jet_ring_stats st;
  CHECK_OK(jet_ring_get_stats(r, &st));
  fprintf(stderr, "%d connections: %s; producer: fds %d -> %d, consumers now %d, lost %d\n",
          rep.ok, rep.err, fds0, fds1, st.consumers, st.lost_consumers);
  CHECK_MSG(rep.ok == c.count, "%s", rep.err);
  CHECK_MSG(rep.seq == 0, "consumer fds grew by %llu", (unsigned long long)rep.seq);
  CHECK_MSG(rep.depth < 8192, "consumer device memory grew by %d KiB", rep.depth);
  CHECK_MSG(fds1 <= fds0, "producer fds %d -> %d", fds0, fds1);
  CHECK(st.consumers == 0);
  free(h.data);
  close(sock);
  CHECK_OK(jet_ring_destroy(r));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

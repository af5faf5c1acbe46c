/*
 * jet-bench-ring: cross-process frame handoff through jet_ring, against POSIX
 * shared memory plus a copy out of and back into the GPU, in the same run.
 *
 * Every role is its own process, forked before any CUDA call (CUDA must not be
 * used across fork), talking over the ring (or, for the baseline, a socket
 * pair and a shared-memory frame registered with CUDA).
 *
 *  latency: the producer stamps CLOCK_MONOTONIC into the frame's timestamp
 *           just before jet_ring_publish; the consumer subtracts it when
 *           jet_ring_take returns, i.e. when it holds the frame and its stream
 *           already waits for the producer's writes ("GPU-ready": work it
 *           enqueues next sees the frame). One frame in flight at a time (the
 *           producer waits for the release), so the number is the handoff and
 *           not a queue. Also given: the same until the producer's write has
 *           completed on the GPU (jet_stream_synchronize after take).
 *           Measured with a consumer that spins (spin_us, lowest latency) and
 *           one that sleeps in poll() (spin_us = 0, least CPU).
 *  throughput: the producer publishes as fast as slots come back; LOSSLESS
 *           consumers take and release at once; handoffs per second per
 *           consumer over the run, with 1 and 4 consumers.
 *  baseline: the producer copies the frame device -> pinned shared memory,
 *           sends a notice; the consumer copies it host -> its device buffer;
 *           latency to the consumer's copy being complete, same pacing.
 *
 * Bytes of pixels copied between processes by the ring: none (the consumer
 * reads the producer's allocation through its VMM mapping); the baseline
 * copies each frame twice.
 *
 * Usage: jet-bench-ring [--frames N] (default 100000 per latency case)
 * Exit: 0 ok, 2 no GPU, 1 failure. The last line is a summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "jetrt.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

#define TRY(x)                                                                          \
  do {                                                                                  \
    jet_status st_ = (x);                                                               \
    if (st_ != JET_STATUS_OK) {                                                         \
      fprintf(stderr, "[%d] %s:%d: %s: %s\n", (int)getpid(), __FILE__, __LINE__, #x,  \
              jet_last_error_string());                                                 \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)
#define CU(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "[%d] %s:%d: %s: %s\n", (int)getpid(), __FILE__, __LINE__, #x,      \
              cudaGetErrorString(e_));                                                     \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

typedef struct result {
  double median_us, p99_us;      /* take returned */
  double median_done_us;         /* the producer's write complete too */
  double per_second;             /* throughput cases */
  uint64_t frames;
  int ok;
  int role; /* 0: producer, 1..: consumer */
} result;

typedef struct job {
  const char *path;
  jet_format format;
  int width, height;
  int frames;       /* latency: frames measured; throughput: 0 */
  double seconds;   /* throughput: duration */
  int consumers;
  unsigned spin_us;
  int lossless;
} job;

/* ------------------------------------------------------------ jet_ring roles */

static int producer(const job *j, int report_fd) {
  jet_context ctx;
  jet_stream s;
  TRY(jet_context_create(&ctx, NULL));
  TRY(jet_stream_create(ctx, NULL, &s));
  jet_ring_desc d;
  memset(&d, 0, sizeof d);
  d.path = j->path;
  d.slots = 4;
  d.format = j->format;
  d.width = j->width;
  d.height = j->height;
  d.max_consumers = j->consumers;
  jet_ring r;
  TRY(jet_ring_create(ctx, &d, &r));
  jet_ring_stats st;
  uint64_t t0 = now_ns();
  do {
    (void)jet_ring_poll(r, 10);
    TRY(jet_ring_get_stats(r, &st));
    if (now_ns() - t0 > 30000000000ull) {
      fprintf(stderr, "producer: only %d consumer(s) after 30 s\n", st.consumers);
      return 1;
    }
  } while (st.consumers < j->consumers);
  result res;
  memset(&res, 0, sizeof res);
  int warm = 200;
  uint64_t start = 0, n = 0;
  for (int k = 0;; k++) {
    if (j->frames && k >= j->frames + warm) break;
    if (!j->frames && k == warm) start = now_ns();
    if (!j->frames && k > warm && now_ns() - start > (uint64_t)(j->seconds * 1e9)) break;
    jet_ring_frame f;
    TRY(jet_ring_loan(r, 10000, &f));
    jet_image_plane_info pi;
    TRY(jet_image_get_plane(f.image, 0, &pi));
    /* The producer's "write": a small GPU op ordered before the event. */
    void *cs;
    TRY(jet_stream_native(s, &cs));
    CU(cudaMemsetAsync(pi.ptr, k & 0xff, 256, (cudaStream_t)cs));
    TRY(jet_ring_publish(r, &f, s, now_ns(), NULL, 0));
    if (k >= warm) n++;
    if (j->frames) {
      /* One frame in flight: wait for its release. */
      uint64_t w0 = now_ns();
      for (;;) {
        jet_ring_frame g;
        if (jet_ring_loan(r, 0, &g) == JET_STATUS_OK) {
          TRY(jet_ring_discard(r, &g));
          int free_slots = 0;
          jet_ring_frame h[4];
          while (free_slots < 4 && jet_ring_loan(r, 0, &h[free_slots]) == JET_STATUS_OK)
            free_slots++;
          for (int i = 0; i < free_slots; i++) TRY(jet_ring_discard(r, &h[i]));
          if (free_slots == 4) break;
        }
        (void)jet_ring_poll(r, 1);
        if (now_ns() - w0 > 10000000000ull) {
          fprintf(stderr, "producer: frame %d not released after 10 s\n", k);
          return 1;
        }
      }
    }
  }
  double secs = (now_ns() - start) / 1e9;
  res.per_second = j->frames ? 0 : n / secs;
  res.frames = n;
  res.ok = 1;
  res.role = 0;
  if (write(report_fd, &res, sizeof res) != (ssize_t)sizeof res) return 1;
  TRY(jet_ring_destroy(r));
  TRY(jet_stream_destroy(s));
  TRY(jet_context_destroy(ctx));
  return 0;
}

static int consumer(const job *j, int idx, int report_fd) {
  jet_context ctx;
  jet_stream s;
  TRY(jet_context_create(&ctx, NULL));
  TRY(jet_stream_create(ctx, NULL, &s));
  char name[32];
  snprintf(name, sizeof name, "bench-%d", idx);
  jet_ring_consumer_desc d = {j->path, j->lossless ? JET_RING_LOSSLESS : JET_RING_DROP_OLDEST,
                              4, name, 30000, j->spin_us, 0, 0, 0};
  jet_ring r;
  uint64_t t0 = now_ns();
  jet_status st;
  while ((st = jet_ring_connect(ctx, &d, &r)) != JET_STATUS_OK) {
    if (now_ns() - t0 > 30000000000ull) TRY(st);
    usleep(10000);
  }
  uint64_t *lat = j->frames ? malloc(sizeof *lat * (size_t)(j->frames + 200)) : NULL;
  uint64_t *done = j->frames ? malloc(sizeof *done * (size_t)(j->frames + 200)) : NULL;
  uint64_t n = 0;
  for (;;) {
    jet_ring_frame f;
    st = jet_ring_take(r, JET_RING_NEXT, s, 20000, &f);
    uint64_t t = now_ns();
    if (st == JET_STATUS_DISCONNECTED) break;
    TRY(st);
    if (lat) {
      TRY(jet_stream_synchronize(s));
      uint64_t t2 = now_ns();
      if (n < (uint64_t)j->frames + 200) {
        lat[n] = t - f.timestamp_ns;
        done[n] = t2 - f.timestamp_ns;
      }
    }
    TRY(jet_ring_release(r, &f, NULL));
    n++;
  }
  result res;
  memset(&res, 0, sizeof res);
  res.ok = 1;
  res.role = idx;
  res.frames = n;
  if (lat && n > 200) {
    uint64_t m = n - 200 < (uint64_t)j->frames ? n - 200 : (uint64_t)j->frames;
    qsort(lat + 200, m, sizeof *lat, cmp_u64);
    qsort(done + 200, m, sizeof *done, cmp_u64);
    res.median_us = lat[200 + m / 2] / 1e3;
    res.p99_us = lat[200 + (m * 99) / 100] / 1e3;
    res.median_done_us = done[200 + m / 2] / 1e3;
  }
  free(lat);
  free(done);
  if (write(report_fd, &res, sizeof res) != (ssize_t)sizeof res) return 1;
  TRY(jet_ring_destroy(r));
  TRY(jet_stream_destroy(s));
  TRY(jet_context_destroy(ctx));
  return 0;
}

/* Fork the producer and the consumers of @j; gather their results. */
static int run_ring(const job *j, result *prod, result *cons) {
  int pfd[2];
  if (pipe(pfd) != 0) return 1;
  pid_t pids[1 + 8];
  int n = 0;
  for (int i = 0; i <= j->consumers; i++) {
    pid_t p = fork();
    if (p < 0) return 1;
    if (p == 0) {
      close(pfd[0]);
      int rc = i == 0 ? producer(j, pfd[1]) : consumer(j, i, pfd[1]);
      _exit(rc);
    }
    pids[n++] = p;
  }
  close(pfd[1]);
  memset(prod, 0, sizeof *prod);
  memset(cons, 0, sizeof *cons * (size_t)j->consumers);
  int rc = 0;
  for (int i = 0; i < n; i++) {
    int status;
    waitpid(pids[i], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) rc = 1;
  }
  int got = 0;
  result one;
  while (got < n && read(pfd[0], &one, sizeof one) == (ssize_t)sizeof one) {
    if (one.role == 0) *prod = one;
    else if (one.role <= j->consumers) cons[one.role - 1] = one;
    got++;
  }
  close(pfd[0]);
  return rc || got != n;
}

/* ------------------------------------------------------------ baseline */

static int base_producer(const job *j, int sock, unsigned char *shm, size_t bytes) {
  CU(cudaSetDevice(0));
  void *dev;
  CU(cudaMalloc(&dev, bytes));
  CU(cudaMemset(dev, 0x5a, bytes));
  CU(cudaHostRegister(shm, bytes, cudaHostRegisterDefault));
  cudaStream_t s;
  CU(cudaStreamCreate(&s));
  for (int k = 0; k < j->frames + 200; k++) {
    uint64_t t = now_ns();
    CU(cudaMemcpyAsync(shm, dev, bytes, cudaMemcpyDeviceToHost, s));
    CU(cudaStreamSynchronize(s));
    if (send(sock, &t, sizeof t, 0) != (ssize_t)sizeof t) return 1;
    uint64_t ack;
    if (recv(sock, &ack, sizeof ack, 0) != (ssize_t)sizeof ack) return 1;
  }
  CU(cudaHostUnregister(shm));
  CU(cudaFree(dev));
  return 0;
}

static int base_consumer(const job *j, int sock, unsigned char *shm, size_t bytes, int report_fd) {
  CU(cudaSetDevice(0));
  void *dev;
  CU(cudaMalloc(&dev, bytes));
  CU(cudaHostRegister(shm, bytes, cudaHostRegisterDefault));
  cudaStream_t s;
  CU(cudaStreamCreate(&s));
  uint64_t *lat = malloc(sizeof *lat * (size_t)(j->frames + 200));
  for (int k = 0; k < j->frames + 200; k++) {
    uint64_t t;
    if (recv(sock, &t, sizeof t, 0) != (ssize_t)sizeof t) return 1;
    CU(cudaMemcpyAsync(dev, shm, bytes, cudaMemcpyHostToDevice, s));
    CU(cudaStreamSynchronize(s));
    lat[k] = now_ns() - t;
    if (send(sock, &t, sizeof t, 0) != (ssize_t)sizeof t) return 1;
  }
  qsort(lat + 200, (size_t)j->frames, sizeof *lat, cmp_u64);
  result res;
  memset(&res, 0, sizeof res);
  res.ok = 1;
  res.frames = (uint64_t)j->frames;
  res.median_us = res.median_done_us = lat[200 + j->frames / 2] / 1e3;
  res.p99_us = lat[200 + (j->frames * 99) / 100] / 1e3;
  free(lat);
  CU(cudaHostUnregister(shm));
  if (write(report_fd, &res, sizeof res) != (ssize_t)sizeof res) return 1;
  return 0;
}

static int run_baseline(const job *j, size_t bytes, result *out) {
  size_t map = (bytes + 4095) & ~(size_t)4095;
  unsigned char *shm = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shm == MAP_FAILED) return 1;
  int sv[2], pfd[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0 || pipe(pfd) != 0) return 1;
  pid_t a = fork();
  if (a == 0) _exit(base_producer(j, sv[0], shm, bytes));
  pid_t b = fork();
  if (b == 0) _exit(base_consumer(j, sv[1], shm, bytes, pfd[1]));
  close(pfd[1]);
  int sa, sb;
  waitpid(a, &sa, 0);
  waitpid(b, &sb, 0);
  int ok = read(pfd[0], out, sizeof *out) == (ssize_t)sizeof *out;
  close(pfd[0]);
  close(sv[0]);
  close(sv[1]);
  munmap(shm, map);
  return !(ok && WIFEXITED(sa) && !WEXITSTATUS(sa) && WIFEXITED(sb) && !WEXITSTATUS(sb));
}

/* ------------------------------------------------------------ main */

static size_t frame_bytes(jet_format f, int w, int h) {
  return f == JET_FORMAT_NV12 ? (size_t)w * h * 3 / 2 : (size_t)w * h * 4;
}

int main(int argc, char **argv) {
  int frames = 100000;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--frames") == 0 && a + 1 < argc) frames = atoi(argv[++a]);
    else {
      fprintf(stderr, "usage: jet-bench-ring [--frames N]\n");
      return 1;
    }
  }
  if (frames < 1000) frames = 1000;
  signal(SIGPIPE, SIG_IGN);
  /* Ask a child whether there is a GPU, so this process never touches CUDA. */
  pid_t probe = fork();
  if (probe == 0) {
    int n = 0;
    _exit(jet_device_count(&n) == JET_STATUS_OK && n > 0 ? 0 : 2);
  }
  int status;
  waitpid(probe, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    printf("jet-bench-ring: no CUDA device\n");
    return 2;
  }
  char path[64];
  snprintf(path, sizeof path, "@jet-bench-ring-%d", (int)getpid());
  static const struct {
    const char *name;
    jet_format f;
    int w, h;
  } sizes[] = {{"1080p NV12", JET_FORMAT_NV12, 1920, 1080}, {"4K RGBA8", JET_FORMAT_RGBA8, 3840, 2160}};
  int failed = 0;
  double worst_med = 0, worst_p99 = 0, tput1 = 0;
  printf("%-34s %10s %10s %12s %12s %10s\n", "handoff latency (us)", "median", "p99",
         "median done", "copy median", "copy/ring");
  for (size_t i = 0; i < 2; i++) {
    result base;
    job bj = {path, sizes[i].f, sizes[i].w, sizes[i].h, frames / 20, 0, 1, 0, 1};
    int bad_base = run_baseline(&bj, frame_bytes(sizes[i].f, sizes[i].w, sizes[i].h), &base);
    for (int spin = 0; spin < 2; spin++) {
      job j = {path, sizes[i].f, sizes[i].w, sizes[i].h, frames, 0, 1, spin ? 200u : 0u, 1};
      result p, c[1];
      if (run_ring(&j, &p, c) || !c[0].ok) {
        printf("%s, %s consumer: FAILED\n", sizes[i].name, spin ? "spinning" : "sleeping");
        failed = 1;
        continue;
      }
      char label[64];
      snprintf(label, sizeof label, "%s, %s consumer", sizes[i].name, spin ? "spinning" : "sleeping");
      printf("%-34s %10.2f %10.2f %12.2f %12.2f %9.1fx\n", label, c[0].median_us, c[0].p99_us,
             c[0].median_done_us, bad_base ? 0.0 : base.median_us,
             bad_base ? 0.0 : base.median_us / c[0].median_us);
      if (spin) {
        if (c[0].median_us > worst_med) worst_med = c[0].median_us;
        if (c[0].p99_us > worst_p99) worst_p99 = c[0].p99_us;
      }
    }
    if (bad_base) {
      printf("  baseline (shm + copies) FAILED for %s\n", sizes[i].name);
      failed = 1;
    }
  }
  printf("%-34s %12s %12s\n", "throughput (1080p NV12)", "per consumer", "all");
  for (int nc = 1; nc <= 4; nc += 3) {
    job j = {path, JET_FORMAT_NV12, 1920, 1080, 0, 3.0, nc, 200, 1};
    result p, c[4];
    if (run_ring(&j, &p, c)) {
      printf("%d consumer(s): FAILED\n", nc);
      failed = 1;
      continue;
    }
    char label[64];
    snprintf(label, sizeof label, "%d consumer(s), lossless", nc);
    printf("%-34s %12.0f %12.0f  handoffs/s\n", label, p.per_second, p.per_second * nc);
    if (nc == 1) tput1 = p.per_second;
  }
  int met = !failed && worst_med <= 15.0 && worst_p99 <= 50.0 && tput1 >= 20000.0;
  printf("jet-bench-ring: spinning consumer worst median %.2f us, worst p99 %.2f us, %.0f "
         "handoffs/s with 1 consumer, 0 pixel bytes copied; targets (<=15 us, <=50 us, >=20000/s) "
         "%s\n",
         worst_med, worst_p99, tput1, met ? "met" : "NOT met");
  return failed;
}

/*
 * jet-bench-pool: per-frame allocation through a memory pool against
 * cudaMalloc/cudaFree.
 *
 * Each frame allocates BUFFERS device buffers of MB MiB (frame-sized
 * scratch), touches each with a small memset on one stream, frees them all
 * and waits for the stream: the pattern of a pipeline that allocates its
 * intermediates per frame. The cases:
 *
 *  pool, threshold max  jet_buffer_alloc_async / jet_buffer_free_async from a
 *                       jet_mempool whose release threshold is UINT64_MAX:
 *                       freed memory stays in the pool across the per-frame
 *                       synchronisation, so steady-state frames never reach
 *                       the system allocator.
 *  pool, threshold 0    the same pool setting CUDA starts with: the pool
 *                       gives its memory back at every synchronisation.
 *  default pool         cudaMallocAsync (the device's default pool, as set).
 *  cudaMalloc/cudaFree  jet_buffer_create / jet_buffer_destroy.
 *
 * What is timed is the host's wall clock around one whole frame (allocate,
 * enqueue, free, synchronise), CLOCK_MONOTONIC: allocation cost is host-side
 * API time and the synchronisation it forces, which CUDA events on the stream
 * would not see. The GPU work per frame is the same in every case. Median and
 * p99 over the frames after a warm-up.
 *
 * Usage: jet-bench-pool [--frames N] [--buffers B] [--mb M]
 *        (defaults 5000 frames, 4 buffers of 8 MiB)
 * Exit: 0 ok, 2 no GPU, 1 failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jetrt.h"

#define MAX_BUFFERS 64
#define WARMUP 50

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

#define TRY(x)                                                                   \
  do {                                                                           \
    jet_status st_ = (x);                                                        \
    if (st_ != JET_STATUS_OK) {                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,                 \
              jet_last_error_string());                                          \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

typedef enum { POOL_MAX, POOL_ZERO, DEFAULT_POOL, PLAIN } mode;

static const char *mode_name(mode m) {
  switch (m) {
    case POOL_MAX: return "pool, threshold max";
    case POOL_ZERO: return "pool, threshold 0";
    case DEFAULT_POOL: return "default pool";
    case PLAIN: return "cudaMalloc/cudaFree";
  }
  return "?";
}

typedef struct result {
  double median_us, p99_us, mean_us, max_us;
} result;

static int one_frame(mode m, jet_context ctx, jet_stream s, jet_mempool pool, int buffers,
                     size_t bytes) {
  jet_buffer b[MAX_BUFFERS];
  for (int j = 0; j < buffers; j++) {
    if (m == PLAIN) {
      jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, bytes, 0, 0};
      TRY(jet_buffer_create(ctx, &d, &b[j]));
    } else {
      TRY(jet_buffer_alloc_async(s, m == DEFAULT_POOL ? NULL : pool, bytes, &b[j]));
    }
    void *p;
    TRY(jet_buffer_device_ptr(b[j], &p));
    TRY(jet_memset_async(s, p, j, 4096));
  }
  if (m == PLAIN) {
    /* cudaFree would wait for the memsets anyway; say so explicitly */
    TRY(jet_stream_synchronize(s));
    for (int j = 0; j < buffers; j++) TRY(jet_buffer_destroy(b[j]));
  } else {
    for (int j = 0; j < buffers; j++) TRY(jet_buffer_free_async(b[j], s));
    TRY(jet_stream_synchronize(s));
  }
  return 0;
}

static int run(mode m, jet_context ctx, jet_stream s, int frames, int buffers, size_t bytes,
               result *r) {
  jet_mempool pool = NULL;
  if (m == POOL_MAX || m == POOL_ZERO) {
    jet_mempool_desc d;
    memset(&d, 0, sizeof d);
    d.release_threshold = m == POOL_MAX ? UINT64_MAX : 0;
    TRY(jet_mempool_create(ctx, &d, &pool));
  }
  uint64_t *t = malloc((size_t)frames * sizeof *t);
  if (!t) return 1;
  for (int i = 0; i < WARMUP; i++)
    if (one_frame(m, ctx, s, pool, buffers, bytes)) return 1;
  for (int i = 0; i < frames; i++) {
    uint64_t t0 = now_ns();
    if (one_frame(m, ctx, s, pool, buffers, bytes)) return 1;
    t[i] = now_ns() - t0;
  }
  double sum = 0;
  for (int i = 0; i < frames; i++) sum += (double)t[i];
  qsort(t, (size_t)frames, sizeof *t, cmp_u64);
  r->median_us = (double)t[frames / 2] / 1e3;
  size_t k99 = (size_t)((double)frames * 0.99);
  if (k99 >= (size_t)frames) k99 = (size_t)frames - 1;
  r->p99_us = (double)t[k99] / 1e3;
  r->mean_us = sum / frames / 1e3;
  r->max_us = (double)t[frames - 1] / 1e3;
  free(t);
  if (pool) {
    jet_mempool_stats st;
    TRY(jet_mempool_get_stats(pool, &st));
    fprintf(stderr, "  %-22s pool reserved high %llu MiB\n", mode_name(m),
            (unsigned long long)(st.reserved_high >> 20));
    TRY(jet_mempool_destroy(pool));
  }
  return 0;
}

int main(int argc, char **argv) {
  int frames = 5000, buffers = 4;
  size_t mb = 8;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--frames") && i + 1 < argc)
      frames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--buffers") && i + 1 < argc)
      buffers = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--mb") && i + 1 < argc)
      mb = (size_t)atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--frames N] [--buffers B] [--mb M]\n", argv[0]);
      return 1;
    }
  }
  if (frames < 100 || buffers < 1 || buffers > MAX_BUFFERS || mb < 1 || mb > 1024) {
    fprintf(stderr, "frames >= 100, 1 <= buffers <= %d, 1 <= mb <= 1024\n", MAX_BUFFERS);
    return 1;
  }
  int n = 0;
  if (jet_device_count(&n) != JET_STATUS_OK || n == 0) {
    fprintf(stderr, "jet-bench-pool: no CUDA device (%s)\n", jet_last_error_string());
    return 2;
  }
  jet_context ctx;
  TRY(jet_context_create(&ctx, NULL));
  jet_platform_info pi;
  jet_policy pol;
  TRY(jet_context_platform(ctx, &pi));
  TRY(jet_context_policy(ctx, &pol));
  if (!pi.memory_pools_supported) {
    fprintf(stderr, "jet-bench-pool: %s has no memory pools\n", pi.name);
    (void)jet_context_destroy(ctx);
    return 2;
  }
  jet_stream s;
  TRY(jet_stream_create(ctx, NULL, &s));
  size_t bytes = mb << 20;
  printf("jet-bench-pool: %s (SM %d.%d, policy %s), %d frames of %d x %zu MiB buffers\n",
         pi.name, pi.cc_major, pi.cc_minor, pol.name, frames, buffers, mb);
  static const mode modes[] = {POOL_MAX, POOL_ZERO, DEFAULT_POOL, PLAIN};
  result res[4];
  for (int i = 0; i < 4; i++)
    if (run(modes[i], ctx, s, frames, buffers, bytes, &res[i])) return 1;
  printf("\n%-22s %12s %12s %12s %12s\n", "per frame (us)", "median", "p99", "mean", "max");
  for (int i = 0; i < 4; i++)
    printf("%-22s %12.1f %12.1f %12.1f %12.1f\n", mode_name(modes[i]), res[i].median_us,
           res[i].p99_us, res[i].mean_us, res[i].max_us);
  printf("\npool (threshold max) vs cudaMalloc/cudaFree: median %.1fx, p99 %.1fx faster\n",
         res[0].median_us > 0 ? res[3].median_us / res[0].median_us : 0,
         res[0].p99_us > 0 ? res[3].p99_us / res[0].p99_us : 0);
  TRY(jet_stream_destroy(s));
  TRY(jet_context_destroy(ctx));
  return 0;
}

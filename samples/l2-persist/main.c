/*
 * l2-persist: the CUDA Programming Guide's L2 persistence example (3.2.3).
 *
 * A small "hot" buffer is read by every iteration while a large buffer (at
 * least 8x the L2, 256 MiB or more) streams through: each iteration reads one
 * chunk of it once and writes one chunk of a second large buffer once. Without
 * help the streaming traffic evicts the hot data from L2 between its reuses.
 * With part of L2 set aside for persisting lines and an access policy window
 * marking the hot buffer PERSISTING (the rest STREAMING), the hot data stays.
 *
 * For hot buffers from a quarter of the set-aside to three times it, the table
 * gives the time per iteration without a window, with hit_ratio 1.0, and with
 * hit_ratio = set_aside / hot_bytes once the hot data exceeds the set-aside.
 *
 * Usage: l2-persist [ITERS [REPS]]   (defaults 40 and 9; the median is shown)
 * Exit codes: 0 ok; 1 failure; 2 no CUDA device, or a device (or MIG/MPS
 * setup) without L2 persistence, with the reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetrt.h"
#include "l2-persist_kernels.h" /* generated: jet_images_l2p */

#define MIB (1024.0 * 1024.0)

static int fail(const char *what) {
  fprintf(stderr, "l2-persist: %s: %s\n", what, jet_last_error_string());
  return 1;
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

typedef struct run {
  jet_context ctx;
  jet_stream s;
  jet_kernel step;
  jet_event e0, e1;
  unsigned *hot, *in, *out;
  unsigned chunk_words, chunks;
  jet_dim3 grid, block;
  int iters, reps;
} run;

/* Median milliseconds per iteration of @r->iters steps over a hot buffer of
 * @hot_words, with @win (NULL: no window) on the stream. Persisting lines are
 * reset first, so one measurement does not profit from the previous one. */
static int measure(run *r, unsigned hot_words, const jet_access_policy *win, float *ms_per_iter) {
  if (win ? jet_l2_stream_set_window(r->s, win) : jet_l2_stream_clear_window(r->s))
    return fail("setting the access policy window");
  if (jet_l2_reset_persisting(r->ctx)) return fail("jet_l2_reset_persisting");
  float *t = malloc(sizeof *t * (size_t)r->reps);
  if (!t) return 1;
  for (int rep = -1; rep < r->reps; rep++) { /* rep -1 warms up */
    unsigned hot_base = 0;
    if (rep >= 0 && jet_event_record(r->e0, r->s)) return fail("jet_event_record");
    for (int it = 0; it < r->iters; it++) {
      unsigned c = (unsigned)it % r->chunks;
      unsigned *in = r->in + (size_t)c * r->chunk_words, *out = r->out + (size_t)c * r->chunk_words;
      void *args[] = {&r->hot, &hot_words, &hot_base, &in, &out, &r->chunk_words};
      if (jet_launch(r->s, r->step, r->grid, r->block, 0, args)) return fail("jet_launch");
      hot_base = (unsigned)(((unsigned long long)hot_base + r->chunk_words) % hot_words);
    }
    if (rep >= 0) {
      if (jet_event_record(r->e1, r->s) || jet_event_synchronize(r->e1))
        return fail("timing events");
      if (jet_event_elapsed_ms(r->e0, r->e1, &t[rep])) return fail("jet_event_elapsed_ms");
    }
  }
  qsort(t, (size_t)r->reps, sizeof *t, cmp_float);
  *ms_per_iter = t[r->reps / 2] / (float)r->iters;
  free(t);
  return 0;
}

/* The last chunk written, checked against the CPU: out = in + hot[(base + i) % hot_words]. */
static int verify(run *r, unsigned hot_words) {
  size_t cw = r->chunk_words;
  unsigned *hin = malloc(cw * 4), *hout = malloc(cw * 4), *hhot = malloc((size_t)hot_words * 4);
  if (!hin || !hout || !hhot) return 1;
  if (jet_stream_synchronize(r->s) || jet_memcpy(r->ctx, hin, r->in, cw * 4) ||
      jet_memcpy(r->ctx, hout, r->out, cw * 4) ||
      jet_memcpy(r->ctx, hhot, r->hot, (size_t)hot_words * 4))
    return fail("reading results back");
  /* chunk 0 was last written by the last iteration with it % chunks == 0 */
  int last = ((r->iters - 1) / (int)r->chunks) * (int)r->chunks;
  unsigned long long base = ((unsigned long long)last * r->chunk_words) % hot_words;
  for (size_t i = 0; i < cw; i++) {
    unsigned e = hin[i] + hhot[(base + i) % hot_words];
    if (hout[i] != e) {
      fprintf(stderr, "l2-persist: wrong result at %zu: expected 0x%08x, got 0x%08x\n", i, e,
              hout[i]);
      return 1;
    }
  }
  free(hin);
  free(hout);
  free(hhot);
  return 0;
}

static int alloc(jet_context ctx, size_t bytes, jet_buffer *b, unsigned **p) {
  jet_buffer_desc d;
  memset(&d, 0, sizeof d);
  d.kind = JET_MEMORY_DEVICE;
  d.width_bytes = bytes;
  if (jet_buffer_create(ctx, &d, b)) return fail("jet_buffer_create");
  if (jet_buffer_device_ptr(*b, (void **)p)) return fail("jet_buffer_device_ptr");
  return 0;
}

int main(int argc, char **argv) {
  run r;
  memset(&r, 0, sizeof r);
  r.iters = argc > 1 ? atoi(argv[1]) : 40;
  r.reps = argc > 2 ? atoi(argv[2]) : 9;
  if (r.iters < 1) r.iters = 1;
  if (r.reps < 1) r.reps = 1;
  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "l2-persist: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }
  if (jet_context_create(&r.ctx, NULL)) return fail("jet_context_create");
  jet_platform_info info;
  jet_policy pol;
  jet_context_platform(r.ctx, &info);
  jet_context_policy(r.ctx, &pol);
  printf("device %s (SM %d.%d), policy %s\n", info.name, info.cc_major, info.cc_minor, pol.name);
  if (!pol.l2_persistence) {
    fprintf(stderr, "l2-persist: L2 persistence unavailable: %s\n", pol.l2_persistence_why);
    jet_context_destroy(r.ctx);
    return 2;
  }
  jet_l2_info l2;
  if (jet_l2_query(r.ctx, &l2)) return fail("jet_l2_query");
  /* The guide's choice: three quarters of L2, or the maximum allowed. */
  size_t want = (size_t)((double)l2.l2_bytes * 0.75);
  if (want > l2.persisting_max) want = l2.persisting_max;
  size_t set_aside = 0;
  jet_status st = jet_l2_set_aside(r.ctx, want, &set_aside);
  if (st == JET_STATUS_UNSUPPORTED) {
    fprintf(stderr, "l2-persist: %s\n", jet_last_error_string());
    jet_context_destroy(r.ctx);
    return 2;
  }
  if (st) return fail("jet_l2_set_aside");
  printf("L2 %.1f MiB, persisting max %.1f MiB, set-aside asked %.1f MiB, granted %.1f MiB, "
         "max window %.1f MiB\n",
         l2.l2_bytes / MIB, l2.persisting_max / MIB, want / MIB, set_aside / MIB,
         l2.max_window_bytes / MIB);
  if (set_aside == 0) {
    fprintf(stderr, "l2-persist: the driver granted no set-aside\n");
    return 2;
  }

  /* Streaming: chunks of one L2 each, at least 8 L2s (and 256 MiB) in all. */
  size_t chunk_bytes = (l2.l2_bytes + 4095) / 4096 * 4096;
  size_t stream_bytes = chunk_bytes * 8;
  while (stream_bytes < ((size_t)256 << 20)) stream_bytes += chunk_bytes;
  r.chunk_words = (unsigned)(chunk_bytes / 4);
  r.chunks = (unsigned)(stream_bytes / chunk_bytes);
  /* Hot sizes, in units of the set-aside, up to the largest window. */
  const double factors[] = {0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0};
  const int nf = (int)(sizeof factors / sizeof factors[0]);
  size_t hot_max = (size_t)((double)set_aside * factors[nf - 1]);
  if (hot_max > l2.max_window_bytes) hot_max = l2.max_window_bytes;
  hot_max = hot_max / 4096 * 4096;

  jet_buffer bhot, bin, bout;
  if (alloc(r.ctx, hot_max, &bhot, &r.hot) || alloc(r.ctx, stream_bytes, &bin, &r.in) ||
      alloc(r.ctx, stream_bytes, &bout, &r.out))
    return 1;
  jet_module mod;
  jet_kernel fill;
  if (jet_module_load(r.ctx, &jet_images_l2p, NULL, &mod)) return fail("jet_module_load");
  if (jet_module_kernel(mod, "l2p_fill", &fill) || jet_module_kernel(mod, "l2p_step", &r.step))
    return fail("jet_module_kernel");
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  if (jet_stream_create(r.ctx, &sd, &r.s)) return fail("jet_stream_create");
  if (jet_event_create(r.ctx, JET_EVENT_TIMING, &r.e0) ||
      jet_event_create(r.ctx, JET_EVENT_TIMING, &r.e1))
    return fail("jet_event_create");
  int block = 256, min_grid = 0;
  if (jet_kernel_suggest_block(r.step, 0, &block, &min_grid))
    return fail("jet_kernel_suggest_block");
  r.block = (jet_dim3){(unsigned)block, 1, 1};
  r.grid = (jet_dim3){(unsigned)(min_grid > 0 ? min_grid : info.sm_count * 4), 1, 1};
  struct {
    unsigned *p;
    size_t words;
    unsigned seed;
  } fills[] = {{r.hot, hot_max / 4, 1u}, {r.in, stream_bytes / 4, 2u}};
  for (int i = 0; i < 2; i++) {
    unsigned long long n = fills[i].words;
    void *args[] = {&fills[i].p, &n, &fills[i].seed};
    if (jet_launch(r.s, fill, r.grid, r.block, 0, args)) return fail("fill");
  }
  printf("streaming %.0f MiB in %u chunks of %.1f MiB (read once, written once), %d iterations x "
         "%d runs, median; grid %u x %u\n\n",
         stream_bytes / MIB, r.chunks, chunk_bytes / MIB, r.iters, r.reps, r.grid.x, r.block.x);

  printf("%9s %9s | %12s | %12s %7s | %12s %7s %9s\n", "hot MiB", "/set-aside", "no window",
         "hit 1.0", "speedup", "hit tuned", "speedup", "hit_ratio");
  printf("%9s %9s | %12s | %12s %7s | %12s %7s %9s\n", "", "", "ms/iter", "ms/iter", "", "ms/iter",
         "", "");
  unsigned last_hot = 0;
  for (int f = 0; f < nf; f++) {
    size_t hot_bytes = (size_t)((double)set_aside * factors[f]) / 4096 * 4096;
    if (hot_bytes > hot_max) break;
    if (hot_bytes < 4096) continue;
    unsigned hot_words = (unsigned)(hot_bytes / 4);
    jet_access_policy win = {r.hot, hot_bytes, 1.0f, JET_ACCESS_PERSISTING, JET_ACCESS_STREAMING};
    float t_none, t_one, t_tuned = 0.0f;
    if (measure(&r, hot_words, NULL, &t_none) || measure(&r, hot_words, &win, &t_one)) return 1;
    float ratio = (float)((double)set_aside / (double)hot_bytes);
    int tuned = ratio < 1.0f;
    if (tuned) {
      win.hit_ratio = ratio;
      if (measure(&r, hot_words, &win, &t_tuned)) return 1;
    }
    printf("%9.2f %9.2f | %12.4f | %12.4f %6.2fx |", hot_bytes / MIB,
           (double)hot_bytes / (double)set_aside, t_none, t_one, t_none / t_one);
    if (tuned)
      printf(" %12.4f %6.2fx %9.3f\n", t_tuned, t_none / t_tuned, ratio);
    else
      printf(" %12s %7s %9s\n", "-", "", "(1.0)");
    last_hot = hot_words;
  }
  if (last_hot && verify(&r, last_hot)) return 1;
  printf("\nresults of the last run checked against the CPU: ok\n\n");
  printf("Hit ratio: while the hot data fits the set-aside (/set-aside <= 1), hit_ratio 1.0 keeps\n"
         "all of it. Beyond that, hit_ratio 1.0 marks more lines PERSISTING than the set-aside\n"
         "holds, so persisting lines evict each other and the benefit fades (thrashing).\n"
         "hit_ratio = set_aside / hot_bytes marks a random set-aside-sized share of the window\n"
         "persisting and streams the rest, so that share stays resident.\n");

  jet_l2_stream_clear_window(r.s);
  jet_l2_reset_persisting(r.ctx);
  jet_l2_set_aside(r.ctx, 0, NULL);
  jet_event_destroy(r.e0);
  jet_event_destroy(r.e1);
  jet_stream_destroy(r.s);
  jet_module_destroy(mod);
  jet_buffer_destroy(bhot);
  jet_buffer_destroy(bin);
  jet_buffer_destroy(bout);
  if (jet_context_destroy(r.ctx)) return fail("jet_context_destroy");
  return 0;
}

/*
 * managed-matrix: C = A + B on N x N float matrices in managed memory (the
 * Unified Memory appendix's example), four ways:
 *   on demand        no hint: pages migrate on first touch (page faults);
 *   prefetch         A, B, C prefetched to the GPU, C prefetched back;
 *   prefetch+advice  as prefetch, with A and B read-mostly and C preferring
 *                    the GPU;
 *   stream attach    the Tegra pattern: host-attached buffers, attached to
 *                    one stream for the kernel and back to the host after.
 * Where the policy or the device refuses prefetch (Jetson before Thor, or
 * JET_PLATFORM=orin on any GPU) the sample prints the refusal and translates
 * it to jet_managed_make_available, which hands over by stream attach there;
 * refused advice is printed and skipped.
 *
 * Each iteration the CPU writes A and B (untimed), then the timed part hands
 * the matrices to the GPU, adds, hands C back, and the CPU reads C. 'GPU span'
 * is measured with jetrt events from the first hand-over to the last; 'to C on
 * CPU' is host time up to the CPU having read all of C. Medians of many runs;
 * every variant's first result is checked against the CPU.
 *
 * Usage: managed-matrix [N] (default 4096; 1..16384). Exit codes: 0 ok,
 * 1 failure or a wrong result, 2 no CUDA device or no managed memory.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jetrt.h"
#include "managed-matrix_kernels.h" /* generated: declares jet_images_matrix_add */

#define TRY(expr)                                                                     \
  do {                                                                                \
    if ((expr) != JET_STATUS_OK) {                                                    \
      fprintf(stderr, "managed-matrix: %s failed: %s\n", #expr, jet_last_error_string()); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

enum { ON_DEMAND, PREFETCH, ADVISED, ATTACH, N_VARIANTS };
static const char *const variant_names[N_VARIANTS] = {"on demand", "prefetch", "prefetch+advice",
                                                      "stream attach"};

static jet_context ctx;
static jet_stream s;
static jet_kernel add_k;
static int nx;
static int prefetch_refused_reported, advice_refused_reported;
static volatile double sink; /* keeps the CPU's read of C */

typedef struct mats {
  jet_buffer b[3];
  float *p[3];
  int translated; /* prefetch refused: handed over by jet_managed_make_available instead */
} mats;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void mats_make(mats *m, size_t bytes, unsigned flags) {
  memset(m, 0, sizeof *m);
  for (int i = 0; i < 3; i++) {
    jet_buffer_desc d = {JET_MEMORY_MANAGED, flags, bytes, 0, 0};
    TRY(jet_buffer_create(ctx, &d, &m->b[i]));
    TRY(jet_buffer_host_ptr(m->b[i], (void **)&m->p[i]));
  }
}

static void mats_drop(mats *m) {
  for (int i = 0; i < 3; i++) TRY(jet_buffer_destroy(m->b[i]));
}

static void report_refusal(int *reported, const char *what, const char *then) {
  if (*reported) return;
  *reported = 1;
  const jet_error_info *e = jet_last_error();
  printf("%s refused: %s: %s\n  hint: %s\n  -> %s\n", what, jet_status_name(e->status),
         e->message, e->hint, then);
}

static void advise(mats *m, size_t bytes) {
  for (int i = 0; i < 2; i++) /* a no-op, reported OK, where advice has no effect */
    TRY(jet_managed_advise(m->b[i], 0, bytes, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE));
  jet_status st = jet_managed_advise(m->b[2], 0, bytes, JET_ADVISE_PREFERRED_LOCATION,
                                     JET_PROCESSOR_GPU);
  if (st == JET_STATUS_UNSUPPORTED)
    report_refusal(&advice_refused_reported, "advice (C preferred on the GPU)",
                   "skipped; read-mostly on A and B was accepted as a no-op");
  else if (st != JET_STATUS_OK)
    TRY(st);
  jet_managed_range_info ra, rc;
  TRY(jet_managed_range_query(m->b[0], 0, bytes, &ra));
  TRY(jet_managed_range_query(m->b[2], 0, bytes, &rc));
  printf("advice as CUDA records it: A read-mostly %d; C preferred location %s\n", ra.read_mostly,
         rc.preferred.processor == JET_PROCESSOR_GPU   ? "GPU"
         : rc.preferred.processor == JET_PROCESSOR_CPU ? "CPU"
                                                       : "none");
}

static void to_gpu(int v, mats *m) {
  for (int i = 0; i < 3; i++) {
    if (v == ATTACH) {
      TRY(jet_managed_attach(s, m->b[i], JET_ATTACH_SINGLE));
    } else if (v == PREFETCH || v == ADVISED) {
      jet_status st = m->translated ? JET_STATUS_UNSUPPORTED
                                    : jet_managed_prefetch(s, m->b[i], JET_PROCESSOR_GPU);
      if (st == JET_STATUS_UNSUPPORTED) {
        if (!m->translated)
          report_refusal(&prefetch_refused_reported, "prefetch (cudaMemPrefetchAsync)",
                         "translated to jet_managed_make_available (stream attach)");
        m->translated = 1;
        st = jet_managed_make_available(s, m->b[i], JET_PROCESSOR_GPU);
      }
      TRY(st);
    }
  }
}

/* In stream order, without waiting: the caller synchronises. */
static void to_cpu(int v, mats *m) {
  if (v == ATTACH || ((v == PREFETCH || v == ADVISED) && m->translated)) {
    for (int i = 0; i < 3; i++) TRY(jet_managed_attach(s, m->b[i], JET_ATTACH_HOST));
  } else if (v == PREFETCH || v == ADVISED) {
    TRY(jet_managed_prefetch(s, m->b[2], JET_PROCESSOR_CPU));
  }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

int main(int argc, char **argv) {
  long n_arg = argc > 1 ? strtol(argv[1], NULL, 0) : 4096;
  if (n_arg < 1 || n_arg > 16384) {
    fprintf(stderr, "usage: managed-matrix [N: 1..16384, default 4096]\n");
    return 1;
  }
  nx = (int)n_arg;
  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "managed-matrix: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }
  TRY(jet_context_create(&ctx, NULL));
  jet_platform_info pi;
  jet_policy pol;
  TRY(jet_context_platform(ctx, &pi));
  TRY(jet_context_policy(ctx, &pol));
  if (!pi.managed_memory || !pol.managed_memory_allowed) {
    fprintf(stderr, "managed-matrix: no managed memory here (device %d, policy %s)\n", pi.device,
            pol.name);
    jet_context_destroy(ctx);
    return 2;
  }
  TRY(jet_stream_create(ctx, NULL, &s));
  jet_module mod;
  TRY(jet_module_load(ctx, &jet_images_matrix_add, NULL, &mod));
  TRY(jet_module_kernel(mod, "mm_add", &add_k));
  jet_event e0, e1;
  TRY(jet_event_create(ctx, JET_EVENT_TIMING, &e0));
  TRY(jet_event_create(ctx, JET_EVENT_TIMING, &e1));
  printf("device %d: %s, SM %d.%d, integrated=%d, concurrentManagedAccess %d\n", pi.device,
         pi.name, pi.cc_major, pi.cc_minor, pi.integrated, pi.concurrent_managed_access);
  printf("policy %s%s: managed hand-over by %s, memory advice %s\n", pol.name,
         pol.forced ? " (forced)" : "",
         pol.managed_mode == JET_MANAGED_PREFETCH ? "prefetch" : "stream attach",
         pol.managed_advice ? "in effect" : "without effect (refused or no-op)");

  size_t elems = (size_t)nx * (size_t)nx, bytes = elems * sizeof(float);
  float *ta = malloc(bytes), *tb = malloc(bytes);
  if (!ta || !tb) return 1;
  unsigned seed = (unsigned)time(NULL);
  for (size_t i = 0; i < elems; i++) {
    seed = seed * 1664525u + 1013904223u;
    ta[i] = (float)(seed >> 9) * 0x1p-10f;
    tb[i] = (float)(i % 4093) - 2000.0f;
  }
  int runs = elems <= ((size_t)1 << 22) ? 21 : 9;
  double gpu_ms[N_VARIANTS], wall_ms[N_VARIANTS];
  int translated[N_VARIANTS] = {0}, failed = 0;
  double *tg = malloc(sizeof(double) * (size_t)runs), *tw = malloc(sizeof(double) * (size_t)runs);
  if (!tg || !tw) return 1;
  printf("%d x %d floats (%.1f MiB per matrix), %d runs per variant\n\n", nx, nx,
         (double)bytes / (1 << 20), runs);

  for (int v = 0; v < N_VARIANTS; v++) {
    mats m;
    mats_make(&m, bytes, v == ATTACH ? JET_MEM_ATTACH_HOST : 0);
    if (v == ADVISED) advise(&m, bytes);
    for (int r = -1; r < runs; r++) { /* run -1 warms up and is checked */
      /* Untimed: the CPU produces A and B. The device is idle, so this is
       * legal even without concurrent managed access. */
      memcpy(m.p[0], ta, bytes);
      memcpy(m.p[1], tb, bytes);
      if (r < 0) memset(m.p[2], 0xff, bytes);
      double t0 = now_ms();
      TRY(jet_event_record(e0, s));
      to_gpu(v, &m);
      void *args[] = {&m.p[0], &m.p[1], &m.p[2], &nx, &nx};
      jet_dim3 block = {32, 8, 1};
      jet_dim3 grid = {((unsigned)nx + 31) / 32, ((unsigned)nx + 7) / 8, 1};
      TRY(jet_launch(s, add_k, grid, block, 0, args));
      to_cpu(v, &m);
      TRY(jet_event_record(e1, s));
      TRY(jet_stream_synchronize(s));
      double sum = 0; /* the CPU reads all of C: where on-demand pages fault back */
      for (size_t i = 0; i < elems; i++) sum += m.p[2][i];
      double t1 = now_ms();
      sink = sum;
      if (r < 0) {
        for (size_t i = 0; i < elems; i++)
          if (m.p[2][i] != ta[i] + tb[i]) {
            fprintf(stderr, "%s: wrong C at (%zu, %zu): expected %g, got %g\n", variant_names[v],
                    i / (size_t)nx, i % (size_t)nx, (double)(ta[i] + tb[i]), (double)m.p[2][i]);
            failed = 1;
            break;
          }
      } else {
        float ms = 0;
        TRY(jet_event_elapsed_ms(e0, e1, &ms));
        tg[r] = ms;
        tw[r] = t1 - t0;
      }
    }
    gpu_ms[v] = median(tg, runs);
    wall_ms[v] = median(tw, runs);
    translated[v] = m.translated;
    mats_drop(&m);
  }

  printf("\n%-16s | %12s | %14s | %s\n", "variant", "GPU span ms", "to C on CPU ms", "notes");
  printf("-----------------+--------------+----------------+-------------------------------\n");
  for (int v = 0; v < N_VARIANTS; v++) {
    const char *note = "";
    if (v == ON_DEMAND) note = "page faults migrate on first touch";
    else if (translated[v]) note = "prefetch refused -> stream attach (make_available)";
    else if (v == PREFETCH) note = "cudaMemPrefetchAsync both ways";
    else if (v == ADVISED)
      note = advice_refused_reported ? "prefetch; location advice refused"
                                     : "read-mostly A, B; C preferred on the GPU";
    else if (v == ATTACH) note = "Tegra pattern: single-stream / host attach";
    printf("%-16s | %12.3f | %14.3f | %s\n", variant_names[v], gpu_ms[v], wall_ms[v], note);
  }

  free(tg);
  free(tw);
  free(ta);
  free(tb);
  jet_event_destroy(e0);
  jet_event_destroy(e1);
  jet_stream_destroy(s);
  jet_module_destroy(mod);
  TRY(jet_context_destroy(ctx));
  return failed;
}

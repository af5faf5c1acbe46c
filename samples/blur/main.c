/*
 * blur: the box blur of an 8192 x 4096 float image, naive on the CPU and with
 * jetrt on the GPU (jet_filter_box, GRAYF32), with the speedup and how close
 * the GPU gets to its own device-to-device copy bandwidth.
 *
 * Method
 *  - CPU: the naive loop, one thread: for each pixel, the k x k window summed
 *    (edges replicated) and divided by k*k. Timed with CLOCK_MONOTONIC, the
 *    median of --cpu-runs runs (default 1: it takes a while).
 *  - GPU: each call timed alone between two jetrt events on one stream, the
 *    median of --runs calls (default 50) after a warm-up; calls are queued in
 *    chunks of 10 behind a 256 MiB memset so that the events measure GPU time,
 *    not the host's submission.
 *  - GB/s = bytes read + bytes written / time: the blur reads and writes the
 *    image once (4WH + 4WH; the window's re-reads hit the caches), the
 *    reference copy is a device-to-device copy of the same image. "% of copy"
 *    is the blur's GB/s over the copy's: how much of the bandwidth the device
 *    really delivers the blur uses.
 *  - The GPU result is checked against the CPU's (within 1e-4 * (1 + |x|),
 *    jetrt/filter.h's promise).
 *
 * Usage: blur [--width W] [--height H] [--ksize K] [--runs N] [--cpu-runs N]
 * Exit: 0 ok, 1 failure or wrong result, 2 no CUDA device.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jetrt.h"

#define CHUNK 10

static int fail(const char *what, jet_status st) {
  fprintf(stderr, "blur: %s: %s (%s)\n", what, jet_status_name(st), jet_last_error_string());
  return 1;
}

#define TRY(call)                                      \
  do {                                                 \
    jet_status st_ = (call);                           \
    if (st_ != JET_STATUS_OK) return fail(#call, st_); \
  } while (0)

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void blur_cpu(const float *in, float *out, int w, int h, int k) {
  int r = k / 2;
  float inv = 1.0f / (float)(k * k);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.0f;
      for (int dy = -r; dy <= r; dy++) {
        int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
        for (int dx = -r; dx <= r; dx++) {
          int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
          s += in[(size_t)yy * w + xx];
        }
      }
      out[(size_t)y * w + x] = s * inv;
    }
}

/* One GPU operation to time. */
typedef struct op {
  int kind; /* 0 blur, 1 upload, 2 download, 3 device copy */
  jet_stream s;
  jet_image src, dst;
  void *host;
  int k;
} op;

static jet_status run_op(const op *o) {
  jet_image_plane_info a, b;
  jet_status st = jet_image_get_plane(o->src, 0, &a);
  if (st == JET_STATUS_OK) st = jet_image_get_plane(o->dst, 0, &b);
  if (st != JET_STATUS_OK) return st;
  switch (o->kind) {
    case 0: return jet_filter_box(o->s, o->src, o->dst, o->k, JET_BORDER_REPLICATE, NULL);
    case 1:
      return jet_memcpy_2d_async(o->s, a.ptr, a.pitch, o->host, a.row_bytes, a.row_bytes,
                                 (size_t)a.height);
    case 2:
      return jet_memcpy_2d_async(o->s, o->host, b.row_bytes, b.ptr, b.pitch, b.row_bytes,
                                 (size_t)b.height);
    default:
      return jet_memcpy_2d_async(o->s, b.ptr, b.pitch, a.ptr, a.pitch, a.row_bytes,
                                 (size_t)a.height);
  }
}

/* Median GPU milliseconds of @runs calls of @o. */
static int time_gpu(const op *o, jet_event *e0, jet_event *e1, void *scratch, size_t scratch_bytes,
                    int runs, double *ms) {
  double *t = malloc((size_t)runs * sizeof *t);
  if (!t) return 1;
  for (int i = 0; i < 3; i++) TRY(run_op(o)); /* warm-up: module load, clocks */
  for (int done = 0; done < runs;) {
    int n = runs - done < CHUNK ? runs - done : CHUNK;
    TRY(jet_memset_async(o->s, scratch, 0, scratch_bytes));
    for (int i = 0; i < n; i++) {
      TRY(jet_event_record(e0[i], o->s));
      TRY(run_op(o));
      TRY(jet_event_record(e1[i], o->s));
    }
    TRY(jet_stream_synchronize(o->s));
    for (int i = 0; i < n; i++) {
      float f = 0.0f;
      TRY(jet_event_elapsed_ms(e0[i], e1[i], &f));
      t[done + i] = f;
    }
    done += n;
  }
  *ms = median(t, runs);
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  int w = 8192, h = 4096, k = 3, runs = 50, cpu_runs = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    int v = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "--width"))
      w = v;
    else if (!strcmp(argv[i], "--height"))
      h = v;
    else if (!strcmp(argv[i], "--ksize"))
      k = v;
    else if (!strcmp(argv[i], "--runs"))
      runs = v;
    else if (!strcmp(argv[i], "--cpu-runs"))
      cpu_runs = v;
    else {
      fprintf(stderr,
              "usage: blur [--width W] [--height H] [--ksize K] [--runs N] [--cpu-runs N]\n");
      return 1;
    }
  }
  if (w < 1 || h < 1 || runs < 1 || cpu_runs < 1 || k < 3 || k > 31 || !(k & 1)) {
    fprintf(stderr, "blur: sizes and runs must be positive, ksize odd in 3..31\n");
    return 1;
  }
  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "blur: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }

  size_t n = (size_t)w * h, bytes = n * sizeof(float);
  float *in = malloc(bytes), *ref = malloc(bytes), *got = malloc(bytes);
  if (!in || !ref || !got) {
    fprintf(stderr, "blur: no host memory for %zu-byte images\n", bytes);
    return 1;
  }
  unsigned long long x = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)time(NULL);
  for (size_t i = 0; i < n; i++) {
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    in[i] = (float)((x * 2685821657736338717ULL) >> 40) / (float)(1u << 24);
  }

  double *ct = malloc((size_t)cpu_runs * sizeof *ct);
  if (!ct) return 1;
  for (int r = 0; r < cpu_runs; r++) {
    double t0 = now_s();
    blur_cpu(in, ref, w, h, k);
    ct[r] = (now_s() - t0) * 1e3;
  }
  double cpu_ms = median(ct, cpu_runs);

  jet_context ctx;
  TRY(jet_context_create(&ctx, NULL));
  jet_platform_info pi;
  jet_policy pol;
  TRY(jet_context_platform(ctx, &pi));
  TRY(jet_context_policy(ctx, &pol));
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream s;
  TRY(jet_stream_create(ctx, &sd, &s));
  jet_image src, dst;
  TRY(jet_image_create(ctx, JET_FORMAT_GRAYF32, w, h, &src));
  TRY(jet_image_create(ctx, JET_FORMAT_GRAYF32, w, h, &dst));
  jet_buffer pinned, scratch;
  jet_buffer_desc pd = {JET_MEMORY_HOST_PINNED, 0, bytes, 0, 0};
  size_t scratch_bytes = (size_t)256 << 20;
  jet_buffer_desc sdsc = {JET_MEMORY_DEVICE, 0, scratch_bytes, 0, 0};
  TRY(jet_buffer_create(ctx, &pd, &pinned));
  TRY(jet_buffer_create(ctx, &sdsc, &scratch));
  void *host, *scr;
  TRY(jet_buffer_host_ptr(pinned, &host));
  TRY(jet_buffer_device_ptr(scratch, &scr));
  memcpy(host, in, bytes);
  jet_event e0[CHUNK], e1[CHUNK];
  for (int i = 0; i < CHUNK; i++) {
    TRY(jet_event_create(ctx, JET_EVENT_TIMING, &e0[i]));
    TRY(jet_event_create(ctx, JET_EVENT_TIMING, &e1[i]));
  }

  op up = {1, s, src, dst, host, k}, blur = {0, s, src, dst, host, k};
  op down = {2, s, src, dst, host, k}, copy = {3, s, src, dst, host, k};
  double up_ms, blur_ms, down_ms, copy_ms;
  if (time_gpu(&up, e0, e1, scr, scratch_bytes, runs, &up_ms) ||
      time_gpu(&copy, e0, e1, scr, scratch_bytes, runs, &copy_ms) ||
      time_gpu(&blur, e0, e1, scr, scratch_bytes, runs, &blur_ms) ||
      time_gpu(&down, e0, e1, scr, scratch_bytes, runs, &down_ms))
    return 1;
  TRY(jet_stream_synchronize(s));
  memcpy(got, host, bytes);

  size_t bad = 0, first = 0;
  double maxerr = 0.0;
  for (size_t i = 0; i < n; i++) {
    double e = fabs((double)got[i] - (double)ref[i]);
    if (e > maxerr) maxerr = e;
    if (!(e <= 1e-4 * (1.0 + fabs((double)ref[i])))) {
      if (!bad) first = i;
      bad++;
    }
  }

  double rw = 2.0 * (double)bytes / 1e9; /* GB read + written */
  double blur_gbs = rw / (blur_ms * 1e-3), copy_gbs = rw / (copy_ms * 1e-3);
  double end_ms = up_ms + blur_ms + down_ms;
  printf("box blur %dx%d, %d x %d float image, edges replicated\n", k, k, w, h);
  printf("GPU: %s (SM %d.%d, policy %s); CPU: naive loop, one thread\n\n", pi.name, pi.cc_major,
         pi.cc_minor, pol.name);
  printf("%-34s %11s %10s %9s %10s\n", "step", "time (ms)", "speedup", "GB/s", "% of copy");
  printf("%-34s %11.3f %10s %9s %10s\n", "CPU naive blur", cpu_ms, "1.0x", "", "");
  printf("%-34s %11.3f %9.1fx %9.1f %9.1f%%\n", "GPU jet_filter_box", blur_ms, cpu_ms / blur_ms,
         blur_gbs, 100.0 * blur_gbs / copy_gbs);
  printf("%-34s %11.3f %10s %9.1f %10s\n", "GPU upload (pinned host -> device)", up_ms, "",
         (double)bytes / 1e9 / (up_ms * 1e-3), "");
  printf("%-34s %11.3f %10s %9.1f %10s\n", "GPU download (device -> pinned)", down_ms, "",
         (double)bytes / 1e9 / (down_ms * 1e-3), "");
  printf("%-34s %11.3f %9.1fx %9s %10s\n", "GPU upload + blur + download", end_ms, cpu_ms / end_ms,
         "", "");
  printf("%-34s %11.3f %10s %9.1f %9.1f%%\n", "reference: device-to-device copy", copy_ms, "",
         copy_gbs, 100.0);
  printf(
      "\nGPU medians of %d runs; CPU median of %d. GPU vs CPU: max |difference| %.3g, %zu of "
      "%zu pixels outside 1e-4 * (1 + |x|)",
      runs, cpu_runs, maxerr, bad, n);
  if (bad)
    printf(" (first at x %zu, y %zu: GPU %.7g, CPU %.7g)", first % (size_t)w, first / (size_t)w,
           (double)got[first], (double)ref[first]);
  printf("\n");

  for (int i = 0; i < CHUNK; i++) {
    jet_event_destroy(e0[i]);
    jet_event_destroy(e1[i]);
  }
  jet_buffer_destroy(pinned);
  jet_buffer_destroy(scratch);
  jet_image_destroy(src);
  jet_image_destroy(dst);
  jet_stream_destroy(s);
  jet_context_destroy(ctx);
  free(in);
  free(ref);
  free(got);
  free(ct);
  return bad ? 1 : 0;
}

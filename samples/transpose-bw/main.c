/*
 * transpose-bw: the matrix transpose of Professional CUDA C Programming,
 * chapter 4, as effective bandwidth against the device's peak.
 *
 * Kernels (transpose.cu, loaded through jetrt): copy by rows (upper bound)
 * and by columns (lower bound); naive transpose reading rows / writing
 * columns and the reverse; the same unrolled x4; diagonal block order; the
 * shared-memory tiled transpose without and with padding.
 *
 * Method
 *  - A is ny rows of nx floats (default 4096 x 4096); every kernel reads
 *    nx*ny floats and writes nx*ny floats: effective bandwidth = 2 * nx * ny
 *    * 4 bytes / time.
 *  - Peak = 2 (double data rate) * memory clock * bus width / 8, from
 *    cudaDevAttrMemoryClockRate and cudaDevAttrGlobalMemoryBusWidth; the
 *    measured device-to-device copy is printed beside it.
 *  - Each launch is timed alone between two jetrt events, the median of
 *    --runs launches (default 100) after warm-up, queued in chunks of 10
 *    behind a 256 MiB memset so that the events time the GPU, not the host.
 *  - Every result is checked against the CPU (the copies against A, the
 *    transposes against A^T), exactly.
 *  - Blocks: 16 x 16 threads (the book's default) for the element-per-thread
 *    kernels, 32 x 8 threads per 32 x 32 tile for the shared-memory ones;
 *    --block X Y changes the former.
 *
 * Usage: transpose-bw [--nx N] [--ny N] [--runs N] [--block X Y]
 * Exit: 0 ok, 1 failure or wrong result, 2 no CUDA device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "jetrt.h"
#include "transpose-bw_kernels.h" /* generated: jet_images_transpose */

#define CHUNK 10

static int fail(const char *what, jet_status st) {
  fprintf(stderr, "transpose-bw: %s: %s (%s)\n", what, jet_status_name(st),
          jet_last_error_string());
  return 1;
}

#define TRY(call)                                      \
  do {                                                 \
    jet_status st_ = (call);                           \
    if (st_ != JET_STATUS_OK) return fail(#call, st_); \
  } while (0)

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

typedef struct kern {
  const char *name, *label;
  int walks_b; /* the grid covers B (nx rows of ny) instead of A */
  int unroll;  /* elements per thread along x */
  int tiled;   /* 32 x 32 tiles of 32 x 8 threads */
  int transposes;
} kern;

static const kern kernels[] = {
    {"copy_row", "copy rows (upper bound)", 0, 1, 0, 0},
    {"copy_col", "copy columns (lower bound)", 0, 1, 0, 0},
    {"naive_row", "naive: load rows, store columns", 0, 1, 0, 1},
    {"naive_col", "naive: load columns, store rows", 1, 1, 0, 1},
    {"unroll4_row", "unrolled x4: load rows", 0, 4, 0, 1},
    {"unroll4_col", "unrolled x4: load columns", 1, 4, 0, 1},
    {"diagonal_row", "diagonal blocks: load rows", 0, 1, 0, 1},
    {"diagonal_col", "diagonal blocks: load columns", 1, 1, 0, 1},
    {"smem", "shared-memory tiles", 0, 1, 1, 1},
    {"smem_pad", "shared-memory tiles, padded", 0, 1, 1, 1},
};
#define NKERN (int)(sizeof kernels / sizeof kernels[0])

int main(int argc, char **argv) {
  int nx = 4096, ny = 4096, runs = 100;
  unsigned bx = 16, by = 16;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--nx") && i + 1 < argc)
      nx = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--ny") && i + 1 < argc)
      ny = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--block") && i + 2 < argc) {
      bx = (unsigned)atoi(argv[++i]);
      by = (unsigned)atoi(argv[++i]);
    } else {
      fprintf(stderr, "usage: transpose-bw [--nx N] [--ny N] [--runs N] [--block X Y]\n");
      return 1;
    }
  }
  if (nx < 1 || ny < 1 || runs < 1 || bx < 1 || by < 1 || bx * by > 1024) {
    fprintf(stderr,
            "transpose-bw: sizes and runs must be positive, a block at most 1024 threads\n");
    return 1;
  }
  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "transpose-bw: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }

  jet_context ctx;
  TRY(jet_context_create(&ctx, NULL));
  jet_platform_info pi;
  TRY(jet_context_platform(ctx, &pi));
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    clock_khz = bus_bits = 0;
  }
  double peak = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9; /* GB/s; 0 when unknown */

  jet_module mod;
  TRY(jet_module_load(ctx, &jet_images_transpose, NULL, &mod));
  jet_module_load_info mi;
  TRY(jet_module_info(mod, &mi));

  size_t n = (size_t)nx * ny, bytes = n * sizeof(float);
  float *a = malloc(bytes), *at = malloc(bytes), *got = malloc(bytes);
  if (!a || !at || !got) {
    fprintf(stderr, "transpose-bw: no host memory\n");
    return 1;
  }
  unsigned x = (unsigned)time(NULL) | 1u;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    a[i] = (float)(x >> 8);
  }
  for (int r = 0; r < ny; r++)
    for (int c = 0; c < nx; c++) at[(size_t)c * ny + r] = a[(size_t)r * nx + c];

  jet_buffer bin, bout, bscr;
  size_t scratch_bytes = (size_t)256 << 20;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, bytes, 0, 0},
                  ds = {JET_MEMORY_DEVICE, 0, scratch_bytes, 0, 0};
  TRY(jet_buffer_create(ctx, &d, &bin));
  TRY(jet_buffer_create(ctx, &d, &bout));
  TRY(jet_buffer_create(ctx, &ds, &bscr));
  void *din, *dout, *dscr;
  TRY(jet_buffer_device_ptr(bin, &din));
  TRY(jet_buffer_device_ptr(bout, &dout));
  TRY(jet_buffer_device_ptr(bscr, &dscr));
  TRY(jet_memcpy(ctx, din, a, bytes));

  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream s;
  TRY(jet_stream_create(ctx, &sd, &s));
  jet_event e0[CHUNK], e1[CHUNK];
  for (int i = 0; i < CHUNK; i++) {
    TRY(jet_event_create(ctx, JET_EVENT_TIMING, &e0[i]));
    TRY(jet_event_create(ctx, JET_EVENT_TIMING, &e1[i]));
  }
  float *t = malloc((size_t)runs * sizeof *t);
  if (!t) return 1;

  /* reference: the runtime's device-to-device copy, timed the same way */
  float copy_ms = 0.0f;
  for (int done = 0; done < runs;) {
    int c = runs - done < CHUNK ? runs - done : CHUNK;
    TRY(jet_memset_async(s, dscr, 0, scratch_bytes));
    for (int i = 0; i < c; i++) {
      TRY(jet_event_record(e0[i], s));
      TRY(jet_memcpy_async(s, dout, din, bytes));
      TRY(jet_event_record(e1[i], s));
    }
    TRY(jet_stream_synchronize(s));
    for (int i = 0; i < c; i++) TRY(jet_event_elapsed_ms(e0[i], e1[i], &t[done + i]));
    done += c;
  }
  qsort(t, (size_t)runs, sizeof *t, cmp_float);
  copy_ms = t[runs / 2];
  double gb = 2.0 * (double)bytes / 1e9;

  printf("transpose of a %d x %d float matrix (%.1f MiB), Professional CUDA C ch.4\n", ny, nx,
         (double)bytes / (1 << 20));
  printf("GPU: %s (SM %d.%d); kernels: %s; blocks %ux%u (tiles: 32x32 by 32x8)\n", pi.name,
         pi.cc_major, pi.cc_minor, mi.image, bx, by);
  if (peak > 0)
    printf("peak DRAM bandwidth: %.0f GB/s (memory clock %.0f MHz x %d-bit bus x 2)\n", peak,
           clock_khz / 1e3, bus_bits);
  else
    printf(
        "peak DRAM bandwidth: unknown (the device reports no memory clock or bus width); "
        "percentages are of the measured copy\n");
  printf("\n%-34s %10s %9s %9s %8s %7s\n", "kernel", "time (ms)", "GB/s", "% peak", "% copy",
         "check");
  double ref = peak > 0 ? peak : gb / (copy_ms * 1e-3);
  printf("%-34s %10.4f %9.1f %8.1f%% %7.1f%% %7s\n", "cudaMemcpy device to device", copy_ms,
         gb / (copy_ms * 1e-3), 100.0 * gb / (copy_ms * 1e-3) / ref, 100.0, "");

  int failed = 0;
  for (int kidx = 0; kidx < NKERN; kidx++) {
    const kern *k = &kernels[kidx];
    jet_kernel kf;
    TRY(jet_module_kernel(mod, k->name, &kf));
    int cols = k->walks_b ? ny : nx, rows = k->walks_b ? nx : ny;
    jet_dim3 block = {bx, by, 1}, grid;
    if (k->tiled) {
      block.x = 32;
      block.y = 8;
      grid.x = (unsigned)((nx + 31) / 32);
      grid.y = (unsigned)((ny + 31) / 32);
    } else {
      unsigned span = bx * (unsigned)k->unroll;
      grid.x = ((unsigned)cols + span - 1) / span;
      grid.y = ((unsigned)rows + by - 1) / by;
    }
    grid.z = 1;
    void *args[] = {&dout, &din, &nx, &ny};
    TRY(jet_memset(ctx, dout, 0xFF, bytes)); /* poison: NaN everywhere */
    for (int w = 0; w < 3; w++) TRY(jet_launch(s, kf, grid, block, 0, args));
    TRY(jet_stream_synchronize(s));
    TRY(jet_memcpy(ctx, got, dout, bytes));
    const float *want = k->transposes ? at : a;
    size_t bad = n;
    for (size_t i = 0; i < n; i++)
      if (memcmp(&got[i], &want[i], sizeof(float))) {
        bad = i;
        break;
      }
    for (int done = 0; done < runs;) {
      int c = runs - done < CHUNK ? runs - done : CHUNK;
      TRY(jet_memset_async(s, dscr, 0, scratch_bytes));
      for (int i = 0; i < c; i++) {
        TRY(jet_event_record(e0[i], s));
        TRY(jet_launch(s, kf, grid, block, 0, args));
        TRY(jet_event_record(e1[i], s));
      }
      TRY(jet_stream_synchronize(s));
      for (int i = 0; i < c; i++) TRY(jet_event_elapsed_ms(e0[i], e1[i], &t[done + i]));
      done += c;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_float);
    double ms = t[runs / 2], gbs = gb / (ms * 1e-3);
    printf("%-34s %10.4f %9.1f %8.1f%% %7.1f%% %7s\n", k->label, ms, gbs, 100.0 * gbs / ref,
           100.0 * gbs / (gb / (copy_ms * 1e-3)), bad == n ? "ok" : "WRONG");
    if (bad != n) {
      size_t ow = k->transposes ? (size_t)ny : (size_t)nx;
      fprintf(stderr, "transpose-bw: %s: element (row %zu, column %zu) is %g, expected %g\n",
              k->name, bad / ow, bad % ow, (double)got[bad], (double)want[bad]);
      failed = 1;
    }
  }
  printf("\nmedians of %d launches; GB/s = 2 x %.1f MiB read + written / time\n", runs,
         (double)bytes / (1 << 20));

  free(t);
  free(a);
  free(at);
  free(got);
  for (int i = 0; i < CHUNK; i++) {
    jet_event_destroy(e0[i]);
    jet_event_destroy(e1[i]);
  }
  jet_stream_destroy(s);
  jet_buffer_destroy(bin);
  jet_buffer_destroy(bout);
  jet_buffer_destroy(bscr);
  jet_module_destroy(mod);
  jet_context_destroy(ctx);
  return failed;
}

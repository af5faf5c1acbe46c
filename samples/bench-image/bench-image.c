/*
 * jet-bench-image: jetrt's image operations against the memory-bandwidth
 * limit and against NPP (issue 4).
 *
 * Method
 *  - Reference: device-to-device cudaMemcpyAsync of a 512 MiB buffer; GB/s =
 *    (bytes read + bytes written) / time = 2 * 512 MiB / time.
 *  - Every operation runs at 3840x2160 and 1920x1080 on buffers rotated
 *    across at least 128 MiB (N sets of source + destination, the next set
 *    each call, jetrt and NPP calls sharing one counter), so the 50 MB L2
 *    never holds the input of a call.
 *  - Each call is timed alone with two CUDA events around it on the stream;
 *    the result is the median of --runs calls (default 50) after --warmup
 *    calls (default 5). Calls are queued in chunks of 10 behind a 512 MiB
 *    cudaMemsetAsync, so the host has queued the whole chunk before the GPU
 *    reaches it and the events measure GPU time, not submission gaps; a chunk
 *    the host did not finish queueing in time is counted and flagged ('!').
 *    jetrt and NPP chunks alternate, on two streams, never overlapping.
 *  - GB/s of an operation = its minimal bytes read + written / median time,
 *    and % of copy = that over the reference. Bytes per operation (W x H the
 *    source size):
 *      colour           source planes read once + destination planes written
 *                       once (NV12 1.5WH, YUYV 2WH, RGB8 3WH, RGBA8 4WH,
 *                       GRAY8 WH): NV12->RGB8 = 4.5WH, RGBA8->NV12 = 5.5WH
 *      resize           destination written once + every source row the
 *                       interpolation samples, read once (whole rows: DRAM
 *                       sectors are 32 B, wider than the column step). Rows
 *                       follow kernels/image/color_coeffs.h: at 1/2 scale
 *                       bilinear and area sample every row (4WH + WH =
 *                       5WH for RGBA8), nearest every second row (3WH).
 *      filters          4WH read + 4WH written (halo re-reads not counted)
 *      remap            4WH source + 8WH map (float x, y) + 4WH written
 *      transpose, flip, rotate   source read + destination written (8WH)
 *      reduce f32       4WH read (jet_reduce gives sum, mean, min and max in
 *                       one call; compared with nppiSum and nppiMinMax)
 *      histogram        WH read (+1 KiB of bins)
 *      dnn preprocess   source rows sampled (luma rows with non-zero
 *                       bilinear weight, the chroma rows those use) + the
 *                       whole RGBF32P destination (12 B per pixel, padding
 *                       included); 4K -> 1280x1280 and 1080p -> 640x640,
 *                       letterboxed.
 *  - Targets (issue 4, on the H100): every operation at 3840x2160 >= 80% of
 *    copy; NPP time / jetrt time >= 3 for box and Gaussian 5x5 RGBA8, >= 1.5
 *    for NV12->RGB8 and transpose f32, >= 1.3 for bilinear resize 4K->1080p,
 *    >= 1.0 for sum f32 (NPP ratios checked at both sizes).
 *
 * Usage: jet-bench-image [--json PATH] [--quick] [--runs N] [--warmup N]
 *                        [--only SUBSTR] [--size 4k|1080p|all] [--no-npp]
 * The JSON goes to PATH, by default jet-bench-image.json beside the
 * executable. The last line printed is the summary. Exit: 0 when every
 * operation ran (targets missed or not), 1 when something failed, 2 without
 * a GPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "bench-image.h"

#ifndef JET_BENCH_HAVE_NPP
#define JET_BENCH_HAVE_NPP 0
#endif
#ifndef JET_BENCH_HAVE_COLOR
#define JET_BENCH_HAVE_COLOR 0
#endif
#ifndef JET_BENCH_HAVE_RESIZE
#define JET_BENCH_HAVE_RESIZE 0
#endif
#ifndef JET_BENCH_HAVE_DNN
#define JET_BENCH_HAVE_DNN 0
#endif
#ifndef JET_BENCH_HAVE_FILTER
#define JET_BENCH_HAVE_FILTER 0
#endif
#ifndef JET_BENCH_HAVE_REMAP
#define JET_BENCH_HAVE_REMAP 0
#endif
#ifndef JET_BENCH_HAVE_GEOMETRY
#define JET_BENCH_HAVE_GEOMETRY 0
#endif
#ifndef JET_BENCH_HAVE_REDUCE
#define JET_BENCH_HAVE_REDUCE 0
#endif

#define COPY_BYTES ((size_t)512 << 20)
#define PRIMER_BYTES COPY_BYTES
#define ROTATION_BYTES ((size_t)128 << 20)
#define MAX_SETS 64
#define CHUNK 10
#define PCT_TARGET 80.0

enum group { G_COPY, G_COLOR, G_RESIZE, G_DNN, G_FILTER, G_REMAP, G_GEOMETRY, G_REDUCE };
static const char *const GROUP_NAME[] = {"memory", "color", "resize", "dnn",
                                         "filter", "remap", "geometry", "reduce"};
enum dst_mode { DM_SAME, DM_HALF, DM_SWAP, DM_DNN, DM_NONE };
enum bytes_rule { BR_SRC_DST, BR_NEAREST, BR_LINEAR, BR_AREA, BR_REMAP, BR_SRC, BR_HIST, BR_DNN };

typedef struct op_def {
  const char *key;   /* also the name in the group files and the JSON */
  const char *label; /* the table's name */
  int group;
  jet_format src, dst; /* dst JET_FORMAT_NONE_ for reductions */
  int dst_mode, rule;
  double npp_target; /* NPP time / jetrt time wanted; 0: none */
  const char *bytes_doc;
} op_def;

#define F(x) JET_FORMAT_##x
static const op_def OPS[] = {
    {"copy_rgba8", "copy RGBA8 (jet_memcpy_2d)", G_COPY, F(RGBA8), F(RGBA8), DM_SAME, BR_SRC_DST, 0,
     "4WH read + 4WH written"},
    {"nv12_rgb8", "NV12->RGB8 601L", G_COLOR, F(NV12), F(RGB8), DM_SAME, BR_SRC_DST, 1.5,
     "1.5WH read + 3WH written"},
    {"nv12_rgba8", "NV12->RGBA8 601L", G_COLOR, F(NV12), F(RGBA8), DM_SAME, BR_SRC_DST, 0,
     "1.5WH read + 4WH written"},
    {"yuyv_rgba8", "YUYV->RGBA8 601L", G_COLOR, F(YUYV), F(RGBA8), DM_SAME, BR_SRC_DST, 0,
     "2WH read + 4WH written"},
    {"rgba8_nv12", "RGBA8->NV12 601L", G_COLOR, F(RGBA8), F(NV12), DM_SAME, BR_SRC_DST, 0,
     "4WH read + 1.5WH written"},
    {"rgba8_gray8", "RGBA8->GRAY8", G_COLOR, F(RGBA8), F(GRAY8), DM_SAME, BR_SRC_DST, 0,
     "4WH read + WH written"},
    {"resize_linear", "resize 1/2 bilinear RGBA8", G_RESIZE, F(RGBA8), F(RGBA8), DM_HALF,
     BR_LINEAR, 1.3, "sampled src rows read + dst written (4WH + WH)"},
    {"resize_nearest", "resize 1/2 nearest RGBA8", G_RESIZE, F(RGBA8), F(RGBA8), DM_HALF,
     BR_NEAREST, 0, "sampled src rows read + dst written (2WH + WH)"},
    {"resize_area", "resize 1/2 area RGBA8", G_RESIZE, F(RGBA8), F(RGBA8), DM_HALF, BR_AREA, 0,
     "sampled src rows read + dst written (4WH + WH)"},
    {"box5", "box 5x5 RGBA8 replicate", G_FILTER, F(RGBA8), F(RGBA8), DM_SAME, BR_SRC_DST, 3.0,
     "4WH read + 4WH written"},
    {"gauss5", "Gaussian 5x5 RGBA8 replicate", G_FILTER, F(RGBA8), F(RGBA8), DM_SAME, BR_SRC_DST,
     3.0, "4WH read + 4WH written"},
    {"box31", "box 31x31 RGBA8 replicate", G_FILTER, F(RGBA8), F(RGBA8), DM_SAME, BR_SRC_DST, 0,
     "4WH read + 4WH written"},
    {"remap_linear", "remap bilinear RGBA8", G_REMAP, F(RGBA8), F(RGBA8), DM_SAME, BR_REMAP, 0,
     "4WH src + 8WH map read + 4WH written"},
    {"transpose_f32", "transpose f32", G_GEOMETRY, F(GRAYF32), F(GRAYF32), DM_SWAP, BR_SRC_DST,
     1.5, "4WH read + 4WH written"},
    {"flip_h_rgba8", "flip horizontal RGBA8", G_GEOMETRY, F(RGBA8), F(RGBA8), DM_SAME, BR_SRC_DST,
     0, "4WH read + 4WH written"},
    {"rotate90_rgba8", "rotate 90 RGBA8", G_GEOMETRY, F(RGBA8), F(RGBA8), DM_SWAP, BR_SRC_DST, 0,
     "4WH read + 4WH written"},
    {"reduce_f32", "reduce f32 | NPP Sum", G_REDUCE, F(GRAYF32), JET_FORMAT_NONE_, DM_NONE,
     BR_SRC, 1.0, "4WH read"},
    {"reduce_f32_minmax", "reduce f32 | NPP MinMax", G_REDUCE, F(GRAYF32), JET_FORMAT_NONE_,
     DM_NONE, BR_SRC, 0, "4WH read"},
    {"hist_gray8", "histogram GRAY8", G_REDUCE, F(GRAY8), JET_FORMAT_NONE_, DM_NONE, BR_HIST, 0,
     "WH read + 1 KiB bins"},
    {"dnn_nv12_letterbox", "DNN NV12->RGBF32P letterbox", G_DNN, F(NV12), F(RGBF32P), DM_DNN,
     BR_DNN, 0, "sampled src rows + 12 B per dst pixel"},
};
#undef F
#define NOPS (sizeof OPS / sizeof OPS[0])

static const struct {
  int w, h;
  const char *name;
} SIZES[] = {{3840, 2160, "3840x2160"}, {1920, 1080, "1920x1080"}};
#define NSIZES 2

enum state { ST_OK, ST_NOT_BUILT, ST_ERROR, ST_NONE };

typedef struct inst {
  const op_def *op;
  int size_index, w, h, dw, dh;
  int nsets, nsets_used;
  bench_io io[MAX_SETS];
  jet_image dst_keep[MAX_SETS]; /* what to destroy (io.dst is NULL for reductions) */
  double bytes;
  int jet_state;
  char jet_err[300];
  double jet_ms, jet_min_ms;
  int npp_state; /* ST_NONE: NPP has no such operation or is not built in */
  char npp_err[160];
  double npp_ms, npp_min_ms;
  int host_bound;        /* chunks the host had not finished queueing in time */
  const char *target;    /* the target text of the table */
  int targets, met;      /* targets of this row, and met */
  double gbs, pct, ratio;
} inst;

static struct {
  jet_context ctx;
  jet_stream js;   /* jetrt's per-thread default stream: cudaStreamPerThread */
  cudaStream_t jcs;
  cudaStream_t ncs; /* NPP's stream */
  void *copy_a, *copy_b;
  void *work; /* the reductions' work memory, zero-filled */
  size_t work_bytes;
  cudaEvent_t ev[CHUNK + 1], primed;
  int runs, warmup, npp;
  unsigned long long rot;
  double copy_ms, copy_gbs;
  char npp_version[64];
  unsigned char *pool; /* random bytes */
  float *fpool;        /* random floats in [0, 1) */
  size_t pool_bytes;
} B;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n, double *min) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  *min = v[0];
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int cuda_fail(const char *what, cudaError_t e, char *err, size_t n) {
  snprintf(err, n, "%s: %s", what, cudaGetErrorName(e));
  return -1;
}

static int jet_fail(const char *what, jet_status s, char *err, size_t n) {
  snprintf(err, n, "%s: %s: %s", what, jet_status_name(s), jet_last_error_string());
  return -1;
}

/* ------------------------------------------------------------------ operations */

static bench_jet_fn find_in(const bench_jet_entry *t, const char *key) {
  for (; t->key; t++)
    if (strcmp(t->key, key) == 0) return t->fn;
  return NULL;
}

static jet_status copy_rgba8(jet_stream s, const bench_io *io) {
  jet_image_plane_info a, b;
  jet_status st = jet_image_get_plane(io->src, 0, &a);
  if (st == JET_STATUS_OK) st = jet_image_get_plane(io->dst, 0, &b);
  if (st != JET_STATUS_OK) return st;
  return jet_memcpy_2d_async(s, b.ptr, b.pitch, a.ptr, a.pitch, a.row_bytes, (size_t)a.height);
}

/* The jetrt function of @op, NULL when its group is not built in. */
static bench_jet_fn jet_fn(const op_def *op) {
  switch (op->group) {
    case G_COPY: return copy_rgba8;
#if JET_BENCH_HAVE_COLOR
    case G_COLOR: return find_in(bench_ops_color, op->key);
#endif
#if JET_BENCH_HAVE_RESIZE
    case G_RESIZE: return find_in(bench_ops_resize, op->key);
#endif
#if JET_BENCH_HAVE_DNN
    case G_DNN: return find_in(bench_ops_dnn, op->key);
#endif
#if JET_BENCH_HAVE_FILTER
    case G_FILTER: return find_in(bench_ops_filter, op->key);
#endif
#if JET_BENCH_HAVE_REMAP
    case G_REMAP: return find_in(bench_ops_remap, op->key);
#endif
#if JET_BENCH_HAVE_GEOMETRY
    case G_GEOMETRY: return find_in(bench_ops_geometry, op->key);
#endif
#if JET_BENCH_HAVE_REDUCE
    case G_REDUCE: return find_in(bench_ops_reduce, op->key);
#endif
    default: (void)find_in; return NULL;
  }
}

static const bench_npp_entry *npp_entry(const op_def *op) {
#if JET_BENCH_HAVE_NPP
  if (B.npp) return bench_npp_find(op->key);
#else
  (void)op;
#endif
  return NULL;
}

/* ------------------------------------------------------------------ bytes */

/* Source rows sampled when @sn rows become @dn (color_coeffs.h rules). */
static long rows_sampled(int rule, int dn, int sn, unsigned char *used) {
  memset(used, 0, (size_t)sn);
  for (int d = 0; d < dn; d++) {
    if (rule == BR_NEAREST) {
      used[((2LL * d + 1) * sn) / (2LL * dn)] = 1;
    } else if (rule == BR_AREA) {
      long long lo = (long long)d * sn, hi = (long long)(d + 1) * sn;
      for (long long i = lo / dn; i * dn < hi && i < sn; i++) used[i] = 1;
    } else { /* bilinear: both taps, unless a weight is zero */
      long long n = (2LL * d + 1) * sn - dn, den = 2LL * dn, x0 = 0, ax = 0;
      if (n > 0) {
        x0 = n / den;
        ax = n % den;
      }
      if (x0 >= sn - 1) {
        x0 = sn - 1;
        ax = 0;
      }
      used[x0] = 1;
      if (ax) used[x0 + 1] = 1;
    }
  }
  long c = 0;
  for (int i = 0; i < sn; i++) c += used[i];
  return c;
}

/* Letterbox content rectangle (tests/ref/ref_image.h). */
static void letterbox(int sw, int sh, int dw, int dh, int *cw, int *ch) {
  if ((long long)dw * sh <= (long long)dh * sw) {
    *cw = dw;
    long long v = ((long long)sh * dw + sw / 2) / sw;
    *ch = v < 1 ? 1 : (int)v;
  } else {
    *ch = dh;
    long long v = ((long long)sw * dh + sh / 2) / sh;
    *cw = v < 1 ? 1 : (int)v;
  }
}

static double image_bytes(jet_format f, int w, int h) {
  jet_format_desc d;
  if (jet_format_info(f, &d) != JET_STATUS_OK) return 0;
  double b = (double)w * h * d.bytes_per_pixel[0];
  for (int p = 1; p < d.planes; p++) {
    int pw = (p && d.sub_x) ? w >> d.sub_x : w, ph = (p && d.sub_y) ? h >> d.sub_y : h;
    b += (double)pw * ph * d.bytes_per_pixel[p];
  }
  return b;
}

static double op_bytes(const inst *in) {
  const op_def *op = in->op;
  double dst = op->dst ? image_bytes(op->dst, in->dw, in->dh) : 0;
  unsigned char *used = malloc((size_t)in->h);
  double b = 0;
  if (!used) return 0;
  switch (op->rule) {
    case BR_SRC_DST: b = image_bytes(op->src, in->w, in->h) + dst; break;
    case BR_NEAREST:
    case BR_LINEAR:
    case BR_AREA:
      b = 4.0 * in->w * rows_sampled(op->rule, in->dh, in->h, used) + dst;
      break;
    case BR_REMAP: b = 16.0 * in->w * in->h; break;
    case BR_SRC: b = image_bytes(op->src, in->w, in->h); break;
    case BR_HIST: b = (double)in->w * in->h + 1024; break;
    case BR_DNN: {
      int cw, ch;
      letterbox(in->w, in->h, in->dw, in->dh, &cw, &ch);
      long luma = rows_sampled(BR_LINEAR, ch, in->h, used), chroma = 0;
      for (int r = 0; r < in->h; r += 2) chroma += used[r] | used[r + 1];
      b = (double)in->w * (luma + chroma) + dst;
      break;
    }
  }
  free(used);
  return b;
}

/* ------------------------------------------------------------------ buffers */

static unsigned xorshift(unsigned *s) {
  unsigned x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

static int make_pools(void) {
  B.pool_bytes = (size_t)3840 * 2160 * 4;
  B.pool = malloc(B.pool_bytes);
  B.fpool = malloc(B.pool_bytes);
  if (!B.pool || !B.fpool) return -1;
  unsigned s = 0x9e3779b9u;
  for (size_t i = 0; i < B.pool_bytes / 4; i++) {
    unsigned r = xorshift(&s);
    memcpy(B.pool + 4 * i, &r, 4);
    B.fpool[i] = (float)(r >> 8) / 16777216.0f;
  }
  return 0;
}

/* Fill set 0's source from the pools, copy it to the other sets. */
static int fill_sources(inst *in, char *err, size_t n) {
  jet_format_desc d;
  jet_status st = jet_format_info(in->op->src, &d);
  if (st != JET_STATUS_OK) return jet_fail("jet_format_info", st, err, n);
  jet_image_plane host[JET_IMAGE_MAX_PLANES];
  const unsigned char *base = d.elem == JET_ELEM_F32 ? (const unsigned char *)B.fpool : B.pool;
  size_t off = 0;
  for (int p = 0; p < d.planes; p++) {
    jet_image_plane_info pi;
    st = jet_image_get_plane(in->io[0].src, p, &pi);
    if (st != JET_STATUS_OK) return jet_fail("jet_image_get_plane", st, err, n);
    host[p].ptr = (void *)(base + off);
    host[p].pitch = pi.row_bytes;
    off += pi.row_bytes * (size_t)pi.height;
  }
  if (off > B.pool_bytes) {
    snprintf(err, n, "source larger than the random pool");
    return -1;
  }
  st = jet_image_upload(in->io[0].src, host, d.planes);
  if (st != JET_STATUS_OK) return jet_fail("jet_image_upload", st, err, n);
  for (int s = 1; s < in->nsets; s++)
    for (int p = 0; p < d.planes; p++) {
      jet_image_plane_info a, b;
      if (jet_image_get_plane(in->io[0].src, p, &a) != JET_STATUS_OK ||
          jet_image_get_plane(in->io[s].src, p, &b) != JET_STATUS_OK)
        return jet_fail("jet_image_get_plane", jet_last_error()->status, err, n);
      st = jet_memcpy_2d(B.ctx, b.ptr, b.pitch, a.ptr, a.pitch, a.row_bytes, (size_t)a.height);
      if (st != JET_STATUS_OK) return jet_fail("jet_memcpy_2d", st, err, n);
    }
  return 0;
}

/* An identity-ish map: a sub-pixel shift plus a gentle wave of a few pixels. */
static int fill_map(inst *in, char *err, size_t n) {
  size_t pitch = in->io[0].aux_pitch;
  float *m = malloc(pitch * (size_t)in->h);
  if (!m) {
    snprintf(err, n, "out of host memory");
    return -1;
  }
  for (int y = 0; y < in->h; y++) {
    float *row = (float *)((unsigned char *)m + pitch * (size_t)y);
    for (int x = 0; x < in->w; x++) {
      row[2 * x] = (float)x + 0.37f + 2.0f * sinf((float)y * (1.0f / 211.0f));
      row[2 * x + 1] = (float)y + 0.21f + 2.0f * cosf((float)x * (1.0f / 307.0f));
    }
  }
  int rc = 0;
  for (int s = 0; s < in->nsets && !rc; s++) {
    jet_status st = jet_memcpy(B.ctx, in->io[s].aux, m, pitch * (size_t)in->h);
    if (st != JET_STATUS_OK) rc = jet_fail("jet_memcpy (map)", st, err, n);
  }
  free(m);
  return rc;
}

static size_t image_alloc_bytes(jet_image im) {
  int count = 0;
  size_t b = 0;
  if (!im || jet_image_get_plane_count(im, &count) != JET_STATUS_OK) return 0;
  for (int p = 0; p < count; p++) {
    jet_image_plane_info pi;
    if (jet_image_get_plane(im, p, &pi) == JET_STATUS_OK) b += pi.pitch * (size_t)pi.height;
  }
  return b;
}

static void free_sets(inst *in) {
  for (int s = 0; s < in->nsets; s++) {
    jet_image_destroy(in->io[s].src);
    jet_image_destroy(in->dst_keep[s]);
    if (in->io[s].aux) cudaFree(in->io[s].aux);
    memset(&in->io[s], 0, sizeof in->io[s]);
    in->dst_keep[s] = NULL;
  }
  in->nsets = 0;
}

static int alloc_set(inst *in, int s, char *err, size_t n) {
  bench_io *io = &in->io[s];
  io->width = in->w;
  io->height = in->h;
  io->dst_width = in->dw;
  io->dst_height = in->dh;
  jet_status st = jet_image_create(B.ctx, in->op->src, in->w, in->h, &io->src);
  if (st != JET_STATUS_OK) return jet_fail("jet_image_create (source)", st, err, n);
  if (in->op->dst) {
    st = jet_image_create(B.ctx, in->op->dst, in->dw, in->dh, &in->dst_keep[s]);
    if (st != JET_STATUS_OK) return jet_fail("jet_image_create (destination)", st, err, n);
    io->dst = in->dst_keep[s];
  }
  io->work = B.work;
  io->work_bytes = B.work_bytes;
  size_t aux = BENCH_AUX_RESULT_BYTES;
  if (in->op->rule == BR_REMAP) {
    io->aux_pitch = ((size_t)in->w * 8 + 255) & ~(size_t)255;
    aux = io->aux_pitch * (size_t)in->h;
  }
  cudaError_t e = cudaMalloc(&io->aux, aux);
  if (e != cudaSuccess) {
    io->aux = NULL;
    return cuda_fail("cudaMalloc (aux)", e, err, n);
  }
  if (aux == BENCH_AUX_RESULT_BYTES) cudaMemset(io->aux, 0, aux);
  return 0;
}

/* Sets until they span ROTATION_BYTES (at least 2). */
static int alloc_sets(inst *in, char *err, size_t n) {
  in->nsets = 0;
  size_t total = 0;
  while (in->nsets < MAX_SETS && (in->nsets < 2 || total < ROTATION_BYTES)) {
    int s = in->nsets++;
    if (alloc_set(in, s, err, n)) return -1;
    total += image_alloc_bytes(in->io[s].src) + image_alloc_bytes(in->io[s].dst);
    if (in->io[s].aux_pitch) total += in->io[s].aux_pitch * (size_t)in->h;
  }
  in->nsets_used = in->nsets;
  if (fill_sources(in, err, n)) return -1;
  if (in->op->rule == BR_REMAP && fill_map(in, err, n)) return -1;
  return 0;
}

/* ------------------------------------------------------------------ timing */

enum { IMPL_JET, IMPL_NPP };

static int call(inst *in, int impl, bench_jet_fn jf, const bench_npp_entry *ne, char *err,
                size_t n) {
  const bench_io *io = &in->io[B.rot++ % (unsigned long long)in->nsets];
  if (impl == IMPL_JET) {
    jet_status st = jf(B.js, io);
    if (st != JET_STATUS_OK) return jet_fail(in->op->key, st, err, n);
  } else {
    int r = ne->fn(io);
    if (r < 0) {
      snprintf(err, n, "NPP status %d", r);
      return -1;
    }
  }
  return 0;
}

/* @count timed calls in chunks into @t (ms). */
static int timed(inst *in, int impl, bench_jet_fn jf, const bench_npp_entry *ne, double *t,
                 int count, char *err, size_t n) {
  cudaStream_t cs = impl == IMPL_JET ? B.jcs : B.ncs;
  cudaError_t e;
  for (int done = 0; done < count;) {
    int c = count - done < CHUNK ? count - done : CHUNK;
    if ((e = cudaMemsetAsync(B.copy_b, done & 0xff, PRIMER_BYTES, cs)) != cudaSuccess ||
        (e = cudaEventRecord(B.primed, cs)) != cudaSuccess ||
        (e = cudaEventRecord(B.ev[0], cs)) != cudaSuccess)
      return cuda_fail("primer", e, err, n);
    for (int i = 0; i < c; i++) {
      if (call(in, impl, jf, ne, err, n)) {
        cudaStreamSynchronize(cs);
        return -1;
      }
      if ((e = cudaEventRecord(B.ev[i + 1], cs)) != cudaSuccess)
        return cuda_fail("cudaEventRecord", e, err, n);
    }
    if (cudaEventQuery(B.primed) == cudaSuccess) in->host_bound++;
    (void)cudaGetLastError(); /* cudaErrorNotReady from the query is an answer */
    if ((e = cudaStreamSynchronize(cs)) != cudaSuccess)
      return cuda_fail("cudaStreamSynchronize", e, err, n);
    for (int i = 0; i < c; i++) {
      float ms = 0;
      if ((e = cudaEventElapsedTime(&ms, B.ev[i], B.ev[i + 1])) != cudaSuccess)
        return cuda_fail("cudaEventElapsedTime", e, err, n);
      t[done + i] = ms;
    }
    done += c;
  }
  return 0;
}

static int warm(inst *in, int impl, bench_jet_fn jf, const bench_npp_entry *ne, char *err,
                size_t n) {
  for (int i = 0; i < B.warmup; i++)
    if (call(in, impl, jf, ne, err, n)) return -1;
  cudaError_t e = cudaStreamSynchronize(impl == IMPL_JET ? B.jcs : B.ncs);
  return e == cudaSuccess ? 0 : cuda_fail("warm-up", e, err, n);
}

static void measure(inst *in) {
  bench_jet_fn jf = jet_fn(in->op);
  const bench_npp_entry *ne = npp_entry(in->op);
  in->jet_state = jf ? ST_OK : ST_NOT_BUILT;
  in->npp_state = ne ? ST_OK : ST_NONE;
  if (!jf)
    snprintf(in->jet_err, sizeof in->jet_err,
             "not built: ops_%s.c did not compile against the jetrt headers at configure time",
             GROUP_NAME[in->op->group]);
  if (!jf && !ne) return;
  if (alloc_sets(in, in->jet_err, sizeof in->jet_err)) {
    in->jet_state = ST_ERROR;
    in->npp_state = ne ? ST_ERROR : ST_NONE;
    snprintf(in->npp_err, sizeof in->npp_err, "setup failed");
    free_sets(in);
    return;
  }
  in->bytes = op_bytes(in);
  if (ne && ne->prepare && ne->prepare(&in->io[0])) {
    in->npp_state = ST_ERROR;
    snprintf(in->npp_err, sizeof in->npp_err, "NPP scratch buffer setup failed");
  }
  double *tj = calloc((size_t)B.runs, sizeof *tj), *tn = calloc((size_t)B.runs, sizeof *tn);
  if (!tj || !tn) {
    snprintf(in->jet_err, sizeof in->jet_err, "out of host memory");
    in->jet_state = ST_ERROR;
  }
  if (in->jet_state == ST_OK && warm(in, IMPL_JET, jf, ne, in->jet_err, sizeof in->jet_err))
    in->jet_state = ST_ERROR;
  if (in->npp_state == ST_OK && warm(in, IMPL_NPP, jf, ne, in->npp_err, sizeof in->npp_err))
    in->npp_state = ST_ERROR;
  /* chunks of jetrt and NPP alternate, so drift hits both alike */
  for (int done = 0; done < B.runs && tj && tn; done += CHUNK) {
    int c = B.runs - done < CHUNK ? B.runs - done : CHUNK;
    if (in->jet_state == ST_OK &&
        timed(in, IMPL_JET, jf, ne, tj + done, c, in->jet_err, sizeof in->jet_err))
      in->jet_state = ST_ERROR;
    if (in->npp_state == ST_OK &&
        timed(in, IMPL_NPP, jf, ne, tn + done, c, in->npp_err, sizeof in->npp_err))
      in->npp_state = ST_ERROR;
  }
  if (in->jet_state == ST_OK) in->jet_ms = median(tj, B.runs, &in->jet_min_ms);
  if (in->npp_state == ST_OK) in->npp_ms = median(tn, B.runs, &in->npp_min_ms);
  free(tj);
  free(tn);
#if JET_BENCH_HAVE_NPP
  if (ne && ne->prepare) bench_npp_release();
#endif
  cudaDeviceSynchronize();
  (void)cudaGetLastError();
  free_sets(in);
}

static int measure_copy(char *err, size_t n) {
  cudaError_t e;
  int runs = B.runs, c = 0;
  double *t = calloc((size_t)runs, sizeof *t);
  if (!t) return -1;
  for (int i = -B.warmup; i < runs; i++) {
    if ((e = cudaEventRecord(B.ev[0], B.jcs)) != cudaSuccess ||
        (e = cudaMemcpyAsync(B.copy_b, B.copy_a, COPY_BYTES, cudaMemcpyDeviceToDevice, B.jcs)) !=
            cudaSuccess ||
        (e = cudaEventRecord(B.ev[1], B.jcs)) != cudaSuccess ||
        (e = cudaEventSynchronize(B.ev[1])) != cudaSuccess) {
      free(t);
      return cuda_fail("copy", e, err, n);
    }
    float ms = 0;
    cudaEventElapsedTime(&ms, B.ev[0], B.ev[1]);
    if (i >= 0) t[c++] = ms;
  }
  double mn;
  B.copy_ms = median(t, c, &mn);
  B.copy_gbs = 2.0 * (double)COPY_BYTES / (B.copy_ms * 1e6);
  free(t);
  return 0;
}

/* ------------------------------------------------------------------ output */

static void evaluate(inst *in) {
  in->targets = in->met = 0;
  in->target = "-";
  if (in->jet_state != ST_OK) {
    in->gbs = in->pct = in->ratio = 0;
  } else {
    in->gbs = in->bytes / (in->jet_ms * 1e6);
    in->pct = 100.0 * in->gbs / B.copy_gbs;
    in->ratio = in->npp_state == ST_OK ? in->npp_ms / in->jet_ms : 0;
  }
  if (in->op->group == G_COPY) return;
  int pct_t = in->size_index == 0, npp_t = in->op->npp_target > 0;
  static char buf[NOPS * NSIZES][40];
  char *tb = buf[(in->op - OPS) * NSIZES + in->size_index];
  tb[0] = 0;
  if (pct_t) {
    in->targets++;
    in->met += in->jet_state == ST_OK && in->pct >= PCT_TARGET;
    snprintf(tb, 40, ">=%.0f%%", PCT_TARGET);
  }
  if (npp_t) {
    in->targets++;
    in->met += in->jet_state == ST_OK && in->npp_state == ST_OK && in->ratio >= in->op->npp_target;
    size_t l = strlen(tb);
    snprintf(tb + l, 40 - l, "%sNPP>=%.1fx", l ? "," : "", in->op->npp_target);
  }
  if (in->targets) in->target = tb;
}

static void print_row(const inst *in) {
  char jet[16], gbs[16], pct[16], npp[24], ratio[16], met[8];
  if (in->jet_state == ST_OK) {
    snprintf(jet, sizeof jet, "%.4f", in->jet_ms);
    snprintf(gbs, sizeof gbs, "%.0f", in->gbs);
    snprintf(pct, sizeof pct, "%.1f%s", in->pct, in->host_bound ? "!" : "");
  } else {
    snprintf(jet, sizeof jet, "%s", in->jet_state == ST_NOT_BUILT ? "not built" : "ERROR");
    snprintf(gbs, sizeof gbs, "-");
    snprintf(pct, sizeof pct, "-");
  }
  if (in->npp_state == ST_OK) {
    snprintf(npp, sizeof npp, "%.4f", in->npp_ms);
    if (in->jet_state == ST_OK)
      snprintf(ratio, sizeof ratio, "%.2fx", in->ratio);
    else
      snprintf(ratio, sizeof ratio, "-");
  } else {
    snprintf(npp, sizeof npp, "%s", in->npp_state == ST_ERROR ? "ERROR" : "-");
    snprintf(ratio, sizeof ratio, "-");
  }
  snprintf(met, sizeof met, "%s", !in->targets ? "-" : in->met == in->targets ? "yes" : "NO");
  printf("%-30s %-9s %9s %7s %7s %9s %8s %-18s %s\n", in->op->label, SIZES[in->size_index].name,
         jet, gbs, pct, npp, ratio, in->target, met);
  if (in->jet_state == ST_ERROR) printf("    jetrt: %s\n", in->jet_err);
  if (in->npp_state == ST_ERROR) printf("    npp: %s\n", in->npp_err);
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static const char *state_name(int s) {
  static const char *const n[] = {"ok", "not built", "error", "none"};
  return n[s];
}

static int write_json(const char *path, const jet_platform_info *info, inst *all, int count,
                      const char *summary) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "{\n  \"program\": \"jet-bench-image\",\n  \"device\": ");
  json_str(f, info->name);
  fprintf(f, ",\n  \"sm\": \"%d.%d\",\n  \"driver_version\": %d,\n  \"runtime_version\": %d,\n",
          info->cc_major, info->cc_minor, info->driver_version, info->runtime_version);
  fprintf(f, "  \"npp\": %s,\n  \"npp_version\": ", B.npp ? "true" : "false");
  json_str(f, B.npp ? B.npp_version : "");
  fprintf(f, ",\n  \"runs\": %d,\n  \"warmup\": %d,\n  \"rotation_min_bytes\": %zu,\n", B.runs,
          B.warmup, (size_t)ROTATION_BYTES);
  fprintf(f, "  \"copy\": {\"bytes\": %zu, \"median_ms\": %.6f, \"gbs\": %.3f},\n",
          (size_t)COPY_BYTES, B.copy_ms, B.copy_gbs);
  fprintf(f, "  \"results\": [\n");
  for (int i = 0; i < count; i++) {
    const inst *in = &all[i];
    fprintf(f, "    {\"op\": ");
    json_str(f, in->op->key);
    fprintf(f, ", \"label\": ");
    json_str(f, in->op->label);
    fprintf(f, ", \"width\": %d, \"height\": %d, \"dst_width\": %d, \"dst_height\": %d", in->w,
            in->h, in->dw, in->dh);
    fprintf(f, ", \"bytes\": %.0f, \"bytes_rule\": ", in->bytes);
    json_str(f, in->op->bytes_doc);
    fprintf(f, ", \"sets\": %d, \"jetrt\": ", in->nsets_used);
    json_str(f, state_name(in->jet_state));
    if (in->jet_state == ST_OK)
      fprintf(f, ", \"jetrt_ms\": %.6f, \"jetrt_min_ms\": %.6f, \"gbs\": %.3f, \"pct_copy\": %.2f",
              in->jet_ms, in->jet_min_ms, in->gbs, in->pct);
    else {
      fprintf(f, ", \"jetrt_error\": ");
      json_str(f, in->jet_err);
    }
    fprintf(f, ", \"npp\": ");
    json_str(f, state_name(in->npp_state));
    if (in->npp_state == ST_OK) {
      fprintf(f, ", \"npp_ms\": %.6f, \"npp_min_ms\": %.6f", in->npp_ms, in->npp_min_ms);
      if (in->jet_state == ST_OK) fprintf(f, ", \"npp_ratio\": %.4f", in->ratio);
    } else if (in->npp_state == ST_ERROR) {
      fprintf(f, ", \"npp_error\": ");
      json_str(f, in->npp_err);
    }
    fprintf(f, ", \"host_bound_chunks\": %d, \"target\": ", in->host_bound);
    json_str(f, in->target);
    fprintf(f, ", \"targets\": %d, \"targets_met\": %d}%s\n", in->targets, in->met,
            i + 1 < count ? "," : "");
  }
  fprintf(f, "  ],\n  \"summary\": ");
  json_str(f, summary);
  fprintf(f, "\n}\n");
  return fclose(f) == 0 ? 0 : -1;
}

static void default_json_path(char *out, size_t n) {
  char self[1024];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) {
    snprintf(out, n, "jet-bench-image.json");
    return;
  }
  self[len] = '\0';
  char *slash = strrchr(self, '/');
  if (slash) *slash = '\0';
  snprintf(out, n, "%s/jet-bench-image.json", self);
}

static int usage(void) {
  fprintf(stderr,
          "usage: jet-bench-image [--json PATH] [--quick] [--runs N] [--warmup N]\n"
          "                       [--only SUBSTR] [--size 4k|1080p|all] [--no-npp]\n");
  return 1;
}

int main(int argc, char **argv) {
  const char *json = NULL, *only = NULL;
  int sizes = 3, no_npp = 0;
  B.runs = 50;
  B.warmup = 5;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--json") == 0 && v) {
      json = v;
      i++;
    } else if (strcmp(a, "--quick") == 0) {
      B.runs = 10;
      B.warmup = 2;
    } else if (strcmp(a, "--runs") == 0 && v) {
      B.runs = atoi(v);
      i++;
    } else if (strcmp(a, "--warmup") == 0 && v) {
      B.warmup = atoi(v);
      i++;
    } else if (strcmp(a, "--only") == 0 && v) {
      only = v;
      i++;
    } else if (strcmp(a, "--size") == 0 && v) {
      sizes = strcmp(v, "4k") == 0      ? 1
              : strcmp(v, "1080p") == 0 ? 2
              : strcmp(v, "all") == 0   ? 3
                                        : 0;
      if (!sizes) return usage();
      i++;
    } else if (strcmp(a, "--no-npp") == 0) {
      no_npp = 1;
    } else {
      return usage();
    }
  }
  if (B.runs < 1 || B.runs > 100000 || B.warmup < 0) return usage();
  char json_path[1100];
  if (json)
    snprintf(json_path, sizeof json_path, "%s", json);
  else
    default_json_path(json_path, sizeof json_path);

  double t_start = now_s();
  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "jet-bench-image: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }
  jet_platform_info info;
  jet_status st;
  if ((st = jet_context_create(&B.ctx, NULL)) != JET_STATUS_OK ||
      (st = jet_context_platform(B.ctx, &info)) != JET_STATUS_OK ||
      (st = jet_context_default_stream(B.ctx, JET_STREAM_PER_THREAD, &B.js)) != JET_STATUS_OK) {
    fprintf(stderr, "jet-bench-image: setup: %s\n", jet_last_error_string());
    return 1;
  }
  B.jcs = cudaStreamPerThread;
  cudaError_t e;
  if ((e = cudaStreamCreateWithFlags(&B.ncs, cudaStreamNonBlocking)) != cudaSuccess ||
      (e = cudaEventCreate(&B.primed)) != cudaSuccess ||
      (e = cudaMalloc(&B.copy_a, COPY_BYTES)) != cudaSuccess ||
      (e = cudaMalloc(&B.copy_b, COPY_BYTES)) != cudaSuccess ||
      (e = cudaMemset(B.copy_a, 0x5a, COPY_BYTES)) != cudaSuccess) {
    fprintf(stderr, "jet-bench-image: setup: %s\n", cudaGetErrorName(e));
    return 1;
  }
  for (int i = 0; i <= CHUNK; i++)
    if ((e = cudaEventCreate(&B.ev[i])) != cudaSuccess) {
      fprintf(stderr, "jet-bench-image: cudaEventCreate: %s\n", cudaGetErrorName(e));
      return 1;
    }
#if JET_BENCH_HAVE_REDUCE
  if ((st = bench_reduce_work_size(B.ctx, &B.work_bytes)) != JET_STATUS_OK) {
    fprintf(stderr, "jet-bench-image: jet_reduce_work_size: %s\n", jet_last_error_string());
    return 1;
  }
  if ((e = cudaMalloc(&B.work, B.work_bytes)) != cudaSuccess ||
      (e = cudaMemset(B.work, 0, B.work_bytes)) != cudaSuccess) {
    fprintf(stderr, "jet-bench-image: reduction work memory: %s\n", cudaGetErrorName(e));
    return 1;
  }
#endif
  if (make_pools()) {
    fprintf(stderr, "jet-bench-image: out of host memory\n");
    return 1;
  }
#if JET_BENCH_HAVE_NPP
  if (!no_npp) {
    if (bench_npp_init((void *)B.ncs, B.npp_version, sizeof B.npp_version) == 0)
      B.npp = 1;
    else
      fprintf(stderr, "jet-bench-image: NPP stream context setup failed; NPP columns empty\n");
  }
#else
  (void)no_npp;
#endif

  printf("device 0: %s, SM %d.%d, %d SMs, L2 %zu MiB, driver %d, runtime %d\n", info.name,
         info.cc_major, info.cc_minor, info.sm_count, info.l2_size >> 20, info.driver_version,
         info.runtime_version);
  printf("NPP: %s\n", B.npp ? B.npp_version
                            : (JET_BENCH_HAVE_NPP ? "built in, disabled (--no-npp or setup failed)"
                                                  : "not built in (not found at configure time)"));
  printf("jetrt groups built in: color %d, resize %d, dnn %d, filter %d, remap %d, geometry %d, "
         "reduce %d\n",
         JET_BENCH_HAVE_COLOR, JET_BENCH_HAVE_RESIZE, JET_BENCH_HAVE_DNN, JET_BENCH_HAVE_FILTER,
         JET_BENCH_HAVE_REMAP, JET_BENCH_HAVE_GEOMETRY, JET_BENCH_HAVE_REDUCE);
  printf("method: median of %d runs after %d warm-up, CUDA events per call, buffers rotated over "
         ">= %zu MiB\n",
         B.runs, B.warmup, (size_t)ROTATION_BYTES >> 20);
  char err[300];
  if (measure_copy(err, sizeof err)) {
    fprintf(stderr, "jet-bench-image: %s\n", err);
    return 1;
  }
  printf("copy: cudaMemcpyAsync D2D %zu MiB: %.4f ms, %.1f GB/s (read + written)\n\n",
         (size_t)COPY_BYTES >> 20, B.copy_ms, B.copy_gbs);
  printf("%-30s %-9s %9s %7s %7s %9s %8s %-18s %s\n", "op", "size", "jetrt ms", "GB/s", "%copy",
         "NPP ms", "NPP/jet", "target", "met?");

  inst *all = calloc(NOPS * NSIZES, sizeof *all);
  if (!all) return 1;
  int n = 0, failed = 0, host_bound = 0;
  for (size_t o = 0; o < NOPS; o++) {
    if (only && !strstr(OPS[o].key, only)) continue;
    for (int s = 0; s < NSIZES; s++) {
      if (!(sizes & (1 << s))) continue;
      inst *in = &all[n++];
      in->op = &OPS[o];
      in->size_index = s;
      in->w = SIZES[s].w;
      in->h = SIZES[s].h;
      switch (OPS[o].dst_mode) {
        case DM_HALF: in->dw = in->w / 2; in->dh = in->h / 2; break;
        case DM_SWAP: in->dw = in->h; in->dh = in->w; break;
        case DM_DNN: in->dw = in->dh = in->w / 3; break;
        default: in->dw = in->w; in->dh = in->h; break;
      }
      measure(in);
      evaluate(in);
      print_row(in);
      fflush(stdout);
      failed += in->jet_state == ST_ERROR;
      host_bound += in->host_bound > 0;
    }
  }

  /* summary: 4K operations (the copy baseline aside) against 80%, and every target */
  int ops4k = 0, ok4k = 0, targets = 0, met = 0, not_built = 0;
  char missed[2048] = "", ratios[1024] = "";
  for (int i = 0; i < n; i++) {
    inst *in = &all[i];
    if (in->op->group == G_COPY) continue;
    if (in->jet_state == ST_NOT_BUILT) not_built++;
    if (in->size_index == 0) {
      ops4k++;
      ok4k += in->jet_state == ST_OK && in->pct >= PCT_TARGET;
    }
    targets += in->targets;
    met += in->met;
    if (in->op->npp_target > 0 && in->size_index == 0) {
      size_t l = strlen(ratios);
      if (in->jet_state == ST_OK && in->npp_state == ST_OK)
        snprintf(ratios + l, sizeof ratios - l, "%s%s %.2fx", l ? ", " : "", in->op->key,
                 in->ratio);
      else
        snprintf(ratios + l, sizeof ratios - l, "%s%s n/a", l ? ", " : "", in->op->key);
    }
    if (in->met < in->targets) {
      size_t l = strlen(missed);
      snprintf(missed + l, sizeof missed - l, "%s%s@%s", l ? ", " : "", in->op->key,
               in->size_index == 0 ? "4k" : "1080p");
    }
  }
  printf("\nbytes: minimal bytes read + written per call (see the header of bench-image.c); "
         "%%copy against %.1f GB/s; '!' marks rows where the host fell behind the GPU\n",
         B.copy_gbs);
  if (host_bound)
    printf("note: in %d rows the host queued some chunks slower than the GPU ran them\n",
           host_bound);
  char summary[4096];
  snprintf(summary, sizeof summary,
           "summary: %d ops, %d >= 80%% of copy (at 3840x2160; copy %.0f GB/s); targets met: "
           "%d/%d%s%s; NPP/jetrt at 4K: %s; NPP %s; %d rows not built; %d errors; %.1f s",
           ops4k, ok4k, B.copy_gbs, met, targets, missed[0] ? "; missed: " : "", missed,
           ratios[0] ? ratios : "none", B.npp ? "built in" : "not built in", not_built, failed,
           now_s() - t_start);
  if (write_json(json_path, &info, all, n, summary))
    fprintf(stderr, "jet-bench-image: could not write %s\n", json_path);
  else
    printf("json: %s\n", json_path);

  free(all);
  free(B.pool);
  free(B.fpool);
  cudaFree(B.copy_a);
  cudaFree(B.copy_b);
  if (B.work) cudaFree(B.work);
  for (int i = 0; i <= CHUNK; i++) cudaEventDestroy(B.ev[i]);
  cudaEventDestroy(B.primed);
  cudaStreamDestroy(B.ncs);
  jet_context_destroy(B.ctx);
  printf("%s\n", summary);
  return failed ? 1 : 0;
}

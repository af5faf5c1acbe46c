/*
 * jet-bench-image: a sweep of jetrt's image operations over frame sizes,
 * formats, borders, kernel sizes and scale factors, each against a copy of
 * the same number of bytes, NPP and (through bench/cvcuda_peer.py) CV-CUDA
 * (issue 13, "Per-operation targets").
 *
 * Method
 *  - Sizes 1280x720, 1920x1080, 2560x1440 and 3840x2160 (--size picks some).
 *  - Every configuration (an operation with its formats and parameters at one
 *    size) is timed three ways in the same run: the jetrt call; a
 *    device-to-device cudaMemcpyAsync of (minimal bytes read + minimal bytes
 *    written) / 2 bytes - the reference: a copy reads and writes each byte
 *    once, so it moves the operation's minimal traffic; and NPP's equivalent
 *    where NPP has one. ratio = jetrt median / copy median.
 *  - Each call is timed alone with two CUDA events around it; the result is
 *    the median of --runs calls (default 21) after --warmup calls (default 3).
 *    Calls are queued in chunks of 12 behind 512 MiB cudaMemsetAsyncs, so
 *    the host has queued the chunk before the GPU reaches it and the events
 *    measure GPU time; a chunk the host had not finished queueing in time is
 *    timed again behind twice the memsets (up to 16), and one still late is
 *    kept, counted and flagged ('!'). Chunks of jetrt, the copy and NPP
 *    alternate, never overlapping, so drift hits all three alike.
 *  - Buffers rotate over at least 128 MiB (N sets, the next set each call;
 *    the copy rotates over its own N pairs), so the 50 MB L2 never holds a
 *    call's input. All sets are views (jet_image_wrap) into one arena
 *    allocated once for the largest configuration; sources are filled from
 *    random device pools (floats in [0, 1) for float formats).
 *  - Minimal bytes per call (W x H the source size, D the destination's
 *    bytes, N the batch size; every batched figure is N times the single one):
 *      colour           source planes read once + destination planes written
 *                       once (NV12/NV21/I420 1.5WH, YUYV/UYVY 2WH, RGB8/BGR8
 *                       3WH, RGBA8/BGRA8 4WH, GRAY8 WH)
 *      resize           D + every source row the interpolation samples, read
 *                       once as a whole row (DRAM sectors are 32 B, wider
 *                       than the column step). Rows follow
 *                       kernels/image/color_coeffs.h: bilinear both taps
 *                       unless a weight is 0, nearest one row, area every row
 *                       a destination row overlaps; an upscale samples every
 *                       row. E.g. RGBA8 1/2 bilinear 4WH + WH, nearest 2WH + WH.
 *      box, Gaussian    source + destination (halo re-reads not counted)
 *      remap            source + map (8 B per destination pixel) + D
 *      flip, rotate, transpose   source + destination
 *      reduce           source (jet_reduce gives sum, mean, min and max in
 *                       one call; compared with nppiSum and with nppiMinMax
 *                       in two configurations)
 *      histogram        source + 1 KiB of bins
 *      dnn preprocess   source rows sampled (bilinear rows of the content
 *                       rectangle: NV12 luma rows plus the chroma rows they
 *                       use, W bytes each; RGBA8 4W bytes each) + the whole
 *                       planar destination (12 B per pixel for RGBF32P, 6 for
 *                       RGBF16P, padding included)
 *      memcpy_2d        2 x row bytes x H (pitch padding not counted)
 *      memset_2d        row bytes x H
 *  - Targets (H100): ratio <= 1.15 for streaming operations (colour, resize,
 *    flip, rotate, transpose, remap, DNN preprocess, the batched ones),
 *    <= 1.4 for box and Gaussian up to 7x7, reduce and histogram, <= 1.1 for
 *    jet_memcpy_2d_async and jet_memset_2d_async; windows 9..31: no copy
 *    target. Against NPP and CV-CUDA, everywhere: not slower (NPP time /
 *    jetrt time >= 1; CV-CUDA's copy-normalised ratio
 *    (cv time / cv copy) / (jetrt time / jetrt copy) >= 1).
 *  - CV-CUDA: --list-configs FILE writes every configuration (JSON, no GPU
 *    needed); bench/cvcuda_peer.py times those CV-CUDA has, with its own
 *    same-bytes torch copy, into a peer file that --peer FILE reads.
 *
 * Usage: jet-bench-image [--json PATH] [--quick] [--runs N] [--warmup N]
 *          [--only SUBSTR[,SUBSTR...]] [--size 720p,1080p,1440p,4k|all]
 *          [--no-npp] [--peer FILE] [--list-configs FILE] [--verbose] [--dry-run]
 * --dry-run needs no GPU: it invents times from the byte counts (nothing is
 * measured) to exercise the table, the peer file and the JSON writer.
 * The JSON goes to PATH, by default jet-bench-image.json beside the
 * executable. The last line printed is the summary. Exit: 0 when every
 * jetrt call ran (targets missed or not), 1 when something failed, 2 without
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
#include "sample_bytes.h"
#include "sample_util.h"
#include "ref_image.h"

#ifndef JET_BENCH_HAVE_NPP
#define JET_BENCH_HAVE_NPP 0
#endif
#ifndef JET_BENCH_HAVE_NPP_NEW
#define JET_BENCH_HAVE_NPP_NEW 0
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
#ifndef JET_BENCH_HAVE_COLOR_BATCH
#define JET_BENCH_HAVE_COLOR_BATCH 0
#endif
#ifndef JET_BENCH_HAVE_RESIZE_BATCH
#define JET_BENCH_HAVE_RESIZE_BATCH 0
#endif
#ifndef JET_BENCH_HAVE_DNN_BATCH
#define JET_BENCH_HAVE_DNN_BATCH 0
#endif
#ifndef JET_BENCH_HAVE_DNN_F16
#define JET_BENCH_HAVE_DNN_F16 0
#endif

#define PRIMER_BYTES ((size_t)512 << 20)
#define ROTATION_BYTES ((size_t)128 << 20)
#define MAX_SETS 256
#define CHUNK 12
#define MAX_PRIMERS 16
#define ALIGN ((size_t)256)
#define POOL_BYTES ((size_t)3840 * 2160 * 4)
#define BATCH_N 4

static const struct {
  int w, h;
  const char *name, *tag;
} SIZES[] = {{1280, 720, "1280x720", "720p"},
             {1920, 1080, "1920x1080", "1080p"},
             {2560, 1440, "2560x1440", "1440p"},
             {3840, 2160, "3840x2160", "4k"}};
#define NSIZES 4

enum tclass { TC_STREAM, TC_FILTER, TC_MEM, TC_REPORT, TC_COUNT_ };
static const double TC_TARGET[] = {1.15, 1.4, 1.1, 0};
static const char *const TC_NAME[] = {"streaming", "filter/reduce", "memory", "report"};

enum state { ST_OK, ST_NOT_BUILT, ST_ERROR, ST_NONE };

typedef struct result {
  bench_cfg c;
  char key[112];
  char op_name[24]; /* the table's operation */
  int size_index, tclass;
  double bytes, copy_bytes;
  int nsets, copy_sets;
  int jet_state;
  char jet_err[300];
  double jet_ms, jet_min_ms, copy_ms, ratio;
  int npp_state; /* ST_NONE: NPP has no such operation or is not built in */
  const char *npp_name;
  char npp_err[160];
  double npp_ms, npp_ratio;
  int cv_state; /* ST_NONE: no peer file or no entry */
  char cv_err[160];
  double cv_ms, cv_copy_ms, cv_norm, cv_raw;
  int host_bound;
  int met_copy, met_npp, met_cv, met;
} result;

typedef jet_status (*bench_jet_fn)(jet_stream stream, const bench_io *io);

static struct {
  jet_context ctx;
  jet_stream js; /* jetrt's per-thread default stream: cudaStreamPerThread */
  cudaStream_t jcs;
  cudaStream_t ncs; /* NPP's stream */
  void *primer;
  unsigned char *arena, *carena; /* the sets, the copy's pairs */
  size_t arena_bytes, carena_bytes;
  void *pool8, *poolf; /* random bytes, random floats in [0, 1) */
  void *work;          /* the reductions' work memory, zero-filled */
  size_t work_bytes;
  cudaEvent_t ev[CHUNK + 1], primed;
  int runs, warmup, npp, verbose;
  int primers[3]; /* 512 MiB memsets ahead of a chunk, per implementation */
  unsigned long long rot;
  char npp_version[64];
  char peer_version[64];
  bench_io io[MAX_SETS];
} B;

static double median(double *v, int n, double *min) {
  qsort(v, (size_t)n, sizeof *v, jet_sample_cmp_double);
  *min = v[0];
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static size_t align_up(size_t v) { return (v + ALIGN - 1) / ALIGN * ALIGN; }

void bench_dnn_params(const bench_cfg *cfg, jet_dnn_params *p) {
  static const jet_dnn_params base = {JET_COLOR_BT601,
                                      JET_COLOR_RANGE_LIMITED,
                                      1,
                                      0,
                                      {114.0f, 114.0f, 114.0f},
                                      {0.485f, 0.456f, 0.406f},
                                      {0.229f, 0.224f, 0.225f}};
  *p = base;
  p->letterbox = cfg->letterbox;
}

/* ------------------------------------------------------------------ names */

static const char *fmt_name(jet_format f, int f16) {
  if (f16) return "RGBF16P";
  const char *n = f ? jet_format_name(f) : NULL;
  return n ? n : "-";
}

static const char *interp_name(int i) {
  return i == JET_INTERP_NEAREST ? "nearest" : i == JET_INTERP_LINEAR ? "linear" : "area";
}

static const char *border_name(int b) {
  return b == JET_BORDER_REPLICATE     ? "replicate"
         : b == JET_BORDER_REFLECT_101 ? "reflect101"
                                       : "constant";
}

static const char *flip_name(int f) {
  return f == JET_FLIP_HORIZONTAL ? "h" : f == JET_FLIP_VERTICAL ? "v" : "both";
}

static const char *const OP_KEY[] = {"color",    "resize",    "box",         "gauss",
                                     "remap",    "flip",      "rotate",      "transpose",
                                     "reduce",   "histogram", "dnn",         "memcpy_2d",
                                     "memset_2d", "color_batch", "resize_batch", "dnn_batch"};

/* The destination's format and description (RGBF16P resolved, or described
 * by hand where this tree does not have it yet). */
static jet_format dst_format(const bench_cfg *c) {
#if JET_BENCH_HAVE_DNN_F16
  if (c->f16) return bench_format_rgbf16p;
#endif
  return c->dst;
}

static int fmt_desc(jet_format f, int f16, jet_format_desc *d) {
  if (f16 && !JET_BENCH_HAVE_DNN_F16) {
    memset(d, 0, sizeof *d);
    d->name = "RGBF16P";
    d->planes = 3;
    d->bytes_per_pixel[0] = d->bytes_per_pixel[1] = d->bytes_per_pixel[2] = 2;
    d->channels = 3;
    d->elem_size = 2;
    return 0;
  }
#if JET_BENCH_HAVE_DNN_F16
  if (f16) f = bench_format_rgbf16p;
#endif
  return jet_format_info(f, d) == JET_STATUS_OK ? 0 : -1;
}

static void plane_dims(const jet_format_desc *d, int p, int w, int h, int *pw, int *ph) {
  *pw = (p && d->sub_x) ? w >> d->sub_x : w;
  *ph = (p && d->sub_y) ? h >> d->sub_y : h;
}

static double image_bytes(jet_format f, int f16, int w, int h) {
  jet_format_desc d;
  if (!f || fmt_desc(f, f16, &d)) return 0;
  double b = 0;
  for (int p = 0; p < d.planes; p++) {
    int pw, ph;
    plane_dims(&d, p, w, h, &pw, &ph);
    b += (double)pw * ph * d.bytes_per_pixel[p];
  }
  return b;
}

/* ------------------------------------------------------------------ bytes */

static double cfg_bytes(const bench_cfg *c) {
  double src = image_bytes(c->src, 0, c->w, c->h), dst = image_bytes(c->dst, c->f16, c->dw, c->dh);
  jet_format_desc sd;
  double row = c->src && fmt_desc(c->src, 0, &sd) == 0 ? (double)c->w * sd.bytes_per_pixel[0] : 0;
  unsigned char *used = malloc((size_t)c->h + 1);
  double b = 0;
  if (!used) return 0;
  switch (c->op) {
    case BOP_RESIZE:
    case BOP_RESIZE_BATCH: b = row * jet_sample_rows_sampled(c->interp, c->dh, c->h, used) + dst; break;
    case BOP_REMAP: b = src + 8.0 * c->dw * c->dh + dst; break;
    case BOP_REDUCE: b = src; break;
    case BOP_HIST: b = src + 1024; break;
    case BOP_DNN:
    case BOP_DNN_BATCH: {
      int ox, oy, cw, ch;
      ref_letterbox_rect(c->w, c->h, c->dw, c->dh, c->letterbox, &ox, &oy, &cw, &ch);
      long rows = jet_sample_rows_sampled(JET_INTERP_LINEAR, ch, c->h, used), chroma = 0;
      if (c->src == JET_FORMAT_NV12) {
        for (int r = 0; r + 1 < c->h; r += 2) chroma += used[r] | used[r + 1];
        b = (double)c->w * (double)(rows + chroma) + dst;
      } else {
        b = row * (double)rows + dst;
      }
      break;
    }
    case BOP_MEMCPY2D: b = 2.0 * src; break;
    case BOP_MEMSET2D: b = dst; break;
    default: b = src + dst; break;
  }
  free(used);
  return b * (c->count > 1 ? c->count : 1);
}

/* ------------------------------------------------------------------ configurations */

static result *R;
static int NR, CAP;

static result *add(const bench_cfg *c, int size_index) {
  if (NR == CAP) {
    int ncap = CAP ? 2 * CAP : 512;
    result *n = realloc(R, (size_t)ncap * sizeof *n);
    if (!n) {
      fprintf(stderr, "jet-bench-image: out of host memory\n");
      exit(1);
    }
    R = n;
    CAP = ncap;
  }
  result *r = &R[NR++];
  memset(r, 0, sizeof *r);
  r->c = *c;
  if (!r->c.count) r->c.count = 1;
  r->size_index = size_index;
  return r;
}

static void name_cfg(result *r) {
  const bench_cfg *c = &r->c;
  char d[80] = "";
  const char *sn = fmt_name(c->src, 0), *dn = fmt_name(c->dst, c->f16);
  switch (c->op) {
    case BOP_COLOR:
    case BOP_COLOR_BATCH: snprintf(d, sizeof d, "%s>%s", sn, dn); break;
    case BOP_RESIZE:
    case BOP_RESIZE_BATCH:
      snprintf(d, sizeof d, "%s %s x%d/%d", interp_name(c->interp), sn, c->scale_num, c->scale_den);
      break;
    case BOP_BOX:
    case BOP_GAUSS: snprintf(d, sizeof d, "k%d %s %s", c->ksize, border_name(c->border), sn); break;
    case BOP_REMAP: snprintf(d, sizeof d, "linear %s %s", border_name(c->border), sn); break;
    case BOP_FLIP: snprintf(d, sizeof d, "%s %s", flip_name(c->flip), sn); break;
    case BOP_ROTATE: snprintf(d, sizeof d, "%d %s", c->rotation, sn); break;
    case BOP_TRANSPOSE: snprintf(d, sizeof d, "%s", sn); break;
    case BOP_REDUCE: snprintf(d, sizeof d, "%s %s", c->variant ? "minmax" : "sum", sn); break;
    case BOP_HIST: snprintf(d, sizeof d, "%s", sn); break;
    case BOP_DNN:
    case BOP_DNN_BATCH:
      snprintf(d, sizeof d, "%s %s %dx%d %s", sn, c->letterbox ? "letterbox" : "stretch", c->dw,
               c->dh, c->f16 ? "f16" : "f32");
      break;
    case BOP_MEMCPY2D:
    case BOP_MEMSET2D:
      if (c->pad)
        snprintf(d, sizeof d, "%s pitch+%d", c->op == BOP_MEMCPY2D ? sn : dn, c->pad);
      else
        snprintf(d, sizeof d, "%s packed", c->op == BOP_MEMCPY2D ? sn : dn);
      break;
    default: break;
  }
  snprintf(r->key, sizeof r->key, "%s%s %s %s", OP_KEY[c->op],
           c->count > 1 ? (c->count == 4 ? "4" : "N") : "", d, SIZES[r->size_index].name);
  /* the table groups resize by interpolation and filters by window class */
  if (c->op == BOP_RESIZE)
    snprintf(r->op_name, sizeof r->op_name, "resize %s", interp_name(c->interp));
  else if ((c->op == BOP_BOX || c->op == BOP_GAUSS) && c->ksize > 7)
    snprintf(r->op_name, sizeof r->op_name, "%s 9-31", OP_KEY[c->op]);
  else if (c->op == BOP_REDUCE)
    snprintf(r->op_name, sizeof r->op_name, "reduce %s", c->variant ? "minmax" : "sum");
  else
    snprintf(r->op_name, sizeof r->op_name, "%s", OP_KEY[c->op]);
  switch (c->op) {
    case BOP_BOX:
    case BOP_GAUSS: r->tclass = c->ksize <= 7 ? TC_FILTER : TC_REPORT; break;
    case BOP_REDUCE:
    case BOP_HIST: r->tclass = TC_FILTER; break;
    case BOP_MEMCPY2D:
    case BOP_MEMSET2D: r->tclass = TC_MEM; break;
    default: r->tclass = TC_STREAM; break;
  }
  r->bytes = cfg_bytes(c);
  r->copy_bytes = floor(r->bytes / 2 / 4) * 4;
}

/* A resize by num/den: the destination size, rounded to nearest. */
static void set_scale(bench_cfg *c, int num, int den) {
  c->scale_num = num;
  c->scale_den = den;
  c->dw = (int)(((long long)c->w * num + den / 2) / den);
  c->dh = (int)(((long long)c->h * num + den / 2) / den);
}

static void gen_size(int s) {
  int w = SIZES[s].w, h = SIZES[s].h;
  bench_cfg c;
#define RESET() (memset(&c, 0, sizeof c), c.w = w, c.h = h, c.dw = w, c.dh = h, c.count = 1)
#define F(x) JET_FORMAT_##x
  static const jet_format yuv[] = {F(NV12), F(NV21), F(I420), F(YUYV), F(UYVY)};
  static const jet_format rgbout[] = {F(RGB8), F(RGBA8), F(BGR8), F(BGRA8), F(GRAY8)};
  static const jet_format packed[] = {F(RGBA8), F(BGRA8), F(RGB8), F(BGR8), F(GRAY8)};
  static const jet_format px4[] = {F(GRAY8), F(RGB8), F(RGBA8), F(GRAYF32)};
  static const int scales[][2] = {{1, 2}, {2, 3}, {3, 4}, {1, 3}, {3, 2}, {2, 1}};
  static const int borders[] = {JET_BORDER_REPLICATE, JET_BORDER_REFLECT_101, JET_BORDER_CONSTANT};
  /* colour */
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) {
      RESET();
      c.op = BOP_COLOR;
      c.src = yuv[i];
      c.dst = rgbout[j];
      name_cfg(add(&c, s));
    }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      RESET();
      c.op = BOP_COLOR;
      c.src = i ? F(RGB8) : F(RGBA8);
      c.dst = j ? F(I420) : F(NV12);
      name_cfg(add(&c, s));
    }
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) {
      if (i == j) continue;
      RESET();
      c.op = BOP_COLOR;
      c.src = packed[i];
      c.dst = packed[j];
      name_cfg(add(&c, s));
    }
  /* resize */
  for (int ip = JET_INTERP_NEAREST; ip <= JET_INTERP_AREA; ip++)
    for (int f = 0; f < 4; f++)
      for (int k = 0; k < 6; k++) {
        if (ip == JET_INTERP_AREA && scales[k][0] > scales[k][1]) continue;
        RESET();
        c.op = BOP_RESIZE;
        c.src = c.dst = px4[f];
        c.interp = ip;
        set_scale(&c, scales[k][0], scales[k][1]);
        name_cfg(add(&c, s));
      }
  /* box and Gaussian up to 7x7, every border; larger windows, replicate */
  for (int op = BOP_BOX; op <= BOP_GAUSS; op++) {
    for (int k = 3; k <= 7; k += 2)
      for (int b = 0; b < 3; b++)
        for (int f = 0; f < 4; f++) {
          RESET();
          c.op = op;
          c.src = c.dst = px4[f];
          c.ksize = k;
          c.border = borders[b];
          name_cfg(add(&c, s));
        }
    static const int big[] = {9, 15, 31};
    for (int k = 0; k < 3; k++)
      for (int f = 0; f < 2; f++) {
        RESET();
        c.op = op;
        c.src = c.dst = f ? F(RGBA8) : F(GRAY8);
        c.ksize = big[k];
        c.border = JET_BORDER_REPLICATE;
        name_cfg(add(&c, s));
      }
  }
  /* remap */
  for (int b = 0; b < 3; b++) {
    RESET();
    c.op = BOP_REMAP;
    c.src = c.dst = F(RGBA8);
    c.border = borders[b];
    name_cfg(add(&c, s));
  }
  RESET();
  c.op = BOP_REMAP;
  c.src = c.dst = F(GRAY8);
  c.border = JET_BORDER_REPLICATE;
  name_cfg(add(&c, s));
  /* flip, rotate, transpose */
  for (int f = 0; f < 4; f++) {
    for (int fl = JET_FLIP_HORIZONTAL; fl <= JET_FLIP_BOTH; fl++) {
      RESET();
      c.op = BOP_FLIP;
      c.src = c.dst = px4[f];
      c.flip = fl;
      name_cfg(add(&c, s));
    }
    for (int r = 90; r <= 270; r += 90) {
      RESET();
      c.op = BOP_ROTATE;
      c.src = c.dst = px4[f];
      c.rotation = r;
      if (r != 180) {
        c.dw = h;
        c.dh = w;
      }
      name_cfg(add(&c, s));
    }
    RESET();
    c.op = BOP_TRANSPOSE;
    c.src = c.dst = px4[f];
    c.dw = h;
    c.dh = w;
    name_cfg(add(&c, s));
  }
  /* reduce and histogram */
  for (int f = 0; f < 4; f++)
    for (int v = 0; v < 2; v++) {
      if (v && px4[f] == F(RGB8)) continue;
      RESET();
      c.op = BOP_REDUCE;
      c.src = px4[f];
      c.dst = JET_FORMAT_NONE_;
      c.variant = v;
      name_cfg(add(&c, s));
    }
  RESET();
  c.op = BOP_HIST;
  c.src = F(GRAY8);
  c.dst = JET_FORMAT_NONE_;
  name_cfg(add(&c, s));
  /* DNN preprocess */
  for (int src = 0; src < 2; src++)
    for (int lb = 1; lb >= 0; lb--)
      for (int d = 640; d <= 1280; d += 640)
        for (int f16 = 0; f16 < 2; f16++) {
          RESET();
          c.op = BOP_DNN;
          c.src = src ? F(RGBA8) : F(NV12);
          c.dst = F(RGBF32P);
          c.f16 = f16;
          c.letterbox = lb;
          c.dw = c.dh = d;
          name_cfg(add(&c, s));
        }
  /* memcpy_2d, memset_2d */
  for (int op = BOP_MEMCPY2D; op <= BOP_MEMSET2D; op++)
    for (int f = 0; f < 2; f++)
      for (int pad = 0; pad <= 64; pad += 64) {
        RESET();
        c.op = op;
        c.src = op == BOP_MEMCPY2D ? (f ? F(GRAY8) : F(RGBA8)) : JET_FORMAT_NONE_;
        c.dst = f ? F(GRAY8) : F(RGBA8);
        c.pad = pad;
        name_cfg(add(&c, s));
      }
  /* batched */
  for (int j = 0; j < 2; j++) {
    RESET();
    c.op = BOP_COLOR_BATCH;
    c.src = F(NV12);
    c.dst = j ? F(RGB8) : F(RGBA8);
    c.count = BATCH_N;
    name_cfg(add(&c, s));
  }
  static const int rb[][3] = {{JET_INTERP_LINEAR, 1, 2}, {JET_INTERP_AREA, 2, 3}, {JET_INTERP_NEAREST, 1, 2}};
  for (int k = 0; k < 3; k++) {
    RESET();
    c.op = BOP_RESIZE_BATCH;
    c.src = c.dst = F(RGBA8);
    c.interp = rb[k][0];
    set_scale(&c, rb[k][1], rb[k][2]);
    c.count = BATCH_N;
    name_cfg(add(&c, s));
  }
  for (int f16 = 0; f16 < 2; f16++) {
    RESET();
    c.op = BOP_DNN_BATCH;
    c.src = F(NV12);
    c.dst = F(RGBF32P);
    c.f16 = f16;
    c.letterbox = 1;
    c.dw = c.dh = 640;
    c.count = BATCH_N;
    name_cfg(add(&c, s));
  }
#undef F
#undef RESET
}

/* ------------------------------------------------------------------ jetrt calls */

static jet_status memcpy_2d(jet_stream s, const bench_io *io) {
  jet_image_plane_info a, b;
  jet_status st = jet_image_get_plane(io->src[0], 0, &a);
  if (st == JET_STATUS_OK) st = jet_image_get_plane(io->dst[0], 0, &b);
  if (st != JET_STATUS_OK) return st;
  return jet_memcpy_2d_async(s, b.ptr, b.pitch, a.ptr, a.pitch, a.row_bytes, (size_t)a.height);
}

static jet_status memset_2d(jet_stream s, const bench_io *io) {
  jet_image_plane_info b;
  jet_status st = jet_image_get_plane(io->dst[0], 0, &b);
  if (st != JET_STATUS_OK) return st;
  return jet_memset_2d_async(s, b.ptr, b.pitch, 0x3c, b.row_bytes, (size_t)b.height);
}

/* The jetrt function of @c, NULL when its group is not built in. */
static bench_jet_fn jet_fn(const bench_cfg *c) {
  if (c->f16 && !JET_BENCH_HAVE_DNN_F16) return NULL;
  switch (c->op) {
    case BOP_MEMCPY2D: return memcpy_2d;
    case BOP_MEMSET2D: return memset_2d;
#if JET_BENCH_HAVE_COLOR
    case BOP_COLOR: return bench_jet_color;
#endif
#if JET_BENCH_HAVE_RESIZE
    case BOP_RESIZE: return bench_jet_resize;
#endif
#if JET_BENCH_HAVE_DNN
    case BOP_DNN: return bench_jet_dnn;
#endif
#if JET_BENCH_HAVE_FILTER
    case BOP_BOX:
    case BOP_GAUSS: return bench_jet_filter;
#endif
#if JET_BENCH_HAVE_REMAP
    case BOP_REMAP: return bench_jet_remap;
#endif
#if JET_BENCH_HAVE_GEOMETRY
    case BOP_FLIP:
    case BOP_ROTATE:
    case BOP_TRANSPOSE: return bench_jet_geometry;
#endif
#if JET_BENCH_HAVE_REDUCE
    case BOP_REDUCE:
    case BOP_HIST: return bench_jet_reduce;
#endif
#if JET_BENCH_HAVE_COLOR_BATCH
    case BOP_COLOR_BATCH: return bench_jet_color_batch;
#endif
#if JET_BENCH_HAVE_RESIZE_BATCH
    case BOP_RESIZE_BATCH: return bench_jet_resize_batch;
#endif
#if JET_BENCH_HAVE_DNN_BATCH
    case BOP_DNN_BATCH: return bench_jet_dnn_batch;
#endif
    default: return NULL;
  }
}

static const char *group_of(const bench_cfg *c) {
  if (c->f16 && !JET_BENCH_HAVE_DNN_F16) return "dnn_f16";
  switch (c->op) {
    case BOP_BOX:
    case BOP_GAUSS: return "filter";
    case BOP_FLIP:
    case BOP_ROTATE:
    case BOP_TRANSPOSE: return "geometry";
    case BOP_HIST: return "reduce";
    default:
      /* bounded for gcc 12's -Warray-bounds, which does not see that the
       * ops of OP_KEY are the only ones left here */
      return (size_t)c->op < sizeof OP_KEY / sizeof OP_KEY[0] ? OP_KEY[c->op] : "?";
  }
}

static void not_built(result *r) {
  r->jet_state = ST_NOT_BUILT;
  r->npp_state = ST_NONE;
  snprintf(r->jet_err, sizeof r->jet_err,
           "not built: ops_%s.c did not compile against the jetrt headers at configure time",
           group_of(&r->c));
}

static int npp_select(const bench_cfg *c, bench_npp_entry *e) {
  memset(e, 0, sizeof *e);
#if JET_BENCH_HAVE_NPP
  if (!B.npp) return 0;
  if (bench_npp_select(c, e)) return 1;
#if JET_BENCH_HAVE_NPP_NEW
  if (bench_npp_select_new(c, e)) return 1;
#endif
#else
  (void)c;
#endif
  return 0;
}

/* ------------------------------------------------------------------ buffers */

/* Bytes one image takes in the arena, planes 256-byte aligned; pitch =
 * row bytes + pad where pad > 0, else row bytes rounded up to 256. */
static size_t image_span(jet_format f, int f16, int w, int h, int pad) {
  jet_format_desc d;
  if (!f || fmt_desc(f, f16, &d)) return 0;
  size_t b = 0;
  for (int p = 0; p < d.planes; p++) {
    int pw, ph;
    plane_dims(&d, p, w, h, &pw, &ph);
    size_t row = (size_t)pw * (size_t)d.bytes_per_pixel[p];
    size_t pitch = pad > 0 ? row + (size_t)pad : align_up(row);
    b += align_up(pitch * (size_t)ph);
  }
  return b;
}

static size_t map_pitch(const bench_cfg *c) { return align_up((size_t)c->dw * 8); }

static size_t set_span(const bench_cfg *c) {
  size_t b = (size_t)c->count * (image_span(c->src, 0, c->w, c->h, c->pad) +
                                 image_span(c->dst, c->f16, c->dw, c->dh, c->pad));
  if (c->op == BOP_REMAP)
    b += align_up(map_pitch(c) * (size_t)c->dh);
  else
    b += BENCH_AUX_RESULT_BYTES;
  return b;
}

static int sets_for(size_t span) {
  size_t n = span ? (ROTATION_BYTES + span - 1) / span : 2;
  if (n < 2) n = 2;
  if (n > MAX_SETS) n = MAX_SETS;
  return (int)n;
}

static size_t copy_pair(const result *r) { return 2 * align_up((size_t)r->copy_bytes); }

/* Wrap one image at *off of the arena. */
static int wrap(jet_format f, int w, int h, int pad, size_t *off, jet_image *out, char *err,
                size_t n) {
  jet_format_desc d;
  if (jet_format_info(f, &d) != JET_STATUS_OK)
    return jet_sample_jet_fail("jet_format_info", jet_last_error()->status, err, n);
  jet_image_plane pl[JET_IMAGE_MAX_PLANES];
  for (int p = 0; p < d.planes; p++) {
    int pw, ph;
    plane_dims(&d, p, w, h, &pw, &ph);
    size_t row = (size_t)pw * (size_t)d.bytes_per_pixel[p];
    pl[p].pitch = pad > 0 ? row + (size_t)pad : align_up(row);
    pl[p].ptr = B.arena + *off;
    *off += align_up(pl[p].pitch * (size_t)ph);
  }
  if (*off > B.arena_bytes) {
    snprintf(err, n, "arena too small (%zu > %zu bytes)", *off, B.arena_bytes);
    return -1;
  }
  jet_status st = jet_image_wrap(B.ctx, f, w, h, pl, d.planes, JET_IMAGE_MEMORY_DEVICE, out);
  return st == JET_STATUS_OK ? 0 : jet_sample_jet_fail("jet_image_wrap", st, err, n);
}

static void free_sets(int nsets) {
  for (int s = 0; s < nsets; s++) {
    for (int i = 0; i < BENCH_BATCH_MAX; i++) {
      jet_image_destroy(B.io[s].src[i]);
      jet_image_destroy(B.io[s].dst[i]);
    }
    memset(&B.io[s], 0, sizeof B.io[s]);
  }
}

/* Random contents for every source plane of every set. */
static int fill_source(jet_image im, char *err, size_t n) {
  int count = 0;
  jet_format f;
  jet_format_desc d;
  if (jet_image_get_plane_count(im, &count) != JET_STATUS_OK ||
      jet_image_get_format(im, &f) != JET_STATUS_OK || jet_format_info(f, &d) != JET_STATUS_OK)
    return jet_sample_jet_fail("jet_image_get_plane_count", jet_last_error()->status, err, n);
  const void *pool = d.elem == JET_ELEM_F32 ? B.poolf : B.pool8;
  for (int p = 0; p < count; p++) {
    jet_image_plane_info pi;
    if (jet_image_get_plane(im, p, &pi) != JET_STATUS_OK)
      return jet_sample_jet_fail("jet_image_get_plane", jet_last_error()->status, err, n);
    if (pi.row_bytes * (size_t)pi.height > POOL_BYTES) {
      snprintf(err, n, "source plane larger than the random pool");
      return -1;
    }
    cudaError_t e = cudaMemcpy2DAsync(pi.ptr, pi.pitch, pool, pi.row_bytes, pi.row_bytes,
                                      (size_t)pi.height, cudaMemcpyDeviceToDevice, B.jcs);
    if (e != cudaSuccess) return jet_sample_cuda_fail("cudaMemcpy2DAsync (source)", e, err, n);
  }
  return 0;
}

/* An identity-ish map: a sub-pixel shift plus a gentle wave of a few pixels. */
static int fill_maps(const bench_cfg *c, int nsets, char *err, size_t n) {
  size_t pitch = map_pitch(c);
  float *m = malloc(pitch * (size_t)c->dh);
  if (!m) {
    snprintf(err, n, "out of host memory");
    return -1;
  }
  for (int y = 0; y < c->dh; y++) {
    float *row = (float *)((unsigned char *)m + pitch * (size_t)y);
    for (int x = 0; x < c->dw; x++) {
      row[2 * x] = (float)x + 0.37f + 2.0f * sinf((float)y * (1.0f / 211.0f));
      row[2 * x + 1] = (float)y + 0.21f + 2.0f * cosf((float)x * (1.0f / 307.0f));
    }
  }
  cudaError_t e = cudaMemcpy(B.io[0].aux, m, pitch * (size_t)c->dh, cudaMemcpyHostToDevice);
  free(m);
  if (e != cudaSuccess) return jet_sample_cuda_fail("cudaMemcpy (map)", e, err, n);
  for (int s = 1; s < nsets; s++) {
    e = cudaMemcpyAsync(B.io[s].aux, B.io[0].aux, pitch * (size_t)c->dh,
                        cudaMemcpyDeviceToDevice, B.jcs);
    if (e != cudaSuccess) return jet_sample_cuda_fail("cudaMemcpyAsync (map)", e, err, n);
  }
  return 0;
}

static int make_sets(result *r, char *err, size_t n) {
  const bench_cfg *c = &r->c;
  jet_format df = dst_format(c);
  int nsets = r->nsets = sets_for(set_span(c));
  size_t off = 0;
  for (int s = 0; s < nsets; s++) {
    bench_io *io = &B.io[s];
    io->cfg = c;
    io->dst_format = df;
    io->work = B.work;
    io->work_bytes = B.work_bytes;
    for (int i = 0; i < c->count; i++) {
      if (c->src && wrap(c->src, c->w, c->h, c->pad, &off, &io->src[i], err, n)) return -1;
      if (df && wrap(df, c->dw, c->dh, c->pad, &off, &io->dst[i], err, n)) return -1;
    }
    size_t aux = BENCH_AUX_RESULT_BYTES;
    if (c->op == BOP_REMAP) {
      io->aux_pitch = map_pitch(c);
      aux = align_up(io->aux_pitch * (size_t)c->dh);
    }
    io->aux = B.arena + off;
    off += aux;
    if (off > B.arena_bytes) {
      snprintf(err, n, "arena too small (%zu > %zu bytes)", off, B.arena_bytes);
      return -1;
    }
    if (c->op != BOP_REMAP) {
      cudaError_t e = cudaMemsetAsync(io->aux, 0, aux, B.jcs);
      if (e != cudaSuccess) return jet_sample_cuda_fail("cudaMemsetAsync (aux)", e, err, n);
    }
    for (int i = 0; i < c->count && c->src; i++)
      if (fill_source(io->src[i], err, n)) return -1;
  }
  if (c->op == BOP_REMAP && fill_maps(c, nsets, err, n)) return -1;
  r->copy_sets = sets_for(copy_pair(r));
  cudaError_t e = cudaStreamSynchronize(B.jcs);
  return e == cudaSuccess ? 0 : jet_sample_cuda_fail("filling the sets", e, err, n);
}

/* ------------------------------------------------------------------ timing */

enum { IM_JET, IM_COPY, IM_NPP };

typedef struct job {
  result *r;
  bench_jet_fn jf;
  bench_npp_entry ne;
} job;

static int call(job *j, int impl, char *err, size_t n) {
  result *r = j->r;
  if (impl == IM_COPY) {
    size_t half = align_up((size_t)r->copy_bytes);
    unsigned char *a = B.carena + (size_t)(B.rot++ % (unsigned long long)r->copy_sets) * 2 * half;
    cudaError_t e =
        cudaMemcpyAsync(a + half, a, (size_t)r->copy_bytes, cudaMemcpyDeviceToDevice, B.jcs);
    return e == cudaSuccess ? 0 : jet_sample_cuda_fail("cudaMemcpyAsync (copy)", e, err, n);
  }
  const bench_io *io = &B.io[B.rot++ % (unsigned long long)r->nsets];
  if (impl == IM_JET) {
    jet_status st = j->jf(B.js, io);
    if (st != JET_STATUS_OK) return jet_sample_jet_fail(r->key, st, err, n);
  } else {
    int rc = j->ne.fn(io);
    if (rc < 0) {
      snprintf(err, n, "%s: NPP status %d", j->ne.name ? j->ne.name : "NPP", rc);
      return -1;
    }
  }
  return 0;
}

/* @count timed calls in chunks into @t (ms). A chunk the host had not
 * finished queueing when the GPU got through the primer is timed again
 * behind a primer twice as long (up to MAX_PRIMERS memsets, kept for the
 * following chunks of that implementation); only a chunk that stays
 * host-bound then is kept and counted. */
static int timed(job *j, int impl, double *t, int count, char *err, size_t n) {
  cudaStream_t cs = impl == IM_NPP ? B.ncs : B.jcs;
  cudaError_t e;
  for (int done = 0; done < count;) {
    int c = count - done < CHUNK ? count - done : CHUNK;
    for (int k = 0; k < B.primers[impl]; k++)
      if ((e = cudaMemsetAsync(B.primer, (done + k) & 0xff, PRIMER_BYTES, cs)) != cudaSuccess)
        return jet_sample_cuda_fail("primer", e, err, n);
    if ((e = cudaEventRecord(B.primed, cs)) != cudaSuccess ||
        (e = cudaEventRecord(B.ev[0], cs)) != cudaSuccess)
      return jet_sample_cuda_fail("primer", e, err, n);
    for (int i = 0; i < c; i++) {
      if (call(j, impl, err, n)) {
        cudaStreamSynchronize(cs);
        return -1;
      }
      if ((e = cudaEventRecord(B.ev[i + 1], cs)) != cudaSuccess)
        return jet_sample_cuda_fail("cudaEventRecord", e, err, n);
    }
    int late = cudaEventQuery(B.primed) == cudaSuccess;
    (void)cudaGetLastError(); /* cudaErrorNotReady from the query is an answer */
    if ((e = cudaStreamSynchronize(cs)) != cudaSuccess)
      return jet_sample_cuda_fail("cudaStreamSynchronize", e, err, n);
    if (late && B.primers[impl] < MAX_PRIMERS) {
      B.primers[impl] *= 2;
      continue;
    }
    j->r->host_bound += late;
    for (int i = 0; i < c; i++) {
      float ms = 0;
      if ((e = cudaEventElapsedTime(&ms, B.ev[i], B.ev[i + 1])) != cudaSuccess)
        return jet_sample_cuda_fail("cudaEventElapsedTime", e, err, n);
      t[done + i] = ms;
    }
    done += c;
  }
  return 0;
}

static int warm(job *j, int impl, char *err, size_t n) {
  for (int i = 0; i < B.warmup; i++)
    if (call(j, impl, err, n)) return -1;
  cudaError_t e = cudaStreamSynchronize(impl == IM_NPP ? B.ncs : B.jcs);
  return e == cudaSuccess ? 0 : jet_sample_cuda_fail("warm-up", e, err, n);
}

static void measure(result *r) {
  job j = {r, jet_fn(&r->c), {NULL, NULL, NULL}};
  int have_npp = npp_select(&r->c, &j.ne);
  r->npp_state = have_npp ? ST_OK : ST_NONE;
  r->npp_name = have_npp ? j.ne.name : NULL;
  if (!j.jf) {
    not_built(r);
    return;
  }
  r->jet_state = ST_OK;
  int copy_ok = 1;
  char copy_err[160] = "";
  if (make_sets(r, r->jet_err, sizeof r->jet_err)) {
    r->jet_state = ST_ERROR;
    r->npp_state = ST_NONE;
    free_sets(r->nsets);
    cudaDeviceSynchronize();
    (void)cudaGetLastError();
    return;
  }
  if (have_npp && j.ne.prepare && j.ne.prepare(&B.io[0])) {
    r->npp_state = ST_ERROR;
    snprintf(r->npp_err, sizeof r->npp_err, "%s: scratch buffer setup failed", j.ne.name);
  }
  double *t = calloc((size_t)B.runs * 3, sizeof *t);
  double *tj = t, *tc = t ? t + B.runs : NULL, *tn = t ? t + 2 * B.runs : NULL;
  if (!t) {
    snprintf(r->jet_err, sizeof r->jet_err, "out of host memory");
    r->jet_state = ST_ERROR;
  }
  if (r->jet_state == ST_OK && warm(&j, IM_JET, r->jet_err, sizeof r->jet_err))
    r->jet_state = ST_ERROR;
  if (r->jet_state == ST_OK && warm(&j, IM_COPY, copy_err, sizeof copy_err)) copy_ok = 0;
  if (r->npp_state == ST_OK && warm(&j, IM_NPP, r->npp_err, sizeof r->npp_err))
    r->npp_state = ST_ERROR;
  for (int done = 0; done < B.runs && t && r->jet_state == ST_OK && copy_ok; done += CHUNK) {
    int c = B.runs - done < CHUNK ? B.runs - done : CHUNK;
    if (timed(&j, IM_JET, tj + done, c, r->jet_err, sizeof r->jet_err)) r->jet_state = ST_ERROR;
    if (copy_ok && timed(&j, IM_COPY, tc + done, c, copy_err, sizeof copy_err)) copy_ok = 0;
    if (r->npp_state == ST_OK && timed(&j, IM_NPP, tn + done, c, r->npp_err, sizeof r->npp_err))
      r->npp_state = ST_ERROR;
  }
  if (r->jet_state == ST_OK && !copy_ok) {
    r->jet_state = ST_ERROR;
    snprintf(r->jet_err, sizeof r->jet_err, "reference copy failed: %s", copy_err);
  }
  double mn;
  if (r->jet_state == ST_OK) {
    r->jet_ms = median(tj, B.runs, &r->jet_min_ms);
    r->copy_ms = median(tc, B.runs, &mn);
  }
  if (r->npp_state == ST_OK && r->jet_state == ST_OK) r->npp_ms = median(tn, B.runs, &mn);
  if (r->npp_state == ST_OK && r->jet_state != ST_OK) r->npp_state = ST_NONE;
  free(t);
#if JET_BENCH_HAVE_NPP
  if (have_npp && j.ne.prepare) bench_npp_release();
#endif
  cudaDeviceSynchronize();
  (void)cudaGetLastError();
  free_sets(r->nsets);
}

/* ------------------------------------------------------------------ CV-CUDA peer */

typedef struct peer {
  char key[112];
  int ok;
  double cv_ms, copy_ms;
  char err[160];
} peer;
static peer *P;
static int NP;

static const char *json_string_at(const char *p, char *out, size_t n) {
  size_t k = 0;
  if (*p != '"') return NULL;
  for (p++; *p && *p != '"'; p++) {
    if (*p == '\\' && p[1]) p++;
    if (k + 1 < n) out[k++] = *p;
  }
  out[k] = '\0';
  return *p == '"' ? p + 1 : NULL;
}

static int number_after(const char *line, const char *name, double *v) {
  const char *p = strstr(line, name);
  if (!p) return 0;
  p = strchr(p + strlen(name), ':');
  if (!p) return 0;
  char *end;
  *v = strtod(p + 1, &end);
  return end != p + 1;
}

/* Reads the file bench/cvcuda_peer.py writes: one configuration a line,
 * "KEY": {"cv_ms": X, "copy_ms": Y, ...} or "KEY": {"error": "..."}. */
static int load_peer(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[2048];
  int in_results = 0;
  while (fgets(line, sizeof line, f)) {
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (strncmp(p, "\"cvcuda_version\"", 16) == 0) {
      const char *q = strchr(p + 16, '"');
      if (q) json_string_at(q, B.peer_version, sizeof B.peer_version);
      continue;
    }
    if (strncmp(p, "\"results\"", 9) == 0) {
      in_results = 1;
      continue;
    }
    if (!in_results || *p != '"') continue;
    peer e;
    memset(&e, 0, sizeof e);
    const char *rest = json_string_at(p, e.key, sizeof e.key);
    if (!rest) continue;
    const char *ep = strstr(rest, "\"error\"");
    if (ep) {
      const char *q = strchr(ep + 7, '"');
      if (q) json_string_at(q, e.err, sizeof e.err);
    } else if (number_after(rest, "\"cv_ms\"", &e.cv_ms) &&
               number_after(rest, "\"copy_ms\"", &e.copy_ms) && e.cv_ms > 0 && e.copy_ms > 0) {
      e.ok = 1;
    } else {
      snprintf(e.err, sizeof e.err, "unreadable entry");
    }
    peer *np = realloc(P, (size_t)(NP + 1) * sizeof *P);
    if (!np) break;
    P = np;
    P[NP++] = e;
  }
  fclose(f);
  return 0;
}

static void apply_peer(result *r) {
  r->cv_state = ST_NONE;
  for (int i = 0; i < NP; i++) {
    if (strcmp(P[i].key, r->key) != 0) continue;
    if (!P[i].ok) {
      snprintf(r->cv_err, sizeof r->cv_err, "%s", P[i].err);
      return; /* CV-CUDA lacks or refused it: no comparison */
    }
    r->cv_state = ST_OK;
    r->cv_ms = P[i].cv_ms;
    r->cv_copy_ms = P[i].copy_ms;
    return;
  }
}

/* ------------------------------------------------------------------ evaluation */

static void evaluate(result *r) {
  r->met_copy = r->met_npp = r->met_cv = 1;
  r->met = 0;
  if (r->jet_state != ST_OK) return;
  r->ratio = r->copy_ms > 0 ? r->jet_ms / r->copy_ms : 0;
  double tgt = TC_TARGET[r->tclass];
  r->met_copy = tgt == 0 || r->ratio <= tgt;
  if (r->npp_state == ST_OK) {
    r->npp_ratio = r->npp_ms / r->jet_ms;
    r->met_npp = r->npp_ratio >= 1.0;
  }
  if (r->cv_state == ST_OK && r->copy_ms > 0) {
    r->cv_raw = r->cv_ms / r->jet_ms;
    r->cv_norm = (r->cv_ms / r->cv_copy_ms) / (r->jet_ms / r->copy_ms);
    r->met_cv = r->cv_norm >= 1.0;
  }
  r->met = r->met_copy && r->met_npp && r->met_cv;
}

static void print_row(const result *r) {
  char npp[16] = "-", cv[16] = "-";
  if (r->npp_state == ST_OK) snprintf(npp, sizeof npp, "%.2fx", r->npp_ratio);
  if (r->npp_state == ST_ERROR) snprintf(npp, sizeof npp, "ERR");
  if (r->cv_state == ST_OK) snprintf(cv, sizeof cv, "%.2fx", r->cv_norm);
  if (r->jet_state == ST_OK)
    printf("  %-52s %9.1f %9.1f %6.2f%s %7s %7s %s\n", r->key, r->jet_ms * 1e3, r->copy_ms * 1e3,
           r->ratio, r->host_bound ? "!" : " ", npp, cv, r->met ? "yes" : "NO");
  else
    printf("  %-52s %s\n", r->key, r->jet_state == ST_NOT_BUILT ? "not built" : "ERROR");
  if (r->jet_state == ST_ERROR) printf("    jetrt: %s\n", r->jet_err);
  if (r->npp_state == ST_ERROR) printf("    npp: %s\n", r->npp_err);
}

static const char *state_name(int s) {
  static const char *const n[] = {"ok", "not built", "error", "none"};
  return n[s];
}

/* The configuration's parameters as JSON members (shared by both files). */
static void json_cfg(FILE *f, const result *r) {
  const bench_cfg *c = &r->c;
  fprintf(f, "\"key\": ");
  jet_sample_json_str(f, r->key);
  fprintf(f, ", \"op\": \"%s\", \"table_op\": ", OP_KEY[c->op]);
  jet_sample_json_str(f, r->op_name);
  fprintf(f, ", \"src\": \"%s\", \"dst\": \"%s\"", fmt_name(c->src, 0), fmt_name(c->dst, c->f16));
  fprintf(f, ", \"width\": %d, \"height\": %d, \"dst_width\": %d, \"dst_height\": %d", c->w, c->h,
          c->dw, c->dh);
  if (c->op == BOP_RESIZE || c->op == BOP_RESIZE_BATCH)
    fprintf(f, ", \"interp\": \"%s\", \"scale\": \"%d/%d\"", interp_name(c->interp), c->scale_num,
            c->scale_den);
  if (c->op == BOP_BOX || c->op == BOP_GAUSS) fprintf(f, ", \"ksize\": %d", c->ksize);
  if (c->op == BOP_BOX || c->op == BOP_GAUSS || c->op == BOP_REMAP)
    fprintf(f, ", \"border\": \"%s\"", border_name(c->border));
  if (c->op == BOP_FLIP) fprintf(f, ", \"flip\": \"%s\"", flip_name(c->flip));
  if (c->op == BOP_ROTATE) fprintf(f, ", \"rotation\": %d", c->rotation);
  if (c->op == BOP_DNN || c->op == BOP_DNN_BATCH)
    fprintf(f, ", \"letterbox\": %d, \"dtype\": \"%s\"", c->letterbox, c->f16 ? "f16" : "f32");
  if (c->op == BOP_REDUCE) fprintf(f, ", \"variant\": \"%s\"", c->variant ? "minmax" : "sum");
  if (c->op == BOP_MEMCPY2D || c->op == BOP_MEMSET2D) fprintf(f, ", \"pad\": %d", c->pad);
  fprintf(f, ", \"count\": %d, \"class\": \"%s\", \"target\": %.2f", c->count, TC_NAME[r->tclass],
          TC_TARGET[r->tclass]);
  fprintf(f, ", \"bytes\": %.0f, \"copy_bytes\": %.0f", r->bytes, r->copy_bytes);
}

static int write_config_list(const char *path, int n) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "{\n  \"program\": \"jet-bench-image\",\n  \"version\": 1,\n");
  fprintf(f, "  \"runs\": %d,\n  \"warmup\": %d,\n  \"rotation_min_bytes\": %zu,\n", B.runs,
          B.warmup, (size_t)ROTATION_BYTES);
  fprintf(f, "  \"configs\": [\n");
  for (int i = 0; i < n; i++) {
    fprintf(f, "    {");
    json_cfg(f, &R[i]);
    fprintf(f, ", \"jetrt_built\": %s}%s\n", jet_fn(&R[i].c) ? "true" : "false",
            i + 1 < n ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  return fclose(f) == 0 ? 0 : -1;
}

static int write_json(const char *path, const jet_platform_info *info, int n,
                      const char *peer_path, const char *summary) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "{\n  \"program\": \"jet-bench-image\",\n  \"device\": ");
  jet_sample_json_str(f, info->name);
  fprintf(f, ",\n  \"sm\": \"%d.%d\",\n  \"driver_version\": %d,\n  \"runtime_version\": %d,\n",
          info->cc_major, info->cc_minor, info->driver_version, info->runtime_version);
  fprintf(f, "  \"npp\": %s,\n  \"npp_version\": ", B.npp ? "true" : "false");
  jet_sample_json_str(f, B.npp ? B.npp_version : "");
  fprintf(f, ",\n  \"cvcuda_peer\": ");
  jet_sample_json_str(f, peer_path ? peer_path : "");
  fprintf(f, ",\n  \"cvcuda_version\": ");
  jet_sample_json_str(f, B.peer_version);
  fprintf(f, ",\n  \"runs\": %d,\n  \"warmup\": %d,\n  \"rotation_min_bytes\": %zu,\n", B.runs,
          B.warmup, (size_t)ROTATION_BYTES);
  fprintf(f, "  \"targets\": {\"streaming\": %.2f, \"filter/reduce\": %.2f, \"memory\": %.2f, "
             "\"npp_min\": 1.0, \"cvcuda_min\": 1.0},\n",
          TC_TARGET[TC_STREAM], TC_TARGET[TC_FILTER], TC_TARGET[TC_MEM]);
  fprintf(f, "  \"results\": [\n");
  for (int i = 0; i < n; i++) {
    const result *r = &R[i];
    fprintf(f, "    {");
    json_cfg(f, r);
    fprintf(f, ", \"sets\": %d, \"copy_sets\": %d, \"jetrt\": ", r->nsets, r->copy_sets);
    jet_sample_json_str(f, state_name(r->jet_state));
    if (r->jet_state == ST_OK)
      fprintf(f,
              ", \"jetrt_ms\": %.6f, \"jetrt_min_ms\": %.6f, \"copy_ms\": %.6f, \"ratio\": %.4f, "
              "\"gbs\": %.2f",
              r->jet_ms, r->jet_min_ms, r->copy_ms, r->ratio, r->bytes / (r->jet_ms * 1e6));
    else {
      fprintf(f, ", \"jetrt_error\": ");
      jet_sample_json_str(f, r->jet_err);
    }
    fprintf(f, ", \"npp\": ");
    jet_sample_json_str(f, state_name(r->npp_state));
    if (r->npp_name) {
      fprintf(f, ", \"npp_function\": ");
      jet_sample_json_str(f, r->npp_name);
    }
    if (r->npp_state == ST_OK)
      fprintf(f, ", \"npp_ms\": %.6f, \"npp_ratio\": %.4f", r->npp_ms, r->npp_ratio);
    else if (r->npp_state == ST_ERROR) {
      fprintf(f, ", \"npp_error\": ");
      jet_sample_json_str(f, r->npp_err);
    }
    fprintf(f, ", \"cvcuda\": ");
    jet_sample_json_str(f, state_name(r->cv_state));
    if (r->cv_state == ST_OK)
      fprintf(f, ", \"cvcuda_ms\": %.6f, \"cvcuda_copy_ms\": %.6f", r->cv_ms, r->cv_copy_ms);
    if (r->cv_state == ST_OK && r->jet_state == ST_OK)
      fprintf(f, ", \"cvcuda_ratio\": %.4f, \"cvcuda_raw_ratio\": %.4f", r->cv_norm, r->cv_raw);
    else if (r->cv_err[0]) {
      fprintf(f, ", \"cvcuda_note\": ");
      jet_sample_json_str(f, r->cv_err);
    }
    fprintf(f, ", \"host_bound_chunks\": %d, \"met\": %s}%s\n", r->host_bound,
            r->jet_state == ST_OK && r->met ? "true" : "false", i + 1 < n ? "," : "");
  }
  fprintf(f, "  ],\n  \"summary\": ");
  jet_sample_json_str(f, summary);
  fprintf(f, "\n}\n");
  return fclose(f) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------------ report */

/* Worst configuration per table operation, in the order they first appear. */
static void print_table(int n) {
  char seen[64][24];
  int ns = 0;
  printf("\n%-14s %-44s %9s %9s %7s %6s %8s %8s %s\n", "op", "worst config (vs copy)", "jet us",
         "copy us", "ratio", "target", "NPP min", "CV min", "met");
  for (int i = 0; i < n; i++) {
    int dup = 0;
    for (int k = 0; k < ns; k++) dup |= strcmp(seen[k], R[i].op_name) == 0;
    if (dup || ns == 64) continue;
    snprintf(seen[ns++], sizeof seen[0], "%s", R[i].op_name);
    const result *w = NULL;
    int total = 0, met = 0, errors = 0, not_built = 0;
    double npp_min = 0, cv_min = 0;
    for (int k = i; k < n; k++) {
      const result *r = &R[k];
      if (strcmp(r->op_name, R[i].op_name) != 0) continue;
      total++;
      errors += r->jet_state == ST_ERROR;
      not_built += r->jet_state == ST_NOT_BUILT;
      if (r->jet_state != ST_OK) continue;
      met += r->met;
      if (!w || r->ratio > w->ratio) w = r;
      if (r->npp_state == ST_OK && (npp_min == 0 || r->npp_ratio < npp_min)) npp_min = r->npp_ratio;
      if (r->cv_state == ST_OK && (cv_min == 0 || r->cv_norm < cv_min)) cv_min = r->cv_norm;
    }
    char tgt[16], nppb[16] = "-", cvb[16] = "-", metb[32];
    double t = TC_TARGET[R[i].tclass];
    if (t > 0)
      snprintf(tgt, sizeof tgt, "%.2f", t);
    else
      snprintf(tgt, sizeof tgt, "-");
    if (npp_min > 0) snprintf(nppb, sizeof nppb, "%.2fx", npp_min);
    if (cv_min > 0) snprintf(cvb, sizeof cvb, "%.2fx", cv_min);
    snprintf(metb, sizeof metb, "%s %d/%d", met == total ? "yes" : "NO", met, total);
    if (!w) {
      printf("%-14s %-44s %s\n", R[i].op_name, "-",
             not_built ? "not built" : errors ? "ERROR" : "-");
      continue;
    }
    /* the key without the operation's own name */
    const char *cfg = strchr(w->key, ' ');
    printf("%-14s %-44.44s %9.1f %9.1f %6.2f%s %6s %8s %8s %s%s\n", w->op_name, cfg ? cfg + 1 : w->key,
           w->jet_ms * 1e3, w->copy_ms * 1e3, w->ratio, w->host_bound ? "!" : " ", tgt, nppb, cvb,
           metb, errors ? " (errors)" : "");
  }
}

static void print_size_summaries(int n) {
  printf("\nper size: configs ok/total; met all targets; worst ratio to copy per class; NPP/CV-CUDA "
         "lowest ratios\n");
  for (int s = 0; s < NSIZES; s++) {
    int total = 0, ok = 0, met = 0;
    const result *worst[TC_COUNT_] = {NULL};
    double npp_min = 0, cv_min = 0;
    for (int i = 0; i < n; i++) {
      const result *r = &R[i];
      if (r->size_index != s) continue;
      total++;
      if (r->jet_state != ST_OK) continue;
      ok++;
      met += r->met;
      if (!worst[r->tclass] || r->ratio > worst[r->tclass]->ratio) worst[r->tclass] = r;
      if (r->npp_state == ST_OK && (npp_min == 0 || r->npp_ratio < npp_min)) npp_min = r->npp_ratio;
      if (r->cv_state == ST_OK && (cv_min == 0 || r->cv_norm < cv_min)) cv_min = r->cv_norm;
    }
    if (!total) continue;
    printf("  %-9s %d/%d ok, %d met", SIZES[s].name, ok, total, met);
    for (int c = 0; c < TC_COUNT_; c++)
      if (worst[c]) printf("; %s %.2f", TC_NAME[c], worst[c]->ratio);
    printf("; NPP min %.2fx; CV-CUDA min ", npp_min);
    if (cv_min > 0)
      printf("%.2fx\n", cv_min);
    else
      printf("-\n");
    for (int c = 0; c < TC_COUNT_; c++)
      if (worst[c]) printf("      worst %-13s %s\n", TC_NAME[c], worst[c]->key);
  }
}

/* The configurations that miss a target, worst first (at most @max). */
static void print_misses(int n, int max) {
  int shown = 0, total = 0;
  for (int i = 0; i < n; i++) total += R[i].jet_state == ST_OK && !R[i].met;
  if (!total) return;
  printf("\n%d configurations miss a target; the worst %d (by ratio / target, then NPP, CV):\n",
         total, total < max ? total : max);
  unsigned char *done = calloc((size_t)n, 1);
  if (!done) return;
  while (shown < max && shown < total) {
    int best = -1;
    double bv = -1;
    for (int i = 0; i < n; i++) {
      const result *r = &R[i];
      if (done[i] || r->jet_state != ST_OK || r->met) continue;
      double t = TC_TARGET[r->tclass];
      double v = !r->met_copy ? r->ratio / t : 0;
      if (!r->met_npp && 1.0 / r->npp_ratio > v) v = 1.0 / r->npp_ratio;
      if (!r->met_cv && 1.0 / r->cv_norm > v) v = 1.0 / r->cv_norm;
      if (v > bv) {
        bv = v;
        best = i;
      }
    }
    if (best < 0) break;
    done[best] = 1;
    print_row(&R[best]);
    shown++;
  }
  free(done);
}

static void make_summary(int n, double secs, char *out, size_t cap) {
  int ok = 0, met = 0, errors = 0, not_built = 0, tcount[TC_COUNT_] = {0}, tmet[TC_COUNT_] = {0};
  int npp_n = 0, npp_ok = 0, cv_n = 0, cv_ok = 0;
  const result *worst[TC_COUNT_] = {NULL}, *npp_w = NULL, *cv_w = NULL;
  char ops[64][24];
  int nops = 0;
  for (int i = 0; i < n; i++) {
    const result *r = &R[i];
    int dup = 0;
    for (int k = 0; k < nops; k++) dup |= strcmp(ops[k], r->op_name) == 0;
    if (!dup && nops < 64) snprintf(ops[nops++], sizeof ops[0], "%s", r->op_name);
    errors += r->jet_state == ST_ERROR;
    not_built += r->jet_state == ST_NOT_BUILT;
    if (r->jet_state != ST_OK) continue;
    ok++;
    met += r->met;
    tcount[r->tclass]++;
    tmet[r->tclass] += r->met_copy;
    if (!worst[r->tclass] || r->ratio > worst[r->tclass]->ratio) worst[r->tclass] = r;
    if (r->npp_state == ST_OK) {
      npp_n++;
      npp_ok += r->met_npp;
      if (!npp_w || r->npp_ratio < npp_w->npp_ratio) npp_w = r;
    }
    if (r->cv_state == ST_OK) {
      cv_n++;
      cv_ok += r->met_cv;
      if (!cv_w || r->cv_norm < cv_w->cv_norm) cv_w = r;
    }
  }
  size_t l = (size_t)snprintf(out, cap, "summary: %d ops, %d configs (%d ran), %d meet all targets",
                              nops, n, ok, met);
  for (int c = 0; c < TC_COUNT_ && l < cap; c++) {
    if (!worst[c]) continue;
    if (TC_TARGET[c] > 0)
      l += (size_t)snprintf(out + l, cap - l, "; %s <=%.2fx copy %d/%d, worst %.2f (%s)", TC_NAME[c],
                            TC_TARGET[c], tmet[c], tcount[c], worst[c]->ratio, worst[c]->key);
    else
      l += (size_t)snprintf(out + l, cap - l, "; %s worst %.2f (%s)", TC_NAME[c], worst[c]->ratio,
                            worst[c]->key);
  }
  if (l < cap) {
    if (npp_w)
      l += (size_t)snprintf(out + l, cap - l, "; NPP not slower %d/%d, lowest %.2fx (%s)", npp_ok,
                            npp_n, npp_w->npp_ratio, npp_w->key);
    else
      l += (size_t)snprintf(out + l, cap - l, "; NPP: no comparisons");
  }
  if (l < cap) {
    if (cv_w)
      l += (size_t)snprintf(out + l, cap - l, "; CV-CUDA not slower %d/%d, lowest %.2fx (%s)", cv_ok,
                            cv_n, cv_w->cv_norm, cv_w->key);
    else
      l += (size_t)snprintf(out + l, cap - l, "; CV-CUDA: no comparisons");
  }
  if (l < cap)
    snprintf(out + l, cap - l, "; %d not built; %d errors; %.1f s", not_built, errors, secs);
}

/* ------------------------------------------------------------------ main */

static int usage(void) {
  fprintf(stderr,
          "usage: jet-bench-image [--json PATH] [--quick] [--runs N] [--warmup N]\n"
          "         [--only SUBSTR[,SUBSTR...]] [--size 720p,1080p,1440p,4k|all]\n"
          "         [--no-npp] [--peer FILE] [--list-configs FILE] [--verbose] [--dry-run]\n");
  return 1;
}

/* Comma-separated sizes into a bit mask; 0 for anything unknown. */
static int parse_sizes(const char *v) {
  int mask = 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", v);
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    int hit = 0;
    if (strcmp(t, "all") == 0) {
      mask |= (1 << NSIZES) - 1;
      continue;
    }
    for (int s = 0; s < NSIZES; s++)
      if (strcmp(t, SIZES[s].tag) == 0 || strcmp(t, SIZES[s].name) == 0) {
        mask |= 1 << s;
        hit = 1;
      }
    if (!hit) return 0;
  }
  return mask;
}

static int matches(const char *key, const char *only) {
  if (!only) return 1;
  char buf[512];
  snprintf(buf, sizeof buf, "%s", only);
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
    if (strstr(key, t)) return 1;
  return 0;
}

static int setup_device(char *err, size_t n) {
  jet_status st;
  if ((st = jet_context_default_stream(B.ctx, JET_STREAM_PER_THREAD, &B.js)) != JET_STATUS_OK)
    return jet_sample_jet_fail("jet_context_default_stream", st, err, n);
  B.jcs = cudaStreamPerThread;
  cudaError_t e;
  if ((e = cudaStreamCreateWithFlags(&B.ncs, cudaStreamNonBlocking)) != cudaSuccess ||
      (e = cudaEventCreate(&B.primed)) != cudaSuccess)
    return jet_sample_cuda_fail("stream/event", e, err, n);
  for (int i = 0; i <= CHUNK; i++)
    if ((e = cudaEventCreate(&B.ev[i])) != cudaSuccess) return jet_sample_cuda_fail("cudaEventCreate", e, err, n);
  if ((e = cudaMalloc(&B.primer, PRIMER_BYTES)) != cudaSuccess ||
      (e = cudaMalloc((void **)&B.arena, B.arena_bytes)) != cudaSuccess ||
      (e = cudaMalloc((void **)&B.carena, B.carena_bytes)) != cudaSuccess ||
      (e = cudaMalloc(&B.pool8, POOL_BYTES)) != cudaSuccess ||
      (e = cudaMalloc(&B.poolf, POOL_BYTES)) != cudaSuccess)
    return jet_sample_cuda_fail("cudaMalloc", e, err, n);
  if ((e = cudaMemset(B.arena, 0, B.arena_bytes)) != cudaSuccess ||
      (e = cudaMemset(B.carena, 0x5a, B.carena_bytes)) != cudaSuccess)
    return jet_sample_cuda_fail("cudaMemset", e, err, n);
  /* the random pools, filled from the host once */
  unsigned char *h8 = malloc(POOL_BYTES);
  float *hf = malloc(POOL_BYTES);
  if (!h8 || !hf) {
    free(h8);
    free(hf);
    snprintf(err, n, "out of host memory");
    return -1;
  }
  unsigned x = 0x9e3779b9u;
  for (size_t i = 0; i < POOL_BYTES / 4; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    memcpy(h8 + 4 * i, &x, 4);
    hf[i] = (float)(x >> 8) / 16777216.0f;
  }
  e = cudaMemcpy(B.pool8, h8, POOL_BYTES, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(B.poolf, hf, POOL_BYTES, cudaMemcpyHostToDevice);
  free(h8);
  free(hf);
  if (e != cudaSuccess) return jet_sample_cuda_fail("cudaMemcpy (pools)", e, err, n);
#if JET_BENCH_HAVE_REDUCE
  if ((st = bench_reduce_work_size(B.ctx, &B.work_bytes)) != JET_STATUS_OK)
    return jet_sample_jet_fail("jet_reduce_work_size", st, err, n);
  if ((e = cudaMalloc(&B.work, B.work_bytes)) != cudaSuccess ||
      (e = cudaMemset(B.work, 0, B.work_bytes)) != cudaSuccess)
    return jet_sample_cuda_fail("reduction work memory", e, err, n);
#endif
  return 0;
}

static void teardown(void) {
  cudaFree(B.primer);
  cudaFree(B.arena);
  cudaFree(B.carena);
  cudaFree(B.pool8);
  cudaFree(B.poolf);
  if (B.work) cudaFree(B.work);
  for (int i = 0; i <= CHUNK; i++)
    if (B.ev[i]) cudaEventDestroy(B.ev[i]);
  if (B.primed) cudaEventDestroy(B.primed);
  if (B.ncs) cudaStreamDestroy(B.ncs);
  jet_context_destroy(B.ctx);
}

/* --dry-run: invented times (jetrt at 2.2 TB/s plus a per-configuration
 * wobble, the copy at 2.6 TB/s, NPP 0.8x..2.6x jetrt), nothing measured. */
static int dry(int n, const char *json, const char *peer_path, int no_npp, double t_start) {
  jet_platform_info info;
  memset(&info, 0, sizeof info);
  snprintf(info.name, sizeof info.name, "dry run (no GPU; invented times)");
  B.npp = JET_BENCH_HAVE_NPP && !no_npp;
  snprintf(B.npp_version, sizeof B.npp_version, "dry run");
  for (int i = 0; i < n; i++) {
    result *r = &R[i];
    bench_npp_entry e;
    unsigned hsh = 2166136261u;
    for (const char *k = r->key; *k; k++) hsh = (hsh ^ (unsigned char)*k) * 16777619u;
    r->jet_state = ST_OK;
    if (!jet_fn(&r->c)) not_built(r);
    r->nsets = sets_for(set_span(&r->c));
    r->copy_sets = sets_for(copy_pair(r));
    r->copy_ms = 2e-3 + r->bytes / 2.6e9;
    r->jet_ms = (3e-3 + r->bytes / 2.2e9) * (1.0 + (double)(hsh % 40) / 100.0);
    r->jet_min_ms = r->jet_ms;
    r->npp_state = r->jet_state == ST_OK && npp_select(&r->c, &e) ? ST_OK : ST_NONE;
    r->npp_name = r->npp_state == ST_OK ? e.name : NULL;
    r->npp_ms = r->jet_ms * (0.8 + (double)(hsh / 40 % 180) / 100.0);
    apply_peer(r);
    evaluate(r);
    if (B.verbose) print_row(r);
  }
  print_table(n);
  print_size_summaries(n);
  print_misses(n, 10);
  char summary[4096];
  make_summary(n, jet_sample_now() - t_start, summary, sizeof summary);
  int rc = 0;
  if (json && write_json(json, &info, n, peer_path, summary)) {
    fprintf(stderr, "jet-bench-image: could not write %s\n", json);
    rc = 1;
  } else if (json) {
    printf("json: %s\n", json);
  }
  free(R);
  free(P);
  printf("%s\n", summary);
  return rc;
}

int main(int argc, char **argv) {
  const char *json = NULL, *only = NULL, *peer_path = NULL, *list_path = NULL;
  int sizes = (1 << NSIZES) - 1, no_npp = 0, dry_run = 0;
  B.runs = 21;
  B.warmup = 3;
  B.primers[0] = B.primers[1] = 1;
  B.primers[2] = 2; /* NPP's calls take longer to queue */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--json") == 0 && v) {
      json = v;
      i++;
    } else if (strcmp(a, "--quick") == 0) {
      B.runs = 7;
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
      if (!(sizes = parse_sizes(v))) return usage();
      i++;
    } else if (strcmp(a, "--peer") == 0 && v) {
      peer_path = v;
      i++;
    } else if (strcmp(a, "--list-configs") == 0 && v) {
      list_path = v;
      i++;
    } else if (strcmp(a, "--no-npp") == 0) {
      no_npp = 1;
    } else if (strcmp(a, "--verbose") == 0) {
      B.verbose = 1;
    } else if (strcmp(a, "--dry-run") == 0) {
      dry_run = 1;
    } else {
      return usage();
    }
  }
  if (B.runs < 1 || B.runs > 100000 || B.warmup < 0 || B.warmup > 1000) return usage();

  /* the sweep: every configuration of the chosen sizes that --only keeps */
  for (int s = 0; s < NSIZES; s++)
    if (sizes & (1 << s)) gen_size(s);
  int n = 0;
  for (int i = 0; i < NR; i++)
    if (matches(R[i].key, only)) R[n++] = R[i];
  NR = n;
  if (list_path) {
    if (write_config_list(list_path, n)) {
      fprintf(stderr, "jet-bench-image: could not write %s\n", list_path);
      return 1;
    }
    printf("%d configurations written to %s\n", n, list_path);
    free(R);
    return 0;
  }
  if (!n) {
    fprintf(stderr, "jet-bench-image: no configuration matches --only %s\n", only ? only : "");
    return 1;
  }
  if (peer_path && load_peer(peer_path)) {
    fprintf(stderr, "jet-bench-image: cannot read the peer file %s\n", peer_path);
    return 1;
  }
  if (peer_path) {
    int timed_n = 0;
    for (int i = 0; i < NP; i++) timed_n += P[i].ok;
    printf("CV-CUDA peer %s: %d entries, %d with times\n", peer_path, NP, timed_n);
  }
  char json_path[1100];
  if (json)
    snprintf(json_path, sizeof json_path, "%s", json);
  else
    jet_sample_default_json_path("jet-bench-image.json", json_path, sizeof json_path);

  double t_start = jet_sample_now();
  if (dry_run) return dry(n, json, peer_path, no_npp, t_start);
  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "jet-bench-image: no CUDA device: %s\n", jet_last_error_string());
    free(R);
    return 2;
  }
  for (int i = 0; i < n; i++) {
    if (!jet_fn(&R[i].c)) continue;
    size_t a = (size_t)sets_for(set_span(&R[i].c)) * set_span(&R[i].c);
    size_t c = (size_t)sets_for(copy_pair(&R[i])) * copy_pair(&R[i]);
    if (a > B.arena_bytes) B.arena_bytes = a;
    if (c > B.carena_bytes) B.carena_bytes = c;
  }
  if (!B.arena_bytes) B.arena_bytes = ALIGN; /* every configuration not built */
  if (!B.carena_bytes) B.carena_bytes = ALIGN;
  jet_platform_info info;
  jet_status st;
  char err[300];
  if ((st = jet_context_create(&B.ctx, NULL)) != JET_STATUS_OK ||
      (st = jet_context_platform(B.ctx, &info)) != JET_STATUS_OK) {
    fprintf(stderr, "jet-bench-image: setup: %s\n", jet_last_error_string());
    return 1;
  }
  if (setup_device(err, sizeof err)) {
    fprintf(stderr, "jet-bench-image: setup: %s\n", err);
    teardown();
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
  printf("NPP: %s%s\n",
         B.npp ? B.npp_version
               : (JET_BENCH_HAVE_NPP ? "built in, disabled (--no-npp or setup failed)"
                                     : "not built in (not found at configure time)"),
         B.npp && !JET_BENCH_HAVE_NPP_NEW ? " (without the newer entry points)" : "");
  printf("CV-CUDA: %s%s%s (%d entries)\n", peer_path ? peer_path : "no peer file (--peer)",
         B.peer_version[0] ? ", version " : "", B.peer_version, NP);
  printf("jetrt groups built in: color %d, resize %d, dnn %d, filter %d, remap %d, geometry %d, "
         "reduce %d, color_batch %d, resize_batch %d, dnn_batch %d, dnn_f16 %d\n",
         JET_BENCH_HAVE_COLOR, JET_BENCH_HAVE_RESIZE, JET_BENCH_HAVE_DNN, JET_BENCH_HAVE_FILTER,
         JET_BENCH_HAVE_REMAP, JET_BENCH_HAVE_GEOMETRY, JET_BENCH_HAVE_REDUCE,
         JET_BENCH_HAVE_COLOR_BATCH, JET_BENCH_HAVE_RESIZE_BATCH, JET_BENCH_HAVE_DNN_BATCH,
         JET_BENCH_HAVE_DNN_F16);
  printf("method: %d configurations; median of %d runs after %d warm-up, CUDA events per call, "
         "sets rotated over >= %zu MiB (arena %zu MiB, copy arena %zu MiB); ratio = jetrt / "
         "same-bytes cudaMemcpyAsync D2D\n",
         n, B.runs, B.warmup, (size_t)ROTATION_BYTES >> 20, B.arena_bytes >> 20,
         B.carena_bytes >> 20);
  if (B.verbose)
    printf("\n  %-52s %9s %9s %7s %7s %7s %s\n", "config", "jet us", "copy us", "ratio", "NPP/jet",
           "CV", "met");

  int failed = 0, host_bound = 0, last_op = -1;
  for (int i = 0; i < n; i++) {
    result *r = &R[i];
    if (!B.verbose && r->c.op != last_op) {
      printf("  %s ...\n", OP_KEY[r->c.op]);
      fflush(stdout);
    }
    last_op = r->c.op;
    measure(r);
    apply_peer(r);
    evaluate(r);
    if (B.verbose || r->jet_state == ST_ERROR) print_row(r);
    fflush(stdout);
    failed += r->jet_state == ST_ERROR;
    host_bound += r->host_bound > 0;
  }

  print_table(n);
  print_size_summaries(n);
  print_misses(n, 30);
  printf("\nratio: jetrt median / median of a cudaMemcpyAsync D2D of (minimal bytes read + "
         "written) / 2 (bench-image.c's header); NPP min: lowest NPP time / jetrt time of the "
         "op; CV min: lowest (cv / cv copy) / (jetrt / copy); '!' the host fell behind\n");
  if (host_bound)
    printf("note: in %d configurations the host queued some chunks slower than the GPU ran them\n",
           host_bound);
  char summary[4096];
  make_summary(n, jet_sample_now() - t_start, summary, sizeof summary);
  if (write_json(json_path, &info, n, peer_path, summary))
    fprintf(stderr, "jet-bench-image: could not write %s\n", json_path);
  else
    printf("json: %s\n", json_path);
  teardown();
  free(R);
  free(P);
  printf("%s\n", summary);
  return failed ? 1 : 0;
}

/*
 * bench-npp.c - NPP's equivalents of the benchmarked configurations, on the
 * same buffers. Built only where CMake found NPP. CUDA 13's NPP has only the
 * _Ctx entry points and no nppGetStreamContext, so the stream context is
 * filled here from device attributes.
 *
 * Equivalents: colour conversions NPP has for the pair (its own matrices;
 * the same traffic); resize C1/C3/C4 8-bit and float (nearest, linear,
 * super-sampling for area); FilterBoxBorder and FilterGaussBorder (Gauss up
 * to 15x15) with the border mapped (replicate, mirror = reflect-101,
 * constant); Mirror for flips and the 180 degree rotation; Transpose; Sum and
 * MinMax; HistogramEven; Copy and Set for the 2D copy and fill. A border mode
 * or size NPP refuses is reported as an NPP error, not a jetrt failure.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <nppi_color_conversion.h>
#include <nppi_data_exchange_and_initialization.h>
#include <nppi_filtering_functions.h>
#include <nppi_geometry_transforms.h>
#include <nppi_statistics_functions.h>

#include "bench-npp.h"

NppStreamContext bench_npp_ctx;
static void *g_scratch;
static size_t g_scratch_bytes;

int bench_npp_init(void *stream, char *version, size_t n) {
  int dev = 0, v = 0;
  NppStreamContext *c = &bench_npp_ctx;
  memset(c, 0, sizeof *c);
  if (cudaGetDevice(&dev) != cudaSuccess) return -1;
  c->hStream = (cudaStream_t)stream;
  c->nCudaDeviceId = dev;
  if (cudaDeviceGetAttribute(&c->nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev) ||
      cudaDeviceGetAttribute(&c->nMaxThreadsPerMultiProcessor,
                             cudaDevAttrMaxThreadsPerMultiProcessor, dev) ||
      cudaDeviceGetAttribute(&c->nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev) ||
      cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, dev) ||
      cudaDeviceGetAttribute(&c->nCudaDevAttrComputeCapabilityMajor,
                             cudaDevAttrComputeCapabilityMajor, dev) ||
      cudaDeviceGetAttribute(&c->nCudaDevAttrComputeCapabilityMinor,
                             cudaDevAttrComputeCapabilityMinor, dev))
    return -1;
  c->nSharedMemPerBlock = (size_t)v;
  if (cudaStreamGetFlags(c->hStream, &c->nStreamFlags) != cudaSuccess) return -1;
  const NppLibraryVersion *lv = nppGetLibVersion();
  if (lv)
    snprintf(version, n, "%d.%d.%d", lv->major, lv->minor, lv->build);
  else
    snprintf(version, n, "unknown");
  return 0;
}

void bench_npp_release(void) {
  if (g_scratch) cudaFree(g_scratch);
  g_scratch = NULL;
  g_scratch_bytes = 0;
}

static int scratch(size_t bytes) {
  if (bytes <= g_scratch_bytes) return 0;
  bench_npp_release();
  if (cudaMalloc(&g_scratch, bytes ? bytes : 1) != cudaSuccess) {
    g_scratch = NULL;
    return -1;
  }
  g_scratch_bytes = bytes;
  return 0;
}

int bench_npp_planes(const bench_io *io, bench_planes *p) {
  memset(p, 0, sizeof *p);
  int n = 0;
  if (io->src[0]) {
    if (jet_image_get_plane_count(io->src[0], &n) != JET_STATUS_OK) return -1;
    for (int i = 0; i < n; i++)
      if (jet_image_get_plane(io->src[0], i, &p->s[i]) != JET_STATUS_OK) return -1;
  }
  if (io->dst[0]) {
    if (jet_image_get_plane_count(io->dst[0], &n) != JET_STATUS_OK) return -1;
    for (int i = 0; i < n; i++)
      if (jet_image_get_plane(io->dst[0], i, &p->d[i]) != JET_STATUS_OK) return -1;
  }
  return 0;
}

#define PLANES()                          \
  bench_planes p;                         \
  if (bench_npp_planes(io, &p)) return -1; \
  const bench_cfg *c = io->cfg;           \
  NppiSize roi = {c->w, c->h};            \
  (void)roi;                              \
  (void)c
#define S8 ((const Npp8u *)p.s[0].ptr)
#define D8 ((Npp8u *)p.d[0].ptr)
#define SF ((const Npp32f *)p.s[0].ptr)
#define DF ((Npp32f *)p.d[0].ptr)
#define SP ((int)p.s[0].pitch)
#define DP ((int)p.d[0].pitch)
#define CTX bench_npp_ctx

/* ------------------------------------------------------------------ colour */

static int nv12_rgb(const bench_io *io) {
  PLANES();
  const Npp8u *src[2] = {S8, (const Npp8u *)p.s[1].ptr};
  if (p.s[0].pitch != p.s[1].pitch) return -1; /* one step for both planes */
  if (c->dst == JET_FORMAT_BGR8) return nppiNV12ToBGR_8u_P2C3R_Ctx(src, SP, D8, DP, roi, CTX);
  return nppiNV12ToRGB_8u_P2C3R_Ctx(src, SP, D8, DP, roi, CTX);
}

static int i420_rgb(const bench_io *io) {
  PLANES();
  const Npp8u *src[3] = {S8, (const Npp8u *)p.s[1].ptr, (const Npp8u *)p.s[2].ptr};
  int steps[3] = {SP, (int)p.s[1].pitch, (int)p.s[2].pitch};
  if (c->dst == JET_FORMAT_BGR8) return nppiYCbCr420ToBGR_8u_P3C3R_Ctx(src, steps, D8, DP, roi, CTX);
  if (c->dst == JET_FORMAT_BGRA8)
    return nppiYCbCr420ToBGR_8u_P3C4R_Ctx(src, steps, D8, DP, roi, 255, CTX);
  return nppiYCbCr420ToRGB_8u_P3C3R_Ctx(src, steps, D8, DP, roi, CTX);
}

static int yuyv_rgb(const bench_io *io) {
  PLANES();
  if (c->dst == JET_FORMAT_BGR8) return nppiYCbCr422ToBGR_8u_C2C3R_Ctx(S8, SP, D8, DP, roi, CTX);
  if (c->dst == JET_FORMAT_BGRA8)
    return nppiYCbCr422ToBGR_8u_C2C4R_Ctx(S8, SP, D8, DP, roi, 255, CTX);
  return nppiYCbCr422ToRGB_8u_C2C3R_Ctx(S8, SP, D8, DP, roi, CTX);
}

static int uyvy_rgb(const bench_io *io) {
  PLANES();
  if (c->dst == JET_FORMAT_BGRA8)
    return nppiCbYCr422ToBGR_8u_C2C4R_Ctx(S8, SP, D8, DP, roi, 255, CTX);
  return nppiCbYCr422ToRGB_8u_C2C3R_Ctx(S8, SP, D8, DP, roi, CTX);
}

static int rgb_i420(const bench_io *io) {
  PLANES();
  Npp8u *dst[3] = {D8, (Npp8u *)p.d[1].ptr, (Npp8u *)p.d[2].ptr};
  int steps[3] = {DP, (int)p.d[1].pitch, (int)p.d[2].pitch};
  return nppiRGBToYCbCr420_8u_C3P3R_Ctx(S8, SP, dst, steps, roi, CTX);
}

static int to_gray(const bench_io *io) {
  PLANES();
  static const Npp32f bgr[3] = {0.114f, 0.587f, 0.299f};
  switch (c->src) {
    case JET_FORMAT_RGB8: return nppiRGBToGray_8u_C3C1R_Ctx(S8, SP, D8, DP, roi, CTX);
    case JET_FORMAT_RGBA8: return nppiRGBToGray_8u_AC4C1R_Ctx(S8, SP, D8, DP, roi, CTX);
    case JET_FORMAT_BGR8: return nppiColorToGray_8u_C3C1R_Ctx(S8, SP, D8, DP, roi, bgr, CTX);
    default: return nppiColorToGray_8u_AC4C1R_Ctx(S8, SP, D8, DP, roi, bgr, CTX);
  }
}

static int from_gray(const bench_io *io) {
  PLANES();
  if (c->dst == JET_FORMAT_RGB8 || c->dst == JET_FORMAT_BGR8)
    return nppiDup_8u_C1C3R_Ctx(S8, SP, D8, DP, roi, CTX);
  return nppiDup_8u_C1C4R_Ctx(S8, SP, D8, DP, roi, CTX);
}

static int is_bgr(jet_format f) { return f == JET_FORMAT_BGR8 || f == JET_FORMAT_BGRA8; }
static int is_c4(jet_format f) { return f == JET_FORMAT_RGBA8 || f == JET_FORMAT_BGRA8; }

/* Reordering among RGB8, BGR8, RGBA8 and BGRA8. */
static int swap(const bench_io *io) {
  PLANES();
  int rev = is_bgr(c->src) != is_bgr(c->dst);
  int o3[3] = {rev ? 2 : 0, 1, rev ? 0 : 2}, o4[4] = {o3[0], o3[1], o3[2], 3};
  if (is_c4(c->src) && is_c4(c->dst)) return nppiSwapChannels_8u_C4R_Ctx(S8, SP, D8, DP, roi, o4, CTX);
  if (is_c4(c->src)) return nppiSwapChannels_8u_C4C3R_Ctx(S8, SP, D8, DP, roi, o3, CTX);
  if (is_c4(c->dst))
    return nppiSwapChannels_8u_C3C4R_Ctx(S8, SP, D8, DP, roi, o4, 255, CTX);
  return nppiSwapChannels_8u_C3R_Ctx(S8, SP, D8, DP, roi, o3, CTX);
}

static int select_color(const bench_cfg *c, bench_npp_entry *e) {
  jet_format s = c->src, d = c->dst;
  int rgb_out = d == JET_FORMAT_RGB8 || d == JET_FORMAT_BGR8;
  if (s == JET_FORMAT_NV12 && rgb_out) {
    e->fn = nv12_rgb;
    e->name = d == JET_FORMAT_BGR8 ? "nppiNV12ToBGR_8u_P2C3R" : "nppiNV12ToRGB_8u_P2C3R";
  } else if (s == JET_FORMAT_I420 && (rgb_out || d == JET_FORMAT_BGRA8)) {
    e->fn = i420_rgb;
    e->name = d == JET_FORMAT_RGB8 ? "nppiYCbCr420ToRGB_8u_P3C3R"
              : d == JET_FORMAT_BGR8 ? "nppiYCbCr420ToBGR_8u_P3C3R"
                                     : "nppiYCbCr420ToBGR_8u_P3C4R";
  } else if (s == JET_FORMAT_YUYV && (rgb_out || d == JET_FORMAT_BGRA8)) {
    e->fn = yuyv_rgb;
    e->name = d == JET_FORMAT_RGB8 ? "nppiYCbCr422ToRGB_8u_C2C3R"
              : d == JET_FORMAT_BGR8 ? "nppiYCbCr422ToBGR_8u_C2C3R"
                                     : "nppiYCbCr422ToBGR_8u_C2C4R";
  } else if (s == JET_FORMAT_UYVY && (d == JET_FORMAT_RGB8 || d == JET_FORMAT_BGRA8)) {
    e->fn = uyvy_rgb;
    e->name = d == JET_FORMAT_RGB8 ? "nppiCbYCr422ToRGB_8u_C2C3R" : "nppiCbYCr422ToBGR_8u_C2C4R";
  } else if (s == JET_FORMAT_RGB8 && d == JET_FORMAT_I420) {
    e->fn = rgb_i420;
    e->name = "nppiRGBToYCbCr420_8u_C3P3R";
  } else if (d == JET_FORMAT_GRAY8 &&
             (s == JET_FORMAT_RGB8 || s == JET_FORMAT_BGR8 || is_c4(s))) {
    e->fn = to_gray;
    e->name = s == JET_FORMAT_RGB8    ? "nppiRGBToGray_8u_C3C1R"
              : s == JET_FORMAT_RGBA8 ? "nppiRGBToGray_8u_AC4C1R"
              : s == JET_FORMAT_BGR8  ? "nppiColorToGray_8u_C3C1R"
                                      : "nppiColorToGray_8u_AC4C1R";
  } else if (s == JET_FORMAT_GRAY8 && (rgb_out || is_c4(d))) {
    e->fn = from_gray;
    e->name = rgb_out ? "nppiDup_8u_C1C3R" : "nppiDup_8u_C1C4R (alpha = grey)";
  } else if ((rgb_out || is_c4(d)) && (s == JET_FORMAT_RGB8 || s == JET_FORMAT_BGR8 || is_c4(s))) {
    e->fn = swap;
    e->name = is_c4(s) && is_c4(d) ? "nppiSwapChannels_8u_C4R"
              : is_c4(s)           ? "nppiSwapChannels_8u_C4C3R"
              : is_c4(d)           ? "nppiSwapChannels_8u_C3C4R"
                                   : "nppiSwapChannels_8u_C3R";
  }
  /* NV12/NV21 to four channels and RGB8 to NV12: bench-npp-new.c */
  return e->fn != NULL;
}

/* ------------------------------------------------------------------ resize */

static int resize(const bench_io *io) {
  PLANES();
  NppiRect sr = {0, 0, c->w, c->h}, dr = {0, 0, c->dw, c->dh};
  NppiSize ds = {c->dw, c->dh};
  int m = c->interp == JET_INTERP_NEAREST  ? NPPI_INTER_NN
          : c->interp == JET_INTERP_LINEAR ? NPPI_INTER_LINEAR
                                           : NPPI_INTER_SUPER;
  switch (c->src) {
    case JET_FORMAT_GRAY8: return nppiResize_8u_C1R_Ctx(S8, SP, roi, sr, D8, DP, ds, dr, m, CTX);
    case JET_FORMAT_RGB8: return nppiResize_8u_C3R_Ctx(S8, SP, roi, sr, D8, DP, ds, dr, m, CTX);
    case JET_FORMAT_RGBA8: return nppiResize_8u_C4R_Ctx(S8, SP, roi, sr, D8, DP, ds, dr, m, CTX);
    default: return nppiResize_32f_C1R_Ctx(SF, SP, roi, sr, DF, DP, ds, dr, m, CTX);
  }
}

/* ------------------------------------------------------------------ filters */

static NppiBorderType border(int b) {
  return b == JET_BORDER_REPLICATE     ? NPP_BORDER_REPLICATE
         : b == JET_BORDER_REFLECT_101 ? NPP_BORDER_MIRROR
                                       : NPP_BORDER_CONSTANT;
}

static int box(const bench_io *io) {
  PLANES();
  NppiPoint off = {0, 0}, anchor = {c->ksize / 2, c->ksize / 2};
  NppiSize mask = {c->ksize, c->ksize};
  NppiBorderType b = border(c->border);
  switch (c->src) {
    case JET_FORMAT_GRAY8:
      return nppiFilterBoxBorder_8u_C1R_Ctx(S8, SP, roi, off, D8, DP, roi, mask, anchor, b, CTX);
    case JET_FORMAT_RGB8:
      return nppiFilterBoxBorder_8u_C3R_Ctx(S8, SP, roi, off, D8, DP, roi, mask, anchor, b, CTX);
    case JET_FORMAT_RGBA8:
      return nppiFilterBoxBorder_8u_C4R_Ctx(S8, SP, roi, off, D8, DP, roi, mask, anchor, b, CTX);
    default:
      return nppiFilterBoxBorder_32f_C1R_Ctx(SF, SP, roi, off, DF, DP, roi, mask, anchor, b, CTX);
  }
}

static NppiMaskSize gauss_mask(int k) {
  switch (k) {
    case 3: return NPP_MASK_SIZE_3_X_3;
    case 5: return NPP_MASK_SIZE_5_X_5;
    case 7: return NPP_MASK_SIZE_7_X_7;
    case 9: return NPP_MASK_SIZE_9_X_9;
    case 11: return NPP_MASK_SIZE_11_X_11;
    case 13: return NPP_MASK_SIZE_13_X_13;
    default: return NPP_MASK_SIZE_15_X_15;
  }
}

static int gauss(const bench_io *io) {
  PLANES();
  NppiPoint off = {0, 0};
  NppiMaskSize m = gauss_mask(c->ksize);
  NppiBorderType b = border(c->border);
  switch (c->src) {
    case JET_FORMAT_GRAY8:
      return nppiFilterGaussBorder_8u_C1R_Ctx(S8, SP, roi, off, D8, DP, roi, m, b, CTX);
    case JET_FORMAT_RGB8:
      return nppiFilterGaussBorder_8u_C3R_Ctx(S8, SP, roi, off, D8, DP, roi, m, b, CTX);
    case JET_FORMAT_RGBA8:
      return nppiFilterGaussBorder_8u_C4R_Ctx(S8, SP, roi, off, D8, DP, roi, m, b, CTX);
    default: return nppiFilterGaussBorder_32f_C1R_Ctx(SF, SP, roi, off, DF, DP, roi, m, b, CTX);
  }
}

/* ------------------------------------------------------------------ geometry */

static int mirror(const bench_io *io) {
  PLANES();
  /* NPP_VERTICAL_AXIS mirrors around the vertical axis: left-right. */
  NppiAxis a = c->op == BOP_ROTATE            ? NPP_BOTH_AXIS
               : c->flip == JET_FLIP_HORIZONTAL ? NPP_VERTICAL_AXIS
               : c->flip == JET_FLIP_VERTICAL   ? NPP_HORIZONTAL_AXIS
                                                : NPP_BOTH_AXIS;
  switch (c->src) {
    case JET_FORMAT_GRAY8: return nppiMirror_8u_C1R_Ctx(S8, SP, D8, DP, roi, a, CTX);
    case JET_FORMAT_RGB8: return nppiMirror_8u_C3R_Ctx(S8, SP, D8, DP, roi, a, CTX);
    case JET_FORMAT_RGBA8: return nppiMirror_8u_C4R_Ctx(S8, SP, D8, DP, roi, a, CTX);
    default: return nppiMirror_32f_C1R_Ctx(SF, SP, DF, DP, roi, a, CTX);
  }
}

static int transpose(const bench_io *io) {
  PLANES();
  switch (c->src) {
    case JET_FORMAT_GRAY8: return nppiTranspose_8u_C1R_Ctx(S8, SP, D8, DP, roi, CTX);
    case JET_FORMAT_RGB8: return nppiTranspose_8u_C3R_Ctx(S8, SP, D8, DP, roi, CTX);
    case JET_FORMAT_RGBA8: return nppiTranspose_8u_C4R_Ctx(S8, SP, D8, DP, roi, CTX);
    default: return nppiTranspose_32f_C1R_Ctx(SF, SP, DF, DP, roi, CTX);
  }
}

/* ------------------------------------------------------------------ statistics */

static int sum_prepare(const bench_io *io) {
  const bench_cfg *c = io->cfg;
  NppiSize roi = {c->w, c->h};
  size_t n = 0;
  NppStatus s;
  switch (c->src) {
    case JET_FORMAT_GRAY8: s = nppiSumGetBufferHostSize_8u_C1R_Ctx(roi, &n, CTX); break;
    case JET_FORMAT_RGB8: s = nppiSumGetBufferHostSize_8u_C3R_Ctx(roi, &n, CTX); break;
    case JET_FORMAT_RGBA8: s = nppiSumGetBufferHostSize_8u_C4R_Ctx(roi, &n, CTX); break;
    default: s = nppiSumGetBufferHostSize_32f_C1R_Ctx(roi, &n, CTX); break;
  }
  return s == NPP_SUCCESS ? scratch(n) : -1;
}

static int sum(const bench_io *io) {
  PLANES();
  Npp64f *out = (Npp64f *)io->aux;
  Npp8u *buf = (Npp8u *)g_scratch;
  switch (c->src) {
    case JET_FORMAT_GRAY8: return nppiSum_8u_C1R_Ctx(S8, SP, roi, buf, out, CTX);
    case JET_FORMAT_RGB8: return nppiSum_8u_C3R_Ctx(S8, SP, roi, buf, out, CTX);
    case JET_FORMAT_RGBA8: return nppiSum_8u_C4R_Ctx(S8, SP, roi, buf, out, CTX);
    default: return nppiSum_32f_C1R_Ctx(SF, SP, roi, buf, out, CTX);
  }
}

static int minmax_prepare(const bench_io *io) {
  const bench_cfg *c = io->cfg;
  NppiSize roi = {c->w, c->h};
  size_t n = 0;
  NppStatus s;
  switch (c->src) {
    case JET_FORMAT_GRAY8: s = nppiMinMaxGetBufferHostSize_8u_C1R_Ctx(roi, &n, CTX); break;
    case JET_FORMAT_RGBA8: s = nppiMinMaxGetBufferHostSize_8u_C4R_Ctx(roi, &n, CTX); break;
    default: s = nppiMinMaxGetBufferHostSize_32f_C1R_Ctx(roi, &n, CTX); break;
  }
  return s == NPP_SUCCESS ? scratch(n) : -1;
}

static int minmax(const bench_io *io) {
  PLANES();
  Npp8u *out = (Npp8u *)io->aux, *buf = (Npp8u *)g_scratch;
  switch (c->src) {
    case JET_FORMAT_GRAY8: return nppiMinMax_8u_C1R_Ctx(S8, SP, roi, out, out + 16, buf, CTX);
    case JET_FORMAT_RGBA8: return nppiMinMax_8u_C4R_Ctx(S8, SP, roi, out, out + 16, buf, CTX);
    default:
      return nppiMinMax_32f_C1R_Ctx(SF, SP, roi, (Npp32f *)out, (Npp32f *)(out + 16), buf, CTX);
  }
}

/* 257 levels 0..256: 256 bins of width 1, like jetrt's histogram. */
static int hist_prepare(const bench_io *io) {
  NppiSize roi = {io->cfg->w, io->cfg->h};
  size_t n = 0;
  if (nppiHistogramEvenGetBufferSize_8u_C1R_Ctx(roi, 257, &n, CTX) != NPP_SUCCESS) return -1;
  return scratch(n);
}

static int hist(const bench_io *io) {
  PLANES();
  return nppiHistogramEven_8u_C1R_Ctx(S8, SP, roi, (Npp32s *)io->aux, 257, 0, 256,
                                      (Npp8u *)g_scratch, CTX);
}

/* ------------------------------------------------------------------ memory */

static int copy2d(const bench_io *io) {
  PLANES();
  if (c->src == JET_FORMAT_GRAY8) return nppiCopy_8u_C1R_Ctx(S8, SP, D8, DP, roi, CTX);
  return nppiCopy_8u_C4R_Ctx(S8, SP, D8, DP, roi, CTX);
}

static int set2d(const bench_io *io) {
  PLANES();
  static const Npp8u v4[4] = {0x3c, 0x3c, 0x3c, 0x3c};
  if (c->dst == JET_FORMAT_GRAY8) return nppiSet_8u_C1R_Ctx(0x3c, D8, DP, roi, CTX);
  return nppiSet_8u_C4R_Ctx(v4, D8, DP, roi, CTX);
}

/* ------------------------------------------------------------------ selection */

static int px_format(jet_format f) {
  return f == JET_FORMAT_GRAY8 || f == JET_FORMAT_RGB8 || f == JET_FORMAT_RGBA8 ||
         f == JET_FORMAT_GRAYF32;
}

int bench_npp_select(const bench_cfg *c, bench_npp_entry *e) {
  memset(e, 0, sizeof *e);
  if (c->count != 1) return 0; /* NPP's batched calls take other descriptors: not compared */
  switch (c->op) {
    case BOP_COLOR: return select_color(c, e);
    case BOP_RESIZE:
      if (!px_format(c->src)) return 0;
      e->fn = resize;
      e->name = "nppiResize (NN / LINEAR / SUPER)";
      return 1;
    case BOP_BOX:
      if (!px_format(c->src)) return 0;
      e->fn = box;
      e->name = "nppiFilterBoxBorder";
      return 1;
    case BOP_GAUSS:
      if (!px_format(c->src) || c->ksize > 15) return 0;
      e->fn = gauss;
      e->name = "nppiFilterGaussBorder";
      return 1;
    case BOP_FLIP:
    case BOP_ROTATE:
      if (!px_format(c->src) || (c->op == BOP_ROTATE && c->rotation != 180)) return 0;
      e->fn = mirror;
      e->name = "nppiMirror";
      return 1;
    case BOP_TRANSPOSE:
      if (!px_format(c->src)) return 0;
      e->fn = transpose;
      e->name = "nppiTranspose";
      return 1;
    case BOP_REDUCE:
      if (!px_format(c->src)) return 0;
      if (c->variant) {
        if (c->src == JET_FORMAT_RGB8) return 0;
        e->fn = minmax;
        e->prepare = minmax_prepare;
        e->name = "nppiMinMax";
      } else {
        e->fn = sum;
        e->prepare = sum_prepare;
        e->name = "nppiSum";
      }
      return 1;
    case BOP_HIST:
      e->fn = hist;
      e->prepare = hist_prepare;
      e->name = "nppiHistogramEven_8u_C1R";
      return 1;
    case BOP_MEMCPY2D:
      if (c->src != JET_FORMAT_GRAY8 && c->src != JET_FORMAT_RGBA8) return 0;
      e->fn = copy2d;
      e->name = "nppiCopy_8u";
      return 1;
    case BOP_MEMSET2D:
      if (c->dst != JET_FORMAT_GRAY8 && c->dst != JET_FORMAT_RGBA8) return 0;
      e->fn = set2d;
      e->name = "nppiSet_8u";
      return 1;
    default: return 0;
  }
}

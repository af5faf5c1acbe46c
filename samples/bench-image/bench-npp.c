/*
 * bench-npp.c - NPP's equivalents of the benchmarked operations, on the same
 * buffers. Built only where CMake found NPP. CUDA 13's NPP has only the _Ctx
 * entry points and no nppGetStreamContext, so the stream context is filled
 * here from device attributes.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <nppcore.h>
#include <nppi_color_conversion.h>
#include <nppi_data_exchange_and_initialization.h>
#include <nppi_filtering_functions.h>
#include <nppi_geometry_transforms.h>
#include <nppi_statistics_functions.h>

#include "bench-image.h"

/* Returned when an image's layout does not fit NPP's call (not an NppStatus). */
#define BENCH_NPP_LAYOUT (-100000)

static NppStreamContext g_ctx;
static void *g_scratch;
static size_t g_scratch_bytes;

int bench_npp_init(void *stream, char *version, size_t n) {
  int dev = 0, v = 0;
  memset(&g_ctx, 0, sizeof g_ctx);
  if (cudaGetDevice(&dev) != cudaSuccess) return -1;
  g_ctx.hStream = (cudaStream_t)stream;
  g_ctx.nCudaDeviceId = dev;
  if (cudaDeviceGetAttribute(&g_ctx.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev) ||
      cudaDeviceGetAttribute(&g_ctx.nMaxThreadsPerMultiProcessor,
                             cudaDevAttrMaxThreadsPerMultiProcessor, dev) ||
      cudaDeviceGetAttribute(&g_ctx.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev) ||
      cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, dev) ||
      cudaDeviceGetAttribute(&g_ctx.nCudaDevAttrComputeCapabilityMajor,
                             cudaDevAttrComputeCapabilityMajor, dev) ||
      cudaDeviceGetAttribute(&g_ctx.nCudaDevAttrComputeCapabilityMinor,
                             cudaDevAttrComputeCapabilityMinor, dev))
    return -1;
  g_ctx.nSharedMemPerBlock = (size_t)v;
  if (cudaStreamGetFlags(g_ctx.hStream, &g_ctx.nStreamFlags) != cudaSuccess) return -1;
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

typedef struct planes {
  jet_image_plane_info s0, s1, d0;
} planes;

static int get_planes(const bench_io *io, planes *p, int src_planes) {
  memset(p, 0, sizeof *p);
  if (jet_image_get_plane(io->src, 0, &p->s0) != JET_STATUS_OK) return -1;
  if (src_planes > 1 && jet_image_get_plane(io->src, 1, &p->s1) != JET_STATUS_OK) return -1;
  if (io->dst && jet_image_get_plane(io->dst, 0, &p->d0) != JET_STATUS_OK) return -1;
  return 0;
}

static NppiSize src_roi(const bench_io *io) {
  NppiSize s = {io->width, io->height};
  return s;
}

static int nv12_rgb8(const bench_io *io) {
  planes p;
  if (get_planes(io, &p, 2)) return -1;
  if (p.s0.pitch != p.s1.pitch) return BENCH_NPP_LAYOUT; /* one step for both planes */
  const Npp8u *src[2] = {(const Npp8u *)p.s0.ptr, (const Npp8u *)p.s1.ptr};
  return nppiNV12ToRGB_8u_P2C3R_Ctx(src, (int)p.s0.pitch, (Npp8u *)p.d0.ptr, (int)p.d0.pitch,
                                    src_roi(io), g_ctx);
}

static int rgba8_gray8(const bench_io *io) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  return nppiRGBToGray_8u_AC4C1R_Ctx((const Npp8u *)p.s0.ptr, (int)p.s0.pitch,
                                     (Npp8u *)p.d0.ptr, (int)p.d0.pitch, src_roi(io), g_ctx);
}

static int resize(const bench_io *io, int interp) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  NppiRect sr = {0, 0, io->width, io->height}, dr = {0, 0, io->dst_width, io->dst_height};
  NppiSize ds = {io->dst_width, io->dst_height};
  return nppiResize_8u_C4R_Ctx((const Npp8u *)p.s0.ptr, (int)p.s0.pitch, src_roi(io), sr,
                               (Npp8u *)p.d0.ptr, (int)p.d0.pitch, ds, dr, interp, g_ctx);
}
static int resize_linear(const bench_io *io) { return resize(io, NPPI_INTER_LINEAR); }
static int resize_nearest(const bench_io *io) { return resize(io, NPPI_INTER_NN); }
static int resize_area(const bench_io *io) { return resize(io, NPPI_INTER_SUPER); }

static int box(const bench_io *io, int k) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  NppiPoint off = {0, 0}, anchor = {k / 2, k / 2};
  NppiSize mask = {k, k};
  return nppiFilterBoxBorder_8u_C4R_Ctx((const Npp8u *)p.s0.ptr, (int)p.s0.pitch, src_roi(io),
                                        off, (Npp8u *)p.d0.ptr, (int)p.d0.pitch, src_roi(io),
                                        mask, anchor, NPP_BORDER_REPLICATE, g_ctx);
}
static int box5(const bench_io *io) { return box(io, 5); }
static int box31(const bench_io *io) { return box(io, 31); }

static int gauss5(const bench_io *io) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  NppiPoint off = {0, 0};
  return nppiFilterGaussBorder_8u_C4R_Ctx((const Npp8u *)p.s0.ptr, (int)p.s0.pitch, src_roi(io),
                                          off, (Npp8u *)p.d0.ptr, (int)p.d0.pitch, src_roi(io),
                                          NPP_MASK_SIZE_5_X_5, NPP_BORDER_REPLICATE, g_ctx);
}

static int transpose_f32(const bench_io *io) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  return nppiTranspose_32f_C1R_Ctx((const Npp32f *)p.s0.ptr, (int)p.s0.pitch, (Npp32f *)p.d0.ptr,
                                   (int)p.d0.pitch, src_roi(io), g_ctx);
}

static int flip_h(const bench_io *io) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  /* NPP_VERTICAL_AXIS mirrors around the vertical axis: left-right. */
  return nppiMirror_8u_C4R_Ctx((const Npp8u *)p.s0.ptr, (int)p.s0.pitch, (Npp8u *)p.d0.ptr,
                               (int)p.d0.pitch, src_roi(io), NPP_VERTICAL_AXIS, g_ctx);
}

static int sum_prepare(const bench_io *io) {
  size_t n = 0;
  if (nppiSumGetBufferHostSize_32f_C1R_Ctx(src_roi(io), &n, g_ctx) != NPP_SUCCESS) return -1;
  return scratch(n);
}
static int sum_f32(const bench_io *io) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  return nppiSum_32f_C1R_Ctx((const Npp32f *)p.s0.ptr, (int)p.s0.pitch, src_roi(io),
                             (Npp8u *)g_scratch, (Npp64f *)io->aux, g_ctx);
}

static int minmax_prepare(const bench_io *io) {
  size_t n = 0;
  if (nppiMinMaxGetBufferHostSize_32f_C1R_Ctx(src_roi(io), &n, g_ctx) != NPP_SUCCESS) return -1;
  return scratch(n);
}
static int minmax_f32(const bench_io *io) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  Npp32f *out = (Npp32f *)io->aux;
  return nppiMinMax_32f_C1R_Ctx((const Npp32f *)p.s0.ptr, (int)p.s0.pitch, src_roi(io), out,
                                out + 1, (Npp8u *)g_scratch, g_ctx);
}

/* 257 levels 0..256: 256 bins of width 1, like jetrt's histogram. */
static int hist_prepare(const bench_io *io) {
  size_t n = 0;
  if (nppiHistogramEvenGetBufferSize_8u_C1R_Ctx(src_roi(io), 257, &n, g_ctx) != NPP_SUCCESS)
    return -1;
  return scratch(n);
}
static int hist_gray8(const bench_io *io) {
  planes p;
  if (get_planes(io, &p, 1)) return -1;
  return nppiHistogramEven_8u_C1R_Ctx((const Npp8u *)p.s0.ptr, (int)p.s0.pitch, src_roi(io),
                                      (Npp32s *)io->aux, 257, 0, 256, (Npp8u *)g_scratch, g_ctx);
}

static const bench_npp_entry g_npp[] = {
    {"nv12_rgb8", nv12_rgb8, NULL},
    {"rgba8_gray8", rgba8_gray8, NULL},
    {"resize_linear", resize_linear, NULL},
    {"resize_nearest", resize_nearest, NULL},
    {"resize_area", resize_area, NULL},
    {"box5", box5, NULL},
    {"gauss5", gauss5, NULL},
    {"box31", box31, NULL},
    {"transpose_f32", transpose_f32, NULL},
    {"flip_h_rgba8", flip_h, NULL},
    {"reduce_f32", sum_f32, sum_prepare},
    {"reduce_f32_minmax", minmax_f32, minmax_prepare},
    {"hist_gray8", hist_gray8, hist_prepare},
};

const bench_npp_entry *bench_npp_find(const char *key) {
  for (size_t i = 0; i < sizeof g_npp / sizeof g_npp[0]; i++)
    if (strcmp(g_npp[i].key, key) == 0) return &g_npp[i];
  return NULL;
}

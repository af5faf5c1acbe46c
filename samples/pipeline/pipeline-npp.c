/*
 * pipeline-npp.c - jet-pipeline's chain in NPP, stage for stage, on the same
 * inputs. Built only where CMake found NPP. Differences from jetrt's chain:
 *  - NV12 -> RGBA8 is nppiNV21ToRGB_8u_P2C4R: NPP 13.0 (the GPU machine's)
 *    has no NV12 -> four-channel call at all, and its NV21 one does the same
 *    work on the same bytes (U and V swapped, so the colours differ; NPP's
 *    output is timed, not checked);
 *  - the Gaussian 5x5 is NPP's fixed-sigma mask, replicate border;
 *  - the DNN stage is built from primitives, each a pass over memory:
 *    resize into the letterbox rectangle of a padded RGBA8 image (padding set
 *    once, not per frame), RGBA8 -> RGB8, 8u -> 32f, multiply and subtract
 *    per channel, packed -> planar, 32f -> 16f (one call on the three planes
 *    as one image);
 *  - four cameras are four calls per stage.
 */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <nppcore.h>
#include <nppi_arithmetic_and_logical_operations.h>
#include <nppi_color_conversion.h>
#include <nppi_data_exchange_and_initialization.h>
#include <nppi_filtering_functions.h>
#include <nppi_geometry_transforms.h>

#include "pipeline.h"

typedef struct npp_cam {
  Npp8u *rgba, *blur, *small, *boxed, *rgb;
  Npp32f *f3, *planar;
  Npp16f *out;
} npp_cam;

static struct {
  NppStreamContext ctx;
  int cams;
  npp_cam cam[PL_MAX_CAMS];
  size_t rgba_pitch, small_pitch, boxed_pitch, rgb_pitch, f3_pitch, planar_pitch, out_pitch;
  int cw, ch, ox, oy;
  Npp32f scale[3], offset[3];
} N;

static size_t pitch_of(size_t row_bytes) { return (row_bytes + 255) / 256 * 256; }

static int dev_alloc(void *p, size_t bytes, char *err, size_t n) {
  cudaError_t e = cudaMalloc((void **)p, bytes);
  if (e != cudaSuccess) {
    *(void **)p = NULL;
    snprintf(err, n, "cudaMalloc(%zu): %s", bytes, cudaGetErrorName(e));
    return -1;
  }
  return 0;
}

static int stream_context(void *stream) {
  int dev = 0, v = 0;
  memset(&N.ctx, 0, sizeof N.ctx);
  if (cudaGetDevice(&dev) != cudaSuccess) return -1;
  N.ctx.hStream = (cudaStream_t)stream;
  N.ctx.nCudaDeviceId = dev;
  if (cudaDeviceGetAttribute(&N.ctx.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, dev) ||
      cudaDeviceGetAttribute(&N.ctx.nMaxThreadsPerMultiProcessor,
                             cudaDevAttrMaxThreadsPerMultiProcessor, dev) ||
      cudaDeviceGetAttribute(&N.ctx.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, dev) ||
      cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, dev) ||
      cudaDeviceGetAttribute(&N.ctx.nCudaDevAttrComputeCapabilityMajor,
                             cudaDevAttrComputeCapabilityMajor, dev) ||
      cudaDeviceGetAttribute(&N.ctx.nCudaDevAttrComputeCapabilityMinor,
                             cudaDevAttrComputeCapabilityMinor, dev))
    return -1;
  N.ctx.nSharedMemPerBlock = (size_t)v;
  return cudaStreamGetFlags(N.ctx.hStream, &N.ctx.nStreamFlags) == cudaSuccess ? 0 : -1;
}

int pl_npp_init(void *cuda_stream, int cams, char *version, size_t vn, char *err, size_t n) {
  memset(&N, 0, sizeof N);
  if (cams < 1 || cams > PL_MAX_CAMS) {
    snprintf(err, n, "camera count %d outside 1..%d", cams, PL_MAX_CAMS);
    return -1;
  }
  if (stream_context(cuda_stream)) {
    snprintf(err, n, "NPP stream context setup failed");
    return -1;
  }
  const NppLibraryVersion *lv = nppGetLibVersion();
  if (lv)
    snprintf(version, vn, "%d.%d.%d", lv->major, lv->minor, lv->build);
  else
    snprintf(version, vn, "unknown");
  N.cams = cams;
  N.rgba_pitch = pitch_of((size_t)PL_W * 4);
  N.small_pitch = pitch_of((size_t)PL_RW * 4);
  N.boxed_pitch = pitch_of((size_t)PL_DW * 4);
  N.rgb_pitch = pitch_of((size_t)PL_DW * 3);
  N.f3_pitch = pitch_of((size_t)PL_DW * 12);
  N.planar_pitch = pitch_of((size_t)PL_DW * 4);
  N.out_pitch = pitch_of((size_t)PL_DW * 2);
  /* the letterbox rectangle of jet_dnn_preprocess (jetrt/dnn.h) */
  if ((long long)PL_DW * PL_RH <= (long long)PL_DH * PL_RW) {
    N.cw = PL_DW;
    N.ch = (int)(((long long)PL_RH * PL_DW + PL_RW / 2) / PL_RW);
  } else {
    N.ch = PL_DH;
    N.cw = (int)(((long long)PL_RW * PL_DH + PL_RH / 2) / PL_RH);
  }
  N.ox = (PL_DW - N.cw) / 2;
  N.oy = (PL_DH - N.ch) / 2;
  const float pad[3] = PL_PAD_INIT, mean[3] = PL_MEAN_INIT, sd[3] = PL_STD_INIT;
  for (int c = 0; c < 3; c++) {
    N.scale[c] = 1.0f / (255.0f * sd[c]);
    N.offset[c] = mean[c] / sd[c];
  }
  Npp8u fill[4] = {(Npp8u)(pad[0] + 0.5f), (Npp8u)(pad[1] + 0.5f), (Npp8u)(pad[2] + 0.5f), 255};
  NppiSize dsz = {PL_DW, PL_DH};
  for (int c = 0; c < cams; c++) {
    npp_cam *k = &N.cam[c];
    if (dev_alloc(&k->rgba, N.rgba_pitch * PL_H, err, n) ||
        dev_alloc(&k->blur, N.rgba_pitch * PL_H, err, n) ||
        dev_alloc(&k->small, N.small_pitch * PL_RH, err, n) ||
        dev_alloc(&k->boxed, N.boxed_pitch * PL_DH, err, n) ||
        dev_alloc(&k->rgb, N.rgb_pitch * PL_DH, err, n) ||
        dev_alloc(&k->f3, N.f3_pitch * PL_DH, err, n) ||
        dev_alloc(&k->planar, N.planar_pitch * PL_DH * 3, err, n) ||
        dev_alloc(&k->out, N.out_pitch * PL_DH * 3, err, n)) {
      pl_npp_release();
      return -1;
    }
    NppStatus s = nppiSet_8u_C4R_Ctx(fill, k->boxed, (int)N.boxed_pitch, dsz, N.ctx);
    if (s < 0) {
      snprintf(err, n, "nppiSet_8u_C4R: NppStatus %d", (int)s);
      pl_npp_release();
      return -1;
    }
  }
  return 0;
}

void pl_npp_release(void) {
  for (int c = 0; c < PL_MAX_CAMS; c++) {
    npp_cam *k = &N.cam[c];
    void *all[] = {k->rgba, k->blur, k->small, k->boxed, k->rgb, k->f3, k->planar, k->out};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
      if (all[i]) cudaFree(all[i]);
    memset(k, 0, sizeof *k);
  }
  N.cams = 0;
}

void pl_npp_output(int cam, const void **base, size_t *pitch) {
  *base = cam >= 0 && cam < N.cams ? (const void *)N.cam[cam].out : NULL;
  *pitch = N.out_pitch;
}

/* NPP's warnings (positive statuses) are taken as success. */
#define NPP_TRY(call)                                                        \
  do {                                                                       \
    NppStatus s_ = (call);                                                   \
    if (s_ < 0) {                                                            \
      snprintf(err, n, "%s: NppStatus %d", #call, (int)s_);                  \
      return -1;                                                             \
    }                                                                        \
  } while (0)

static int colour(const pl_nv12 *in, npp_cam *k, char *err, size_t n) {
  const Npp8u *src[2] = {(const Npp8u *)in->y, (const Npp8u *)in->uv};
  NppiSize sz = {PL_W, PL_H};
  NPP_TRY(nppiNV21ToRGB_8u_P2C4R_Ctx(src, (int)in->pitch, k->rgba, (int)N.rgba_pitch, sz, N.ctx));
  return 0;
}

static int gauss(npp_cam *k, char *err, size_t n) {
  NppiSize sz = {PL_W, PL_H};
  NppiPoint off = {0, 0};
  NPP_TRY(nppiFilterGaussBorder_8u_C4R_Ctx(k->rgba, (Npp32s)N.rgba_pitch, sz, off, k->blur,
                                           (Npp32s)N.rgba_pitch, sz, NPP_MASK_SIZE_5_X_5,
                                           NPP_BORDER_REPLICATE, N.ctx));
  return 0;
}

static int resize(npp_cam *k, char *err, size_t n) {
  NppiSize ssz = {PL_W, PL_H}, dsz = {PL_RW, PL_RH};
  NppiRect sr = {0, 0, PL_W, PL_H}, dr = {0, 0, PL_RW, PL_RH};
  NPP_TRY(nppiResize_8u_C4R_Ctx(k->blur, (int)N.rgba_pitch, ssz, sr, k->small,
                                (int)N.small_pitch, dsz, dr, NPPI_INTER_LINEAR, N.ctx));
  return 0;
}

static int dnn(npp_cam *k, char *err, size_t n) {
  NppiSize ssz = {PL_RW, PL_RH}, csz = {N.cw, N.ch}, dsz = {PL_DW, PL_DH};
  NppiSize planes3 = {PL_DW, 3 * PL_DH};
  NppiRect sr = {0, 0, PL_RW, PL_RH}, cr = {0, 0, N.cw, N.ch};
  Npp8u *roi = k->boxed + (size_t)N.oy * N.boxed_pitch + (size_t)N.ox * 4;
  const int order[3] = {0, 1, 2};
  Npp32f *const planes[3] = {k->planar, k->planar + N.planar_pitch / 4 * PL_DH,
                             k->planar + 2 * (N.planar_pitch / 4 * PL_DH)};
  NPP_TRY(nppiResize_8u_C4R_Ctx(k->small, (int)N.small_pitch, ssz, sr, roi, (int)N.boxed_pitch,
                                csz, cr, NPPI_INTER_LINEAR, N.ctx));
  NPP_TRY(nppiSwapChannels_8u_C4C3R_Ctx(k->boxed, (int)N.boxed_pitch, k->rgb, (int)N.rgb_pitch,
                                        dsz, order, N.ctx));
  NPP_TRY(nppiConvert_8u32f_C3R_Ctx(k->rgb, (int)N.rgb_pitch, k->f3, (int)N.f3_pitch, dsz, N.ctx));
  NPP_TRY(nppiMulC_32f_C3IR_Ctx(N.scale, k->f3, (int)N.f3_pitch, dsz, N.ctx));
  NPP_TRY(nppiSubC_32f_C3IR_Ctx(N.offset, k->f3, (int)N.f3_pitch, dsz, N.ctx));
  NPP_TRY(nppiCopy_32f_C3P3R_Ctx(k->f3, (int)N.f3_pitch, planes, (int)N.planar_pitch, dsz, N.ctx));
  NPP_TRY(nppiConvert_32f16f_C1R_Ctx(k->planar, (int)N.planar_pitch, k->out, (int)N.out_pitch,
                                     planes3, NPP_RND_NEAR, N.ctx));
  return 0;
}

int pl_npp_frame(const pl_nv12 *in, char *err, size_t n) {
  for (int c = 0; c < N.cams; c++)
    if (colour(&in[c], &N.cam[c], err, n)) return -1;
  for (int c = 0; c < N.cams; c++)
    if (gauss(&N.cam[c], err, n)) return -1;
  for (int c = 0; c < N.cams; c++)
    if (resize(&N.cam[c], err, n)) return -1;
  for (int c = 0; c < N.cams; c++)
    if (dnn(&N.cam[c], err, n)) return -1;
  return 0;
}

/*
 * pipeline.h - what jet-pipeline's parts share: the chain's sizes and
 * parameters, and the NPP chain (pipeline-npp.c, built where CMake found NPP).
 */
#ifndef JET_PIPELINE_H
#define JET_PIPELINE_H

#include <stddef.h>

/* The chain: a PL_W x PL_H NV12 frame -> RGBA8 -> Gaussian 5x5 -> PL_RW x PL_RH
 * -> PL_DW x PL_DH letterboxed planar FP16. */
#define PL_W 1920
#define PL_H 1080
#define PL_RW 960
#define PL_RH 540
#define PL_DW 640
#define PL_DH 640
#define PL_KSIZE 5
#define PL_MAX_CAMS 4

/* Normalisation of the DNN stage, R, G, B order: pad in 0..255 units, mean
 * and stddev in 0..1 units (the common ImageNet values). */
#define PL_PAD_INIT {114.0f, 114.0f, 114.0f}
#define PL_MEAN_INIT {0.485f, 0.456f, 0.406f}
#define PL_STD_INIT {0.229f, 0.224f, 0.225f}

/* One NV12 input: Y and UV planes with one pitch (as jet_image_create makes them). */
typedef struct pl_nv12 {
  const void *y, *uv;
  size_t pitch;
} pl_nv12;

/* NPP's chain for @cams cameras queued on @cuda_stream (a cudaStream_t):
 * allocates the intermediate images and fills the letterbox padding once.
 * Writes NPP's version into @version. Returns 0, or -1 with @err set. */
int pl_npp_init(void *cuda_stream, int cams, char *version, size_t vn, char *err, size_t n);
/* Queue one frame of @cams (as given to pl_npp_init) inputs. Returns 0, or -1
 * with @err set (the failing NPP function and its status). */
int pl_npp_frame(const pl_nv12 *in, char *err, size_t n);
/* The FP16 planes of camera @cam's output: one allocation, plane p at
 * base + p * PL_DH * pitch. */
void pl_npp_output(int cam, const void **base, size_t *pitch);
/* Free what pl_npp_init allocated. */
void pl_npp_release(void);

#endif /* JET_PIPELINE_H */

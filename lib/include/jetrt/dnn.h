/*
 * jetrt/dnn.h - DNN input preprocessing: camera frame to network tensor in
 * one pass.
 *
 * jet_dnn_preprocess reads an NV12 or RGBA8 frame once and writes a planar
 * float RGB image (RGBF32P, CHW: three full-size float planes) or its half
 * precision twin (RGBF16P, what TensorRT engines often take), fusing colour
 * conversion, bilinear resize, optional letterbox and per-channel mean/std
 * normalisation. The exact rule is in tests/ref/ref_image.h
 * (ref_dnn_preprocess) and repeated below.
 */
#ifndef JETRT_DNN_H
#define JETRT_DNN_H

#include "image.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What jet_dnn_preprocess does besides resizing. All fields are read. */
typedef struct jet_dnn_params {
  jet_color_matrix matrix; /**< YUV matrix of an NV12 source (checked, unused for RGBA8) */
  jet_color_range range;   /**< YUV range of an NV12 source (checked, unused for RGBA8) */
  int letterbox;           /**< 1: keep the aspect ratio and pad; 0: stretch to the destination */
  int bgr;                 /**< 1: planes B, G, R; 0: planes R, G, B */
  float pad[3];            /**< letterbox fill in 0..255 units, R, G, B order (normalised like pixels) */
  float mean[3];           /**< subtracted, in 0..1 units, R, G, B order */
  float stddev[3];         /**< divided by, in 0..1 units, R, G, B order; non-zero */
} jet_dnn_params;

/**
 * jet_dnn_preprocess - NV12 or RGBA8 -> planar float or half RGB with
 * resize, letterbox and normalisation, in one kernel.
 *
 * For a sw x sh source and a dw x dh destination:
 *  1. Content rectangle (ox, oy, cw, ch). Without letterbox the whole
 *     destination. With letterbox the largest rectangle of the source's
 *     aspect: if dw*sh <= dh*sw then cw = dw, ch = max(1, (sh*dw + sw/2) / sw),
 *     else ch = dh, cw = max(1, (sw*dh + sh/2) / sh); centred:
 *     ox = (dw - cw) / 2, oy = (dh - ch) / 2 (integer division).
 *  2. Inside it, pixel (x, y) is the bilinear sample (jet_resize's
 *     JET_INTERP_LINEAR coordinates for a cw x ch destination) of the four
 *     taps' 8-bit R, G, B, without rounding: v = the exact Q22 sum / 2^22.
 *     NV12 taps are converted first (color_coeffs.h rule for @matrix and
 *     @range, nearest chroma); RGBA8 alpha is ignored. Outside it v = pad.
 *  3. out = (v / 255 - mean) / stddev, written to plane c (R, G, B), or to
 *     plane 2 - c when bgr is set.
 * Accuracy: padding is exact (computed on the host in double, like the
 * reference); other values are within 6e-8 * ((2 + |mean|) / |stddev| +
 * |out|) of the reference, i.e. within its 1e-5 * (1 + |reference|) for
 * |stddev| >= 0.02 and |mean| <= 1.
 * Half output (RGBF16P): each value is exactly the float the RGBF32P call
 * writes, rounded to the nearest half, ties to even (__float2half_rn):
 * overflow gives +-infinity, tiny values subnormals or zero. Half has 11
 * significant bits, so it is within 2^-11 * |out| (plus 2^-25 below 2^-14)
 * of the float value.
 * @stream: the stream to run on; a stream of the images' context.
 * @src: an NV12 or RGBA8 image.
 * @dst: an RGBF32P or RGBF16P image of any size.
 * @p: the parameters; copied, so it may be reused as soon as the call returns.
 * @return JET_STATUS_OK when queued; JET_STATUS_INVALID_HANDLE for a bad
 *         @stream, @src or @dst; JET_STATUS_WRONG_CONTEXT across contexts;
 *         JET_STATUS_INVALID_ARGUMENT for formats that do not fit ("format
 *         mismatch"), overlapping images, a NULL @p, an unknown matrix or
 *         range, letterbox or bgr other than 0 or 1, a zero or non-finite
 *         stddev, or a non-finite mean or pad; a CUDA or driver status when
 *         the kernel cannot be loaded or launched.
 * Thread safety: safe from any thread; calls that write the same @dst must
 * be ordered by the caller.
 */
jet_status jet_dnn_preprocess(jet_stream stream, jet_image src, jet_image dst,
                              const jet_dnn_params *p);

/**
 * jet_dnn_preprocess_batch - jet_dnn_preprocess of @count frames (several
 * cameras) in one kernel launch.
 *
 * Pair i turns @src[i] into @dst[i] with the same @p; every output is bit
 * for bit what jet_dnn_preprocess(@stream, @src[i], @dst[i], @p) writes
 * (jet_dnn_preprocess is this call with @count 1). All sources share one
 * format and size, all destinations one format (RGBF32P or RGBF16P) and
 * size; pitches and addresses may differ per image.
 * @stream: the stream to run on; a stream of the images' context.
 * @src: @count NV12 or RGBA8 images.
 * @dst: @count destinations; none may overlap another or any source.
 * @count: 1 .. JET_IMAGE_BATCH_MAX.
 * @p: the parameters, shared by all pairs; copied.
 * @return JET_STATUS_OK when queued; JET_STATUS_INVALID_ARGUMENT for NULL
 *         arrays, @count out of range, a pair that jet_dnn_preprocess refuses
 *         (the message names the pair), sources or destinations of differing
 *         formats or sizes, overlapping images, or bad @p as above;
 *         JET_STATUS_INVALID_HANDLE for a bad @stream or image;
 *         JET_STATUS_WRONG_CONTEXT when the images or @stream are not all of
 *         one context; a CUDA or driver status when the kernel cannot be
 *         loaded or launched. Nothing is queued on failure.
 * Thread safety: safe from any thread; calls that write the same
 * destinations must be ordered by the caller.
 */
jet_status jet_dnn_preprocess_batch(jet_stream stream, const jet_image *src, const jet_image *dst,
                                    int count, const jet_dnn_params *p);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_DNN_H */

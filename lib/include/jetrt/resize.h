/*
 * jetrt/resize.h - resize (nearest, bilinear, area) and bilinear remap.
 *
 * Both operations are asynchronous on a jet_stream and read and write
 * jet_images of one of the pixel formats: GRAY8, RGB8, BGR8, RGBA8, BGRA8
 * (8-bit channels) and GRAYF32, RGBF32 (float channels). Source and
 * destination have the same format; every channel, alpha included, is
 * treated alike and never reordered. The exact arithmetic (fixed-point
 * coordinates and weights, rounding) is written in kernels/image/color_coeffs.h
 * and tests/ref/ref_image.h; the kernels follow it bit for bit for 8-bit
 * results.
 *
 * Source and destination must not overlap (the operations never work in
 * place). Both images, the stream and (for remap) the map must stay valid
 * until the stream has passed the operation.
 */
#ifndef JETRT_RESIZE_H
#define JETRT_RESIZE_H

#include "image.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * jet_resize - scale @src to the size of @dst.
 *
 * Pixel centres are at half-integers (OpenCV's convention): destination
 * column dx samples source x = (dx + 0.5) * sw / dw - 0.5, rows alike.
 *  - JET_INTERP_NEAREST: the source pixel whose area holds the destination
 *    pixel's centre, floor((2*dx + 1) * sw / (2*dw)) (OpenCV's
 *    INTER_NEAREST_EXACT); pixels are copied bit for bit.
 *  - JET_INTERP_LINEAR: bilinear with 11-bit fixed-point fractions, edges
 *    clamped. 8-bit: one rounding (half up) of the exact Q22 sum, matching
 *    the reference exactly. Float: the same fractions, the result within
 *    1e-5 * (1 + |reference|) (in practice the correctly rounded value). A
 *    tap whose weight is 0 may go unread: where the height is divided by an
 *    odd integer (1/3, 1/5, ...) and the width is not enlarged, only the
 *    source rows under destination centres are read, so an infinity or NaN
 *    in the rows between does not reach the result; elsewhere it may.
 *  - JET_INTERP_AREA: the exact pixel-area average (weights by overlap);
 *    downscaling only (dst no larger than src on both axes). 8-bit: rounded
 *    half up, matching the reference exactly (the reference header allows
 *    1 LSB). Float: within 1e-4 * (1 + |reference|), in practice within
 *    1 ulp of it; a GPU whose FP64 runs at half its FP32 rate
 *    (jet_policy.fp64_sums) sums in FP64 and rounds once, others (Jetson
 *    included) in compensated FP32, so the two may differ by 1 ulp.
 * Any size to any size; the same size copies (nearest, linear) or averages
 * one pixel (area), i.e. copies too.
 * @stream: the stream to run on; a stream of the images' context.
 * @src, @dst: images of the same pixel format (see the top of this header).
 * @interp: the interpolation.
 * @return JET_STATUS_OK when queued; JET_STATUS_INVALID_HANDLE for a NULL,
 *         destroyed or wrong-type @stream, @src or @dst;
 *         JET_STATUS_WRONG_CONTEXT when they belong to different contexts;
 *         JET_STATUS_INVALID_ARGUMENT for formats that do not fit ("format
 *         mismatch": different formats or not a pixel format), overlapping
 *         images, an unknown @interp, or JET_INTERP_AREA with a destination
 *         wider or taller than the source; a CUDA or driver status when the
 *         kernel cannot be loaded or launched (JET_STATUS_NO_KERNEL_IMAGE, ...).
 * Thread safety: safe from any thread; calls that write the same @dst must
 * be ordered by the caller.
 */
jet_status jet_resize(jet_stream stream, jet_image src, jet_image dst, jet_interp interp);

/**
 * jet_resize_batch - resize @count images at once: @src[i] to the size of
 * @dst[i] for every i, with one @interp, in ONE kernel launch (for several
 * cameras of one format and size: one launch's fixed cost instead of @count,
 * and a grid that fills the GPU where one small image would not).
 *
 * Every pair is resized exactly as jet_resize would resize it (same
 * arithmetic, bit-identical 8-bit results, the same float results); a batch
 * of one is the same launch as jet_resize. The pixel bytes of each @dst[i]
 * are the only memory written.
 * @stream: the stream to run on; a stream of the images' context.
 * @src, @dst: arrays of @count images (not NULL). All sources have one
 *       format and size, all destinations the same format and one size; the
 *       images may sit anywhere (created, wrapped, pitches differing between
 *       images). All belong to one context. No destination may overlap any
 *       image of the batch (its own source, another source, another
 *       destination); sources may overlap each other.
 * @count: 1 to JET_IMAGE_BATCH_MAX (16).
 * @interp: as for jet_resize, for every pair (JET_INTERP_AREA downscales
 *       only).
 * @return JET_STATUS_OK when queued;
 *         JET_STATUS_INVALID_HANDLE for a NULL, destroyed or wrong-type
 *         @stream or image (message "pair i: ..." for an image);
 *         JET_STATUS_WRONG_CONTEXT when they belong to different contexts;
 *         JET_STATUS_INVALID_ARGUMENT for NULL arrays, @count outside
 *         1..JET_IMAGE_BATCH_MAX, a pair jet_resize refuses ("pair i: format
 *         mismatch ..."), pairs of different formats or sizes ("size
 *         mismatch: pair i differs from pair 0 ..."), overlaps ("dst[i]
 *         overlaps src[j]"), an unknown @interp, or JET_INTERP_AREA with a
 *         destination wider or taller than the source; nothing is queued
 *         then, and no CUDA call is made before these checks;
 *         otherwise the statuses of jet_resize (kernel loading, launch).
 * Thread safety: safe from any thread; the arrays are read during the call
 * only; calls that write the same @dst[i] must be ordered by the caller.
 */
jet_status jet_resize_batch(jet_stream stream, const jet_image *src, const jet_image *dst,
                            int count, jet_interp interp);

/**
 * jet_remap - dst(x, y) = src sampled bilinearly at map(x, y), for lens
 * undistortion and any other per-pixel warp.
 *
 * map(x, y) = (fx, fy) are floats in source pixel units with pixel centres
 * at integers (OpenCV's remap convention). Each coordinate is clamped to
 * +-JET_REMAP_COORD_LIMIT (2^20; NaN counts as -2^20, far outside) and
 * rounded to 1/32 pixel (5-bit fractions, half to even); each of the four
 * taps is resolved on its own by @border: REPLICATE and REFLECT_101 map the
 * index into the image, CONSTANT takes @border_value. 8-bit results match
 * the reference exactly; float results within 1e-5 * (1 + |reference|).
 * @stream: the stream to run on; a stream of the images' context.
 * @src, @dst: images of the same pixel format; any sizes.
 * @map: device-accessible memory (device, managed, or mapped pinned host
 *       memory; pageable host memory only where the device reads it
 *       coherently) of dst-height rows, each of dst-width (fx, fy) float pairs,
 *       x first. It must not overlap @dst. 8-byte alignment of @map and
 *       @map_pitch takes the faster path; 4 is the minimum.
 * @map_pitch: bytes between map rows, >= 8 * dst width and a multiple of 4;
 *       0 means tightly packed (8 * dst width).
 * @border: JET_BORDER_REPLICATE, JET_BORDER_REFLECT_101 or JET_BORDER_CONSTANT.
 * @border_value: the constant per channel in memory order (R, G, B, A for
 *       RGBA8; one value for GRAY), in the image's units (0..255 for 8-bit
 *       formats, where it is rounded to nearest and clamped); NULL means 0.
 *       Read for CONSTANT only; must not hold NaN for an 8-bit format.
 * @return JET_STATUS_OK when queued; JET_STATUS_INVALID_HANDLE for a bad
 *         @stream, @src or @dst; JET_STATUS_WRONG_CONTEXT across contexts;
 *         JET_STATUS_INVALID_ARGUMENT for formats that do not fit ("format
 *         mismatch"), overlapping images, a NULL or misaligned @map, a
 *         @map_pitch below 8 * width or not a multiple of 4, a map that
 *         overlaps @dst or is memory the device cannot read, another
 *         device's memory, an unknown @border, or a NaN constant for 8-bit;
 *         JET_STATUS_OVERFLOW when the map's extent does not fit the address
 *         space; a CUDA or driver status from the pointer query or launch.
 * Thread safety: safe from any thread; calls that write the same @dst must
 * be ordered by the caller.
 */
jet_status jet_remap(jet_stream stream, jet_image src, jet_image dst, const float *map,
                     size_t map_pitch, jet_border border, const double border_value[4]);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_RESIZE_H */

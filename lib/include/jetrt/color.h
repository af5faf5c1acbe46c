/*
 * jetrt/color.h - colour conversion between image formats.
 *
 * One call converts a whole image, asynchronously on a stream, in one pass
 * over the memory. The arithmetic is integer fixed point, defined exactly in
 * kernels/image/color_coeffs.h (coefficients, rounding, chroma siting), so
 * results are bit-identical on every GPU and to the CPU references in tests/.
 */
#ifndef JETRT_COLOR_H
#define JETRT_COLOR_H

#include "image.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * jet_convert_color - convert @src into @dst (same width and height).
 *
 * Format pairs (source -> destination), and nothing else:
 *  - NV12, NV21, I420, YUYV, UYVY -> RGBA8, BGRA8, RGB8, BGR8, GRAY8;
 *  - RGBA8, RGB8 -> NV12, I420 (for encoders);
 *  - any of RGBA8, BGRA8, RGB8, BGR8, GRAY8 -> any other of them.
 *
 * Arithmetic (exact, see color_coeffs.h):
 *  - YUV -> RGB: @matrix and @range select the coefficients; chroma is
 *    upsampled by nearest sample (pixel (x, y) of a 4:2:0 image uses chroma
 *    (x/2, y/2), of a 4:2:2 image (x/2, y)); alpha is 255.
 *  - YUV -> GRAY8: the luma scaled to full range (limited: 255/219 * (Y - 16),
 *    rounded and clamped; full: Y). @matrix does not matter.
 *  - RGB -> NV12/I420: Y per pixel; U and V from the sums of each 2x2 block.
 *  - RGB/BGR/RGBA/BGRA -> GRAY8: the full-range luma weights of @matrix
 *    (BT.601: 0.299, 0.587, 0.114), rounded; @range does not matter.
 *  - GRAY8 -> colour: R = G = B = grey, alpha 255.
 *  - Among RGB8/BGR8/RGBA8/BGRA8: channels reordered; alpha kept between
 *    RGBA8 and BGRA8, dropped into RGB8/BGR8, 255 out of RGB8/BGR8.
 *  For these last two @matrix and @range do not matter. Both are validated
 *  on every call, also where they are ignored.
 *
 * Speed: one kernel pass, 4 pixels per thread (2x2 blocks with one chroma
 * access for 4:2:0), vector accesses where every plane's pointer and pitch
 * allow them (always for jet_image_create images; wrapped images with other
 * alignments take a byte-wise path that gives the same results, slower).
 *
 * @stream: where the work is queued; a stream of the images' context (or one
 *          of its default streams).
 * @src, @dst: images of one context, equal size, not overlapping (no
 *          conversion works in place). Any memory kind an image may wrap.
 * @matrix: JET_COLOR_BT601 or JET_COLOR_BT709.
 * @range: JET_COLOR_RANGE_LIMITED or JET_COLOR_RANGE_FULL (of the YUV side).
 * @return JET_STATUS_OK when the work is queued (errors of the kernel itself
 *         appear at the next synchronisation);
 *         JET_STATUS_INVALID_HANDLE for a NULL, destroyed or foreign @stream,
 *         @src or @dst;
 *         JET_STATUS_WRONG_CONTEXT when @src, @dst and @stream do not share
 *         one context;
 *         JET_STATUS_INVALID_ARGUMENT for a pair outside the list (message
 *         "format mismatch: ..."), different sizes ("size mismatch: ..."),
 *         overlapping images, or a @matrix or @range outside its enum;
 *         all of these are checked before any CUDA call;
 *         JET_STATUS_NO_KERNEL_IMAGE, JET_STATUS_JIT_FAILED or another module
 *         status when the kernels cannot be loaded (first use on a context);
 *         JET_STATUS_DRIVER_ERROR / JET_STATUS_CUDA_ERROR when the launch
 *         fails.
 * Thread safety: safe from any thread; calls on one stream are ordered as
 * queued. @dst must not be read or written by other work until the stream has
 * passed the conversion, nor @src written.
 */
jet_status jet_convert_color(jet_stream stream, jet_image src, jet_image dst,
                             jet_color_matrix matrix, jet_color_range range);

/**
 * jet_convert_color_batch - convert @count images at once: @src[i] into
 * @dst[i] for every i, with one @matrix and @range, in ONE kernel launch (for
 * several cameras of one format and size: one launch's fixed cost instead of
 * @count, and a grid that fills the GPU where one small image would not).
 *
 * Every pair is converted exactly as jet_convert_color would convert it (same
 * format pairs, same arithmetic, bit-identical results); a batch of one is
 * the same launch as jet_convert_color. The pixel bytes of each @dst[i] are
 * the only memory written.
 *
 * @stream: where the work is queued; a stream of the images' context.
 * @src, @dst: arrays of @count images (not NULL). All sources have one
 *          format and size, all destinations one format and size (the
 *          pair's formats as for jet_convert_color, equal sizes); the images
 *          may sit anywhere (created, wrapped, pitches differing between
 *          images). All belong to one context. No destination may overlap
 *          any image of the batch (its own source, another source, another
 *          destination); sources may overlap each other (the same source
 *          twice is fine).
 * @count: 1 to JET_IMAGE_BATCH_MAX (16).
 * @matrix, @range: as for jet_convert_color, for every pair.
 * @return JET_STATUS_OK when the work is queued (errors of the kernel itself
 *         appear at the next synchronisation);
 *         JET_STATUS_INVALID_HANDLE for a NULL, destroyed or foreign
 *         @stream or any NULL or dead image (message "pair i: ...");
 *         JET_STATUS_WRONG_CONTEXT when the images and @stream do not share
 *         one context;
 *         JET_STATUS_INVALID_ARGUMENT for NULL arrays, @count outside
 *         1..JET_IMAGE_BATCH_MAX, a pair jet_convert_color refuses ("pair i:
 *         format mismatch ...", "pair i: size mismatch ..."), pairs of
 *         different formats or sizes ("size mismatch: pair i differs from
 *         pair 0 ..."), overlaps ("dst[i] overlaps src[j]"), or a @matrix or
 *         @range outside its enum; all of these are checked before any CUDA
 *         call, and nothing is queued;
 *         otherwise the statuses of jet_convert_color (kernel loading,
 *         launch).
 * Thread safety: safe from any thread; the arrays are read during the call
 * only. No @dst[i] may be read or written by other work until the stream has
 * passed the conversion, nor any @src[i] written.
 */
jet_status jet_convert_color_batch(jet_stream stream, const jet_image *src, const jet_image *dst,
                                   int count, jet_color_matrix matrix, jet_color_range range);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_COLOR_H */

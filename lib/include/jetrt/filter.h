/*
 * jetrt/filter.h - box and Gaussian filters.
 *
 * Both filters take a square k x k window centred on each pixel, with k odd
 * in JET_FILTER_KSIZE_MIN..JET_FILTER_KSIZE_MAX (3..31), and treat every
 * channel alike (alpha included) without mixing channels. Window taps outside
 * the image are resolved by the border mode (jet_border in jetrt/image.h):
 *  - JET_BORDER_REPLICATE:   the nearest edge pixel (aaa|abcd|ddd);
 *  - JET_BORDER_REFLECT_101: mirrored about the edge pixel (dcb|abcd|cba),
 *    repeated as needed, so a window larger than the image is still defined;
 *  - JET_BORDER_CONSTANT:    the given border value.
 *
 * Formats: source and destination have the same format and size, one of
 * GRAY8, RGB8, BGR8, RGBA8, BGRA8 (8-bit channels) or GRAYF32, RGBF32 (float
 * channels). Anything else is JET_STATUS_INVALID_ARGUMENT ("format mismatch").
 * The filters never work in place: overlapping source and destination memory
 * is JET_STATUS_INVALID_ARGUMENT.
 *
 * Arithmetic (exactly the CPU reference's, tests/ref/ref_image.h and
 * kernels/image/color_coeffs.h), with S the sum over the window:
 *  - box, 8-bit:        (S + k*k/2) / (k*k), integer (round half up); exact;
 *  - box, float:        S / (k*k), within 1e-4 * (1 + |exact|);
 *  - Gaussian, 8-bit:   Q8 weights q_i (sum exactly 256, see color_coeffs.h),
 *                       out = (sum_ij q_i q_j p_ij + 2^15) >> 16; exact;
 *  - Gaussian, float:   weights g_i / sum g, within 1e-4 * (1 + |exact|).
 * The weights g_i = exp(-(i - k/2)^2 / (2 sigma^2)), i = 0..k-1, are computed
 * on the host in double.
 *
 * Both calls are asynchronous: they check their arguments, queue one kernel on
 * @stream and return. The images must stay alive, and the source unchanged,
 * until the stream has passed the kernel.
 */
#ifndef JETRT_FILTER_H
#define JETRT_FILTER_H

#include "image.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Smallest and largest kernel size (odd sizes in between are accepted). */
#define JET_FILTER_KSIZE_MIN 3
#define JET_FILTER_KSIZE_MAX 31

/**
 * jet_filter_box - mean of the k x k window around each pixel.
 *
 * @stream: the stream to queue on; it belongs to the images' context (or is
 *          one of that context's default streams).
 * @src, @dst: images of one context, same format (see above) and size, not
 *          overlapping.
 * @ksize: odd window size, 3..31.
 * @border: JET_BORDER_REPLICATE, JET_BORDER_REFLECT_101 or JET_BORDER_CONSTANT.
 * @border_value: for JET_BORDER_CONSTANT, the value of every channel in
 *          memory order (first N used, N the channel count); NULL means 0.
 *          For 8-bit images each value is clamped to 0..255 and rounded to
 *          nearest, halves away from zero; NaN is refused there. Ignored for
 *          the other modes.
 * @return JET_STATUS_OK once the kernel is queued;
 *         JET_STATUS_INVALID_ARGUMENT for an even @ksize or one outside
 *         3..31, an unknown @border, a NaN border value of an 8-bit image,
 *         formats or sizes that do not fit (message "format mismatch" or
 *         "size mismatch"), overlapping images, or a row too long to index
 *         (width * channels >= 2^30);
 *         JET_STATUS_INVALID_HANDLE for a NULL or destroyed image or stream;
 *         JET_STATUS_WRONG_CONTEXT when @dst or @stream belongs to another
 *         context than @src;
 *         JET_STATUS_NO_KERNEL_IMAGE, JET_STATUS_JIT_FAILED or a driver status
 *         when the filter kernels cannot be loaded or launched.
 * Thread safety: safe from any thread; the caller orders uses of the images.
 */
jet_status jet_filter_box(jet_stream stream, jet_image src, jet_image dst, int ksize,
                          jet_border border, const float border_value[4]);

/**
 * jet_filter_gaussian - Gaussian blur with a separable k x k kernel.
 *
 * @sigma: standard deviation in pixels, the same on both axes; <= 0 derives
 *         it from @ksize as 0.3 * ((ksize - 1) * 0.5 - 1) + 0.8 (OpenCV's
 *         rule). NaN or infinity is refused.
 * The other parameters and the statuses are those of jet_filter_box.
 * Thread safety: safe from any thread; the caller orders uses of the images.
 */
jet_status jet_filter_gaussian(jet_stream stream, jet_image src, jet_image dst, int ksize,
                               double sigma, jet_border border, const float border_value[4]);

/**
 * jet_filter_box_batch - jet_filter_box on @count pairs in one launch.
 *
 * For several cameras: the pairs run in one kernel launch, so small frames
 * fill the GPU together and the launch cost is paid once. Results are
 * bit-identical to @count jet_filter_box calls.
 * @src, @dst: arrays of @count images; every source has src[0]'s format and
 *         size, every destination dst[0]'s; all of one context; no
 *         destination may overlap any image of the batch.
 * @count: 1 to JET_IMAGE_BATCH_MAX.
 * The other parameters are jet_filter_box's, the same for every pair.
 * @return jet_filter_box's statuses; also JET_STATUS_INVALID_ARGUMENT for
 *         NULL arrays, @count out of range, pairs of different shapes ("size
 *         mismatch: pair N ...") or overlaps across pairs. Every check runs
 *         before anything is queued.
 * Thread safety: safe from any thread; the caller orders uses of the images.
 */
jet_status jet_filter_box_batch(jet_stream stream, const jet_image *src, const jet_image *dst,
                                int count, int ksize, jet_border border,
                                const float border_value[4]);

/**
 * jet_filter_gaussian_batch - jet_filter_gaussian on @count pairs in one
 * launch; arrays, @count and statuses as for jet_filter_box_batch, results
 * bit-identical to @count jet_filter_gaussian calls.
 * Thread safety: safe from any thread; the caller orders uses of the images.
 */
jet_status jet_filter_gaussian_batch(jet_stream stream, const jet_image *src,
                                     const jet_image *dst, int count, int ksize, double sigma,
                                     jet_border border, const float border_value[4]);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_FILTER_H */

/*
 * jetrt/reduce.h - per-channel sum, mean, minimum and maximum of an image,
 * and the 256-bin histogram of a GRAY8 image.
 *
 * Asynchronous delivery. jet_reduce and jet_histogram queue one kernel on a
 * stream and return; the kernel writes its result into memory the caller
 * names: device memory (to feed later GPU work without a host round trip) or
 * mapped host memory (cudaHostAlloc(..., cudaHostAllocMapped), read by the
 * CPU once the stream has passed the operation, e.g. after an event). The
 * kernel runs in one pass: every block reduces a part of the image, the
 * blocks' results meet in the work buffer (in atomic accumulators for the 8-
 * and 16-bit formats and the histogram, as partial results for the float
 * formats), and the last block to finish writes the answer; nothing returns
 * to the host in between.
 *
 * Work memory. The blocks' results live in a caller-provided work
 * buffer of jet_reduce_work_size() bytes of device memory, which must be
 * zero-filled once before its first use (jet_memset or cudaMemset). Every
 * operation leaves it zero-filled again, so a buffer is allocated and cleared
 * once and then reused by any number of jet_reduce and jet_histogram calls,
 * one at a time: calls sharing a buffer must be ordered (one stream, or
 * events), never concurrent. This keeps every call free of allocation and of
 * a clearing step, which at 4K would cost as much as the reduction. (A
 * library-owned per-call cudaMallocAsync would need a clearing memset each
 * time as well.) jet_reduce_sync and jet_histogram_sync allocate their own
 * and wait: simple, but slow.
 *
 * Formats (jet_reduce): GRAY8, GRAY16, GRAYF32, RGB8, BGR8, RGBA8, BGRA8,
 * RGBF32; channels in memory order (B, G, R for BGR8). Accuracy:
 *  - 8- and 16-bit formats: sums are exact (64-bit integers), min and max
 *    exact, mean = sum / count in double (correctly rounded);
 *  - F32 formats: min and max exact; sums are accumulated four samples at a
 *    time in float and then in double, so the sum is within
 *    1e-6 * (sum of |x|) of the exact sum (the tests allow the reference's
 *    1e-5); the order of accumulation is fixed for a given image size and
 *    device, so results repeat bit for bit. NaN samples are skipped by min
 *    and max and make the sum NaN; samples above about 8e37 in magnitude
 *    (FLT_MAX / 4) may overflow the float partial sums to infinity.
 */
#ifndef JETRT_REDUCE_H
#define JETRT_REDUCE_H
#include <stdint.h>

#include "image.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What jet_reduce writes (144 bytes, natural alignment; 8-byte aligned). */
typedef struct jet_reduce_result {
  double sum[4];            /**< per channel; unused channels 0 */
  double mean[4];           /**< sum / count */
  double min[4];            /**< exact sample values */
  double max[4];
  unsigned long long count; /**< pixels: width * height */
  int channels;             /**< 1, 3 or 4 */
  int reserved;             /**< 0 */
} jet_reduce_result;

/**
 * jet_reduce_work_size - bytes of work memory jet_reduce and jet_histogram
 * need on @ctx's device (a few tens of KiB; it depends on the number of
 * multiprocessors, not on the image).
 * @bytes: receives the size.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @bytes.
 * Thread safety: safe from any thread.
 */
jet_status jet_reduce_work_size(jet_context ctx, size_t *bytes);

/**
 * jet_reduce - queue the per-channel sum, mean, min and max of @src.
 * @stream: a stream of @src's context.
 * @src: a live image of a format listed above.
 * @work: device (or managed) memory of the context's device, 8-byte aligned,
 *        zero-filled before its first use (see above); not used by other work
 *        until the stream has passed this call.
 * @work_bytes: its size, at least jet_reduce_work_size().
 * @out: where the result goes: device, managed or mapped host memory, 8-byte
 *       aligned (for mapped host memory the host or the device pointer).
 * @return JET_STATUS_OK once queued; JET_STATUS_INVALID_HANDLE for a NULL or
 *         destroyed image or stream; JET_STATUS_WRONG_CONTEXT for a stream of
 *         another context; JET_STATUS_INVALID_ARGUMENT for a format outside the
 *         list ("format mismatch"), NULL or misaligned @work / @out, a
 *         @work_bytes below the size needed, or memory the device cannot use
 *         (pageable host memory; @work in host memory); a CUDA status.
 * Thread safety: safe from any thread; see above for sharing @work.
 */
jet_status jet_reduce(jet_stream stream, jet_image src, void *work, size_t work_bytes,
                      jet_reduce_result *out);

/**
 * jet_reduce_sync - jet_reduce into host memory, waiting for the result.
 * Allocates and frees its own work memory (cudaMalloc / cudaFree) and
 * synchronises @stream: for occasional use, not in a frame loop.
 * @out: host memory (any kind).
 * @return as jet_reduce (without the @work cases); JET_STATUS_OUT_OF_MEMORY.
 * Thread safety: safe from any thread.
 */
jet_status jet_reduce_sync(jet_stream stream, jet_image src, jet_reduce_result *out);

/**
 * jet_histogram - queue the 256-bin histogram of a GRAY8 image: bin v counts
 * the pixels of value v; the bins sum to width * height.
 * @stream, @work, @work_bytes: as for jet_reduce (the same work buffer serves
 *        both operations, one at a time).
 * @src: a live GRAY8 image (other formats: "format mismatch").
 * @hist: 256 uint32_t, written (not added to): device, managed or mapped host
 *        memory, 4-byte aligned.
 * @return as jet_reduce.
 * Thread safety: as jet_reduce.
 */
jet_status jet_histogram(jet_stream stream, jet_image src, void *work, size_t work_bytes,
                         uint32_t *hist);

/**
 * jet_histogram_sync - jet_histogram into host memory (256 uint32_t),
 * waiting for the result; allocates its own work memory like jet_reduce_sync.
 * @return as jet_reduce_sync.
 * Thread safety: safe from any thread.
 */
jet_status jet_histogram_sync(jet_stream stream, jet_image src, uint32_t *hist);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_REDUCE_H */

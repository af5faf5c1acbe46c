/*
 * kernels/image/reduce_params.h - launch shapes and the work-memory layout of
 * the reduction and histogram kernels (kernels/image/reduce.cu), shared with
 * their C launcher (lib/image/reduce.c) and tests/unit/test_reduce_gpu.c.
 * Plain C, no includes, so the one layout compiles as C and as CUDA.
 */
#ifndef JET_KERNELS_IMAGE_REDUCE_PARAMS_H
#define JET_KERNELS_IMAGE_REDUCE_PARAMS_H

/* jet_reduce_*: blocks of JET_RED_THREADS, at most JET_RED_BLOCKS_PER_SM per
 * SM (their __launch_bounds__: one wave). jet_histogram_u8: blocks of
 * JET_HIST_THREADS, at most one per SM. */
#define JET_RED_THREADS 256
#define JET_RED_BLOCKS_PER_SM 4
#define JET_HIST_THREADS 1024

/* Work memory, in bytes (zero-filled once by the caller; every kernel leaves
 * [0, JET_RED_WORK_PARTIALS) zero-filled):
 *   [0, 4)        u32 ticket counter of jet_reduce_*
 *   [4, 8)        u32 ticket counter of jet_histogram_u8
 *   [128, 1664)   integer jet_reduce_*: twelve accumulators, one per line:
 *                 u64 sums of channels 0-3, u32 complemented minima, u32
 *                 maxima (accumulator k at JET_RED_WORK_ACC + k * line)
 *   [2048, 34816) jet_histogram_u8: u32 bin b at JET_RED_WORK_HIST + b * line
 *   [34816, ...)  float jet_reduce_*: one partial result per block
 * An accumulator or bin to a line: thousands of atomics to one line queue at
 * one L2 slice (H100: with its twelve accumulators in one line, RGBA8 took
 * 0.8 us longer at 720p and 1.5 us at 1440p; the histogram 0.5-0.7 us longer
 * with its bins packed). */
#define JET_RED_WORK_LINE 128
#define JET_RED_WORK_ACC 128
#define JET_RED_WORK_HIST 2048
#define JET_RED_WORK_PARTIALS 34816
#define JET_RED_PARTIAL_BYTES 64

#endif /* JET_KERNELS_IMAGE_REDUCE_PARAMS_H */

/*
 * sample_bytes.h - the byte counts the benchmark samples (jet-bench-image,
 * jet-pipeline) compare operations by: what a resize reads of its source.
 */
#ifndef JET_SAMPLE_BYTES_H
#define JET_SAMPLE_BYTES_H

#include "jetrt.h"

/* The source rows (or columns) a resize of @sn to @dn with @interp reads, by
 * kernels/image/color_coeffs.h's rules: nearest one per destination, area the
 * rows its window overlaps, bilinear both taps unless a weight is zero.
 * @used: scratch of @sn bytes. */
long jet_sample_rows_sampled(jet_interp interp, int dn, int sn, unsigned char *used);

#endif /* JET_SAMPLE_BYTES_H */

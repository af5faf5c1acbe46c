/*
 * sample_util.h - small helpers shared by the benchmark samples
 * (jet-bench-image, jet-pipeline): a clock, a sort order, error text and
 * JSON output.
 */
#ifndef JET_SAMPLE_UTIL_H
#define JET_SAMPLE_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "jetrt.h"

/* Seconds on the monotonic clock. */
double jet_sample_now(void);

/* qsort order of doubles, ascending. */
int jet_sample_cmp_double(const void *a, const void *b);

/* "@what: <CUDA error name>" or "@what: <status name>: <jetrt detail>" into
 * @err (@n bytes); both return -1, the samples' failure value. */
int jet_sample_cuda_fail(const char *what, cudaError_t e, char *err, size_t n);
int jet_sample_jet_fail(const char *what, jet_status s, char *err, size_t n);

/* @s as a JSON string: quotes, backslashes and control characters escaped;
 * NULL as "". */
void jet_sample_json_str(FILE *f, const char *s);

/* "<this executable's folder>/@file" into @out (@n bytes), or @file alone
 * where /proc/self/exe cannot be read. */
void jet_sample_default_json_path(const char *file, char *out, size_t n);

#endif /* JET_SAMPLE_UTIL_H */

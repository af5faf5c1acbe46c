/*
 * bench-image.h - what jet-bench-image's parts share.
 *
 * Each group of jetrt operations (colour, resize, dnn, filter, remap,
 * geometry, reductions) is called from its own file, ops_<group>.c. CMake
 * compiles each of those files once at configure time against the jetrt
 * headers of this tree; a file that compiles is built in and defines
 * JET_BENCH_HAVE_<GROUP>=1, one that does not (its API is not there yet) is
 * left out, and the table shows its operations as "not built".
 */
#ifndef JET_BENCH_IMAGE_H
#define JET_BENCH_IMAGE_H

#include <stddef.h>

#include "jetrt.h"

/* The buffers of one timed call: one rotation set. */
typedef struct bench_io {
  jet_image src;    /* source image */
  jet_image dst;    /* destination image; NULL for reductions */
  void *aux;        /* device memory: reduction results (BENCH_AUX_RESULT_BYTES),
                       or the remap map (float x, y pairs, aux_pitch bytes a row) */
  size_t aux_pitch; /* bytes between rows of @aux where it is a map */
  void *work;       /* reductions: zero-filled work memory shared by all calls */
  size_t work_bytes;
  int width, height;         /* source size */
  int dst_width, dst_height; /* destination size (equal to the source size where there is none) */
} bench_io;

/* Bytes of device memory every set gets for reduction results (and NPP's sum). */
#define BENCH_AUX_RESULT_BYTES 4096

/* One jetrt operation, queued on @stream; returns the jet_status of the call. */
typedef jet_status (*bench_jet_fn)(jet_stream stream, const bench_io *io);

/* A named operation of a group. */
typedef struct bench_jet_entry {
  const char *key;
  bench_jet_fn fn;
} bench_jet_entry;

/* Each group's list, terminated by {NULL, NULL}. */
extern const bench_jet_entry bench_ops_color[];
extern const bench_jet_entry bench_ops_resize[];
extern const bench_jet_entry bench_ops_dnn[];
extern const bench_jet_entry bench_ops_filter[];
extern const bench_jet_entry bench_ops_remap[];
extern const bench_jet_entry bench_ops_geometry[];
extern const bench_jet_entry bench_ops_reduce[];

/* Bytes of work memory the reductions need (ops_reduce.c). */
jet_status bench_reduce_work_size(jet_context ctx, size_t *bytes);

/* NPP (bench-npp.c, built where CMake found NPP). Functions return 0 or the
 * NppStatus (negative: an error; positive: a warning, taken as success). */
typedef int (*bench_npp_fn)(const bench_io *io);
typedef struct bench_npp_entry {
  const char *key;
  bench_npp_fn fn;
  int (*prepare)(const bench_io *io); /* scratch allocated once outside the timing; may be NULL */
} bench_npp_entry;

/* Set up the stream context for @stream (a cudaStream_t) on the current
 * device; writes NPP's version into @version. Returns 0 or -1. */
int bench_npp_init(void *stream, char *version, size_t n);
/* The entry for @key, or NULL where NPP has no such operation. */
const bench_npp_entry *bench_npp_find(const char *key);
/* Free what prepare functions allocated. */
void bench_npp_release(void);

#endif /* JET_BENCH_IMAGE_H */

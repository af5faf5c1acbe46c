/*
 * bench-image.h - what jet-bench-image's parts share.
 *
 * Each group of jetrt operations is called from its own file, ops_<group>.c,
 * through one function bench_jet_<group>(). CMake compiles each of those
 * files once at configure time against the jetrt headers of this tree; a
 * file that compiles is built in and defines JET_BENCH_HAVE_<GROUP>=1, one
 * that does not (its API is not there yet) is left out, and its
 * configurations are reported as "not built". The groups: color, resize,
 * dnn, filter, remap, geometry, reduce, color_batch, resize_batch, dnn_batch
 * and dnn_f16 (the RGBF16P format: ops_dnn_f16.c only names it).
 */
#ifndef JET_BENCH_IMAGE_H
#define JET_BENCH_IMAGE_H

#include <stddef.h>

#include "jetrt.h"

/* Operations of the sweep. */
enum bench_op {
  BOP_COLOR,
  BOP_RESIZE,
  BOP_BOX,
  BOP_GAUSS,
  BOP_REMAP,
  BOP_FLIP,
  BOP_ROTATE,
  BOP_TRANSPOSE,
  BOP_REDUCE,
  BOP_HIST,
  BOP_DNN,
  BOP_MEMCPY2D,
  BOP_MEMSET2D,
  BOP_COLOR_BATCH,
  BOP_RESIZE_BATCH,
  BOP_DNN_BATCH,
  BOP_COUNT_
};

/* Most images of one batched call in the sweep. */
#define BENCH_BATCH_MAX 4

/* One configuration: an operation with all its parameters. */
typedef struct bench_cfg {
  int op;                     /* enum bench_op */
  jet_format src, dst;        /* JET_FORMAT_NONE_ where there is none (reduce: dst; memset: src) */
  int f16;                    /* DNN: destination RGBF16P instead of RGBF32P */
  int w, h;                   /* source size (memset: the image written) */
  int dw, dh;                 /* destination size */
  int scale_num, scale_den;   /* resize: dst = src * num / den */
  int interp;                 /* jet_interp (resize) */
  int ksize, border;          /* filters, remap: jet_border */
  int flip, rotation;         /* jet_flip, jet_rotation */
  int letterbox;              /* DNN */
  int count;                  /* images per call: 1, or the batch size */
  int pad;                    /* memcpy/memset: pitch = row bytes + pad */
  int variant;                /* reduce: 0 compared with NPP's Sum, 1 with its MinMax */
} bench_cfg;

/* The buffers of one timed call: one rotation set. */
typedef struct bench_io {
  const bench_cfg *cfg;
  jet_image src[BENCH_BATCH_MAX]; /* NULL where the configuration has none */
  jet_image dst[BENCH_BATCH_MAX];
  void *aux;        /* device memory: reduction results (BENCH_AUX_RESULT_BYTES),
                       or the remap map (float x, y pairs, aux_pitch bytes a row) */
  size_t aux_pitch; /* bytes between rows of @aux where it is a map */
  void *work;       /* reductions: zero-filled work memory shared by all calls */
  size_t work_bytes;
  jet_format dst_format; /* the destination's real format (RGBF16P resolved) */
} bench_io;

/* Bytes of device memory every set gets for reduction results (and NPP's sum). */
#define BENCH_AUX_RESULT_BYTES 4096

/* The jetrt call of each group, queued on @stream; returns its jet_status.
 * Each is defined in ops_<group>.c and present where JET_BENCH_HAVE_<GROUP>. */
jet_status bench_jet_color(jet_stream stream, const bench_io *io);
jet_status bench_jet_resize(jet_stream stream, const bench_io *io);
jet_status bench_jet_dnn(jet_stream stream, const bench_io *io);
jet_status bench_jet_filter(jet_stream stream, const bench_io *io); /* box and Gaussian */
jet_status bench_jet_remap(jet_stream stream, const bench_io *io);
jet_status bench_jet_geometry(jet_stream stream, const bench_io *io); /* flip, rotate, transpose */
jet_status bench_jet_reduce(jet_stream stream, const bench_io *io);   /* reduce, histogram */
jet_status bench_jet_color_batch(jet_stream stream, const bench_io *io);
jet_status bench_jet_resize_batch(jet_stream stream, const bench_io *io);
jet_status bench_jet_dnn_batch(jet_stream stream, const bench_io *io);

/* Bytes of work memory the reductions need (ops_reduce.c). */
jet_status bench_reduce_work_size(jet_context ctx, size_t *bytes);

/* JET_FORMAT_RGBF16P (ops_dnn_f16.c, built where the format exists). */
extern const jet_format bench_format_rgbf16p;

/* The DNN parameters every DNN configuration uses (letterbox from @cfg). */
void bench_dnn_params(const bench_cfg *cfg, jet_dnn_params *p);

/* NPP (bench-npp.c, built where CMake found NPP; bench-npp-new.c for the
 * entry points of newer NPP releases). Functions return 0 or the NppStatus
 * (negative: an error; positive: a warning, taken as success). */
typedef int (*bench_npp_fn)(const bench_io *io);
typedef struct bench_npp_entry {
  bench_npp_fn fn;
  int (*prepare)(const bench_io *io); /* scratch allocated once outside the timing; may be NULL */
  const char *name;                   /* the NPP function, for the JSON */
} bench_npp_entry;

/* Set up the stream context for @stream (a cudaStream_t) on the current
 * device; writes NPP's version into @version. Returns 0 or -1. */
int bench_npp_init(void *stream, char *version, size_t n);
/* Fill @out with NPP's equivalent of @cfg; 1 when there is one, 0 when not. */
int bench_npp_select(const bench_cfg *cfg, bench_npp_entry *out);
/* The same for the newer entry points (bench-npp-new.c). */
int bench_npp_select_new(const bench_cfg *cfg, bench_npp_entry *out);
/* Free what prepare functions allocated. */
void bench_npp_release(void);

#endif /* JET_BENCH_IMAGE_H */

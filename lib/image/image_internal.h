/*
 * Image internals shared by lib/image/ and the image operations: the computed
 * plane layout, the image handle, and the pure (host-only, CUDA-free) checks
 * the operations run before launching anything.
 */
#ifndef JET_IMAGE_INTERNAL_H
#define JET_IMAGE_INTERNAL_H

#include "internal.h"
#include "../memory/alloc.h"

typedef struct jet__plane_layout {
  int width, height; /* pixels (chroma sites) and rows of this plane */
  size_t row_bytes;  /* width * bytes per pixel */
  size_t pitch;
  size_t offset;     /* from the start of a created image's allocation */
  size_t extent;     /* pitch * (height - 1) + row_bytes: bytes the plane spans */
} jet__plane_layout;

typedef struct jet__image_layout {
  jet_format format;
  int width, height;
  int planes;
  int elem_size;
  jet__plane_layout plane[JET_IMAGE_MAX_PLANES];
  size_t total_bytes; /* a created image's allocation: last offset + extent */
} jet__image_layout;

/* The format table's row, or NULL for an unknown format. */
const jet_format_desc *jet__format(jet_format format);

/* Validate @format and @width x @height and fill @out. @pitches NULL: every
 * pitch is the row bytes rounded up to @align and planes are placed one after
 * another at multiples of @align (jet_image_create). Else @pitches[i] is
 * checked (>= row bytes, multiple of the element size) and offsets are 0.
 * INVALID_ARGUMENT or OVERFLOW with a message naming @fn. */
jet_status jet__image_layout_compute(jet_format format, int width, int height,
                                     const size_t *pitches, size_t align, jet__image_layout *out,
                                     const char *fn);

/* Plane pointers against a layout: non-NULL, aligned to the element size, the
 * extent inside the address space, no two planes overlapping. */
jet_status jet__image_planes_check(const jet__image_layout *layout, void *const *ptrs,
                                   const char *fn);

struct jet_image_s {
  jet__handle h;
  jet__image_layout layout;
  void *plane[JET_IMAGE_MAX_PLANES]; /* device-accessible addresses */
  jet_image_memory memory;
  unsigned flags;                    /* JET_IMAGE_* creation flags */
  jet__alloc mem;                    /* owned allocation; JET__ALLOC_NONE when wrapped */
  const char *lender;                /* borrowed: what lends the memory (jet__image_borrow), else NULL */
  jet__alloc_hold *hold;             /* DLPack exports that keep mem alive past destroy; NULL if none yet */
};

/* Register a new image of @ctx over @ptrs (device addresses per plane of @l);
 * it takes @mem (released by jet_image_destroy) on success only. */
jet_status jet__image_new(struct jet_context_s *ctx, const jet__image_layout *l,
                          jet_image_memory memory, void *const *ptrs, const jet__alloc *mem,
                          unsigned flags, jet_image *out, const char *fn);

/* An image over memory another jetrt object lends for a while (a mapped GL
 * buffer, a mapped EGL frame): jet_image_destroy refuses it, naming @lender;
 * the lender releases it with jet__image_release_borrowed. @pitches as for
 * jet__image_layout_compute (NULL: packed rows); the pointers are checked for
 * alignment and overlap, not against CUDA (the lender knows what they are). */
jet_status jet__image_borrow(struct jet_context_s *ctx, jet_format format, int width, int height,
                             const size_t *pitches, void *const *ptrs, const char *lender,
                             jet_image *out, const char *fn);
void jet__image_release_borrowed(jet_image image);

/* What an operation needs of its source and destination. */
typedef enum jet__image_op {
  JET__IMAGE_OP_CONVERT = 1,  /* colour conversion table, same size */
  JET__IMAGE_OP_RESIZE,       /* same format (resize set), any size */
  JET__IMAGE_OP_FILTER,       /* same format (filter set), same size */
  JET__IMAGE_OP_REMAP,        /* same format (filter set), any destination size */
  JET__IMAGE_OP_FLIP,         /* same single-plane unsubsampled format, same size (also ROTATE_180) */
  JET__IMAGE_OP_TRANSPOSE,    /* same single-plane unsubsampled format, w and h swapped (also ROTATE_90/270) */
  JET__IMAGE_OP_DNN,          /* NV12 or RGBA8 -> RGBF32P or RGBF16P, any size */
  JET__IMAGE_OP_REDUCE,       /* source only: sum/mean/min/max formats */
  JET__IMAGE_OP_HISTOGRAM,    /* source only: GRAY8 */
  JET__IMAGE_OP_COUNT_
} jet__image_op;

const char *jet__image_op_name(jet__image_op op);

/* Whether @src and @dst formats and sizes fit @op. INVALID_ARGUMENT whose
 * message starts with "format mismatch" (or "size mismatch") otherwise; never
 * guesses. For source-only ops pass dst = JET_FORMAT_NONE_ and 0 sizes. */
jet_status jet__image_formats_fit(jet__image_op op, jet_format src, int sw, int sh,
                                  jet_format dst, int dw, int dh, const char *fn);

/* 1 when any plane of @a overlaps any plane of @b (byte-range test). */
int jet__image_overlaps(const jet__image_layout *a, void *const *pa, const jet__image_layout *b,
                        void *const *pb);

/* For an operation: @src and @dst are live images of one context (@dst may be
 * NULL for source-only ops), they fit @op, and they do not overlap. */
jet_status jet__image_check_pair(jet_image src, jet_image dst, jet__image_op op, const char *fn);

/* For a batched operation: 1 <= @count <= JET_IMAGE_BATCH_MAX, @src and @dst
 * non-NULL arrays, every pair passes jet__image_check_pair, all sources share
 * src[0]'s format and size and all destinations dst[0]'s (one launch serves
 * them all), all images share one context, and no destination overlaps any
 * other image of the batch. Messages name the index ("src[2]: ..."). */
jet_status jet__image_check_batch(const jet_image *src, const jet_image *dst, int count,
                                  jet__image_op op, const char *fn);

/* Blocks of a launch: @tx tiles across, tiles of @row_mul * @rows rows down
 * @dh rows, @count pairs. Pure. */
unsigned long long jet__tile_blocks(unsigned long long tx, int dh, int row_mul, int rows, int count);

/* Rows per thread (resize) or row groups per tile (filters), @min_rows to
 * @max_rows, for tiles of @row_mul * rows rows, @tx tiles across @dh rows
 * and @count pairs, with @slots blocks resident on the whole GPU at once. A
 * block's time is about rows + @prologue (its tables or halo, in rows), and
 * blocks of equal work finish together, so a last wave of a few blocks costs
 * as much as a full one: the rows with the fewest waves x (rows + prologue),
 * the most rows on a tie. @tx, @dh, @row_mul, @count, @slots >= 1,
 * 1 <= @min_rows <= @max_rows. Pure. */
int jet__wave_rows(unsigned long long tx, int dh, int row_mul, int min_rows, int max_rows, int count,
                   unsigned long long slots, int prologue);

/* The context's SM count, at least 1: the launchers size their grids by it
 * (a device that reported none still gets one SM's worth of blocks). */
static inline unsigned jet__image_sms(const struct jet_context_s *ctx) {
  return ctx->info.sm_count > 0 ? (unsigned)ctx->info.sm_count : 1u;
}

/* div_inv's reciprocal of @d >= 1 (kernels/image/resize_coord.cuh):
 * floor(2^32 / d), and 2^32 - 1 for d = 1, where floor(2^32 / d) does not
 * fit. Pure. */
static inline unsigned jet__div_inv_recip(unsigned long long d) {
  return d == 1 ? 0xffffffffu : (unsigned)((1ull << 32) / d);
}

/* 1 when @sn = k * @dn with k odd (@sn, @dn >= 1): every destination pixel's
 * centre on the axis (color_coeffs.h's half-pixel rule) is on a source pixel,
 * so bilinear's second tap has weight 0 for every pixel (resize's
 * rows_on_src, dnn's one-tap kernels). Pure. */
static inline int jet__centres_on_source(int sn, int dn) { return sn % dn == 0 && (sn / dn) % 2 == 1; }

/* 1 in a compact build (cmake JET_COMPACT_KERNELS), whose kernel modules
 * leave out the kernels that only add speed (resize's enlarging walks and
 * area windows, dnn's one-tap kernels); the launchers then take others. */
#ifndef JET_COMPACT_KERNELS
#define JET_COMPACT_KERNELS 0
#endif

/* jet__builtin_kernel for a launch of @count images of a batch kernel
 * (colour, dnn): for one image the kernel's one-image entry, @name "_1",
 * whose parameter block holds one image's planes instead of 16 (a cheaper
 * launch), where the loaded image has it (cubins and NVRTC of a full build);
 * else @name, the batch entry (compact builds, the PTX fallback image). */
jet_status jet__image_kernel(struct jet_context_s *ctx, const jet_kernel_image_set *set,
                             const char *name, int count, jet_kernel *out, const char *fn);

#endif /* JET_IMAGE_INTERNAL_H */

/*
 * jet_convert_color and jet_convert_color_batch: pick one kernel of
 * kernels/image/color.cu for the format pair, fill its arguments
 * (coefficients, channel selectors, alignment, each pair's planes) and
 * launch it once for the whole batch.
 */
#include <stddef.h>
#include <string.h>

#include "image_internal.h"
#include "jetrt_kernels.h"
#include "../../kernels/image/color_coeffs.h"

typedef struct jet__cc_planes {
  const unsigned char *src[3];
  unsigned char *dst[3];
  unsigned long long spitch[3];
  unsigned long long dpitch[3];
} jet__cc_planes;

/* Mirrors struct cc_args in kernels/image/color.cu field for field. */
typedef struct jet__cc_args {
  int width, height;
  int vec;
  unsigned sel;
  unsigned rsel, gsel, bsel;
  int uoff, voff, yoff;
  int cy, cyoff, crv, cgu, cgv, cbu;
  int gy, gadd;
  int yr, yg, yb, yadd;
  int ur, ug, ub, vr, vg, vb, uvadd;
  int count;
  jet__cc_planes img[JET_IMAGE_BATCH_MAX];
} jet__cc_args;
_Static_assert(JET_IMAGE_BATCH_MAX == 16, "color.cu's CC_BATCH is 16");
_Static_assert(sizeof(jet__cc_args) == 120 + 96 * JET_IMAGE_BATCH_MAX && offsetof(jet__cc_args, img) == 120,
               "jet__cc_args layout differs from color.cu");

#define CC_BLOCK_X 32u
#define CC_BLOCK_Y 8u /* CC_WARPS in color.cu */
#define CC_BLOCKS_PER_SM 8u /* 2048 threads per SM (sm_90) */
#define CC_WAVES 2u

typedef struct cc_row {
  int cy, crv, cgu, cgv, cbu, yr, yg, yb, ur, ug, ub, vr, vg, vb, yoff;
} cc_row;

static const cc_row cc_rows[4] = {
#define ROW(m, r, cy, crv, cgu, cgv, cbu, yr, yg, yb, ur, ug, ub, vr, vg, vb, yoff) \
  {cy, crv, cgu, cgv, cbu, yr, yg, yb, ur, ug, ub, vr, vg, vb, yoff},
    JET_CC_TABLE(ROW)
#undef ROW
};

/* Kernel families (color.cu's S_ and D_ kinds). */
typedef enum { SK_SP420, SK_P420, SK_Y420, SK_P422, SK_C3, SK_C4, SK_G } src_kind;
typedef enum { DK_C4, DK_C3, DK_G, DK_SP420, DK_P420 } dst_kind;

/* Byte offsets of R, G, B, A in an 8-bit pixel; A < 0 when absent. */
static int channel_offsets(jet_format f, int off[4]) {
  static const int rgb[4] = {0, 1, 2, -1}, bgr[4] = {2, 1, 0, -1}, rgba[4] = {0, 1, 2, 3},
                   bgra[4] = {2, 1, 0, 3};
  const int *o;
  switch (f) {
    case JET_FORMAT_RGB8: o = rgb; break;
    case JET_FORMAT_BGR8: o = bgr; break;
    case JET_FORMAT_RGBA8: o = rgba; break;
    case JET_FORMAT_BGRA8: o = bgra; break;
    default: return 0;
  }
  memcpy(off, o, sizeof rgb);
  return 1;
}

/* __byte_perm selector whose result byte k is input byte pos[k]. */
static unsigned selector(const int pos[4]) {
  unsigned s = 0;
  for (int k = 0; k < 4; k++) s |= (unsigned)pos[k] << (4 * k);
  return s;
}

/* Alignment every plane pointer and pitch needs for the vector path. */
static size_t src_align(src_kind k, int plane) {
  switch (k) {
    case SK_P420: return plane ? 2 : 4;
    case SK_P422: return 8;
    case SK_C4: return 16;
    default: return 4;
  }
}

static size_t dst_align(dst_kind k, int plane) {
  switch (k) {
    case DK_C4: return 16;
    case DK_P420: return plane ? 2 : 4;
    default: return 4;
  }
}

static int src_aligned(const struct jet_image_s *im, src_kind k) {
  int planes = k == SK_Y420 ? 1 : im->layout.planes;
  for (int i = 0; i < planes; i++) {
    size_t a = src_align(k, i);
    if ((uintptr_t)im->plane[i] % a || im->layout.plane[i].pitch % a) return 0;
  }
  return 1;
}

static int dst_aligned(const struct jet_image_s *im, dst_kind k) {
  for (int i = 0; i < im->layout.planes; i++) {
    size_t a = dst_align(k, i);
    if ((uintptr_t)im->plane[i] % a || im->layout.plane[i].pitch % a) return 0;
  }
  return 1;
}

static const char *const kernel_names[SK_G + 1][DK_P420 + 1] = {
    [SK_SP420] = {[DK_C4] = "jet_cc_sp420_c4", [DK_C3] = "jet_cc_sp420_c3"},
    [SK_P420] = {[DK_C4] = "jet_cc_p420_c4", [DK_C3] = "jet_cc_p420_c3"},
    [SK_Y420] = {[DK_G] = "jet_cc_y420_g"},
    [SK_P422] = {[DK_C4] = "jet_cc_p422_c4", [DK_C3] = "jet_cc_p422_c3", [DK_G] = "jet_cc_p422_g"},
    [SK_C3] = {[DK_C4] = "jet_cc_c3_c4", [DK_C3] = "jet_cc_c3_c3", [DK_G] = "jet_cc_c3_g",
               [DK_SP420] = "jet_cc_c3_sp420", [DK_P420] = "jet_cc_c3_p420"},
    [SK_C4] = {[DK_C4] = "jet_cc_c4_c4", [DK_C3] = "jet_cc_c4_c3", [DK_G] = "jet_cc_c4_g",
               [DK_SP420] = "jet_cc_c4_sp420", [DK_P420] = "jet_cc_c4_p420"},
    [SK_G] = {[DK_C4] = "jet_cc_g_c4", [DK_C3] = "jet_cc_g_c3"},
};

/* The 16-pixel kernels of GRAY8 destinations (color.cu: cc_gray16), by
 * source kind; every GRAY8 destination's source is packed (one plane read). */
static const char *const gray16_names[SK_G + 1] = {
    [SK_Y420] = "jet_cc_y420_g16", [SK_P422] = "jet_cc_p422_g16", [SK_C3] = "jet_cc_c3_g16",
    [SK_C4] = "jet_cc_c4_g16"};

/* Kernel, its pixels per thread and row, and arguments for @count pairs of
 * one shape that jet__image_formats_fit accepted. */
static jet_status plan(const jet_image *srcs, const jet_image *dsts, int count,
                       jet_color_matrix matrix, jet_color_range range, jet__cc_args *a,
                       const char **kernel, int *px, int *rows_per_thread, const char *fn) {
  const struct jet_image_s *src = srcs[0], *dst = dsts[0];
  const jet_format sf = src->layout.format, df = dst->layout.format;
  dst_kind dk;
  switch (df) {
    case JET_FORMAT_RGBA8: case JET_FORMAT_BGRA8: dk = DK_C4; break;
    case JET_FORMAT_RGB8: case JET_FORMAT_BGR8: dk = DK_C3; break;
    case JET_FORMAT_GRAY8: dk = DK_G; break;
    case JET_FORMAT_NV12: dk = DK_SP420; break;
    case JET_FORMAT_I420: dk = DK_P420; break;
    default: return jet__error(JET_STATUS_INTERNAL, fn, "no colour kernel writes %s", jet_format_name(df));
  }
  src_kind sk;
  switch (sf) {
    case JET_FORMAT_NV12: case JET_FORMAT_NV21: sk = dk == DK_G ? SK_Y420 : SK_SP420; break;
    case JET_FORMAT_I420: sk = dk == DK_G ? SK_Y420 : SK_P420; break;
    case JET_FORMAT_YUYV: case JET_FORMAT_UYVY: sk = SK_P422; break;
    case JET_FORMAT_RGB8: case JET_FORMAT_BGR8: sk = SK_C3; break;
    case JET_FORMAT_RGBA8: case JET_FORMAT_BGRA8: sk = SK_C4; break;
    case JET_FORMAT_GRAY8: sk = SK_G; break;
    default: return jet__error(JET_STATUS_INTERNAL, fn, "no colour kernel reads %s", jet_format_name(sf));
  }
  *kernel = kernel_names[sk][dk];
  if (!*kernel)
    return jet__error(JET_STATUS_INTERNAL, fn, "no colour kernel for %s -> %s",
                      jet_format_name(sf), jet_format_name(df));

  /* color.cu's ROWS: a thread covers 2x2 blocks where 4:2:0 chroma is read or written */
  *rows_per_thread = sk == SK_SP420 || sk == SK_P420 || dk == DK_SP420 || dk == DK_P420 ? 2 : 1;
  memset(a, 0, sizeof *a);
  a->width = src->layout.width;
  a->height = src->layout.height;
  a->count = count;
  a->vec = 1; /* one path for the whole launch: vector accesses only where every pair allows them */
  int rows16 = 1; /* every pair's plane 0 rows 16-byte aligned on both sides */
  for (int n = 0; n < count; n++) {
    jet__cc_planes *im = &a->img[n];
    for (int i = 0; i < srcs[n]->layout.planes; i++) {
      im->src[i] = srcs[n]->plane[i];
      im->spitch[i] = srcs[n]->layout.plane[i].pitch;
    }
    for (int i = 0; i < dsts[n]->layout.planes; i++) {
      im->dst[i] = dsts[n]->plane[i];
      im->dpitch[i] = dsts[n]->layout.plane[i].pitch;
    }
    a->vec &= src_aligned(srcs[n], sk) && dst_aligned(dsts[n], dk);
    rows16 &= ((uintptr_t)im->src[0] | im->spitch[0] | (uintptr_t)im->dst[0] | im->dpitch[0]) % 16 == 0;
  }
  /* GRAY8 destinations with those rows: the 16-pixel kernels. H200 A/B
   * against the 4-pixel ones, 720p to 4K: NV12/I420 0.84-0.95 of the time
   * (1440p 1.13 -> 0.98x copy), YUYV/UYVY 0.91-0.99, RGB8 0.91-0.99, RGBA8
   * 0.97-1.00. */
  *px = 4;
  if (!JET_COMPACT_KERNELS && dk == DK_G && rows16) {
    *kernel = gray16_names[sk];
    *px = 16;
  }

  const cc_row *c = &cc_rows[2 * (matrix == JET_COLOR_BT709) + (range == JET_COLOR_RANGE_FULL)];
  const cc_row *full = &cc_rows[2 * (matrix == JET_COLOR_BT709) + 1];
  const cc_row *lim = &cc_rows[2 * (matrix == JET_COLOR_BT709)];
  a->cy = c->cy;
  a->cyoff = JET_CC_HALF - c->cy * c->yoff;
  a->crv = c->crv;
  a->cgu = c->cgu;
  a->cgv = c->cgv;
  a->cbu = c->cbu;
  if (range == JET_COLOR_RANGE_FULL) {
    a->gy = 1 << JET_CC_SHIFT;
    a->gadd = JET_CC_HALF;
  } else {
    a->gy = lim->cy;
    a->gadd = JET_CC_HALF - lim->cy * lim->yoff;
  }
  /* RGB -> GRAY8 uses the full-range weights whatever the range; -> Y the chosen row. */
  const cc_row *yrow = dk == DK_G ? full : c;
  a->yr = yrow->yr;
  a->yg = yrow->yg;
  a->yb = yrow->yb;
  a->yadd = (yrow->yoff << JET_CC_SHIFT) + JET_CC_HALF;
  a->ur = c->ur;
  a->ug = c->ug;
  a->ub = c->ub;
  a->vr = c->vr;
  a->vg = c->vg;
  a->vb = c->vb;
  a->uvadd = (128 << JET_CC_CHROMA_SHIFT) + (1 << (JET_CC_CHROMA_SHIFT - 1));

  /* Channel order of the destination: which channel (0 R, 1 G, 2 B, 3 A) each byte holds. */
  int doff[4] = {0, 1, 2, 3}, dch[4] = {0, 1, 2, 3};
  if (channel_offsets(df, doff))
    for (int ch = 0; ch < 4; ch++)
      if (doff[ch] >= 0) dch[doff[ch]] = ch;
  switch (sk) {
    case SK_SP420:
      a->uoff = sf == JET_FORMAT_NV21;
      a->voff = sf != JET_FORMAT_NV21;
      break;
    case SK_P422: /* YUYV: Y0 U Y1 V; UYVY: U Y0 V Y1 */
      a->yoff = sf == JET_FORMAT_UYVY;
      a->uoff = sf == JET_FORMAT_UYVY ? 0 : 1;
      a->voff = sf == JET_FORMAT_UYVY ? 2 : 3;
      break;
    default: break;
  }
  if (sk == SK_SP420 || sk == SK_P420 || sk == SK_P422) {
    /* yuv_word: R in byte 0 and G in byte 1 of the first operand, B in byte 6 */
    static const int at[4] = {0, 1, 6, 0};
    int pos[4];
    for (int k = 0; k < 4; k++) pos[k] = at[dch[k]];
    a->sel = selector(pos);
  } else if (sk == SK_C3 || sk == SK_C4) {
    int soff[4];
    channel_offsets(sf, soff);
    a->rsel = (unsigned)soff[0];
    a->gsel = (unsigned)soff[1];
    a->bsel = (unsigned)soff[2];
    /* byte 4 of the second operand (0xFF) where the source has no alpha */
    int pos[4];
    for (int k = 0; k < 4; k++) pos[k] = soff[dch[k]] >= 0 ? soff[dch[k]] : 4;
    a->sel = selector(pos);
  }
  return JET_STATUS_OK;
}

/* The launch shared by the single and the batched call; the pairs passed
 * their checks. */
static jet_status convert(jet_stream stream, const jet_image *src, const jet_image *dst, int count,
                          jet_color_matrix matrix, jet_color_range range, const char *fn) {
  struct jet_context_s *ctx = src[0]->h.ctx;
  if (stream->h.ctx != ctx)
    return jet__error(JET_STATUS_WRONG_CONTEXT, fn,
                      "stream belongs to context %p, the images to context %p",
                      (void *)stream->h.ctx, (void *)ctx);
  if (matrix != JET_COLOR_BT601 && matrix != JET_COLOR_BT709)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "matrix %d is not a jet_color_matrix",
                      (int)matrix);
  if (range != JET_COLOR_RANGE_LIMITED && range != JET_COLOR_RANGE_FULL)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "range %d is not a jet_color_range",
                      (int)range);
  jet__cc_args a;
  const char *name;
  int px = 4, rows_per_thread = 1;
  JET__TRY(plan(src, dst, count, matrix, range, &a, &name, &px, &rows_per_thread, fn));

  /* px pixels per thread and row; the kernel loops over rows beyond grid.y.
   * About CC_WAVES full waves of blocks over the whole batch, every thread
   * running the same number of row groups: the loop amortises each thread's
   * setup (pointers, coefficients), and the balanced count keeps the last
   * wave full. grid.z is the pair of the batch. */
  unsigned long long groups = ((unsigned long long)a.width + (unsigned)px - 1) / (unsigned)px;
  unsigned long long rows = (unsigned long long)a.height / (unsigned)rows_per_thread;
  unsigned long long gx = (groups + CC_BLOCK_X - 1) / CC_BLOCK_X;
  unsigned long long gy = (rows + CC_BLOCK_Y - 1) / CC_BLOCK_Y;
  unsigned long long sms = jet__image_sms(ctx);
  unsigned long long per_column = sms * CC_BLOCKS_PER_SM * CC_WAVES / (gx * (unsigned)count);
  if (per_column < 1) per_column = 1;
  unsigned long long iters = (gy + per_column - 1) / per_column;
  gy = (gy + iters - 1) / iters;
  jet_dim3 grid = {(unsigned)gx, (unsigned)(gy > 65535 ? 65535 : gy), (unsigned)count};
  jet_dim3 block = {CC_BLOCK_X, CC_BLOCK_Y, 1};

  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, ctx, &cu, fn));
  jet_kernel k;
  /* a single pair: the one-pair entry (216 bytes of parameters, not 1656) */
  JET__TRY(jet__image_kernel(ctx, &jet__images_color, name, count, &k, fn));
  void *args[] = {&a};
  return jet__launch(cu, k, grid, block, 0, args, fn);
}

jet_status jet_convert_color(jet_stream stream, jet_image src, jet_image dst,
                             jet_color_matrix matrix, jet_color_range range) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__TRY(jet__image_check_pair(src, dst, JET__IMAGE_OP_CONVERT, __func__));
  return convert(stream, &src, &dst, 1, matrix, range, __func__);
}

jet_status jet_convert_color_batch(jet_stream stream, const jet_image *src, const jet_image *dst,
                                   int count, jet_color_matrix matrix, jet_color_range range) {
  JET__TRY(jet__handle_check(stream, JET__H_STREAM, __func__, "stream"));
  JET__TRY(jet__image_check_batch(src, dst, count, JET__IMAGE_OP_CONVERT, __func__));
  return convert(stream, src, dst, count, matrix, range, __func__);
}

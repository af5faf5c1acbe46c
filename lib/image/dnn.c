/*
 * jet_dnn_preprocess and its batched form: argument checks, the letterbox
 * rectangle and the normalisation constants on the host, then one kernel
 * launch for the whole batch (kernels/image/dnn.cu).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "image_internal.h"
#include "jetrt_kernels.h"
#include "../../kernels/image/color_coeffs.h"
#include "../../kernels/image/dnn_params.h"

static const int cc_rows[4][6] = {
#define JET__CC_ROW(m, r, cy, crv, cgu, cgv, cbu, yr, yg, yb, ur, ug, ub, vr, vg, vb, yoff) \
  {cy, crv, cgu, cgv, cbu, yoff},
    JET_CC_TABLE(JET__CC_ROW)
#undef JET__CC_ROW
};

static jet_status check_params(const jet_dnn_params *p, const char *fn) {
  if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "params are NULL");
  if (p->matrix != JET_COLOR_BT601 && p->matrix != JET_COLOR_BT709)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown colour matrix %d", (int)p->matrix);
  if (p->range != JET_COLOR_RANGE_LIMITED && p->range != JET_COLOR_RANGE_FULL)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown colour range %d", (int)p->range);
  if ((p->letterbox != 0 && p->letterbox != 1) || (p->bgr != 0 && p->bgr != 1))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "letterbox (%d) and bgr (%d) must be 0 or 1",
                      p->letterbox, p->bgr);
  for (int c = 0; c < 3; c++) {
    if (!isfinite(p->stddev[c]) || p->stddev[c] == 0.0f)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "stddev[%d] = %g: needs a finite non-zero value",
                        c, (double)p->stddev[c]);
    if (!isfinite(p->mean[c]) || !isfinite(p->pad[c]))
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "mean[%d] = %g, pad[%d] = %g: need finite values",
                        c, (double)p->mean[c], c, (double)p->pad[c]);
  }
  return JET_STATUS_OK;
}

/* The letterbox rule of ref_image.h (ref_letterbox_rect), 64-bit. */
static void content_rect(int sw, int sh, int dw, int dh, int letterbox, jet__dnn_shared *k) {
  long long w = dw, h = dh;
  if (letterbox) {
    if ((long long)dw * sh <= (long long)dh * sw) {
      h = ((long long)sh * dw + sw / 2) / sw;
    } else {
      w = ((long long)sw * dh + sh / 2) / sh;
    }
    if (w < 1) w = 1;
    if (h < 1) h = 1;
  }
  k->cw = (int)w;
  k->ch = (int)h;
  k->ox = (int)((dw - w) / 2);
  k->oy = (int)((dh - h) / 2);
}

_Static_assert(JET_DNN_BATCH_MAX == JET_IMAGE_BATCH_MAX, "one launch serves a whole batch");
_Static_assert(sizeof(jet__dnn_kparams) <= 4096, "kernel parameters stay under 4 KB");
_Static_assert(offsetof(jet__dnn_kparams, img) == 128 && sizeof(jet__dnn_image) == 80,
               "dnn.cu's one-image entries read the first 208 bytes");

/* One launch for @count checked pairs of one source and one destination shape. */
static jet_status launch(jet_stream stream, const jet_image *src, const jet_image *dst, int count,
                         const jet_dnn_params *p, const char *fn) {
  JET__TRY(check_params(p, fn));
  const jet__image_layout *sl = &src[0]->layout, *dl = &dst[0]->layout;
  const unsigned long long tw = JET_DNN_TX * JET_DNN_PX;
  unsigned long long tx = ((unsigned long long)dl->width + tw - 1) / tw;
  unsigned long long ty = ((unsigned long long)dl->height + JET_DNN_TY - 1) / JET_DNN_TY;
  if (tx * ty > 0x7fffffffull)
    return jet__error(JET_STATUS_UNSUPPORTED, fn,
                      "destination %dx%d needs %llu blocks, over 2^31-1", dl->width, dl->height,
                      tx * ty);
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, src[0]->h.ctx, &cu, fn));

  jet__dnn_kparams k;
  memset(&k, 0, sizeof k);
  const int nv12 = sl->format == JET_FORMAT_NV12, f16 = dl->format == JET_FORMAT_RGBF16P;
  int src_vec = 1, src4 = 1; /* src4: every source plane's pointer and pitch 4-byte aligned */
  k.s.dst_vec = 1;
  const size_t dst_align = (size_t)dl->elem_size * JET_DNN_PX;
  for (int i = 0; i < count; i++) {
    jet__dnn_image *im = &k.img[i];
    const jet__image_layout *il = &src[i]->layout, *ol = &dst[i]->layout;
    im->src0 = src[i]->plane[0];
    im->src0_pitch = il->plane[0].pitch;
    /* one load per tap: NV12's U,V pairs 2-byte, RGBA8 pixels 4-byte aligned */
    if (nv12) {
      im->src1 = src[i]->plane[1];
      im->src1_pitch = il->plane[1].pitch;
      src_vec &= (uintptr_t)im->src1 % 2 == 0 && im->src1_pitch % 2 == 0;
      src4 &= ((uintptr_t)im->src0 | im->src0_pitch | (uintptr_t)im->src1 | im->src1_pitch) % 4 == 0;
    } else {
      src_vec &= (uintptr_t)im->src0 % 4 == 0 && im->src0_pitch % 4 == 0;
    }
    for (int c = 0; c < 3; c++) {
      int plane = p->bgr ? 2 - c : c;
      im->dst[c] = (unsigned char *)dst[i]->plane[plane];
      im->dst_pitch[c] = ol->plane[plane].pitch;
      k.s.dst_vec &= (uintptr_t)im->dst[c] % dst_align == 0 && im->dst_pitch[c] % dst_align == 0;
    }
  }
  if (nv12) {
    const int *row =
        cc_rows[2 * (p->matrix == JET_COLOR_BT709) + (p->range == JET_COLOR_RANGE_FULL)];
    k.s.cy = row[0];
    k.s.crv = row[1];
    k.s.cgu = row[2];
    k.s.cgv = row[3];
    k.s.cbu = row[4];
    k.s.yoff = row[5];
    int k0 = JET_CC_HALF - k.s.cy * k.s.yoff;
    k.s.kr = k0 - 128 * k.s.crv;
    k.s.kg = k0 + 128 * (k.s.cgu + k.s.cgv);
    k.s.kb = k0 - 128 * k.s.cbu;
  }
  k.s.sw = sl->width;
  k.s.sh = sl->height;
  k.s.dw = dl->width;
  k.s.dh = dl->height;
  content_rect(k.s.sw, k.s.sh, k.s.dw, k.s.dh, p->letterbox, &k.s);
  k.s.tiles_x = (unsigned)tx;
  k.s.tiles_inv = jet__div_inv_recip(tx);
  k.s.inv_cw = jet__div_inv_recip(2ull * (unsigned)k.s.cw);
  k.s.inv_ch = jet__div_inv_recip(2ull * (unsigned)k.s.ch);
  for (int c = 0; c < 3; c++) {
    double sd = p->stddev[c], mean = p->mean[c];
    /* out = S * scale + bias with S the exact Q22 sum of 0..255 values */
    k.s.scale[c] = (float)(1.0 / ((double)(1 << (2 * JET_RESIZE_FRAC_BITS)) * 255.0 * sd));
    k.s.bias[c] = (float)(-mean / sd);
    k.s.pad[c] = (float)(((double)p->pad[c] / 255.0 - mean) / sd);
  }
  const jet_dim3 block = {JET_DNN_TX, JET_DNN_TY, 1};
  jet_kernel kern;
  /* [NV12][one load per tap][half] */
  static const char *const names[2][2][2] = {
      {{"jet_dnn_rgba8_odd_f32", "jet_dnn_rgba8_odd_f16"},
       {"jet_dnn_rgba8_f32", "jet_dnn_rgba8_f16"}},
      {{"jet_dnn_nv12_odd_f32", "jet_dnn_nv12_odd_f16"}, {"jet_dnn_nv12_f32", "jet_dnn_nv12_f16"}}};
  char name[40];
  /* every content column's centre on a source column (an odd factor across):
   * the aligned paths' two-tap kernels, or one-tap where the rows are so too
   * (dnn.cu) */
  const int cols_on = !JET_COMPACT_KERNELS && src_vec && jet__centres_on_source(k.s.sw, k.s.cw);
  const int rows_on = jet__centres_on_source(k.s.sh, k.s.ch);
  /* the integer factors sw / cw and sh / ch (0 where not integers), for
   * the kernels that compute their coordinates in each thread (_t1, _hxy;
   * kxy holds both below 2^15) */
  const int kx = k.s.sw % k.s.cw == 0 ? k.s.sw / k.s.cw : 0;
  const int ky = k.s.sh % k.s.ch == 0 ? k.s.sh / k.s.ch : 0;
  const int factors = kx && ky && kx < 32768 && ky < 32768;
  if (factors) k.s.kxy = kx | (ky << 16);
  const char *taps = cols_on && rows_on && factors ? "_t1" : cols_on ? "_tx" : "";
  /* the kernels that compute their coordinates in each thread (no "_r2"
   * twins below) */
  int own_coords = cols_on && rows_on && factors;
  /* NV12 whose column centres lie halfway between an even source column
   * and the next (factor k = 2 mod 4: centre k x + k/2 - 1/2, columns
   * k x + k/2 - 1 and the next; one chroma sample a pixel, 2 adjacent Y
   * bytes), and whose row centres may too (one chroma row): dnn.cu's
   * nv12_half */
  if (!JET_COMPACT_KERNELS && nv12 && src_vec && src4 && kx % 4 == 2) {
    own_coords = factors && ky % 4 == 2;
    taps = own_coords ? "_hxy" : "_hx";
  }
  /* likewise at factors k = 4 mod 8 across (columns k x + k/2 - 1 and the
   * next: bytes 1 and 2 of an aligned word, two chroma samples), and
   * factors 0 mod 4 down (an odd row and the next, two chroma rows) */
  if (!JET_COMPACT_KERNELS && nv12 && src_vec && src4 && kx % 8 == 4) {
    own_coords = factors && ky % 4 == 0;
    taps = own_coords ? "_qxy" : "_qx";
  }
  /* RGBA8 at even factors both ways: every centre halfway between two
   * source pixels */
  if (!JET_COMPACT_KERNELS && !nv12 && src_vec && factors && kx % 2 == 0 && ky % 2 == 0) {
    own_coords = 1;
    taps = "_hxy";
  }
  /* NV12 whose rows' source rows overlap (downscaling rows by less than
   * 5/4, or enlarging them), into at least 2^20 pixels a launch: the "_r2"
   * twins of the coordinate-table kernels, two rows a thread (dnn.cu).
   * H200: 1280x1280 stretched from 1280x720 0.85 of the time, from
   * 1920x1080 0.88, from 2560x1440 0.93; into 640x640, and where rows
   * share no source row, two rows a thread took 1.04-1.13 (half the
   * threads to wait on their loads); RGBA8, whose rows cost less, gained
   * 1-5% where they share */
  const int r2 = !JET_COMPACT_KERNELS && nv12 && src_vec && !own_coords && strcmp(taps, "_qx") != 0 &&
                 4LL * k.s.sh < 5LL * k.s.ch &&
                 (unsigned long long)dl->width * (unsigned long long)dl->height * (unsigned)count >= (1ull << 20);
  const unsigned long long tile_h = r2 ? (unsigned long long)JET_DNN_TY * JET_DNN_RY : JET_DNN_TY;
  /* at most the tx * ty blocks checked above */
  const jet_dim3 grid = {(unsigned)(tx * (((unsigned long long)dl->height + tile_h - 1) / tile_h)), 1,
                         (unsigned)count};
  snprintf(name, sizeof name, "%s%s%s", names[nv12][src_vec][f16], taps, r2 ? "_r2" : "");
  /* a single image: the one-image entry (208 bytes of parameters, not 1408) */
  JET__TRY(jet__image_kernel(src[0]->h.ctx, &jet__images_dnn, name, count, &kern, fn));
  void *args[] = {&k};
  return jet__launch(cu, kern, grid, block, 0, args, fn);
}

jet_status jet_dnn_preprocess(jet_stream stream, jet_image src, jet_image dst,
                              const jet_dnn_params *p) {
  JET__TRY(jet__image_check_pair(src, dst, JET__IMAGE_OP_DNN, __func__));
  return launch(stream, &src, &dst, 1, p, __func__);
}

jet_status jet_dnn_preprocess_batch(jet_stream stream, const jet_image *src, const jet_image *dst,
                                    int count, const jet_dnn_params *p) {
  JET__TRY(jet__image_check_batch(src, dst, count, JET__IMAGE_OP_DNN, __func__));
  return launch(stream, src, dst, count, p, __func__);
}

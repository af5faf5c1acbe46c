/*
 * Box and Gaussian filters: argument checks, weights, and the launch of the
 * one kernel of kernels/image/filter.cu that fits the format and size.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "image_internal.h"
#include "../../kernels/image/color_coeffs.h"
#include "../../kernels/image/filter_params.h"

extern const jet_kernel_image_set jet__images_filter;

static jet_status check_common(int ksize, jet_border border, const char *fn) {
  if (ksize < JET_FILTER_KSIZE_MIN || ksize > JET_FILTER_KSIZE_MAX || !(ksize & 1))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "ksize %d: must be odd, %d to %d", ksize,
                      JET_FILTER_KSIZE_MIN, JET_FILTER_KSIZE_MAX);
  if (border != JET_BORDER_REPLICATE && border != JET_BORDER_REFLECT_101 &&
      border != JET_BORDER_CONSTANT)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown border mode %d", (int)border);
  return JET_STATUS_OK;
}

/* The Gaussian taps in double (color_coeffs.h): g_i / sum g. */
static void gauss_weights(int ksize, double sigma, double *w) {
  double s = sigma > 0 ? sigma : 0.3 * ((ksize - 1) * 0.5 - 1) + 0.8, sum = 0;
  int r = ksize / 2;
  for (int i = 0; i < ksize; i++) {
    w[i] = exp(-(double)(i - r) * (i - r) / (2 * s * s));
    sum += w[i];
  }
  for (int i = 0; i < ksize; i++) w[i] /= sum;
}

_Static_assert(JET_FILTER_BATCH_MAX == JET_IMAGE_BATCH_MAX, "one batch limit");

/* A batch of @count pairs (a single filter is a batch of one): one launch,
 * blockIdx.z picks the pair. */
static jet_status run(jet_stream stream, const jet_image *srcs, const jet_image *dsts, int count,
                      int ksize, int box, double sigma, jet_border border,
                      const float *border_value, const char *fn) {
  JET__TRY(check_common(ksize, border, fn));
  JET__TRY(jet__image_check_batch(srcs, dsts, count, JET__IMAGE_OP_FILTER, fn));
  const jet_image src = srcs[0];
  const jet_format_desc *d = jet__format(src->layout.format);
  const int nc = d->channels, es = d->elem_size, u8 = d->elem == JET_ELEM_U8;
  const int w = src->layout.width, h = src->layout.height;
  if ((long long)w * nc >= (1LL << 30))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s image %d pixels wide: rows of 2^30 samples or more are not supported",
                      d->name, w);

  jet__filter_params p;
  memset(&p, 0, sizeof p);
  for (int c = 0; c < 4; c++) {
    float v = border_value && border == JET_BORDER_CONSTANT && c < nc ? border_value[c] : 0.0f;
    if (u8) {
      if (isnan(v))
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "border value %d is NaN, which an 8-bit %s image cannot hold", c,
                          d->name);
      /* Clamping first gives the reference's llround-then-clamp for finite
       * values and defines infinities. */
      double cv = v < 0 ? 0.0 : v > 255 ? 255.0 : (double)v;
      p.border[c] = (float)llround(cv);
    } else {
      p.border[c] = v;
    }
  }
  const int k2 = ksize * ksize;
  if (box) {
    for (int i = 0; i < ksize; i++) {
      p.w[i] = 1.0f;
      p.iw[i] = 1;
    }
    p.mode = u8 ? JET_FILTER_MODE_BOX8 : JET_FILTER_MODE_FLOAT;
    p.ibias = (unsigned)(k2 / 2);
    p.scale = 1.0f / (float)k2;
    p.magic = (unsigned)((0x100000000ull + (unsigned)k2 - 1) / (unsigned)k2);
  } else {
    double g[JET_FILTER_KSIZE_MAX];
    gauss_weights(ksize, sigma, g);
    if (u8) {
      int r = ksize / 2, rest = 0;
      for (int i = 0; i < ksize; i++)
        if (i != r) {
          int q = (int)floor(g[i] * JET_GAUSS_ONE + 0.5);
          p.w[i] = (float)q;
          p.iw[i] = q;
          rest += q;
        }
      p.w[r] = (float)(JET_GAUSS_ONE - rest);
      p.iw[r] = JET_GAUSS_ONE - rest;
      p.mode = JET_FILTER_MODE_GAUSS8;
      p.ibias = 1u << (2 * JET_GAUSS_BITS - 1);
    } else {
      for (int i = 0; i < ksize; i++) p.w[i] = (float)g[i];
      p.mode = JET_FILTER_MODE_FLOAT;
    }
    p.scale = 1.0f;
  }
  /* the unrolled 8-bit kernels' tap pairs */
  for (int t = -1; t < ksize && t < JET_FILTER_FAST_KMAX; t++)
    p.vpair[t + 1] = (unsigned)(t >= 0 ? p.iw[t] : 0) | (unsigned)(t + 1 < ksize ? p.iw[t + 1] : 0) << 8;
  p.ksize = ksize;
  p.border_mode = (int)border;
  p.width = w;
  p.height = h;

  const int r = ksize / 2, fast = ksize <= JET_FILTER_FAST_KMAX;
  const size_t out_align = u8 ? 4 : 16;
  p.vec_in = p.vec_out = 1;
  for (int i = 0; i < count; i++) {
    const uintptr_t sp = (uintptr_t)srcs[i]->plane[0], dp = (uintptr_t)dsts[i]->plane[0];
    const size_t spitch = srcs[i]->layout.plane[0].pitch, dpitch = dsts[i]->layout.plane[0].pitch;
    p.vec_in &= sp % 16 == 0 && spitch % 16 == 0;
    p.vec_out &= dp % out_align == 0 && dpitch % out_align == 0;
    p.img[i].src = srcs[i]->plane[0];
    p.img[i].dst = dsts[i]->plane[0];
    p.img[i].spitch = spitch;
    p.img[i].dpitch = dpitch;
  }

  struct jet_context_s *ctx = src->h.ctx;
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, ctx, &cu, fn));
  if (u8 && !box && p.iw[r] == JET_GAUSS_ONE) {
    /* every other tap rounded to 0: (2^16 x + 2^15) >> 16 is x, the
     * identity (and the kernels take taps below 256 only) */
    for (int i = 0; i < count; i++)
      JET__TRY(jet_memcpy_2d_async(stream, p.img[i].dst, p.img[i].dpitch, p.img[i].src,
                                   p.img[i].spitch, (size_t)w * (size_t)nc, (size_t)h));
    return JET_STATUS_OK;
  }
  char name[32];
  snprintf(name, sizeof name, "jet_filter_%s%d_k%d", u8 ? "u8c" : "f32c", nc, fast ? ksize : 0);
  jet_kernel k;
  JET__TRY(jet__builtin_kernel(ctx, &jet__images_filter, name, &k, fn));

  const long long elems = (long long)w * nc, tw = JET_FILTER_TW(es), gx = (elems + tw - 1) / tw;
  int th = !fast ? JET_FILTER_TILE_ROWS(r) : u8 ? JET_FILTER_FAST_TILE_H : JET_FILTER_FAST_TILE_H_F32;
  if (!fast) {
    /* Runtime-k kernel: as many rows as fit the shared memory, up to the usual tile. */
    size_t row = (size_t)JET_FILTER_SW(r, nc, es) * (size_t)es + (size_t)JET_FILTER_TW(es) * 4;
    int fit = (int)((JET_FILTER_SMEM_MAX - 128) / row) - 2 * r;
    fit -= fit % JET_FILTER_RV;
    if (fit < th) th = fit;
  } else if (u8) {
    /* 8-bit: whole waves of blocks (filter_params.h) */
    const int resident = jet__kernel_resident(k);
    if (resident > 0)
      th = JET_FILTER_RV * jet__wave_rows((unsigned long long)gx, h, JET_FILTER_RV,
                                          JET_FILTER_FAST_TILE_MIN / JET_FILTER_RV,
                                          JET_FILTER_FAST_TILE_MAX / JET_FILTER_RV, count,
                                          (unsigned long long)jet__image_sms(ctx) * (unsigned)resident,
                                          JET_FILTER_FAST_TILE_PROLOGUE);
  }
  if (th < JET_FILTER_RV)
    return jet__error(JET_STATUS_INTERNAL, fn, "filter tile for ksize %d does not fit", ksize);
  p.tile_h = th;
  /* tile loads past L1 from 6 MB of source in the launch (filter.cu:
   * jf_copy16; H200: 1080p RGB8, 6.2 MB, 0.98 of the time; 720p RGBA8 and
   * 1440p GRAY8, 3.7 MB, 1.00-1.03) */
  p.l2_only = (unsigned long long)elems * (unsigned)es * (unsigned)h * (unsigned)count >= 6000000ull;
  size_t smem = (size_t)JET_FILTER_SMEM(r, nc, es, th, fast && u8);
  if (smem > JET_FILTER_SMEM_MAX)
    return jet__error(JET_STATUS_INTERNAL, fn, "filter tile needs %zu bytes of shared memory", smem);

  jet_dim3 grid = {(unsigned)gx, (unsigned)((h + th - 1) / th), (unsigned)count};
  if (grid.y > 65535)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%s image %d rows high: more than %d rows are not supported", d->name, h,
                      65535 * th);

  void *args[] = {&p};
  jet_dim3 block = {JET_FILTER_THREADS, 1, 1};
  return jet__launch(cu, k, grid, block, smem, args, fn);
}

jet_status jet_filter_box(jet_stream stream, jet_image src, jet_image dst, int ksize,
                          jet_border border, const float border_value[4]) {
  return run(stream, &src, &dst, 1, ksize, 1, 0.0, border, border_value, __func__);
}

jet_status jet_filter_box_batch(jet_stream stream, const jet_image *src, const jet_image *dst,
                                int count, int ksize, jet_border border,
                                const float border_value[4]) {
  return run(stream, src, dst, count, ksize, 1, 0.0, border, border_value, __func__);
}

static jet_status check_sigma(double sigma, const char *fn) {
  if (!isfinite(sigma))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "sigma %g: must be finite", sigma);
  if (sigma > 0 && !(2 * sigma * sigma > 0))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "sigma %g: so small that 2 sigma^2 underflows", sigma);
  return JET_STATUS_OK;
}

jet_status jet_filter_gaussian(jet_stream stream, jet_image src, jet_image dst, int ksize,
                               double sigma, jet_border border, const float border_value[4]) {
  JET__TRY(check_sigma(sigma, __func__));
  return run(stream, &src, &dst, 1, ksize, 0, sigma, border, border_value, __func__);
}

jet_status jet_filter_gaussian_batch(jet_stream stream, const jet_image *src,
                                     const jet_image *dst, int count, int ksize, double sigma,
                                     jet_border border, const float border_value[4]) {
  JET__TRY(check_sigma(sigma, __func__));
  return run(stream, src, dst, count, ksize, 0, sigma, border, border_value, __func__);
}

/* Reference resize, box/Gaussian filters and remap (rules in ref_image.h and color_coeffs.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_image.h"

/* Pixel formats: 8-bit or float channels, one plane, no subsampling. Returns
 * the channel count, 0 for other formats. */
static int pixel_channels(jet_format f, int *is_float) {
  *is_float = 0;
  switch (f) {
    case JET_FORMAT_GRAY8: return 1;
    case JET_FORMAT_RGB8:
    case JET_FORMAT_BGR8: return 3;
    case JET_FORMAT_RGBA8:
    case JET_FORMAT_BGRA8: return 4;
    case JET_FORMAT_GRAYF32: *is_float = 1; return 1;
    case JET_FORMAT_RGBF32: *is_float = 1; return 3;
    default: return 0;
  }
}

static double get(const ref_image *im, int x, int y, int c, int nc, int fl) {
  const unsigned char *row = im->data[0] + im->pitch[0] * (size_t)y;
  if (fl) return ((const float *)row)[(size_t)x * (size_t)nc + (size_t)c];
  return row[(size_t)x * (size_t)nc + (size_t)c];
}

static void put(ref_image *im, int x, int y, int c, int nc, int fl, double v) {
  unsigned char *row = im->data[0] + im->pitch[0] * (size_t)y;
  if (fl)
    ((float *)row)[(size_t)x * (size_t)nc + (size_t)c] = (float)v;
  else
    row[(size_t)x * (size_t)nc + (size_t)c] = (unsigned char)v;
}

static long long border8(const double *bv, int c) {
  double v = bv ? bv[c] : 0.0;
  long long r = llround(v);
  return r < 0 ? 0 : r > 255 ? 255 : r;
}

/* ------------------------------------------------------------ resize */

void ref_resize_coord(int d, int dn, int sn, int *s0, int *s1, int *frac) {
  long long n = (2LL * d + 1) * sn - dn, den = 2LL * dn;
  long long x0 = 0, ax = 0;
  if (n > 0) {
    x0 = n / den;
    ax = ((n % den) << JET_RESIZE_FRAC_BITS) / den;
  }
  if (x0 >= sn - 1) {
    x0 = sn - 1;
    ax = 0;
  }
  *s0 = (int)x0;
  *s1 = (int)(x0 + 1 < sn ? x0 + 1 : sn - 1);
  *frac = (int)ax;
}

int ref_resize_nearest_index(int d, int dn, int sn) {
  return (int)(((2LL * d + 1) * sn) / (2LL * dn));
}

/* Overlaps of destination index d with source indices (area rule), in units
 * of 1/dn source pixels. Returns the first source index; @w gets the weights. */
static int area_weights(int d, int dn, int sn, long long *w, int *count) {
  long long lo = (long long)d * sn, hi = (long long)(d + 1) * sn;
  int first = (int)(lo / dn), n = 0;
  for (long long i = first; i * dn < hi; i++) {
    long long a = i * dn > lo ? i * dn : lo, b = (i + 1) * dn < hi ? (i + 1) * dn : hi;
    w[n++] = b - a;
  }
  *count = n;
  return first;
}

int ref_resize(const ref_image *src, ref_image *dst, jet_interp interp) {
  int fl, nc = pixel_channels(src->format, &fl);
  if (!nc || src->format != dst->format) return -1;
  int sw = src->width, sh = src->height, dw = dst->width, dh = dst->height;
  if (interp == JET_INTERP_AREA && (dw > sw || dh > sh)) return -1;
  if (interp != JET_INTERP_NEAREST && interp != JET_INTERP_LINEAR && interp != JET_INTERP_AREA)
    return -1;
  long long *wx = malloc(sizeof *wx * ((size_t)sw / (size_t)dw + 2));
  long long *wy = malloc(sizeof *wy * ((size_t)sh / (size_t)dh + 2));
  if (!wx || !wy) {
    free(wx);
    free(wy);
    return -1;
  }
  const int ONE = JET_RESIZE_ONE;
  for (int y = 0; y < dh; y++) {
    int y0, y1, ay, ny = 0, fy = 0;
    ref_resize_coord(y, dh, sh, &y0, &y1, &ay);
    if (interp == JET_INTERP_AREA) fy = area_weights(y, dh, sh, wy, &ny);
    for (int x = 0; x < dw; x++) {
      int x0, x1, ax, nx = 0, fx = 0;
      ref_resize_coord(x, dw, sw, &x0, &x1, &ax);
      if (interp == JET_INTERP_AREA) fx = area_weights(x, dw, sw, wx, &nx);
      for (int c = 0; c < nc; c++) {
        double out;
        if (interp == JET_INTERP_NEAREST) {
          out = get(src, ref_resize_nearest_index(x, dw, sw), ref_resize_nearest_index(y, dh, sh),
                    c, nc, fl);
        } else if (interp == JET_INTERP_LINEAR) {
          double p00 = get(src, x0, y0, c, nc, fl), p01 = get(src, x1, y0, c, nc, fl);
          double p10 = get(src, x0, y1, c, nc, fl), p11 = get(src, x1, y1, c, nc, fl);
          if (fl) {
            double fx_ = (double)ax / ONE, fy_ = (double)ay / ONE;
            out = (1 - fy_) * ((1 - fx_) * p00 + fx_ * p01) + fy_ * ((1 - fx_) * p10 + fx_ * p11);
          } else {
            long long v = (long long)(ONE - ay) * ((ONE - ax) * (long long)p00 + ax * (long long)p01) +
                          (long long)ay * ((ONE - ax) * (long long)p10 + ax * (long long)p11);
            out = (double)((v + (1LL << (2 * JET_RESIZE_FRAC_BITS - 1))) >>
                           (2 * JET_RESIZE_FRAC_BITS));
          }
        } else {
          double s = 0;
          unsigned long long si = 0;
          for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
              double p = get(src, fx + i, fy + j, c, nc, fl);
              if (fl)
                s += (double)wx[i] * (double)wy[j] * p;
              else
                si += (unsigned long long)wx[i] * (unsigned long long)wy[j] * (unsigned long long)p;
            }
          unsigned long long D = (unsigned long long)sw * (unsigned long long)sh;
          out = fl ? s / (double)D : (double)((2 * si + D) / (2 * D));
        }
        put(dst, x, y, c, nc, fl, out);
      }
    }
  }
  free(wx);
  free(wy);
  return 0;
}

/* ------------------------------------------------------------ filters */

double ref_gaussian_sigma(int ksize, double sigma) {
  return sigma > 0 ? sigma : 0.3 * ((ksize - 1) * 0.5 - 1) + 0.8;
}

void ref_gaussian_weights(int ksize, double sigma, double *w) {
  double s2 = ref_gaussian_sigma(ksize, sigma), sum = 0;
  int r = ksize / 2;
  for (int i = 0; i < ksize; i++) {
    w[i] = exp(-(double)(i - r) * (i - r) / (2 * s2 * s2));
    sum += w[i];
  }
  for (int i = 0; i < ksize; i++) w[i] /= sum;
}

void ref_gaussian_weights_q(int ksize, double sigma, int *q) {
  double w[JET_FILTER_KSIZE_MAX];
  ref_gaussian_weights(ksize, sigma, w);
  int r = ksize / 2, rest = 0;
  for (int i = 0; i < ksize; i++)
    if (i != r) {
      q[i] = (int)floor(w[i] * JET_GAUSS_ONE + 0.5);
      rest += q[i];
    }
  q[r] = JET_GAUSS_ONE - rest;
}

static int filter_ok(const ref_image *src, const ref_image *dst, int ksize, jet_border border) {
  int fl;
  return pixel_channels(src->format, &fl) && src->format == dst->format &&
         src->width == dst->width && src->height == dst->height && (ksize & 1) &&
         ksize >= JET_FILTER_KSIZE_MIN && ksize <= JET_FILTER_KSIZE_MAX &&
         (border == JET_BORDER_REPLICATE || border == JET_BORDER_REFLECT_101 ||
          border == JET_BORDER_CONSTANT);
}

/* One separable or box filter: wx/wy weights (integer for 8-bit: qw, float: dw). */
static int filter(const ref_image *src, ref_image *dst, int ksize, const int *qw,
                  const double *fw, int box, jet_border border, const double *bv) {
  int fl, nc = pixel_channels(src->format, &fl), r = ksize / 2;
  int w = src->width, h = src->height;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < nc; c++) {
        long long si = 0;
        double sf = 0;
        for (int j = -r; j <= r; j++) {
          int yy = ref_border_index(y + j, h, border);
          long long hi = 0;
          double hf = 0;
          for (int i = -r; i <= r; i++) {
            int xx = ref_border_index(x + i, w, border);
            double p = (xx < 0 || yy < 0) ? (fl ? (bv ? bv[c] : 0.0) : (double)border8(bv, c))
                                          : get(src, xx, yy, c, nc, fl);
            if (fl)
              hf += (box ? 1.0 : fw[i + r]) * p;
            else
              hi += (box ? 1 : qw[i + r]) * (long long)p;
          }
          if (fl)
            sf += (box ? 1.0 : fw[j + r]) * hf;
          else
            si += (box ? 1 : qw[j + r]) * hi;
        }
        double out;
        long long k2 = (long long)ksize * ksize;
        if (fl)
          out = box ? sf / (double)k2 : sf;
        else if (box)
          out = (double)((si + k2 / 2) / k2);
        else
          out = (double)((si + (1LL << (2 * JET_GAUSS_BITS - 1))) >> (2 * JET_GAUSS_BITS));
        put(dst, x, y, c, nc, fl, out);
      }
  return 0;
}

int ref_box_filter(const ref_image *src, ref_image *dst, int ksize, jet_border border,
                   const double border_value[4]) {
  if (!filter_ok(src, dst, ksize, border)) return -1;
  return filter(src, dst, ksize, NULL, NULL, 1, border, border_value);
}

int ref_gaussian_filter(const ref_image *src, ref_image *dst, int ksize, double sigma,
                        jet_border border, const double border_value[4]) {
  if (!filter_ok(src, dst, ksize, border)) return -1;
  int q[JET_FILTER_KSIZE_MAX];
  double w[JET_FILTER_KSIZE_MAX];
  ref_gaussian_weights_q(ksize, sigma, q);
  ref_gaussian_weights(ksize, sigma, w);
  return filter(src, dst, ksize, q, w, 0, border, border_value);
}

/* ------------------------------------------------------------ remap */

static int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static int remap_fixed(float f) {
  float c = fminf(fmaxf(f, -JET_REMAP_COORD_LIMIT), JET_REMAP_COORD_LIMIT);
  return (int)rintf(c * (float)JET_REMAP_SUBPIX);
}

int ref_remap(const ref_image *src, ref_image *dst, const float *map, size_t map_pitch,
              jet_border border, const double border_value[4]) {
  int fl, nc = pixel_channels(src->format, &fl);
  if (!nc || src->format != dst->format || !map) return -1;
  if (border != JET_BORDER_REPLICATE && border != JET_BORDER_REFLECT_101 &&
      border != JET_BORDER_CONSTANT)
    return -1;
  const int S = JET_REMAP_SUBPIX;
  for (int y = 0; y < dst->height; y++) {
    const float *mrow = (const float *)((const unsigned char *)map + map_pitch * (size_t)y);
    for (int x = 0; x < dst->width; x++) {
      int X = remap_fixed(mrow[2 * x]), Y = remap_fixed(mrow[2 * x + 1]);
      int x0 = floor_div(X, S), y0 = floor_div(Y, S);
      int ax = X - x0 * S, ay = Y - y0 * S;
      int xs[2] = {ref_border_index(x0, src->width, border),
                   ref_border_index(x0 + 1, src->width, border)};
      int ys[2] = {ref_border_index(y0, src->height, border),
                   ref_border_index(y0 + 1, src->height, border)};
      for (int c = 0; c < nc; c++) {
        double p[2][2];
        for (int j = 0; j < 2; j++)
          for (int i = 0; i < 2; i++)
            p[j][i] = (xs[i] < 0 || ys[j] < 0)
                          ? (fl ? (border_value ? border_value[c] : 0.0)
                                : (double)border8(border_value, c))
                          : get(src, xs[i], ys[j], c, nc, fl);
        double out;
        if (fl) {
          double wx = (double)ax / S, wy = (double)ay / S;
          out = (1 - wy) * ((1 - wx) * p[0][0] + wx * p[0][1]) +
                wy * ((1 - wx) * p[1][0] + wx * p[1][1]);
        } else {
          long long v = (long long)(S - ay) * ((S - ax) * (long long)p[0][0] + ax * (long long)p[0][1]) +
                        (long long)ay * ((S - ax) * (long long)p[1][0] + ax * (long long)p[1][1]);
          out = (double)((v + (1LL << (2 * JET_REMAP_BITS - 1))) >> (2 * JET_REMAP_BITS));
        }
        put(dst, x, y, c, nc, fl, out);
      }
    }
  }
  return 0;
}

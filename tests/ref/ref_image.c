/* Reference images and colour conversion (rules in ref_image.h and color_coeffs.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_image.h"

int ref_image_alloc(ref_image *im, jet_format format, int width, int height, size_t pad) {
  memset(im, 0, sizeof *im);
  jet_format_desc d;
  if (jet_format_info(format, &d) != JET_STATUS_OK || width <= 0 || height <= 0) return -1;
  if ((d.sub_x && (width & 1)) || (d.sub_y && (height & 1))) return -1;
  im->format = format;
  im->width = width;
  im->height = height;
  im->planes = d.planes;
  im->elem_size = d.elem_size;
  im->channels = d.channels;
  size_t offs[JET_IMAGE_MAX_PLANES], total = 0;
  for (int i = 0; i < d.planes; i++) {
    im->plane_w[i] = i ? width >> d.sub_x : width;
    im->plane_h[i] = i ? height >> d.sub_y : height;
    im->row_bytes[i] = (size_t)im->plane_w[i] * (size_t)d.bytes_per_pixel[i];
    size_t e = (size_t)d.elem_size;
    im->pitch[i] = (im->row_bytes[i] + pad + e - 1) / e * e;
    offs[i] = total;
    total += (im->pitch[i] * (size_t)im->plane_h[i] + 63) / 64 * 64;
  }
  im->block = malloc(total);
  if (!im->block) return -1;
  for (int i = 0; i < d.planes; i++) im->data[i] = (unsigned char *)im->block + offs[i];
  return 0;
}

void ref_image_free(ref_image *im) {
  free(im->block);
  memset(im, 0, sizeof *im);
}

void ref_image_poison(ref_image *im, unsigned char byte) {
  for (int i = 0; i < im->planes; i++)
    memset(im->data[i], byte, im->pitch[i] * (size_t)im->plane_h[i]);
}

void ref_image_randomize(ref_image *im, uint32_t (*rng)(void)) {
  for (int i = 0; i < im->planes; i++)
    for (int y = 0; y < im->plane_h[i]; y++) {
      unsigned char *row = im->data[i] + im->pitch[i] * (size_t)y;
      for (size_t b = 0; b < im->pitch[i]; b++) row[b] = (unsigned char)rng();
      if (im->elem_size == 4) {
        float *f = (float *)row;
        for (size_t k = 0; k < im->row_bytes[i] / 4; k++)
          f[k] = (float)((double)(rng() >> 8) / 16777216.0 * 512.0 - 256.0);
      }
    }
}

void ref_image_planes(const ref_image *im, jet_image_plane *planes) {
  for (int i = 0; i < im->planes; i++) {
    planes[i].ptr = im->data[i];
    planes[i].pitch = im->pitch[i];
  }
}

int ref_image_compare(const ref_image *a, const ref_image *b, double tol, char *why, size_t n) {
  if (a->format != b->format || a->width != b->width || a->height != b->height) {
    snprintf(why, n, "images differ in format or size: %s %dx%d vs %s %dx%d",
             jet_format_name(a->format), a->width, a->height, jet_format_name(b->format),
             b->width, b->height);
    return 1;
  }
  for (int i = 0; i < a->planes; i++)
    for (int y = 0; y < a->plane_h[i]; y++) {
      const unsigned char *ra = a->data[i] + a->pitch[i] * (size_t)y;
      const unsigned char *rb = b->data[i] + b->pitch[i] * (size_t)y;
      size_t count = a->row_bytes[i] / (size_t)a->elem_size;
      for (size_t k = 0; k < count; k++) {
        double va, vb;
        int bad;
        if (a->elem_size == 1) {
          va = ra[k];
          vb = rb[k];
          bad = fabs(va - vb) > tol;
        } else if (a->elem_size == 2) {
          va = ((const uint16_t *)ra)[k];
          vb = ((const uint16_t *)rb)[k];
          bad = fabs(va - vb) > tol;
        } else {
          va = ((const float *)ra)[k];
          vb = ((const float *)rb)[k];
          bad = !(fabs(va - vb) <= tol * (1.0 + fabs(vb)));
        }
        if (bad) {
          snprintf(why, n, "%s %dx%d plane %d row %d element %zu: %.9g vs %.9g (tol %g)",
                   jet_format_name(a->format), a->width, a->height, i, y, k, va, vb, tol);
          return 1;
        }
      }
    }
  return 0;
}

int ref_border_index(int i, int n, jet_border border) {
  if (i >= 0 && i < n) return i;
  switch (border) {
    case JET_BORDER_REPLICATE: return i < 0 ? 0 : n - 1;
    case JET_BORDER_REFLECT_101: {
      if (n == 1) return 0;
      long long p = 2LL * (n - 1), t = i < 0 ? -(long long)i : i;
      t %= p;
      return (int)(t >= n ? p - t : t);
    }
    default: return -1;
  }
}

/* ------------------------------------------------------------ colour */

typedef struct cc_row {
  int cy, crv, cgu, cgv, cbu, yr, yg, yb, ur, ug, ub, vr, vg, vb, yoff;
} cc_row;

static const cc_row cc_rows[4] = {
#define ROW(m, r, cy, crv, cgu, cgv, cbu, yr, yg, yb, ur, ug, ub, vr, vg, vb, yoff) \
  {cy, crv, cgu, cgv, cbu, yr, yg, yb, ur, ug, ub, vr, vg, vb, yoff},
    JET_CC_TABLE(ROW)
#undef ROW
};

static const cc_row *cc(jet_color_matrix m, jet_color_range r) {
  return &cc_rows[2 * (m == JET_COLOR_BT709) + (r == JET_COLOR_RANGE_FULL)];
}

static int clamp8(long long v) { return v < 0 ? 0 : v > 255 ? 255 : (int)v; }

static int rshift_r(long long a, int s) {
  long long t = a + (1LL << (s - 1));
  return clamp8(t < 0 ? 0 : t >> s);
}

void ref_yuv_to_rgb(int y, int u, int v, jet_color_matrix m, jet_color_range r, int rgb[3]) {
  const cc_row *c = cc(m, r);
  long long yy = (long long)c->cy * (y - c->yoff);
  int uu = u - 128, vv = v - 128;
  rgb[0] = rshift_r(yy + (long long)c->crv * vv, JET_CC_SHIFT);
  rgb[1] = rshift_r(yy - (long long)c->cgu * uu - (long long)c->cgv * vv, JET_CC_SHIFT);
  rgb[2] = rshift_r(yy + (long long)c->cbu * uu, JET_CC_SHIFT);
}

static int yuv_to_gray(int y, jet_color_range r) {
  if (r == JET_COLOR_RANGE_FULL) return y;
  return rshift_r((long long)cc_rows[0].cy * (y - 16), JET_CC_SHIFT);
}

int ref_rgb_to_y(int r, int g, int b, jet_color_matrix m, jet_color_range range) {
  const cc_row *c = cc(m, range);
  return rshift_r((long long)c->yr * r + (long long)c->yg * g + (long long)c->yb * b +
                      ((long long)c->yoff << JET_CC_SHIFT),
                  JET_CC_SHIFT);
}

void ref_rgb4_to_uv(int sr, int sg, int sb, jet_color_matrix m, jet_color_range r, int *u, int *v) {
  const cc_row *c = cc(m, r);
  *u = rshift_r((long long)c->ur * sr + (long long)c->ug * sg + (long long)c->ub * sb +
                    (128LL << JET_CC_CHROMA_SHIFT),
                JET_CC_CHROMA_SHIFT);
  *v = rshift_r((long long)c->vr * sr + (long long)c->vg * sg + (long long)c->vb * sb +
                    (128LL << JET_CC_CHROMA_SHIFT),
                JET_CC_CHROMA_SHIFT);
}

static int gray_of(int r, int g, int b, jet_color_matrix m) {
  const cc_row *c = cc(m, JET_COLOR_RANGE_FULL);
  return rshift_r((long long)c->yr * r + (long long)c->yg * g + (long long)c->yb * b,
                  JET_CC_SHIFT);
}

static unsigned char *px(const ref_image *im, int plane, int x, int y, int bpp) {
  return im->data[plane] + im->pitch[plane] * (size_t)y + (size_t)x * (size_t)bpp;
}

static int is_yuv(jet_format f) {
  return f == JET_FORMAT_NV12 || f == JET_FORMAT_NV21 || f == JET_FORMAT_I420 ||
         f == JET_FORMAT_YUYV || f == JET_FORMAT_UYVY;
}

/* Channel offsets of R, G, B, A in an 8-bit pixel format; A < 0 when absent.
 * Returns the bytes per pixel, 0 when @f is not one. GRAY8 gives 1, all offsets 0. */
static int rgb_layout(jet_format f, int off[4]) {
  switch (f) {
    case JET_FORMAT_GRAY8: off[0] = off[1] = off[2] = 0; off[3] = -1; return 1;
    case JET_FORMAT_RGB8: off[0] = 0; off[1] = 1; off[2] = 2; off[3] = -1; return 3;
    case JET_FORMAT_BGR8: off[0] = 2; off[1] = 1; off[2] = 0; off[3] = -1; return 3;
    case JET_FORMAT_RGBA8: off[0] = 0; off[1] = 1; off[2] = 2; off[3] = 3; return 4;
    case JET_FORMAT_BGRA8: off[0] = 2; off[1] = 1; off[2] = 0; off[3] = 3; return 4;
    default: return 0;
  }
}

static void get_yuv(const ref_image *im, int x, int y, int *Y, int *U, int *V) {
  switch (im->format) {
    case JET_FORMAT_NV12:
    case JET_FORMAT_NV21: {
      const unsigned char *c = px(im, 1, x >> 1, y >> 1, 2);
      *Y = *px(im, 0, x, y, 1);
      *U = im->format == JET_FORMAT_NV12 ? c[0] : c[1];
      *V = im->format == JET_FORMAT_NV12 ? c[1] : c[0];
      break;
    }
    case JET_FORMAT_I420:
      *Y = *px(im, 0, x, y, 1);
      *U = *px(im, 1, x >> 1, y >> 1, 1);
      *V = *px(im, 2, x >> 1, y >> 1, 1);
      break;
    case JET_FORMAT_YUYV: {
      const unsigned char *p = px(im, 0, x & ~1, y, 2);
      *Y = p[(x & 1) * 2];
      *U = p[1];
      *V = p[3];
      break;
    }
    default: { /* UYVY */
      const unsigned char *p = px(im, 0, x & ~1, y, 2);
      *Y = p[1 + (x & 1) * 2];
      *U = p[0];
      *V = p[2];
      break;
    }
  }
}

/* The 8-bit R, G, B of an NV12 or RGBA8 pixel (also used by DNN preprocess). */
void ref__rgb_at(const ref_image *im, int x, int y, jet_color_matrix m, jet_color_range r,
                 int rgb[3]) {
  if (is_yuv(im->format)) {
    int Y, U, V;
    get_yuv(im, x, y, &Y, &U, &V);
    ref_yuv_to_rgb(Y, U, V, m, r, rgb);
    return;
  }
  int off[4] = {0, 0, 0, -1}, bpp = rgb_layout(im->format, off);
  const unsigned char *p = px(im, 0, x, y, bpp);
  for (int c = 0; c < 3; c++) rgb[c] = p[off[c]];
}

static int convert_to_420(const ref_image *src, ref_image *dst, jet_color_matrix m,
                          jet_color_range r) {
  int off[4] = {0, 0, 0, -1}, bpp = rgb_layout(src->format, off);
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      const unsigned char *p = px(src, 0, x, y, bpp);
      *px(dst, 0, x, y, 1) = (unsigned char)ref_rgb_to_y(p[off[0]], p[off[1]], p[off[2]], m, r);
    }
  for (int cy = 0; cy < src->height / 2; cy++)
    for (int cx = 0; cx < src->width / 2; cx++) {
      int s[3] = {0, 0, 0};
      for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
          const unsigned char *p = px(src, 0, 2 * cx + i, 2 * cy + j, bpp);
          for (int c = 0; c < 3; c++) s[c] += p[off[c]];
        }
      int u, v;
      ref_rgb4_to_uv(s[0], s[1], s[2], m, r, &u, &v);
      if (dst->format == JET_FORMAT_NV12) {
        unsigned char *q = px(dst, 1, cx, cy, 2);
        q[0] = (unsigned char)u;
        q[1] = (unsigned char)v;
      } else {
        *px(dst, 1, cx, cy, 1) = (unsigned char)u;
        *px(dst, 2, cx, cy, 1) = (unsigned char)v;
      }
    }
  return 0;
}

int ref_convert(const ref_image *src, ref_image *dst, jet_color_matrix m, jet_color_range r) {
  if (src->width != dst->width || src->height != dst->height) return -1;
  int doff[4] = {0, 0, 0, -1}, dbpp = rgb_layout(dst->format, doff);
  int soff[4] = {0, 0, 0, -1}, sbpp = rgb_layout(src->format, soff);
  if ((src->format == JET_FORMAT_RGB8 || src->format == JET_FORMAT_RGBA8) &&
      (dst->format == JET_FORMAT_NV12 || dst->format == JET_FORMAT_I420))
    return convert_to_420(src, dst, m, r);
  if (!dbpp) return -1;
  if (!is_yuv(src->format) && (!sbpp || src->format == dst->format)) return -1;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      int rgb[3], a = 255, gray;
      if (is_yuv(src->format)) {
        int Y, U, V;
        get_yuv(src, x, y, &Y, &U, &V);
        ref_yuv_to_rgb(Y, U, V, m, r, rgb);
        gray = yuv_to_gray(Y, r);
      } else {
        const unsigned char *p = px(src, 0, x, y, sbpp);
        for (int c = 0; c < 3; c++) rgb[c] = p[soff[c]];
        if (soff[3] >= 0) a = p[soff[3]];
        gray = src->format == JET_FORMAT_GRAY8 ? rgb[0] : gray_of(rgb[0], rgb[1], rgb[2], m);
      }
      unsigned char *q = px(dst, 0, x, y, dbpp);
      if (dst->format == JET_FORMAT_GRAY8) {
        q[0] = (unsigned char)gray;
        continue;
      }
      for (int c = 0; c < 3; c++) q[doff[c]] = (unsigned char)rgb[c];
      if (doff[3] >= 0) q[doff[3]] = (unsigned char)a;
    }
  return 0;
}

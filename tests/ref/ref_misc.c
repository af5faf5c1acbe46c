/* Reference geometry, reductions and DNN preprocess (rules in ref_image.h). */
#include <float.h>
#include <string.h>

#include "ref_image.h"


/* Single-plane unsubsampled formats: bytes per pixel, 0 for others. */
static int packed_bpp(const ref_image *im) {
  jet_format_desc d;
  if (jet_format_info(im->format, &d) != JET_STATUS_OK) return 0;
  if (d.planes != 1 || d.sub_x || d.sub_y) return 0;
  return d.bytes_per_pixel[0];
}

static const unsigned char *cpx(const ref_image *im, int x, int y, int bpp) {
  return im->data[0] + im->pitch[0] * (size_t)y + (size_t)x * (size_t)bpp;
}

static unsigned char *mpx(ref_image *im, int x, int y, int bpp) {
  return im->data[0] + im->pitch[0] * (size_t)y + (size_t)x * (size_t)bpp;
}

/* dst(x, y) = src(map(x, y)) for the geometric operations. */
typedef enum { G_TRANSPOSE, G_FLIP_H, G_FLIP_V, G_FLIP_BOTH, G_ROT90, G_ROT270 } geom;

static int geometry(const ref_image *src, ref_image *dst, geom g) {
  int bpp = packed_bpp(src), w = src->width, h = src->height;
  if (!bpp || src->format != dst->format) return -1;
  int swapped = g == G_TRANSPOSE || g == G_ROT90 || g == G_ROT270;
  if (swapped ? (dst->width != h || dst->height != w) : (dst->width != w || dst->height != h))
    return -1;
  for (int y = 0; y < dst->height; y++)
    for (int x = 0; x < dst->width; x++) {
      int sx, sy;
      switch (g) {
        case G_TRANSPOSE: sx = y; sy = x; break;
        case G_FLIP_H: sx = w - 1 - x; sy = y; break;
        case G_FLIP_V: sx = x; sy = h - 1 - y; break;
        case G_FLIP_BOTH: sx = w - 1 - x; sy = h - 1 - y; break;
        case G_ROT90: sx = y; sy = h - 1 - x; break;
        default: sx = w - 1 - y; sy = x; break; /* G_ROT270 */
      }
      memcpy(mpx(dst, x, y, bpp), cpx(src, sx, sy, bpp), (size_t)bpp);
    }
  return 0;
}

int ref_transpose(const ref_image *src, ref_image *dst) { return geometry(src, dst, G_TRANSPOSE); }

int ref_flip(const ref_image *src, ref_image *dst, jet_flip flip) {
  switch (flip) {
    case JET_FLIP_HORIZONTAL: return geometry(src, dst, G_FLIP_H);
    case JET_FLIP_VERTICAL: return geometry(src, dst, G_FLIP_V);
    case JET_FLIP_BOTH: return geometry(src, dst, G_FLIP_BOTH);
    default: return -1;
  }
}

int ref_rotate(const ref_image *src, ref_image *dst, jet_rotation rotation) {
  switch (rotation) {
    case JET_ROTATE_90: return geometry(src, dst, G_ROT90);
    case JET_ROTATE_180: return geometry(src, dst, G_FLIP_BOTH);
    case JET_ROTATE_270: return geometry(src, dst, G_ROT270);
    default: return -1;
  }
}

/* ------------------------------------------------------------ reductions */

int ref_reduce(const ref_image *src, ref_stats *out) {
  int bpp = packed_bpp(src);
  if (!bpp) return -1;
  int es = src->elem_size, nc = bpp / es;
  memset(out, 0, sizeof *out);
  out->channels = nc;
  unsigned long long isum[4] = {0, 0, 0, 0};
  for (int c = 0; c < nc; c++) {
    out->min[c] = DBL_MAX;
    out->max[c] = -DBL_MAX;
  }
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) {
      const unsigned char *p = cpx(src, x, y, bpp);
      for (int c = 0; c < nc; c++) {
        double v;
        if (es == 1) {
          v = p[c];
          isum[c] += p[c];
        } else if (es == 2) {
          uint16_t u;
          memcpy(&u, p + 2 * c, 2);
          v = u;
          isum[c] += u;
        } else {
          float f;
          memcpy(&f, p + 4 * c, 4);
          v = f;
          out->sum[c] += v;
        }
        if (v < out->min[c]) out->min[c] = v;
        if (v > out->max[c]) out->max[c] = v;
      }
    }
  double n = (double)src->width * (double)src->height;
  for (int c = 0; c < nc; c++) {
    if (es != 4) out->sum[c] = (double)isum[c];
    out->mean[c] = out->sum[c] / n;
  }
  return 0;
}

int ref_histogram(const ref_image *src, uint32_t hist[256]) {
  if (src->format != JET_FORMAT_GRAY8) return -1;
  memset(hist, 0, 256 * sizeof *hist);
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++) hist[*cpx(src, x, y, 1)]++;
  return 0;
}

/* ------------------------------------------------------------ DNN preprocess */

void ref_letterbox_rect(int sw, int sh, int dw, int dh, int letterbox, int *ox, int *oy, int *cw,
                        int *ch) {
  long long w = dw, h = dh;
  if (letterbox) {
    if ((long long)dw * sh <= (long long)dh * sw) {
      w = dw;
      h = ((long long)sh * dw + sw / 2) / sw;
    } else {
      h = dh;
      w = ((long long)sw * dh + sh / 2) / sh;
    }
    if (w < 1) w = 1;
    if (h < 1) h = 1;
  }
  *cw = (int)w;
  *ch = (int)h;
  *ox = (int)((dw - w) / 2);
  *oy = (int)((dh - h) / 2);
}

int ref_dnn_preprocess(const ref_image *src, ref_image *dst, const ref_dnn_params *p) {
  if ((src->format != JET_FORMAT_NV12 && src->format != JET_FORMAT_RGBA8) ||
      dst->format != JET_FORMAT_RGBF32P || !p)
    return -1;
  for (int c = 0; c < 3; c++)
    if (!(p->stddev[c] != 0.0f)) return -1;
  int ox, oy, cw, ch;
  ref_letterbox_rect(src->width, src->height, dst->width, dst->height, p->letterbox, &ox, &oy, &cw,
                     &ch);
  const long long ONE = JET_RESIZE_ONE;
  for (int y = 0; y < dst->height; y++)
    for (int x = 0; x < dst->width; x++) {
      double v[3];
      int inside = x >= ox && x < ox + cw && y >= oy && y < oy + ch;
      if (!inside) {
        for (int c = 0; c < 3; c++) v[c] = p->pad[c];
      } else {
        int x0, x1, ax, y0, y1, ay, t[2][2][3];
        ref_resize_coord(x - ox, cw, src->width, &x0, &x1, &ax);
        ref_resize_coord(y - oy, ch, src->height, &y0, &y1, &ay);
        ref__rgb_at(src, x0, y0, p->matrix, p->range, t[0][0]);
        ref__rgb_at(src, x1, y0, p->matrix, p->range, t[0][1]);
        ref__rgb_at(src, x0, y1, p->matrix, p->range, t[1][0]);
        ref__rgb_at(src, x1, y1, p->matrix, p->range, t[1][1]);
        for (int c = 0; c < 3; c++) {
          long long s = (ONE - ay) * ((ONE - ax) * t[0][0][c] + ax * t[0][1][c]) +
                        ay * ((ONE - ax) * t[1][0][c] + ax * t[1][1][c]);
          v[c] = (double)s / (double)(1LL << (2 * JET_RESIZE_FRAC_BITS));
        }
      }
      for (int c = 0; c < 3; c++) {
        int plane = p->bgr ? 2 - c : c;
        float *row = (float *)(dst->data[plane] + dst->pitch[plane] * (size_t)y);
        row[x] = (float)((v[c] / 255.0 - p->mean[c]) / p->stddev[c]);
      }
    }
  return 0;
}

/*
 * tests/ref/ref_image.h - CPU reference implementations of the image
 * operations, written for clarity, not speed. The GPU tests compare the
 * kernels against these on fresh random images.
 *
 * The exact arithmetic is the contract the kernels implement. The fixed-point
 * rules of colour conversion, resize, remap and the Gaussian weights are in
 * kernels/image/color_coeffs.h (included below); the rest is here.
 *
 * Images. A ref_image is a host image in any jet_format with padded pitches,
 * laid out like a jet_image (same plane geometry). "Pixel formats" below are
 * GRAY8, RGB8, BGR8, RGBA8, BGRA8 (8-bit channels) and GRAYF32, RGBF32
 * (float channels); operations on them treat every channel alike, alpha
 * included, and never reorder channels.
 *
 * Borders (filters and remap). An index i outside 0..n-1 maps to:
 *   REPLICATE:   min(max(i, 0), n - 1)
 *   REFLECT_101: n == 1: 0; else with period p = 2(n-1): i = |i| mod p,
 *                then i >= n ? p - i : i (dcb|abcd|cba, repeated as needed)
 *   CONSTANT:    no index; the sample is border[c] (for 8-bit images the
 *                value clamp8(round(border[c]))).
 *
 * Filters (box and Gaussian): odd k in JET_FILTER_KSIZE_MIN..MAX, square
 * window centred on the pixel, radius r = k/2, every tap through the border
 * rule. Rounding as in color_coeffs.h (box: round half up of S / k^2;
 * Gaussian: Q8 weights, sum exact, one rounding shift by 16).
 *
 * Geometry (any single-plane unsubsampled format, pixels copied bit for bit):
 *   transpose:  dst is h x w, dst(x, y) = src(y, x)
 *   flip:       see jet_flip; rotate: see jet_rotation (clockwise)
 *
 * Reductions (GRAY8/16/F32, RGB8, BGR8, RGBA8, BGRA8, RGBF32), per channel in
 * memory order: sum (exact integer for 8/16-bit; the GPU's F32 sum may differ
 * from the double reference by 1e-5 * sum of |x|), mean = sum / (w*h),
 * min, max (exact). Histogram (GRAY8): 256 uint32 bins, bin v counts pixels of
 * value v; the bins sum to w*h.
 *
 * DNN preprocess: NV12 or RGBA8 (sw x sh) -> RGBF32P (dw x dh) planar CHW:
 *   1. Content rectangle. Without letterbox (ox, oy, cw, ch) = (0, 0, dw, dh).
 *      With letterbox, keeping the aspect: if dw*sh <= dh*sw, cw = dw and
 *      ch = max(1, (sh*dw + sw/2) / sw); else ch = dh and
 *      cw = max(1, (sw*dh + sh/2) / sh); ox = (dw - cw)/2, oy = (dh - ch)/2
 *      (integer division, 64-bit).
 *   2. Inside the rectangle, pixel (x, y) samples the source with the
 *      bilinear resize coordinates of (x - ox, y - oy) for a cw x ch
 *      destination (color_coeffs.h, FRAC = 11), with no rounding:
 *      S_c = (ONE-ay)*((ONE-ax)*c00 + ax*c01) + ay*((ONE-ax)*c10 + ax*c11),
 *      v_c = S_c / 2^22, where c.. are the 8-bit R, G, B of the four taps
 *      (NV12 taps are converted first by the YUV -> RGB rule with the given
 *      matrix and range, nearest chroma; RGBA8 alpha is ignored).
 *      Outside the rectangle v_c = pad[c] (in 0..255 units).
 *   3. out_c = (v_c / 255 - mean[c]) / stddev[c]; planes R, G, B, or B, G, R
 *      when bgr is set.
 *
 * Tolerances the GPU tests apply: 8-bit results of conversion, nearest,
 * bilinear, box, Gaussian, remap and geometry match exactly; area resize
 * within 1 LSB; float results within 1e-5 * (1 + |ref|) (1e-4 * (1 + |ref|)
 * for Gaussian/box/area sums of many taps).
 *
 * Every function returns 0 on success and -1 when the formats or sizes do
 * not fit the operation (the same pairs jet__image_formats_fit accepts).
 */
#ifndef JET_REF_IMAGE_H
#define JET_REF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "jetrt.h"
#include "../../kernels/image/color_coeffs.h"

typedef struct ref_image {
  jet_format format;
  int width, height, planes, elem_size, channels;
  unsigned char *data[JET_IMAGE_MAX_PLANES];
  size_t pitch[JET_IMAGE_MAX_PLANES];
  size_t row_bytes[JET_IMAGE_MAX_PLANES];
  int plane_w[JET_IMAGE_MAX_PLANES], plane_h[JET_IMAGE_MAX_PLANES];
  void *block;
} ref_image;

/* Allocate a host image; each pitch is the row bytes plus @pad bytes rounded
 * up to the element size. Returns -1 for bad sizes or no memory. */
int ref_image_alloc(ref_image *im, jet_format format, int width, int height, size_t pad);
void ref_image_free(ref_image *im);
/* Fill every byte, padding included, with @byte. */
void ref_image_poison(ref_image *im, unsigned char byte);
/* Random content from @rng: random bits for integer formats, floats uniform
 * in [-256, 256) for F32 formats (never NaN). Padding gets random bytes too. */
void ref_image_randomize(ref_image *im, uint32_t (*rng)(void));
/* The planes as jet_image_plane values (for jet_image_upload/download/wrap). */
void ref_image_planes(const ref_image *im, jet_image_plane *planes);
/* Compare pixel bytes (not padding). Integer formats: |a-b| <= tol per
 * sample; F32: |a-b| <= tol * (1 + |b|). Returns 0 when equal within tol; else
 * 1 and a description of the first difference in @why. */
int ref_image_compare(const ref_image *a, const ref_image *b, double tol, char *why, size_t n);

/* Border index rule above; -1 for CONSTANT outside. */
int ref_border_index(int i, int n, jet_border border);

/* YUV -> RGB of one pixel and RGB -> YUV of one pixel / a 2x2 sum
 * (color_coeffs.h rules). */
void ref_yuv_to_rgb(int y, int u, int v, jet_color_matrix m, jet_color_range r, int rgb[3]);
int ref_rgb_to_y(int r, int g, int b, jet_color_matrix m, jet_color_range range);
void ref_rgb4_to_uv(int sr, int sg, int sb, jet_color_matrix m, jet_color_range r, int *u, int *v);

/* The 8-bit R, G, B of pixel (x, y) of a YUV or 8-bit RGB/BGR/RGBA/BGRA image
 * (YUV through ref_yuv_to_rgb with nearest chroma). */
void ref__rgb_at(const ref_image *im, int x, int y, jet_color_matrix m, jet_color_range r,
                 int rgb[3]);

/* Colour conversion: the pairs of jet__image_formats_fit(CONVERT). */
int ref_convert(const ref_image *src, ref_image *dst, jet_color_matrix m, jet_color_range r);

/* Resize coordinates of one axis (color_coeffs.h). */
void ref_resize_coord(int d, int dn, int sn, int *s0, int *s1, int *frac);
int ref_resize_nearest_index(int d, int dn, int sn);
int ref_resize(const ref_image *src, ref_image *dst, jet_interp interp);

/* The derived sigma when @sigma <= 0, else @sigma. */
double ref_gaussian_sigma(int ksize, double sigma);
void ref_gaussian_weights(int ksize, double sigma, double *w);
void ref_gaussian_weights_q(int ksize, double sigma, int *q);
int ref_box_filter(const ref_image *src, ref_image *dst, int ksize, jet_border border,
                   const double border_value[4]);
int ref_gaussian_filter(const ref_image *src, ref_image *dst, int ksize, double sigma,
                        jet_border border, const double border_value[4]);

/* @map: dst->height rows of dst->width (fx, fy) float pairs, @map_pitch bytes apart. */
int ref_remap(const ref_image *src, ref_image *dst, const float *map, size_t map_pitch,
              jet_border border, const double border_value[4]);

int ref_transpose(const ref_image *src, ref_image *dst);
int ref_flip(const ref_image *src, ref_image *dst, jet_flip flip);
int ref_rotate(const ref_image *src, ref_image *dst, jet_rotation rotation);

typedef struct ref_stats {
  int channels;
  double sum[4], mean[4], min[4], max[4];
} ref_stats;
int ref_reduce(const ref_image *src, ref_stats *out);
int ref_histogram(const ref_image *src, uint32_t hist[256]);

typedef struct ref_dnn_params {
  jet_color_matrix matrix; /* NV12 source only */
  jet_color_range range;   /* NV12 source only */
  int letterbox;
  int bgr;                 /* planes B, G, R instead of R, G, B */
  float pad[3];            /* letterbox fill, 0..255 units, in R, G, B order */
  float mean[3], stddev[3];/* in 0..1 units, R, G, B order */
} ref_dnn_params;
void ref_letterbox_rect(int sw, int sh, int dw, int dh, int letterbox, int *ox, int *oy, int *cw,
                        int *ch);
int ref_dnn_preprocess(const ref_image *src, ref_image *dst, const ref_dnn_params *p);

/* IEEE 754 binary16 (ref_half.c). ref_f32_to_f16: round to nearest, ties to
 * even (what __float2half_rn does): magnitudes from 65520 up give infinity,
 * below 2^-14 subnormals (units of 2^-24), up to 2^-25 zero (2^-25 itself is a
 * tie, to 0); the sign is kept, zeros included; NaN stays a quiet NaN.
 * ref_f16_to_f32: exact. */
uint16_t ref_f32_to_f16(float f);
float ref_f16_to_f32(uint16_t h);
/* The spacing of halves (one ULP) at magnitude @x: 2^(e - 10) for x in
 * [2^e, 2^(e+1)), 2^-24 among the subnormals (x < 2^-14, 0 included). */
double ref_f16_ulp(double x);
/* RGBF32P -> RGBF16P of the same size, every value by ref_f32_to_f16. */
int ref_image_f32_to_f16(const ref_image *src, ref_image *dst);
/* DNN preprocess into RGBF16P: ref_dnn_preprocess's float, rounded to half.
 * jet_dnn_preprocess rounds its own float result, which may differ from the
 * reference's in the last float bits: where the two straddle a half rounding
 * boundary, the halves differ by one step. */
int ref_dnn_preprocess_f16(const ref_image *src, ref_image *dst, const ref_dnn_params *p);

#endif /* JET_REF_IMAGE_H */

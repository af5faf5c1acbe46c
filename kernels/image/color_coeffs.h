/*
 * kernels/image/color_coeffs.h - fixed-point rules shared by the image kernels
 * (CUDA) and the CPU references (tests/ref, C). Plain macros, no includes, so
 * the one file compiles as C and as CUDA and both sides use the same numbers.
 *
 * Every 8-bit result below is defined by integer arithmetic only, so a kernel
 * matches its reference bit for bit. The notation:
 *
 *   clamp8(v)      = v < 0 ? 0 : v > 255 ? 255 : v
 *   rshift_r(a, s) = the rounded right shift of a signed 32-bit accumulator:
 *                    t = a + (1 << (s - 1)); t < 0 ? 0 : t >> s
 *                    (t is tested before shifting, so no negative value is ever
 *                    shifted; every use is followed by clamp8, so this equals
 *                    floor(a / 2^s + 1/2) clamped at 0).
 *
 * ---------------------------------------------------------------- colour
 *
 * Coefficients are Q16 (value * 65536, rounded to nearest), derived from
 * Kr, Kb: BT.601 Kr = 0.299, Kb = 0.114; BT.709 Kr = 0.2126, Kb = 0.0722;
 * Kg = 1 - Kr - Kb. Limited ("video") range: Y in 16..235, U,V in 16..240;
 * full range: Y, U, V in 0..255. Chroma is always centred on 128.
 *
 * YUV -> RGB (one pixel; y, u, v are the 8-bit samples):
 *   yy = y - YOFF   (YOFF = 16 limited, 0 full)
 *   uu = u - 128,  vv = v - 128
 *   R = clamp8(rshift_r(CY * yy            + CRV * vv, 16))
 *   G = clamp8(rshift_r(CY * yy - CGU * uu - CGV * vv, 16))
 *   B = clamp8(rshift_r(CY * yy + CBU * uu           , 16))
 *   CY = 255/219 (limited) or 1 (full); CRV = 2(1-Kr)s; CBU = 2(1-Kb)s;
 *   CGU = 2Kb(1-Kb)/Kg s; CGV = 2Kr(1-Kr)/Kg s; s = 255/224 (limited) or 1 (full).
 *   Chroma upsampling is nearest: pixel (x, y) of a 4:2:0 image uses chroma
 *   sample (x >> 1, y >> 1); of a 4:2:2 image (YUYV, UYVY) sample (x >> 1, y).
 *   Alpha, where the destination has one, is 255.
 *
 * YUV -> GRAY8: limited: clamp8(rshift_r(CY * (y - 16), 16)); full: y.
 *   (The luma of the RGB pixel the YUV pixel stands for, before clamping.)
 *
 * RGB -> Y (8-bit r, g, b):
 *   Y = clamp8(rshift_r(YR * r + YG * g + YB * b + (YOFF << 16), 16))
 *   YR + YG + YB == round(219/255 * 65536) (limited) or 65536 (full) exactly
 *   (YG absorbs the rounding), so white maps to 235 or 255 exactly.
 * RGB -> U, V of a 4:2:0 image (NV12, I420): the chroma sample at (cx, cy)
 *   covers the 2x2 pixel block (2cx..2cx+1, 2cy..2cy+1); with SR, SG, SB the
 *   sums of that block's four r, g, b values:
 *   U = clamp8(rshift_r(UR * SR + UG * SG + UB * SB + (128 << 18), 18))
 *   V = clamp8(rshift_r(VR * SR + VG * SG + VB * SB + (128 << 18), 18))
 *   UR + UG + UB == 0 and VR + VG + VB == 0 exactly (UG, VG absorb the
 *   rounding), so any grey maps to U = V = 128 exactly.
 *
 * RGB/BGR/RGBA/BGRA -> GRAY8: the full-range luma weights of the chosen matrix,
 *   whatever the range: GRAY = clamp8(rshift_r(YR*r + YG*g + YB*b, 16)) with the
 *   FULL row (BT.601 gives OpenCV's 0.299/0.587/0.114). A grey pixel maps to
 *   itself exactly because the weights sum to 65536.
 * GRAY8 -> RGB/BGR/RGBA/BGRA: r = g = b = gray, alpha 255.
 * Among RGB8/BGR8/RGBA8/BGRA8: channels are reordered; alpha is kept between
 *   RGBA8 and BGRA8, dropped into RGB8/BGR8, and 255 from RGB8/BGR8.
 *
 * Rows: X(matrix, range, CY, CRV, CGU, CGV, CBU, YR, YG, YB, UR, UG, UB, VR, VG, VB, YOFF)
 * matrix: 601 or 709; range: LIMITED or FULL. Use as
 *   #define ROW(m, r, ...) ...   JET_CC_TABLE(ROW)
 * The order follows jet_color_matrix (BT601 = 0, BT709 = 1) and jet_color_range
 * (LIMITED = 0, FULL = 1): row index = 2 * matrix + range.
 */
#ifndef JET_KERNELS_IMAGE_COLOR_COEFFS_H
#define JET_KERNELS_IMAGE_COLOR_COEFFS_H

#define JET_CC_SHIFT 16
#define JET_CC_HALF (1 << 15)
#define JET_CC_CHROMA_SHIFT 18 /* 2x2 sums: 16 + 2 */

#define JET_CC_TABLE(X)                                                                           \
  X(601, LIMITED, 76309, 104597, 25675, 53279, 132201, 16829, 33039, 6416, -9714, -19070, 28784,   \
    28784, -24103, -4681, 16)                                                                     \
  X(601, FULL, 65536, 91881, 22553, 46802, 116130, 19595, 38470, 7471, -11058, -21710, 32768,      \
    32768, -27439, -5329, 0)                                                                      \
  X(709, LIMITED, 76309, 117489, 13975, 34925, 138438, 11966, 40254, 4064, -6596, -22188, 28784,   \
    28784, -26145, -2639, 16)                                                                     \
  X(709, FULL, 65536, 103206, 12276, 30679, 121609, 13933, 46871, 4732, -7509, -25259, 32768,      \
    32768, -29763, -3005, 0)

/* ---------------------------------------------------------------- resize
 *
 * Source coordinate of destination column dx (rows alike), OpenCV's half-pixel
 * centres: fx = (dx + 0.5) * sw / dw - 0.5, in exact integer arithmetic with
 * JET_RESIZE_FRAC_BITS fractional bits (64-bit integers):
 *   n = (2*dx + 1) * sw - dw            (= 2*dw * fx)
 *   if n <= 0:  x0 = 0, ax = 0
 *   else:       x0 = n / (2*dw), ax = ((n % (2*dw)) << FRAC) / (2*dw)  (floor)
 *   if x0 >= sw - 1: x0 = sw - 1, ax = 0
 *   x1 = min(x0 + 1, sw - 1)
 * Nearest: sx = ((2*dx + 1) * sw) / (2*dw)  (floor; the source pixel whose
 *   area contains the destination pixel's centre: OpenCV INTER_NEAREST_EXACT).
 * Bilinear, 8-bit (per channel, ONE = 1 << FRAC):
 *   v = (ONE-ay)*((ONE-ax)*p00 + ax*p01) + ay*((ONE-ax)*p10 + ax*p11)
 *   out = (v + (1 << (2*FRAC - 1))) >> (2*FRAC)      (v < 2^30: uint32 holds it)
 * Bilinear, F32: the same x0, ax, y0, ay; wx = ax / ONE etc. in float,
 *   out = (1-wy)*((1-wx)*p00 + wx*p01) + wy*((1-wx)*p10 + wx*p11).
 * Area (downscale only, dw <= sw and dh <= sh): destination pixel (dx, dy)
 *   covers source x in [dx*sw/dw, (dx+1)*sw/dw); in units of 1/dw source
 *   pixels source column i covers [i*dw, (i+1)*dw) and the destination pixel
 *   [dx*sw, (dx+1)*sw). wx_i = overlap length (integer), sum of wx_i = sw.
 *   S = sum_ij wx_i * wy_j * p_ij (uint64), D = sw * sh;
 *   8-bit: out = (2*S + D) / (2*D)  (round half up). F32: S / D.
 *   Integer scale factors reduce to the plain box mean.
 */
#define JET_RESIZE_FRAC_BITS 11
#define JET_RESIZE_ONE (1 << JET_RESIZE_FRAC_BITS)

/* ---------------------------------------------------------------- remap
 *
 * map(x, y) = (fx, fy) is the source position of destination pixel (x, y),
 * integer coordinates at pixel centres (OpenCV's remap convention).
 *   c = fminf(fmaxf(f, -JET_REMAP_COORD_LIMIT), JET_REMAP_COORD_LIMIT)
 *       (NaN becomes -LIMIT, i.e. far outside)
 *   X = (int)rintf(c * JET_REMAP_SUBPIX)   (round half to even; exact in float)
 *   x0 = X >> BITS (floor), ax = X & (SUBPIX - 1)   (same for y)
 *   taps (x0, y0), (x0+1, y0), (x0, y0+1), (x0+1, y0+1), each resolved by the
 *   border mode on its own (constant: the border value; replicate and
 *   reflect-101: the index mapping of the filters).
 *   8-bit: v = (S-ay)*((S-ax)*p00 + ax*p01) + ay*((S-ax)*p10 + ax*p11), S = SUBPIX,
 *          out = (v + (1 << (2*BITS - 1))) >> (2*BITS)
 *   F32: wx = ax / S, wy = ay / S, the bilinear formula of resize.
 */
#define JET_REMAP_BITS 5
#define JET_REMAP_SUBPIX (1 << JET_REMAP_BITS)
#define JET_REMAP_COORD_LIMIT 1048576.0f

/* ---------------------------------------------------------------- Gaussian
 *
 * Weights of an odd kernel of size k (3..31), radius r = k/2, for i = 0..k-1:
 *   sigma <= 0 derives sigma = 0.3 * ((k - 1) * 0.5 - 1) + 0.8 (OpenCV's rule)
 *   g_i = exp(-(i - r)^2 / (2 sigma^2)) in double, s = sum g_i
 *   F32: w_i = g_i / s.
 *   8-bit: q_i = floor(g_i / s * 2^BITS + 0.5) for i != r, q_r = 2^BITS - sum of
 *          the others (so sum q_i == 2^BITS exactly). The host computes these
 *          once and passes them to the kernel.
 *   8-bit output: out = (sum_i sum_j q_i q_j p_ij + 2^(2*BITS-1)) >> (2*BITS)
 *   The sum is separable without loss: the horizontal pass keeps
 *   h = sum_i q_i p (<= 2^BITS * 255, fits 16 bits), the vertical pass sums
 *   q_j h in 32 bits; no intermediate rounding.
 * Box, 8-bit: out = (S + k*k/2) / (k*k), S the sum of the k x k window
 *   (round half up); F32: S / (k*k).
 */
#define JET_GAUSS_BITS 8
#define JET_GAUSS_ONE (1 << JET_GAUSS_BITS)
#define JET_FILTER_KSIZE_MIN 3
#define JET_FILTER_KSIZE_MAX 31

#endif /* JET_KERNELS_IMAGE_COLOR_COEFFS_H */

/*
 * jet_resize, jet_resize_batch and jet_remap: argument checks, then one
 * kernel launch from the built-in module kernels/image/resize.cu (one for a
 * whole batch).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "image_internal.h"
#include "jetrt_kernels.h"
#include "../../kernels/image/resize_params.h"

/* Kernel name suffix of a pixel format: channels and element type. */
static const char *pixel_kind(jet_format f, int *channels, int *is_float) {
  const jet_format_desc *d = jet__format(f);
  *channels = d->channels;
  *is_float = d->elem == JET_ELEM_F32;
  switch (f) {
    case JET_FORMAT_GRAY8: return "u8c1";
    case JET_FORMAT_RGB8:
    case JET_FORMAT_BGR8: return "u8c3";
    case JET_FORMAT_RGBA8:
    case JET_FORMAT_BGRA8: return "u8c4";
    case JET_FORMAT_GRAYF32: return "f32c1";
    default: return "f32c3"; /* RGBF32: the only other format the checks let through */
  }
}

/* Whether rows starting at @p, @pitch bytes apart, are @bytes-aligned. */
static int aligned(const void *p, size_t pitch, size_t bytes) {
  return (uintptr_t)p % bytes == 0 && pitch % bytes == 0;
}

/* Whether every pair's source rows are @sa-byte aligned and its
 * destination rows @da-byte aligned. */
static int all_aligned(const jet_image *src, const jet_image *dst, int count, size_t sa, size_t da) {
  for (int i = 0; i < count; i++)
    if (!aligned(src[i]->plane[0], src[i]->layout.plane[0].pitch, sa) ||
        !aligned(dst[i]->plane[0], dst[i]->layout.plane[0].pitch, da))
      return 0;
  return 1;
}

/* 3 or 4 where the destination is exactly (rs - 1) / rs of the source on
 * both axes, else 0 */
static int frac_factor(const jet__resize_params *p) {
  for (int rs = 3; rs <= 4; rs++)
    if (p->sw % rs == 0 && p->sh % rs == 0 && p->dw == p->sw / rs * (rs - 1) &&
        p->dh == p->sh / rs * (rs - 1))
      return rs;
  return 0;
}

static unsigned long long gcd_ull(unsigned long long a, unsigned long long b) {
  while (b) {
    unsigned long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Blocks along grid x, one per tile of @tile_w x @tile_h pixels in
 * row-major tile order; grid z is the pair of a batch. @tiles, where not
 * NULL, gets the tiles across and their div_inv reciprocal, from which a
 * kernel finds its block's tile without a division (resize_coord.cuh:
 * grid_tile). */
static jet_status grid_for(int dw, int dh, int tile_w, int tile_h, int count, unsigned tiles[2],
                           jet_dim3 *grid, const char *fn) {
  unsigned long long tx = ((unsigned long long)dw + (unsigned)tile_w - 1) / (unsigned)tile_w;
  unsigned long long th = (unsigned)tile_h;
  unsigned long long ty = ((unsigned long long)dh + th - 1) / th;
  if (tx * ty > 0x7fffffffull)
    return jet__error(JET_STATUS_UNSUPPORTED, fn, "destination %dx%d needs %llu blocks, over 2^31-1",
                      dw, dh, tx * ty);
  if (tiles) {
    tiles[0] = (unsigned)tx;
    tiles[1] = jet__div_inv_recip(tx);
  }
  grid->x = (unsigned)(tx * ty);
  grid->y = 1;
  grid->z = (unsigned)count;
  return JET_STATUS_OK;
}

static const jet_dim3 block_dim = {JET_RS_TX, JET_RS_TY, 1};

/* Rows per thread of a walk kernel @k whose tiles are @tile_w wide and
 * whose threads step through @units rows (or pairs): jet__wave_rows's
 * whole waves, at most @max_rows, a walk's prologue counted as 2 steps;
 * @fallback where the kernel's residency is unknown. */
static int walk_rows(const jet_image *src, jet_kernel k, int width, int tile_w, int units, int max_rows,
                     int count, int fallback) {
  const unsigned long long tx = ((unsigned long long)width + (unsigned)tile_w - 1) / (unsigned)tile_w;
  const unsigned long long slots =
      jet__image_sms(src[0]->h.ctx) * (unsigned long long)jet__kernel_resident(k);
  return slots ? jet__wave_rows(tx, units, 1, 1, max_rows, count, slots, 2) : fallback;
}

_Static_assert(JET_RS_BATCH == JET_IMAGE_BATCH_MAX, "resize_params.h's batch size");

/* The launch shared by jet_resize and jet_resize_batch; the pairs passed
 * their checks. */
static jet_status resize(jet_stream stream, const jet_image *src, const jet_image *dst, int count,
                         jet_interp interp, const char *fn) {
  static const char *const mode_names[] = {"nearest", "linear", "area"};
  if (interp != JET_INTERP_NEAREST && interp != JET_INTERP_LINEAR && interp != JET_INTERP_AREA)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "unknown interpolation %d", (int)interp);
  const jet__image_layout *sl = &src[0]->layout, *dl = &dst[0]->layout;
  if (interp == JET_INTERP_AREA && (dl->width > sl->width || dl->height > sl->height))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "area resize only downscales: %dx%d -> %dx%d; use JET_INTERP_LINEAR to enlarge",
                      sl->width, sl->height, dl->width, dl->height);
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, src[0]->h.ctx, &cu, fn));

  int channels, is_float;
  const char *kind = pixel_kind(sl->format, &channels, &is_float);
  /* 8-bit bilinear where every destination centre falls on a source centre
   * on both axes (odd integer factors 1/3, 1/5, ..., and the same size):
   * every weight is 0 but the first tap's, whose sum (ONE^2 * p + 2^21) >> 22
   * is p, the pixel that nearest takes (color_coeffs.h), so nearest's
   * kernels give the same bytes with one load a pixel instead of four (H100,
   * 1/3: RGB8 at 4K 10.8 -> 8.9 us). Float bilinear stays: its zero-weight
   * columns still carry infinities and NaN (it reads only the centre rows:
   * p.rows_on_src, resize.cu's resize_f32_linear). */
  const int rows_on_src = jet__centres_on_source(sl->height, dl->height);
  if (interp == JET_INTERP_LINEAR && !is_float && rows_on_src &&
      jet__centres_on_source(sl->width, dl->width))
    interp = JET_INTERP_NEAREST;
  if (interp == JET_INTERP_NEAREST && sl->format == JET_FORMAT_GRAYF32) {
    /* nearest only moves whole pixels: a 4-byte float is moved as an RGBA8
     * pixel (bit for bit), by the RGBA8 kernels */
    kind = "u8c4";
    is_float = 0;
    channels = 4;
  }
  jet__resize_params p;
  memset(&p, 0, sizeof p);
  p.sw = sl->width;
  p.sh = sl->height;
  p.dw = dl->width;
  p.dh = dl->height;
  p.count = count;
  p.inv_w = jet__div_inv_recip(2ull * (unsigned)p.dw);
  p.inv_h = jet__div_inv_recip(2ull * (unsigned)p.dh);
  p.rows_on_src = rows_on_src;
  /* one path for the whole launch: 4-byte accesses only where every pair allows them */
  p.src_vec = p.dst_vec = 1;
  for (int i = 0; i < count; i++) {
    jet__resize_image *im = &p.img[i];
    im->src = src[i]->plane[0];
    im->dst = dst[i]->plane[0];
    im->src_pitch = src[i]->layout.plane[0].pitch;
    im->dst_pitch = dst[i]->layout.plane[0].pitch;
    p.src_vec &= aligned(im->src, im->src_pitch, 4);
    p.dst_vec &= aligned(im->dst, im->dst_pitch, 4);
  }
  /* 8-bit bilinear by exactly 1/2 on both axes: every x0 is 2d with ax =
   * ONE/2, and so on the other axis (color_coeffs.h), so the sum is
   * (ONE^2/4 * (a + b + c + d) + 2^21) >> 22 = (a + b + c + d + 2) >> 2, the
   * area average of the same 2 x 2 pixels ((2S + 4) / 8): the integer-factor
   * area kernels give the same bytes from whole words (H100 A/B: GRAY8
   * 6-15% faster, RGB8 7-13%, RGBA8 1-4%). Where their alignment does not
   * hold, bilinear keeps its own kernels. */
  if (interp == JET_INTERP_LINEAR && !is_float && p.sw == 2 * p.dw && p.sh == 2 * p.dh &&
      p.src_vec && (channels != 4 || p.dst_vec))
    interp = JET_INTERP_AREA;
  if (interp == JET_INTERP_AREA) {
    unsigned long long gx = gcd_ull((unsigned)p.sw, (unsigned)p.dw);
    unsigned long long gy = gcd_ull((unsigned)p.sh, (unsigned)p.dh);
    p.rsw = (int)((unsigned)p.sw / gx);
    p.rdw = (int)((unsigned)p.dw / gx);
    p.rsh = (int)((unsigned)p.sh / gy);
    p.rdh = (int)((unsigned)p.dh / gy);
    /* both < 2^31, so the product fits 64 bits; 511 * D < 2^32 keeps 8-bit sums in 32 bits */
    p.area_d = (unsigned long long)p.rsw * (unsigned long long)p.rsh;
    p.area_wide = p.area_d >= 0xffffffffull / 511;
    p.area32 = !p.area_wide && ((unsigned long long)p.sw + 1) * (unsigned)p.rdw < 0x80000000ull &&
               ((unsigned long long)p.sh + 1) * (unsigned)p.rdh < 0x80000000ull;
    if (p.area32) p.area_inv = jet__div_inv_recip(2 * p.area_d);
  }
  /* name, and ptx_name where the PTX image has another kernel in its place */
  char name[48], ptx_name[48] = "";
  snprintf(name, sizeof name, "jet_resize_%s_%s", kind, mode_names[interp]);
  /* any interpolation by exactly 2/3 or 3/4 on both axes from aligned
   * rows: taps that repeat every 3 or 4 source pixels, fixed weights, whole
   * words (resize.cu: resize_frac); tiles of TX units (4 groups of 3 or 4
   * source pixels for GRAY8 and RGB8, else 1) by up to TY row groups, or
   * destination rows (3 channels, and nearest). Nearest only for GRAY8,
   * RGBA8 and GRAYF32 (moved as RGBA8): RGB8's took twice the general
   * kernel's time at 3/4 of 1440p and 4K (H100). */
  const int rs = frac_factor(&p), frac_rowwise = channels == 3 || interp == JET_INTERP_NEAREST;
  const int frac = !JET_COMPACT_KERNELS && rs && p.src_vec && p.dst_vec &&
                   (interp != JET_INTERP_NEAREST || (!is_float && channels != 3));
  /* Float area kernels (area_k and resize_frac's area) sum in FP64 where the
   * policy allows it (fp64_sums: a desktop GPU with FP64 at half the FP32
   * rate) and the loaded image carries their _f64 twins (cubins of the
   * JET_RS_F64_SM list and NVRTC; not the PTX image). H200 A/B, GRAYF32: by
   * 2/3 of 2560x1440 (k3x2) 0.80 of the time, of 3840x2160 (r32) 0.84; by
   * 3/4 (r43) 0.88-0.91; by 1/3 (k3, k4x3) 0.91-0.99; by 1/2 (k2) 0.99-1.01.
   * (The general float bilinear kernel in FP64: 0.99 of the time by 2/3 of
   * 1280x720 and 2560x1440, not kept.) */
  const int f64_allowed = is_float && interp == JET_INTERP_AREA && src[0]->h.ctx->platform.policy.fp64_sums;
  jet_kernel_path path = JET_KERNEL_PATH_CUBIN;
  int image_sm = 0;
  if (frac || f64_allowed)
    JET__TRY(jet__builtin_image(src[0]->h.ctx, &jet__images_resize, &path, &image_sm, fn));
  const char *f64 = f64_allowed && path != JET_KERNEL_PATH_PTX && JET_RS_F64_SM(image_sm) ? "_f64" : "";
  /* the PTX image leaves these kernels out (resize.cu) */
  if (frac && path != JET_KERNEL_PATH_PTX) {
    snprintf(name, sizeof name, "jet_resize_%s_%s_r%d%d%s", kind, mode_names[interp], rs, rs - 1, f64);
    p.src_vec16 = all_aligned(src, dst, count, 16, 1);
    jet_kernel k;
    JET__TRY(jet__builtin_kernel(src[0]->h.ctx, &jet__images_resize, name, &k, fn));
    /* a thread per unit and row group, or per unit and destination row */
    const int unit = !is_float && channels != 4 ? 4 : 1, groups = p.sw / rs;
    const int units = (groups + unit - 1) / unit, rows = frac_rowwise ? p.dh : p.sh / rs;
    /* blocks of 32 x 8 threads, or fewer rows where that leaves under 2
     * blocks per SM (a 720p GRAY8 source by 3/4 is 80 units by 180 rows) */
    const unsigned long long tx = ((unsigned long long)units + JET_RS_TX - 1) / JET_RS_TX;
    const unsigned long long want = 2ull * jet__image_sms(src[0]->h.ctx);
    jet_dim3 block = {JET_RS_TX, JET_RS_TY, 1};
    while (block.y > 1 && tx * (((unsigned long long)rows + block.y - 1) / block.y) * (unsigned)count < want)
      block.y /= 2;
    jet_dim3 grid;
    JET__TRY(grid_for(units, rows, JET_RS_TX, (int)block.y, count, NULL, &grid, fn));
    void *args[] = {&p};
    return jet__launch(cu, k, grid, block, 0, args, fn);
  }
  /* RGB8 bilinear from aligned rows above 1/2 across: taps from words (an
   * H100 sweep: x3/4 10-25% faster than byte loads; x1/2 and x1/3, bound by
   * memory, gain nothing) */
  if (interp == JET_INTERP_LINEAR && channels == 3 && !is_float && p.src_vec && p.sw < 2 * p.dw)
    snprintf(name, sizeof name, "jet_resize_u8c3w_linear");
  /* RGBA8 fast kernels: aligned rows; area only for integer factors whose
   * box sum fits the packed 16-bit lanes (kx*ky <= 256) */
  int rows = JET_RS_ROWS, fixed_rows = 0, up = 0; /* fixed: the kernel's own rows, not p.rows */
  if (channels == 4 && !is_float && p.src_vec && p.dst_vec) {
    if (interp != JET_INTERP_AREA) {
      snprintf(name, sizeof name, "jet_resize_u8c4v_%s", mode_names[interp]);
      rows = JET_RS_ROWS_C4;
      fixed_rows = 1;
    } else if (p.rdw == 1 && p.rdh == 1 && p.area_d <= 256) {
      snprintf(name, sizeof name, "jet_resize_u8c4v_area_int");
      rows = JET_RS_ROWS_C4;
      fixed_rows = 1;
    }
  }
  /* 1 and 3 channels, integer factors 2..4 across, aligned source rows,
   * 32-bit sums: box sums of aligned words, one row per thread */
  if (interp == JET_INTERP_AREA && !is_float && channels != 4 && p.src_vec && p.area32 &&
      p.rdw == 1 && p.rdh == 1 && p.rsw >= 2 && p.rsw <= 4) {
    snprintf(name, sizeof name, "jet_resize_%s_area_int", kind);
    rows = 1;
    fixed_rows = 1;
  }
  /* area whose windows meet at most 4 x 4 source pixels, where no
   * integer-factor kernel took it: tabulated weights (area_k) */
  if (!JET_COMPACT_KERNELS && interp == JET_INTERP_AREA && p.area32 && !fixed_rows &&
      (channels != 4 || p.src_vec)) {
    long long kx = ((long long)p.rsw + 2LL * p.rdw - 2) / p.rdw;
    long long ky = ((long long)p.rsh + 2LL * p.rdh - 2) / p.rdh;
    kx = kx < 2 ? 2 : kx;
    ky = ky < 2 ? 2 : ky;
    long long kk = kx > ky ? kx : ky;
    if ((kx == 3 && ky == 2) || (kx == 4 && ky == 3)) {
      /* 3 source columns and 2 rows, or 4 and 3: kernels the PTX image
       * leaves out (resize.cu: AREA_KS) */
      snprintf(name, sizeof name, "jet_resize_%s_area_k%dx%d%s", kind, (int)kx, (int)ky, f64);
      snprintf(ptx_name, sizeof ptx_name, "jet_resize_%s_area_k%d", kind, (int)kx);
    } else if (kk <= 4) {
      snprintf(name, sizeof name, "jet_resize_%s_area_k%d%s", kind, (int)kk, f64);
    }
  }
  /* GRAYF32 bilinear or area by exactly 1/2 on both axes, 16-byte aligned
   * source rows and 8-byte aligned destination rows: both the mean of a 2 x 2
   * block (resize.cu: jet_resize_f32c1_half), 2 pixels a thread, tiles of
   * 2 * TX by TY */
  if (!JET_COMPACT_KERNELS && is_float && channels == 1 && interp != JET_INTERP_NEAREST &&
      p.sw == 2 * p.dw && p.sh == 2 * p.dh && all_aligned(src, dst, count, 16, 8)) {
    jet_kernel k;
    JET__TRY(jet__builtin_kernel(src[0]->h.ctx, &jet__images_resize, "jet_resize_f32c1_half", &k, fn));
    jet_dim3 grid;
    JET__TRY(grid_for(p.dw, p.dh, 2 * JET_RS_TX, JET_RS_TY, count, NULL, &grid, fn));
    void *args[] = {&p};
    return jet__launch(cu, k, grid, block_dim, 0, args, fn);
  }
  /* GRAYF32 and RGBA8 bilinear by exactly 3/2 on both axes into 16-byte
   * aligned destination rows (from 4-byte aligned ones), and GRAY8 and RGB8
   * between 4-byte aligned rows: walks with fixed weights (resize.cu:
   * jet_resize_f32c1_up32_linear, resize_up32), tiles of JET_RS_UP2_TX
   * threads of 4 destination columns side by side by p.rows pairs of source
   * rows; not in the PTX image, where the general walk below takes them.
   * RGBA8 from 1920x1080 source pixels a launch up (H200 A/B against the
   * general walk, 3 rounds: 0.86 of the time at 4K, 0.92 at 1440p, 0.98 at
   * 1080p; 1.10 at 720p, whose 720 blocks of the walk fill under one wave;
   * 1, 3, 4 or 6 pairs a thread no faster than 2) */
  if (!JET_COMPACT_KERNELS && interp == JET_INTERP_LINEAR && (channels == 1 || !is_float) &&
      2LL * p.dw == 3LL * p.sw && 2LL * p.dh == 3LL * p.sh &&
      all_aligned(src, dst, count, 4, is_float || channels == 4 ? 16 : 4) &&
      (channels != 4 || (unsigned long long)p.sw * (unsigned)p.sh >= 1920ull * 1080u / (unsigned)count)) {
    JET__TRY(jet__builtin_path(src[0]->h.ctx, &jet__images_resize, &path, fn));
    if (path != JET_KERNEL_PATH_PTX) {
      snprintf(name, sizeof name, "jet_resize_%s_up32_linear", kind);
      jet_kernel k;
      JET__TRY(jet__builtin_kernel(src[0]->h.ctx, &jet__images_resize, name, &k, fn));
      /* 2 pairs (6 destination rows) a thread: H100, pairs forced per run,
       * 720p to 4K, GRAYF32: 1 pair 7-13% slower, 3 pairs 1-6%, 4 pairs
       * 2-11%, 8 pairs 13-35%; RGB8: 1 to 6 pairs and the GRAY8 rule below
       * within 1-8% of 2 at 1440p and 4K, slower at 720p and 1080p */
      p.rows = 2;
      if (channels == 1 && !is_float) {
        /* GRAY8: whole waves of up to 8 pairs, a walk's first pair counted
         * as 2 more (H100, pairs forced per run: the rule's 2, 3, 6 and 6
         * at 720p, 1080p, 1440p and 4K against the best of 1 to 8: 0.82 vs
         * 0.82, 0.92 vs 0.92, 1.04 vs 1.02, 1.15 vs 1.13x copy; 2 pairs
         * everywhere took 1.26x at 4K) */
        p.rows = walk_rows(src, k, p.dw, 4 * JET_RS_UP2_TX, p.sh / 2, 8, count, 2);
      }
      const jet_dim3 block = {JET_RS_UP2_TX, 1, 1};
      jet_dim3 grid;
      JET__TRY(grid_for(p.dw, p.sh / 2, 4 * JET_RS_UP2_TX, p.rows, count, NULL, &grid, fn));
      void *args[] = {&p};
      return jet__launch(cu, k, grid, block, 0, args, fn);
    }
  }
  /* 8-bit and 4-byte pixels (GRAYF32 moves as RGBA8) nearest by exactly 2
   * or 3/2 on both axes: copies of source rows with pixels repeated, whole
   * words, no coordinates. resize.cu: resize_up2_nearest from source rows
   * 8-byte (RGB8: 4-byte) aligned into 16-byte (8-byte) aligned ones, units
   * of 8 GRAY8 pixels, 2 4-byte pixels or 8 RGB8 destination bytes by TY
   * source rows, 4 a thread down to 1 where that leaves under 4 blocks per
   * SM; resize_up32_nearest from 4-byte into 8-byte (4-byte pixels:
   * 16-byte) aligned rows, units of 8 destination bytes (4-byte pixels: 16)
   * by TY source row pairs, one a thread. H200 A/B against the general walk
   * (resize_up), 720p to 4K: x2 GRAY8 0.65-0.75 of the time, RGB8
   * 0.76-0.90, RGBA8 and GRAYF32 0.86-1.02 (4 rows everywhere within 1% of
   * the rule); x3/2 GRAY8 0.73-0.89, RGB8 0.84-0.89, RGBA8 and GRAYF32
   * 0.90-0.98 (2 row pairs a thread: 1.06-1.10 of one's time at 1440p and
   * 4K). */
  const int near = !JET_COMPACT_KERNELS && interp == JET_INTERP_NEAREST && !is_float;
  const int near2 = near && (long long)p.dw == 2LL * p.sw && (long long)p.dh == 2LL * p.sh &&
                    all_aligned(src, dst, count, channels == 3 ? 4 : 8, channels == 3 ? 8 : 16);
  const int near32 = near && 2LL * p.dw == 3LL * p.sw && 2LL * p.dh == 3LL * p.sh &&
                     all_aligned(src, dst, count, 4, channels == 4 ? 16 : 8);
  if (near2 || near32) {
    snprintf(name, sizeof name, "jet_resize_%s_up%s_nearest", kind, near2 ? "2" : "32");
    jet_kernel k;
    JET__TRY(jet__builtin_kernel(src[0]->h.ctx, &jet__images_resize, name, &k, fn));
    const unsigned long long units = near2 ? JET_RS_UP2N_UNITS((unsigned)channels, (unsigned long long)p.sw)
                                           : JET_RS_UP32N_UNITS((unsigned)channels, (unsigned long long)p.dw);
    const int steps = near2 ? p.sh : p.sh / 2; /* source rows, or row pairs */
    p.rows = 1;
    if (near2) {
      const unsigned long long tx = (units + JET_RS_TX - 1) / JET_RS_TX;
      const unsigned long long sms = jet__image_sms(src[0]->h.ctx);
      p.rows = JET_RS_UP2N_ROWS;
      while (p.rows > 1 && jet__tile_blocks(tx, steps, JET_RS_TY, p.rows, count) < sms * 4) p.rows /= 2;
    }
    jet_dim3 grid;
    JET__TRY(grid_for((int)units, steps, JET_RS_TX, JET_RS_TY * p.rows, count, NULL, &grid, fn));
    void *args[] = {&p};
    return jet__launch(cu, k, grid, block_dim, 0, args, fn);
  }
  /* 8-bit bilinear by exactly 2 on both axes from aligned source rows, and
   * GRAYF32 from 8-byte aligned source rows into 16-byte aligned destination
   * rows: the x2 kernels (resize.cu: resize_up2,
   * jet_resize_f32c1_up2_linear), tiles of JET_RS_UP2_TX threads of
   * JET_RS_UP2_PX 8-bit pixels or 2 floats side by side by p.rows source
   * rows: whole waves of blocks, as the other bilinear walks (a rule of 8
   * blocks per SM left 1.2 waves with RGB8 at 4K, 4% slower than resize_up
   * there) */
  const int up2_f32 = is_float && channels == 1 && all_aligned(src, dst, count, 8, 16);
  if (!JET_COMPACT_KERNELS && interp == JET_INTERP_LINEAR &&
      (is_float ? up2_f32 : p.src_vec) &&
      (long long)p.dw == 2LL * p.sw && (long long)p.dh == 2LL * p.sh) {
    snprintf(name, sizeof name, "jet_resize_%s_up2_linear", kind);
    jet_kernel k;
    JET__TRY(jet__builtin_kernel(src[0]->h.ctx, &jet__images_resize, name, &k, fn));
    const int tile_w = JET_RS_UP2_TX * (is_float ? 2 : JET_RS_UP2_PX(channels));
    /* prologue: the rows above and at the start, loaded before the walk.
     * GRAYF32 and RGB8 walk 3 source rows: they wait on memory, not on
     * instructions, and shorter walks keep more in flight (H100, rows forced
     * per run against the whole-wave rule's 7 to 25: GRAYF32 x2 from 1080p,
     * 1440p and 4K 4-9% faster, level from 720p; RGB8 from 1440p and 4K
     * 10-19% faster (1.26 -> 1.14x, 1.19 -> 1.00x copy), level from 720p
     * and 1080p, where 2 rows were 8% slower). RGBA8 too (H200, 3 rounds:
     * 2, 4 and 8 rows took 0.98-1.09, 0.97-1.00 and 1.00-1.09 of 3 rows'
     * time at 720p to 4K). GRAY8 keeps the rule: 2 to 8 rows were 2-25%
     * slower at most sizes. */
    if (is_float || channels >= 3) {
      p.rows = 3;
    } else {
      p.rows = walk_rows(src, k, p.sw, tile_w, p.sh, JET_RS_ROWS_UP, count, 8);
    }
    const jet_dim3 block = {JET_RS_UP2_TX, 1, 1};
    jet_dim3 grid;
    JET__TRY(grid_for(p.sw, p.sh, tile_w, p.rows, count, NULL, &grid, fn));
    void *args[] = {&p};
    return jet__launch(cu, k, grid, block, 0, args, fn);
  }
  /* enlarging, 8-bit with aligned source rows and float bilinear: kernels
   * that walk rows and take each source row's taps once (rows per thread:
   * below) */
  if (!JET_COMPACT_KERNELS && p.dw >= p.sw && p.dh >= p.sh &&
      (is_float ? interp == JET_INTERP_LINEAR : interp != JET_INTERP_AREA && p.src_vec)) {
    snprintf(name, sizeof name, "jet_resize_%s_up_%s", kind, mode_names[interp]);
    rows = channels == 3 && !is_float ? JET_RS_ROWS_UP / 2 : JET_RS_ROWS_UP;
    fixed_rows = 0;
    up = 1;
  }
  /* pixels per thread: resize.cu's G (4-channel nearest enlarging: 4) */
  int group = (!is_float && (channels != 4 || (up && interp == JET_INTERP_NEAREST))) ? 4 : 1;
  /* tiles: TX groups by TY * rows rows; the enlarging kernels' threads sit
   * side by side, TX * TY groups by rows rows */
  int tile_w = JET_RS_TX * group, row_mul = JET_RS_TY;
  if (up) {
    tile_w *= JET_RS_TY;
    row_mul = 1;
  }
  jet_kernel k;
  JET__TRY(jet__builtin_kernel_or(src[0]->h.ctx, &jet__images_resize, name,
                                  ptx_name[0] ? ptx_name : name, &k, fn));
  jet_dim3 grid;
  if (!fixed_rows) {
    unsigned long long sms = jet__image_sms(src[0]->h.ctx);
    unsigned long long tx = ((unsigned long long)p.dw + (unsigned)tile_w - 1) / (unsigned)tile_w;
    int resident = jet__kernel_resident(k);
    if (up && interp == JET_INTERP_LINEAR && resident > 0) {
      /* bilinear walks are bound by instruction issue, not DRAM: whole
       * waves of blocks (an H100 A/B: RGB8 x3/2 to 3840x2160 1.73 -> 1.39x
       * copy, GRAY8 x3/2 to 5760x3240 1.62 -> 1.33x) */
      rows = jet__wave_rows(tx, p.dh, row_mul, 1, rows, count, sms * (unsigned)resident, 4);
    } else if (up && interp == JET_INTERP_NEAREST && channels >= 3) {
      /* 3- and 4-channel nearest walks: 4 rows. An H100 sweep of 1 to 32
       * rows per walk, 1280x720 to 3840x2160 by 3/2 and 2: 4 rows were the
       * fastest or within 5% of it everywhere (RGBA8 to 5760x3240: 16-row
       * walks 1.13x copy, 4-row ones 0.96x); the rule below left 8 to 16. */
      rows = 4;
    } else {
      /* fewer rows per thread until there are bps blocks per SM (or 1 row).
       * The enlarging kernels amortise a block's tables and prefetch over its
       * walk: they take 4 blocks per SM and 3-channel 8-bit walks of at most
       * 16 rows (an H100 sweep of 1 to 16 blocks per SM; 32-row 3-channel
       * walks left 1.5 waves at 4K). Memory-bound kernels run faster with
       * more, shorter blocks than whole waves would give (nearest 3840x2160
       * RGBA8: 16-row walks 1.11x copy, 31-row ones in one wave 1.37x).
       * Kernels that load several rows before storing (float bilinear,
       * GRAY8 nearest and bilinear) keep 4 rows down to 2 blocks per SM
       * (H100, GRAYF32 bilinear to 960x540 by 3/4: 4 rows 0.84x copy, 1 row
       * 0.96x; 2 rows by 1/2 to 640x360: 0.80x, 4 rows 0.85x; GRAY8 nearest
       * from 2560x1440 by 2/3: 4 rows 0.80x, 1 row 0.86x). RGB8 nearest
       * (byte loads, 4 pixels a thread) wants 16 blocks per SM: by 3/4 from
       * 3840x2160, 8 left 4-row walks in 1.1 waves (ncu: L1 at 89% of its
       * peak, DRAM at 19%), and 2-row ones took 0.86-0.87 of their time, by
       * 2/3 1-row ones 0.96-0.98 (two H200 A/B calls; 16 for every
       * kernel here was no faster elsewhere). */
      const int rows_in_flight = is_float ? interp == JET_INTERP_LINEAR
                                          : channels == 1 && interp != JET_INTERP_AREA;
      const int byte_walk = channels == 3 && !is_float && interp == JET_INTERP_NEAREST;
      unsigned bps = up ? 4u : rows_in_flight ? 2u : byte_walk ? 16u : 8u;
      while (rows > 1 && jet__tile_blocks(tx, p.dh, row_mul, rows, count) < sms * bps) rows /= 2;
      /* 1-channel nearest walks: at most 8 rows (H100, GRAY8 x3/2 to
       * 5760x3240: 32 rows 1.31x copy, 8 rows 1.11x; x3/2 to 3840x2160 1.13
       * -> 1.04x; x2 to 7680x4320 1.07 -> 1.09x, the only loss) */
      if (up && interp == JET_INTERP_NEAREST && rows > 8) rows = 8;
    }
  }
  p.rows = rows;
  JET__TRY(grid_for(p.dw, p.dh, tile_w, row_mul * rows, count, NULL, &grid, fn));
  void *args[] = {&p};
  return jet__launch(cu, k, grid, block_dim, 0, args, fn);
}

jet_status jet_resize(jet_stream stream, jet_image src, jet_image dst, jet_interp interp) {
  JET__TRY(jet__image_check_pair(src, dst, JET__IMAGE_OP_RESIZE, __func__));
  return resize(stream, &src, &dst, 1, interp, __func__);
}

jet_status jet_resize_batch(jet_stream stream, const jet_image *src, const jet_image *dst,
                            int count, jet_interp interp) {
  JET__TRY(jet__image_check_batch(src, dst, count, JET__IMAGE_OP_RESIZE, __func__));
  return resize(stream, src, dst, count, interp, __func__);
}

static int ranges_overlap(uintptr_t a, size_t na, uintptr_t b, size_t nb) {
  return a < b + nb && b < a + na;
}

/* The device address of the map, after checking the device can read it. */
static jet_status map_device_ptr(const struct jet_context_s *ctx, const float *map,
                                 const float **out, const char *fn) {
  struct cudaPointerAttributes a;
  memset(&a, 0, sizeof a);
  cudaError_t e = cudaPointerGetAttributes(&a, map);
  if (e != cudaSuccess)
    return jet__cuda_error(e, fn, "cudaPointerGetAttributes", NULL, "map %p", (const void *)map);
  *out = map;
  switch (a.type) {
    case cudaMemoryTypeDevice:
      if (a.device != ctx->device)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "map %p is memory of device %d, the context's is %d", (const void *)map,
                          a.device, ctx->device);
      return JET_STATUS_OK;
    case cudaMemoryTypeManaged: return JET_STATUS_OK;
    case cudaMemoryTypeHost:
      if (!a.devicePointer)
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "map %p is pinned host memory that is not mapped for the device",
                          (const void *)map);
      *out = a.devicePointer;
      return JET_STATUS_OK;
    default:
      if (ctx->info.pageable_memory_access) return JET_STATUS_OK;
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "map %p is pageable host memory, which this device cannot read; "
                        "use device, managed or mapped pinned memory",
                        (const void *)map);
  }
}

jet_status jet_remap(jet_stream stream, jet_image src, jet_image dst, const float *map,
                     size_t map_pitch, jet_border border, const double border_value[4]) {
  JET__TRY(jet__image_check_pair(src, dst, JET__IMAGE_OP_REMAP, __func__));
  JET__ARG(map, "map is NULL");
  JET__ARG(border == JET_BORDER_REPLICATE || border == JET_BORDER_REFLECT_101 ||
               border == JET_BORDER_CONSTANT,
           "unknown border mode %d", (int)border);
  const jet__image_layout *sl = &src->layout, *dl = &dst->layout;
  size_t row = (size_t)dl->width * 8, extent;
  if (map_pitch == 0) map_pitch = row;
  JET__ARG(map_pitch >= row && map_pitch % 4 == 0,
           "map pitch %zu: needs >= %zu (8 bytes per destination pixel) and a multiple of 4",
           map_pitch, row);
  JET__ARG((uintptr_t)map % 4 == 0, "map %p is not aligned to a float", (const void *)map);
  if (!jet__mul_ok(map_pitch, (size_t)dl->height - 1, &extent) ||
      !jet__add_ok(extent, row, &extent) || !jet__add_ok((uintptr_t)map, extent, &(size_t){0}))
    return jet__error(JET_STATUS_OVERFLOW, __func__, "map of %d rows of pitch %zu overflows",
                      dl->height, map_pitch);
  for (int i = 0; i < dl->planes; i++)
    if (ranges_overlap((uintptr_t)map, extent, (uintptr_t)dst->plane[i], dl->plane[i].extent))
      return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                        "map overlaps the destination image; remap cannot write its own map");
  int channels, is_float;
  const char *kind = pixel_kind(sl->format, &channels, &is_float);
  jet__remap_params p;
  memset(&p, 0, sizeof p);
  for (int c = 0; c < channels && border == JET_BORDER_CONSTANT; c++) {
    double v = border_value ? border_value[c] : 0.0;
    if (is_float) {
      p.border_f[c] = (float)v;
      continue;
    }
    JET__ARG(!isnan(v), "border value %d is NaN, which has no 8-bit value", c);
    p.border_u8[c] = v <= 0 ? 0 : v >= 255 ? 255 : (int)llround(v);
  }
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, src->h.ctx, &cu, __func__));
  const float *dmap = NULL;
  JET__TRY(map_device_ptr(src->h.ctx, map, &dmap, __func__));

  p.src = src->plane[0];
  p.dst = dst->plane[0];
  p.map = (const unsigned char *)dmap;
  p.src_pitch = sl->plane[0].pitch;
  p.dst_pitch = dl->plane[0].pitch;
  p.map_pitch = map_pitch;
  p.sw = sl->width;
  p.sh = sl->height;
  p.dw = dl->width;
  p.dh = dl->height;
  p.border = (int)border;
  p.src_vec = aligned(p.src, sl->plane[0].pitch, 4);
  p.dst_vec = aligned(p.dst, dl->plane[0].pitch, 4);
  p.map_vec = (uintptr_t)dmap % 8 == 0 && map_pitch % 8 == 0;
  char name[32];
  snprintf(name, sizeof name, "jet_remap_%s", kind);
  jet_dim3 grid;
  JET__TRY(grid_for(p.dw, p.dh, JET_RS_TX, JET_RS_TY * JET_RS_ROWS, 1, p.tiles, &grid, __func__));
  jet_kernel k;
  JET__TRY(jet__builtin_kernel(src->h.ctx, &jet__images_resize, name, &k, __func__));
  void *args[] = {&p};
  return jet__launch(cu, k, grid, block_dim, 0, args, __func__);
}

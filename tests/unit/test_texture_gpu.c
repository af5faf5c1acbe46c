/* Arrays, textures and surfaces on a GPU. Every fetch is compared with a CPU
 * model of the Programming Guide's appendix "Texture Fetching":
 *  - coordinates: normalised ones are scaled by the extent first;
 *  - point filtering reads texel floor(x); linear filtering reads floor(xB) and
 *    floor(xB) + 1 with xB = x - 0.5 and weight frac(xB) held in 9-bit fixed
 *    point (8 fractional bits): the model rounds it to 1/256 and compares
 *    within (texel range) * dims / 256, point fetches exactly;
 *  - address modes act on texel indices: clamp to [0, N-1], wrap modulo N,
 *    mirror with period 2N, border returns the border colour;
 *  - cubemaps: face and (s, t) from the major axis of the direction (PG table
 *    "Cubemap Fetch"), face coordinates ((s/m + 1)/2, (t/m + 1)/2);
 *  - gather: the four texels of the bilinear footprint, in the order
 *    (i0, j1), (i1, j1), (i1, j0), (i0, j0) (that of OpenGL's textureGather);
 *    on a mismatch the test prints which order the device returned.
 * Random texels, odd sizes, poisoned outputs (0xff bytes: NaN), coordinates
 * at texel centres, away from texel edges, and outside the texture. Point
 * sampling keeps every coordinate at least 0.1 texel away from a texel edge,
 * where float rounding of the scaled coordinate could pick either texel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "jet-tests_kernels.h"
#include "../ref/ref_texture.h"

/* ------------------------------------------------------------ environment */

typedef struct env {
  jet_context ctx;
  jet_module mod;
  jet_stream s;
} env;

static int env_open(env *e) {
  memset(e, 0, sizeof *e);
  CHECK_OK(jt_context(&e->ctx, 0));
  CHECK_OK(jet_module_load(e->ctx, &jt_images_texture_fetch, NULL, &e->mod));
  CHECK_OK(jet_context_default_stream(e->ctx, JET_STREAM_LEGACY, &e->s));
  return 0;
}

static int env_close(env *e) {
  CHECK_OK(jet_module_destroy(e->mod));
  CHECK_OK(jet_context_destroy(e->ctx));
  return 0;
}

/* Run fetch kernel @name at @n coordinates (4 floats each) into @out (4 floats
 * each), the device output poisoned with 0xff bytes first. */
static int fetch(env *e, const char *name, unsigned long long tex, const float *coords, int n,
                 int extra, float *out) {
  jet_kernel k;
  CHECK_OK(jet_module_kernel(e->mod, name, &k));
  void *dc = NULL, *dout = NULL;
  size_t bytes = (size_t)n * 4 * sizeof(float);
  CHECK(cudaMalloc(&dc, bytes) == cudaSuccess && cudaMalloc(&dout, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(dc, coords, bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemset(dout, 0xff, bytes) == cudaSuccess);
  void *args[] = {&tex, &dc, &dout, &n, &extra};
  jet_dim3 grid = {(unsigned)(n + 127) / 128, 1, 1}, block = {128, 1, 1};
  CHECK_OK(jet_launch(e->s, k, grid, block, 0, args));
  cudaError_t ce = cudaDeviceSynchronize();
  CHECK_MSG(ce == cudaSuccess, "%s: %s", name, cudaGetErrorString(ce));
  CHECK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaFree(dc);
  cudaFree(dout);
  return 0;
}

/* ------------------------------------------------------------ random data */

static float frand(float lo, float hi) { return lo + (hi - lo) * (float)(jt_rand() >> 8) / 16777216.0f; }
static int irand(int lo, int hi) { return lo + (int)(jt_rand() % (uint32_t)(hi - lo)); }

/* Formats the fetch tests use, all 4 channels (the kernels fetch float4). */
typedef enum tfmt {
  F_F32,      /* F32 x 4, element read */
  F_U8_NORM,  /* U8 x 4 read as normalised float */
  F_S16_NORM, /* S16 x 4 read as normalised float */
  F_F16,      /* F16 x 4, element read (as float) */
  F_U8_ELEM,  /* U8 x 4 element read (jt_tex2d_uchar4), point only */
  F_COUNT
} tfmt;

static const char *const fmt_names[] = {"F32x4", "U8x4 norm", "S16x4 norm", "F16x4", "U8x4 elem"};

static jet_texel_format fmt_of(tfmt f) {
  switch (f) {
    case F_F32: return (jet_texel_format){JET_CHANNEL_F32, 4};
    case F_S16_NORM: return (jet_texel_format){JET_CHANNEL_S16, 4};
    case F_F16: return (jet_texel_format){JET_CHANNEL_F16, 4};
    default: return (jet_texel_format){JET_CHANNEL_U8, 4};
  }
}

/* @n texels of @f: raw bytes to upload and the float4 values a fetch returns. */
static int make_texels(tfmt f, size_t n, void **raw, float **val) {
  jet_texel_format tf = fmt_of(f);
  size_t tb;
  CHECK_OK(jet_texel_size(tf, &tb));
  *raw = malloc(n * tb);
  *val = malloc(n * 4 * sizeof(float));
  CHECK(*raw && *val);
  for (size_t i = 0; i < n * 4; i++) {
    switch (f) {
      case F_F32: {
        float v = frand(-100.0f, 100.0f);
        ((float *)*raw)[i] = v;
        (*val)[i] = v;
        break;
      }
      case F_S16_NORM: {
        int16_t v = (int16_t)jt_rand();
        ((int16_t *)*raw)[i] = v;
        float x = (float)v / 32767.0f;
        (*val)[i] = x < -1.0f ? -1.0f : x;
        break;
      }
      case F_F16: {
        uint16_t h = (uint16_t)((jt_rand() & 0x83ffu) | ((uint32_t)irand(1, 30) << 10));
        ((uint16_t *)*raw)[i] = h;
        (*val)[i] = ref_tex_half_to_float(h);
        break;
      }
      default: {
        uint8_t v = (uint8_t)jt_rand();
        ((uint8_t *)*raw)[i] = v;
        (*val)[i] = f == F_U8_NORM ? (float)v / 255.0f : (float)v;
        break;
      }
    }
  }
  return 0;
}

/* ------------------------------------------------------------ coordinates and comparison
 * (the model itself is tests/ref/ref_texture.c) */

/* One coordinate along a dimension of @n texels: a texel centre (a third of
 * the time) or a point at least 0.1 texel from an edge, from -n-2 to 2n+2
 * texels; scaled to [0, 1) per texture when @norm. */
static float coord(size_t n, int norm, int inside) {
  long lo = inside ? 0 : -(long)n - 2, hi = inside ? (long)n : 2 * (long)n + 2;
  double u = (double)irand((int)lo, (int)hi);
  u += (jt_rand() % 3 == 0) ? 0.5 : (double)frand(0.1f, 0.9f);
  return norm ? (float)(u / (double)n) : (float)u;
}

/* Compare @n fetches; print up to 8 mismatches. Returns the mismatch count. */
static int compare(const char *what, int n, int dims, const float *coords, const float *got,
                   const ref_tex_model *m) {
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float ref[4], tol[4];
    ref_tex_fetch(m, dims, coords + 4 * i, ref, tol);
    int ok = 1;
    for (int ch = 0; ch < 4; ch++)
      if (!(fabsf(got[4 * i + ch] - ref[ch]) <= tol[ch])) ok = 0;
    if (!ok && bad++ < 8)
      fprintf(stderr,
              "%s: sample %d at (%.6g, %.6g, %.6g, %.6g): got (%.7g %.7g %.7g %.7g), model "
              "(%.7g %.7g %.7g %.7g) tol (%.3g %.3g %.3g %.3g)\n",
              what, i, coords[4 * i], coords[4 * i + 1], coords[4 * i + 2], coords[4 * i + 3],
              got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3], ref[0], ref[1], ref[2],
              ref[3], tol[0], tol[1], tol[2], tol[3]);
  }
  if (bad) fprintf(stderr, "%s: %d of %d samples differ\n", what, bad, n);
  return bad;
}

static jet_status new_array(jet_context ctx, jet_array_kind kind, jet_texel_format f, size_t w,
                            size_t h, size_t d, size_t layers, unsigned levels, unsigned flags,
                            jet_array *out) {
  jet_array_desc desc = {kind, f, w, h, d, layers, levels, flags};
  return jet_array_create(ctx, &desc, out);
}

/* A border colour the texel format holds exactly: the GPU rounds the border
 * colour to the format's precision (jet_texture_desc.border_color). */
static void random_border(tfmt f, float b[4]) {
  for (int i = 0; i < 4; i++)
    b[i] = f == F_U8_ELEM    ? 0.0f /* integer reads take the bits: 0 is 0 either way */
           : f == F_F32      ? frand(-50.0f, 50.0f)
           : f == F_F16      ? (float)irand(-800, 801) / 16.0f
           : f == F_S16_NORM ? (float)irand(-32767, 32768) / 32767.0f
                             : (float)irand(0, 256) / 255.0f;
}

/* ------------------------------------------------------------ 2D: every mode */

TEST(gpu_texture_2d_address_filter_modes) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  static const size_t sizes[][2] = {{1, 1}, {3, 2}, {37, 23}};
  /* (x mode, y mode), normalised */
  static const struct {
    jet_address_mode x, y;
    int norm;
  } modes[] = {
      {JET_ADDRESS_CLAMP, JET_ADDRESS_CLAMP, 0},   {JET_ADDRESS_CLAMP, JET_ADDRESS_CLAMP, 1},
      {JET_ADDRESS_BORDER, JET_ADDRESS_BORDER, 0}, {JET_ADDRESS_BORDER, JET_ADDRESS_BORDER, 1},
      {JET_ADDRESS_WRAP, JET_ADDRESS_WRAP, 1},     {JET_ADDRESS_MIRROR, JET_ADDRESS_MIRROR, 1},
      {JET_ADDRESS_WRAP, JET_ADDRESS_BORDER, 1},   {JET_ADDRESS_CLAMP, JET_ADDRESS_MIRROR, 1},
  };
  enum { N = 600 };
  float *coords = malloc(N * 4 * sizeof(float)), *got = malloc(N * 4 * sizeof(float));
  CHECK(coords && got);
  int failures = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
    for (int f = 0; f < F_COUNT; f++) {
      size_t w = sizes[si][0], h = sizes[si][1];
      void *raw;
      float *val;
      if (make_texels((tfmt)f, w * h, &raw, &val)) return 1;
      jet_array a;
      CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, fmt_of((tfmt)f), w, h, 0, 0, 0, 0, &a));
      CHECK_OK(jet_array_upload(a, 0, raw));
      for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++)
        for (int lin = 0; lin < 2; lin++) {
          if (lin && f == F_U8_ELEM) continue;
          jet_texture_desc d;
          memset(&d, 0, sizeof d);
          d.address[0] = modes[mi].x;
          d.address[1] = modes[mi].y;
          d.normalized_coords = modes[mi].norm;
          d.filter = lin ? JET_FILTER_LINEAR : JET_FILTER_POINT;
          d.read_mode = (f == F_U8_NORM || f == F_S16_NORM) ? JET_READ_NORMALIZED_FLOAT
                                                             : JET_READ_ELEMENT;
          random_border((tfmt)f, d.border_color);
          jet_texture t;
          CHECK_OK(jet_texture_create_array(a, &d, &t));
          unsigned long long obj;
          CHECK_OK(jet_texture_native(t, &obj));
          for (int i = 0; i < N; i++) {
            coords[4 * i] = coord(w, d.normalized_coords, 0);
            coords[4 * i + 1] = coord(h, d.normalized_coords, 0);
            coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
          }
          if (fetch(&e, f == F_U8_ELEM ? "jt_tex2d_uchar4" : "jt_tex2d", obj, coords, N, 0, got))
            return 1;
          ref_tex_model m = {{w, h, 1}, val, {d.address[0], d.address[1], JET_ADDRESS_CLAMP},
                     {d.border_color[0], d.border_color[1], d.border_color[2], d.border_color[3]},
                     lin, d.normalized_coords, 0.0};
          if (d.read_mode == JET_READ_NORMALIZED_FLOAT) m.extra_tol = lin ? 2e-3 : 1e-6;
          if (f == F_F16 && lin) m.extra_tol = 1e-3; /* the filter may round to half precision */
          char what[160];
          snprintf(what, sizeof what, "2D %zux%zu %s, address (%s, %s), %s, %s coords", w, h,
                   fmt_names[f], ref_tex_am_names[d.address[0]], ref_tex_am_names[d.address[1]],
                   lin ? "linear" : "point", d.normalized_coords ? "normalised" : "texel");
          failures += compare(what, N, 2, coords, got, &m) != 0;
          CHECK_OK(jet_texture_destroy(t));
        }
      CHECK_OK(jet_array_destroy(a));
      free(raw);
      free(val);
    }
  free(coords);
  free(got);
  CHECK_MSG(failures == 0, "%d configuration(s) differ from the model", failures);
  return env_close(&e);
}

/* ------------------------------------------------------------ 1D, 3D, layered */

/* Fetch @kind arrays of F32 x 4 through clamp, border and wrap, point and linear. */
static int run_kind(env *e, jet_array_kind kind, size_t w, size_t h, size_t dd, size_t layers,
                    const char *kernel, int dims) {
  size_t slices = dd ? dd : (layers ? layers : 1), hh = h ? h : 1;
  size_t count = w * hh * slices;
  void *raw;
  float *val;
  if (make_texels(F_F32, count, &raw, &val)) return 1;
  jet_array a;
  CHECK_OK(new_array(e->ctx, kind, fmt_of(F_F32), w, h, dd, layers, 0, 0, &a));
  CHECK_OK(jet_array_upload(a, 0, raw));
  enum { N = 500 };
  float coords[N * 4], got[N * 4];
  int failures = 0;
  static const jet_address_mode ams[] = {JET_ADDRESS_CLAMP, JET_ADDRESS_BORDER, JET_ADDRESS_WRAP,
                                         JET_ADDRESS_MIRROR};
  for (size_t mi = 0; mi < 4; mi++)
    for (int lin = 0; lin < 2; lin++) {
      jet_texture_desc d;
      memset(&d, 0, sizeof d);
      d.address[0] = d.address[1] = d.address[2] = ams[mi];
      d.normalized_coords = ams[mi] == JET_ADDRESS_WRAP || ams[mi] == JET_ADDRESS_MIRROR ||
                            (jt_rand() & 1);
      d.filter = lin ? JET_FILTER_LINEAR : JET_FILTER_POINT;
      random_border(F_F32, d.border_color);
      jet_texture t;
      CHECK_OK(jet_texture_create_array(a, &d, &t));
      unsigned long long obj;
      CHECK_OK(jet_texture_native(t, &obj));
      size_t ext[3] = {w, hh, dd ? dd : 1};
      int layer_of[N];
      for (int i = 0; i < N; i++) {
        for (int k = 0; k < 3; k++)
          coords[4 * i + k] = k < dims ? coord(ext[k], d.normalized_coords, 0) : 0.0f;
        layer_of[i] = layers ? irand(0, (int)layers) : 0;
        coords[4 * i + 3] = (float)layer_of[i];
      }
      if (fetch(e, kernel, obj, coords, N, 0, got)) return 1;
      /* layered: compare layer by layer, the model over that layer's texels */
      size_t per_layer = w * hh * (dd ? dd : 1);
      for (int i = 0; i < N; i++) {
        ref_tex_model m = {{ext[0], ext[1], ext[2]}, val + 4 * per_layer * (size_t)layer_of[i],
                   {d.address[0], d.address[1], d.address[2]},
                   {d.border_color[0], d.border_color[1], d.border_color[2], d.border_color[3]},
                   lin, d.normalized_coords, 0.0};
        char what[160];
        snprintf(what, sizeof what, "%s %zux%zux%zu layers %zu, %s, %s, %s coords, layer %d",
                 kernel, w, h, dd, layers, ref_tex_am_names[ams[mi]], lin ? "linear" : "point",
                 d.normalized_coords ? "normalised" : "texel", layer_of[i]);
        if (compare(what, 1, dims, coords + 4 * i, got + 4 * i, &m)) {
          fprintf(stderr, "  (sample %d of %d)\n", i, N);
          failures++;
          break;
        }
      }
      CHECK_OK(jet_texture_destroy(t));
    }
  CHECK_OK(jet_array_destroy(a));
  free(raw);
  free(val);
  return failures ? 1 : 0;
}

TEST(gpu_texture_1d_3d_layered) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  int bad = 0;
  bad += run_kind(&e, JET_ARRAY_1D, 29, 0, 0, 0, "jt_tex1d", 1);
  bad += run_kind(&e, JET_ARRAY_1D, 1, 0, 0, 0, "jt_tex1d", 1);
  bad += run_kind(&e, JET_ARRAY_3D, 7, 5, 3, 0, "jt_tex3d", 3);
  bad += run_kind(&e, JET_ARRAY_3D, 1, 2, 9, 0, "jt_tex3d", 3);
  bad += run_kind(&e, JET_ARRAY_1D_LAYERED, 13, 0, 0, 4, "jt_tex1d_layered", 1);
  bad += run_kind(&e, JET_ARRAY_2D_LAYERED, 9, 7, 0, 5, "jt_tex2d_layered", 2);
  bad += run_kind(&e, JET_ARRAY_2D_LAYERED, 3, 1, 0, 1, "jt_tex2d_layered", 2);
  CHECK_MSG(bad == 0, "%d array kind(s) differ from the model", bad);
  return env_close(&e);
}

/* ------------------------------------------------------------ cubemaps */

static int run_cube(env *e, int layered) {
  size_t w = 5, cubes = layered ? 3 : 1, layers = 6 * cubes;
  void *raw;
  float *val;
  if (make_texels(F_F32, w * w * layers, &raw, &val)) return 1;
  jet_array a;
  CHECK_OK(new_array(e->ctx, layered ? JET_ARRAY_CUBEMAP_LAYERED : JET_ARRAY_CUBEMAP,
                     fmt_of(F_F32), w, w, 0, layers, 0, 0, &a));
  CHECK_OK(jet_array_upload(a, 0, raw));
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  d.normalized_coords = 1;
  jet_texture t;
  CHECK_OK(jet_texture_create_array(a, &d, &t));
  unsigned long long obj;
  CHECK_OK(jet_texture_native(t, &obj));
  enum { N = 600 };
  float coords[N * 4], got[N * 4];
  for (int i = 0; i < N; i++) {
    int face = irand(0, 6);
    double u = (irand(0, (int)w) + frand(0.1f, 0.9f)) / (double)w;
    double v = (irand(0, (int)w) + frand(0.1f, 0.9f)) / (double)w;
    ref_tex_cube_dir(face, u, v, frand(0.25f, 8.0f), coords + 4 * i);
    coords[4 * i + 3] = (float)irand(0, (int)cubes);
  }
  if (fetch(e, layered ? "jt_tex_cubemap_layered" : "jt_tex_cubemap", obj, coords, N, 0, got))
    return 1;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int face;
    double u, v;
    ref_tex_cube_face(coords + 4 * i, &face, &u, &v);
    long ti = ref_tex_address(JET_ADDRESS_CLAMP, (long)floor(u * (double)w), (long)w);
    long tj = ref_tex_address(JET_ADDRESS_CLAMP, (long)floor(v * (double)w), (long)w);
    size_t layer = 6 * (size_t)coords[4 * i + 3] + (size_t)face;
    const float *ref = val + 4 * ((layer * w + (size_t)tj) * w + (size_t)ti);
    if (memcmp(ref, got + 4 * i, 4 * sizeof(float)) != 0 && bad++ < 8)
      fprintf(stderr,
              "cubemap%s %zu: sample %d dir (%.6g, %.6g, %.6g) cube %d: model face %d texel (%ld, "
              "%ld) = (%.7g %.7g %.7g %.7g), got (%.7g %.7g %.7g %.7g)\n",
              layered ? " layered" : "", w, i, coords[4 * i], coords[4 * i + 1],
              coords[4 * i + 2], (int)coords[4 * i + 3], face, ti, tj, ref[0], ref[1], ref[2],
              ref[3], got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3]);
  }
  CHECK_OK(jet_texture_destroy(t));
  CHECK_OK(jet_array_destroy(a));
  free(raw);
  free(val);
  CHECK_MSG(bad == 0, "cubemap%s: %d of %d samples differ from the PG face table",
            layered ? " layered" : "", bad, N);
  return 0;
}

TEST(gpu_texture_cubemap) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  if (run_cube(&e, 0) || run_cube(&e, 1)) return 1;
  return env_close(&e);
}

/* ------------------------------------------------------------ mipmaps */

TEST(gpu_texture_mipmap_levels) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  const size_t w = 37, h = 23;
  const unsigned levels = 4; /* 37x23, 18x11, 9x5, 4x2 */
  jet_array a;
  CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, fmt_of(F_F32), w, h, 0, 0, levels, 0, &a));
  jet_array_info info;
  CHECK_OK(jet_array_get_info(a, &info));
  CHECK(info.mipmapped == 1 && info.desc.levels == levels && info.texel_bytes == 16);
  float *val[4];
  size_t lw[4], lh[4];
  for (unsigned l = 0; l < levels; l++) {
    size_t d;
    CHECK_OK(jet_array_level_extent(a, l, &lw[l], &lh[l], &d));
    CHECK_MSG(lw[l] == (w >> l ? w >> l : 1) && lh[l] == (h >> l ? h >> l : 1) && d == 1,
              "level %u: %zu x %zu x %zu", l, lw[l], lh[l], d);
    void *raw;
    if (make_texels(F_F32, lw[l] * lh[l], &raw, &val[l])) return 1;
    CHECK_OK(jet_array_upload(a, l, raw));
    /* read the level back: copies address levels */
    float *back = malloc(lw[l] * lh[l] * 16);
    CHECK(back);
    memset(back, 0xff, lw[l] * lh[l] * 16);
    CHECK_OK(jet_array_download(a, l, back));
    CHECK_MSG(memcmp(back, raw, lw[l] * lh[l] * 16) == 0, "level %u round trip", l);
    free(back);
    free(raw);
  }
  /* (min clamp, max clamp): the fetch at level L reads clamp(L, min, max) */
  static const float clamps[][2] = {{0, 0}, {0, 1}, {2, 3}, {1, 2}};
  enum { N = 400 };
  float coords[N * 4], got[N * 4];
  int failures = 0;
  for (size_t ci = 0; ci < 4; ci++)
    for (int lin = 0; lin < 2; lin++) {
      jet_texture_desc d;
      memset(&d, 0, sizeof d);
      d.normalized_coords = 1;
      d.address[0] = JET_ADDRESS_WRAP;
      d.address[1] = JET_ADDRESS_CLAMP;
      d.filter = lin ? JET_FILTER_LINEAR : JET_FILTER_POINT;
      d.min_mip_level = clamps[ci][0];
      d.max_mip_level = clamps[ci][1];
      jet_texture t;
      CHECK_OK(jet_texture_create_array(a, &d, &t));
      unsigned long long obj;
      CHECK_OK(jet_texture_native(t, &obj));
      int lod[N];
      for (int i = 0; i < N; i++) {
        lod[i] = irand(0, (int)levels);
        int eff = lod[i];
        if (ci > 0) {
          if (eff < (int)clamps[ci][0]) eff = (int)clamps[ci][0];
          if (eff > (int)clamps[ci][1]) eff = (int)clamps[ci][1];
        }
        /* coordinates away from texel edges of the level that is read */
        coords[4 * i] = coord(lw[eff], 1, 0);
        coords[4 * i + 1] = coord(lh[eff], 1, 0);
        coords[4 * i + 2] = 0.0f;
        coords[4 * i + 3] = (float)lod[i];
      }
      if (fetch(&e, "jt_tex2d_lod", obj, coords, N, 0, got)) return 1;
      for (int i = 0; i < N; i++) {
        int eff = lod[i];
        if (ci > 0) {
          if (eff < (int)clamps[ci][0]) eff = (int)clamps[ci][0];
          if (eff > (int)clamps[ci][1]) eff = (int)clamps[ci][1];
        }
        ref_tex_model m = {{lw[eff], lh[eff], 1}, val[eff], {JET_ADDRESS_WRAP, JET_ADDRESS_CLAMP, 0},
                   {0, 0, 0, 0}, lin, 1, 0.0};
        char what[128];
        snprintf(what, sizeof what, "mipmap lod %d (clamp [%g, %g] -> level %d), %s", lod[i],
                 (double)clamps[ci][0], (double)clamps[ci][1], eff, lin ? "linear" : "point");
        if (compare(what, 1, 2, coords + 4 * i, got + 4 * i, &m)) {
          failures++;
          break;
        }
      }
      CHECK_OK(jet_texture_destroy(t));
    }
  /* anisotropy is accepted on a mipmapped array; an explicit-LOD fetch ignores it */
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  d.normalized_coords = 1;
  d.max_anisotropy = 8;
  d.filter = JET_FILTER_LINEAR;
  d.mipmap_filter = JET_FILTER_LINEAR;
  jet_texture t;
  CHECK_OK(jet_texture_create_array(a, &d, &t));
  unsigned long long obj;
  CHECK_OK(jet_texture_native(t, &obj));
  for (int i = 0; i < N; i++) {
    coords[4 * i] = coord(lw[0], 1, 1);
    coords[4 * i + 1] = coord(lh[0], 1, 1);
    coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
  }
  if (fetch(&e, "jt_tex2d_lod", obj, coords, N, 0, got)) return 1;
  ref_tex_model m = {{lw[0], lh[0], 1}, val[0], {0, 0, 0}, {0, 0, 0, 0}, 1, 1, 0.0};
  failures += compare("mipmap level 0 with max_anisotropy 8", N, 2, coords, got, &m) != 0;
  CHECK_OK(jet_texture_destroy(t));
  for (unsigned l = 0; l < levels; l++) free(val[l]);
  CHECK_OK(jet_array_destroy(a));
  CHECK_MSG(failures == 0, "%d mipmap configuration(s) differ", failures);
  return env_close(&e);
}

/* ------------------------------------------------------------ gather */

TEST(gpu_texture_gather) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  const size_t w = 9, h = 7;
  void *raw;
  float *val;
  if (make_texels(F_F32, w * h, &raw, &val)) return 1;
  jet_array a;
  CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, fmt_of(F_F32), w, h, 0, 0, 0, JET_ARRAY_GATHER, &a));
  CHECK_OK(jet_array_upload(a, 0, raw));
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  jet_texture t;
  CHECK_OK(jet_texture_create_array(a, &d, &t));
  unsigned long long obj;
  CHECK_OK(jet_texture_native(t, &obj));
  enum { N = 300 };
  float coords[N * 4], got[N * 4];
  int bad = 0;
  for (int comp = 0; comp < 4; comp++) {
    for (int i = 0; i < N; i++) {
      /* x - 0.5 at least 0.1 from an integer: one footprint only */
      coords[4 * i] = (float)(irand(-2, (int)w + 2) + 0.5 + frand(0.1f, 0.9f));
      coords[4 * i + 1] = (float)(irand(-2, (int)h + 2) + 0.5 + frand(0.1f, 0.9f));
      coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
    }
    if (fetch(&e, "jt_tex2d_gather", obj, coords, N, comp, got)) return 1;
    for (int i = 0; i < N; i++) {
      long i0 = (long)floor(coords[4 * i] - 0.5), j0 = (long)floor(coords[4 * i + 1] - 0.5);
      long xs[2] = {ref_tex_address(JET_ADDRESS_CLAMP, i0, (long)w), ref_tex_address(JET_ADDRESS_CLAMP, i0 + 1, (long)w)};
      long ys[2] = {ref_tex_address(JET_ADDRESS_CLAMP, j0, (long)h), ref_tex_address(JET_ADDRESS_CLAMP, j0 + 1, (long)h)};
      /* (i0, j1), (i1, j1), (i1, j0), (i0, j0) */
      static const int order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
      float ref[4];
      for (int k = 0; k < 4; k++)
        ref[k] = val[4 * ((size_t)ys[order[k][1]] * w + (size_t)xs[order[k][0]]) + (size_t)comp];
      if (memcmp(ref, got + 4 * i, sizeof ref) != 0 && bad++ < 8) {
        fprintf(stderr,
                "gather comp %d sample %d at (%.6g, %.6g): got (%.7g %.7g %.7g %.7g), model "
                "(i0,j1) (i1,j1) (i1,j0) (i0,j0) = (%.7g %.7g %.7g %.7g)\n",
                comp, i, coords[4 * i], coords[4 * i + 1], got[4 * i], got[4 * i + 1],
                got[4 * i + 2], got[4 * i + 3], ref[0], ref[1], ref[2], ref[3]);
        for (int k = 0; k < 4; k++)
          for (int r = 0; r < 4; r++)
            if (got[4 * i + k] == ref[r])
              fprintf(stderr, "  got[%d] is the model's (i%d, j%d)\n", k, order[r][0],
                      order[r][1]);
      }
    }
  }
  CHECK_OK(jet_texture_destroy(t));
  CHECK_OK(jet_array_destroy(a));
  free(raw);
  free(val);
  CHECK_MSG(bad == 0, "%d gathers differ", bad);
  return env_close(&e);
}

/* ------------------------------------------------------------ linear, pitch 2D, images */

TEST(gpu_texture_linear_memory) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  /* the texture starts at the first texture-aligned texel past the buffer's start */
  int align_attr = 0;
  CHECK(cudaDeviceGetAttribute(&align_attr, cudaDevAttrTextureAlignment, 0) == cudaSuccess);
  size_t align = align_attr > 16 ? (size_t)align_attr : 32;
  const size_t count = 301, total = count + 2 * align / 16;
  void *raw;
  float *val;
  if (make_texels(F_F32, total, &raw, &val)) return 1;
  jet_buffer_desc bd = {JET_MEMORY_DEVICE, 0, total * 16, 0, 0};
  jet_buffer b;
  CHECK_OK(jet_buffer_create(e.ctx, &bd, &b));
  void *dev;
  CHECK_OK(jet_buffer_device_ptr(b, &dev));
  CHECK_OK(jet_memcpy(e.ctx, dev, raw, total * 16));
  size_t off = align - (size_t)(uintptr_t)dev % align; /* 1 .. align bytes, texel multiple */
  CHECK_MSG(off % 16 == 0, "device pointer %p not 16-byte aligned", dev);
  const size_t skip = off / 16;
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  jet_texture t;
  CHECK_OK(jet_texture_create_linear(b, skip * 16, count, fmt_of(F_F32), &d, &t));
  /* too long by one texel, and a misaligned start */
  jet_texture t2 = NULL;
  CHECK_ST(jet_texture_create_linear(b, skip * 16, total - skip + 1, fmt_of(F_F32), &d, &t2),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_texture_create_linear(b, skip * 16 + 16, 10, fmt_of(F_F32), &d, &t2),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->message, "texture alignment"));
  unsigned long long obj;
  CHECK_OK(jet_texture_native(t, &obj));
  enum { N = 400 };
  float coords[N * 4], got[N * 4];
  for (int i = 0; i < N; i++) {
    coords[4 * i] = (float)irand(-5, (int)count + 5);
    coords[4 * i + 1] = coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
  }
  if (fetch(&e, "jt_tex1d_fetch", obj, coords, N, 0, got)) return 1;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    long x = (long)coords[4 * i];
    float zero[4] = {0, 0, 0, 0};
    const float *ref = (x < 0 || x >= (long)count) ? zero : val + 4 * (skip + (size_t)x);
    if (memcmp(ref, got + 4 * i, 16) != 0 && bad++ < 8)
      fprintf(stderr, "tex1Dfetch %ld: got (%.7g %.7g %.7g %.7g), expected (%.7g %.7g %.7g %.7g)%s\n",
              x, got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3], ref[0], ref[1],
              ref[2], ref[3], ref == zero ? " (outside: 0)" : "");
  }
  CHECK_OK(jet_texture_destroy(t));
  CHECK_OK(jet_buffer_destroy(b));
  free(raw);
  free(val);
  CHECK_MSG(bad == 0, "%d of %d linear fetches differ", bad, N);
  return env_close(&e);
}

TEST(gpu_texture_pitch2d_and_image) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  const size_t w = 37, h = 23;
  enum { N = 500 };
  float coords[N * 4], got[N * 4];
  int failures = 0;

  /* a pitched buffer of U8 x 4, bilinear, normalised-float reads */
  void *raw;
  float *val;
  if (make_texels(F_U8_NORM, w * h, &raw, &val)) return 1;
  jet_buffer_desc bd = {JET_MEMORY_DEVICE, JET_MEM_PITCHED, w * 4, h, 0};
  jet_buffer b;
  CHECK_OK(jet_buffer_create(e.ctx, &bd, &b));
  jet_buffer_info bi;
  CHECK_OK(jet_buffer_get_info(b, &bi));
  CHECK_OK(jet_memcpy_2d(e.ctx, bi.device_ptr, bi.pitch, raw, w * 4, w * 4, h));
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  d.filter = JET_FILTER_LINEAR;
  d.read_mode = JET_READ_NORMALIZED_FLOAT;
  d.address[0] = JET_ADDRESS_BORDER;
  d.address[1] = JET_ADDRESS_CLAMP;
  random_border(F_U8_NORM, d.border_color);
  jet_texture t;
  CHECK_OK(jet_texture_create_pitch2d(b, 0, w, h, 0, fmt_of(F_U8_NORM), &d, &t));
  unsigned long long obj;
  CHECK_OK(jet_texture_native(t, &obj));
  for (int i = 0; i < N; i++) {
    coords[4 * i] = coord(w, 0, 0);
    coords[4 * i + 1] = coord(h, 0, 0);
    coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
  }
  if (fetch(&e, "jt_tex2d", obj, coords, N, 0, got)) return 1;
  ref_tex_model m = {{w, h, 1}, val, {JET_ADDRESS_BORDER, JET_ADDRESS_CLAMP, 0},
             {d.border_color[0], d.border_color[1], d.border_color[2], d.border_color[3]},
             1, 0, 2e-3};
  failures += compare("pitch-2D U8x4 bilinear, border/clamp", N, 2, coords, got, &m) != 0;
  CHECK_OK(jet_texture_destroy(t));
  /* a pitch that is not the device's pitch alignment: 4 bytes past it */
  jet_texture bad_t = NULL;
  CHECK_ST(jet_texture_create_pitch2d(b, 0, w, 2, w * 4 + 4, fmt_of(F_U8_NORM), &d, &bad_t),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_buffer_destroy(b));

  /* an RGBA8 image plane, point sampled */
  jet_image img;
  CHECK_OK(jet_image_create(e.ctx, JET_FORMAT_RGBA8, (int)w, (int)h, &img));
  jet_image_plane hp = {raw, 0};
  CHECK_OK(jet_image_upload(img, &hp, 1));
  memset(&d, 0, sizeof d);
  d.read_mode = JET_READ_NORMALIZED_FLOAT;
  d.normalized_coords = 1;
  d.address[0] = JET_ADDRESS_MIRROR;
  d.address[1] = JET_ADDRESS_WRAP;
  CHECK_OK(jet_texture_create_image(img, 0, &d, &t));
  CHECK_OK(jet_texture_native(t, &obj));
  for (int i = 0; i < N; i++) {
    coords[4 * i] = coord(w, 1, 0);
    coords[4 * i + 1] = coord(h, 1, 0);
    coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
  }
  if (fetch(&e, "jt_tex2d", obj, coords, N, 0, got)) return 1;
  ref_tex_model mi = {{w, h, 1}, val, {JET_ADDRESS_MIRROR, JET_ADDRESS_WRAP, 0}, {0, 0, 0, 0}, 0, 1, 1e-6};
  failures += compare("RGBA8 image plane, point, mirror/wrap", N, 2, coords, got, &mi) != 0;
  CHECK_OK(jet_texture_destroy(t));
  CHECK_OK(jet_image_destroy(img));
  free(raw);
  free(val);

  /* jet_image_texture on GRAY8: bilinear, normalised coordinates, clamp, 0..1 */
  unsigned char *g = malloc(w * h);
  float *gval = malloc(w * h * 16);
  CHECK(g && gval);
  jt_fill_random(g, w * h);
  for (size_t i = 0; i < w * h; i++) {
    gval[4 * i] = (float)g[i] / 255.0f;
    gval[4 * i + 1] = gval[4 * i + 2] = gval[4 * i + 3] = 0.0f;
  }
  CHECK_OK(jet_image_create(e.ctx, JET_FORMAT_GRAY8, (int)w, (int)h, &img));
  hp.ptr = g;
  CHECK_OK(jet_image_upload(img, &hp, 1));
  CHECK_OK(jet_image_texture(img, 0, &t));
  CHECK_OK(jet_texture_native(t, &obj));
  for (int i = 0; i < N; i++) {
    coords[4 * i] = coord(w, 1, i % 2);
    coords[4 * i + 1] = coord(h, 1, i % 2);
    coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
  }
  if (fetch(&e, "jt_tex2d_f1", obj, coords, N, 0, got)) return 1;
  ref_tex_model mg = {{w, h, 1}, gval, {0, 0, 0}, {0, 0, 0, 0}, 1, 1, 2e-3};
  failures += compare("jet_image_texture GRAY8", N, 2, coords, got, &mg) != 0;
  CHECK_OK(jet_texture_destroy(t));
  CHECK_OK(jet_image_destroy(img));
  free(g);
  free(gval);
  CHECK_MSG(failures == 0, "%d configuration(s) differ", failures);
  return env_close(&e);
}

/* ------------------------------------------------------------ sRGB */

TEST(gpu_texture_srgb) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  const size_t w = 16, h = 16;
  void *raw;
  float *val;
  if (make_texels(F_U8_NORM, w * h, &raw, &val)) return 1;
  for (size_t i = 0; i < w * h; i++) /* R, G, B converted; alpha is not */
    for (int ch = 0; ch < 3; ch++) val[4 * i + ch] = ref_tex_srgb_to_linear(val[4 * i + ch]);
  jet_array a;
  CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, fmt_of(F_U8_NORM), w, h, 0, 0, 0, 0, &a));
  CHECK_OK(jet_array_upload(a, 0, raw));
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  d.read_mode = JET_READ_NORMALIZED_FLOAT;
  d.srgb = 1;
  jet_texture t;
  CHECK_OK(jet_texture_create_array(a, &d, &t));
  unsigned long long obj;
  CHECK_OK(jet_texture_native(t, &obj));
  enum { N = 256 };
  float coords[N * 4], got[N * 4];
  for (int i = 0; i < N; i++) { /* every texel once, at its centre */
    coords[4 * i] = (float)(i % 16) + 0.5f;
    coords[4 * i + 1] = (float)(i / 16) + 0.5f;
    coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
  }
  if (fetch(&e, "jt_tex2d", obj, coords, N, 0, got)) return 1;
  /* The hardware's conversion is tabulated, not the formula: an H100 returned
   * results up to 0.0031 off it (e.g. 0.9766 for byte 252, formula 0.9734), so
   * allow one 8-bit step; without the conversion mid-range texels would be off
   * by up to 0.2. */
  ref_tex_model m = {{w, h, 1}, val, {0, 0, 0}, {0, 0, 0, 0}, 0, 0, 1.0 / 255.0 + 1e-4};
  int bad = compare("sRGB U8x4", N, 2, coords, got, &m);
  CHECK_OK(jet_texture_destroy(t));
  CHECK_OK(jet_array_destroy(a));
  free(raw);
  free(val);
  CHECK_MSG(bad == 0, "sRGB fetches differ");
  return env_close(&e);
}

/* ------------------------------------------------------------ copies */

/* Whole-array round trips of every kind, U16 x 2 texels (4 bytes). */
TEST(gpu_texture_array_round_trip_every_kind) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  static const jet_array_desc kinds[] = {
      {JET_ARRAY_1D, {JET_CHANNEL_U16, 2}, 1, 0, 0, 0, 0, 0},
      {JET_ARRAY_1D, {JET_CHANNEL_U16, 2}, 1001, 0, 0, 0, 0, 0},
      {JET_ARRAY_2D, {JET_CHANNEL_U16, 2}, 3, 2, 0, 0, 0, 0},
      {JET_ARRAY_2D, {JET_CHANNEL_U16, 2}, 641, 479, 0, 0, 0, JET_ARRAY_SURFACE},
      {JET_ARRAY_3D, {JET_CHANNEL_U16, 2}, 17, 9, 5, 0, 0, 0},
      {JET_ARRAY_1D_LAYERED, {JET_CHANNEL_U16, 2}, 33, 0, 0, 3, 0, 0},
      {JET_ARRAY_2D_LAYERED, {JET_CHANNEL_U16, 2}, 15, 11, 0, 7, 0, 0},
      {JET_ARRAY_CUBEMAP, {JET_CHANNEL_U16, 2}, 13, 13, 0, 6, 0, 0},
      {JET_ARRAY_CUBEMAP_LAYERED, {JET_CHANNEL_U16, 2}, 7, 0, 0, 12, 0, 0},
      {JET_ARRAY_2D, {JET_CHANNEL_S8, 4}, 5, 3, 0, 0, 2, JET_ARRAY_GATHER},
  };
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    jet_array a;
    CHECK_OK(jet_array_create(e.ctx, &kinds[k], &a));
    jet_array_info info;
    CHECK_OK(jet_array_get_info(a, &info));
    CHECK(info.native != NULL && info.texel_bytes == 4);
    for (unsigned l = 0; l < info.desc.levels; l++) {
      size_t w, h, d;
      CHECK_OK(jet_array_level_extent(a, l, &w, &h, &d));
      size_t bytes = w * h * d * 4;
      unsigned char *in = malloc(bytes), *out = malloc(bytes);
      CHECK(in && out);
      jt_fill_random(in, bytes);
      memset(out, 0xa5, bytes);
      CHECK_OK(jet_array_upload(a, l, in));
      CHECK_OK(jet_array_download(a, l, out));
      size_t diff = 0;
      while (diff < bytes && in[diff] == out[diff]) diff++;
      CHECK_MSG(diff == bytes, "kind row %zu level %u (%zu x %zu x %zu): first difference at byte %zu",
                k, l, w, h, d, diff);
      free(in);
      free(out);
    }
    CHECK_OK(jet_array_destroy(a));
  }
  return env_close(&e);
}

/* Boxes at offsets between an array and host memory, a buffer, an image plane
 * and another array, sync and on a stream; each checked against a host copy. */
TEST(gpu_texture_copy_regions) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  const size_t W = 9, H = 7, L = 5, T = 4; /* 2D layered, 4-byte texels */
  jet_array a, b;
  jet_texel_format f = {JET_CHANNEL_U8, 4};
  CHECK_OK(new_array(e.ctx, JET_ARRAY_2D_LAYERED, f, W, H, 0, L, 0, 0, &a));
  CHECK_OK(new_array(e.ctx, JET_ARRAY_2D_LAYERED, f, W, H, 0, L, 0, 0, &b));
  size_t n = W * H * L * T;
  unsigned char *ma = malloc(n), *mb = malloc(n), *back = malloc(n);
  CHECK(ma && mb && back);
  jt_fill_random(ma, n);
  jt_fill_random(mb, n);
  CHECK_OK(jet_array_upload(a, 0, ma));
  CHECK_OK(jet_array_upload(b, 0, mb));
#define AT(m, x, y, z) ((m) + (((size_t)(z) * H + (size_t)(y)) * W + (size_t)(x)) * T)

  /* host -> array: a 4 x 3 x 2 box at (3, 2, 1), host rows of 23 bytes, slices of 5 rows */
  const size_t bw = 4, bh = 3, bd = 2, hp = 23, hr = 5;
  unsigned char *src = malloc(hp * hr * bd);
  CHECK(src);
  jt_fill_random(src, hp * hr * bd);
  jet_copy_end A = {0}, Hs = {0};
  A.kind = JET_COPY_END_ARRAY;
  A.array = a;
  A.x = 3, A.y = 2, A.z = 1;
  Hs.kind = JET_COPY_END_HOST;
  Hs.host = src;
  Hs.pitch = hp;
  Hs.rows = hr;
  CHECK_OK(jet_array_copy(&A, &Hs, bw, bh, bd));
  for (size_t z = 0; z < bd; z++)
    for (size_t y = 0; y < bh; y++)
      memcpy(AT(ma, 3, 2 + y, 1 + z), src + (z * hr + y) * hp, bw * T);
  memset(back, 0xa5, n);
  CHECK_OK(jet_array_download(a, 0, back));
  CHECK_MSG(memcmp(back, ma, n) == 0, "host -> array box");

  /* array -> buffer (pitched, at an offset), async on a stream */
  jet_stream s;
  CHECK_OK(jet_stream_create(e.ctx, NULL, &s));
  jet_buffer_desc bdsc = {JET_MEMORY_DEVICE, JET_MEM_PITCHED, 64, 40, 0};
  jet_buffer buf;
  CHECK_OK(jet_buffer_create(e.ctx, &bdsc, &buf));
  jet_buffer_info bi;
  CHECK_OK(jet_buffer_get_info(buf, &bi));
  CHECK_OK(jet_memset(e.ctx, bi.device_ptr, 0x5a, bi.size));
  jet_copy_end B = {0};
  B.kind = JET_COPY_END_BUFFER;
  B.buffer = buf;
  B.offset = bi.pitch + 8;
  B.pitch = bi.pitch;
  B.rows = 10;
  A.x = 1, A.y = 3, A.z = 2;
  CHECK_OK(jet_array_copy_async(&B, &A, 6, 4, 3, s));
  CHECK_OK(jet_stream_synchronize(s));
  unsigned char *bb = malloc(bi.size);
  CHECK(bb);
  CHECK_OK(jet_memcpy(e.ctx, bb, bi.device_ptr, bi.size));
  for (size_t z = 0; z < 3; z++)
    for (size_t y = 0; y < 4; y++) {
      const unsigned char *row = bb + B.offset + (z * 10 + y) * bi.pitch;
      CHECK_MSG(memcmp(row, AT(ma, 1, 3 + y, 2 + z), 6 * T) == 0, "array -> buffer row %zu slice %zu",
                y, z);
      CHECK_MSG(row[-1] == 0x5a && row[6 * T] == 0x5a, "array -> buffer wrote outside row %zu", y);
    }

  /* buffer -> array (the box back, into b at (0, 0, 0)) */
  jet_copy_end Bd = {0};
  Bd.kind = JET_COPY_END_ARRAY;
  Bd.array = b;
  CHECK_OK(jet_array_copy(&Bd, &B, 6, 4, 3));
  for (size_t z = 0; z < 3; z++)
    for (size_t y = 0; y < 4; y++) memcpy(AT(mb, 0, y, z), AT(ma, 1, 3 + y, 2 + z), 6 * T);
  memset(back, 0xa5, n);
  CHECK_OK(jet_array_download(b, 0, back));
  CHECK_MSG(memcmp(back, mb, n) == 0, "buffer -> array box");

  /* array -> array, async: a's layer 4 box into b's layer 0 */
  jet_copy_end As = {0};
  As.kind = JET_COPY_END_ARRAY;
  As.array = a;
  As.x = 2, As.y = 1, As.z = 4;
  Bd.x = 5, Bd.y = 4, Bd.z = 0;
  CHECK_OK(jet_array_copy_async(&Bd, &As, 4, 3, 1, s));
  CHECK_OK(jet_stream_synchronize(s));
  for (size_t y = 0; y < 3; y++) memcpy(AT(mb, 5, 4 + y, 0), AT(ma, 2, 1 + y, 4), 4 * T);
  memset(back, 0xa5, n);
  CHECK_OK(jet_array_download(b, 0, back));
  CHECK_MSG(memcmp(back, mb, n) == 0, "array -> array box");

  /* array <-> image plane (RGBA8: 4-byte pixels) */
  jet_image img;
  CHECK_OK(jet_image_create(e.ctx, JET_FORMAT_RGBA8, 10, 8, &img));
  unsigned char *im = malloc(10 * 8 * 4), *imb = malloc(10 * 8 * 4);
  CHECK(im && imb);
  jt_fill_random(im, 10 * 8 * 4);
  jet_image_plane ip = {im, 0};
  CHECK_OK(jet_image_upload(img, &ip, 1));
  jet_copy_end I = {0};
  I.kind = JET_COPY_END_IMAGE;
  I.image = img;
  I.x = 4, I.y = 3;
  As.x = 0, As.y = 0, As.z = 3;
  CHECK_OK(jet_array_copy(&I, &As, 6, 5, 1));
  for (size_t y = 0; y < 5; y++) memcpy(im + ((3 + y) * 10 + 4) * 4, AT(ma, 0, y, 3), 6 * T);
  ip.ptr = imb;
  memset(imb, 0xa5, 10 * 8 * 4);
  CHECK_OK(jet_image_download(img, &ip, 1));
  CHECK_MSG(memcmp(im, imb, 10 * 8 * 4) == 0, "array -> image box");
  /* and back into a, layer 0, at (5, 0) */
  A.x = 5, A.y = 0, A.z = 0;
  I.x = 0, I.y = 2;
  CHECK_OK(jet_array_copy_async(&A, &I, 4, 6, 1, s));
  CHECK_OK(jet_stream_synchronize(s));
  for (size_t y = 0; y < 6; y++) memcpy(AT(ma, 5, y, 0), im + ((2 + y) * 10) * 4, 4 * T);
  memset(back, 0xa5, n);
  CHECK_OK(jet_array_download(a, 0, back));
  CHECK_MSG(memcmp(back, ma, n) == 0, "image -> array box");

  /* boxes out of range are refused with nothing written */
  A.x = 6;
  CHECK_ST(jet_array_copy(&A, &I, 4, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  memset(back, 0xa5, n);
  CHECK_OK(jet_array_download(a, 0, back));
  CHECK(memcmp(back, ma, n) == 0);
#undef AT
  CHECK_OK(jet_image_destroy(img));
  CHECK_OK(jet_buffer_destroy(buf));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_array_destroy(a));
  CHECK_OK(jet_array_destroy(b));
  free(ma), free(mb), free(back), free(src), free(bb), free(im), free(imb);
  return env_close(&e);
}

/* ------------------------------------------------------------ surfaces */

static int check_hashes(const uint32_t *got, size_t w, size_t h, size_t d, uint32_t seed,
                        const char *what) {
  int bad = 0;
  for (size_t z = 0; z < d; z++)
    for (size_t y = 0; y < h; y++)
      for (size_t x = 0; x < w; x++) {
        uint32_t want = ref_tex_hash((uint32_t)x, (uint32_t)y, (uint32_t)z, seed);
        uint32_t g = got[(z * h + y) * w + x];
        if (g != want && bad++ < 8)
          fprintf(stderr, "%s: texel (%zu, %zu, %zu): got 0x%08x, expected 0x%08x (seed 0x%08x)\n",
                  what, x, y, z, g, want, seed);
      }
  return bad;
}

TEST(gpu_surface_write_read) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  jet_texel_format u32 = {JET_CHANNEL_U32, 1};
  jet_kernel kw, kl, k3, kr;
  CHECK_OK(jet_module_kernel(e.mod, "jt_surf2d_write", &kw));
  CHECK_OK(jet_module_kernel(e.mod, "jt_surf2d_layered_write", &kl));
  CHECK_OK(jet_module_kernel(e.mod, "jt_surf3d_write", &k3));
  CHECK_OK(jet_module_kernel(e.mod, "jt_surf2d_read", &kr));
  jet_dim3 block = {16, 8, 1};
  int bad = 0;

  /* 2D: write, copy back; then upload random texels, read through the surface */
  static const int sizes[][2] = {{1, 1}, {3, 2}, {67, 45}};
  for (size_t si = 0; si < 3; si++) {
    int w = sizes[si][0], h = sizes[si][1];
    jet_array a;
    CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, u32, (size_t)w, (size_t)h, 0, 0, 0, JET_ARRAY_SURFACE, &a));
    size_t n = (size_t)w * (size_t)h;
    uint32_t *host = malloc(n * 4);
    CHECK(host);
    memset(host, 0xa5, n * 4);
    CHECK_OK(jet_array_upload(a, 0, host)); /* poison */
    jet_surface s;
    CHECK_OK(jet_surface_create(a, 0, &s));
    unsigned long long obj;
    CHECK_OK(jet_surface_native(s, &obj));
    uint32_t seed = jt_rand();
    void *args[] = {&obj, &w, &h, &seed};
    jet_dim3 grid = {(unsigned)(w + 15) / 16, (unsigned)(h + 7) / 8, 1};
    CHECK_OK(jet_launch(e.s, kw, grid, block, 0, args));
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK_OK(jet_array_download(a, 0, host));
    char what[64];
    snprintf(what, sizeof what, "surf2Dwrite %dx%d", w, h);
    bad += check_hashes(host, (size_t)w, (size_t)h, 1, seed, what);

    jt_fill_random(host, n * 4);
    CHECK_OK(jet_array_upload(a, 0, host));
    void *dout;
    CHECK(cudaMalloc(&dout, n * 4) == cudaSuccess);
    CHECK(cudaMemset(dout, 0xa5, n * 4) == cudaSuccess);
    void *rargs[] = {&obj, &dout, &w, &h};
    CHECK_OK(jet_launch(e.s, kr, grid, block, 0, rargs));
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    uint32_t *rd = malloc(n * 4);
    CHECK(rd);
    CHECK(cudaMemcpy(rd, dout, n * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (size_t i = 0; i < n; i++)
      if (rd[i] != host[i] && bad++ < 8)
        fprintf(stderr, "surf2Dread %dx%d texel %zu: got 0x%08x, expected 0x%08x\n", w, h, i, rd[i],
                host[i]);
    cudaFree(dout);
    free(rd);
    /* the surface holds the array */
    CHECK_ST(jet_array_destroy(a), JET_STATUS_INVALID_STATE);
    CHECK_OK(jet_surface_destroy(s));
    CHECK_OK(jet_array_destroy(a));
    free(host);
  }

  /* layered 2D and 3D */
  {
    int w = 9, h = 7, layers = 3;
    jet_array a;
    CHECK_OK(new_array(e.ctx, JET_ARRAY_2D_LAYERED, u32, 9, 7, 0, 3, 0, JET_ARRAY_SURFACE, &a));
    jet_surface s;
    CHECK_OK(jet_surface_create(a, 0, &s));
    unsigned long long obj;
    CHECK_OK(jet_surface_native(s, &obj));
    uint32_t seed = jt_rand();
    void *args[] = {&obj, &w, &h, &layers, &seed};
    jet_dim3 grid = {1, 1, 1};
    CHECK_OK(jet_launch(e.s, kl, grid, block, 0, args));
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    uint32_t host[9 * 7 * 3];
    memset(host, 0xa5, sizeof host);
    CHECK_OK(jet_array_download(a, 0, host));
    bad += check_hashes(host, 9, 7, 3, seed, "surf2DLayeredwrite 9x7x3");
    CHECK_OK(jet_surface_destroy(s));
    CHECK_OK(jet_array_destroy(a));
  }
  {
    int w = 5, h = 4, d = 3;
    jet_array a;
    CHECK_OK(new_array(e.ctx, JET_ARRAY_3D, u32, 5, 4, 3, 0, 0, JET_ARRAY_SURFACE, &a));
    jet_surface s;
    CHECK_OK(jet_surface_create(a, 0, &s));
    unsigned long long obj;
    CHECK_OK(jet_surface_native(s, &obj));
    uint32_t seed = jt_rand();
    void *args[] = {&obj, &w, &h, &d, &seed};
    jet_dim3 grid = {1, 1, 1};
    CHECK_OK(jet_launch(e.s, k3, grid, block, 0, args));
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    uint32_t host[5 * 4 * 3];
    memset(host, 0xa5, sizeof host);
    CHECK_OK(jet_array_download(a, 0, host));
    bad += check_hashes(host, 5, 4, 3, seed, "surf3Dwrite 5x4x3");
    CHECK_OK(jet_surface_destroy(s));
    CHECK_OK(jet_array_destroy(a));
  }
  /* one level of a mipmapped array */
  {
    jet_array a;
    CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, u32, 21, 10, 0, 0, 3, JET_ARRAY_SURFACE, &a));
    jet_surface s;
    CHECK_OK(jet_surface_create(a, 1, &s)); /* 10 x 5 */
    unsigned long long obj;
    CHECK_OK(jet_surface_native(s, &obj));
    int w = 10, h = 5;
    uint32_t seed = jt_rand();
    void *args[] = {&obj, &w, &h, &seed};
    jet_dim3 grid = {1, 1, 1};
    CHECK_OK(jet_launch(e.s, kw, grid, block, 0, args));
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    uint32_t host[50];
    memset(host, 0xa5, sizeof host);
    CHECK_OK(jet_array_download(a, 1, host));
    bad += check_hashes(host, 10, 5, 1, seed, "surf2Dwrite on mip level 1 (10x5)");
    CHECK_OK(jet_surface_destroy(s));
    CHECK_OK(jet_array_destroy(a));
  }
  CHECK_MSG(bad == 0, "%d surface texel(s) differ", bad);
  return env_close(&e);
}

/* ------------------------------------------------------------ lifetimes */

TEST(gpu_texture_lifetimes) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  jet_array a;
  CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, fmt_of(F_F32), 4, 4, 0, 0, 0, JET_ARRAY_SURFACE, &a));
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  jet_texture t1, t2;
  jet_surface s;
  CHECK_OK(jet_texture_create_array(a, &d, &t1));
  CHECK_OK(jet_texture_create_array(a, &d, &t2));
  CHECK_OK(jet_surface_create(a, 0, &s));
  jet_array_info info;
  CHECK_OK(jet_array_get_info(a, &info));
  CHECK(info.textures == 3);
  unsigned long long o1, o2;
  CHECK_OK(jet_texture_native(t1, &o1));
  CHECK_OK(jet_texture_native(t2, &o2));
  CHECK(o1 != 0 && o2 != 0 && o1 != o2);
  /* the context counts them; the array is held */
  CHECK_ST(jet_context_destroy(e.ctx), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_array_destroy(a), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "3 texture(s) or surface(s)"));
  CHECK_OK(jet_texture_destroy(t1));
  CHECK_ST(jet_texture_destroy(t1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_texture_native(t1, &o1), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_surface_destroy(s));
  CHECK_ST(jet_array_destroy(a), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_texture_destroy(t2));
  CHECK_OK(jet_array_get_info(a, &info));
  CHECK(info.textures == 0);
  CHECK_OK(jet_array_destroy(a));
  CHECK_ST(jet_array_destroy(a), JET_STATUS_INVALID_HANDLE);
  /* a context is not an array */
  CHECK_ST(jet_texture_create_array((jet_array)e.ctx, &d, &t1), JET_STATUS_INVALID_HANDLE);
  /* a device limit refused by CUDA, with the extent in the detail */
  jet_array big;
  jet_status st = new_array(e.ctx, JET_ARRAY_1D, fmt_of(F_F32), (size_t)1 << 40, 0, 0, 0, 0, 0, &big);
  CHECK_MSG(st != JET_STATUS_OK, "a 2^40-texel 1D array was accepted");
  CHECK(strstr(jet_last_error()->message, "1D array"));
  return env_close(&e);
}

/* ------------------------------------------------------------ leaks */

/* Thousands of arrays (plain and mipmapped), textures and surfaces made and
 * destroyed: device memory and the context's live objects come back. */
TEST(gpu_texture_cycles_alone) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  size_t free0 = 0, total = 0, free1 = 0;
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemGetInfo(&free0, &total) == cudaSuccess);
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  for (int i = 0; i < 2000; i++) {
    jet_array a;
    unsigned levels = (i % 2) ? 4 : 1;
    CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, fmt_of(F_F32), 257, 129, 0, 0, levels,
                       JET_ARRAY_SURFACE, &a));
    jet_texture t;
    jet_surface s;
    CHECK_OK(jet_texture_create_array(a, &d, &t));
    CHECK_OK(jet_surface_create(a, levels - 1, &s));
    CHECK_OK(jet_surface_destroy(s));
    CHECK_OK(jet_texture_destroy(t));
    CHECK_OK(jet_array_destroy(a));
  }
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
  /* one 257 x 129 float4 array is 530 KB: 2000 leaked would be 1 GB */
  CHECK_MSG(free1 + (16u << 20) >= free0, "free device memory fell from %zu to %zu bytes", free0,
            free1);
  return env_close(&e);
}

/* ------------------------------------------------------------ every element format */

/* Each channel type with 1, 2 and 4 channels, read at every texel centre:
 * F16/F32 as floats, 8/16-bit integers as normalised floats, 32-bit integers
 * as themselves (compared bit for bit). */
TEST(gpu_texture_every_element_format) {
  REQUIRE_GPU();
  env e;
  if (env_open(&e)) return 1;
  const size_t w = 5, h = 3, n = w * h;
  static const char *const fk[5] = {"", "jt_tex2d_f1", "jt_tex2d_f2", "", "jt_tex2d"};
  static const char *const ik[5] = {"", "jt_tex2d_i1", "jt_tex2d_i2", "", "jt_tex2d_i4"};
  static const char *const uk[5] = {"", "jt_tex2d_u1", "jt_tex2d_u2", "", "jt_tex2d_u4"};
  static const char *const tn[9] = {"", "S8", "U8", "S16", "U16", "S32", "U32", "F16", "F32"};
  float coords[15 * 4], got[15 * 4], want[15 * 4];
  for (size_t i = 0; i < n; i++) {
    coords[4 * i] = (float)(i % w) + 0.5f;
    coords[4 * i + 1] = (float)(i / w) + 0.5f;
    coords[4 * i + 2] = coords[4 * i + 3] = 0.0f;
  }
  int bad = 0;
  for (int ty = JET_CHANNEL_S8; ty <= JET_CHANNEL_F32; ty++)
    for (int ch = 1; ch <= 4; ch *= 2) {
      jet_texel_format f = {(jet_channel_type)ty, ch};
      size_t tb;
      CHECK_OK(jet_texel_size(f, &tb));
      size_t cb = tb / (size_t)ch;
      unsigned char *raw = malloc(n * tb);
      CHECK(raw);
      jt_fill_random(raw, n * tb);
      memset(want, 0, sizeof want);
      for (size_t i = 0; i < n; i++)
        for (int k = 0; k < ch; k++) {
          unsigned char *p = raw + i * tb + (size_t)k * cb;
          float *o = &want[4 * i + k];
          switch (ty) {
            case JET_CHANNEL_S8: *o = fmaxf((float)*(int8_t *)p / 127.0f, -1.0f); break;
            case JET_CHANNEL_U8: *o = (float)*p / 255.0f; break;
            case JET_CHANNEL_S16: {
              int16_t v;
              memcpy(&v, p, 2);
              *o = fmaxf((float)v / 32767.0f, -1.0f);
              break;
            }
            case JET_CHANNEL_U16: {
              uint16_t v;
              memcpy(&v, p, 2);
              *o = (float)v / 65535.0f;
              break;
            }
            case JET_CHANNEL_F16: {
              uint16_t v = (uint16_t)((jt_rand() & 0x83ffu) | ((uint32_t)irand(1, 30) << 10));
              memcpy(p, &v, 2);
              *o = ref_tex_half_to_float(v);
              break;
            }
            case JET_CHANNEL_F32: {
              float v = frand(-1000.0f, 1000.0f);
              memcpy(p, &v, 4);
              *o = v;
              break;
            }
            default: memcpy(o, p, 4); break; /* 32-bit integers: the bits */
          }
        }
      jet_array a;
      CHECK_OK(new_array(e.ctx, JET_ARRAY_2D, f, w, h, 0, 0, 0, 0, &a));
      CHECK_OK(jet_array_upload(a, 0, raw));
      jet_texture_desc d;
      memset(&d, 0, sizeof d);
      int is_int32 = ty == JET_CHANNEL_S32 || ty == JET_CHANNEL_U32;
      if (ty <= JET_CHANNEL_U16) d.read_mode = JET_READ_NORMALIZED_FLOAT;
      jet_texture t;
      CHECK_OK(jet_texture_create_array(a, &d, &t));
      unsigned long long obj;
      CHECK_OK(jet_texture_native(t, &obj));
      const char *k = ty == JET_CHANNEL_S32 ? ik[ch] : ty == JET_CHANNEL_U32 ? uk[ch] : fk[ch];
      if (fetch(&e, k, obj, coords, (int)n, 0, got)) return 1;
      for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 4; c++) {
          float g = got[4 * i + c], x = want[4 * i + c];
          int ok = is_int32 ? memcmp(&g, &x, 4) == 0
                            : fabsf(g - x) <= 1e-6f * (1.0f + fabsf(x));
          if (!ok && bad++ < 12) {
            uint32_t gb, xb;
            memcpy(&gb, &g, 4);
            memcpy(&xb, &x, 4);
            fprintf(stderr, "%s x %d (%s): texel (%zu, %zu) channel %d: got %.8g (0x%08x), "
                    "expected %.8g (0x%08x)\n",
                    tn[ty], ch, k, i % w, i / w, c, g, gb, x, xb);
          }
        }
      CHECK_OK(jet_texture_destroy(t));
      CHECK_OK(jet_array_destroy(a));
      free(raw);
    }
  CHECK_MSG(bad == 0, "%d channel values differ", bad);
  return env_close(&e);
}

/* The whole per-frame chain of samples/pipeline on fresh random frames:
 * NV12 -> RGBA8 (jet_convert_color) -> Gaussian 5x5 replicate
 * (jet_filter_gaussian) -> bilinear resize (jet_resize) -> letterboxed planar
 * FP16 (jet_dnn_preprocess into RGBF16P), one camera with the single calls
 * and several with the batched ones (jet_convert_color_batch,
 * jet_filter_gaussian_batch, jet_resize_batch, jet_dnn_preprocess_batch), also captured into a graph
 * and replayed on new frames. Compared with tests/ref's functions chained the
 * same way: the 8-bit stages are exact, so the FP16 output must be the
 * reference's float value within 1e-5 * (1 + |ref|) (jet_dnn_preprocess's
 * float tolerance) plus half a half-precision ULP (the rounding to FP16).
 * Created and padded wrapped layouts, poisoned outputs, odd sizes. */
#include <math.h>
#include <stdint.h>

#include "test_resize_util.h"

#define PIPE_MAX JET_IMAGE_BATCH_MAX

typedef struct pipe_size {
  int w, h;   /* NV12 source */
  int rw, rh; /* after the resize */
  int dw, dh; /* network input */
} pipe_size;

typedef struct pipe_cam {
  ref_image src, rgba, blur, small, exp, got; /* exp RGBF32P, got RGBF16P */
  jtr_image in, d_rgba, d_blur, d_small, d_out;
} pipe_cam;

typedef struct pipe {
  int cams;
  pipe_size z;
  jet_color_matrix matrix;
  jet_color_range range;
  jet_dnn_params p;
  ref_dnn_params rp;
  pipe_cam cam[PIPE_MAX];
} pipe;

static void pipe_params(pipe *pp) {
  memset(&pp->p, 0, sizeof pp->p);
  memset(&pp->rp, 0, sizeof pp->rp);
  pp->matrix = (jet_color_matrix)(jt_rand() & 1);
  pp->range = (jet_color_range)(jt_rand() & 1);
  pp->p.matrix = pp->rp.matrix = pp->matrix;
  pp->p.range = pp->rp.range = pp->range;
  pp->p.letterbox = pp->rp.letterbox = 1;
  pp->p.bgr = pp->rp.bgr = (int)(jt_rand() & 1);
  for (int c = 0; c < 3; c++) {
    pp->p.pad[c] = pp->rp.pad[c] = (float)jtr_uniform(0.0, 255.0);
    pp->p.mean[c] = pp->rp.mean[c] = (float)jtr_uniform(0.0, 1.0);
    pp->p.stddev[c] = pp->rp.stddev[c] = (float)jtr_uniform(0.05, 1.0);
  }
}

/* Layouts by camera: created; padded wrapped, aligned; odd pitches and
 * pointers (element-aligned). */
static int pipe_make(jet_context ctx, const ref_image *host, int which, int upload,
                     jtr_image *out) {
  size_t e = (size_t)host->elem_size;
  long extra = which == 0 ? -1 : which == 1 ? 64 : 13;
  size_t shift = which == 2 ? e : 0;
  return jtr_make(ctx, host, extra, shift, upload, out);
}

static int pipe_alloc(jet_context ctx, pipe *pp, int cams, pipe_size z) {
  memset(pp, 0, sizeof *pp);
  pp->cams = cams;
  pp->z = z;
  pipe_params(pp);
  for (int i = 0; i < cams; i++) {
    pipe_cam *c = &pp->cam[i];
    int which = i % 3;
    CHECK(ref_image_alloc(&c->src, JET_FORMAT_NV12, z.w, z.h, jt_rand() % 40) == 0);
    CHECK(ref_image_alloc(&c->rgba, JET_FORMAT_RGBA8, z.w, z.h, 0) == 0);
    CHECK(ref_image_alloc(&c->blur, JET_FORMAT_RGBA8, z.w, z.h, 0) == 0);
    CHECK(ref_image_alloc(&c->small, JET_FORMAT_RGBA8, z.rw, z.rh, 0) == 0);
    CHECK(ref_image_alloc(&c->exp, JET_FORMAT_RGBF32P, z.dw, z.dh, 0) == 0);
    CHECK(ref_image_alloc(&c->got, JET_FORMAT_RGBF16P, z.dw, z.dh, 0) == 0);
    ref_image_randomize(&c->src, jt_rand);
    CHECK(pipe_make(ctx, &c->src, which, 1, &c->in) == 0);
    CHECK(pipe_make(ctx, &c->rgba, (which + 1) % 3, 0, &c->d_rgba) == 0);
    CHECK(pipe_make(ctx, &c->blur, (which + 2) % 3, 0, &c->d_blur) == 0);
    CHECK(pipe_make(ctx, &c->small, which, 0, &c->d_small) == 0);
    CHECK(pipe_make(ctx, &c->got, (which + 1) % 3, 0, &c->d_out) == 0);
  }
  return 0;
}

static void pipe_free(pipe *pp) {
  for (int i = 0; i < pp->cams; i++) {
    pipe_cam *c = &pp->cam[i];
    jtr_free(&c->in);
    jtr_free(&c->d_rgba);
    jtr_free(&c->d_blur);
    jtr_free(&c->d_small);
    jtr_free(&c->d_out);
    ref_image_free(&c->src);
    ref_image_free(&c->rgba);
    ref_image_free(&c->blur);
    ref_image_free(&c->small);
    ref_image_free(&c->exp);
    ref_image_free(&c->got);
  }
}

/* New random frames into the inputs (for replays of a graph). */
static int pipe_new_frames(pipe *pp) {
  for (int i = 0; i < pp->cams; i++) {
    pipe_cam *c = &pp->cam[i];
    ref_image_randomize(&c->src, jt_rand);
    jet_image_plane hp[JET_IMAGE_MAX_PLANES];
    ref_image_planes(&c->src, hp);
    CHECK_OK(jet_image_upload(c->in.img, hp, c->src.planes));
  }
  return 0;
}

static int pipe_poison(pipe *pp) {
  for (int i = 0; i < pp->cams; i++) {
    CHECK(jtr_poison(&pp->cam[i].d_rgba) == 0);
    CHECK(jtr_poison(&pp->cam[i].d_blur) == 0);
    CHECK(jtr_poison(&pp->cam[i].d_small) == 0);
    CHECK(jtr_poison(&pp->cam[i].d_out) == 0);
  }
  return 0;
}

/* Queue the chain: single calls, or batched where @batched. */
static int pipe_queue(jet_stream st, pipe *pp, int batched) {
  jet_image in[PIPE_MAX] = {NULL}, rgba[PIPE_MAX] = {NULL}, blur[PIPE_MAX] = {NULL};
  jet_image small[PIPE_MAX] = {NULL}, out[PIPE_MAX] = {NULL};
  int n = pp->cams;
  for (int i = 0; i < n; i++) {
    in[i] = pp->cam[i].in.img;
    rgba[i] = pp->cam[i].d_rgba.img;
    blur[i] = pp->cam[i].d_blur.img;
    small[i] = pp->cam[i].d_small.img;
    out[i] = pp->cam[i].d_out.img;
  }
  jet_dnn_params p = pp->p;
  if (batched) {
    CHECK_OK(jet_convert_color_batch(st, in, rgba, n, pp->matrix, pp->range));
  } else {
    for (int i = 0; i < n; i++) CHECK_OK(jet_convert_color(st, in[i], rgba[i], pp->matrix, pp->range));
  }
  if (batched) {
    CHECK_OK(jet_filter_gaussian_batch(st, rgba, blur, n, 5, 0.0, JET_BORDER_REPLICATE, NULL));
  } else {
    for (int i = 0; i < n; i++)
      CHECK_OK(jet_filter_gaussian(st, rgba[i], blur[i], 5, 0.0, JET_BORDER_REPLICATE, NULL));
  }
  if (batched) {
    CHECK_OK(jet_resize_batch(st, blur, small, n, JET_INTERP_LINEAR));
    CHECK_OK(jet_dnn_preprocess_batch(st, small, out, n, &p));
  } else {
    for (int i = 0; i < n; i++) CHECK_OK(jet_resize(st, blur[i], small[i], JET_INTERP_LINEAR));
    for (int i = 0; i < n; i++) CHECK_OK(jet_dnn_preprocess(st, small[i], out[i], &p));
  }
  memset(&p, 0x5A, sizeof p); /* the calls copied what they need */
  return 0;
}

/* The reference chain and the comparison, camera by camera. */
static int pipe_verify(pipe *pp, const char *what) {
  for (int i = 0; i < pp->cams; i++) {
    pipe_cam *c = &pp->cam[i];
    CHECK(ref_convert(&c->src, &c->rgba, pp->matrix, pp->range) == 0);
    CHECK(ref_gaussian_filter(&c->rgba, &c->blur, 5, 0.0, JET_BORDER_REPLICATE, NULL) == 0);
    CHECK(ref_resize(&c->blur, &c->small, JET_INTERP_LINEAR) == 0);
    CHECK(ref_dnn_preprocess(&c->small, &c->exp, &pp->rp) == 0);
    CHECK(jtr_fetch(&c->d_out, &c->got) == 0);
    for (int pl = 0; pl < 3; pl++)
      for (int y = 0; y < pp->z.dh; y++) {
        const float *e = (const float *)(c->exp.data[pl] + c->exp.pitch[pl] * (size_t)y);
        const uint16_t *g = (const uint16_t *)(c->got.data[pl] + c->got.pitch[pl] * (size_t)y);
        for (int x = 0; x < pp->z.dw; x++) {
          double r = e[x], v = ref_f16_to_f32(g[x]);
          double tol = 1e-5 * (1 + fabs(r)) + 0.5 * ref_f16_ulp(fmax(fabs(r), fabs(v)));
          CHECK_MSG(isfinite(v) && fabs(v - r) <= tol,
                    "%s: camera %d of %d, %dx%d -> %dx%d -> %dx%d, matrix %d range %d bgr %d: "
                    "plane %d (%d, %d): FP16 0x%04x = %.9g, reference %.9g (tolerance %.3g)",
                    what, i, pp->cams, pp->z.w, pp->z.h, pp->z.rw, pp->z.rh, pp->z.dw, pp->z.dh,
                    (int)pp->matrix, (int)pp->range, pp->rp.bgr, pl, x, y, g[x], v, r, tol);
        }
      }
  }
  return 0;
}

static int pipe_case(jet_context ctx, jet_stream st, int cams, pipe_size z, int batched) {
  pipe pp;
  CHECK(pipe_alloc(ctx, &pp, cams, z) == 0);
  CHECK(pipe_poison(&pp) == 0);
  CHECK(pipe_queue(st, &pp, batched) == 0);
  CHECK_OK(jet_stream_synchronize(st));
  CHECK(pipe_verify(&pp, batched ? "batched" : "single calls") == 0);
  pipe_free(&pp);
  return 0;
}

/* NV12 needs even source sizes; the rest may be anything. */
static const pipe_size pipe_sizes[] = {
    {2, 2, 1, 1, 1, 1},         {2, 2, 3, 2, 2, 3},          {18, 10, 9, 5, 17, 9},
    {18, 10, 40, 23, 9, 17},    {322, 182, 161, 91, 97, 131}, {1920, 1080, 960, 540, 640, 640},
    {1922, 1082, 961, 541, 641, 361},
};
#define PIPE_NSIZES (sizeof pipe_sizes / sizeof pipe_sizes[0])

/* @programmatic: jetrt's kernels on @st launch with programmatic dependent
 * launch (each one's blocks may start while its predecessor drains). */
static int pipe_open(jet_context *ctx, jet_stream *st, int programmatic) {
  CHECK_OK(jt_context(ctx, 0));
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  CHECK_OK(jet_stream_create(*ctx, &sd, st));
  if (programmatic) {
    CHECK_OK(jet_stream_set_programmatic(*st, 1));
    int on = 0;
    CHECK_OK(jet_stream_get_programmatic(*st, &on));
    CHECK(on == 1);
  }
  return 0;
}

static int pipe_close(jet_context ctx, jet_stream st) {
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

static int pipe_single(int programmatic) {
  jet_context ctx;
  jet_stream st;
  CHECK(pipe_open(&ctx, &st, programmatic) == 0);
  for (size_t i = 0; i < PIPE_NSIZES; i++) CHECK(pipe_case(ctx, st, 1, pipe_sizes[i], 0) == 0);
  return pipe_close(ctx, st);
}

static int pipe_batched(int programmatic) {
  jet_context ctx;
  jet_stream st;
  CHECK(pipe_open(&ctx, &st, programmatic) == 0);
  /* one camera through the batched calls, the sample's four 1080p cameras,
   * odd sizes, and a full batch of small frames */
  CHECK(pipe_case(ctx, st, 1, pipe_sizes[4], 1) == 0);
  CHECK(pipe_case(ctx, st, 4, pipe_sizes[5], 1) == 0);
  CHECK(pipe_case(ctx, st, 3, pipe_sizes[3], 1) == 0);
  CHECK(pipe_case(ctx, st, 4, pipe_sizes[6], 1) == 0);
  CHECK(pipe_case(ctx, st, PIPE_MAX, pipe_sizes[2], 1) == 0);
  CHECK(pipe_case(ctx, st, 5, pipe_sizes[4], 1) == 0);
  return pipe_close(ctx, st);
}

/* Captured once, replayed on new frames: each replay reads the inputs as
 * they are at launch and writes the whole output again. */
static int pipe_graph(int programmatic) {
  jet_context ctx;
  jet_stream st;
  CHECK(pipe_open(&ctx, &st, programmatic) == 0);
  for (int batched = 0; batched < 2; batched++) {
    pipe pp;
    CHECK(pipe_alloc(ctx, &pp, batched ? 4 : 1, pipe_sizes[4]) == 0);
    CHECK_OK(jet_stream_begin_capture(st, JET_CAPTURE_THREAD_LOCAL));
    int rc = pipe_queue(st, &pp, batched);
    jet_graph g = NULL;
    CHECK_OK(jet_stream_end_capture(st, &g));
    CHECK(rc == 0);
    jet_graph_exec x = NULL;
    CHECK_OK(jet_graph_instantiate(g, &x));
    CHECK_OK(jet_graph_destroy(g));
    for (int replay = 0; replay < 3; replay++) {
      if (replay) CHECK(pipe_new_frames(&pp) == 0);
      CHECK(pipe_poison(&pp) == 0);
      CHECK_OK(jet_graph_exec_launch(x, st));
      CHECK_OK(jet_stream_synchronize(st));
      CHECK(pipe_verify(&pp, batched ? "graph of batched calls" : "graph of single calls") == 0);
    }
    CHECK_OK(jet_graph_exec_destroy(x));
    pipe_free(&pp);
  }
  return pipe_close(ctx, st);
}

TEST(gpu_pipeline_chain_single) {
  REQUIRE_GPU();
  return pipe_single(0);
}

TEST(gpu_pipeline_chain_batched) {
  REQUIRE_GPU();
  return pipe_batched(0);
}

TEST(gpu_pipeline_chain_graph_replay) {
  REQUIRE_GPU();
  return pipe_graph(0);
}

/* The same chains with programmatic dependent launch (SM 9.0+): every
 * kernel must still wait for its predecessor's output, in streams and in a
 * captured graph (programmatic edges). */
TEST(gpu_pipeline_chain_programmatic) {
  REQUIRE_GPU();
  jet_platform_info info;
  CHECK_OK(jet_device_query(0, &info));
  if (info.cc_major < 9) SKIP("programmatic dependent launch needs SM 9.0 or newer");
  CHECK(pipe_single(1) == 0);
  CHECK(pipe_batched(1) == 0);
  return pipe_graph(1);
}

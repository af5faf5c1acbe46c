/*
 * jet-pipeline: a whole per-frame camera pipeline with jetrt (issue 13), and
 * the same chain in NPP, against the memory-bandwidth limit.
 *
 * The chain, per camera:
 *   1920x1080 NV12 -> RGBA8 (jet_convert_color, BT.601 limited range)
 *   -> Gaussian 5x5, replicate border (jet_filter_gaussian)
 *   -> 960x540 bilinear (jet_resize)
 *   -> 640x640 letterboxed planar FP16, normalised (jet_dnn_preprocess into
 *      a JET_FORMAT_RGBF16P image).
 * Four cameras run as one batched call per stage (jet_convert_color_batch,
 * jet_filter_gaussian_batch, jet_resize_batch, jet_dnn_preprocess_batch).
 *
 * Modes, each for 1 and 4 cameras:
 *   stream     the stage calls, queued on a stream per frame;
 *   graph      the frame captured once into a CUDA graph (one per input slot,
 *              as a camera ring would have) and replayed per frame;
 *   pdl        stream calls with programmatic dependent launch
 *              (jet_stream_set_programmatic), where jetrt has it and the
 *              GPU is sm_90 or newer;
 *   pdl+graph  the pdl frame captured into graphs.
 * NPP's chain (pipeline-npp.c) runs as stream calls and as graphs.
 *
 * Method
 *  - Inputs: NV12 frames in slots rotated over >= 128 MiB, the next slot
 *    each frame, so the 50 MB L2 never holds a frame's input.
 *  - GPU time per frame: frames queued in chunks of 8 behind a device-side
 *    primer (cudaMemsetAsync of 1 GiB, repeated as the host needs), so the
 *    host has queued the whole chunk before the GPU reaches it; a CUDA event
 *    between consecutive frames. Chunks the host did not finish queueing in
 *    time are counted ('!').
 *  - Latency: one frame at a time on an idle GPU, host CLOCK_MONOTONIC from
 *    just before the frame's first enqueue to the return of
 *    cudaEventSynchronize on an event after its last stage.
 *  - Median and p99 over --frames frames (default 10,000; --quick 1,000),
 *    after 50 warm-up frames.
 *  - Copy equivalent: per stage a device-to-device cudaMemcpyAsync moving
 *    (the stage's minimal bytes read + written) / 2, chained like the
 *    stages (the first copy reads the rotated inputs' region, the others
 *    read what the previous copy wrote), timed the same way in the same run;
 *    the sum of the four stages' medians is the frame's copy equivalent.
 *    Minimal bytes per camera (W x H = 1920 x 1080):
 *      colour   1.5WH NV12 read + 4WH written
 *      Gaussian 4WH read + 4WH written
 *      resize   the source rows bilinear samples (all 1080 at 1/2) x 4W read
 *               + 960 x 540 x 4 written
 *      DNN      the 960 x 540 source rows the 640 x 360 content samples x
 *               960 x 4 read + 640 x 640 x 3 x 2 written (padding included)
 *  - Targets (issue 13): per-frame GPU time <= 1.3x the copy equivalent;
 *    NPP's and CV-CUDA's chains >= 2x slower than jetrt's. NPP is compared
 *    mode for mode (stream with stream, graph with graph); CV-CUDA (from
 *    pipeline_cvcuda.py's JSON, --peer) with jetrt's stream mode, each side's
 *    time divided by its own copy equivalent measured in its own run.
 *  - Correctness: before timing, one frame of each camera count runs as
 *    stream calls and its FP16 output is compared with the CPU reference of
 *    the whole chain (tests/ref: exact for the 8-bit stages; the float
 *    result within 1e-5 * (1 + |ref|), then rounded to half, so within that
 *    plus half a half-precision ULP). Every other jetrt mode's output for the
 *    same frame must equal the stream mode's bit for bit.
 *
 * Usage: jet-pipeline [--frames N] [--quick] [--cams 1|4|all] [--json PATH]
 *                     [--peer FILE] [--no-npp]
 * The last line printed is the summary. Exit: 0 when it ran (targets met or
 * not), 1 when something failed (jetrt error or wrong output), 2 without a GPU.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "jetrt.h"
#include "pipeline.h"
#include "sample_bytes.h"
#include "sample_util.h"
#include "ref_image.h"

#ifndef JET_PIPELINE_HAVE_NPP
#define JET_PIPELINE_HAVE_NPP 0
#endif

#define ROTATION_BYTES ((size_t)128 << 20)
#define MAX_SLOTS 64
#define CHUNK 8
#define PRIMER_BYTES ((size_t)1 << 30)
#define MAX_PRIMERS 32
#define WARMUP 50
#define NSTAGES 4
#define RATIO_TARGET 1.3
#define PEER_TARGET 2.0

enum mode { M_STREAM, M_GRAPH, M_PDL, M_PDL_GRAPH, NMODES };
static const char *const MODE_NAME[NMODES] = {"stream", "graph", "pdl", "pdl+graph"};
enum impl { I_JET, I_NPP };
enum state { ST_OK, ST_NA, ST_ERROR };
static const char *const STATE_NAME[] = {"ok", "not available", "error"};
static const char *const STAGE_NAME[NSTAGES] = {"colour", "gaussian", "resize", "dnn"};

typedef struct stats {
  double med, p99, min, mean;
} stats;

typedef struct result {
  int state;
  char err[400];
  stats gpu, lat, iso; /* queued GPU time, host latency, GPU time of the latency frames */
  int host_bound;      /* chunks the host had not finished queueing in time */
  double ratio;        /* gpu.med / copy equivalent */
  int met;
} result;

typedef struct camset {
  int cams, nslots;
  jet_image in[MAX_SLOTS * PL_MAX_CAMS];
  ref_image host0[PL_MAX_CAMS]; /* slot 0's inputs, for the reference */
  jet_image rgba[PL_MAX_CAMS], blur[PL_MAX_CAMS], small[PL_MAX_CAMS], out[PL_MAX_CAMS];
  jet_graph_exec exec[MAX_SLOTS];
  int nexec;
  double stage_bytes[NSTAGES]; /* minimal bytes read + written, all cameras */
  stats copy_stage[NSTAGES], copy_frame;
  double copy_sum;
  int copy_state;
  char copy_err[300];
  result jet[NMODES], npp[2];
  double npp_ratio[2]; /* NPP time / jetrt time, stream and graph */
  int check_state;
  char check_err[400];
  long checked, max_ulps;
  double max_err;
  uint16_t *stream_out; /* the stream mode's output of slot 0, all cameras */
  size_t out_elems;     /* per camera: 3 * PL_DW * PL_DH */
  int peer_ok;
  double peer_frame_ms, peer_copy_ms, peer_ratio;
} camset;

static struct {
  jet_context ctx;
  jet_stream js;
  cudaStream_t cs;
  jet_platform_info info;
  jet_dnn_params dnn;
  cudaEvent_t ev[CHUNK * NSTAGES + 1], primed, lat_a, lat_b;
  void *primer;
  double primer_ms;
  double warm_ms; /* host time to queue one frame, from the last warm-up */
  void *copy_src, *copy_a, *copy_b;
  size_t copy_src_bytes, copy_buf_bytes;
  int frames, npp, pdl_ok;
  char pdl_why[300];
  char npp_version[64];
  unsigned long long rot;
  uint32_t rng;
  double *t0, *t1, *t2; /* per-frame samples */
  double *ts[NSTAGES];
} B;

static uint32_t rng(void) {
  uint32_t x = B.rng;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return B.rng = x;
}

static stats stats_of(double *v, int n) {
  stats s = {0, 0, 0, 0};
  if (n <= 0) return s;
  qsort(v, (size_t)n, sizeof *v, jet_sample_cmp_double);
  s.min = v[0];
  s.med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  int k = (int)ceil(0.99 * n) - 1;
  s.p99 = v[k < 0 ? 0 : k];
  double sum = 0;
  for (int i = 0; i < n; i++) sum += v[i];
  s.mean = sum / n;
  return s;
}

/* ------------------------------------------------------------------ bytes */

/* Source rows bilinear resizing reads when @sn rows become @dn. */
static long rows_sampled(int dn, int sn) {
  unsigned char *used = malloc((size_t)sn);
  if (!used) return sn;
  long c = jet_sample_rows_sampled(JET_INTERP_LINEAR, dn, sn, used);
  free(used);
  return c;
}

static void stage_bytes(camset *cs) {
  double wh = (double)PL_W * PL_H;
  int ox, oy, cw, ch;
  ref_letterbox_rect(PL_RW, PL_RH, PL_DW, PL_DH, 1, &ox, &oy, &cw, &ch);
  double per[NSTAGES] = {
      1.5 * wh + 4.0 * wh,
      8.0 * wh,
      4.0 * PL_W * (double)rows_sampled(PL_RH, PL_H) + 4.0 * PL_RW * PL_RH,
      4.0 * PL_RW * (double)rows_sampled(ch, PL_RH) + 6.0 * PL_DW * PL_DH,
  };
  for (int s = 0; s < NSTAGES; s++) cs->stage_bytes[s] = per[s] * cs->cams;
}

static size_t copy_bytes(const camset *cs, int s) {
  return ((size_t)(cs->stage_bytes[s] / 2) + 255) / 256 * 256;
}

/* ------------------------------------------------------------------ the chains */

static jet_status jet_frame(camset *cs, int slot) {
  jet_image *in = &cs->in[slot * cs->cams];
  jet_status st;
  if (cs->cams == 1) {
    if ((st = jet_convert_color(B.js, in[0], cs->rgba[0], JET_COLOR_BT601,
                                JET_COLOR_RANGE_LIMITED)) != JET_STATUS_OK ||
        (st = jet_filter_gaussian(B.js, cs->rgba[0], cs->blur[0], PL_KSIZE, 0.0,
                                  JET_BORDER_REPLICATE, NULL)) != JET_STATUS_OK ||
        (st = jet_resize(B.js, cs->blur[0], cs->small[0], JET_INTERP_LINEAR)) != JET_STATUS_OK)
      return st;
    return jet_dnn_preprocess(B.js, cs->small[0], cs->out[0], &B.dnn);
  }
  st = jet_convert_color_batch(B.js, in, cs->rgba, cs->cams, JET_COLOR_BT601,
                               JET_COLOR_RANGE_LIMITED);
  if (st == JET_STATUS_OK)
    st = jet_filter_gaussian_batch(B.js, cs->rgba, cs->blur, cs->cams, PL_KSIZE, 0.0,
                                   JET_BORDER_REPLICATE, NULL);
  if (st == JET_STATUS_OK) st = jet_resize_batch(B.js, cs->blur, cs->small, cs->cams, JET_INTERP_LINEAR);
  if (st == JET_STATUS_OK) st = jet_dnn_preprocess_batch(B.js, cs->small, cs->out, cs->cams, &B.dnn);
  return st;
}

#if JET_PIPELINE_HAVE_NPP
static int npp_frame(camset *cs, int slot, char *err, size_t n) {
  pl_nv12 in[PL_MAX_CAMS];
  for (int c = 0; c < cs->cams; c++) {
    jet_image_plane_info y, uv;
    jet_status st = jet_image_get_plane(cs->in[slot * cs->cams + c], 0, &y);
    if (st == JET_STATUS_OK) st = jet_image_get_plane(cs->in[slot * cs->cams + c], 1, &uv);
    if (st != JET_STATUS_OK) return jet_sample_jet_fail("jet_image_get_plane", st, err, n);
    if (y.pitch != uv.pitch) {
      snprintf(err, n, "NV12 planes with different pitches (%zu, %zu)", y.pitch, uv.pitch);
      return -1;
    }
    in[c].y = y.ptr;
    in[c].uv = uv.ptr;
    in[c].pitch = y.pitch;
  }
  return pl_npp_frame(in, err, n);
}
#endif

/* Queue one frame of @impl on B.js: as stage calls, or as the slot's graph. */
static int frame(camset *cs, int impl, int graph, int slot, char *err, size_t n) {
  if (graph) {
    jet_status st = jet_graph_exec_launch(cs->exec[slot], B.js);
    return st == JET_STATUS_OK ? 0 : jet_sample_jet_fail("jet_graph_exec_launch", st, err, n);
  }
  if (impl == I_JET) {
    jet_status st = jet_frame(cs, slot);
    return st == JET_STATUS_OK ? 0 : jet_sample_jet_fail("jetrt chain", st, err, n);
  }
#if JET_PIPELINE_HAVE_NPP
  return npp_frame(cs, slot, err, n);
#else
  snprintf(err, n, "NPP not built in");
  return -1;
#endif
}

static void free_graphs(camset *cs) {
  for (int i = 0; i < cs->nexec; i++) jet_graph_exec_destroy(cs->exec[i]);
  cs->nexec = 0;
}

/* One executable graph per input slot, each capturing one frame of @impl. */
static int build_graphs(camset *cs, int impl, char *err, size_t n) {
  free_graphs(cs);
  for (int s = 0; s < cs->nslots; s++) {
    jet_status st = jet_stream_begin_capture(B.js, JET_CAPTURE_THREAD_LOCAL);
    if (st != JET_STATUS_OK) return jet_sample_jet_fail("jet_stream_begin_capture", st, err, n);
    int rc = frame(cs, impl, 0, s, err, n);
    jet_graph g = NULL;
    st = jet_stream_end_capture(B.js, &g);
    if (rc) {
      jet_graph_destroy(g);
      return -1;
    }
    if (st != JET_STATUS_OK) return jet_sample_jet_fail("jet_stream_end_capture", st, err, n);
    st = jet_graph_instantiate(g, &cs->exec[s]);
    jet_graph_destroy(g);
    if (st != JET_STATUS_OK) return jet_sample_jet_fail("jet_graph_instantiate", st, err, n);
    cs->nexec = s + 1;
    st = jet_graph_upload(cs->exec[s], B.js);
    if (st != JET_STATUS_OK) return jet_sample_jet_fail("jet_graph_upload", st, err, n);
  }
  cudaError_t e = cudaStreamSynchronize(B.cs);
  return e == cudaSuccess ? 0 : jet_sample_cuda_fail("graph upload", e, err, n);
}

/* ------------------------------------------------------------------ timing */

/* Enough primer memsets to cover @host_ms of queueing, with a margin. */
static int primers_for(double host_ms) {
  int k = B.primer_ms > 0 ? (int)ceil(1.5 * host_ms / B.primer_ms) + 1 : 1;
  return k < 1 ? 1 : k > MAX_PRIMERS ? MAX_PRIMERS : k;
}

static int prime(int count, char *err, size_t n) {
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < count && e == cudaSuccess; i++)
    e = cudaMemsetAsync(B.primer, i & 0xff, PRIMER_BYTES, B.cs);
  if (e == cudaSuccess) e = cudaEventRecord(B.primed, B.cs);
  if (e == cudaSuccess) e = cudaEventRecord(B.ev[0], B.cs);
  return e == cudaSuccess ? 0 : jet_sample_cuda_fail("primer", e, err, n);
}

/* Warm-up frames; also how long the host takes to queue one (B.warm_ms). */
static int warm(camset *cs, int impl, int graph, char *err, size_t n) {
  double h0 = jet_sample_now();
  for (int i = 0; i < WARMUP; i++)
    if (frame(cs, impl, graph, (int)(B.rot++ % (unsigned long long)cs->nslots), err, n)) {
      cudaStreamSynchronize(B.cs);
      return -1;
    }
  B.warm_ms = (jet_sample_now() - h0) * 1e3 / WARMUP;
  cudaError_t e = cudaStreamSynchronize(B.cs);
  return e == cudaSuccess ? 0 : jet_sample_cuda_fail("warm-up", e, err, n);
}

/* Queued GPU time per frame into B.t0, and host-bound chunks. */
static int time_queued(camset *cs, int impl, int graph, result *r, char *err, size_t n) {
  double host_ms = B.warm_ms * CHUNK;
  cudaError_t e;
  for (int done = 0; done < B.frames;) {
    int c = B.frames - done < CHUNK ? B.frames - done : CHUNK;
    if (prime(primers_for(host_ms), err, n)) return -1;
    double h0 = jet_sample_now();
    for (int i = 0; i < c; i++) {
      if (frame(cs, impl, graph, (int)(B.rot++ % (unsigned long long)cs->nslots), err, n)) {
        cudaStreamSynchronize(B.cs);
        return -1;
      }
      if ((e = cudaEventRecord(B.ev[i + 1], B.cs)) != cudaSuccess)
        return jet_sample_cuda_fail("cudaEventRecord", e, err, n);
    }
    host_ms = (jet_sample_now() - h0) * 1e3;
    if (cudaEventQuery(B.primed) == cudaSuccess) r->host_bound++;
    (void)cudaGetLastError(); /* cudaErrorNotReady from the query is an answer */
    if ((e = cudaStreamSynchronize(B.cs)) != cudaSuccess)
      return jet_sample_cuda_fail("cudaStreamSynchronize", e, err, n);
    for (int i = 0; i < c; i++) {
      float ms = 0;
      if ((e = cudaEventElapsedTime(&ms, B.ev[i], B.ev[i + 1])) != cudaSuccess)
        return jet_sample_cuda_fail("cudaEventElapsedTime", e, err, n);
      B.t0[done + i] = ms;
    }
    done += c;
  }
  r->gpu = stats_of(B.t0, B.frames);
  return 0;
}

/* One frame at a time on an idle GPU: host latency into B.t1, GPU time into B.t2. */
static int time_latency(camset *cs, int impl, int graph, result *r, char *err, size_t n) {
  cudaError_t e;
  for (int i = 0; i < B.frames; i++) {
    int slot = (int)(B.rot++ % (unsigned long long)cs->nslots);
    if ((e = cudaEventRecord(B.lat_a, B.cs)) != cudaSuccess)
      return jet_sample_cuda_fail("cudaEventRecord", e, err, n);
    double h0 = jet_sample_now();
    if (frame(cs, impl, graph, slot, err, n)) {
      cudaStreamSynchronize(B.cs);
      return -1;
    }
    if ((e = cudaEventRecord(B.lat_b, B.cs)) != cudaSuccess ||
        (e = cudaEventSynchronize(B.lat_b)) != cudaSuccess)
      return jet_sample_cuda_fail("latency event", e, err, n);
    B.t1[i] = (jet_sample_now() - h0) * 1e3;
    float ms = 0;
    if ((e = cudaEventElapsedTime(&ms, B.lat_a, B.lat_b)) != cudaSuccess)
      return jet_sample_cuda_fail("cudaEventElapsedTime", e, err, n);
    B.t2[i] = ms;
  }
  r->lat = stats_of(B.t1, B.frames);
  r->iso = stats_of(B.t2, B.frames);
  return 0;
}

static void measure(camset *cs, int impl, int graph, result *r) {
  if (warm(cs, impl, graph, r->err, sizeof r->err) ||
      time_queued(cs, impl, graph, r, r->err, sizeof r->err) ||
      time_latency(cs, impl, graph, r, r->err, sizeof r->err))
    r->state = ST_ERROR;
  else
    r->state = ST_OK;
}

/* The copy chain: four copies per frame, an event after each. */
static int copy_frame(camset *cs, unsigned long long k, int first_ev, char *err, size_t n) {
  size_t c0 = copy_bytes(cs, 0), slots = B.copy_src_bytes / c0;
  const char *src = (const char *)B.copy_src + (k % slots) * c0;
  void *dst[NSTAGES] = {B.copy_a, B.copy_b, B.copy_a, B.copy_b};
  const void *from[NSTAGES] = {src, B.copy_a, B.copy_b, B.copy_a};
  cudaError_t e;
  for (int s = 0; s < NSTAGES; s++) {
    if ((e = cudaMemcpyAsync(dst[s], from[s], copy_bytes(cs, s), cudaMemcpyDeviceToDevice,
                             B.cs)) != cudaSuccess)
      return jet_sample_cuda_fail("cudaMemcpyAsync", e, err, n);
    if (first_ev >= 0 && (e = cudaEventRecord(B.ev[first_ev + s + 1], B.cs)) != cudaSuccess)
      return jet_sample_cuda_fail("cudaEventRecord", e, err, n);
  }
  return 0;
}

static int measure_copy(camset *cs, char *err, size_t n) {
  cudaError_t e;
  unsigned long long k = 0;
  double h0 = jet_sample_now();
  for (int i = 0; i < WARMUP; i++)
    if (copy_frame(cs, k++, -1, err, n)) return -1;
  double host_ms = (jet_sample_now() - h0) * 1e3 / WARMUP * CHUNK;
  for (int done = 0; done < B.frames;) {
    int c = B.frames - done < CHUNK ? B.frames - done : CHUNK;
    if (prime(primers_for(host_ms), err, n)) return -1;
    double c0 = jet_sample_now();
    for (int i = 0; i < c; i++)
      if (copy_frame(cs, k++, i * NSTAGES, err, n)) return -1;
    host_ms = (jet_sample_now() - c0) * 1e3;
    if ((e = cudaStreamSynchronize(B.cs)) != cudaSuccess)
      return jet_sample_cuda_fail("cudaStreamSynchronize", e, err, n);
    for (int i = 0; i < c; i++) {
      double total = 0;
      for (int s = 0; s < NSTAGES; s++) {
        float ms = 0;
        int a = i * NSTAGES + s;
        if ((e = cudaEventElapsedTime(&ms, B.ev[a], B.ev[a + 1])) != cudaSuccess)
          return jet_sample_cuda_fail("cudaEventElapsedTime", e, err, n);
        B.ts[s][done + i] = ms;
        total += ms;
      }
      B.t0[done + i] = total;
    }
    done += c;
  }
  cs->copy_sum = 0;
  for (int s = 0; s < NSTAGES; s++) {
    cs->copy_stage[s] = stats_of(B.ts[s], B.frames);
    cs->copy_sum += cs->copy_stage[s].med;
  }
  cs->copy_frame = stats_of(B.t0, B.frames);
  return 0;
}

/* ------------------------------------------------------------------ correctness */

/* The output planes of @img (RGBF16P) into @host (3 * PL_DW * PL_DH halves). */
static int download_out(jet_image img, uint16_t *host, char *err, size_t n) {
  jet_image_plane hp[3];
  for (int p = 0; p < 3; p++) {
    hp[p].ptr = host + (size_t)p * PL_DW * PL_DH;
    hp[p].pitch = (size_t)PL_DW * 2;
  }
  jet_status st = jet_image_download(img, hp, 3);
  return st == JET_STATUS_OK ? 0 : jet_sample_jet_fail("jet_image_download", st, err, n);
}

/* The CPU reference of the whole chain for camera @c of slot 0, compared with
 * the stream mode's output. */
static int check_camera(camset *cs, int c, char *err, size_t n) {
  ref_image rgba, blur, small, out;
  memset(&rgba, 0, sizeof rgba);
  memset(&blur, 0, sizeof blur);
  memset(&small, 0, sizeof small);
  memset(&out, 0, sizeof out);
  int rc = -1;
  if (ref_image_alloc(&rgba, JET_FORMAT_RGBA8, PL_W, PL_H, 0) ||
      ref_image_alloc(&blur, JET_FORMAT_RGBA8, PL_W, PL_H, 0) ||
      ref_image_alloc(&small, JET_FORMAT_RGBA8, PL_RW, PL_RH, 0) ||
      ref_image_alloc(&out, JET_FORMAT_RGBF32P, PL_DW, PL_DH, 0)) {
    snprintf(err, n, "out of host memory for the reference");
    goto done;
  }
  ref_dnn_params rp;
  memset(&rp, 0, sizeof rp);
  rp.matrix = B.dnn.matrix;
  rp.range = B.dnn.range;
  rp.letterbox = B.dnn.letterbox;
  rp.bgr = B.dnn.bgr;
  memcpy(rp.pad, B.dnn.pad, sizeof rp.pad);
  memcpy(rp.mean, B.dnn.mean, sizeof rp.mean);
  memcpy(rp.stddev, B.dnn.stddev, sizeof rp.stddev);
  if (ref_convert(&cs->host0[c], &rgba, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED) ||
      ref_gaussian_filter(&rgba, &blur, PL_KSIZE, 0.0, JET_BORDER_REPLICATE, NULL) ||
      ref_resize(&blur, &small, JET_INTERP_LINEAR) || ref_dnn_preprocess(&small, &out, &rp)) {
    snprintf(err, n, "the CPU reference refused the chain");
    goto done;
  }
  const uint16_t *got = cs->stream_out + (size_t)c * cs->out_elems;
  long bad = 0;
  for (int p = 0; p < 3; p++)
    for (int y = 0; y < PL_DH; y++) {
      const float *row = (const float *)(out.data[p] + out.pitch[p] * (size_t)y);
      for (int x = 0; x < PL_DW; x++) {
        double r = row[x];
        uint16_t h = got[((size_t)p * PL_DH + (size_t)y) * PL_DW + (size_t)x];
        double g = ref_f16_to_f32(h), d = fabs(g - r);
        double tol = 1e-5 * (1 + fabs(r)) + 0.5 * ref_f16_ulp(fmax(fabs(r), fabs(g)));
        cs->checked++;
        if (!isfinite(g) || !(d <= tol)) {
          if (!bad)
            snprintf(err, n,
                     "camera %d plane %d (%d, %d): FP16 0x%04x = %.9g, reference %.9g "
                     "(tolerance %.3g)",
                     c, p, x, y, h, g, r, tol);
          bad++;
        } else if (d > cs->max_err) {
          cs->max_err = d;
        }
      }
    }
  if (bad) {
    size_t l = strlen(err);
    snprintf(err + l, n - l, "; %ld of %d values outside", bad, 3 * PL_DW * PL_DH);
  } else {
    rc = 0;
  }
done:
  ref_image_free(&rgba);
  ref_image_free(&blur);
  ref_image_free(&small);
  ref_image_free(&out);
  return rc;
}

static int check_stream(camset *cs) {
  char *err = cs->check_err;
  size_t n = sizeof cs->check_err;
  cs->out_elems = (size_t)3 * PL_DW * PL_DH;
  cs->stream_out = malloc(cs->out_elems * (size_t)cs->cams * sizeof *cs->stream_out);
  if (!cs->stream_out) {
    snprintf(err, n, "out of host memory");
    return -1;
  }
  if (frame(cs, I_JET, 0, 0, err, n)) return -1;
  jet_status st = jet_stream_synchronize(B.js);
  if (st != JET_STATUS_OK) return jet_sample_jet_fail("jet_stream_synchronize", st, err, n);
  for (int c = 0; c < cs->cams; c++)
    if (download_out(cs->out[c], cs->stream_out + (size_t)c * cs->out_elems, err, n)) return -1;
  for (int c = 0; c < cs->cams; c++)
    if (check_camera(cs, c, err, n)) return -1;
  return 0;
}

/* A mode's output of slot 0 must be the stream mode's, bit for bit. The
 * outputs are poisoned first, so that a frame that writes nothing fails. */
static int check_same(camset *cs, int graph, char *err, size_t n) {
  uint16_t *buf = malloc(cs->out_elems * sizeof *buf);
  if (!buf) {
    snprintf(err, n, "out of host memory");
    return -1;
  }
  jet_image_plane hp[3];
  for (int p = 0; p < 3; p++) {
    hp[p].ptr = buf + (size_t)p * PL_DW * PL_DH;
    hp[p].pitch = (size_t)PL_DW * 2;
  }
  int rc = 0;
  memset(buf, 0xff, cs->out_elems * sizeof *buf);
  for (int c = 0; c < cs->cams && !rc; c++) {
    jet_status st = jet_image_upload(cs->out[c], hp, 3);
    if (st != JET_STATUS_OK) rc = jet_sample_jet_fail("jet_image_upload (poison)", st, err, n);
  }
  if (!rc) rc = frame(cs, I_JET, graph, 0, err, n);
  if (!rc) {
    jet_status st = jet_stream_synchronize(B.js);
    if (st != JET_STATUS_OK) rc = jet_sample_jet_fail("jet_stream_synchronize", st, err, n);
  }
  for (int c = 0; c < cs->cams && !rc; c++) {
    if ((rc = download_out(cs->out[c], buf, err, n)) != 0) break;
    if (memcmp(buf, cs->stream_out + (size_t)c * cs->out_elems, cs->out_elems * sizeof *buf)) {
      snprintf(err, n, "camera %d: output differs from the stream mode's", c);
      rc = -1;
    }
  }
  free(buf);
  return rc;
}

/* ------------------------------------------------------------------ setup */

static size_t image_bytes(jet_image im) {
  int count = 0;
  size_t b = 0;
  if (!im || jet_image_get_plane_count(im, &count) != JET_STATUS_OK) return 0;
  for (int p = 0; p < count; p++) {
    jet_image_plane_info pi;
    if (jet_image_get_plane(im, p, &pi) == JET_STATUS_OK) b += pi.pitch * (size_t)pi.height;
  }
  return b;
}

static void free_camset(camset *cs) {
  free_graphs(cs);
  for (int i = 0; i < cs->nslots * cs->cams; i++) jet_image_destroy(cs->in[i]);
  for (int c = 0; c < PL_MAX_CAMS; c++) {
    jet_image_destroy(cs->rgba[c]);
    jet_image_destroy(cs->blur[c]);
    jet_image_destroy(cs->small[c]);
    jet_image_destroy(cs->out[c]);
    ref_image_free(&cs->host0[c]);
    cs->rgba[c] = cs->blur[c] = cs->small[c] = cs->out[c] = NULL;
  }
  memset(cs->in, 0, sizeof cs->in);
  cs->nslots = 0;
}

static int setup_camset(camset *cs, char *err, size_t n) {
  jet_status st;
  for (int c = 0; c < cs->cams; c++)
    if ((st = jet_image_create(B.ctx, JET_FORMAT_RGBA8, PL_W, PL_H, &cs->rgba[c])) !=
            JET_STATUS_OK ||
        (st = jet_image_create(B.ctx, JET_FORMAT_RGBA8, PL_W, PL_H, &cs->blur[c])) !=
            JET_STATUS_OK ||
        (st = jet_image_create(B.ctx, JET_FORMAT_RGBA8, PL_RW, PL_RH, &cs->small[c])) !=
            JET_STATUS_OK ||
        (st = jet_image_create(B.ctx, JET_FORMAT_RGBF16P, PL_DW, PL_DH, &cs->out[c])) !=
            JET_STATUS_OK)
      return jet_sample_jet_fail("jet_image_create", st, err, n);
  size_t total = 0;
  cs->nslots = 0;
  while (cs->nslots < MAX_SLOTS && (cs->nslots < 2 || total < ROTATION_BYTES)) {
    int s = cs->nslots++;
    for (int c = 0; c < cs->cams; c++) {
      jet_image *im = &cs->in[s * cs->cams + c];
      if ((st = jet_image_create(B.ctx, JET_FORMAT_NV12, PL_W, PL_H, im)) != JET_STATUS_OK)
        return jet_sample_jet_fail("jet_image_create (NV12)", st, err, n);
      total += image_bytes(*im);
      ref_image host, *h = s == 0 ? &cs->host0[c] : &host;
      if (ref_image_alloc(h, JET_FORMAT_NV12, PL_W, PL_H, 0)) {
        snprintf(err, n, "out of host memory");
        return -1;
      }
      ref_image_randomize(h, rng);
      jet_image_plane hp[2];
      ref_image_planes(h, hp);
      st = jet_image_upload(*im, hp, 2);
      if (s != 0) ref_image_free(&host);
      if (st != JET_STATUS_OK) return jet_sample_jet_fail("jet_image_upload", st, err, n);
    }
  }
  stage_bytes(cs);
  return 0;
}

static int setup(char *err, size_t n) {
  jet_status st;
  if ((st = jet_context_create(&B.ctx, NULL)) != JET_STATUS_OK ||
      (st = jet_context_platform(B.ctx, &B.info)) != JET_STATUS_OK)
    return jet_sample_jet_fail("context", st, err, n);
  jet_stream_desc desc = {JET_STREAM_NON_BLOCKING, 0};
  if ((st = jet_stream_create(B.ctx, &desc, &B.js)) != JET_STATUS_OK ||
      (st = jet_stream_native(B.js, (void **)&B.cs)) != JET_STATUS_OK)
    return jet_sample_jet_fail("stream", st, err, n);
  cudaError_t e;
  for (size_t i = 0; i < sizeof B.ev / sizeof B.ev[0]; i++)
    if ((e = cudaEventCreate(&B.ev[i])) != cudaSuccess) return jet_sample_cuda_fail("cudaEventCreate", e, err, n);
  if ((e = cudaEventCreate(&B.primed)) != cudaSuccess ||
      (e = cudaEventCreate(&B.lat_a)) != cudaSuccess ||
      (e = cudaEventCreate(&B.lat_b)) != cudaSuccess)
    return jet_sample_cuda_fail("cudaEventCreate", e, err, n);
  /* copy buffers: the largest stage copy of 4 cameras, and a rotated source */
  camset tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.cams = PL_MAX_CAMS;
  stage_bytes(&tmp);
  B.copy_buf_bytes = 0;
  for (int s = 0; s < NSTAGES; s++)
    if (copy_bytes(&tmp, s) > B.copy_buf_bytes) B.copy_buf_bytes = copy_bytes(&tmp, s);
  B.copy_src_bytes = ROTATION_BYTES + 2 * B.copy_buf_bytes;
  if ((e = cudaMalloc(&B.primer, PRIMER_BYTES)) != cudaSuccess ||
      (e = cudaMalloc(&B.copy_src, B.copy_src_bytes)) != cudaSuccess ||
      (e = cudaMalloc(&B.copy_a, B.copy_buf_bytes)) != cudaSuccess ||
      (e = cudaMalloc(&B.copy_b, B.copy_buf_bytes)) != cudaSuccess ||
      (e = cudaMemset(B.copy_src, 0x5a, B.copy_src_bytes)) != cudaSuccess ||
      (e = cudaMemset(B.copy_a, 0, B.copy_buf_bytes)) != cudaSuccess ||
      (e = cudaMemset(B.copy_b, 0, B.copy_buf_bytes)) != cudaSuccess)
    return jet_sample_cuda_fail("device buffers", e, err, n);
  /* how long one primer memset keeps the GPU busy */
  double best = 1e9;
  for (int i = 0; i < 5; i++) {
    float ms = 0;
    if ((e = cudaEventRecord(B.ev[0], B.cs)) != cudaSuccess ||
        (e = cudaMemsetAsync(B.primer, i, PRIMER_BYTES, B.cs)) != cudaSuccess ||
        (e = cudaEventRecord(B.ev[1], B.cs)) != cudaSuccess ||
        (e = cudaEventSynchronize(B.ev[1])) != cudaSuccess ||
        (e = cudaEventElapsedTime(&ms, B.ev[0], B.ev[1])) != cudaSuccess)
      return jet_sample_cuda_fail("primer calibration", e, err, n);
    if (ms < best) best = ms;
  }
  B.primer_ms = best;
  B.t0 = calloc((size_t)B.frames, sizeof *B.t0);
  B.t1 = calloc((size_t)B.frames, sizeof *B.t1);
  B.t2 = calloc((size_t)B.frames, sizeof *B.t2);
  for (int s = 0; s < NSTAGES; s++) B.ts[s] = calloc((size_t)B.frames, sizeof *B.ts[s]);
  if (!B.t0 || !B.t1 || !B.t2 || !B.ts[0] || !B.ts[1] || !B.ts[2] || !B.ts[3]) {
    snprintf(err, n, "out of host memory");
    return -1;
  }
  const float pad[3] = PL_PAD_INIT, mean[3] = PL_MEAN_INIT, sd[3] = PL_STD_INIT;
  memset(&B.dnn, 0, sizeof B.dnn);
  B.dnn.matrix = JET_COLOR_BT601;
  B.dnn.range = JET_COLOR_RANGE_LIMITED;
  B.dnn.letterbox = 1;
  B.dnn.bgr = 0;
  memcpy(B.dnn.pad, pad, sizeof pad);
  memcpy(B.dnn.mean, mean, sizeof mean);
  memcpy(B.dnn.stddev, sd, sizeof sd);
  return 0;
}

/* Programmatic dependent launch on B.js: 1 on, 0 off. */
static jet_status set_pdl(int on) { return jet_stream_set_programmatic(B.js, on); }

static void pdl_probe(void) {
  B.pdl_ok = 0;
  if (B.info.cc_major < 9) {
    snprintf(B.pdl_why, sizeof B.pdl_why, "PDL: not available on this GPU (SM %d.%d < 9.0)",
             B.info.cc_major, B.info.cc_minor);
    return;
  }
  jet_status st = set_pdl(1);
  if (st != JET_STATUS_OK) {
    snprintf(B.pdl_why, sizeof B.pdl_why, "PDL: jet_stream_set_programmatic refused: %s: %s",
             jet_status_name(st), jet_last_error_string());
    return;
  }
  set_pdl(0);
  B.pdl_ok = 1;
  snprintf(B.pdl_why, sizeof B.pdl_why, "PDL: on (SM %d.%d)", B.info.cc_major, B.info.cc_minor);
}

/* ------------------------------------------------------------------ one camera count */

static void run_jet_mode(camset *cs, int m) {
  result *r = &cs->jet[m];
  int graph = m == M_GRAPH || m == M_PDL_GRAPH, pdl = m == M_PDL || m == M_PDL_GRAPH;
  if (pdl && !B.pdl_ok) {
    r->state = ST_NA;
    snprintf(r->err, sizeof r->err, "%s", B.pdl_why);
    return;
  }
  jet_status st = pdl ? set_pdl(1) : JET_STATUS_OK;
  if (st != JET_STATUS_OK) {
    r->state = ST_ERROR;
    jet_sample_jet_fail("jet_stream_set_programmatic", st, r->err, sizeof r->err);
    return;
  }
  if (graph && build_graphs(cs, I_JET, r->err, sizeof r->err)) {
    r->state = ST_ERROR;
  } else {
    measure(cs, I_JET, graph, r);
    if (r->state == ST_OK && m != M_STREAM && check_same(cs, graph, r->err, sizeof r->err))
      r->state = ST_ERROR;
  }
  if (graph) free_graphs(cs);
  if (pdl) set_pdl(0);
  if (r->state == ST_OK) {
    r->ratio = cs->copy_sum > 0 ? r->gpu.med / cs->copy_sum : 0;
    r->met = r->ratio > 0 && r->ratio <= RATIO_TARGET;
  }
}

static void run_npp(camset *cs) {
  for (int g = 0; g < 2; g++) {
    cs->npp[g].state = ST_NA;
    snprintf(cs->npp[g].err, sizeof cs->npp[g].err, "NPP %s",
             JET_PIPELINE_HAVE_NPP ? "turned off (--no-npp)" : "not built in");
  }
#if JET_PIPELINE_HAVE_NPP
  if (!B.npp) return;
  char err[400];
  if (pl_npp_init((void *)B.cs, cs->cams, B.npp_version, sizeof B.npp_version, err, sizeof err)) {
    for (int g = 0; g < 2; g++) {
      cs->npp[g].state = ST_ERROR;
      snprintf(cs->npp[g].err, sizeof cs->npp[g].err, "%s", err);
    }
    return;
  }
  for (int g = 0; g < 2; g++) {
    result *r = &cs->npp[g];
    r->err[0] = 0;
    if (g && build_graphs(cs, I_NPP, r->err, sizeof r->err))
      r->state = ST_ERROR;
    else
      measure(cs, I_NPP, g, r);
    if (g) free_graphs(cs);
    if (r->state == ST_OK) {
      r->ratio = cs->copy_sum > 0 ? r->gpu.med / cs->copy_sum : 0;
      const result *j = &cs->jet[g ? M_GRAPH : M_STREAM];
      cs->npp_ratio[g] = j->state == ST_OK && j->gpu.med > 0 ? r->gpu.med / j->gpu.med : 0;
      r->met = cs->npp_ratio[g] >= PEER_TARGET;
    }
  }
  cudaStreamSynchronize(B.cs);
  pl_npp_release();
#endif
}

/* ------------------------------------------------------------------ peer (CV-CUDA) */

static int json_number(const char *text, const char *key, double *out) {
  char pat[96];
  snprintf(pat, sizeof pat, "\"%s\"", key);
  const char *p = strstr(text, pat);
  if (!p) return -1;
  p += strlen(pat);
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  if (*p++ != ':') return -1;
  char *end = NULL;
  double v = strtod(p, &end);
  if (end == p || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len + 4096 + 1 > cap) {
      cap = cap ? cap * 2 : 65536;
      char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
    }
    size_t got = fread(buf + len, 1, 4096, f);
    len += got;
    if (got < 4096) break;
  }
  fclose(f);
  buf[len] = 0;
  return buf;
}

static void read_peer(const char *text, camset *cs) {
  char k1[64], k2[64];
  snprintf(k1, sizeof k1, "cam%d_frame_median_ms", cs->cams);
  snprintf(k2, sizeof k2, "cam%d_copy_sum_ms", cs->cams);
  cs->peer_ok = text && !json_number(text, k1, &cs->peer_frame_ms) &&
                !json_number(text, k2, &cs->peer_copy_ms) && cs->peer_frame_ms > 0 &&
                cs->peer_copy_ms > 0;
  const result *j = &cs->jet[M_STREAM];
  if (cs->peer_ok && j->state == ST_OK && cs->copy_sum > 0)
    cs->peer_ratio = (cs->peer_frame_ms / cs->peer_copy_ms) / (j->gpu.med / cs->copy_sum);
}

/* ------------------------------------------------------------------ output */

static void print_result(const camset *cs, const char *chain, const char *mode, const result *r,
                         const char *vs) {
  if (r->state != ST_OK) {
    printf("%-6s %4d  %-10s %s: %s\n", chain, cs->cams, mode, STATE_NAME[r->state], r->err);
    return;
  }
  printf("%-6s %4d  %-10s %9.4f%s %9.4f %9.4f %9.4f %9.4f %7.2fx %s\n", chain, cs->cams, mode,
         r->gpu.med, r->host_bound ? "!" : " ", r->gpu.p99, r->lat.med, r->lat.p99, r->iso.med,
         r->ratio, vs);
}

static void json_stats(FILE *f, const char *name, const stats *s) {
  fprintf(f, "\"%s\": {\"median_ms\": %.6f, \"p99_ms\": %.6f, \"min_ms\": %.6f, \"mean_ms\": %.6f}",
          name, s->med, s->p99, s->min, s->mean);
}

static void json_result(FILE *f, const char *chain, const char *mode, const result *r) {
  fprintf(f, "        {\"chain\": \"%s\", \"mode\": \"%s\", \"state\": \"%s\"", chain, mode,
          STATE_NAME[r->state]);
  if (r->state == ST_OK) {
    fprintf(f, ", ");
    json_stats(f, "gpu", &r->gpu);
    fprintf(f, ", ");
    json_stats(f, "latency", &r->lat);
    fprintf(f, ", ");
    json_stats(f, "latency_gpu", &r->iso);
    fprintf(f, ", \"host_bound_chunks\": %d, \"ratio_to_copy\": %.4f", r->host_bound, r->ratio);
  } else {
    fprintf(f, ", \"error\": ");
    jet_sample_json_str(f, r->err);
  }
  fprintf(f, "}");
}

static int write_json(const char *path, camset *sets, int nsets, const char *peer,
                      const char *summary) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "{\n  \"program\": \"jet-pipeline\",\n  \"device\": ");
  jet_sample_json_str(f, B.info.name);
  fprintf(f, ",\n  \"sm\": \"%d.%d\",\n  \"driver_version\": %d,\n  \"runtime_version\": %d,\n",
          B.info.cc_major, B.info.cc_minor, B.info.driver_version, B.info.runtime_version);
  fprintf(f, "  \"frames\": %d,\n  \"warmup\": %d,\n  \"rotation_min_bytes\": %zu,\n", B.frames,
          WARMUP, (size_t)ROTATION_BYTES);
  fprintf(f, "  \"chain\": \"%dx%d NV12 -> RGBA8 (BT.601 limited) -> Gaussian %dx%d replicate -> "
             "%dx%d bilinear -> %dx%d letterbox RGBF16P\",\n",
          PL_W, PL_H, PL_KSIZE, PL_KSIZE, PL_RW, PL_RH, PL_DW, PL_DH);
  fprintf(f, "  \"pdl\": ");
  jet_sample_json_str(f, B.pdl_why);
  fprintf(f, ",\n  \"npp_version\": ");
  jet_sample_json_str(f, B.npp ? B.npp_version : "");
  fprintf(f, ",\n  \"peer_file\": ");
  jet_sample_json_str(f, peer ? peer : "");
  fprintf(f, ",\n  \"cameras\": [\n");
  for (int i = 0; i < nsets; i++) {
    camset *cs = &sets[i];
    fprintf(f, "    {\"cams\": %d, \"slots\": %d, \"check\": \"%s\"", cs->cams, cs->nslots,
            cs->check_state == ST_OK ? "passed" : "failed");
    if (cs->check_state != ST_OK) {
      fprintf(f, ", \"check_error\": ");
      jet_sample_json_str(f, cs->check_err);
    } else {
      fprintf(f, ", \"checked_values\": %ld, \"max_abs_error\": %.3g", cs->checked, cs->max_err);
    }
    fprintf(f, ",\n      \"stage_bytes\": [%.0f, %.0f, %.0f, %.0f]", cs->stage_bytes[0],
            cs->stage_bytes[1], cs->stage_bytes[2], cs->stage_bytes[3]);
    if (cs->copy_state == ST_OK) {
      fprintf(f, ",\n      \"copy_stage_median_ms\": [%.6f, %.6f, %.6f, %.6f]",
              cs->copy_stage[0].med, cs->copy_stage[1].med, cs->copy_stage[2].med,
              cs->copy_stage[3].med);
      fprintf(f, ", \"copy_sum_ms\": %.6f, ", cs->copy_sum);
      json_stats(f, "copy_chain", &cs->copy_frame);
    } else {
      fprintf(f, ",\n      \"copy_error\": ");
      jet_sample_json_str(f, cs->copy_err);
    }
    fprintf(f, ",\n      \"results\": [\n");
    for (int m = 0; m < NMODES; m++) {
      json_result(f, "jetrt", MODE_NAME[m], &cs->jet[m]);
      fprintf(f, ",\n");
    }
    json_result(f, "npp", "stream", &cs->npp[0]);
    fprintf(f, ",\n");
    json_result(f, "npp", "graph", &cs->npp[1]);
    fprintf(f, "\n      ],\n      \"npp_over_jetrt\": {\"stream\": %.4f, \"graph\": %.4f}",
            cs->npp_ratio[0], cs->npp_ratio[1]);
    if (cs->peer_ok)
      fprintf(f, ",\n      \"cvcuda\": {\"frame_median_ms\": %.6f, \"copy_sum_ms\": %.6f, "
                 "\"normalised_ratio\": %.4f}",
              cs->peer_frame_ms, cs->peer_copy_ms, cs->peer_ratio);
    fprintf(f, "}%s\n", i + 1 < nsets ? "," : "");
  }
  fprintf(f, "  ],\n  \"summary\": ");
  jet_sample_json_str(f, summary);
  fprintf(f, "\n}\n");
  return fclose(f) == 0 ? 0 : -1;
}

static int usage(void) {
  fprintf(stderr, "usage: jet-pipeline [--frames N] [--quick] [--cams 1|4|all] [--json PATH]\n"
                  "                    [--peer FILE] [--no-npp]\n");
  return 1;
}

static void append(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t n, const char *fmt, ...) {
  size_t l = strlen(buf);
  if (l + 1 >= n) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + l, n - l, fmt, ap);
  va_end(ap);
}

int main(int argc, char **argv) {
  const char *json = NULL, *peer = NULL;
  int which = 3, no_npp = 0;
  B.frames = 10000;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--frames") == 0 && v) {
      B.frames = atoi(v);
      i++;
    } else if (strcmp(a, "--quick") == 0) {
      B.frames = 1000;
    } else if (strcmp(a, "--cams") == 0 && v) {
      which = strcmp(v, "1") == 0 ? 1 : strcmp(v, "4") == 0 ? 2 : strcmp(v, "all") == 0 ? 3 : 0;
      if (!which) return usage();
      i++;
    } else if (strcmp(a, "--json") == 0 && v) {
      json = v;
      i++;
    } else if (strcmp(a, "--peer") == 0 && v) {
      peer = v;
      i++;
    } else if (strcmp(a, "--no-npp") == 0) {
      no_npp = 1;
    } else {
      return usage();
    }
  }
  if (B.frames < 1 || B.frames > 10000000) return usage();
  char json_path[1100];
  if (json)
    snprintf(json_path, sizeof json_path, "%s", json);
  else
    jet_sample_default_json_path("jet-pipeline.json", json_path, sizeof json_path);
  char *peer_text = NULL;
  if (peer && !(peer_text = read_file(peer))) {
    fprintf(stderr, "jet-pipeline: cannot read the peer file %s\n", peer);
    return 1;
  }

  double t_start = jet_sample_now();
  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "jet-pipeline: no CUDA device: %s\n", jet_last_error_string());
    free(peer_text);
    return 2;
  }
  B.rng = 0x2545f491u;
  char err[400];
  if (setup(err, sizeof err)) {
    fprintf(stderr, "jet-pipeline: setup: %s\n", err);
    free(peer_text);
    return 1;
  }
  pdl_probe();
  B.npp = JET_PIPELINE_HAVE_NPP && !no_npp;

  printf("device 0: %s, SM %d.%d, %d SMs, L2 %zu MiB, driver %d, runtime %d\n", B.info.name,
         B.info.cc_major, B.info.cc_minor, B.info.sm_count, B.info.l2_size >> 20,
         B.info.driver_version, B.info.runtime_version);
  printf("chain: %dx%d NV12 -> RGBA8 (BT.601 limited) -> Gaussian %dx%d replicate -> %dx%d "
         "bilinear -> %dx%d letterbox planar FP16\n",
         PL_W, PL_H, PL_KSIZE, PL_KSIZE, PL_RW, PL_RH, PL_DW, PL_DH);
  printf("%s; NPP %s; peer %s\n", B.pdl_why,
         B.npp ? "built in" : JET_PIPELINE_HAVE_NPP ? "turned off" : "not built in",
         peer ? peer : "none (--peer FILE from pipeline_cvcuda.py)");
  printf("method: %d frames after %d warm-up per mode; inputs rotated over >= %zu MiB; GPU time "
         "from events between queued frames ('!': the host fell behind), latency from the host "
         "clock, one frame at a time\n\n",
         B.frames, WARMUP, (size_t)ROTATION_BYTES >> 20);

  camset sets[2];
  memset(sets, 0, sizeof sets);
  int nsets = 0, failed = 0;
  if (which & 1) sets[nsets++].cams = 1;
  if (which & 2) sets[nsets++].cams = PL_MAX_CAMS;
  for (int i = 0; i < nsets; i++) {
    camset *cs = &sets[i];
    for (int m = 0; m < NMODES; m++) cs->jet[m].state = ST_ERROR;
    cs->check_state = ST_ERROR;
    cs->copy_state = ST_ERROR;
    if (setup_camset(cs, cs->check_err, sizeof cs->check_err)) {
      printf("%d camera(s): setup failed: %s\n", cs->cams, cs->check_err);
      for (int m = 0; m < NMODES; m++)
        snprintf(cs->jet[m].err, sizeof cs->jet[m].err, "setup failed");
      failed++;
      free_camset(cs);
      continue;
    }
    cs->check_state = check_stream(cs) ? ST_ERROR : ST_OK;
    if (cs->check_state == ST_OK)
      printf("%d camera(s): output checked against the CPU reference: %ld values, max |error| "
             "%.3g\n",
             cs->cams, cs->checked, cs->max_err);
    else
      printf("%d camera(s): CHECK FAILED: %s\n", cs->cams, cs->check_err);
    failed += cs->check_state != ST_OK;
    cs->copy_state = measure_copy(cs, cs->copy_err, sizeof cs->copy_err) ? ST_ERROR : ST_OK;
    if (cs->copy_state == ST_OK) {
      printf("%d camera(s): copy equivalent (ms, median):", cs->cams);
      for (int s = 0; s < NSTAGES; s++)
        printf(" %s %.4f (%.1f MB)", STAGE_NAME[s], cs->copy_stage[s].med,
               cs->stage_bytes[s] / 1e6);
      printf("; sum %.4f\n", cs->copy_sum);
    } else {
      printf("%d camera(s): copy equivalent failed: %s\n", cs->cams, cs->copy_err);
      failed++;
    }
    for (int m = 0; m < NMODES; m++) {
      if (cs->check_state != ST_OK) {
        snprintf(cs->jet[m].err, sizeof cs->jet[m].err, "not run: the output check failed");
        continue;
      }
      run_jet_mode(cs, m);
      failed += cs->jet[m].state == ST_ERROR;
    }
    run_npp(cs);
    read_peer(peer_text, cs);
    free_camset(cs);
    printf("\n");
  }

  printf("%-6s %4s  %-10s %10s %9s %9s %9s %9s %8s %s\n", "chain", "cams", "mode", "gpu med",
         "gpu p99", "lat med", "lat p99", "lat gpu", "/copy", "target");
  for (int i = 0; i < nsets; i++) {
    camset *cs = &sets[i];
    char vs[96];
    for (int m = 0; m < NMODES; m++) {
      const result *r = &cs->jet[m];
      snprintf(vs, sizeof vs, "<=%.1fx copy: %s", RATIO_TARGET, r->met ? "met" : "NOT met");
      print_result(cs, "jetrt", MODE_NAME[m], r, vs);
    }
    for (int g = 0; g < 2; g++) {
      snprintf(vs, sizeof vs, "NPP/jetrt %.2fx (>=%.0fx): %s", cs->npp_ratio[g], PEER_TARGET,
               cs->npp[g].met ? "met" : "NOT met");
      print_result(cs, "npp", g ? "graph" : "stream", &cs->npp[g], vs);
    }
    if (cs->peer_ok)
      printf("cvcuda %4d  %-10s %9.4f  (copy %.4f); normalised CV-CUDA/jetrt(stream) %.2fx "
             "(>=%.0fx): %s\n",
             cs->cams, "stream", cs->peer_frame_ms, cs->peer_copy_ms, cs->peer_ratio, PEER_TARGET,
             cs->peer_ratio >= PEER_TARGET ? "met" : "NOT met");
    else if (peer)
      printf("cvcuda %4d  no usable cam%d_frame_median_ms / cam%d_copy_sum_ms in %s\n", cs->cams,
             cs->cams, cs->cams, peer);
  }
  printf("\ntimes in ms per frame; /copy: gpu median over the copy equivalent; lat gpu: GPU time "
         "of the latency frames (events around one frame on an idle GPU)\n");

  /* summary: per camera count the best jetrt mode against the copy target,
   * NPP mode for mode, CV-CUDA against the stream mode */
  char summary[4096] = "summary:";
  int targets = 0, met = 0;
  for (int i = 0; i < nsets; i++) {
    camset *cs = &sets[i];
    int best = -1;
    for (int m = 0; m < NMODES; m++)
      if (cs->jet[m].state == ST_OK && (best < 0 || cs->jet[m].gpu.med < cs->jet[best].gpu.med))
        best = m;
    append(summary, sizeof summary, " %dcam: check %s;", cs->cams,
           cs->check_state == ST_OK ? "passed" : "FAILED");
    targets++;
    if (best >= 0) {
      const result *r = &cs->jet[best];
      met += r->met;
      append(summary, sizeof summary,
             " best %s %.4f ms (p99 %.4f, latency %.4f/%.4f) = %.2fx copy %.4f (<=%.1fx %s);",
             MODE_NAME[best], r->gpu.med, r->gpu.p99, r->lat.med, r->lat.p99, r->ratio,
             cs->copy_sum, RATIO_TARGET, r->met ? "met" : "NOT met");
      const char *sep = " ms:";
      for (int m = 0; m < NMODES; m++)
        if (cs->jet[m].state == ST_OK) {
          append(summary, sizeof summary, "%s %s %.4f", sep, MODE_NAME[m], cs->jet[m].gpu.med);
          sep = ",";
        }
      append(summary, sizeof summary, ";");
    } else {
      append(summary, sizeof summary, " jetrt failed (NOT met);");
    }
    for (int g = 0; g < 2; g++) {
      if (cs->npp[g].state == ST_NA) continue;
      targets++;
      met += cs->npp[g].met;
      if (cs->npp[g].state == ST_OK)
        append(summary, sizeof summary, " NPP %s %.2fx (>=2x %s);", g ? "graph" : "stream",
               cs->npp_ratio[g], cs->npp[g].met ? "met" : "NOT met");
      else
        append(summary, sizeof summary, " NPP %s error (NOT met);", g ? "graph" : "stream");
    }
    if (peer) {
      targets++;
      int ok = cs->peer_ok && cs->peer_ratio >= PEER_TARGET;
      met += ok;
      if (cs->peer_ok)
        append(summary, sizeof summary, " CV-CUDA %.2fx (>=2x %s);", cs->peer_ratio,
               ok ? "met" : "NOT met");
      else
        append(summary, sizeof summary, " CV-CUDA n/a (NOT met);");
    }
  }
  append(summary, sizeof summary, " %s; %s; targets met %d/%d; %d failures; %.1f s",
         B.pdl_why, peer ? "CV-CUDA from the peer file" : "CV-CUDA not compared (no --peer)", met,
         targets, failed, jet_sample_now() - t_start);
  if (write_json(json_path, sets, nsets, peer, summary))
    fprintf(stderr, "jet-pipeline: could not write %s\n", json_path);
  else
    printf("json: %s\n", json_path);

  for (int i = 0; i < nsets; i++) free(sets[i].stream_out);
  free(peer_text);
  free(B.t0);
  free(B.t1);
  free(B.t2);
  for (int s = 0; s < NSTAGES; s++) free(B.ts[s]);
  cudaFree(B.primer);
  cudaFree(B.copy_src);
  cudaFree(B.copy_a);
  cudaFree(B.copy_b);
  for (size_t i = 0; i < sizeof B.ev / sizeof B.ev[0]; i++) cudaEventDestroy(B.ev[i]);
  cudaEventDestroy(B.primed);
  cudaEventDestroy(B.lat_a);
  cudaEventDestroy(B.lat_b);
  jet_stream_destroy(B.js);
  jet_context_destroy(B.ctx);
  printf("%s\n", summary);
  return failed ? 1 : 0;
}

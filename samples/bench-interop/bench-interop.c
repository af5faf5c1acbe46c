/*
 * jet-bench-interop: what jetrt's graphics interop costs per frame against the
 * same raw CUDA calls, measured in the same run.
 *
 *  - EGLStream consumer: acquire + mapped frame + release of a 1080p NV12
 *    frame (jet_egl_consumer_acquire/release against
 *    cudaEGLStreamConsumerAcquireFrame + cudaGraphicsResourceGetMappedEglFrame
 *    + cudaEGLStreamConsumerReleaseFrame), on two identical streams.
 *  - GL buffer: map + pointer + unmap of a registered 8 MiB pixel buffer
 *    (jet_gl_map/jet_gl_mapped_pointer/jet_gl_unmap against
 *    cudaGraphicsMapResources + GetMappedPointer + UnmapResources).
 *
 * These are host-side API costs (the GPU does no work in them), so they are
 * timed with the host's monotonic clock around the calls; the producer's
 * present and return are outside the timed region. The two variants
 * alternate in blocks of 100 so that drift hits both. Median and p99 over
 * --frames (default 10000) each. Both paths hand the consumer the producer's
 * memory: the bench checks the acquired frame's address is the presented one.
 *
 * Usage: jet-bench-interop [--frames N]
 * Exit: 0 ok, 2 no GPU or no EGL device, 1 failure. The last line is a summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <cuda_egl_interop.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include "jetrt.h"

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct stats {
  double median, p99;
} stats;

static stats summarize(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  stats s = {v[n / 2], v[(int)((n - 1) * 0.99)]};
  return s;
}

#define TRY(x)                                                               \
  do {                                                                       \
    jet_status st_ = (x);                                                    \
    if (st_ != JET_STATUS_OK) {                                              \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, jet_last_error_string()); \
      return 1;                                                              \
    }                                                                        \
  } while (0)
#define CU(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

enum { W = 1920, H = 1080, NIMG = 3, BLOCK = 100 };

/* One producer/consumer pair; the consumer side is jetrt's or raw CUDA's. */
typedef struct pair {
  void *stream;
  jet_egl_producer prod;
  jet_egl_consumer cons;     /* jetrt side */
  cudaEglStreamConnection raw; /* raw side */
  int is_raw;
  jet_image img[NIMG];
  jet_image free_list[NIMG];
  int nfree;
} pair;

static int pair_open(jet_context ctx, jet_egl egl, int is_raw, pair *p) {
  memset(p, 0, sizeof *p);
  p->is_raw = is_raw;
  jet_egl_stream_desc sd = {4, 0};
  TRY(jet_egl_stream_create(egl, &sd, &p->stream));
  if (is_raw)
    CU(cudaEGLStreamConsumerConnect(&p->raw, (EGLStreamKHR)p->stream));
  else
    TRY(jet_egl_consumer_connect(egl, p->stream, 0, &p->cons));
  TRY(jet_egl_producer_connect(egl, p->stream, W, H, &p->prod));
  for (int i = 0; i < NIMG; i++) {
    TRY(jet_image_create(ctx, JET_FORMAT_NV12, W, H, &p->img[i]));
    p->free_list[p->nfree++] = p->img[i];
  }
  return 0;
}

static int pair_close(jet_egl egl, pair *p) {
  TRY(jet_egl_producer_disconnect(p->prod));
  if (p->is_raw)
    CU(cudaEGLStreamConsumerDisconnect(&p->raw));
  else
    TRY(jet_egl_consumer_disconnect(p->cons));
  TRY(jet_egl_stream_destroy(egl, p->stream));
  for (int i = 0; i < NIMG; i++) TRY(jet_image_destroy(p->img[i]));
  return 0;
}

/* One frame: present (untimed), acquire+map+release (timed), take back what returns. */
static int frame(pair *p, jet_stream s, double *us, int *same_memory) {
  if (p->nfree == 0) {
    fprintf(stderr, "no image came back from the stream\n");
    return 1;
  }
  jet_image cur = p->free_list[--p->nfree];
  TRY(jet_egl_producer_present(p->prod, cur, s));
  jet_image_plane_info pi;
  TRY(jet_image_get_plane(cur, 0, &pi));
  void *got = NULL;
  double t0, t1;
  if (p->is_raw) {
    cudaStream_t cu = NULL; /* jetrt's stream below is created with default flags: a plain stream */
    TRY(jet_stream_native(s, (void **)&cu));
    cudaGraphicsResource_t r;
    cudaEglFrame f;
    t0 = now_us();
    CU(cudaEGLStreamConsumerAcquireFrame(&p->raw, &r, &cu, 1000000));
    CU(cudaGraphicsResourceGetMappedEglFrame(&f, r, 0, 0));
    got = f.frame.pPitch[0].ptr;
    CU(cudaEGLStreamConsumerReleaseFrame(&p->raw, r, &cu));
    t1 = now_us();
  } else {
    jet_egl_frame f;
    t0 = now_us();
    TRY(jet_egl_consumer_acquire(p->cons, s, 1000000, &f));
    got = f.planes[0].ptr;
    TRY(jet_egl_consumer_release(p->cons, &f, s));
    t1 = now_us();
  }
  *us = t1 - t0;
  if (got != pi.ptr) *same_memory = 0;
  jet_image back;
  while (jet_egl_producer_return(p->prod, s, 0, &back) == JET_STATUS_OK)
    p->free_list[p->nfree++] = back;
  return 0;
}

static int bench_stream(jet_context ctx, jet_stream s, jet_egl egl, int frames, stats *jet,
                        stats *raw, int *same_memory) {
  pair pj, pr;
  if (pair_open(ctx, egl, 0, &pj) || pair_open(ctx, egl, 1, &pr)) return 1;
  double *tj = malloc(sizeof(double) * frames), *tr = malloc(sizeof(double) * frames);
  for (int w = 0; w < 200; w++) { /* warm-up */
    double d;
    if (frame(&pj, s, &d, same_memory) || frame(&pr, s, &d, same_memory)) return 1;
  }
  *same_memory = 1;
  for (int done = 0; done < frames; done += BLOCK)
    for (int k = 0; k < 2; k++)
      for (int i = done; i < done + BLOCK && i < frames; i++)
        if (frame(k ? &pr : &pj, s, k ? &tr[i] : &tj[i], same_memory)) return 1;
  *jet = summarize(tj, frames);
  *raw = summarize(tr, frames);
  free(tj);
  free(tr);
  /* Whether the consumer reads the producer's memory (zero-copy), even at
   * another address: write into the presented image while the frame is held,
   * and look for the write through the acquired frame. */
  jet_image cur = pj.free_list[--pj.nfree];
  TRY(jet_egl_producer_present(pj.prod, cur, s));
  jet_egl_frame f;
  TRY(jet_egl_consumer_acquire(pj.cons, s, 1000000, &f));
  jet_image_plane_info pi;
  TRY(jet_image_get_plane(cur, 0, &pi));
  unsigned char probe[16];
  CU(cudaMemset(f.planes[0].ptr, 0x11, sizeof probe));
  CU(cudaMemset(pi.ptr, 0x5a, sizeof probe));
  CU(cudaDeviceSynchronize());
  CU(cudaMemcpy(probe, f.planes[0].ptr, sizeof probe, cudaMemcpyDeviceToHost));
  *same_memory = probe[0] == 0x5a ? (*same_memory ? 2 : 1) : 0;
  TRY(jet_egl_consumer_release(pj.cons, &f, s));
  jet_image back;
  while (jet_egl_producer_return(pj.prod, s, 1000, &back) == JET_STATUS_OK)
    pj.free_list[pj.nfree++] = back;
  return pair_close(egl, &pj) || pair_close(egl, &pr);
}

static int bench_gl(jet_context ctx, jet_stream s, int frames, stats *jet, stats *raw) {
  GLuint buf[2];
  glGenBuffers(2, buf);
  for (int i = 0; i < 2; i++) {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buf[i]);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, 8 << 20, NULL, GL_DYNAMIC_DRAW);
  }
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glFinish();
  if (glGetError() != GL_NO_ERROR) {
    fprintf(stderr, "GL buffer creation failed\n");
    return 1;
  }
  jet_gl_resource r;
  TRY(jet_gl_register_buffer(ctx, buf[0], 0, &r));
  cudaGraphicsResource_t rr;
  CU(cudaGraphicsGLRegisterBuffer(&rr, buf[1], cudaGraphicsRegisterFlagsNone));
  cudaStream_t cu = NULL;
  TRY(jet_stream_native(s, (void **)&cu));
  double *tj = malloc(sizeof(double) * frames), *tr = malloc(sizeof(double) * frames);
  for (int pass = 0; pass < 2; pass++) {
    int n = pass ? frames : 200;
    for (int done = 0; done < n; done += BLOCK)
      for (int k = 0; k < 2; k++)
        for (int i = done; i < done + BLOCK && i < n; i++) {
          void *p = NULL;
          size_t bytes = 0;
          double t0 = now_us();
          if (k) {
            CU(cudaGraphicsMapResources(1, &rr, cu));
            CU(cudaGraphicsResourceGetMappedPointer(&p, &bytes, rr));
            CU(cudaGraphicsUnmapResources(1, &rr, cu));
          } else {
            TRY(jet_gl_map(r, s));
            TRY(jet_gl_mapped_pointer(r, &p, &bytes));
            TRY(jet_gl_unmap(r, s));
          }
          double t1 = now_us();
          if (pass) (k ? tr : tj)[i] = t1 - t0;
          if (!p || bytes != (size_t)8 << 20) {
            fprintf(stderr, "mapped %zu bytes at %p\n", bytes, p);
            return 1;
          }
        }
  }
  *jet = summarize(tj, frames);
  *raw = summarize(tr, frames);
  free(tj);
  free(tr);
  TRY(jet_gl_unregister(r));
  CU(cudaGraphicsUnregisterResource(rr));
  glDeleteBuffers(2, buf);
  return 0;
}

int main(int argc, char **argv) {
  int frames = 10000;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--frames") == 0 && a + 1 < argc) frames = atoi(argv[++a]);
    else {
      fprintf(stderr, "usage: jet-bench-interop [--frames N]\n");
      return 1;
    }
  }
  if (frames < 100) frames = 100;
  int n = 0;
  if (jet_device_count(&n) != JET_STATUS_OK || n == 0) {
    printf("jet-bench-interop: no CUDA device (%s)\n", jet_last_error_string());
    return 2;
  }
  jet_context ctx;
  jet_stream s;
  jet_egl egl;
  TRY(jet_context_create(&ctx, NULL));
  TRY(jet_stream_create(ctx, NULL, &s));
  if (jet_egl_open(ctx, NULL, &egl) != JET_STATUS_OK) {
    printf("jet-bench-interop: no EGL device for CUDA device 0 (%s)\n", jet_last_error_string());
    return 2;
  }
  stats sj, sr, gj, gr;
  int same = 0;
  if (bench_stream(ctx, s, egl, frames, &sj, &sr, &same)) return 1;
  jet_presenter pres;
  jet_presenter_desc pd = {64, 64, NULL, 0};
  TRY(jet_presenter_create(egl, &pd, &pres));
  if (bench_gl(ctx, s, frames, &gj, &gr)) return 1;
  TRY(jet_presenter_destroy(pres));
  printf("%-44s %10s %10s %10s %10s %8s %8s\n", "per frame, host us (median over N)", "jetrt med",
         "jetrt p99", "raw med", "raw p99", "ratio", "p99 ratio");
  printf("%-44s %10.2f %10.2f %10.2f %10.2f %8.3f %8.3f\n",
         "EGLStream acquire+map+release 1080p NV12", sj.median, sj.p99, sr.median, sr.p99,
         sj.median / sr.median, sj.p99 / sr.p99);
  printf("%-44s %10.2f %10.2f %10.2f %10.2f %8.3f %8.3f\n", "GL buffer map+pointer+unmap 8 MiB",
         gj.median, gj.p99, gr.median, gr.p99, gj.median / gr.median, gj.p99 / gr.p99);
  printf("consumer reads the producer's memory: %s\n",
         same == 2   ? "yes, at the same address (zero-copy)"
         : same == 1 ? "yes, through another mapping (zero-copy)"
                     : "NO: the driver gave the consumer a copy");
  TRY(jet_egl_close(egl));
  TRY(jet_stream_destroy(s));
  TRY(jet_context_destroy(ctx));
  printf("jet-bench-interop: %d frames; EGLStream %.3fx raw (median), GL map %.3fx raw (median); "
         "target <= 1.1x: %s\n",
         frames, sj.median / sr.median, gj.median / gr.median,
         sj.median / sr.median <= 1.1 && gj.median / gr.median <= 1.1 ? "met" : "NOT met");
  return 0;
}

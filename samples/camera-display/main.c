/*
 * camera-display: camera -> EGLStream -> CUDA -> display, headless.
 *
 * A synthetic camera thread renders NV12 1920x1080 frames with a CUDA kernel
 * (pattern.cu: moving bands and disc, the frame number drawn into the Y plane)
 * and presents them into an EGLStream as its CUDA producer. The main thread is
 * the stream's CUDA consumer: it acquires each frame (no copy), converts it to
 * RGBA8 (jet_convert_color), blurs it (Gaussian 5x5) and shows it with a
 * jet_presenter on a pbuffer of the CUDA device's own EGL display (no X
 * server). Every --png-every frames it reads the surface back and writes a
 * PNG. It ends with the frame rate and each stage's median and p99 latency.
 *
 * Usage: camera-display [--frames N] [--png-every N] [--out DIR]
 *   --frames N      frames to show (default 600)
 *   --png-every N   write DIR/frame_NNNNNN.png every N frames; 0: never (default 100)
 *   --out DIR       where PNGs go (default .; created if missing)
 * Exit codes: 0 ok; 2 no CUDA device, or no EGL display/stream/GL for it (the
 * reason is printed); 1 any other failure.
 *
 * Latencies are host clock (CLOCK_MONOTONIC) around each stage, with a stream
 * synchronisation closing the stage: acquire = consumer acquire (and, for a
 * block-linear frame, its copy to pitch-linear); convert; filter; present =
 * CUDA copy into the presenter's texture, GL draw and flush (GL completion is
 * not waited for).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "jetrt.h"
#include "camera-display_kernels.h" /* generated: cam_images_pattern */

#define W 1920
#define H 1080
#define FIFO 4 /* EGLStream FIFO length (mailbox where FIFOs are missing) */
#define POOL 4 /* camera images cycling through the stream: no more than the FIFO holds */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ PNG (zlib) */

static void put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

static int chunk(FILE *f, const char *type, const unsigned char *data, uint32_t n) {
  unsigned char hdr[8], crc[4];
  put32(hdr, n);
  memcpy(hdr + 4, type, 4);
  uLong c = crc32(0L, (const Bytef *)type, 4);
  if (n) c = crc32(c, data, n);
  put32(crc, (uint32_t)c);
  return fwrite(hdr, 1, 8, f) == 8 && (n == 0 || fwrite(data, 1, n, f) == n) &&
         fwrite(crc, 1, 4, f) == 4;
}

/* RGBA8, 8 bits per channel, no interlace, filter 0 on every row. */
static int write_png(const char *path, const unsigned char *rgba, size_t pitch, int w, int h) {
  size_t row = (size_t)w * 4 + 1, raw_n = row * (size_t)h;
  unsigned char *raw = malloc(raw_n);
  uLongf z_n = compressBound((uLong)raw_n);
  unsigned char *z = malloc(z_n);
  int ok = raw && z;
  for (int y = 0; ok && y < h; y++) {
    raw[row * (size_t)y] = 0;
    memcpy(raw + row * (size_t)y + 1, rgba + pitch * (size_t)y, row - 1);
  }
  if (ok && compress2(z, &z_n, raw, (uLong)raw_n, 6) != Z_OK) ok = 0;
  FILE *f = ok ? fopen(path, "wb") : NULL;
  if (f) {
    static const unsigned char sig[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
    unsigned char ihdr[13] = {0};
    put32(ihdr, (uint32_t)w);
    put32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8; /* bit depth */
    ihdr[9] = 6; /* RGBA */
    ok = fwrite(sig, 1, 8, f) == 8 && chunk(f, "IHDR", ihdr, 13) &&
         chunk(f, "IDAT", z, (uint32_t)z_n) && chunk(f, "IEND", NULL, 0);
    ok = (fclose(f) == 0) && ok;
  } else {
    ok = 0;
  }
  free(raw);
  free(z);
  return ok;
}

/* ------------------------------------------------------------ statistics */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median and p99 (nearest rank) of @n values, in place (sorts them). */
static void stats(double *v, int n, double *median, double *p99) {
  *median = *p99 = 0.0;
  if (n <= 0) return;
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  int k = (int)((99L * n + 99) / 100); /* ceil(0.99 n) */
  *p99 = v[k - 1];
}

/* ------------------------------------------------------------ camera thread */

typedef struct camera {
  jet_context ctx;
  jet_egl_producer prod;
  jet_kernel kernel;
  jet_image pool[POOL];
  atomic_int stop;    /* set by the main thread once it has shown enough */
  int failed;         /* read after join */
  char why[600];
  int presented;
} camera;

static void cam_fail(camera *c, const char *what, jet_status st) {
  c->failed = 1;
  snprintf(c->why, sizeof c->why, "%s: %s", what,
           st == JET_STATUS_OK ? "failed" : jet_last_error_string());
}

/* The next image the stream gave back; 0 when one came, 1 when the camera
 * should stop (consumer gone or told to). */
static int take_back(camera *c, jet_stream s, jet_image *img) {
  for (int waited = 0;; waited++) {
    jet_status st = jet_egl_producer_return(c->prod, s, 200000, img);
    if (st == JET_STATUS_OK) return 0;
    if (st == JET_STATUS_DISCONNECTED || atomic_load(&c->stop)) return 1;
    if (st != JET_STATUS_TIMEOUT || waited >= 50) { /* 10 s without a frame back */
      cam_fail(c, "jet_egl_producer_return", st);
      return 1;
    }
  }
}

static void *camera_main(void *arg) {
  camera *c = arg;
  jet_stream s = NULL;
  int outstanding = 0;
  jet_status st = jet_stream_create(c->ctx, NULL, &s);
  if (st != JET_STATUS_OK) {
    cam_fail(c, "jet_stream_create", st);
    goto out;
  }
  /* Frames until told to stop: a mailbox stream drops some, so the camera
   * cannot know how many the display needs. */
  for (int f = 0; !atomic_load(&c->stop); f++) {
    jet_image img = NULL;
    if (f < POOL) {
      img = c->pool[f];
    } else {
      if (take_back(c, s, &img)) break;
      outstanding--;
    }
    jet_image_plane_info py, puv;
    jet_image_get_plane(img, 0, &py);
    jet_image_get_plane(img, 1, &puv);
    unsigned long long yp = py.pitch, uvp = puv.pitch;
    int w = W, h = H;
    unsigned frame = (unsigned)f;
    void *args[] = {&py.ptr, &yp, &puv.ptr, &uvp, &w, &h, &frame};
    jet_dim3 block = {16, 16, 1}, grid = {(W / 2 + 15) / 16, (H / 2 + 15) / 16, 1};
    st = jet_launch(s, c->kernel, grid, block, 0, args);
    if (st != JET_STATUS_OK) {
      cam_fail(c, "jet_launch (pattern)", st);
      break;
    }
    st = jet_egl_producer_present(c->prod, img, s);
    if (st == JET_STATUS_DISCONNECTED) break;
    if (st != JET_STATUS_OK) {
      cam_fail(c, "jet_egl_producer_present", st);
      break;
    }
    outstanding++;
    c->presented++;
  }
  /* Take back what the consumer still releases; the rest stays in the stream
   * until both ends have disconnected (then the pool may go). */
  while (outstanding > 0 && !c->failed) {
    jet_image img;
    if (take_back(c, s, &img)) break;
    outstanding--;
  }
  st = jet_stream_synchronize(s);
  if (st != JET_STATUS_OK && !c->failed) cam_fail(c, "jet_stream_synchronize", st);
out:
  st = jet_egl_producer_disconnect(c->prod);
  if (st != JET_STATUS_OK && !c->failed) cam_fail(c, "jet_egl_producer_disconnect", st);
  c->prod = NULL;
  jet_stream_destroy(s);
  return NULL;
}

/* ------------------------------------------------------------ main */

static void usage(void) {
  fprintf(stderr, "usage: camera-display [--frames N] [--png-every N] [--out DIR]\n");
}

/* 2 for "this machine cannot run it" statuses, else 1; prints why. */
static int fail(const char *what, jet_status st) {
  int no_device = st == JET_STATUS_NO_DEVICE || st == JET_STATUS_UNSUPPORTED ||
                  st == JET_STATUS_NOT_BUILT_IN;
  fprintf(stderr, "camera-display: %s%s: %s\n", no_device ? "cannot run here: " : "", what,
          jet_last_error_string());
  return no_device ? 2 : 1;
}

typedef struct app {
  jet_context ctx;
  jet_egl egl;
  void *stream;
  jet_egl_consumer cons;
  jet_presenter pres;
  jet_module mod;
  jet_stream s;
  jet_image rgba, blurred, nv12_copy;
  camera cam;
  int cam_started;
  pthread_t cam_thread;
} app;

static int run(app *a, int frames, int png_every, const char *out_dir) {
  jet_status st;
  int count = 0;
  if ((st = jet_device_count(&count)) != JET_STATUS_OK) return fail("no CUDA device or driver", st);
  if (count == 0) {
    fprintf(stderr, "camera-display: cannot run here: no CUDA device\n");
    return 2;
  }
  if ((st = jet_context_create(&a->ctx, NULL)) != JET_STATUS_OK) return fail("jet_context_create", st);
  if ((st = jet_egl_open(a->ctx, NULL, &a->egl)) != JET_STATUS_OK)
    return fail("no headless EGL display for the CUDA device (jet_egl_open)", st);
  jet_egl_info info;
  jet_egl_get_info(a->egl, &info);
  jet_egl_stream_desc sd = {info.stream_fifo ? FIFO : 0, 0};
  if ((st = jet_egl_stream_create(a->egl, &sd, &a->stream)) != JET_STATUS_OK)
    return fail("jet_egl_stream_create", st);
  jet_presenter_desc pd = {W, H, NULL, 0};
  if ((st = jet_presenter_create(a->egl, &pd, &a->pres)) != JET_STATUS_OK)
    return fail("jet_presenter_create", st);
  jet_presenter_info pi;
  jet_presenter_get_info(a->pres, &pi);
  printf("camera-display: EGL %d.%d (%s), %s stream; presenter %dx%d pbuffer, %s (%s)\n",
         info.major, info.minor, info.vendor, sd.fifo_length ? "FIFO" : "mailbox", pi.width,
         pi.height, pi.renderer, pi.gl_es ? "OpenGL ES 3" : "OpenGL core");

  if ((st = jet_module_load(a->ctx, &cam_images_pattern, NULL, &a->mod)) != JET_STATUS_OK)
    return fail("jet_module_load (pattern)", st);
  if ((st = jet_module_kernel(a->mod, "camera_pattern", &a->cam.kernel)) != JET_STATUS_OK)
    return fail("jet_module_kernel", st);
  if ((st = jet_stream_create(a->ctx, NULL, &a->s)) != JET_STATUS_OK)
    return fail("jet_stream_create", st);
  if ((st = jet_image_create(a->ctx, JET_FORMAT_RGBA8, W, H, &a->rgba)) != JET_STATUS_OK ||
      (st = jet_image_create(a->ctx, JET_FORMAT_RGBA8, W, H, &a->blurred)) != JET_STATUS_OK ||
      (st = jet_image_create(a->ctx, JET_FORMAT_NV12, W, H, &a->nv12_copy)) != JET_STATUS_OK)
    return fail("jet_image_create", st);
  for (int i = 0; i < POOL; i++)
    if ((st = jet_image_create(a->ctx, JET_FORMAT_NV12, W, H, &a->cam.pool[i])) != JET_STATUS_OK)
      return fail("jet_image_create (camera pool)", st);

  /* The consumer connects first, then the producer. */
  if ((st = jet_egl_consumer_connect(a->egl, a->stream, 0, &a->cons)) != JET_STATUS_OK)
    return fail("jet_egl_consumer_connect", st);
  if ((st = jet_egl_producer_connect(a->egl, a->stream, W, H, &a->cam.prod)) != JET_STATUS_OK)
    return fail("jet_egl_producer_connect", st);
  a->cam.ctx = a->ctx;
  atomic_init(&a->cam.stop, 0);
  if (pthread_create(&a->cam_thread, NULL, camera_main, &a->cam) != 0) {
    fprintf(stderr, "camera-display: pthread_create failed\n");
    return 1;
  }
  a->cam_started = 1;

  if (png_every > 0 && mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "camera-display: cannot create %s: %s\n", out_dir, strerror(errno));
    return 1;
  }
  double *lat[4];
  for (int k = 0; k < 4; k++) {
    lat[k] = calloc((size_t)frames, sizeof(double));
    if (!lat[k]) return 1;
  }
  size_t rpitch = (size_t)W * 4;
  unsigned char *readback = png_every > 0 ? malloc(rpitch * H) : NULL;
  if (png_every > 0 && !readback) return 1;

  int shown = 0, pngs = 0, rc = 0, timeouts = 0;
  double png_s = 0.0, t_start = now_s();
  while (shown < frames) {
    double t0 = now_s();
    jet_egl_frame fr;
    st = jet_egl_consumer_acquire(a->cons, a->s, 1000000, &fr);
    if (st == JET_STATUS_TIMEOUT && ++timeouts < 10) continue;
    if (st == JET_STATUS_DISCONNECTED) {
      fprintf(stderr, "camera-display: the camera stopped after %d frames\n", shown);
      break;
    }
    if (st != JET_STATUS_OK) {
      rc = fail("jet_egl_consumer_acquire", st);
      break;
    }
    timeouts = 0;
    jet_image src = fr.image;
    if (!src) { /* block-linear frame: copy it out first */
      src = a->nv12_copy;
      st = jet_egl_frame_copy(&fr, src, a->s);
    }
    if (st == JET_STATUS_OK) st = jet_stream_synchronize(a->s);
    double t1 = now_s();
    if (st == JET_STATUS_OK)
      st = jet_convert_color(a->s, src, a->rgba, fr.matrix, fr.range);
    if (st == JET_STATUS_OK) st = jet_stream_synchronize(a->s);
    double t2 = now_s();
    jet_status rst = jet_egl_consumer_release(a->cons, &fr, a->s);
    if (st == JET_STATUS_OK) st = rst;
    if (st == JET_STATUS_OK)
      st = jet_filter_gaussian(a->s, a->rgba, a->blurred, 5, 0.0, JET_BORDER_REPLICATE, NULL);
    if (st == JET_STATUS_OK) st = jet_stream_synchronize(a->s);
    double t3 = now_s();
    if (st == JET_STATUS_OK) st = jet_presenter_draw(a->pres, a->blurred, a->s);
    double t4 = now_s();
    if (st != JET_STATUS_OK) {
      rc = fail("processing a frame", st);
      break;
    }
    lat[0][shown] = (t1 - t0) * 1e3;
    lat[1][shown] = (t2 - t1) * 1e3;
    lat[2][shown] = (t3 - t2) * 1e3;
    lat[3][shown] = (t4 - t3) * 1e3;
    if (png_every > 0 && shown % png_every == 0) {
      double p0 = now_s();
      char path[4096];
      snprintf(path, sizeof path, "%s/frame_%06d.png", out_dir, shown);
      if ((st = jet_presenter_read(a->pres, readback, rpitch)) != JET_STATUS_OK) {
        rc = fail("jet_presenter_read", st);
        break;
      }
      if (!write_png(path, readback, rpitch, W, H)) {
        fprintf(stderr, "camera-display: cannot write %s: %s\n", path, strerror(errno));
        rc = 1;
        break;
      }
      pngs++;
      png_s += now_s() - p0;
    }
    shown++;
  }
  double wall = now_s() - t_start - png_s;
  if (st == JET_STATUS_TIMEOUT && rc == 0) rc = fail("no frame from the camera in 10 s", st);

  atomic_store(&a->cam.stop, 1);
  pthread_join(a->cam_thread, NULL);
  a->cam_started = 0;
  if (a->cam.failed) {
    fprintf(stderr, "camera-display: camera thread: %s\n", a->cam.why);
    if (rc == 0) rc = 1;
  }
  if (rc == 0 && shown < frames) rc = 1;

  if (shown > 0) {
    printf("%d frames %dx%d NV12 (camera presented %d) in %.2f s: %.1f frames/s "
           "(PNG writing excluded: %d file(s), %.2f s)\n",
           shown, W, H, a->cam.presented, wall, wall > 0 ? shown / wall : 0.0, pngs, png_s);
    printf("latency per stage, ms (host clock around each stage, closed by a stream sync):\n");
    printf("  %-8s %9s %9s\n", "stage", "median", "p99");
    static const char *names[4] = {"acquire", "convert", "filter", "present"};
    for (int k = 0; k < 4; k++) {
      double med, p99;
      stats(lat[k], shown, &med, &p99);
      printf("  %-8s %9.3f %9.3f\n", names[k], med, p99);
    }
    if (pngs) printf("PNGs in %s (every %d frames)\n", out_dir, png_every);
  }
  for (int k = 0; k < 4; k++) free(lat[k]);
  free(readback);
  return rc;
}

/* Release in reverse order; whatever failed earlier leaves NULLs (no-ops). */
static void teardown(app *a) {
  if (a->cam_started) {
    atomic_store(&a->cam.stop, 1);
    pthread_join(a->cam_thread, NULL);
  } else if (a->cam.prod) {
    jet_egl_producer_disconnect(a->cam.prod);
  }
  jet_egl_consumer_disconnect(a->cons);
  if (a->stream) jet_egl_stream_destroy(a->egl, a->stream);
  for (int i = 0; i < POOL; i++) jet_image_destroy(a->cam.pool[i]);
  jet_image_destroy(a->rgba);
  jet_image_destroy(a->blurred);
  jet_image_destroy(a->nv12_copy);
  jet_stream_destroy(a->s);
  jet_module_destroy(a->mod);
  jet_presenter_destroy(a->pres);
  jet_egl_close(a->egl);
  if (a->ctx && jet_context_destroy(a->ctx) != JET_STATUS_OK)
    fprintf(stderr, "camera-display: jet_context_destroy: %s\n", jet_last_error_string());
}

int main(int argc, char **argv) {
  int frames = 600, png_every = 100;
  const char *out_dir = ".";
  for (int i = 1; i < argc; i++) {
    const char *opt = argv[i];
    if (i + 1 >= argc) {
      usage();
      return 1;
    }
    char *end = NULL;
    if (strcmp(opt, "--frames") == 0) {
      long v = strtol(argv[++i], &end, 10);
      if (*end || v <= 0 || v > 10000000) {
        usage();
        return 1;
      }
      frames = (int)v;
    } else if (strcmp(opt, "--png-every") == 0) {
      long v = strtol(argv[++i], &end, 10);
      if (*end || v < 0 || v > 10000000) {
        usage();
        return 1;
      }
      png_every = (int)v;
    } else if (strcmp(opt, "--out") == 0) {
      out_dir = argv[++i];
    } else {
      usage();
      return 1;
    }
  }
  app a;
  memset(&a, 0, sizeof a);
  int rc = run(&a, frames, png_every, out_dir);
  teardown(&a);
  return rc;
}

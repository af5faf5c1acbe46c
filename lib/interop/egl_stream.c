/*
 * EGLStreams: the stream object, the CUDA consumer (camera side) and the CUDA
 * producer (display/encoder side). Frames move by reference: no pixel copies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interop_internal.h"
#include "../image/image_internal.h"

#if JET_HAVE_EGL

#define MAX_HELD 4       /* frames one consumer may hold at once */
#define MAX_PRESENTED 16 /* images one producer may have in the stream */

struct jet_egl_consumer_s {
  jet__handle h;
  jet__ctx_resource res;
  struct jet_egl_s *egl;
  EGLStreamKHR stream;
  cudaEglStreamConnection conn;
  int fifo;      /* EGL_STREAM_FIFO_LENGTH_KHR > 0 */
  void *last_id; /* plane 0 of the newest frame acquired: a FIFO's repeats show by it */
  struct {
    cudaGraphicsResource_t res;
    int slot; /* in images, or -1 */
  } held[MAX_HELD];
  int nheld;
  jet__frame_images images;
};

struct jet_egl_producer_s {
  jet__handle h;
  jet__ctx_resource res;
  struct jet_egl_s *egl;
  EGLStreamKHR stream;
  cudaEglStreamConnection conn;
  int width, height;
  jet_image presented[MAX_PRESENTED]; /* in the stream, not yet returned */
};

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ------------------------------------------------------------ the stream */

jet_status jet_egl_stream_create(jet_egl egl, const jet_egl_stream_desc *desc, void **stream) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(stream, "stream is NULL");
  *stream = NULL;
  jet_egl_stream_desc d = {0, 0};
  if (desc) d = *desc;
  JET__ARG(d.fifo_length >= 0 && d.latency_us >= 0, "fifo_length %d, latency_us %d: negative",
           d.fifo_length, d.latency_us);
  JET__TRY(jet__egl_need(egl, "EGL_KHR_stream", __func__));
  if (d.fifo_length > 0) JET__TRY(jet__egl_need(egl, "EGL_KHR_stream_fifo", __func__));
  EGLint a[5];
  int n = 0;
  if (d.fifo_length > 0) {
    a[n++] = EGL_STREAM_FIFO_LENGTH_KHR;
    a[n++] = d.fifo_length;
  }
  if (d.latency_us > 0) {
    a[n++] = EGL_CONSUMER_LATENCY_USEC_KHR;
    a[n++] = d.latency_us;
  }
  a[n] = EGL_NONE;
  EGLStreamKHR s = egl->api->eglCreateStreamKHR(egl->dpy, a);
  if (s == EGL_NO_STREAM_KHR)
    return jet__egl_error(egl->api, __func__, "eglCreateStreamKHR", NULL,
                          "EGLStream (fifo_length %d, latency %d us)", d.fifo_length, d.latency_us);
  *stream = s;
  return JET_STATUS_OK;
}

jet_status jet_egl_stream_destroy(jet_egl egl, void *stream) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  if (!stream) return JET_STATUS_OK;
  JET__TRY(jet__egl_need(egl, "EGL_KHR_stream", __func__));
  if (!egl->api->eglDestroyStreamKHR(egl->dpy, (EGLStreamKHR)stream))
    return jet__egl_error(egl->api, __func__, "eglDestroyStreamKHR", NULL, NULL);
  return JET_STATUS_OK;
}

/* EGL_STREAM_STATE_KHR of @s: 1 when read. On failure the failure is recorded
 * under @fn, or with @fn NULL nothing is (callers that only need a hint). */
static int stream_state(const struct jet_egl_s *egl, EGLStreamKHR s, jet_egl_stream_state *out,
                        const char *fn) {
  EGLint v = 0;
  if (!egl->api->eglQueryStreamKHR(egl->dpy, s, EGL_STREAM_STATE_KHR, &v)) {
    if (fn)
      jet__egl_error(egl->api, fn, "eglQueryStreamKHR", NULL, "EGL_STREAM_STATE_KHR");
    else
      (void)egl->api->eglGetError();
    return 0;
  }
  switch (v) {
    case EGL_STREAM_STATE_CREATED_KHR: *out = JET_EGL_STREAM_CREATED; return 1;
    case EGL_STREAM_STATE_CONNECTING_KHR: *out = JET_EGL_STREAM_CONNECTING; return 1;
    case EGL_STREAM_STATE_EMPTY_KHR: *out = JET_EGL_STREAM_EMPTY; return 1;
    case EGL_STREAM_STATE_NEW_FRAME_AVAILABLE_KHR: *out = JET_EGL_STREAM_NEW_FRAME; return 1;
    case EGL_STREAM_STATE_OLD_FRAME_AVAILABLE_KHR: *out = JET_EGL_STREAM_OLD_FRAME; return 1;
    case EGL_STREAM_STATE_DISCONNECTED_KHR: *out = JET_EGL_STREAM_DISCONNECTED; return 1;
    default:
      if (fn) jet__error(JET_STATUS_EGL_ERROR, fn, "unknown EGL stream state 0x%x", (unsigned)v);
      return 0;
  }
}

jet_status jet_egl_stream_get_state(jet_egl egl, void *stream, jet_egl_stream_state *state) {
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(stream, "stream is NULL");
  JET__ARG(state, "state is NULL");
  JET__TRY(jet__egl_need(egl, "EGL_KHR_stream", __func__));
  if (!stream_state(egl, (EGLStreamKHR)stream, state, __func__)) return jet_last_error()->status;
  return JET_STATUS_OK;
}

/* After a failed stream call: DISCONNECTED when the other end has gone, else
 * @st with the detail its failure recorded (the state query records nothing). */
static jet_status if_disconnected(const struct jet_egl_s *egl, EGLStreamKHR s, jet_status st,
                                  const char *who, const char *fn) {
  jet_egl_stream_state state;
  if (!stream_state(egl, s, &state, NULL) || state != JET_EGL_STREAM_DISCONNECTED) return st;
  char last[256];
  snprintf(last, sizeof last, "%s", jet_last_error_string());
  return jet__error(JET_STATUS_DISCONNECTED, fn, "the EGLStream's %s has disconnected (%.200s)",
                    who, last);
}

/* ------------------------------------------------------------ consumer */

static void release_held(struct jet_egl_consumer_s *c) {
  for (int i = 0; i < c->nheld; i++) {
    cudaGraphicsResource_t r = c->held[i].res;
    if (cudaEGLStreamConsumerReleaseFrame(&c->conn, r, NULL) != cudaSuccess)
      (void)cudaGetLastError();
  }
  c->nheld = 0;
}

static cudaError_t consumer_free(struct jet_egl_consumer_s *c) {
  (void)jet__ctx_activate(c->h.ctx, "jet_egl_consumer_disconnect");
  release_held(c);
  jet__frame_images_clear(&c->images);
  cudaError_t e = cudaEGLStreamConsumerDisconnect(&c->conn);
  jet__egl_disown(c->egl, &c->h);
  free(c);
  return e;
}

static void consumer_release(jet__ctx_resource *r) {
  if (consumer_free((struct jet_egl_consumer_s *)((char *)r -
                                                  offsetof(struct jet_egl_consumer_s, res))) !=
      cudaSuccess)
    (void)cudaGetLastError();
}

jet_status jet_egl_consumer_connect(jet_egl egl, void *stream, unsigned flags,
                                    jet_egl_consumer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(stream, "stream is NULL");
  JET__ARG(!(flags & ~JET_EGL_CONSUMER_SYSMEM), "unknown flags 0x%x",
           flags & ~JET_EGL_CONSUMER_SYSMEM);
  JET__TRY(jet__ctx_activate(egl->h.ctx, __func__));
  struct jet_egl_consumer_s *c = calloc(1, sizeof *c);
  if (!c) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory");
  unsigned loc = (flags & JET_EGL_CONSUMER_SYSMEM) ? cudaEglResourceLocationSysmem
                                                   : cudaEglResourceLocationVidmem;
  cudaError_t e = cudaEGLStreamConsumerConnectWithFlags(&c->conn, (EGLStreamKHR)stream, loc);
  if (e != cudaSuccess) {
    free(c);
    return jet__cuda_error(e, __func__, "cudaEGLStreamConsumerConnectWithFlags",
                           "connect the consumer to a stream in state CREATED, before the "
                           "producer",
                           NULL);
  }
  c->egl = egl;
  c->stream = stream;
  EGLint fifo = 0;
  if (!egl->api->eglQueryStreamKHR(egl->dpy, (EGLStreamKHR)stream, EGL_STREAM_FIFO_LENGTH_KHR,
                                   &fifo))
    (void)egl->api->eglGetError(); /* no FIFO extension: a mailbox stream */
  c->fifo = fifo > 0;
  jet_status st = jet__egl_adopt(egl, &c->h, JET__H_EGL_CONSUMER, &c->res, "EGLStream consumer",
                                 consumer_release, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaEGLStreamConsumerDisconnect(&c->conn);
    free(c);
    return st;
  }
  *out = c;
  return JET_STATUS_OK;
}

jet_status jet_egl_consumer_disconnect(jet_egl_consumer c) {
  if (!c) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(c, JET__H_EGL_CONSUMER, __func__, "consumer"));
  jet__ctx_resource_remove(c->h.ctx, &c->res);
  cudaError_t e = consumer_free(c);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaEGLStreamConsumerDisconnect", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

/* Wait until the stream has a frame the consumer has not acquired (or none at
 * all yet: CUDA waits for the first). DISCONNECTED or TIMEOUT otherwise. */
static jet_status wait_new_frame(struct jet_egl_consumer_s *c, uint64_t deadline,
                                 unsigned timeout_us, const char *fn) {
  for (;;) {
    jet_egl_stream_state state;
    if (!stream_state(c->egl, c->stream, &state, NULL)) return JET_STATUS_OK;
    if (state == JET_EGL_STREAM_DISCONNECTED)
      return jet__error(JET_STATUS_DISCONNECTED, fn,
                        "the EGLStream's producer has disconnected: no frame will come");
    if (state != JET_EGL_STREAM_OLD_FRAME) return JET_STATUS_OK;
    if (now_us() >= deadline)
      return jet__error(JET_STATUS_TIMEOUT, fn,
                        "no new frame within %u us (the stream holds only frames already "
                        "acquired)",
                        timeout_us);
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
  }
}

jet_status jet_egl_consumer_acquire(jet_egl_consumer c, jet_stream stream, unsigned timeout_us,
                                    jet_egl_frame *frame) {
  JET__TRY(jet__handle_check(c, JET__H_EGL_CONSUMER, __func__, "consumer"));
  JET__ARG(frame, "frame is NULL");
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, c->h.ctx, &cu, __func__));
  if (c->nheld >= MAX_HELD)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d frames are held; release one before acquiring another", c->nheld);
  /* EGL hands the newest frame out again when nothing newer came, in mailbox
   * and FIFO modes alike; acquire here means "the next frame", so a repeat is
   * given back and waited out. A mailbox is asked for its state first (a
   * newer frame may sit in the buffer just released). A FIFO skips that query
   * (microseconds a frame): its buffer cannot come back to the producer while
   * the consumer's newest frame is in it, so the same buffer again is a
   * repeat. */
  uint64_t deadline = now_us() + timeout_us;
  if (!c->fifo) JET__TRY(wait_new_frame(c, deadline, timeout_us, __func__));
  cudaGraphicsResource_t r = NULL;
  cudaEglFrame f;
  for (;;) {
    uint64_t t = now_us();
    unsigned left = t < deadline ? (unsigned)(deadline - t) : 0;
    cudaError_t e = cudaEGLStreamConsumerAcquireFrame(&c->conn, &r, &cu, left);
    if (e != cudaSuccess) {
      jet_egl_stream_state state;
      int no_frame = stream_state(c->egl, c->stream, &state, NULL) &&
                     (state == JET_EGL_STREAM_EMPTY || state == JET_EGL_STREAM_OLD_FRAME);
      if (no_frame) {
        /* The desktop driver answers a timeout with cudaErrorUnknown, not
         * cudaErrorLaunchTimeout; the stream's state says what happened. */
        (void)cudaGetLastError();
        return jet__error_native(JET_STATUS_TIMEOUT, __func__,
                                 "cudaEGLStreamConsumerAcquireFrame", cudaGetErrorName(e), (int)e,
                                 NULL, "no new frame within %u us (stream state %s)", timeout_us,
                                 state == JET_EGL_STREAM_EMPTY ? "EMPTY" : "OLD_FRAME_AVAILABLE");
      }
      return if_disconnected(c->egl, c->stream,
                             jet__egl_cuda_error(e, __func__, "cudaEGLStreamConsumerAcquireFrame",
                                                 NULL),
                             "producer", __func__);
    }
    memset(&f, 0, sizeof f);
    e = cudaGraphicsResourceGetMappedEglFrame(&f, r, 0, 0);
    if (e != cudaSuccess) {
      if (cudaEGLStreamConsumerReleaseFrame(&c->conn, r, &cu) != cudaSuccess)
        (void)cudaGetLastError();
      return jet__cuda_error(e, __func__, "cudaGraphicsResourceGetMappedEglFrame", NULL, NULL);
    }
    void *id = f.frameType == cudaEglFrameTypeArray ? (void *)f.frame.pArray[0]
                                                    : f.frame.pPitch[0].ptr;
    if (!c->fifo || id != c->last_id) {
      c->last_id = id;
      break;
    }
    if (cudaEGLStreamConsumerReleaseFrame(&c->conn, r, &cu) != cudaSuccess)
      (void)cudaGetLastError();
    JET__TRY(wait_new_frame(c, deadline, timeout_us, __func__));
  }
  int slot = -1;
  jet_status st = jet__egl_frame_from_cuda(c->h.ctx, &f, r, &c->images, &slot, frame, __func__);
  if (st != JET_STATUS_OK) {
    if (cudaEGLStreamConsumerReleaseFrame(&c->conn, r, &cu) != cudaSuccess)
      (void)cudaGetLastError();
    return st;
  }
  c->held[c->nheld].res = r;
  c->held[c->nheld].slot = slot;
  c->nheld++;
  return JET_STATUS_OK;
}

jet_status jet_egl_consumer_release(jet_egl_consumer c, const jet_egl_frame *frame,
                                    jet_stream stream) {
  JET__TRY(jet__handle_check(c, JET__H_EGL_CONSUMER, __func__, "consumer"));
  JET__ARG(frame, "frame is NULL");
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, c->h.ctx, &cu, __func__));
  int i = 0;
  while (i < c->nheld && c->held[i].res != frame->native) i++;
  JET__ARG(i < c->nheld, "the frame is not held by this consumer (released already?)");
  cudaGraphicsResource_t r = c->held[i].res;
  if (c->held[i].slot >= 0) c->images.held[c->held[i].slot] = 0;
  c->held[i] = c->held[--c->nheld];
  cudaError_t e = cudaEGLStreamConsumerReleaseFrame(&c->conn, r, &cu);
  if (e != cudaSuccess)
    return if_disconnected(c->egl, c->stream,
                           jet__egl_cuda_error(e, __func__, "cudaEGLStreamConsumerReleaseFrame",
                                               NULL),
                           "producer", __func__);
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ producer */

static cudaError_t producer_free(struct jet_egl_producer_s *p) {
  (void)jet__ctx_activate(p->h.ctx, "jet_egl_producer_disconnect");
  cudaError_t e = cudaEGLStreamProducerDisconnect(&p->conn);
  jet__egl_disown(p->egl, &p->h);
  free(p);
  return e;
}

static void producer_release(jet__ctx_resource *r) {
  if (producer_free((struct jet_egl_producer_s *)((char *)r -
                                                  offsetof(struct jet_egl_producer_s, res))) !=
      cudaSuccess)
    (void)cudaGetLastError();
}

jet_status jet_egl_producer_connect(jet_egl egl, void *stream, int width, int height,
                                    jet_egl_producer *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(egl, JET__H_EGL, __func__, "egl"));
  JET__ARG(stream, "stream is NULL");
  JET__ARG(width > 0 && height > 0, "size %dx%d", width, height);
  JET__TRY(jet__ctx_activate(egl->h.ctx, __func__));
  struct jet_egl_producer_s *p = calloc(1, sizeof *p);
  if (!p) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory");
  cudaError_t e = cudaEGLStreamProducerConnect(&p->conn, (EGLStreamKHR)stream, width, height);
  if (e != cudaSuccess) {
    free(p);
    return jet__cuda_error(e, __func__, "cudaEGLStreamProducerConnect",
                           "connect the consumer first (the stream must be CONNECTING)", NULL);
  }
  p->egl = egl;
  p->stream = stream;
  p->width = width;
  p->height = height;
  jet_status st = jet__egl_adopt(egl, &p->h, JET__H_EGL_PRODUCER, &p->res, "EGLStream producer",
                                 producer_release, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaEGLStreamProducerDisconnect(&p->conn);
    free(p);
    return st;
  }
  *out = p;
  return JET_STATUS_OK;
}

jet_status jet_egl_producer_disconnect(jet_egl_producer p) {
  if (!p) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(p, JET__H_EGL_PRODUCER, __func__, "producer"));
  jet__ctx_resource_remove(p->h.ctx, &p->res);
  cudaError_t e = producer_free(p);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaEGLStreamProducerDisconnect", NULL,
                           "%s (the handle was released anyway)", cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_egl_producer_present(jet_egl_producer p, jet_image image, jet_stream stream) {
  JET__TRY(jet__handle_check(p, JET__H_EGL_PRODUCER, __func__, "producer"));
  JET__TRY(jet__handle_check_in(image, JET__H_IMAGE, p->h.ctx, __func__, "image"));
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, p->h.ctx, &cu, __func__));
  const jet__image_layout *l = &image->layout;
  int native = jet__egl_native_from_format(l->format, p->h.ctx->info.integrated);
  JET__ARG(native >= 0, "a CUDA producer cannot present %s (RGBA8, BGRA8, GRAY8, NV12, NV21 and "
           "I420 it can)", jet_format_name(l->format));
  JET__ARG(l->width == p->width && l->height == p->height,
           "size mismatch: the image is %dx%d, the producer was connected for %dx%d", l->width,
           l->height, p->width, p->height);
  for (int i = 1; i < l->planes; i++)
    JET__ARG(l->plane[i].pitch == jet__egl_plane_pitch(l->format, l->plane[0].pitch, i),
             "%s plane %d has pitch %zu, but an EGLStream frame carries one pitch: plane %d "
             "must have %zu bytes (plane 0 has %zu); wrap memory laid out that way "
             "(jet_image_wrap)",
             jet_format_name(l->format), i, l->plane[i].pitch, i,
             jet__egl_plane_pitch(l->format, l->plane[0].pitch, i), l->plane[0].pitch);
  int free_slot = -1;
  for (int i = 0; i < MAX_PRESENTED; i++) {
    if (p->presented[i] == image)
      return jet__error(JET_STATUS_INVALID_STATE, __func__,
                        "the image is in the stream already; wait for jet_egl_producer_return");
    if (!p->presented[i] && free_slot < 0) free_slot = i;
  }
  if (free_slot < 0)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d images are in the stream; take one back with jet_egl_producer_return",
                      MAX_PRESENTED);
  cudaEglFrame f;
  memset(&f, 0, sizeof f);
  f.frameType = cudaEglFrameTypePitch;
  f.eglColorFormat = (cudaEglColorFormat)native;
  f.planeCount = (unsigned)l->planes;
  const jet_format_desc *d = jet__format(l->format);
  for (int i = 0; i < l->planes; i++) {
    const jet__plane_layout *pl = &l->plane[i];
    int ch = d->bytes_per_pixel[i]; /* 8-bit samples: one channel per byte */
    f.frame.pPitch[i].ptr = image->plane[i];
    f.frame.pPitch[i].pitch = pl->pitch;
    f.frame.pPitch[i].xsize = (size_t)pl->width;
    f.frame.pPitch[i].ysize = (size_t)pl->height;
    f.planeDesc[i].width = (unsigned)pl->width;
    f.planeDesc[i].height = (unsigned)pl->height;
    f.planeDesc[i].depth = 1;
    f.planeDesc[i].pitch = (unsigned)pl->pitch;
    f.planeDesc[i].numChannels = (unsigned)ch;
    f.planeDesc[i].channelDesc = cudaCreateChannelDesc(8, ch > 1 ? 8 : 0, ch > 2 ? 8 : 0,
                                                       ch > 3 ? 8 : 0, cudaChannelFormatKindUnsigned);
  }
  cudaError_t e = cudaEGLStreamProducerPresentFrame(&p->conn, f, &cu);
  if (e != cudaSuccess)
    return if_disconnected(p->egl, p->stream,
                           jet__egl_cuda_error(e, __func__, "cudaEGLStreamProducerPresentFrame",
                                               NULL),
                           "consumer", __func__);
  p->presented[free_slot] = image;
  return JET_STATUS_OK;
}

jet_status jet_egl_producer_return(jet_egl_producer p, jet_stream stream, unsigned timeout_us,
                                   jet_image *image) {
  JET__TRY(jet__handle_check(p, JET__H_EGL_PRODUCER, __func__, "producer"));
  JET__ARG(image, "image is NULL");
  *image = NULL;
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, p->h.ctx, &cu, __func__));
  /* CUDA's return has no timeout of its own: it answers cudaErrorLaunchTimeout
   * at once when nothing came back, and the caller is to retry. */
  uint64_t deadline = now_us() + timeout_us;
  cudaEglFrame f;
  for (;;) {
    memset(&f, 0, sizeof f);
    cudaError_t e = cudaEGLStreamProducerReturnFrame(&p->conn, &f, &cu);
    if (e == cudaSuccess) break;
    /* Nothing to give back is cudaErrorLaunchTimeout, or cudaErrorUnknown
     * before anything was presented (desktop driver 580). */
    jet_egl_stream_state state;
    int retry = e == cudaErrorLaunchTimeout ||
                (e == cudaErrorUnknown && stream_state(p->egl, p->stream, &state, NULL) &&
                 state != JET_EGL_STREAM_DISCONNECTED);
    if (retry && now_us() >= deadline) {
      (void)cudaGetLastError();
      return jet__error_native(JET_STATUS_TIMEOUT, __func__, "cudaEGLStreamProducerReturnFrame",
                               cudaGetErrorName(e), (int)e,
                               "an EGLStream keeps the newest frame for its consumer: a frame "
                               "comes back after a newer one was acquired",
                               "no frame came back within %u us", timeout_us);
    }
    if (!retry)
      return if_disconnected(p->egl, p->stream,
                             jet__egl_cuda_error(e, __func__, "cudaEGLStreamProducerReturnFrame",
                                                 NULL),
                             "consumer", __func__);
    (void)cudaGetLastError();
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
  }
  for (int i = 0; i < MAX_PRESENTED; i++) {
    jet_image m = p->presented[i];
    if (m && m->plane[0] == f.frame.pPitch[0].ptr) {
      p->presented[i] = NULL;
      *image = m;
      return JET_STATUS_OK;
    }
  }
  return jet__error(JET_STATUS_INTERNAL, __func__,
                    "the stream returned a frame at %p that this producer did not present",
                    f.frame.pPitch[0].ptr);
}

#endif /* JET_HAVE_EGL */

/*
 * Frames of EGLImages and EGLStreams: CUDA's cudaEglFrame as a jet_egl_frame,
 * colour formats both ways, and copies out of either layout.
 */
#include <string.h>

#include "interop_internal.h"
#include "../image/image_internal.h"

#if JET_HAVE_EGL

/* cudaEglColorFormat -> jet_format, as a consumer reads the label. CUDA's
 * header comments describe byte orders inconsistently; this table follows how
 * Argus and NvBufSurface frames arrive on Jetson: YUV420SemiPlanar is NV12
 * (U before V in memory), ABGR is R,G,B,A in memory, ARGB is B,G,R,A. */
static const struct {
  int native;
  jet_format format;
  jet_color_matrix matrix;
  jet_color_range range;
} formats[] = {
    {cudaEglColorFormatYUV420SemiPlanar, JET_FORMAT_NV12, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatYUV420SemiPlanar_ER, JET_FORMAT_NV12, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatYUV420SemiPlanar_709, JET_FORMAT_NV12, JET_COLOR_BT709, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatYVU420SemiPlanar, JET_FORMAT_NV21, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatYVU420SemiPlanar_ER, JET_FORMAT_NV21, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatYVU420SemiPlanar_709, JET_FORMAT_NV21, JET_COLOR_BT709, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatYUV420Planar, JET_FORMAT_I420, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatYUV420Planar_ER, JET_FORMAT_I420, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatYUV420Planar_709, JET_FORMAT_I420, JET_COLOR_BT709, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatYUYV422, JET_FORMAT_YUYV, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatYUYV_ER, JET_FORMAT_YUYV, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatUYVY422, JET_FORMAT_UYVY, JET_COLOR_BT601, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatUYVY_ER, JET_FORMAT_UYVY, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatUYVY709, JET_FORMAT_UYVY, JET_COLOR_BT709, JET_COLOR_RANGE_LIMITED},
    {cudaEglColorFormatUYVY709_ER, JET_FORMAT_UYVY, JET_COLOR_BT709, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatABGR, JET_FORMAT_RGBA8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatARGB, JET_FORMAT_BGRA8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatY, JET_FORMAT_GRAY8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatL, JET_FORMAT_GRAY8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatR, JET_FORMAT_GRAY8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatY_ER, JET_FORMAT_GRAY8, JET_COLOR_BT601, JET_COLOR_RANGE_FULL},
    {cudaEglColorFormatY_709_ER, JET_FORMAT_GRAY8, JET_COLOR_BT709, JET_COLOR_RANGE_FULL},
};

jet_status jet_egl_format_from_native(int native, jet_format *format, jet_color_matrix *matrix,
                                      jet_color_range *range) {
  JET__ARG(format, "format is NULL");
  *format = JET_FORMAT_NONE_;
  jet_color_matrix m = JET_COLOR_BT601;
  jet_color_range r = JET_COLOR_RANGE_LIMITED;
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
    if (formats[i].native == native) {
      *format = formats[i].format;
      m = formats[i].matrix;
      r = formats[i].range;
      break;
    }
  if (matrix) *matrix = m;
  if (range) *range = r;
  return JET_STATUS_OK;
}

/* A CUDA-EGL frame carries one pitch, plane 0's in bytes (CUeglFrame.pitch);
 * the runtime derives the others in elements. Byte pitches by format: chroma
 * of semi-planar 4:2:0 has the luma plane's, planar 4:2:0 half of it. */
size_t jet__egl_plane_pitch(jet_format format, size_t pitch0, int plane) {
  if (plane == 0) return pitch0;
  switch (format) {
    case JET_FORMAT_NV12:
    case JET_FORMAT_NV21: return plane == 1 ? pitch0 : 0;
    case JET_FORMAT_I420: return pitch0 / 2;
    default: return 0;
  }
}

int jet__egl_native_from_format(jet_format format, int integrated) {
  switch (format) {
    /* The CUDA producer takes no packed 4:2:2 (cudaErrorInvalidValue, driver 580). */
    case JET_FORMAT_YUYV:
    case JET_FORMAT_UYVY: return -1;
    /* The desktop driver's CUDA producer labels semi-planar 4:2:0 the other
     * way round from its consumer (seen on driver 580: YUV420SemiPlanar
     * presented arrives as YVU420SemiPlanar, bytes unchanged, and back), so
     * there NV12 is presented as YVU to arrive as NV12. On Jetson the label
     * follows Argus's. */
    case JET_FORMAT_NV12:
      return integrated ? cudaEglColorFormatYUV420SemiPlanar : cudaEglColorFormatYVU420SemiPlanar;
    case JET_FORMAT_NV21:
      return integrated ? cudaEglColorFormatYVU420SemiPlanar : cudaEglColorFormatYUV420SemiPlanar;
    default:
      break;
  }
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
    if (formats[i].format == format) return formats[i].native;
  return -1;
}

void jet__frame_images_clear(jet__frame_images *c) {
  for (int i = 0; i < JET__FRAME_CACHE; i++) {
    jet__image_release_borrowed(c->img[i]);
    c->img[i] = NULL;
    c->held[i] = 0;
  }
}

static jet_status cached_image(jet__frame_images *c, struct jet_context_s *ctx,
                               const jet_egl_frame *f, const size_t *pitches, void *const *ptrs,
                               int *slot, const char *fn) {
  int victim = -1;
  for (int i = 0; i < JET__FRAME_CACHE; i++) {
    jet_image m = c->img[i];
    if (c->held[i]) continue;
    if (!m) {
      if (victim < 0) victim = i;
      continue;
    }
    int same = m->layout.format == f->format && m->layout.width == f->width &&
               m->layout.height == f->height;
    for (int p = 0; same && p < f->plane_count; p++)
      same = m->plane[p] == ptrs[p] && m->layout.plane[p].pitch == pitches[p];
    if (same) {
      c->held[i] = 1;
      *slot = i;
      return JET_STATUS_OK;
    }
  }
  for (unsigned k = 0; victim < 0 && k < JET__FRAME_CACHE; k++) {
    unsigned i = (c->next + k) % JET__FRAME_CACHE;
    if (!c->held[i]) victim = (int)i;
  }
  if (victim < 0)
    return jet__error(JET_STATUS_INVALID_STATE, fn,
                      "%d frames are held at once; release one first", JET__FRAME_CACHE);
  c->next = (unsigned)victim + 1;
  jet__image_release_borrowed(c->img[victim]);
  c->img[victim] = NULL;
  JET__TRY(jet__image_borrow(ctx, f->format, f->width, f->height, pitches, ptrs,
                             "a mapped EGL frame", &c->img[victim], fn));
  c->held[victim] = 1;
  *slot = victim;
  return JET_STATUS_OK;
}

jet_status jet__egl_frame_from_cuda(struct jet_context_s *ctx, const cudaEglFrame *f,
                                    cudaGraphicsResource_t res, jet__frame_images *cache,
                                    int *slot, jet_egl_frame *out, const char *fn) {
  memset(out, 0, sizeof *out);
  *slot = -1;
  if (f->planeCount < 1 || f->planeCount > JET_IMAGE_MAX_PLANES)
    return jet__error(JET_STATUS_UNSUPPORTED, fn, "EGL frame with %u planes (jetrt handles 1..%d)",
                      f->planeCount, JET_IMAGE_MAX_PLANES);
  out->layout = f->frameType == cudaEglFrameTypeArray ? JET_EGL_FRAME_ARRAY : JET_EGL_FRAME_PITCH;
  out->native_format = (int)f->eglColorFormat;
  jet_egl_format_from_native(out->native_format, &out->format, &out->matrix, &out->range);
  out->width = (int)f->planeDesc[0].width;
  out->height = (int)f->planeDesc[0].height;
  out->plane_count = (int)f->planeCount;
  out->native = res;
  size_t pitches[JET_IMAGE_MAX_PLANES] = {0, 0, 0};
  void *ptrs[JET_IMAGE_MAX_PLANES] = {NULL, NULL, NULL};
  for (int i = 0; i < out->plane_count; i++) {
    jet_egl_plane *p = &out->planes[i];
    p->width = (int)f->planeDesc[i].width;
    p->height = (int)f->planeDesc[i].height;
    p->channels = (int)f->planeDesc[i].numChannels;
    if (out->layout == JET_EGL_FRAME_ARRAY) {
      p->array = f->frame.pArray[i];
    } else {
      p->ptr = f->frame.pPitch[i].ptr;
      ptrs[i] = p->ptr;
      p->pitch = jet__egl_plane_pitch(out->format, f->planeDesc[0].pitch, i);
      if (!p->pitch) p->pitch = f->planeDesc[i].pitch; /* formats jetrt does not know */
      pitches[i] = p->pitch;
    }
    jet__log(JET_LOG_DEBUG,
             "EGL frame plane %d: format %d, %ux%u, %u channel(s), planeDesc.pitch %u, "
             "pPitch.pitch %zu, ptr %p -> pitch %zu bytes",
             i, out->native_format, f->planeDesc[i].width, f->planeDesc[i].height,
             f->planeDesc[i].numChannels, f->planeDesc[i].pitch, f->frame.pPitch[i].pitch,
             f->frame.pPitch[i].ptr, p->pitch);
  }
  const jet_format_desc *d = jet__format(out->format);
  if (out->layout != JET_EGL_FRAME_PITCH || !d || d->planes != out->plane_count)
    return JET_STATUS_OK;
  JET__TRY(cached_image(cache, ctx, out, pitches, ptrs, slot, fn));
  out->image = cache->img[*slot];
  return JET_STATUS_OK;
}

jet_status jet__egl_cuda_error(cudaError_t e, const char *fn, const char *call, const char *hint) {
  if (e == cudaErrorLaunchTimeout) {
    (void)cudaGetLastError();
    return jet__error_native(JET_STATUS_TIMEOUT, fn, call, cudaGetErrorName(e), (int)e, hint,
                             "no frame within the timeout");
  }
  return jet__cuda_error(e, fn, call, hint, NULL);
}

jet_status jet_egl_frame_copy(const jet_egl_frame *frame, jet_image dst, jet_stream stream) {
  JET__ARG(frame, "frame is NULL");
  JET__TRY(jet__handle_check(dst, JET__H_IMAGE, __func__, "dst"));
  cudaStream_t cu;
  JET__TRY(jet__stream_enter(stream, dst->h.ctx, &cu, __func__));
  JET__ARG(frame->format != JET_FORMAT_NONE_,
           "the frame's colour format (cudaEglColorFormat %d) has no jet_format; read its planes "
           "directly",
           frame->native_format);
  JET__ARG(dst->layout.format == frame->format && dst->layout.width == frame->width &&
               dst->layout.height == frame->height,
           "format mismatch: the frame is %s %dx%d, dst is %s %dx%d", jet_format_name(frame->format),
           frame->width, frame->height, jet_format_name(dst->layout.format), dst->layout.width,
           dst->layout.height);
  JET__ARG(frame->plane_count == dst->layout.planes, "the frame has %d planes, %s has %d",
           frame->plane_count, jet_format_name(dst->layout.format), dst->layout.planes);
  for (int i = 0; i < frame->plane_count; i++) {
    const jet__plane_layout *pl = &dst->layout.plane[i];
    const jet_egl_plane *src = &frame->planes[i];
    JET__ARG(src->width >= pl->width && src->height >= pl->height,
             "frame plane %d is %dx%d, the image's is %dx%d", i, src->width, src->height,
             pl->width, pl->height);
    cudaError_t e;
    if (frame->layout == JET_EGL_FRAME_ARRAY) {
      JET__ARG(src->array, "frame plane %d has no CUDA array", i);
      e = cudaMemcpy2DFromArrayAsync(dst->plane[i], pl->pitch, (cudaArray_const_t)src->array, 0, 0,
                                     pl->row_bytes, (size_t)pl->height, cudaMemcpyDeviceToDevice,
                                     cu);
      if (e != cudaSuccess)
        return jet__cuda_error(e, __func__, "cudaMemcpy2DFromArrayAsync", NULL, "plane %d", i);
    } else {
      JET__ARG(src->ptr && src->pitch >= pl->row_bytes, "frame plane %d: pitch %zu < row %zu", i,
               src->pitch, pl->row_bytes);
      e = cudaMemcpy2DAsync(dst->plane[i], pl->pitch, src->ptr, src->pitch, pl->row_bytes,
                            (size_t)pl->height, cudaMemcpyDeviceToDevice, cu);
      if (e != cudaSuccess)
        return jet__cuda_error(e, __func__, "cudaMemcpy2DAsync", NULL, "plane %d", i);
    }
  }
  return JET_STATUS_OK;
}

#endif /* JET_HAVE_EGL */

/*
 * jetrt/egl.h - EGL interop: headless displays, EGLImages, EGLStreams, EGLSync.
 *
 * The camera -> CUDA -> display path of a Jetson: Argus and NvBufSurface hand
 * frames over as EGLImages (dma-buf) or through an EGLStream; CUDA works on them
 * in place; a display or encoder takes them back the same way. This header
 * wraps those CUDA-EGL calls, with no X server anywhere:
 *
 *  - jet_egl: an EGL display bound to a context. Either the caller's, or a
 *    headless one opened on the EGL device that *is* the context's CUDA device
 *    (EGL_EXT_device_enumeration + EGL_EXT_platform_device, matched through
 *    EGL_NV_device_cuda), never "EGL device 0".
 *  - EGLImages (GL textures, dma-buf fds) registered with CUDA and mapped on a
 *    stream as a jet_egl_frame: a pitch-linear frame is a jet_image over the
 *    same memory (no copy); a block-linear frame is a set of CUDA arrays,
 *    copied into a jet_image with jet_egl_frame_copy.
 *  - EGLStream consumer (camera side) and producer (display/encoder side).
 *  - EGLSync <-> CUDA event, by the mechanism the platform policy names.
 *
 * EGL handles (EGLDisplay, EGLContext, EGLImage, EGLStreamKHR, EGLSync) are
 * passed as void *, so this header needs no EGL header. jetrt loads
 * libEGL.so.1 (glvnd) at run time and reaches extensions through
 * eglGetProcAddress; a missing library or extension is a status naming it. A
 * build without the EGL headers (cmake -DJET_WITH_EGL=OFF, or headers not
 * found) keeps every function here, returning JET_STATUS_NOT_BUILT_IN.
 *
 * Statuses common to every call: JET_STATUS_NOT_BUILT_IN (EGL left out of the
 * build), JET_STATUS_UNSUPPORTED (libEGL.so.1 or a needed extension missing:
 * the detail names it), JET_STATUS_EGL_ERROR (an EGL call failed: the detail
 * has the call and the EGL error name, e.g. EGL_BAD_MATCH), and the CUDA
 * statuses of the CUDA call that failed.
 *
 * Threads: EGL objects are per process, CUDA registrations per context; a
 * handle here may be used from any thread, but not from two at once.
 */
#ifndef JETRT_EGL_H
#define JETRT_EGL_H

#include <stddef.h>
#include <stdint.h>
#include "context.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jet_egl_s *jet_egl;                   /* an EGL display bound to a context */
typedef struct jet_egl_image_s *jet_egl_image;       /* an EGLImage registered with CUDA */
typedef struct jet_egl_consumer_s *jet_egl_consumer; /* CUDA consumer end of an EGLStream */
typedef struct jet_egl_producer_s *jet_egl_producer; /* CUDA producer end of an EGLStream */

/* ------------------------------------------------------------------ display */

/** Parameters of jet_egl_open. Zero-initialise, then set what you need. */
typedef struct jet_egl_desc {
  /** The caller's EGLDisplay, initialised or not (jetrt initialises it if
   *  needed, and terminates it on close only in that case). NULL: open a
   *  headless display on the EGL device that is the context's CUDA device. */
  void *display;
} jet_egl_desc;

/** What jet_egl_get_info reports. */
typedef struct jet_egl_info {
  void *display;          /**< the EGLDisplay */
  int major, minor;       /**< EGL version */
  int owned;              /**< 1: jetrt opened the display (headless device display) */
  int initialized_here;   /**< 1: jetrt initialised it and terminates it on close */
  int egl_device;         /**< index in eglQueryDevicesEXT of the matched device; -1 for a caller's display */
  char vendor[64];        /**< EGL_VENDOR */
  /* Capabilities of the display (1: the extension is there). */
  int image_base;         /**< EGL_KHR_image_base: EGLImages */
  int gl_texture_image;   /**< EGL_KHR_gl_texture_2D_image: EGLImage of a GL texture */
  int dma_buf_import;     /**< EGL_EXT_image_dma_buf_import: EGLImage of dma-buf fds */
  int dma_buf_modifiers;  /**< EGL_EXT_image_dma_buf_import_modifiers: block-linear dma-bufs */
  int stream;             /**< EGL_KHR_stream: EGLStreams */
  int stream_fifo;        /**< EGL_KHR_stream_fifo: FIFO streams */
  int fence_sync;         /**< EGL_KHR_fence_sync */
  int cuda_event_sync;    /**< EGL_NV_cuda_event: an EGLSync made from a CUDA event */
} jet_egl_info;

/**
 * jet_egl_open - bind an EGL display to @ctx, or open a headless one.
 *
 * With @desc->display NULL, every EGL device (eglQueryDevicesEXT) that offers
 * EGL_NV_device_cuda is asked for its EGL_CUDA_DEVICE_NV, and the one equal to
 * the context's CUDA device is opened with eglGetPlatformDisplay(
 * EGL_PLATFORM_DEVICE_EXT): no X server, no window system. Where none matches,
 * the detail lists every EGL device found and what it lacked.
 * @ctx: the context whose CUDA device the display must drive.
 * @desc: NULL or all zero for the headless display.
 * @out: receives the handle; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE (@ctx); INVALID_ARGUMENT (NULL
 *         @out); UNSUPPORTED (no libEGL.so.1, no device enumeration, or no EGL
 *         device is the CUDA device: the detail says which); EGL_ERROR
 *         (eglInitialize failed); NOT_BUILT_IN.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_open(jet_context ctx, const jet_egl_desc *desc, jet_egl *out);

/**
 * jet_egl_close - release the binding; terminate the display if jetrt
 * initialised it. Objects made through @egl must be destroyed first.
 * @egl: the handle, or NULL (a no-op).
 * @return JET_STATUS_OK; INVALID_HANDLE; INVALID_STATE while registered images,
 *         stream connections or presenters made through it are alive.
 * Thread safety: no other thread may use @egl during the call.
 */
jet_status jet_egl_close(jet_egl egl);

/**
 * jet_egl_get_info - the display, its version and capabilities.
 * @return JET_STATUS_OK, INVALID_HANDLE, or INVALID_ARGUMENT for a NULL @info.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_get_info(jet_egl egl, jet_egl_info *info);

/**
 * jet_egl_has_extension - whether the display lists the extension @name.
 * @has: receives 1 or 0.
 * @return JET_STATUS_OK, INVALID_HANDLE, or INVALID_ARGUMENT for NULL arguments.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_has_extension(jet_egl egl, const char *name, int *has);

/* ------------------------------------------------------------------ frames */

/** How a mapped frame's memory is laid out. */
typedef enum jet_egl_frame_layout {
  JET_EGL_FRAME_PITCH = 0, /**< pitch-linear planes: plain pointers, usable as a jet_image */
  JET_EGL_FRAME_ARRAY = 1  /**< CUDA arrays (block-linear): copy or sample them */
} jet_egl_frame_layout;

/** One plane of a mapped frame. */
typedef struct jet_egl_plane {
  void *ptr;     /**< PITCH: device address of row 0; NULL for ARRAY */
  size_t pitch;  /**< PITCH: bytes between rows; 0 for ARRAY */
  void *array;   /**< ARRAY: the cudaArray_t; NULL for PITCH */
  int width;     /**< pixels (chroma sites) per row */
  int height;    /**< rows */
  int channels;  /**< samples per pixel in this plane */
} jet_egl_plane;

/**
 * A frame mapped from an EGLImage or acquired from an EGLStream. Valid until the
 * image is unmapped or the stream frame released; so is @image.
 */
typedef struct jet_egl_frame {
  jet_egl_frame_layout layout;
  jet_format format;        /**< the jet_format of the colour format, or JET_FORMAT_NONE_ if it has none */
  int native_format;        /**< the cudaEglColorFormat */
  jet_color_matrix matrix;  /**< YUV formats: BT.601 unless the colour format says 709 */
  jet_color_range range;    /**< YUV formats: limited unless the format says extended (_ER) */
  int width, height;        /**< plane 0 */
  int plane_count;
  jet_egl_plane planes[JET_IMAGE_MAX_PLANES];
  /** PITCH frames with a jet_format: the planes as a jet_image (no copy),
   *  owned by jetrt: do not destroy it. NULL otherwise. */
  jet_image image;
  void *native;             /**< the cudaGraphicsResource_t behind the frame */
} jet_egl_frame;

/**
 * jet_egl_frame_copy - copy a frame (either layout) into a jet_image of the
 * same format and size, plane by plane, on @stream.
 * @frame: a frame from jet_egl_image_map or jet_egl_consumer_acquire.
 * @dst: an image of @frame->format and the frame's size.
 * @stream: a stream of the image's context.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (NULL, a format without jet_format,
 *         size or format mismatch); INVALID_HANDLE; WRONG_CONTEXT; a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_frame_copy(const jet_egl_frame *frame, jet_image dst, jet_stream stream);

/**
 * jet_egl_format_from_native - the jet_format, matrix and range of a
 * cudaEglColorFormat (what jet_egl_frame reports), without a GPU.
 * @native: a cudaEglColorFormat value.
 * @format: receives the format, JET_FORMAT_NONE_ when jetrt has no equivalent.
 * @matrix, @range: receive the YUV matrix and range (may be NULL).
 * @return JET_STATUS_OK (also for formats without an equivalent), or
 *         INVALID_ARGUMENT for a NULL @format. Thread safety: safe from any thread.
 */
jet_status jet_egl_format_from_native(int native, jet_format *format, jet_color_matrix *matrix,
                                      jet_color_range *range);

/* ------------------------------------------------------------------ EGLImage */

/** Registration and mapping hints (jet_egl_image_register). */
enum {
  JET_EGL_READ_ONLY = 1u << 0,    /**< CUDA only reads the image (cudaGraphicsRegisterFlagsReadOnly) */
  JET_EGL_WRITE_DISCARD = 1u << 1 /**< CUDA overwrites all of it (cudaGraphicsRegisterFlagsWriteDiscard) */
};

/** One plane of a dma-buf (jet_egl_dmabuf_desc). */
typedef struct jet_egl_dmabuf_plane {
  int fd;          /**< dma-buf file descriptor; jetrt does not close it */
  uint32_t offset; /**< bytes from the start of the buffer */
  uint32_t pitch;  /**< bytes between rows */
} jet_egl_dmabuf_plane;

/** A dma-buf frame as NvBufSurface / Argus / V4L2 hand it over. */
typedef struct jet_egl_dmabuf_desc {
  uint32_t fourcc;   /**< DRM fourcc, e.g. 'N','V','1','2' = 0x3231564e (DRM_FORMAT_NV12) */
  int width, height;
  int plane_count;   /**< 1..3 */
  jet_egl_dmabuf_plane planes[JET_IMAGE_MAX_PLANES];
  int has_modifier;  /**< 1: @modifier is passed (EGL_EXT_image_dma_buf_import_modifiers) */
  uint64_t modifier; /**< DRM format modifier, e.g. block-linear layouts */
} jet_egl_dmabuf_desc;

/**
 * jet_egl_create_image_gl_texture - an EGLImage of a GL texture's level
 * (eglCreateImageKHR, EGL_GL_TEXTURE_2D_KHR).
 * @gl_context: the EGLContext that owns the texture.
 * @texture: the GL texture name (GL_TEXTURE_2D, complete at @level).
 * @level: mipmap level.
 * @egl_image: receives the EGLImage; destroy it with jet_egl_destroy_image.
 * @return JET_STATUS_OK; INVALID_ARGUMENT; UNSUPPORTED without
 *         EGL_KHR_gl_texture_2D_image; EGL_ERROR (e.g. EGL_BAD_PARAMETER for a
 *         texture that does not exist in that context).
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_create_image_gl_texture(jet_egl egl, void *gl_context, unsigned texture,
                                           int level, void **egl_image);

/**
 * jet_egl_create_image_dmabuf - an EGLImage of dma-buf file descriptors
 * (EGL_EXT_image_dma_buf_import), the way NvBufSurface and Argus buffers
 * arrive on Jetson.
 * @desc: fourcc, size and planes; the fds stay the caller's.
 * @egl_image: receives the EGLImage; destroy it with jet_egl_destroy_image.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (NULL, size <= 0, plane count out of
 *         range, negative fd); UNSUPPORTED without the extension (or the
 *         modifiers extension when @desc->has_modifier); EGL_ERROR.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_create_image_dmabuf(jet_egl egl, const jet_egl_dmabuf_desc *desc,
                                       void **egl_image);

/**
 * jet_egl_destroy_image - eglDestroyImageKHR. Unregister it from CUDA first.
 * @egl_image: the EGLImage, or NULL (a no-op).
 * @return JET_STATUS_OK, INVALID_HANDLE, EGL_ERROR.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_destroy_image(jet_egl egl, void *egl_image);

/**
 * jet_egl_image_register - register an EGLImage with CUDA
 * (cudaGraphicsEGLRegisterImage) on @egl's context.
 * @egl_image: an EGLImage of @egl's display.
 * @flags: 0 or one JET_EGL_* hint.
 * @out: receives the handle.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (NULL, unknown or two flags);
 *         INVALID_HANDLE; a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_image_register(jet_egl egl, void *egl_image, unsigned flags,
                                  jet_egl_image *out);

/**
 * jet_egl_image_unregister - unmap if mapped, then cudaGraphicsUnregisterResource.
 * @img: the handle, or NULL (a no-op).
 * @return JET_STATUS_OK; INVALID_HANDLE; a CUDA status (the handle is released anyway).
 * Thread safety: no other thread may use @img during the call.
 */
jet_status jet_egl_image_unregister(jet_egl_image img);

/**
 * jet_egl_image_map - map the image for CUDA on @stream and describe it.
 *
 * Work on @stream after the call sees the image; work enqueued before it on
 * the graphics side is complete. Pitch-linear frames come with @frame->image.
 * On a discrete GPU the NVIDIA desktop driver registers EGLImages but (as of
 * driver 580) does not map them: that failure is JET_STATUS_UNSUPPORTED with a
 * hint (use jetrt/gl.h or an EGLStream there); on Jetson it maps.
 * @stream: a stream of @img's context.
 * @frame: receives the frame, valid until jet_egl_image_unmap.
 * @return JET_STATUS_OK; INVALID_ARGUMENT; INVALID_HANDLE; WRONG_CONTEXT;
 *         INVALID_STATE (already mapped); UNSUPPORTED (see above); a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_image_map(jet_egl_image img, jet_stream stream, jet_egl_frame *frame);

/**
 * jet_egl_image_unmap - end CUDA's use of the image; work on @stream before
 * the call completes before the graphics side sees the image again.
 * @return JET_STATUS_OK; INVALID_HANDLE; WRONG_CONTEXT; INVALID_STATE (not
 *         mapped); a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_image_unmap(jet_egl_image img, jet_stream stream);

/* ------------------------------------------------------------------ EGLStream */

/** Parameters of jet_egl_stream_create. Zero-initialise, then set what you need. */
typedef struct jet_egl_stream_desc {
  int fifo_length;  /**< 0: mailbox (the consumer gets the newest frame); > 0: FIFO of that many frames */
  int latency_us;   /**< EGL_CONSUMER_LATENCY_USEC_KHR; 0 keeps the default */
} jet_egl_stream_desc;

/** EGL_STREAM_STATE_KHR. */
typedef enum jet_egl_stream_state {
  JET_EGL_STREAM_CREATED = 0,      /**< no consumer yet */
  JET_EGL_STREAM_CONNECTING = 1,   /**< consumer, no producer yet */
  JET_EGL_STREAM_EMPTY = 2,        /**< both connected, no frame yet */
  JET_EGL_STREAM_NEW_FRAME = 3,    /**< a frame the consumer has not acquired */
  JET_EGL_STREAM_OLD_FRAME = 4,    /**< only frames the consumer has seen */
  JET_EGL_STREAM_DISCONNECTED = 5  /**< one end disconnected: the stream is dead */
} jet_egl_stream_state;

/**
 * jet_egl_stream_create - eglCreateStreamKHR on @egl's display.
 * @desc: NULL for a mailbox stream with default latency.
 * @stream: receives the EGLStreamKHR; destroy it with jet_egl_stream_destroy
 *          after both ends disconnected.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (NULL @stream, negative fields);
 *         UNSUPPORTED without EGL_KHR_stream (or EGL_KHR_stream_fifo for a FIFO);
 *         EGL_ERROR.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_stream_create(jet_egl egl, const jet_egl_stream_desc *desc, void **stream);

/**
 * jet_egl_stream_destroy - eglDestroyStreamKHR.
 * @stream: the EGLStreamKHR, or NULL (a no-op).
 * @return JET_STATUS_OK, INVALID_HANDLE, EGL_ERROR.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_stream_destroy(jet_egl egl, void *stream);

/**
 * jet_egl_stream_get_state - EGL_STREAM_STATE_KHR of @stream.
 * @return JET_STATUS_OK, INVALID_HANDLE, INVALID_ARGUMENT, EGL_ERROR.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_stream_get_state(jet_egl egl, void *stream, jet_egl_stream_state *state);

/** Where a consumer wants acquired frames (jet_egl_consumer_connect). */
enum {
  JET_EGL_CONSUMER_SYSMEM = 1u << 0 /**< frames in system memory (cudaEglResourceLocationSysmem); default video memory */
};

/**
 * jet_egl_consumer_connect - connect CUDA as the consumer of @stream
 * (cudaEGLStreamConsumerConnectWithFlags). Connect the consumer before the
 * producer.
 * @stream: an EGLStreamKHR of @egl's display in state CREATED.
 * @flags: 0 or JET_EGL_CONSUMER_SYSMEM.
 * @out: receives the consumer.
 * @return JET_STATUS_OK; INVALID_ARGUMENT; INVALID_HANDLE; a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_consumer_connect(jet_egl egl, void *stream, unsigned flags,
                                    jet_egl_consumer *out);

/**
 * jet_egl_consumer_disconnect - release frames still held, disconnect.
 * @c: the consumer, or NULL (a no-op).
 * @return JET_STATUS_OK; INVALID_HANDLE; a CUDA status (the handle is released anyway).
 * Thread safety: no other thread may use @c during the call.
 */
jet_status jet_egl_consumer_disconnect(jet_egl_consumer c);

/**
 * jet_egl_consumer_acquire - take the next frame, waiting up to @timeout_us.
 *
 * The frame is mapped for work on @stream; no pixel is copied.
 * @stream: a stream of the consumer's context.
 * @timeout_us: how long to wait for a frame, in microseconds (0: do not wait).
 * @frame: receives the frame, valid until jet_egl_consumer_release.
 * @return JET_STATUS_OK; JET_STATUS_TIMEOUT (no frame in time; the consumer is
 *         fine, call again); JET_STATUS_DISCONNECTED (the producer has
 *         disconnected: no frame will come); INVALID_ARGUMENT; INVALID_HANDLE;
 *         WRONG_CONTEXT; INVALID_STATE (more frames held than the connection
 *         allows); a CUDA status.
 * Thread safety: safe from any thread, one call at a time per consumer.
 */
jet_status jet_egl_consumer_acquire(jet_egl_consumer c, jet_stream stream, unsigned timeout_us,
                                    jet_egl_frame *frame);

/**
 * jet_egl_consumer_release - give an acquired frame back to the stream; work on
 * @stream before the call completes before the producer reuses it.
 * @frame: the frame jet_egl_consumer_acquire filled.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (NULL, or a frame this consumer does
 *         not hold); INVALID_HANDLE; WRONG_CONTEXT; a CUDA status.
 * Thread safety: as jet_egl_consumer_acquire.
 */
jet_status jet_egl_consumer_release(jet_egl_consumer c, const jet_egl_frame *frame,
                                    jet_stream stream);

/**
 * jet_egl_producer_connect - connect CUDA as the producer of @stream
 * (cudaEGLStreamProducerConnect) for frames of @width x @height.
 * @return JET_STATUS_OK; INVALID_ARGUMENT; INVALID_HANDLE; a CUDA status (a
 *         stream with no consumer yet fails there).
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_producer_connect(jet_egl egl, void *stream, int width, int height,
                                    jet_egl_producer *out);

/**
 * jet_egl_producer_disconnect - disconnect; the consumer then sees
 * JET_STATUS_DISCONNECTED. Images still in the stream may be destroyed after.
 * @p: the producer, or NULL (a no-op).
 * @return JET_STATUS_OK; INVALID_HANDLE; a CUDA status (released anyway).
 * Thread safety: no other thread may use @p during the call.
 */
jet_status jet_egl_producer_disconnect(jet_egl_producer p);

/**
 * jet_egl_producer_present - hand @image to the stream without copying it.
 *
 * The image's memory goes to the consumer as it is: keep @image alive and
 * unwritten until jet_egl_producer_return gives it back. Formats: RGBA8,
 * BGRA8, GRAY8, NV12, NV21 and I420 (CUDA's producer takes no packed 4:2:2),
 * of the connected size. An EGL frame carries one pitch: the chroma pitch of
 * NV12/NV21 must equal the luma pitch, and that of I420 be half of it
 * (jet_image_create gives NV12 that; wrap memory laid out so for I420).
 * @image: a jet_image of the producer's context.
 * @stream: work on it before the call is complete before the consumer reads.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (format or size mismatch);
 *         INVALID_HANDLE; WRONG_CONTEXT; DISCONNECTED (the consumer is gone);
 *         a CUDA status.
 * Thread safety: safe from any thread, one call at a time per producer.
 */
jet_status jet_egl_producer_present(jet_egl_producer p, jet_image image, jet_stream stream);

/**
 * jet_egl_producer_return - take back a presented image the consumer released.
 * @timeout_us: how long to wait, in microseconds (0: do not wait).
 * @image: receives the image that was presented.
 * @return JET_STATUS_OK; TIMEOUT (none released yet); DISCONNECTED;
 *         INVALID_ARGUMENT; INVALID_HANDLE; WRONG_CONTEXT; a CUDA status.
 * Thread safety: as jet_egl_producer_present.
 */
jet_status jet_egl_producer_return(jet_egl_producer p, jet_stream stream, unsigned timeout_us,
                                   jet_image *image);

/* ------------------------------------------------------------------ EGLSync */

/**
 * jet_egl_sync_to_event - a CUDA event that completes when @egl_sync signals,
 * so streams can wait for graphics work (jet_stream_wait_event).
 *
 * Mechanism, from the platform policy (jet_policy.egl_sync):
 *  - JET_EGL_SYNC_CUDA_EVENT (Tegra): cudaEventCreateFromEGLSync, no host wait.
 *    The driver has it on integrated GPUs only: on a discrete GPU with a
 *    forced Tegra policy the call fails with UNSUPPORTED and says so.
 *  - JET_EGL_SYNC_HOST_WAIT (desktop): the host waits for the sync
 *    (eglClientWaitSyncKHR, up to @timeout_us), then returns an event that is
 *    already complete.
 * @egl_sync: an EGLSync of @egl's display (e.g. a fence after GL work).
 * @timeout_us: HOST_WAIT only: the longest host wait; TIMEOUT past it.
 * @out: receives the event; destroy it with jet_event_destroy.
 * @return JET_STATUS_OK; INVALID_ARGUMENT; INVALID_HANDLE; TIMEOUT;
 *         UNSUPPORTED; EGL_ERROR; a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_sync_to_event(jet_egl egl, void *egl_sync, unsigned timeout_us, jet_event *out);

/**
 * jet_egl_sync_from_event - an EGLSync that signals when @event completes, so
 * graphics work can wait for CUDA work (eglWaitSyncKHR / eglClientWaitSyncKHR).
 *
 * With EGL_NV_cuda_event on the display: eglCreateSyncKHR(EGL_SYNC_CUDA_EVENT_NV),
 * no host wait. Without it: the host waits for @event (jet_event_synchronize)
 * and *@egl_sync is NULL: there is nothing left to wait for.
 * @event: a recorded event of @egl's context (created without JET_EVENT_TIMING
 *         is fine; interprocess events are refused by the extension).
 * @egl_sync: receives the sync or NULL; destroy a non-NULL one with jet_egl_sync_destroy.
 * @return JET_STATUS_OK; INVALID_ARGUMENT; INVALID_HANDLE; WRONG_CONTEXT;
 *         EGL_ERROR; a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_sync_from_event(jet_egl egl, jet_event event, void **egl_sync);

/**
 * jet_egl_sync_destroy - eglDestroySyncKHR.
 * @egl_sync: the sync, or NULL (a no-op).
 * @return JET_STATUS_OK, INVALID_HANDLE, EGL_ERROR.
 * Thread safety: safe from any thread.
 */
jet_status jet_egl_sync_destroy(jet_egl egl, void *egl_sync);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_EGL_H */

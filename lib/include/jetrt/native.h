/*
 * jetrt/native.h - the CUDA objects behind jetrt handles, and jetrt handles
 * over a caller's CUDA objects.
 *
 * jetrt works on CUDA's primary context of the context's device, the one the
 * CUDA runtime uses, so its streams, events and memory can be handed as they
 * are to CUDA code beside it: TensorRT (IExecutionContext::enqueueV3 takes a
 * cudaStream_t), NPP (nppSetStream or the _Ctx calls), CV-CUDA, PyTorch
 * (torch.cuda.ExternalStream, DLPack for memory: jetrt/dlpack.h) and users'
 * own <<<>>> kernels. Work from both sides on one stream runs in the order it
 * was enqueued.
 *
 * The getters return the object as a void pointer, so that this header needs
 * no CUDA header; cast it to cudaStream_t, cudaEvent_t, CUcontext, ... The
 * objects stay jetrt's: do not destroy them, and do not use them after the
 * jetrt handle is destroyed. Each getter is a plain field read: it enqueues
 * nothing and does not make a device current.
 *
 * Getters elsewhere: jet_stream_native (jetrt/stream.h) gives the cudaStream_t
 * of a stream, jet_kernel_native (jetrt/module.h) the CUfunction of a kernel,
 * jet_buffer_device_ptr / jet_buffer_host_ptr (jetrt/memory.h) and
 * jet_image_get_plane (jetrt/image.h) what jet_buffer_native and
 * jet_image_plane_native below give in one call.
 *
 * The other way, jet_stream_wrap and jet_event_wrap make jetrt handles over
 * the caller's stream and event; jetrt does not own them and never destroys
 * them.
 */
#ifndef JETRT_NATIVE_H
#define JETRT_NATIVE_H

#include <stddef.h>

#include "context.h"
#include "image.h"
#include "memory.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * jet_context_native - the CUDA driver context (CUcontext) jetrt uses for
 * @ctx: the primary context of its device, which the CUDA runtime also uses.
 *
 * Use it with driver API code (cuCtxPushCurrent / cuCtxPopCurrent, cuLaunch*
 * with jetrt streams). jetrt holds the primary context while @ctx lives; do
 * not release or destroy it. Unlike the other getters this call makes the
 * device current on the calling thread (cudaSetDevice), which is what creates
 * the primary context.
 * @ctx: the context.
 * @cu_context: receives the CUcontext.
 * @device: receives the CUDA device ordinal (the runtime's and the driver's
 *          index, which agree); may be NULL.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @cu_context; a CUDA or driver
 *         status (JET_STATUS_DRIVER_ERROR when the current context is not the
 *         device's, i.e. someone else's context was pushed in between).
 * Thread safety: safe from any thread.
 */
jet_status jet_context_native(jet_context ctx, void **cu_context, int *device);

/**
 * jet_event_native - the cudaEvent_t behind @event.
 *
 * Record or wait on it with cudaEventRecord / cudaStreamWaitEvent beside
 * jetrt's own calls. For a wrapped event (jet_event_wrap) it is the caller's.
 * @cuda_event: receives the cudaEvent_t.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @cuda_event.
 * Thread safety: safe from any thread.
 */
jet_status jet_event_native(jet_event event, void **cuda_event);

/** What jet_buffer_native reports. */
typedef struct jet_buffer_native_info {
  void *device_ptr;     /**< address kernels and cudaMemcpy use; NULL for pinned host
                             memory the device cannot map */
  void *host_ptr;       /**< CPU address for host and managed kinds; NULL for device memory */
  size_t size;          /**< bytes from the pointers that belong to the buffer */
  size_t pitch;         /**< bytes between rows (width_bytes unless pitched) */
  jet_memory_kind kind; /**< memory kind (the obtained one) */
  int device;           /**< CUDA device ordinal of the buffer's context */
} jet_buffer_native_info;

/**
 * jet_buffer_native - the pointers behind @buf, with size, pitch and kind.
 *
 * Device memory gives only device_ptr; mapped host and registered host memory
 * give both (device_ptr is the device's view of the same bytes, which may
 * differ from host_ptr); managed memory gives one pointer in both; pinned
 * unmapped memory only host_ptr. Pass device_ptr to cudaMemcpy, kernels, NPP,
 * TensorRT bindings. The memory stays the buffer's.
 * @info: receives the description.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @info.
 * Thread safety: safe from any thread.
 */
jet_status jet_buffer_native(jet_buffer buf, jet_buffer_native_info *info);

/**
 * jet_image_plane_native - device-accessible address and pitch of one plane.
 *
 * The same pointer and pitch jet_image_get_plane gives, for NPP's
 * (pSrc, nSrcStep) pairs, CV-CUDA tensor wrapping or a user kernel.
 * @plane: 0 .. plane count - 1.
 * @ptr: receives the address of row 0 (device-accessible: for a mapped host
 *       image it is the device pointer).
 * @pitch: receives the bytes between rows; may be NULL.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @ptr or a plane out of range.
 * Thread safety: safe from any thread.
 */
jet_status jet_image_plane_native(jet_image image, int plane, void **ptr, size_t *pitch);

/**
 * jet_stream_wrap - a jet_stream over the caller's existing cudaStream_t.
 *
 * Every jetrt call taking a stream then works on it, ordered with what the
 * caller enqueues on it directly (cudaMemcpyAsync, <<<>>> launches, TensorRT,
 * NPP). jetrt does not own the stream: jet_stream_destroy releases only
 * jetrt's record and never calls cudaStreamDestroy, and the caller must keep
 * the stream alive until then. The stream must belong to jetrt's context of
 * the device (the primary context, the runtime's): streams made with
 * cudaStreamCreate* on the context's device do; a stream of a context the
 * caller created with cuCtxCreate does not and is refused. Its flags
 * (non-blocking) and priority are read from CUDA. The handle counts as an
 * object of @ctx (jet_context_destroy is refused while it lives).
 * @ctx: the context.
 * @cuda_stream: the cudaStream_t (as void *). NULL (the legacy stream),
 *        cudaStreamLegacy and cudaStreamPerThread are refused: use
 *        jet_context_default_stream for those.
 * @out: receives the stream; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out, a
 *         default-stream value, or a stream of another context or device
 *         (checked with cuStreamGetCtx); JET_STATUS_INVALID_HANDLE for a bad
 *         @ctx; JET_STATUS_OUT_OF_MEMORY; or a CUDA/driver status (a stream
 *         that is not valid at all gives the runtime's error).
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_wrap(jet_context ctx, void *cuda_stream, jet_stream *out);

/**
 * jet_event_wrap - a jet_event over the caller's existing cudaEvent_t.
 *
 * jetrt does not own the event: jet_event_destroy releases only jetrt's
 * record and never calls cudaEventDestroy; the caller keeps the event alive
 * until then. CUDA cannot report an event's creation flags or device, so the
 * caller states them: @flags are the JET_EVENT_* flags the event was created
 * with (JET_EVENT_TIMING unless it was made with cudaEventDisableTiming:
 * jet_event_elapsed_ms checks it), and the event must have been created on
 * @ctx's device. The event is checked once with cudaEventQuery.
 * @ctx: the context.
 * @cuda_event: the cudaEvent_t (as void *); not NULL.
 * @flags: JET_EVENT_TIMING, JET_EVENT_BLOCKING_SYNC, JET_EVENT_INTERPROCESS as
 *         for jet_event_create (INTERPROCESS with TIMING is refused).
 * @out: receives the event; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL @cuda_event or
 *         @out, unknown flags or INTERPROCESS with TIMING;
 *         JET_STATUS_INVALID_HANDLE for a bad @ctx; JET_STATUS_OUT_OF_MEMORY;
 *         or the CUDA status of the check.
 * Thread safety: safe from any thread.
 */
jet_status jet_event_wrap(jet_context ctx, void *cuda_event, unsigned flags, jet_event *out);

/**
 * jet_stream_is_wrapped / jet_event_is_wrapped - whether the handle wraps a
 * caller's CUDA object (1) or owns its own (0).
 * @wrapped: receives 0 or 1.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @wrapped.
 * Thread safety: safe from any thread.
 */
jet_status jet_stream_is_wrapped(jet_stream stream, int *wrapped);
jet_status jet_event_is_wrapped(jet_event event, int *wrapped);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_NATIVE_H */

/*
 * jetrt/dlpack.h - exchange GPU memory with frameworks (PyTorch, CuPy, JAX,
 * CV-CUDA, TVM, ...) as DLPack tensors, without copying.
 *
 * This header includes <dlpack/dlpack.h> (Debian/Ubuntu: libdlpack-dev); it is
 * not part of the umbrella header jetrt.h, so only code that uses DLPack needs
 * it. jetrt speaks both forms:
 *  - DLManagedTensor, DLPack 0.x (the "legacy" struct every version has);
 *  - DLManagedTensorVersioned, DLPack 1.x, where jetrt was built against a
 *    1.x header (jet_dlpack_versioned_supported() says; otherwise the
 *    _versioned calls return JET_STATUS_NOT_BUILT_IN).
 * A jetrt built without any DLPack header (JET_HAVE_DLPACK off, e.g. a cross
 * build whose sysroot lacks it) returns JET_STATUS_NOT_BUILT_IN from every
 * call here.
 *
 * EXPORT (jetrt memory -> tensor). The tensor points at the memory of a
 * jet_buffer or one plane of a jet_image, with
 *  - device: kDLCUDA for device memory (device_id = the context's device);
 *    kDLCUDAManaged for managed memory and kDLCUDAHost for pinned (mapped)
 *    host memory, both with device_id 0 as DLPack asks;
 *  - data the allocation's address and byte_offset the object's offset in it
 *    (0 for a buffer, the plane's offset for a created image), so data stays
 *    the aligned base DLPack asks for (the host pointer for host kinds);
 *  - shape and strides (in elements, never NULL) describing rows with the
 *    object's pitch: a buffer as [width] (1 row), [height, width] or
 *    [depth, height, width] in elements of the dtype asked; an image plane as
 *    [height, width] (one sample per pixel) or [height, width, channels];
 *  - a deleter. Call it exactly once when done (frameworks do). Lifetime:
 *    the tensor keeps the memory alive until its deleter runs, even when the
 *    jet_buffer or jet_image is destroyed first: destroying the object then
 *    only ends the handle, and the last deleter frees the memory. Each live
 *    tensor also counts as an object of the context, so jet_context_destroy
 *    is refused (JET_STATUS_INVALID_STATE) until every exported tensor's
 *    deleter has run. Memory the object does not own (jet_image_wrap) stays
 *    the caller's: the tensor is valid only as long as the caller keeps it.
 *    Objects lent by another jetrt object (GL-mapped buffers, EGL frames) are
 *    refused: they go away when their lender unmaps them.
 *  The deleter may be called from any thread; it makes the device current on
 *  that thread when it frees memory.
 *
 * IMPORT (tensor -> jetrt object). The jet_buffer or jet_image uses the
 * tensor's memory in place and takes the tensor over: destroying the jetrt
 * object calls the tensor's deleter (once; not at all when the deleter is
 * NULL). On failure nothing is taken: the tensor, and the duty to call its
 * deleter, stay the caller's. What is checked, before any CUDA call: the
 * device type (kDLCUDA, kDLCUDAManaged or kDLCUDAHost; kDLCPU is refused,
 * register it with jet_host_register instead), the device id (the context's
 * device for kDLCUDA; 0 or the context's device for the other two), the dtype
 * (whole bytes, 1 lane for images), shape (no negative extent, nothing empty,
 * no overflow), strides (see each call), the data pointer (non-NULL, aligned
 * to the element size after byte_offset), and for 1.x the major version (1)
 * and flags (read-only tensors are refused: jetrt cannot keep its calls from
 * writing). Then the pointer is checked with cudaPointerGetAttributes against
 * the device type and device.
 *
 * Streams: DLPack leaves synchronisation to the exchange (Python's
 * __dlpack__(stream=...)). jetrt enqueues nothing at export or import: order
 * work across the two sides with streams and events (jetrt/native.h gives the
 * cudaStream_t and cudaEvent_t).
 */
#ifndef JETRT_DLPACK_H
#define JETRT_DLPACK_H

#include <stdint.h>

#ifndef JET_DLPACK_NO_HEADER
#include <dlpack/dlpack.h>
#endif

#include "image.h"
#include "memory.h"

#ifdef __cplusplus
extern "C" {
#endif

struct DLManagedTensor;
struct DLManagedTensorVersioned;

/** An element type, as DLPack's DLDataType (code kDLInt/kDLUInt/kDLFloat/...,
 *  bits, lanes). */
typedef struct jet_dl_dtype {
  uint8_t code;   /**< DLDataTypeCode value */
  uint8_t bits;   /**< bits per lane: a multiple of 8 */
  uint16_t lanes; /**< lanes per element, >= 1 */
} jet_dl_dtype;

/**
 * jet_dlpack_versioned_supported - 1 when this jetrt was built against a
 * DLPack 1.x header (the _versioned calls work), else 0.
 * Thread safety: safe from any thread.
 */
int jet_dlpack_versioned_supported(void);

/**
 * jet_dlpack_export_buffer - a DLPack tensor over @buf's memory (see EXPORT).
 *
 * @buf: any buffer of jet_buffer_create or jet_host_register; host kinds
 *       are exported as kDLCUDAHost with their host pointer.
 * @dtype: the element type the tensor shows; NULL means uint8. The buffer's
 *       width_bytes and pitch must be multiples of its size.
 * @out: receives the tensor; NULL on failure. Call its deleter once.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @buf;
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @out, a dtype that is not
 *         whole bytes or does not divide the row or pitch;
 *         JET_STATUS_INVALID_STATE for a buffer lent by another jetrt object;
 *         JET_STATUS_OUT_OF_MEMORY; JET_STATUS_NOT_BUILT_IN without DLPack.
 * Thread safety: safe from any thread; must not race with destroying @buf.
 */
jet_status jet_dlpack_export_buffer(jet_buffer buf, const jet_dl_dtype *dtype,
                                    struct DLManagedTensor **out);

/**
 * jet_dlpack_export_image - a DLPack tensor over one plane of @image.
 *
 * The dtype is the format's sample type (uint8, uint16, float32 or float16
 * for RGBF16P, one lane); the shape [height, width] when the plane has one
 * sample per pixel (GRAY*, each plane of RGBF32P, RGBF16P and I420, NV12's Y), else [height, width, samples]
 * (RGB8: 3, RGBA8: 4, NV12's UV plane: 2, YUYV: 2), with strides [pitch /
 * sample size, samples, 1]. The device type follows the memory
 * (cudaPointerGetAttributes: device, managed or pinned host).
 * @plane: 0 .. plane count - 1.
 * @out: receives the tensor; NULL on failure. Call its deleter once.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @out or a plane out of range;
 *         JET_STATUS_INVALID_STATE for an image lent by another jetrt object;
 *         JET_STATUS_OUT_OF_MEMORY; a CUDA status; JET_STATUS_NOT_BUILT_IN.
 * Thread safety: safe from any thread; must not race with destroying @image.
 */
jet_status jet_dlpack_export_image(jet_image image, int plane, struct DLManagedTensor **out);

/**
 * jet_dlpack_import_buffer - a jet_buffer over a DLPack tensor's memory (see
 * IMPORT).
 *
 * Strides: compact row-major (strides NULL, or equal to the compact ones;
 * extents of 1 may have any stride), or two dimensions [rows, columns] with
 * unit column stride and a row stride of at least the columns (a pitched 2D
 * buffer). The buffer's kind follows the device type: kDLCUDA -> DEVICE,
 * kDLCUDAManaged -> MANAGED, kDLCUDAHost -> HOST_MAPPED (HOST_PINNED when the
 * device cannot map it); its width_bytes is a row's bytes, its height the
 * rows, its size the bytes from data + byte_offset to the end of the last row.
 * jet_buffer_destroy calls the tensor's deleter.
 * @ctx: the context; its device must be the tensor's.
 * @tensor: the tensor; taken over on success only.
 * @out: receives the buffer; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_INVALID_ARGUMENT for NULL arguments or a tensor the
 *         checks refuse (the message says which field); JET_STATUS_OVERFLOW;
 *         JET_STATUS_OUT_OF_MEMORY; a CUDA status; JET_STATUS_NOT_BUILT_IN.
 * Thread safety: safe from any thread.
 */
jet_status jet_dlpack_import_buffer(jet_context ctx, struct DLManagedTensor *tensor,
                                    jet_buffer *out);

/**
 * jet_dlpack_import_image - a jet_image over a DLPack tensor's memory.
 *
 * @format: the image format, or JET_FORMAT_NONE_ to infer it from dtype and
 *       shape: [h, w] or [h, w, 1] -> GRAY8 / GRAY16 / GRAYF32 (uint8, uint16,
 *       float32); [h, w, 3] -> RGB8 / RGBF32; [h, w, 4] -> RGBA8. Formats that
 *       take one tensor: every single-plane format, as [h, w] or [h, w, c]
 *       with c the samples per pixel (RGB8 3, RGBA8 4, RGBF32 3, YUYV and
 *       UYVY 2 with w the pixel width), and RGBF32P and RGBF16P (float16)
 *       as [3, h, w]. Other multi-plane formats (NV12, I420) are refused:
 *       import each plane as its own image.
 * Strides: the sample (last) stride 1, the pixel stride c, the row stride a
 *       pitch of at least w * c; for RGBF32P and RGBF16P the plane stride is
 *       free as long as the planes do not overlap. The dtype is the format's sample type
 *       with one lane.
 * Memory: kDLCUDA and kDLCUDAManaged give JET_IMAGE_MEMORY_DEVICE images,
 *       kDLCUDAHost a JET_IMAGE_MEMORY_MAPPED_HOST image (the device pointer
 *       from cudaHostGetDevicePointer). jet_image_get_memory reports it owned;
 *       jet_image_destroy calls the tensor's deleter.
 * @return as jet_dlpack_import_buffer; plus JET_STATUS_INVALID_ARGUMENT for
 *         an unknown format or a shape that fits neither the format nor the
 *         inference above.
 * Thread safety: safe from any thread.
 */
jet_status jet_dlpack_import_image(jet_context ctx, struct DLManagedTensor *tensor,
                                   jet_format format, jet_image *out);

/**
 * The DLPack 1.x forms of the four calls above: identical, with
 * DLManagedTensorVersioned (version {1, minor of jetrt's header}, flags 0 on
 * export). Import refuses another major version and read-only tensors; the
 * caller then keeps the tensor and calls its deleter, as after any refusal.
 * JET_STATUS_NOT_BUILT_IN where jetrt was built against a 0.x header.
 */
jet_status jet_dlpack_export_buffer_versioned(jet_buffer buf, const jet_dl_dtype *dtype,
                                              struct DLManagedTensorVersioned **out);
jet_status jet_dlpack_export_image_versioned(jet_image image, int plane,
                                             struct DLManagedTensorVersioned **out);
jet_status jet_dlpack_import_buffer_versioned(jet_context ctx,
                                              struct DLManagedTensorVersioned *tensor,
                                              jet_buffer *out);
jet_status jet_dlpack_import_image_versioned(jet_context ctx,
                                             struct DLManagedTensorVersioned *tensor,
                                             jet_format format, jet_image *out);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_DLPACK_H */

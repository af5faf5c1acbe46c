/*
 * jetrt/image.h - 2D images: formats, creation, wrapping, queries, copies.
 *
 * A jet_image is a width x height image of one jet_format, held in one to
 * three planes, each with its own pointer and pitch (bytes from one row to the
 * next). An image either owns device memory (jet_image_create) or wraps memory
 * the caller keeps (jet_image_wrap): device memory, mapped (zero-copy) host
 * memory, or the device pointer of a jet_shared buffer. It belongs to the
 * context it was made from.
 *
 * Plane geometry. Plane 0 has width x height pixels. The other planes of a YUV
 * format hold chroma at (width >> sub_x) x (height >> sub_y) sample sites;
 * RGBF32P's and RGBF16P's three planes are all full size. A plane's row
 * bytes are its width times its bytes per pixel (jet_format_desc.bytes_per_pixel). YUYV and UYVY
 * are one plane of 2 bytes per pixel (4 bytes per pair of pixels).
 *
 * Rules every image obeys (checked when it is made):
 *  - width and height are > 0, and all byte counts fit in size_t;
 *  - 4:2:0 formats (NV12, NV21, I420) have even width and even height; 4:2:2
 *    formats (YUYV, UYVY) have even width;
 *  - each plane's pitch is >= its row bytes and a multiple of the element
 *    size (1 for 8-bit formats, 2 for GRAY16 and RGBF16P, 4 for the F32
 *    formats);
 *  - each plane pointer is non-NULL and aligned to the element size;
 *  - no two planes overlap: the byte ranges [ptr, ptr + pitch*(rows-1) +
 *    row_bytes) are disjoint (a range check; planes interleaved row by row
 *    inside each other's range are refused too).
 * jet_image_create pads every pitch to a multiple of JET_IMAGE_PITCH_ALIGN and
 * aligns every plane to it, so kernels may use 16-byte vector accesses; wrapped
 * images get the fast paths only where their pointers and pitches allow.
 */
#ifndef JETRT_IMAGE_H
#define JETRT_IMAGE_H

#include <stddef.h>
#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jet_image_s *jet_image;

/** Element type of a format's samples. */
typedef enum jet_elem_type {
  JET_ELEM_U8 = 1,  /**< unsigned 8-bit */
  JET_ELEM_U16 = 2, /**< unsigned 16-bit, native endianness */
  JET_ELEM_F32 = 3, /**< IEEE float */
  JET_ELEM_F16 = 4  /**< IEEE 754 binary16 (half float), native endianness */
} jet_elem_type;

/*
 * The format table, one row per format:
 *   X(NAME, planes, bytes per pixel of planes 0/1/2, chroma sub_x, sub_y
 *     (log2 of the subsampling), channels, element type, description)
 * Values are stable: new formats are only ever appended.
 */
#define JET_FORMAT_MAP(X)                                                                      \
  X(GRAY8, 1, 1, 0, 0, 0, 0, 1, U8, "8-bit grey")                                              \
  X(GRAY16, 1, 2, 0, 0, 0, 0, 1, U16, "16-bit grey")                                           \
  X(GRAYF32, 1, 4, 0, 0, 0, 0, 1, F32, "float grey")                                           \
  X(RGB8, 1, 3, 0, 0, 0, 0, 3, U8, "packed R,G,B bytes")                                       \
  X(BGR8, 1, 3, 0, 0, 0, 0, 3, U8, "packed B,G,R bytes")                                       \
  X(RGBA8, 1, 4, 0, 0, 0, 0, 4, U8, "packed R,G,B,A bytes")                                    \
  X(BGRA8, 1, 4, 0, 0, 0, 0, 4, U8, "packed B,G,R,A bytes")                                    \
  X(RGBF32, 1, 12, 0, 0, 0, 0, 3, F32, "packed R,G,B floats")                                  \
  X(RGBF32P, 3, 4, 4, 4, 0, 0, 3, F32, "planar R,G,B floats (CHW)")                            \
  X(NV12, 2, 1, 2, 0, 1, 1, 3, U8, "4:2:0 Y plane + interleaved U,V plane")                    \
  X(NV21, 2, 1, 2, 0, 1, 1, 3, U8, "4:2:0 Y plane + interleaved V,U plane")                    \
  X(I420, 3, 1, 1, 1, 1, 1, 3, U8, "4:2:0 Y, U, V planes")                                     \
  X(YUYV, 1, 2, 0, 0, 1, 0, 3, U8, "4:2:2 packed Y0,U,Y1,V")                                   \
  X(UYVY, 1, 2, 0, 0, 1, 0, 3, U8, "4:2:2 packed U,Y0,V,Y1")                                   \
  X(RGBF16P, 3, 2, 2, 2, 0, 0, 3, F16, "planar R,G,B half floats (CHW)")

/** Image formats. 0 is no format. */
typedef enum jet_format {
  JET_FORMAT_NONE_ = 0,
#define JET__FORMAT_ENUM(name, ...) JET_FORMAT_##name,
  JET_FORMAT_MAP(JET__FORMAT_ENUM)
#undef JET__FORMAT_ENUM
  JET_FORMAT_COUNT_
} jet_format;

/** Maximum number of planes of any format. */
#define JET_IMAGE_MAX_PLANES 3
/** Most images one batched operation (jet_*_batch) takes in one call. */
#define JET_IMAGE_BATCH_MAX 16
/** Pitch and plane alignment of images made by jet_image_create, in bytes. */
#define JET_IMAGE_PITCH_ALIGN 256

/** One row of the format table. */
typedef struct jet_format_desc {
  const char *name;        /**< "NV12", ... */
  const char *description; /**< a few words */
  int planes;              /**< 1..3 */
  int bytes_per_pixel[JET_IMAGE_MAX_PLANES]; /**< per plane, per pixel (chroma site for planes >= 1) */
  int sub_x, sub_y;        /**< log2 of the chroma subsampling; 0 where there is none */
  int channels;            /**< colour channels (3 for YUV), alpha included */
  jet_elem_type elem;      /**< sample type */
  int elem_size;           /**< bytes per sample: the required pointer and pitch alignment */
} jet_format_desc;

/**
 * jet_format_name - the format's name, e.g. "NV12".
 * @return a static string; "UNKNOWN" for a value outside the list.
 * Thread safety: safe from any thread.
 */
const char *jet_format_name(jet_format format);

/**
 * jet_format_info - the format table's row for @format.
 * @return JET_STATUS_OK, or JET_STATUS_INVALID_ARGUMENT for a NULL @desc or an
 *         unknown format. Thread safety: safe from any thread.
 */
jet_status jet_format_info(jet_format format, jet_format_desc *desc);

/** What memory a wrapped image's planes live in. */
typedef enum jet_image_memory {
  JET_IMAGE_MEMORY_DEVICE = 0,      /**< device memory of the context's GPU (cudaMalloc, managed) */
  JET_IMAGE_MEMORY_MAPPED_HOST = 1, /**< pinned, mapped host memory (cudaHostAlloc(..., cudaHostAllocMapped)) */
  JET_IMAGE_MEMORY_SHARED = 2       /**< the device pointer of a jet_shared buffer (jet_shared_begin_gpu) */
} jet_image_memory;

/** A plane: pointer and pitch in bytes. */
typedef struct jet_image_plane {
  void *ptr;
  size_t pitch; /**< bytes between rows; 0 means tightly packed (the row bytes) where a call says so */
} jet_image_plane;

/**
 * jet_image_create - allocate a device image.
 *
 * One cudaMalloc holds all planes; each plane starts at a multiple of
 * JET_IMAGE_PITCH_ALIGN and each pitch is the row bytes rounded up to it. The
 * contents are undefined.
 * @ctx: the owning context.
 * @format: any jet_format.
 * @width, @height: pixels, > 0; even where the format needs (see above).
 * @out: receives the image; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @out, an unknown format, a
 *         size <= 0 or an odd size a subsampled format forbids;
 *         JET_STATUS_OVERFLOW when the byte count does not fit in size_t;
 *         JET_STATUS_OUT_OF_MEMORY or a CUDA status from cudaMalloc.
 * Thread safety: safe from any thread.
 */
jet_status jet_image_create(jet_context ctx, jet_format format, int width, int height,
                            jet_image *out);

/** jet_image_desc flags. */
enum {
  /** Memory another process can map (jetrt/ipc.h, jet_ipc_export_image), by
   *  the mechanism the policy and device allow, as JET_MEM_EXPORTABLE: VMM file
   *  descriptors where the device has them (always under a Tegra policy),
   *  else legacy CUDA IPC under a desktop policy. The allocation is rounded
   *  up to whole granules of at least JET_IPC_ALLOC_ALIGN (2 MiB). */
  JET_IMAGE_EXPORTABLE = 1u << 0,
  /** As JET_IMAGE_EXPORTABLE, forcing legacy CUDA IPC (cudaMalloc +
   *  cudaIpcGetMemHandle); refused with JET_STATUS_UNSUPPORTED where the
   *  policy forbids memory IPC (Jetson before Thor). Not with JET_IMAGE_EXPORTABLE. */
  JET_IMAGE_EXPORTABLE_LEGACY = 1u << 1
};

/** Parameters of jet_image_create_ex. Zero-initialise, then set what you need. */
typedef struct jet_image_desc {
  jet_format format; /**< any jet_format */
  int width, height; /**< pixels, > 0; even where the format needs */
  unsigned flags;    /**< JET_IMAGE_* flags; 0 is jet_image_create */
} jet_image_desc;

/**
 * jet_image_create_ex - allocate a device image with creation flags.
 *
 * The plane layout is exactly jet_image_create's (all planes in one
 * allocation, at multiples of JET_IMAGE_PITCH_ALIGN, pitches rounded up to
 * it); the flags only change where the allocation comes from.
 * @ctx: the owning context.
 * @desc: format, size and flags.
 * @out: receives the image; NULL on failure.
 * @return as jet_image_create; plus JET_STATUS_INVALID_ARGUMENT for a NULL
 *         @desc, an unknown flag or both EXPORTABLE flags, and
 *         JET_STATUS_UNSUPPORTED (with a hint) where the policy or device has
 *         no mechanism for the EXPORTABLE flag asked.
 * Thread safety: safe from any thread.
 */
jet_status jet_image_create_ex(jet_context ctx, const jet_image_desc *desc, jet_image *out);

/**
 * jet_image_wrap - describe existing memory as an image without copying it.
 *
 * The image does not own the memory: the caller keeps it alive until the
 * image is destroyed, and frees it afterwards. Every rule at the top of this
 * header is checked before any CUDA call; then each plane is checked against
 * @memory with cudaPointerGetAttributes:
 *  - DEVICE: device or managed memory of the context's device;
 *  - MAPPED_HOST: @planes[i].ptr is the host pointer; the image keeps the
 *    device pointer cudaHostGetDevicePointer gives for it (the context needs
 *    JET_CONTEXT_MAP_HOST where the device does not map all pinned memory);
 *  - SHARED: the pointer jet_shared_begin_gpu returned (device, managed or
 *    mapped host memory, whichever backs the buffer); the caller keeps the
 *    buffer in its GPU phase while operations use the image.
 * @ctx: the owning context.
 * @format, @width, @height: as for jet_image_create.
 * @planes: @plane_count planes, in the format's plane order (Y then UV for
 *          NV12; Y, U, V for I420; R, G, B for RGBF32P and
 *          RGBF16P); pitch 0 is refused.
 * @plane_count: must equal the format's plane count.
 * @memory: the kind of memory, see above.
 * @out: receives the image; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a bad @ctx;
 *         JET_STATUS_INVALID_ARGUMENT for NULL @out/@planes/plane pointers, a
 *         wrong plane count, an unknown format or memory kind, a bad size, a
 *         pitch below the row bytes or not a multiple of the element size, a
 *         misaligned pointer, overlapping planes, or memory that is not of
 *         the kind @memory says; JET_STATUS_OVERFLOW when a plane's extent
 *         does not fit in the address space; a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_image_wrap(jet_context ctx, jet_format format, int width, int height,
                          const jet_image_plane *planes, int plane_count, jet_image_memory memory,
                          jet_image *out);

/**
 * jet_image_destroy - release an image; frees its memory when it owns it.
 *
 * Work still queued on the image must be complete (or synchronised) first:
 * the memory of a created (or imported, jetrt/ipc.h) image is released after
 * waiting for the device, as cudaFree does, but a wrapped image's memory
 * belongs to the caller.
 * @image: the image, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE for a destroyed or foreign
 *         pointer; a CUDA status of the free call (the handle is released anyway).
 * Thread safety: no other thread may use @image during the call.
 */
jet_status jet_image_destroy(jet_image image);

/**
 * jet_image_get_size - the image's width and height in pixels.
 * @width, @height: receive the values; either may be NULL, not both.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE or JET_STATUS_INVALID_ARGUMENT.
 * Thread safety: safe from any thread.
 */
jet_status jet_image_get_size(jet_image image, int *width, int *height);

/**
 * jet_image_get_format - the image's format.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @format. Thread safety: safe from any thread.
 */
jet_status jet_image_get_format(jet_image image, jet_format *format);

/**
 * jet_image_get_memory - the kind of memory the image lives in
 * (JET_IMAGE_MEMORY_DEVICE for created images).
 * @owned: receives 1 when the image owns its memory (created or imported), 0
 *         when wrapped; may be NULL.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @memory. Thread safety: safe from any thread.
 */
jet_status jet_image_get_memory(jet_image image, jet_image_memory *memory, int *owned);

/**
 * jet_image_get_plane_count - number of planes (1..3).
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @count. Thread safety: safe from any thread.
 */
jet_status jet_image_get_plane_count(jet_image image, int *count);

/** One plane of an image, as jet_image_get_plane reports it. */
typedef struct jet_image_plane_info {
  void *ptr;        /**< device-accessible address of row 0 */
  size_t pitch;     /**< bytes between rows */
  size_t row_bytes; /**< bytes of pixel data in a row (<= pitch) */
  int width;        /**< pixels (chroma sites) per row of this plane */
  int height;       /**< rows of this plane */
} jet_image_plane_info;

/**
 * jet_image_get_plane - pointer, pitch and geometry of one plane.
 * @index: 0 .. plane count - 1.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or JET_STATUS_INVALID_ARGUMENT
 *         for a NULL @info or an index out of range.
 * Thread safety: safe from any thread.
 */
jet_status jet_image_get_plane(jet_image image, int index, jet_image_plane_info *info);

/**
 * jet_image_upload - copy host memory into the image, plane by plane
 * (cudaMemcpy2D), and wait for the copy.
 * @image: the destination.
 * @host: @plane_count host planes in the format's plane order; pitch 0 means
 *        tightly packed (the plane's row bytes). Pageable or pinned memory.
 * @plane_count: must equal the image's plane count.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_ARGUMENT
 *         for NULL @host or plane pointers, a wrong count or a pitch below the
 *         row bytes; JET_STATUS_OVERFLOW; a CUDA status.
 * Thread safety: safe from any thread; calls on one image must not race.
 */
jet_status jet_image_upload(jet_image image, const jet_image_plane *host, int plane_count);

/**
 * jet_image_download - copy the image into host memory and wait for the copy.
 * Arguments and statuses as for jet_image_upload, with @host the destination.
 */
jet_status jet_image_download(jet_image image, const jet_image_plane *host, int plane_count);

/**
 * jet_image_upload_async - jet_image_upload queued on @stream (cudaMemcpy2DAsync).
 *
 * The copy is asynchronous only for pinned host memory; the host memory must
 * stay valid and unchanged until the stream reaches the copy.
 * @stream: a stream of the image's context (or one of its default streams).
 * @return as jet_image_upload, plus JET_STATUS_INVALID_HANDLE for a bad stream
 *         and JET_STATUS_WRONG_CONTEXT for a stream of another context.
 * Thread safety: safe from any thread.
 */
jet_status jet_image_upload_async(jet_image image, const jet_image_plane *host, int plane_count,
                                  jet_stream stream);

/**
 * jet_image_download_async - jet_image_download queued on @stream.
 * Arguments and statuses as for jet_image_upload_async; @host must not be
 * read until the stream has passed the copy.
 */
jet_status jet_image_download_async(jet_image image, const jet_image_plane *host,
                                    int plane_count, jet_stream stream);

/* ------------------------------------------------------------------
 * Parameters of the image operations. The exact arithmetic of every operation
 * (rounding, pixel centres, borders) is written in kernels/image/color_coeffs.h
 * and tests/ref/ref_image.h.
 */

/** YUV <-> RGB matrix. */
typedef enum jet_color_matrix {
  JET_COLOR_BT601 = 0, /**< SDTV; also the luma weights of RGB -> GRAY */
  JET_COLOR_BT709 = 1  /**< HDTV */
} jet_color_matrix;

/** YUV value range. */
typedef enum jet_color_range {
  JET_COLOR_RANGE_LIMITED = 0, /**< Y 16..235, chroma 16..240 (video) */
  JET_COLOR_RANGE_FULL = 1     /**< 0..255 (JPEG) */
} jet_color_range;

/** Resize interpolation. */
typedef enum jet_interp {
  JET_INTERP_NEAREST = 0,  /**< nearest pixel centre */
  JET_INTERP_LINEAR = 1,   /**< bilinear, half-pixel centres */
  JET_INTERP_AREA = 2      /**< pixel-area average; downscaling only */
} jet_interp;

/** How filters and remap read outside the image. */
typedef enum jet_border {
  JET_BORDER_REPLICATE = 0,   /**< aaa|abcd|ddd */
  JET_BORDER_REFLECT_101 = 1, /**< dcb|abcd|cba */
  JET_BORDER_CONSTANT = 2     /**< a given value */
} jet_border;

/** Flip axes. */
typedef enum jet_flip {
  JET_FLIP_HORIZONTAL = 1, /**< mirror left-right: dst(x, y) = src(w-1-x, y) */
  JET_FLIP_VERTICAL = 2,   /**< upside down: dst(x, y) = src(x, h-1-y) */
  JET_FLIP_BOTH = 3        /**< both, the same as a 180 degree rotation */
} jet_flip;

/** Clockwise rotations. */
typedef enum jet_rotation {
  JET_ROTATE_90 = 90,   /**< dst is h x w: dst(x, y) = src(y, h-1-x) */
  JET_ROTATE_180 = 180, /**< dst(x, y) = src(w-1-x, h-1-y) */
  JET_ROTATE_270 = 270  /**< dst is h x w: dst(x, y) = src(w-1-y, x) */
} jet_rotation;

#ifdef __cplusplus
}
#endif
#endif /* JETRT_IMAGE_H */

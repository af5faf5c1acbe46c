/*
 * jetrt/texture.h - CUDA arrays, texture objects and surface objects
 * (CUDA Programming Guide, "Texture and Surface Memory" and the appendix
 * "Texture Fetching").
 *
 * A jet_array is a CUDA array (cudaMalloc3DArray) or, with more than one mip
 * level, a CUDA mipmapped array (cudaMallocMipmappedArray): opaque, texture-
 * cached storage of texels of one element format. Kinds: 1D, 2D, 3D, layered
 * 1D and 2D, cubemap and layered cubemap.
 *
 * A jet_texture is a texture object (cudaTextureObject_t) over an array, a
 * mipmapped array, linear memory (a jet_buffer range, read with tex1Dfetch) or
 * pitch-2D memory (a jet_buffer with a pitch, or a jet_image plane). A
 * jet_surface is a surface object (cudaSurfaceObject_t) over one level of an
 * array made with JET_ARRAY_SURFACE. Users' kernels take the native objects
 * (jet_texture_native, jet_surface_native) as 64-bit kernel parameters:
 *
 *     unsigned long long tex;              // cudaTextureObject_t in the kernel
 *     jet_texture_native(t, &tex);
 *     void *args[] = {&tex, &out};
 *     jet_launch(stream, kernel, grid, block, 0, args);
 *
 * Lifetimes. A texture or surface over a jet_array holds a reference on it:
 * jet_array_destroy refuses (JET_STATUS_INVALID_STATE, naming the count) while
 * textures or surfaces over it live, so a texture never reads freed storage.
 * A texture over a jet_buffer or jet_image does not hold it: the buffer or
 * image must outlive the texture (destroy the texture first), as in CUDA; for
 * an image another jetrt object lends (a mapped GL buffer or EGL frame),
 * destroy the texture before giving the image back. Arrays, textures and
 * surfaces count as live objects of their context, so jet_context_destroy
 * refuses while any lives.
 *
 * Validation. Every rule below is checked before any CUDA call, with a detail
 * naming the rule, so a bad description behaves alike on every machine; only
 * the address and pitch alignment of buffer and image memory are checked
 * after, against the device's attributes. Sizes beyond the device's limits
 * are reported by CUDA (the detail has the extent asked).
 */
#ifndef JETRT_TEXTURE_H
#define JETRT_TEXTURE_H

#include <stddef.h>
#include "context.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jet_array_s *jet_array;
typedef struct jet_texture_s *jet_texture;
typedef struct jet_surface_s *jet_surface;

/* ------------------------------------------------------------------ formats */

/** Type of one channel of a texel. */
typedef enum jet_channel_type {
  JET_CHANNEL_S8 = 1,  /**< signed 8-bit integer (char) */
  JET_CHANNEL_U8 = 2,  /**< unsigned 8-bit integer (unsigned char) */
  JET_CHANNEL_S16 = 3, /**< signed 16-bit integer (short) */
  JET_CHANNEL_U16 = 4, /**< unsigned 16-bit integer (unsigned short) */
  JET_CHANNEL_S32 = 5, /**< signed 32-bit integer (int) */
  JET_CHANNEL_U32 = 6, /**< unsigned 32-bit integer (unsigned int) */
  JET_CHANNEL_F16 = 7, /**< IEEE half; kernels read it as float */
  JET_CHANNEL_F32 = 8  /**< IEEE float */
} jet_channel_type;

/** A texel format: channel type and 1, 2 or 4 channels (3 is not a CUDA format). */
typedef struct jet_texel_format {
  jet_channel_type type;
  int channels;
} jet_texel_format;

/**
 * jet_texel_size - bytes of one texel of @fmt.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @bytes, an
 *         unknown type, or a channel count other than 1, 2 or 4.
 * Thread safety: safe from any thread.
 */
jet_status jet_texel_size(jet_texel_format fmt, size_t *bytes);

/* ------------------------------------------------------------------ arrays */

/** Array layouts. Extents per kind (texels; unused extents must be 0 or 1):
 *
 *  kind              width  height  depth  layers
 *  1D                w      -       -      -
 *  2D                w      h       -      -
 *  3D                w      h       d      -
 *  1D_LAYERED        w      -       -      n
 *  2D_LAYERED        w      h       -      n
 *  CUBEMAP           w      w       -      6 (0 means 6)
 *  CUBEMAP_LAYERED   w      w       -      6 * n
 *
 * Cube face order is +X, -X, +Y, -Y, +Z, -Z (layer = 6 * cube + face). */
typedef enum jet_array_kind {
  JET_ARRAY_1D = 1,
  JET_ARRAY_2D = 2,
  JET_ARRAY_3D = 3,
  JET_ARRAY_1D_LAYERED = 4,
  JET_ARRAY_2D_LAYERED = 5,
  JET_ARRAY_CUBEMAP = 6,
  JET_ARRAY_CUBEMAP_LAYERED = 7
} jet_array_kind;

/** Array flags (jet_array_desc.flags). */
enum {
  /** Surfaces may be made over the array (cudaArraySurfaceLoadStore). */
  JET_ARRAY_SURFACE = 1u << 0,
  /** tex2Dgather may read it (cudaArrayTextureGather); 2D arrays only; on a
   *  mipmapped array gather reads level 0 only. */
  JET_ARRAY_GATHER = 1u << 1
};

/** Parameters of jet_array_create. Zero-initialise, then set what you need. */
typedef struct jet_array_desc {
  jet_array_kind kind;
  jet_texel_format format;
  size_t width, height, depth; /**< texels; see jet_array_kind for which apply */
  size_t layers;               /**< layered and cubemap kinds; see jet_array_kind */
  unsigned levels;  /**< mip levels; 0 or 1: a plain array; > 1: a mipmapped array, at most
                         1 + floor(log2(largest of width, height, depth)) */
  unsigned flags;   /**< JET_ARRAY_* */
} jet_array_desc;

/** What an array is. */
typedef struct jet_array_info {
  jet_array_desc desc;  /**< as created, with unused extents 0 and levels >= 1 */
  size_t texel_bytes;   /**< bytes per texel */
  int mipmapped;        /**< 1: a cudaMipmappedArray_t (desc.levels > 1) */
  void *native;         /**< cudaArray_t, or cudaMipmappedArray_t when mipmapped */
  int textures;         /**< live textures and surfaces over the array */
} jet_array_info;

/**
 * jet_array_create - allocate a CUDA array or mipmapped array.
 *
 * Rules checked: a known kind; 1, 2 or 4 channels of a known type; width > 0;
 * height > 0 for 2D, 3D, 2D_LAYERED; depth > 0 for 3D; layers > 0 for the
 * layered kinds; cubemaps square (height 0 or equal to width) with 6 layers,
 * or a multiple of 6 for CUBEMAP_LAYERED; extents the kind does not use are 0
 * (1 is accepted for height and depth); JET_ARRAY_GATHER only on 2D; no unknown
 * flags; levels within the full mip chain of the largest extent (for layered
 * and cubemap kinds the layer count is not an extent).
 * @ctx: the owning context.
 * @desc: the description.
 * @out: receives the array; NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL arguments or a
 *         broken rule; JET_STATUS_OVERFLOW when the byte count overflows;
 *         JET_STATUS_INVALID_HANDLE for a bad @ctx; JET_STATUS_OUT_OF_MEMORY
 *         or a CUDA status (sizes beyond the device's limits give
 *         JET_STATUS_INVALID_ARGUMENT from CUDA, with the extent in the detail).
 * Thread safety: safe from any thread.
 */
jet_status jet_array_create(jet_context ctx, const jet_array_desc *desc, jet_array *out);

/**
 * jet_array_destroy - free an array.
 * @arr: the array, or NULL (a no-op).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE
 *         (nothing freed) while textures or surfaces over it live; or the CUDA
 *         status of the free (the handle is released all the same).
 * Thread safety: no other thread may use @arr during or after the call.
 */
jet_status jet_array_destroy(jet_array arr);

/**
 * jet_array_get_info - description, texel size, native handle, users.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE or
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @info.
 * Thread safety: safe from any thread.
 */
jet_status jet_array_get_info(jet_array arr, jet_array_info *info);

/**
 * jet_array_level_extent - size of mip level @level in texels: each extent
 * halved per level (rounded down, at least 1); layers are not halved.
 * @width, @height, @depth: receive the level's width, height (1 for 1D kinds)
 *        and depth or layer count (1 for 1D and 2D); each may be NULL.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or
 *         JET_STATUS_INVALID_ARGUMENT for a level >= the array's levels.
 * Thread safety: safe from any thread.
 */
jet_status jet_array_level_extent(jet_array arr, unsigned level, size_t *width, size_t *height,
                                  size_t *depth);

/* ------------------------------------------------------------------ copies */

/** What one end of a copy is. */
typedef enum jet_copy_end_kind {
  JET_COPY_END_HOST = 1,   /**< host memory (pageable or pinned) at host */
  JET_COPY_END_BUFFER = 2, /**< a jet_buffer at offset (its device_ptr, else host_ptr) */
  JET_COPY_END_IMAGE = 3,  /**< a jet_image plane, from texel (x, y) of it */
  JET_COPY_END_ARRAY = 4   /**< a jet_array level, from texel (x, y, z) */
} jet_copy_end_kind;

/**
 * One end of jet_array_copy. Zero-initialise, set kind and the fields it uses.
 *
 * Linear ends (HOST, BUFFER): rows of pitch bytes, slices of rows rows; pitch
 * 0 means the copy's width in bytes, rows 0 means the copy's height. For
 * IMAGE ends, z must be 0. For ARRAY ends, z is the slice of a 3D array or the
 * first layer of a layered or cubemap array (cube faces count as layers);
 * x, y and z are in texels of the level.
 */
typedef struct jet_copy_end {
  jet_copy_end_kind kind;
  void *host;          /**< HOST */
  jet_buffer buffer;   /**< BUFFER */
  size_t offset;       /**< BUFFER: bytes from the start of the buffer */
  size_t pitch, rows;  /**< HOST, BUFFER */
  jet_image image;     /**< IMAGE */
  int plane;           /**< IMAGE */
  jet_array array;     /**< ARRAY */
  unsigned level;      /**< ARRAY: mip level (0 for plain arrays) */
  size_t x, y, z;      /**< IMAGE, ARRAY: first texel (x in texels, not bytes) */
} jet_copy_end;

/**
 * jet_array_copy - copy a width x height x depth box of texels between an
 * array and host memory, a buffer, an image plane or another array
 * (cudaMemcpy3DAsync on CUDA's legacy default stream, then waiting for it, so
 * the data is in place on return, as jet_memcpy). At least one end is an ARRAY; the texel
 * size is that array's (two arrays must have the same texel size; an image
 * plane's pixel size must equal it). depth counts slices or layers; height and
 * depth 0 mean 1.
 *
 * Every end is checked against its object: the box inside the array level, the
 * buffer range [offset, offset + pitch * (rows * (depth - 1) + height - 1) +
 * width bytes) inside the buffer, the box inside the image plane; pitch below
 * the row bytes or rows below height refused.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL arguments, an
 *         unknown end kind, no array end, a box outside an end (the detail
 *         names the end, the axis and the sizes), a pitch or rows too small,
 *         or a texel size mismatch (a buffer end uses the buffer's device_ptr,
 *         else its host_ptr);
 *         JET_STATUS_OVERFLOW when offsets plus sizes overflow;
 *         JET_STATUS_INVALID_HANDLE for a bad array, buffer or image;
 *         JET_STATUS_WRONG_CONTEXT when handles belong to different contexts;
 *         JET_STATUS_UNSUPPORTED on a device without unified addressing; or a
 *         CUDA status.
 * Thread safety: safe from any thread; copies into one object must not race.
 */
jet_status jet_array_copy(const jet_copy_end *dst, const jet_copy_end *src, size_t width,
                          size_t height, size_t depth);

/**
 * jet_array_copy_async - jet_array_copy queued on @stream (cudaMemcpy3DAsync).
 * Host memory must stay valid and unchanged until the stream reaches the copy
 * (asynchronous for pinned memory only).
 * @return as jet_array_copy, plus JET_STATUS_INVALID_HANDLE for a bad
 *         @stream and JET_STATUS_WRONG_CONTEXT for one of another context.
 * Thread safety: safe from any thread.
 */
jet_status jet_array_copy_async(const jet_copy_end *dst, const jet_copy_end *src, size_t width,
                                size_t height, size_t depth, jet_stream stream);

/**
 * jet_array_upload / jet_array_download - a whole level from / to tightly
 * packed host memory (rows of width * texel bytes, slices of height rows,
 * layers or slices one after another), waiting for the copy.
 * @return as jet_array_copy.
 * Thread safety: safe from any thread.
 */
jet_status jet_array_upload(jet_array arr, unsigned level, const void *host);
jet_status jet_array_download(jet_array arr, unsigned level, void *host);

/* ------------------------------------------------------------------ textures */

/** Address modes, per dimension. Zero (CLAMP) is valid everywhere. */
typedef enum jet_address_mode {
  JET_ADDRESS_CLAMP = 0,  /**< clamp to the edge texel */
  JET_ADDRESS_WRAP = 1,   /**< repeat; normalised coordinates only */
  JET_ADDRESS_MIRROR = 2, /**< repeat mirrored; normalised coordinates only */
  JET_ADDRESS_BORDER = 3  /**< outside reads border_color */
} jet_address_mode;

/** Filters. */
typedef enum jet_filter {
  JET_FILTER_POINT = 0,  /**< nearest texel */
  JET_FILTER_LINEAR = 1  /**< (bi/tri)linear with 9-bit fixed-point weights; float results only */
} jet_filter;

/** What a fetch returns. */
typedef enum jet_read_mode {
  JET_READ_ELEMENT = 0,         /**< the texel's own type */
  JET_READ_NORMALIZED_FLOAT = 1 /**< 8/16-bit integers as float in [0,1] (unsigned) or [-1,1] */
} jet_read_mode;

/**
 * How a texture is sampled. Zero-initialised it is: clamp, point, element
 * read mode, unnormalised coordinates, no mipmap settings: valid for every
 * memory kind. Rules (checked by every jet_texture_create_*):
 *  - WRAP and MIRROR need normalized_coords (CUDA would silently clamp);
 *  - LINEAR filtering needs a float result: an F16/F32 format, or an 8/16-bit
 *    integer format read as JET_READ_NORMALIZED_FLOAT;
 *  - JET_READ_NORMALIZED_FLOAT needs an 8 or 16-bit integer format;
 *  - srgb needs a U8 format read as JET_READ_NORMALIZED_FLOAT;
 *  - linear memory (tex1Dfetch) takes none of: WRAP/MIRROR/BORDER, LINEAR,
 *    normalized_coords, max_anisotropy > 1 (its reads outside return 0);
 *  - max_anisotropy (0 means 1) is at most 16 and applies to arrays only;
 *  - the mipmap settings (mipmap_filter LINEAR, mip_bias, min/max_mip_level)
 *    apply to mipmapped arrays only; min_mip_level <= max_mip_level <
 *    levels; a LINEAR mipmap_filter needs a float result as LINEAR does;
 *  - seamless_cubemap needs a cubemap array;
 *  - every enum value known; border_color finite.
 */
typedef struct jet_texture_desc {
  jet_address_mode address[3]; /**< per dimension x, y, z; those past the memory's
                                    dimensions are ignored (1D: y, z; 2D: z) */
  float border_color[4];       /**< R, G, B, A returned by BORDER (in the read's units);
                                    the GPU rounds it to the texel format's precision
                                    (U8: 1/255, S16: 1/32767, F16: half) */
  jet_filter filter;
  jet_read_mode read_mode;
  int normalized_coords;       /**< 1: coordinates in [0,1) span the texture */
  int srgb;                    /**< 1: sRGB -> linear conversion on read */
  unsigned max_anisotropy;     /**< 0 or 1: off; up to 16 */
  jet_filter mipmap_filter;    /**< between mip levels */
  float mip_bias;              /**< added to the computed level */
  float min_mip_level, max_mip_level; /**< level clamp; both 0 means 0 .. levels - 1 */
  int seamless_cubemap;        /**< 1: filter across cube faces */
} jet_texture_desc;

/**
 * jet_texture_create_array - a texture over a jet_array (plain or mipmapped).
 * The texture holds a reference on @arr (see Lifetimes above). Kernels read it
 * with tex1D/tex2D/tex3D/tex1DLayered/tex2DLayered/texCubemap/
 * texCubemapLayered (with Lod or Grad for mipmapped arrays) and tex2Dgather
 * for JET_ARRAY_GATHER arrays.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL arguments or a
 *         broken rule of jet_texture_desc; JET_STATUS_INVALID_HANDLE for a bad
 *         @arr; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_texture_create_array(jet_array arr, const jet_texture_desc *desc,
                                    jet_texture *out);

/**
 * jet_texture_create_linear - a texture over @count texels of @fmt at byte
 * @offset of @buf's device memory (cudaResourceTypeLinear, read with
 * tex1Dfetch(tex, index)).
 * @offset: must keep the device address aligned to the device's texture
 *          alignment (cudaDevAttrTextureAlignment, 512 on current GPUs).
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL arguments, a
 *         zero count, a range outside the buffer, a buffer without device
 *         pointer, a misaligned address, or a broken rule; JET_STATUS_OVERFLOW;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_texture_create_linear(jet_buffer buf, size_t offset, size_t count,
                                     jet_texel_format fmt, const jet_texture_desc *desc,
                                     jet_texture *out);

/**
 * jet_texture_create_pitch2d - a 2D texture over @width x @height texels of
 * @fmt in rows of @pitch bytes from byte @offset of @buf (cudaResourceTypePitch2D,
 * read with tex2D). @pitch 0 means the buffer's pitch.
 * The address must be aligned to cudaDevAttrTextureAlignment and the pitch to
 * cudaDevAttrTexturePitchAlignment (buffers made with JET_MEM_PITCHED are).
 * @return as jet_texture_create_linear, plus the pitch rules.
 * Thread safety: safe from any thread.
 */
jet_status jet_texture_create_pitch2d(jet_buffer buf, size_t offset, size_t width, size_t height,
                                      size_t pitch, jet_texel_format fmt,
                                      const jet_texture_desc *desc, jet_texture *out);

/**
 * jet_texture_create_image - a 2D texture over one plane of a jet_image
 * (pitch-2D memory). The plane's texel format follows the image format:
 *   GRAY8, Y/U/V planes of I420 and NV12/NV21 plane 0: U8 x 1;
 *   NV12/NV21 plane 1: U8 x 2 (U,V or V,U); YUYV, UYVY: U8 x 2 (one texel per
 *   pixel: two bytes); RGBA8, BGRA8: U8 x 4; GRAY16: U16 x 1;
 *   GRAYF32 and RGBF32P planes: F32 x 1; RGBF16P planes: F16 x 1. RGB8, BGR8
 *   and RGBF32 (3 channels) have no texture format and are refused.
 * The plane's address and pitch are checked as in jet_texture_create_pitch2d:
 * plane 0 of a jet_image_create image always qualifies; its later planes start
 * at multiples of JET_IMAGE_PITCH_ALIGN (256) and are refused on a device
 * whose texture alignment is larger (512 on current GPUs): copy such a plane
 * into a jet_array, or wrap planes placed at 512-byte boundaries.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL arguments, a
 *         plane out of range, a 3-channel format, misalignment or a broken
 *         rule; JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_texture_create_image(jet_image image, int plane, const jet_texture_desc *desc,
                                    jet_texture *out);

/**
 * jet_image_texture - the sampler users' kernels want for an image plane:
 * bilinear filtering, normalised coordinates, clamp to edge, and normalised-
 * float reads of 8/16-bit formats (F32 planes read as they are). In a kernel:
 *
 *     float v = tex2D<float>(tex, (x + 0.5f) / w, (y + 0.5f) / h);   // GRAY8: 0..1
 *     float4 c = tex2D<float4>(tex, u, v);                             // RGBA8
 *
 * The texel centre of pixel (i, j) is ((i + 0.5) / w, (j + 0.5) / h).
 * @return as jet_texture_create_image.
 * Thread safety: safe from any thread.
 */
jet_status jet_image_texture(jet_image image, int plane, jet_texture *out);

/**
 * jet_texture_destroy - destroy a texture object (and drop its array reference).
 * Kernels using it must have finished.
 * @tex: the texture, or NULL (a no-op).
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or the CUDA status of the
 *         destroy (the handle is released all the same).
 * Thread safety: no other thread may use @tex during or after the call.
 */
jet_status jet_texture_destroy(jet_texture tex);

/**
 * jet_texture_native - the cudaTextureObject_t (an unsigned long long) to pass
 * to kernels.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @obj.
 * Thread safety: safe from any thread.
 */
jet_status jet_texture_native(jet_texture tex, unsigned long long *obj);

/* ------------------------------------------------------------------ surfaces */

/**
 * jet_surface_create - a surface object over mip level @level of @arr (0 for a
 * plain array), which must have JET_ARRAY_SURFACE. Kernels read and write it
 * with surf1Dread/surf2Dwrite/surf3D.../surf2DLayered.../surfCubemap...; x is in
 * bytes. The surface holds a reference on @arr.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for NULL @out, an array
 *         without JET_ARRAY_SURFACE or a level out of range;
 *         JET_STATUS_INVALID_HANDLE; or a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_surface_create(jet_array arr, unsigned level, jet_surface *out);

/**
 * jet_surface_destroy - destroy a surface object (and drop its array reference).
 * @surf: the surface, or NULL (a no-op).
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or a CUDA status (the
 *         handle is released all the same).
 * Thread safety: no other thread may use @surf during or after the call.
 */
jet_status jet_surface_destroy(jet_surface surf);

/**
 * jet_surface_native - the cudaSurfaceObject_t (an unsigned long long) to pass
 * to kernels.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_HANDLE, or
 *         JET_STATUS_INVALID_ARGUMENT for a NULL @obj.
 * Thread safety: safe from any thread.
 */
jet_status jet_surface_native(jet_surface surf, unsigned long long *obj);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_TEXTURE_H */

/*
 * jetrt/gl.h - OpenGL interop: GL buffers, textures and renderbuffers in CUDA.
 *
 * A GL object is registered once (cudaGraphicsGLRegisterBuffer / Image), then
 * mapped for CUDA on a stream and unmapped before GL uses it again:
 *  - a buffer (PBO, VBO, SSBO) maps to a device pointer: jetrt wraps it, with
 *    no copy, as a jet_buffer (jet_gl_mapped_buffer) or a jet_image
 *    (jet_gl_mapped_image);
 *  - a texture or renderbuffer maps to a CUDA array: jet_gl_copy_to_image and
 *    jet_gl_copy_from_image move pixels between it and a jet_image.
 *
 * GL names and enums are passed as unsigned int, so this header needs no GL
 * header. Registration, mapping, unmapping and unregistration talk to the GL
 * driver: the GL context that owns the object must be current on the calling
 * thread (eglMakeCurrent, or jet_presenter_make_current). A build without the
 * GL headers keeps every function here, returning JET_STATUS_NOT_BUILT_IN.
 *
 * Lifetime: a registration belongs to its jet_context. Destroying the context
 * with registrations alive unmaps and unregisters them (with their GL context
 * still current, if it can) and reports them in a "leak report:" warning
 * (jet_context_destroy). The jet_buffer / jet_image a mapping hands out belong
 * to the registration: they are valid until the unmap (or the unregister, or
 * the context's destruction), jet_buffer_destroy / jet_image_destroy refuse
 * them (INVALID_STATE), and jet_context_destroy does not count them as live
 * objects of its own.
 */
#ifndef JETRT_GL_H
#define JETRT_GL_H

#include <stddef.h>
#include "context.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jet_gl_resource_s *jet_gl_resource;

/** Registration flags (hints to the driver); at most one. */
enum {
  JET_GL_READ_ONLY = 1u << 0,     /**< CUDA only reads (cudaGraphicsRegisterFlagsReadOnly) */
  JET_GL_WRITE_DISCARD = 1u << 1, /**< CUDA overwrites everything; GL's contents are not kept
                                       (cudaGraphicsRegisterFlagsWriteDiscard) */
  JET_GL_SURFACE_LOAD_STORE = 1u << 2 /**< images only: the array may back a surface object
                                           (cudaGraphicsRegisterFlagsSurfaceLoadStore) */
};

/** What a registration is, as jet_gl_get_info reports it. */
typedef struct jet_gl_info {
  unsigned name;    /**< GL object name */
  unsigned target;  /**< the texture target or GL_RENDERBUFFER; 0 for buffers */
  int is_buffer;    /**< 1: a buffer; 0: a texture or renderbuffer */
  unsigned flags;   /**< JET_GL_* as registered */
  int mapped;       /**< 1 between jet_gl_map and jet_gl_unmap */
  size_t bytes;     /**< buffers while mapped: the mapped size; else 0 */
} jet_gl_info;

/**
 * jet_gl_register_buffer - register a GL buffer object with CUDA.
 * @ctx: the context that will use it.
 * @buffer: a GL buffer name with storage (glBufferData done).
 * @flags: 0 or one of JET_GL_READ_ONLY, JET_GL_WRITE_DISCARD.
 * @out: receives the registration.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (NULL @out, @buffer 0, unknown or
 *         two flags, JET_GL_SURFACE_LOAD_STORE); INVALID_HANDLE; INVALID_STATE
 *         (no current GL context, or one CUDA cannot reach: the hint says so);
 *         a CUDA status (e.g. a name that is not a buffer of the current context).
 *         All argument checks come before any CUDA call.
 * Thread safety: the owning GL context must be current on the calling thread.
 */
jet_status jet_gl_register_buffer(jet_context ctx, unsigned buffer, unsigned flags,
                                  jet_gl_resource *out);

/**
 * jet_gl_register_image - register a GL texture or renderbuffer with CUDA.
 * @name: the texture or renderbuffer name.
 * @target: GL_TEXTURE_2D, GL_TEXTURE_RECTANGLE, GL_TEXTURE_CUBE_MAP,
 *          GL_TEXTURE_3D, GL_TEXTURE_2D_ARRAY or GL_RENDERBUFFER.
 * @flags: 0 or one JET_GL_* flag.
 * @out: receives the registration.
 * @return as jet_gl_register_buffer; INVALID_ARGUMENT for another target.
 * Thread safety: as jet_gl_register_buffer.
 */
jet_status jet_gl_register_image(jet_context ctx, unsigned name, unsigned target, unsigned flags,
                                 jet_gl_resource *out);

/**
 * jet_gl_unregister - unmap if mapped (on the legacy stream), then unregister.
 * @r: the registration, or NULL (a no-op).
 * @return JET_STATUS_OK; INVALID_HANDLE; a CUDA status (the handle is released
 *         anyway, with the jet_buffer and jet_images its mapping handed out).
 * Thread safety: as jet_gl_register_buffer; no other thread may use @r.
 */
jet_status jet_gl_unregister(jet_gl_resource r);

/**
 * jet_gl_get_info - what @r is and whether it is mapped.
 * @return JET_STATUS_OK, INVALID_HANDLE, INVALID_ARGUMENT for a NULL @info.
 * Thread safety: safe from any thread.
 */
jet_status jet_gl_get_info(jet_gl_resource r, jet_gl_info *info);

/**
 * jet_gl_map - map @r for CUDA; GL must not touch the object until jet_gl_unmap.
 * GL work issued before the call completes before work on @stream uses it.
 * @stream: a stream of @r's context.
 * @return JET_STATUS_OK; INVALID_HANDLE; WRONG_CONTEXT; INVALID_STATE (already
 *         mapped); a CUDA status.
 * Thread safety: as jet_gl_register_buffer.
 */
jet_status jet_gl_map(jet_gl_resource r, jet_stream stream);

/**
 * jet_gl_unmap - give @r back to GL; work on @stream before the call completes
 * before GL uses the object. Releases the jet_buffer / jet_image the mapping
 * handed out.
 * @return JET_STATUS_OK; INVALID_HANDLE; WRONG_CONTEXT; INVALID_STATE (not
 *         mapped; or no current GL context: then nothing changed, and the call
 *         can be repeated with the context current); another CUDA status (the
 *         mapping is given up anyway).
 * Thread safety: as jet_gl_register_buffer.
 */
jet_status jet_gl_unmap(jet_gl_resource r, jet_stream stream);

/**
 * jet_gl_mapped_pointer - device address and size of a mapped buffer.
 * @ptr, @bytes: receive them; either may be NULL, not both.
 * @return JET_STATUS_OK; INVALID_HANDLE; INVALID_ARGUMENT (NULL, or @r is an
 *         image); INVALID_STATE (not mapped).
 * Thread safety: safe from any thread.
 */
jet_status jet_gl_mapped_pointer(jet_gl_resource r, void **ptr, size_t *bytes);

/**
 * jet_gl_mapped_buffer - the mapped buffer as a jet_buffer (kind
 * JET_MEMORY_DEVICE, no copy), valid until jet_gl_unmap.
 * @out: receives it; the same handle on every call during one mapping.
 * @return as jet_gl_mapped_pointer; OUT_OF_MEMORY.
 * Thread safety: safe from any thread.
 */
jet_status jet_gl_mapped_buffer(jet_gl_resource r, jet_buffer *out);

/**
 * jet_gl_mapped_image - the mapped buffer as a jet_image (no copy), valid until
 * jet_gl_unmap. The planes must lie inside the buffer.
 * @format, @width, @height: the image's description.
 * @pitches: per-plane pitch, or NULL for tightly packed rows.
 * @offsets: per-plane byte offset into the buffer, or NULL for planes placed
 *           one after another from offset 0 (each starts at the previous
 *           plane's offset + pitch * rows).
 * @out: receives the image; each call makes a new one (all released at unmap).
 * @return JET_STATUS_OK; INVALID_HANDLE; INVALID_ARGUMENT (the rules of
 *         jet_image_wrap, or planes past the end of the buffer); INVALID_STATE
 *         (not mapped); OUT_OF_MEMORY.
 * Thread safety: safe from any thread.
 */
jet_status jet_gl_mapped_image(jet_gl_resource r, jet_format format, int width, int height,
                               const size_t *pitches, const size_t *offsets, jet_image *out);

/**
 * jet_gl_mapped_array - the CUDA array (cudaArray_t) of a mapped texture's
 * layer or cube face and mip level.
 * @layer: array layer or cube face (cudaGraphicsCubeFace), 0 otherwise.
 * @level: mip level.
 * @array: receives the cudaArray_t.
 * @return JET_STATUS_OK; INVALID_HANDLE; INVALID_ARGUMENT (@r is a buffer);
 *         INVALID_STATE (not mapped); a CUDA status (no such layer or level).
 * Thread safety: safe from any thread.
 */
jet_status jet_gl_mapped_array(jet_gl_resource r, unsigned layer, unsigned level, void **array);

/**
 * jet_gl_copy_to_image - copy level 0, layer 0 of a mapped texture or
 * renderbuffer into @dst on @stream (cudaMemcpy2DFromArrayAsync).
 * @dst: a single-plane image of the texture's size whose pixel size equals the
 *       texture's texel size (RGBA8/BGRA8 for GL_RGBA8, GRAY8 for GL_R8,
 *       GRAY16 for GL_R16, GRAYF32 for GL_R32F).
 * @return JET_STATUS_OK; INVALID_HANDLE; WRONG_CONTEXT; INVALID_ARGUMENT (a
 *         buffer, an image of more than one plane, "size mismatch", "texel size
 *         mismatch", a 3D or layered texture: copy those through
 *         jet_gl_mapped_array); INVALID_STATE (not mapped); a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_gl_copy_to_image(jet_gl_resource r, jet_image dst, jet_stream stream);

/**
 * jet_gl_copy_from_image - copy @src into level 0, layer 0 of a mapped texture
 * (cudaMemcpy2DToArrayAsync). Arguments and statuses as jet_gl_copy_to_image;
 * a registration made with JET_GL_READ_ONLY is refused (INVALID_STATE).
 */
jet_status jet_gl_copy_from_image(jet_gl_resource r, jet_image src, jet_stream stream);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_GL_H */

/*
 * jetrt/geometry.h - transpose, flip and rotation of images.
 *
 * The operations move pixels without changing them: every output pixel is a
 * bit-exact copy of one input pixel (the rules are in jetrt/image.h at
 * jet_flip and jet_rotation, and in tests/ref/ref_image.h).
 *
 * Formats: the single-plane unsubsampled formats GRAY8, GRAY16, GRAYF32,
 * RGB8, BGR8, RGBA8, BGRA8 and RGBF32 (pixels of 1, 2, 4, 3, 3, 4, 4 and 12
 * bytes). Source and destination have the same format; anything else is
 * refused with "format mismatch". The operations do not work in place: source
 * and destination must not overlap.
 *
 * Speed. Images from jet_image_create (256-byte aligned pitches) take the
 * fast paths: flips move 16 bytes per access (48 for 3- and 12-byte pixels)
 * where the row length is a whole number of such chunks; transposes and
 * 90/270 rotations go through shared-memory tiles with 4-byte accesses.
 * Wrapped images with less aligned pointers or pitches get a correct per-pixel
 * path. Each operation reads the source once and writes the destination once.
 *
 * All operations are asynchronous on a jet_stream: they queue one kernel and
 * return; the result is there once the stream has passed it.
 */
#ifndef JETRT_GEOMETRY_H
#define JETRT_GEOMETRY_H
#include "image.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * jet_transpose - dst(x, y) = src(y, x); dst is h x w for a w x h source.
 * @stream: a stream of the images' context.
 * @src, @dst: live images of one context, same format (see above), @dst of
 *             the swapped size, not overlapping @src.
 * @return JET_STATUS_OK once queued; JET_STATUS_INVALID_HANDLE for a NULL or
 *         destroyed image or stream; JET_STATUS_WRONG_CONTEXT when they come
 *         from different contexts; JET_STATUS_INVALID_ARGUMENT for a format
 *         outside the list or different formats ("format mismatch"), a
 *         destination of the wrong size ("size mismatch") or overlapping
 *         images; a CUDA status when the kernel cannot be loaded or launched.
 * Thread safety: safe from any thread; @dst must not be used by other work
 * until the stream has passed the operation.
 */
jet_status jet_transpose(jet_stream stream, jet_image src, jet_image dst);

/**
 * jet_flip_image - mirror @src into @dst (same size) along the axes of @flip:
 * HORIZONTAL dst(x, y) = src(w-1-x, y), VERTICAL dst(x, y) = src(x, h-1-y),
 * BOTH (the same as a 180 degree rotation) dst(x, y) = src(w-1-x, h-1-y).
 * @flip: a jet_flip value.
 * @return as jet_transpose, plus JET_STATUS_INVALID_ARGUMENT for an unknown
 *         @flip; "size mismatch" when the sizes differ.
 * Thread safety: as jet_transpose.
 * (Named jet_flip_image because jet_flip is the enum type's name.)
 */
jet_status jet_flip_image(jet_stream stream, jet_image src, jet_image dst, jet_flip flip);

/**
 * jet_rotate - rotate @src clockwise by @rotation into @dst:
 * 90: dst is h x w, dst(x, y) = src(y, h-1-x);
 * 180: dst is w x h, dst(x, y) = src(w-1-x, h-1-y);
 * 270: dst is h x w, dst(x, y) = src(w-1-y, x).
 * @rotation: JET_ROTATE_90, JET_ROTATE_180 or JET_ROTATE_270.
 * @return as jet_transpose, plus JET_STATUS_INVALID_ARGUMENT for another
 *         @rotation value.
 * Thread safety: as jet_transpose.
 */
jet_status jet_rotate(jet_stream stream, jet_image src, jet_image dst, jet_rotation rotation);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_GEOMETRY_H */

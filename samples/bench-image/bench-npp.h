/*
 * bench-npp.h - what bench-npp.c and bench-npp-new.c share: the stream
 * context and the planes of a set. Compiled only where CMake found NPP.
 */
#ifndef JET_BENCH_NPP_H
#define JET_BENCH_NPP_H

#include <nppcore.h>
#include <nppdefs.h>

#include "bench-image.h"

/* Filled by bench_npp_init; every NPP call takes it. */
extern NppStreamContext bench_npp_ctx;

/* The planes of image 0 of a set: s[] of the source, d[] of the destination. */
typedef struct bench_planes {
  jet_image_plane_info s[JET_IMAGE_MAX_PLANES], d[JET_IMAGE_MAX_PLANES];
} bench_planes;

/* Fills @p; 0 or -1. */
int bench_npp_planes(const bench_io *io, bench_planes *p);

#endif /* JET_BENCH_NPP_H */

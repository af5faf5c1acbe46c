/* Helpers of the resize, remap and DNN-preprocess GPU tests: device images
 * with created or odd padded pitches, poisoning, and read-back that also
 * checks the row padding was left alone. */
#ifndef JET_TEST_RESIZE_UTIL_H
#define JET_TEST_RESIZE_UTIL_H

#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "../ref/ref_image.h"

#define JTR_POISON 0xA5

typedef struct jtr_image {
  jet_image img;
  void *mem; /* wrapped allocation, NULL for a created image */
} jtr_image;

/* A device image of @host's format and size: created when @extra < 0, else
 * wrapped device memory whose pitches are the row bytes + @extra (rounded up
 * to the element size) and whose planes start @shift bytes (a multiple of the
 * element size) past a 256-byte boundary. The pixels of @host are uploaded
 * when @upload. */
static int jtr_make(jet_context ctx, const ref_image *host, long extra, size_t shift, int upload,
                    jtr_image *out) {
  memset(out, 0, sizeof *out);
  if (extra < 0) {
    CHECK_OK(jet_image_create(ctx, host->format, host->width, host->height, &out->img));
  } else {
    jet_image_plane planes[JET_IMAGE_MAX_PLANES];
    size_t offs[JET_IMAGE_MAX_PLANES], total = 0, e = (size_t)host->elem_size;
    for (int i = 0; i < host->planes; i++) {
      planes[i].pitch = (host->row_bytes[i] + (size_t)extra + e - 1) / e * e;
      offs[i] = total;
      total += (planes[i].pitch * (size_t)host->plane_h[i] + shift + 255) / 256 * 256;
    }
    CHECK(cudaMalloc(&out->mem, total) == cudaSuccess);
    for (int i = 0; i < host->planes; i++) planes[i].ptr = (char *)out->mem + offs[i] + shift;
    CHECK_OK(jet_image_wrap(ctx, host->format, host->width, host->height, planes, host->planes,
                            JET_IMAGE_MEMORY_DEVICE, &out->img));
  }
  if (upload) {
    jet_image_plane hp[JET_IMAGE_MAX_PLANES];
    ref_image_planes(host, hp);
    CHECK_OK(jet_image_upload(out->img, hp, host->planes));
  }
  return 0;
}

static void jtr_free(jtr_image *d) {
  (void)jet_image_destroy(d->img);
  if (d->mem) (void)cudaFree(d->mem);
  memset(d, 0, sizeof *d);
}

/* Fill every plane's whole extent (rows and padding between them). */
static int jtr_poison(const jtr_image *d) {
  int n = 0;
  CHECK_OK(jet_image_get_plane_count(d->img, &n));
  for (int i = 0; i < n; i++) {
    jet_image_plane_info pi;
    CHECK_OK(jet_image_get_plane(d->img, i, &pi));
    size_t extent = pi.pitch * (size_t)(pi.height - 1) + pi.row_bytes;
    CHECK(cudaMemset(pi.ptr, JTR_POISON, extent) == cudaSuccess);
  }
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  return 0;
}

/* Read the image back into @got (allocated by the caller with the same
 * format and size) and check that the bytes between rows still hold the
 * poison. */
static int jtr_fetch(const jtr_image *d, ref_image *got) {
  for (int i = 0; i < got->planes; i++) {
    jet_image_plane_info pi;
    CHECK_OK(jet_image_get_plane(d->img, i, &pi));
    size_t extent = pi.pitch * (size_t)(pi.height - 1) + pi.row_bytes;
    unsigned char *buf = malloc(extent);
    CHECK(buf);
    if (cudaMemcpy(buf, pi.ptr, extent, cudaMemcpyDeviceToHost) != cudaSuccess) {
      free(buf);
      CHECK(!"cudaMemcpy of the result failed");
    }
    int bad_pad = 0;
    for (int y = 0; y < pi.height; y++) {
      const unsigned char *row = buf + pi.pitch * (size_t)y;
      memcpy(got->data[i] + got->pitch[i] * (size_t)y, row, pi.row_bytes);
      if (y + 1 < pi.height)
        for (size_t b = pi.row_bytes; b < pi.pitch; b++) bad_pad |= row[b] != JTR_POISON;
    }
    free(buf);
    CHECK_MSG(!bad_pad, "plane %d: the row padding was written", i);
  }
  return 0;
}

/* Random float in [lo, hi). */
static double jtr_uniform(double lo, double hi) {
  return lo + (hi - lo) * ((double)(jt_rand() >> 8) / 16777216.0);
}

#endif /* JET_TEST_RESIZE_UTIL_H */

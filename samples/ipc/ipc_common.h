/* Helpers the ipc samples share: a host copy of a frame, its pattern and hash. */
#ifndef IPC_COMMON_H
#define IPC_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jetrt.h"

#define TRY(x)                                                                  \
  do {                                                                          \
    jet_status st_ = (x);                                                       \
    if (st_ != JET_STATUS_OK) {                                                 \
      fprintf(stderr, "%s failed: %s\n", #x, jet_last_error_string());          \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

static inline uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}

/* A frame's planes on the host, rows packed, one after another. */
typedef struct host_frame {
  jet_image_plane planes[JET_IMAGE_MAX_PLANES];
  int nplanes;
  size_t bytes;
  unsigned char *data;
} host_frame;

static inline int host_frame_init(host_frame *h, jet_image img) {
  size_t off[JET_IMAGE_MAX_PLANES];
  TRY(jet_image_get_plane_count(img, &h->nplanes));
  h->bytes = 0;
  for (int i = 0; i < h->nplanes; i++) {
    jet_image_plane_info pi;
    TRY(jet_image_get_plane(img, i, &pi));
    off[i] = h->bytes;
    h->planes[i].pitch = pi.row_bytes;
    h->bytes += pi.row_bytes * (size_t)pi.height;
  }
  h->data = malloc(h->bytes);
  if (!h->data) return 1;
  for (int i = 0; i < h->nplanes; i++) h->planes[i].ptr = h->data + off[i];
  return 0;
}

/* splitmix64 pattern from @seed. */
static inline void host_frame_fill(host_frame *h, uint64_t seed) {
  uint64_t s = seed;
  for (size_t i = 0; i < h->bytes; i += 8) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    memcpy(h->data + i, &z, h->bytes - i < 8 ? h->bytes - i : 8);
  }
}

#endif

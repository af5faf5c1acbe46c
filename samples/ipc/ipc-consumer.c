/*
 * ipc-consumer: take frames from an ipc-producer's ring and check each one.
 *
 *   ipc-consumer [--path @jetrt-demo] [--policy latest|lossless] [--frames N]
 *
 * latest (JET_RING_DROP_OLDEST, take the newest) is what perception wants;
 * lossless (JET_RING_LOSSLESS, take the next) what a recorder wants. Each
 * frame is read back and compared with the hash its producer sent (a check,
 * not something a real consumer does: it would run its kernels on the slot).
 * Prints frames per second, the handoff latency (publish to take, median and
 * p99 of the last second) and drops. Exit: 0 ok, 2 no GPU, 3 the producer
 * went away, 1 failure or a wrong frame.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetrt.h"
#include "ipc_common.h"

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *path = "@jetrt-demo";
  int lossless = 0, frames = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--path") && a + 1 < argc) path = argv[++a];
    else if (!strcmp(argv[a], "--policy") && a + 1 < argc) lossless = !strcmp(argv[++a], "lossless");
    else if (!strcmp(argv[a], "--frames") && a + 1 < argc) frames = atoi(argv[++a]);
    else {
      fprintf(stderr, "usage: ipc-consumer [--path P] [--policy latest|lossless] [--frames N]\n");
      return 1;
    }
  }
  int n = 0;
  if (jet_device_count(&n) != JET_STATUS_OK || n == 0) {
    printf("ipc-consumer: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }
  jet_context ctx;
  jet_stream s;
  jet_ring r;
  TRY(jet_context_create(&ctx, NULL));
  TRY(jet_stream_create(ctx, NULL, &s));
  jet_ring_consumer_desc d;
  memset(&d, 0, sizeof d);
  d.path = path;
  d.policy = lossless ? JET_RING_LOSSLESS : JET_RING_DROP_OLDEST;
  d.queue_depth = 2;
  d.name = lossless ? "ipc-consumer (lossless)" : "ipc-consumer (latest)";
  d.timeout_ms = 5000;
  TRY(jet_ring_connect(ctx, &d, &r));
  printf("ipc-consumer: connected to %s (%s)\n", path, lossless ? "lossless" : "latest frame");
  fflush(stdout);
  host_frame hf;
  memset(&hf, 0, sizeof hf);
  uint64_t lat[4096];
  int nl = 0, taken = 0, bad = 0, rc = 0;
  uint64_t last_print = now_ns();
  while (!frames || taken < frames) {
    jet_ring_frame f;
    jet_status st = jet_ring_take(r, lossless ? JET_RING_NEXT : JET_RING_NEWEST, s, 5000, &f);
    uint64_t t = now_ns();
    if (st == JET_STATUS_DISCONNECTED) {
      printf("ipc-consumer: %s\n", jet_last_error_string());
      rc = 3;
      break;
    }
    if (st == JET_STATUS_TIMEOUT) continue;
    TRY(st);
    if (nl < 4096) lat[nl++] = t - f.timestamp_ns;
    if (!hf.data && host_frame_init(&hf, f.image)) return 1;
    uint64_t user[2];
    memcpy(user, f.user, sizeof user);
    TRY(jet_image_download_async(f.image, hf.planes, hf.nplanes, s));
    TRY(jet_stream_synchronize(s));
    if (f.user_len != sizeof user || fnv1a(hf.data, hf.bytes) != user[1]) {
      printf("ipc-consumer: frame %llu in slot %d is WRONG\n", (unsigned long long)f.seq, f.slot);
      bad++;
    }
    TRY(jet_ring_release(r, &f, NULL));
    taken++;
    if (t - last_print > 1000000000ull && nl) {
      qsort(lat, (size_t)nl, sizeof *lat, cmp_u64);
      jet_ring_stats rs;
      TRY(jet_ring_get_stats(r, &rs));
      printf("%d frames/s, handoff latency median %.1f us, p99 %.1f us; taken %d, dropped %llu, "
             "wrong %d\n",
             nl, lat[nl / 2] / 1e3, lat[(nl * 99) / 100] / 1e3, taken,
             (unsigned long long)rs.dropped, bad);
      fflush(stdout);
      nl = 0;
      last_print = t;
    }
  }
  free(hf.data);
  TRY(jet_ring_destroy(r));
  TRY(jet_stream_destroy(s));
  TRY(jet_context_destroy(ctx));
  printf("ipc-consumer: %d frames taken, %d wrong\n", taken, bad);
  return bad ? 1 : rc;
}

/*
 * ipc-producer: publish camera-like frames to other processes through a
 * jet_ring (jetrt/ring.h), with no pixel ever copied between processes.
 *
 *   ipc-producer [--path @jetrt-demo] [--size 1920x1080] [--format nv12|rgba]
 *                [--fps 30] [--frames N] [--slots 4]
 *
 * Each frame is a fresh random pattern uploaded into the loaned slot; its
 * user bytes carry the pattern's seed and FNV-1a hash, so ipc-consumer can
 * check every frame it takes. Prints the ring's counters once a second.
 * Exit: 0 ok, 2 no GPU, 1 failure. Ctrl-C stops it.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jetrt.h"
#include "ipc_common.h"

static volatile sig_atomic_t stop;
static void on_signal(int s) { (void)s, stop = 1; }

int main(int argc, char **argv) {
  const char *path = "@jetrt-demo";
  int w = 1920, h = 1080, fps = 30, frames = 0, slots = 4;
  jet_format format = JET_FORMAT_NV12;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--path") && a + 1 < argc) path = argv[++a];
    else if (!strcmp(argv[a], "--size") && a + 1 < argc && sscanf(argv[++a], "%dx%d", &w, &h) == 2) {
    }
    else if (!strcmp(argv[a], "--format") && a + 1 < argc)
      format = !strcmp(argv[++a], "rgba") ? JET_FORMAT_RGBA8 : JET_FORMAT_NV12;
    else if (!strcmp(argv[a], "--fps") && a + 1 < argc) fps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--frames") && a + 1 < argc) frames = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--slots") && a + 1 < argc) slots = atoi(argv[++a]);
    else {
      fprintf(stderr, "usage: ipc-producer [--path P] [--size WxH] [--format nv12|rgba] [--fps N] "
                      "[--frames N] [--slots N]\n");
      return 1;
    }
  }
  int n = 0;
  if (jet_device_count(&n) != JET_STATUS_OK || n == 0) {
    printf("ipc-producer: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  jet_context ctx;
  jet_stream s;
  jet_ring r;
  TRY(jet_context_create(&ctx, NULL));
  TRY(jet_stream_create(ctx, NULL, &s));
  jet_ring_desc d;
  memset(&d, 0, sizeof d);
  d.path = path;
  d.slots = slots;
  d.format = format;
  d.width = w;
  d.height = h;
  TRY(jet_ring_create(ctx, &d, &r));
  jet_policy pol;
  TRY(jet_context_policy(ctx, &pol));
  printf("ipc-producer: %s %dx%d, %d slots at %s (policy %s); waiting for consumers\n",
         jet_format_name(format), w, h, slots, path, pol.name);
  fflush(stdout);
  host_frame hf;
  memset(&hf, 0, sizeof hf);
  uint64_t period = fps > 0 ? 1000000000ull / (uint64_t)fps : 0, next = now_ns(), last_print = next;
  for (int k = 0; !stop && (!frames || k < frames);) {
    jet_ring_stats st;
    TRY(jet_ring_get_stats(r, &st));
    if (st.consumers == 0) {
      (void)jet_ring_poll(r, 100);
      continue;
    }
    jet_ring_frame f;
    jet_status ls = jet_ring_loan(r, 1000, &f);
    if (ls == JET_STATUS_TIMEOUT) {
      printf("ipc-producer: %s\n", jet_last_error_string());
      continue;
    }
    TRY(ls);
    if (!hf.data && host_frame_init(&hf, f.image)) return 1;
    uint64_t user[2];
    user[0] = ((uint64_t)rand() << 32) ^ (uint64_t)rand() ^ now_ns();
    host_frame_fill(&hf, user[0]);
    user[1] = fnv1a(hf.data, hf.bytes);
    TRY(jet_image_upload_async(f.image, hf.planes, hf.nplanes, s));
    TRY(jet_ring_publish(r, &f, s, now_ns(), user, sizeof user));
    k++;
    uint64_t t = now_ns();
    if (t - last_print > 1000000000ull) {
      TRY(jet_ring_get_stats(r, &st));
      printf("published %llu, delivered %llu, dropped %llu, reclaimed %llu, consumers %d (lost %d)\n",
             (unsigned long long)st.published, (unsigned long long)st.delivered,
             (unsigned long long)st.dropped, (unsigned long long)st.reclaimed, st.consumers,
             st.lost_consumers);
      fflush(stdout);
      last_print = t;
    }
    if (period) {
      next += period;
      t = now_ns();
      if (next > t) {
        struct timespec ts = {(time_t)((next - t) / 1000000000ull), (long)((next - t) % 1000000000ull)};
        nanosleep(&ts, NULL);
      } else {
        next = t;
      }
    }
  }
  free(hf.data);
  TRY(jet_stream_synchronize(s));
  TRY(jet_ring_destroy(r));
  TRY(jet_stream_destroy(s));
  TRY(jet_context_destroy(ctx));
  printf("ipc-producer: done\n");
  return 0;
}

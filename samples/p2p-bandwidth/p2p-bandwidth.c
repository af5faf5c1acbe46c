/*
 * jet-p2p-bandwidth: copy bandwidth and latency between every pair of GPUs
 * (and each GPU to itself), with peer access off and on, in the manner of
 * CUDA's p2pBandwidthLatencyTest.
 *
 *  - unidirectional bandwidth: one copy of --mb MiB from device i to device j,
 *    queued on a stream of i (jet_peer_memcpy_async), timed with events;
 *  - bidirectional bandwidth: i -> j on a stream of i and j -> i on a stream
 *    of j at the same time, the two streams joined by cross-device event waits
 *    (jet_peer_wait_event); bytes of both directions over the time of both;
 *  - latency: --copies copies of 4 bytes back to back, per copy. The stream is
 *    held by a host callback while they are queued, so the events time the
 *    GPU, not the queuing.
 * Each number is the median of --runs measurements. GB/s is 1e9 bytes per
 * second. With peer access off, copies between devices are staged through
 * host memory; pairs that cannot use peer access are marked '*' in the "on"
 * tables (their copies stay staged).
 *
 * Usage: jet-p2p-bandwidth [--mb N] [--runs N] [--copies N]
 *        (defaults: 64 MiB, 21 runs, 100 copies)
 * Exit: 0 ok, 2 no GPU, 1 failure.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetrt.h"

#define MAX_DEV 16

typedef struct dev {
  jet_context ctx;
  jet_stream s[2];     /* [0]: outgoing copies, [1]: the reverse direction of a pair */
  jet_event start, stop, join;
  jet_buffer buf[3];   /* a: source, b: destination, c: destination of the reverse copy */
  void *p[3];
} dev;

static int ndev;
static dev devs[MAX_DEV];
static size_t bytes;
static int runs, copies;

static int fail(const char *what) {
  fprintf(stderr, "jet-p2p-bandwidth: %s: %s\n", what, jet_last_error_string());
  return 1;
}

#define TRY(call)                          \
  do {                                     \
    if ((call) != JET_STATUS_OK) return fail(#call); \
  } while (0)

static int cmp_f(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

static float median(float *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_f);
  return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

/* A host callback that holds its stream until the host opens the gate. */
static atomic_int gate;

static void hold(void *user) {
  (void)user;
  while (!atomic_load_explicit(&gate, memory_order_acquire)) {
  }
}

/* One unidirectional (or, with @bidir, bidirectional) copy of @n bytes
 * between devices i and j; the GPU time in *ms. */
static int time_copy(int i, int j, size_t n, int bidir, int repeat, float *ms) {
  dev *a = &devs[i], *b = &devs[j];
  if (repeat > 1) {
    atomic_store(&gate, 0);
    TRY(jet_stream_add_callback(a->s[0], hold, NULL));
  }
  int st = jet_event_record(a->start, a->s[0]) != JET_STATUS_OK;
  if (!st && bidir) st = jet_peer_wait_event(b->s[1], a->start) != JET_STATUS_OK;
  for (int r = 0; r < repeat && !st; r++) {
    st = jet_peer_memcpy_async(a->s[0], b->ctx, b->p[1], a->ctx, a->p[0], n) != JET_STATUS_OK;
    if (!st && bidir)
      st = jet_peer_memcpy_async(b->s[1], a->ctx, a->p[2], b->ctx, b->p[0], n) != JET_STATUS_OK;
  }
  if (!st && bidir) {
    st = jet_event_record(b->join, b->s[1]) != JET_STATUS_OK ||
         jet_peer_wait_event(a->s[0], b->join) != JET_STATUS_OK;
  }
  if (!st) st = jet_event_record(a->stop, a->s[0]) != JET_STATUS_OK;
  atomic_store_explicit(&gate, 1, memory_order_release); /* never leave the stream held */
  if (st) return fail("queueing the copies");
  TRY(jet_event_synchronize(a->stop));
  TRY(jet_event_elapsed_ms(a->start, a->stop, ms));
  return 0;
}

typedef enum { UNI, BI, LAT } measure;

static int run_matrix(measure m, float out[MAX_DEV][MAX_DEV]) {
  float *v = malloc(sizeof(float) * (size_t)runs);
  if (!v) return fail("malloc");
  for (int i = 0; i < ndev; i++)
    for (int j = 0; j < ndev; j++) {
      float ms = 0;
      /* warm up: first use of a path maps and pins */
      if (time_copy(i, j, m == LAT ? 4 : bytes, m == BI, m == LAT ? copies : 1, &ms)) {
        free(v);
        return 1;
      }
      for (int r = 0; r < runs; r++) {
        if (time_copy(i, j, m == LAT ? 4 : bytes, m == BI, m == LAT ? copies : 1, &ms)) {
          free(v);
          return 1;
        }
        v[r] = m == LAT ? ms * 1000.0f / (float)copies /* us per copy */
                        : (float)((m == BI ? 2.0 : 1.0) * (double)bytes / (ms * 1e-3) / 1e9);
      }
      out[i][j] = median(v, runs);
    }
  free(v);
  return 0;
}

static void print_matrix(const char *title, const char *unit, float mtx[MAX_DEV][MAX_DEV],
                         int peer_on, const int can[MAX_DEV][MAX_DEV]) {
  printf("\n%s (%s), peer access %s\n   D\\D", title, unit, peer_on ? "on" : "off");
  for (int j = 0; j < ndev; j++) printf(" %9d", j);
  printf("\n");
  for (int i = 0; i < ndev; i++) {
    printf("%6d", i);
    for (int j = 0; j < ndev; j++)
      printf(" %8.2f%c", mtx[i][j], peer_on && i != j && !can[i][j] ? '*' : ' ');
    printf("\n");
  }
}

static int set_peer(int on, int can[MAX_DEV][MAX_DEV]) {
  for (int i = 0; i < ndev; i++)
    for (int j = 0; j < ndev; j++) {
      if (i == j || !can[i][j]) continue;
      if (on) TRY(jet_peer_enable(devs[i].ctx, devs[j].ctx));
      else TRY(jet_peer_disable(devs[i].ctx, devs[j].ctx));
    }
  return 0;
}

static int setup(void) {
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  for (int d = 0; d < ndev; d++) {
    dev *v = &devs[d];
    jet_context_desc cd = {d, 0, NULL};
    TRY(jet_context_create(&v->ctx, &cd));
    for (int k = 0; k < 2; k++) TRY(jet_stream_create(v->ctx, &sd, &v->s[k]));
    TRY(jet_event_create(v->ctx, JET_EVENT_TIMING, &v->start));
    TRY(jet_event_create(v->ctx, JET_EVENT_TIMING, &v->stop));
    TRY(jet_event_create(v->ctx, 0, &v->join));
    for (int k = 0; k < 3; k++) {
      jet_buffer_desc bd = {JET_MEMORY_DEVICE, 0, bytes, 0, 0};
      TRY(jet_buffer_create(v->ctx, &bd, &v->buf[k]));
      TRY(jet_buffer_device_ptr(v->buf[k], &v->p[k]));
      TRY(jet_memset(v->ctx, v->p[k], 0x11 * (k + 1), bytes));
    }
  }
  return 0;
}

static void teardown(void) {
  for (int d = 0; d < ndev; d++) {
    dev *v = &devs[d];
    for (int k = 0; k < 3; k++) jet_buffer_destroy(v->buf[k]);
    jet_event_destroy(v->start);
    jet_event_destroy(v->stop);
    jet_event_destroy(v->join);
    for (int k = 0; k < 2; k++) jet_stream_destroy(v->s[k]);
    jet_context_destroy(v->ctx);
  }
}

static int arg_int(int argc, char **argv, int *i, int lo, int hi, int *out) {
  if (*i + 1 >= argc) return 0;
  char *end;
  long v = strtol(argv[++*i], &end, 10);
  if (*end || v < lo || v > hi) return 0;
  *out = (int)v;
  return 1;
}

int main(int argc, char **argv) {
  int mb = 64;
  runs = 21;
  copies = 100;
  for (int i = 1; i < argc; i++) {
    int ok = 0;
    if (strcmp(argv[i], "--mb") == 0) ok = arg_int(argc, argv, &i, 1, 4096, &mb);
    else if (strcmp(argv[i], "--runs") == 0) ok = arg_int(argc, argv, &i, 1, 10000, &runs);
    else if (strcmp(argv[i], "--copies") == 0) ok = arg_int(argc, argv, &i, 1, 900, &copies);
    if (!ok) {
      fprintf(stderr, "usage: %s [--mb 1..4096] [--runs 1..10000] [--copies 1..900]\n", argv[0]);
      return 1;
    }
  }
  bytes = (size_t)mb << 20;
  if (jet_device_count(&ndev) != JET_STATUS_OK || ndev == 0) {
    printf("jet-p2p-bandwidth: no CUDA device (%s)\n", jet_last_error_string());
    return 2;
  }
  if (ndev > MAX_DEV) {
    printf("jet-p2p-bandwidth: %d devices, measuring the first %d\n", ndev, MAX_DEV);
    ndev = MAX_DEV;
  }
  printf("jet-p2p-bandwidth: %d device(s), %d MiB copies, %d-byte latency copies x %d, median of "
         "%d runs\n",
         ndev, mb, 4, copies, runs);
  for (int d = 0; d < ndev; d++) {
    jet_platform_info info;
    if (jet_device_query(d, &info) != JET_STATUS_OK) return fail("jet_device_query");
    printf("  device %d: %s, SM %d.%d, %s, PCI %s\n", d, info.name, info.cc_major, info.cc_minor,
           info.integrated ? "integrated" : "discrete", info.pci_bus_id);
  }
  if (setup()) {
    teardown();
    return 1;
  }
  static int can[MAX_DEV][MAX_DEV];
  int any = 0;
  for (int i = 0; i < ndev; i++)
    for (int j = 0; j < ndev; j++) {
      can[i][j] = 0;
      if (i != j && jet_peer_can_access(devs[i].ctx, devs[j].ctx, &can[i][j]) != JET_STATUS_OK) {
        teardown();
        return fail("jet_peer_can_access");
      }
      any |= can[i][j];
    }
  if (ndev > 1) {
    printf("\npeer access possible (row: device that accesses, column: its peer)\n   D\\D");
    for (int j = 0; j < ndev; j++) printf(" %3d", j);
    printf("\n");
    for (int i = 0; i < ndev; i++) {
      printf("%6d", i);
      for (int j = 0; j < ndev; j++) printf(" %3s", i == j ? "-" : can[i][j] ? "yes" : "no");
      printf("\n");
    }
  }

  static float m[3][MAX_DEV][MAX_DEV];
  static const char *const title[3] = {"unidirectional bandwidth", "bidirectional bandwidth",
                                       "latency per copy"};
  static const char *const unit[3] = {"GB/s", "GB/s", "us"};
  int rc = 0;
  int passes = ndev > 1 ? 2 : 1;
  for (int on = 0; on < passes && !rc; on++) {
    if (on && !any) {
      printf("\nno pair of devices can use peer access here: the 'on' tables would repeat the "
             "staged ones\n");
      break;
    }
    if (on && set_peer(1, can)) rc = 1;
    for (int k = 0; k < 3 && !rc; k++) {
      rc = run_matrix((measure)k, m[k]);
      if (!rc) print_matrix(title[k], unit[k], m[k], on, can);
    }
    if (on && set_peer(0, can)) rc = 1;
  }
  if (ndev == 1)
    printf("\nonly device 0 -> itself was measured: peer copies between devices need 2 GPUs\n");
  else if (any)
    printf("\n'*': the pair cannot use peer access; its copies stay staged through the host\n");
  teardown();
  return rc;
}

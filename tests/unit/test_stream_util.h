/* Helpers shared by the stream, event and graph tests. */
#ifndef JET_TEST_STREAM_UTIL_H
#define JET_TEST_STREAM_UTIL_H

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

/* No gate holds a stream longer than this, so a failing test never hangs. */
#define JTS_GATE_TIMEOUT_S 30.0

static inline double jts_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline void jts_sleep_us(long us) {
  struct timespec t = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&t, NULL);
}

/* A host callback (jts_gate_wait) that holds its stream until jts_gate_open. */
typedef struct jts_gate {
  atomic_int open;
  atomic_int entered;
  atomic_int timed_out;
} jts_gate;

static inline void jts_gate_init(jts_gate *g) {
  atomic_init(&g->open, 0);
  atomic_init(&g->entered, 0);
  atomic_init(&g->timed_out, 0);
}

static inline void jts_gate_open(jts_gate *g) { atomic_store(&g->open, 1); }

static inline void jts_gate_wait(void *user) {
  jts_gate *g = user;
  atomic_store(&g->entered, 1);
  double t0 = jts_now();
  while (!atomic_load(&g->open)) {
    if (jts_now() - t0 > JTS_GATE_TIMEOUT_S) {
      atomic_store(&g->timed_out, 1);
      return;
    }
    jts_sleep_us(100);
  }
}

/* Wait until *flag is non-zero; 1 if it became so within @seconds. */
static inline int jts_wait_flag(atomic_int *flag, double seconds) {
  double t0 = jts_now();
  while (!atomic_load(flag)) {
    if (jts_now() - t0 > seconds) return 0;
    jts_sleep_us(100);
  }
  return 1;
}

/* Resident set size of this process, from /proc/self/statm; 0 if unreadable. */
static inline size_t jts_rss_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  int n = fscanf(f, "%lu %lu", &size, &resident);
  fclose(f);
  return n == 2 ? (size_t)resident * (size_t)sysconf(_SC_PAGESIZE) : 0;
}

#endif

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "internal.h"

int jt_have_gpu(void) {
  int n = 0;
  return jet_device_count(&n) == JET_STATUS_OK && n > 0;
}

jet_status jt_context(jet_context *ctx, unsigned flags) {
  jet_context_desc d = {0, flags, NULL};
  return jet_context_create(ctx, &d);
}

static uint64_t rng_state;

uint32_t jt_rand(void) {
  if (!rng_state) {
    rng_state = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ 0x9e3779b97f4a7c15ULL;
    fprintf(stderr, "random seed %llu\n", (unsigned long long)rng_state);
  }
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

void jt_fill_random(void *dst, size_t n) {
  unsigned char *p = dst;
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)jt_rand();
}

jet_platform_info jt_fake_device(int integrated, int cc_major, int cc_minor) {
  jet_platform_info i;
  memset(&i, 0, sizeof i);
  i.integrated = integrated;
  i.cc_major = cc_major;
  i.cc_minor = cc_minor;
  return i;
}

int jt_fake_context(struct jet_context_s *c, const char *platform) {
  memset(c, 0, sizeof *c);
  jet_platform_info *i = &c->info;
  i->cc_major = 9;
  i->total_memory = (size_t)1 << 30;
  i->can_map_host_memory = 1;
  i->host_register_supported = 1;
  i->managed_memory = 1;
  i->concurrent_managed_access = 1;
  i->unified_addressing = 1;
  return jet__platform_select(i, platform, &c->platform, "test") == JET_STATUS_OK &&
         jet__context_register(c, "test") == JET_STATUS_OK;
}

void jt_fake_context_done(struct jet_context_s *c) { jet__context_unregister(c); }

/* Managed-memory advice, host side: argument checks of jet_managed_advise,
 * jet_managed_prefetch_range and jet_managed_range_query (all before any CUDA
 * call), the UM-appendix rules per policy and device, and the refusals they
 * give, through fake contexts and buffers that never touch a GPU. */
#include <stdint.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/memory/memory_internal.h"

#define BAD ((void *)(uintptr_t)0x1000) /* never dereferenced: checks fail first */

static int has(const char *hay, const char *needle) {
  return hay && strstr(hay, needle) != NULL;
}

static int fake_buf(struct jet_buffer_s *b, struct jet_context_s *c, jet_memory_kind kind,
                    size_t size) {
  memset(b, 0, sizeof *b);
  b->kind = b->requested = kind;
  b->dev = kind == JET_MEMORY_HOST_PINNED ? NULL : BAD;
  b->host = kind == JET_MEMORY_DEVICE ? NULL : BAD;
  b->width = b->pitch = b->size = size;
  b->height = b->depth = 1;
  return jet__handle_register(&b->h, JET__H_BUFFER, c, "test") == JET_STATUS_OK;
}

TEST(managed_advice_badarg) {
  int bogus[16] = {0};
  jet_managed_range_info ri;
  /* plain arguments come first: bytes, overflow, advice, where */
  CHECK_ST(jet_managed_advise(NULL, 0, 0, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "bytes is 0"));
  CHECK_ST(jet_managed_advise(NULL, SIZE_MAX, 2, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE),
           JET_STATUS_OVERFLOW);
  CHECK_ST(jet_managed_advise(NULL, 0, 64, (jet_managed_advice)0, JET_PROCESSOR_NONE),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_advise(NULL, 0, 64, (jet_managed_advice)7, JET_PROCESSOR_NONE),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "unknown advice"));
  /* advice that takes a location needs exactly one processor */
  static const jet_managed_advice with_where[] = {
      JET_ADVISE_PREFERRED_LOCATION, JET_ADVISE_ACCESSED_BY, JET_ADVISE_UNSET_ACCESSED_BY};
  for (size_t i = 0; i < 3; i++) {
    CHECK_ST(jet_managed_advise(NULL, 0, 64, with_where[i], JET_PROCESSOR_NONE),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_managed_advise(NULL, 0, 64, with_where[i],
                                (jet_processor)(JET_PROCESSOR_GPU | JET_PROCESSOR_CPU)),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_managed_advise(NULL, 0, 64, with_where[i], JET_PROCESSOR_GPU),
             JET_STATUS_INVALID_HANDLE);
  }
  /* advice without a location refuses one */
  static const jet_managed_advice without_where[] = {
      JET_ADVISE_READ_MOSTLY, JET_ADVISE_UNSET_READ_MOSTLY, JET_ADVISE_UNSET_PREFERRED_LOCATION};
  for (size_t i = 0; i < 3; i++) {
    CHECK_ST(jet_managed_advise(NULL, 0, 64, without_where[i], JET_PROCESSOR_CPU),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK(has(jet_last_error()->message, "takes no location"));
    CHECK_ST(jet_managed_advise(NULL, 0, 64, without_where[i], JET_PROCESSOR_NONE),
             JET_STATUS_INVALID_HANDLE);
  }
  CHECK_ST(jet_managed_advise((jet_buffer)bogus, 0, 64, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE),
           JET_STATUS_INVALID_HANDLE);

  CHECK_ST(jet_managed_range_query(NULL, 0, 64, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_range_query(NULL, 0, 0, &ri), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_range_query(NULL, 1, SIZE_MAX, &ri), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_managed_range_query((jet_buffer)bogus, 0, 64, &ri), JET_STATUS_INVALID_HANDLE);

  CHECK_ST(jet_managed_prefetch_range(NULL, NULL, 0, 0, JET_PROCESSOR_GPU),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_prefetch_range(NULL, NULL, SIZE_MAX, SIZE_MAX, JET_PROCESSOR_GPU),
           JET_STATUS_OVERFLOW);
  CHECK_ST(jet_managed_prefetch_range(NULL, NULL, 0, 64, JET_PROCESSOR_NONE),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_prefetch_range(NULL, NULL, 0, 64, (jet_processor)3),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_prefetch_range(NULL, NULL, 0, 64, JET_PROCESSOR_CPU),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_prefetch_range((jet_stream)bogus, NULL, 0, 64, JET_PROCESSOR_CPU),
           JET_STATUS_INVALID_HANDLE);
  return 0;
}

/* Ranges are checked against the buffer; kinds other than managed and
 * buffers of another context are refused; destroyed buffers are invalid. */
TEST(managed_advice_ranges_and_handles) {
  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK(jt_fake_context(&other, "desktop"));
  jet_stream s, s_other;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_context_default_stream(&other, JET_STREAM_PER_THREAD, &s_other));
  size_t size = 3 * 4096 + 17;
  struct jet_buffer_s m, dev, mapped;
  CHECK(fake_buf(&m, &c, JET_MEMORY_MANAGED, size));
  CHECK(fake_buf(&dev, &c, JET_MEMORY_DEVICE, size));
  CHECK(fake_buf(&mapped, &c, JET_MEMORY_HOST_MAPPED, size));
  jet_managed_range_info ri;

  /* one byte past the end, a start at the end, a start past the end */
  static const size_t bad[][2] = {{0, 3 * 4096 + 18}, {3 * 4096 + 17, 1}, {1, 3 * 4096 + 17},
                                  {1u << 20, 1}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_ST(jet_managed_advise(&m, bad[i][0], bad[i][1], JET_ADVISE_READ_MOSTLY,
                                JET_PROCESSOR_NONE),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK_MSG(has(jet_last_error()->message, "past the end"), "row %zu: %s", i,
              jet_last_error()->message);
    CHECK_ST(jet_managed_range_query(&m, bad[i][0], bad[i][1], &ri), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_managed_prefetch_range(s, &m, bad[i][0], bad[i][1], JET_PROCESSOR_GPU),
             JET_STATUS_INVALID_ARGUMENT);
  }
  /* range query output is cleared even on failure */
  memset(&ri, 0x5a, sizeof ri);
  CHECK_ST(jet_managed_range_query(&m, 0, 0, &ri), JET_STATUS_INVALID_ARGUMENT);
  CHECK(ri.accessed_by_count == 0 && ri.read_mostly == 0);
  CHECK(ri.preferred.processor == JET_PROCESSOR_NONE && ri.preferred.device == -1);
  /* not managed */
  jet_buffer others[] = {&dev, &mapped};
  for (size_t i = 0; i < 2; i++) {
    CHECK_ST(jet_managed_advise(others[i], 0, 64, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE),
             JET_STATUS_INVALID_ARGUMENT);
    CHECK(has(jet_last_error()->message, "not managed"));
    CHECK_ST(jet_managed_range_query(others[i], 0, 64, &ri), JET_STATUS_INVALID_ARGUMENT);
    CHECK_ST(jet_managed_prefetch_range(s, others[i], 0, 64, JET_PROCESSOR_CPU),
             JET_STATUS_INVALID_ARGUMENT);
  }
  /* a stream is not a buffer; another context's stream */
  CHECK_ST(jet_managed_advise((jet_buffer)(void *)s, 0, 64, JET_ADVISE_READ_MOSTLY,
                              JET_PROCESSOR_NONE),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_prefetch_range(s_other, &m, 0, 64, JET_PROCESSOR_GPU),
           JET_STATUS_WRONG_CONTEXT);
  /* destroyed */
  jet__handle_unregister(&m.h);
  CHECK_ST(jet_managed_advise(&m, 0, 64, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_range_query(&m, 0, 64, &ri), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_prefetch_range(s, &m, 0, 64, JET_PROCESSOR_GPU), JET_STATUS_INVALID_HANDLE);
  jet__handle_unregister(&dev.h);
  jet__handle_unregister(&mapped.h);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&other);
  jt_fake_context_done(&c);
  return 0;
}

/* The policy table's managed fields, and the rules they give with the
 * device's attributes: a forced policy only ever takes away. */
TEST(managed_advice_rules_per_policy) {
  static const struct {
    const char *platform;
    int advice_field;
    int concurrent_dev; /* cudaDevAttrConcurrentManagedAccess */
    int prefetch, advice;
  } rows[] = {
      {"desktop", 1, 1, 1, 1}, {"desktop", 1, 0, 0, 0}, {"thor", 1, 1, 1, 1},
      {"thor", 1, 0, 0, 0},    {"orin", 0, 1, 0, 0},    {"orin", 0, 0, 0, 0},
      {"xavier", 0, 1, 0, 0},  {"xavier", 0, 0, 0, 0},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_platform_info dev = jt_fake_device(0, 9, 0);
    dev.managed_memory = 1;
    dev.concurrent_managed_access = rows[r].concurrent_dev;
    jet__platform p;
    CHECK_OK(jet__platform_select(&dev, rows[r].platform, &p, "test"));
    CHECK_MSG(p.policy.managed_advice == rows[r].advice_field, "row %zu (%s)", r,
              rows[r].platform);
    CHECK_MSG(p.policy.managed_memory_allowed == 1, "row %zu", r);
    jet__managed_rules mr;
    jet__managed_rules_of(&dev, &p.policy, &mr);
    CHECK_MSG(mr.allowed == 1 && mr.prefetch == rows[r].prefetch && mr.advice == rows[r].advice &&
                  mr.concurrent == rows[r].prefetch,
              "row %zu (%s, concurrent %d): allowed %d prefetch %d advice %d concurrent %d", r,
              rows[r].platform, rows[r].concurrent_dev, mr.allowed, mr.prefetch, mr.advice,
              mr.concurrent);
    /* no managed memory on the device, or the policy forbids it: nothing */
    dev.managed_memory = 0;
    jet__managed_rules_of(&dev, &p.policy, &mr);
    CHECK_MSG(!mr.allowed && !mr.prefetch && !mr.advice && !mr.concurrent, "row %zu", r);
    dev.managed_memory = 1;
    p.policy.managed_memory_allowed = 0;
    jet__managed_rules_of(&dev, &p.policy, &mr);
    CHECK_MSG(!mr.allowed && !mr.prefetch && !mr.advice && !mr.concurrent, "row %zu", r);
  }
  /* auto-detected Jetsons: no advice before Thor */
  static const struct {
    int major, minor, advice;
  } socs[] = {{7, 2, 0}, {8, 7, 0}, {6, 2, 0}, {11, 0, 1}};
  for (size_t r = 0; r < sizeof socs / sizeof socs[0]; r++) {
    jet_platform_info dev = jt_fake_device(1, socs[r].major, socs[r].minor);
    jet__platform p;
    CHECK_OK(jet__platform_select(&dev, NULL, &p, "test"));
    CHECK_MSG(p.policy.managed_advice == socs[r].advice && p.policy.managed_memory_allowed == 1,
              "SM %d.%d (%s)", socs[r].major, socs[r].minor, p.policy.name);
  }
  return 0;
}

/* Under a policy without advice (Orin forced on a capable device) and on a
 * device without concurrent managed access (desktop policy), the documented
 * outcome per call, each before any CUDA call. */
static int refusals(const char *platform, int concurrent_dev, const char *expect_in_message) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, platform));
  c.info.concurrent_managed_access = concurrent_dev;
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  struct jet_buffer_s m;
  CHECK(fake_buf(&m, &c, JET_MEMORY_MANAGED, 8192));
  /* read-mostly is a documented no-op: OK, and the fake pointer is never touched */
  CHECK_OK(jet_managed_advise(&m, 0, 8192, JET_ADVISE_READ_MOSTLY, JET_PROCESSOR_NONE));
  CHECK_OK(jet_managed_advise(&m, 100, 5, JET_ADVISE_UNSET_READ_MOSTLY, JET_PROCESSOR_NONE));
  /* location advice is refused with a hint */
  static const struct {
    jet_managed_advice a;
    jet_processor w;
  } loc[] = {{JET_ADVISE_PREFERRED_LOCATION, JET_PROCESSOR_GPU},
             {JET_ADVISE_PREFERRED_LOCATION, JET_PROCESSOR_CPU},
             {JET_ADVISE_UNSET_PREFERRED_LOCATION, JET_PROCESSOR_NONE},
             {JET_ADVISE_ACCESSED_BY, JET_PROCESSOR_GPU},
             {JET_ADVISE_ACCESSED_BY, JET_PROCESSOR_CPU},
             {JET_ADVISE_UNSET_ACCESSED_BY, JET_PROCESSOR_GPU}};
  for (size_t i = 0; i < sizeof loc / sizeof loc[0]; i++) {
    CHECK_ST(jet_managed_advise(&m, 0, 4096, loc[i].a, loc[i].w), JET_STATUS_UNSUPPORTED);
    const jet_error_info *e = jet_last_error();
    CHECK_MSG(has(e->message, expect_in_message) && has(e->message, "cudaMemAdvise"),
              "%s row %zu: message \"%s\"", platform, i, e->message);
    CHECK_MSG(has(e->hint, "stream attach"), "%s row %zu: hint \"%s\"", platform, i, e->hint);
  }
  /* range prefetch is refused, pointing at the portable hand-over */
  CHECK_ST(jet_managed_prefetch_range(s, &m, 0, 4096, JET_PROCESSOR_GPU), JET_STATUS_UNSUPPORTED);
  CHECK_MSG(has(jet_last_error()->hint, "jet_managed_make_available"), "hint \"%s\"",
            jet_last_error()->hint);
  CHECK(has(jet_last_error()->message, expect_in_message));
  CHECK_ST(jet_managed_prefetch_range(s, &m, 4096, 4096, JET_PROCESSOR_CPU),
           JET_STATUS_UNSUPPORTED);
  jet__handle_unregister(&m.h);
  jt_fake_context_done(&c);
  return 0;
}

TEST(managed_advice_refused_under_tegra_policy) {
  CHECK(refusals("orin", 1, "orin (forced)") == 0);
  CHECK(refusals("xavier", 1, "xavier (forced)") == 0);
  return 0;
}

TEST(managed_advice_refused_without_concurrent_access) {
  CHECK(refusals("desktop", 0, "cudaDevAttrConcurrentManagedAccess == 0") == 0);
  CHECK(refusals("thor", 0, "cudaDevAttrConcurrentManagedAccess == 0") == 0);
  return 0;
}

/* A policy that forbids managed memory (a discrete GPU on a Tegra host) refuses
 * managed buffers before any CUDA call, with the UM appendix's reason. */
TEST(managed_advice_policy_forbids_managed_buffers) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  c.platform.policy.managed_memory_allowed = 0;
  jet_buffer b = (jet_buffer)BAD;
  jet_buffer_desc d = {JET_MEMORY_MANAGED, 0, 4096, 0, 0};
  CHECK_ST(jet_buffer_create(&c, &d, &b), JET_STATUS_UNSUPPORTED);
  CHECK(b == NULL);
  CHECK_MSG(has(jet_last_error()->hint, "Tegra host"), "hint \"%s\"", jet_last_error()->hint);
  CHECK(has(jet_last_error()->message, "cudaMallocManaged"));
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

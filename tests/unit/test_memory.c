/* Memory module, host side: argument checks of every function (they come
 * before any CUDA call) and policy refusals, reached through fake contexts and
 * buffers that are registered handles but never touch a GPU. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/memory/memory_internal.h"

#define BAD ((void *)(uintptr_t)0x1000) /* never dereferenced: checks fail first */
#define WRAP ((void *)(uintptr_t)(UINTPTR_MAX - 15))

static int has(const char *hay, const char *needle) {
  return hay && strstr(hay, needle) != NULL;
}

/* ------------------------------------------------------------ fakes */


static int fake_buf(struct jet_buffer_s *b, struct jet_context_s *c, jet_memory_kind kind,
                    unsigned flags) {
  memset(b, 0, sizeof *b);
  b->kind = b->requested = kind;
  b->flags = flags;
  b->dev = kind == JET_MEMORY_HOST_PINNED ? NULL : BAD;
  b->host = kind == JET_MEMORY_DEVICE ? NULL : BAD;
  b->width = b->pitch = b->size = 4096;
  b->height = b->depth = 1;
  return jet__handle_register(&b->h, JET__H_BUFFER, c, "test") == JET_STATUS_OK;
}

/* ------------------------------------------------------------ buffers */

TEST(badarg_buffer_create) {
  jet_buffer out = (jet_buffer)BAD;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, 64, 0, 0};
  CHECK_ST(jet_buffer_create(NULL, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_buffer_create(NULL, NULL, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  /* a valid descriptor reaches the context check */
  out = (jet_buffer)BAD;
  CHECK_ST(jet_buffer_create(NULL, &d, &out), JET_STATUS_INVALID_HANDLE);
  CHECK(out == NULL);
  int bogus[16] = {0};
  CHECK_ST(jet_buffer_create((jet_context)bogus, &d, &out), JET_STATUS_INVALID_HANDLE);

  d.width_bytes = 0;
  CHECK_ST(jet_buffer_create(NULL, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "width"));
  d.width_bytes = 64;
  d.kind = (jet_memory_kind)99;
  CHECK_ST(jet_buffer_create(NULL, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  d.kind = JET_MEMORY_HOST_REGISTERED;
  CHECK_ST(jet_buffer_create(NULL, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "jet_host_register"));
  d.kind = (jet_memory_kind)-1;
  CHECK_ST(jet_buffer_create(NULL, &d, &out), JET_STATUS_INVALID_ARGUMENT);

  /* overflow: width * height * depth, and height * depth alone */
  d.kind = JET_MEMORY_DEVICE;
  d.width_bytes = SIZE_MAX / 2;
  d.height = 3;
  CHECK_ST(jet_buffer_create(NULL, &d, &out), JET_STATUS_OVERFLOW);
  d.width_bytes = 1;
  d.height = SIZE_MAX / 2;
  d.depth = 3;
  CHECK_ST(jet_buffer_create(NULL, &d, &out), JET_STATUS_OVERFLOW);
  d.width_bytes = SIZE_MAX / 4;
  d.height = 1;
  d.depth = 5;
  d.kind = JET_MEMORY_MANAGED;
  CHECK_ST(jet_buffer_create(NULL, &d, &out), JET_STATUS_OVERFLOW);
  CHECK(out == NULL);
  return 0;
}

TEST(badarg_buffer_flag_combinations) {
  static const struct {
    jet_memory_kind kind;
    unsigned flags;
    const char *word; /* expected in the message */
  } bad[] = {
      {JET_MEMORY_DEVICE, JET_MEM_WRITE_COMBINED, "WRITE_COMBINED"},
      {JET_MEMORY_DEVICE, JET_MEM_PORTABLE, "PORTABLE"},
      {JET_MEMORY_DEVICE, JET_MEM_ATTACH_GLOBAL, "ATTACH_GLOBAL"},
      {JET_MEMORY_DEVICE, JET_MEM_PITCHED | JET_MEM_ATTACH_HOST, "ATTACH_HOST"},
      {JET_MEMORY_MANAGED, JET_MEM_PITCHED, "PITCHED"},
      {JET_MEMORY_MANAGED, JET_MEM_WRITE_COMBINED, "WRITE_COMBINED"},
      {JET_MEMORY_MANAGED, JET_MEM_FALLBACK_HOST, "FALLBACK_HOST"},
      {JET_MEMORY_MANAGED, JET_MEM_ATTACH_GLOBAL | JET_MEM_ATTACH_HOST, "exclude"},
      {JET_MEMORY_HOST_PINNED, JET_MEM_PITCHED, "PITCHED"},
      {JET_MEMORY_HOST_PINNED, JET_MEM_ATTACH_HOST, "ATTACH_HOST"},
      {JET_MEMORY_HOST_PINNED, JET_MEM_FALLBACK_HOST, "FALLBACK_HOST"},
      {JET_MEMORY_HOST_MAPPED, JET_MEM_PITCHED | JET_MEM_PORTABLE, "PITCHED"},
      {JET_MEMORY_HOST_MAPPED, JET_MEM_ATTACH_GLOBAL, "ATTACH_GLOBAL"},
      {JET_MEMORY_DEVICE, 1u << 20, "unknown"},
      {JET_MEMORY_HOST_PINNED, 1u << 31, "unknown"},
  };
  for (size_t r = 0; r < sizeof bad / sizeof bad[0]; r++) {
    jet_buffer_desc d = {bad[r].kind, bad[r].flags, 100, 2, 0};
    jet_buffer out = (jet_buffer)BAD;
    jet_status st = jet_buffer_create(NULL, &d, &out);
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT, "row %zu: %s", r, jet_status_name(st));
    CHECK_MSG(has(jet_last_error()->message, bad[r].word), "row %zu: message \"%s\"", r,
              jet_last_error()->message);
    CHECK(out == NULL);
  }
  /* accepted combinations pass the flag check and stop at the NULL context */
  static const struct {
    jet_memory_kind kind;
    unsigned flags;
  } good[] = {
      {JET_MEMORY_DEVICE, JET_MEM_PITCHED | JET_MEM_FALLBACK_HOST},
      {JET_MEMORY_HOST_PINNED, JET_MEM_PORTABLE | JET_MEM_WRITE_COMBINED},
      {JET_MEMORY_HOST_MAPPED, JET_MEM_PORTABLE | JET_MEM_WRITE_COMBINED},
      {JET_MEMORY_MANAGED, JET_MEM_ATTACH_HOST},
      {JET_MEMORY_MANAGED, JET_MEM_ATTACH_GLOBAL},
  };
  for (size_t r = 0; r < sizeof good / sizeof good[0]; r++) {
    jet_buffer_desc d = {good[r].kind, good[r].flags, 100, 2, 3};
    jet_buffer out;
    jet_status st = jet_buffer_create(NULL, &d, &out);
    CHECK_MSG(st == JET_STATUS_INVALID_HANDLE, "good row %zu: %s", r, jet_status_name(st));
  }
  return 0;
}

TEST(badarg_buffer_accessors) {
  int bogus[16] = {0};
  jet_buffer_info info;
  void *p;
  CHECK_OK(jet_buffer_destroy(NULL));
  CHECK_ST(jet_buffer_destroy((jet_buffer)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_get_info(NULL, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_get_info((jet_buffer)bogus, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_device_ptr(NULL, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_host_ptr((jet_buffer)bogus, &p), JET_STATUS_INVALID_HANDLE);

  /* a live handle of another type is not a buffer */
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK_ST(jet_buffer_get_info((jet_buffer)(void *)&c, &info), JET_STATUS_INVALID_HANDLE);
  CHECK(has(jet_last_error()->message, "jet_context"));
  struct jet_buffer_s b;
  CHECK(fake_buf(&b, &c, JET_MEMORY_DEVICE, 0));
  CHECK_ST(jet_buffer_get_info(&b, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_buffer_device_ptr(&b, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_buffer_host_ptr(&b, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet__handle_unregister(&b.h);
  /* destroyed: detected without touching it */
  CHECK_ST(jet_buffer_get_info(&b, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_destroy(&b), JET_STATUS_INVALID_HANDLE);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

/* What jet_buffer_info says about slow reads follows the policy and the device. */
TEST(buffer_info_reports_slow_reads) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  static const struct {
    jet_memory_kind kind;
    unsigned flags;
    int integrated, pinned_cached, cpu_uncached, gpu_bus;
  } rows[] = {
      {JET_MEMORY_HOST_PINNED, 0, 0, 1, 0, 0},
      {JET_MEMORY_HOST_PINNED, JET_MEM_WRITE_COMBINED, 0, 1, 1, 0},
      {JET_MEMORY_HOST_PINNED, 0, 1, 0, 1, 0}, /* non-I/O-coherent Tegra */
      {JET_MEMORY_HOST_MAPPED, 0, 0, 1, 0, 1},
      {JET_MEMORY_HOST_MAPPED, JET_MEM_WRITE_COMBINED, 1, 1, 1, 0},
      {JET_MEMORY_HOST_MAPPED, 0, 1, 1, 0, 0},
      {JET_MEMORY_HOST_REGISTERED, 0, 0, 1, 0, 1},
      {JET_MEMORY_HOST_REGISTERED, 0, 1, 0, 0, 0},
      {JET_MEMORY_DEVICE, 0, 0, 0, 0, 0},
      {JET_MEMORY_MANAGED, 0, 0, 0, 0, 0},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    c.info.integrated = rows[r].integrated;
    c.platform.policy.pinned_cpu_reads_cached = rows[r].pinned_cached;
    struct jet_buffer_s b;
    CHECK(fake_buf(&b, &c, rows[r].kind, rows[r].flags));
    jet_buffer_info i;
    memset(&i, 0xA5, sizeof i);
    CHECK_OK(jet_buffer_get_info(&b, &i));
    jet__handle_unregister(&b.h);
    CHECK_MSG(i.cpu_reads_uncached == rows[r].cpu_uncached, "row %zu", r);
    CHECK_MSG(i.gpu_access_crosses_bus == rows[r].gpu_bus, "row %zu", r);
    CHECK(i.kind == rows[r].kind && i.requested_kind == rows[r].kind && i.flags == rows[r].flags);
    CHECK(i.device_ptr == b.dev && i.host_ptr == b.host && i.size == 4096 && i.pitch == 4096);
    CHECK(i.height == 1 && i.depth == 1 && i.width_bytes == 4096);
  }
  jt_fake_context_done(&c);
  return 0;
}

TEST(buffer_create_refuses_what_the_device_lacks) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  c.info.managed_memory = 0;
  c.info.can_map_host_memory = 0;
  jet_buffer out = (jet_buffer)BAD;
  jet_buffer_desc d = {JET_MEMORY_MANAGED, 0, 256, 0, 0};
  CHECK_ST(jet_buffer_create(&c, &d, &out), JET_STATUS_UNSUPPORTED);
  CHECK(out == NULL && has(jet_last_error()->message, "managed"));
  d.kind = JET_MEMORY_HOST_MAPPED;
  CHECK_ST(jet_buffer_create(&c, &d, &out), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->message, "map host memory"));
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ host registration */

TEST(badarg_host_register) {
  char mem[64] = {0};
  jet_buffer out = (jet_buffer)BAD;
  CHECK_ST(jet_host_register(NULL, mem, sizeof mem, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_host_register(NULL, NULL, sizeof mem, 0, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_ST(jet_host_register(NULL, mem, 0, 0, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_host_register(NULL, WRAP, 64, 0, &out), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_host_register(NULL, mem, SIZE_MAX, 0, &out), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_host_register(NULL, mem, sizeof mem, JET_MEM_WRITE_COMBINED, &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_host_register(NULL, mem, sizeof mem, JET_MEM_PITCHED, &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_host_register(NULL, mem, sizeof mem, 1u << 30, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_host_register(NULL, mem, sizeof mem, JET_MEM_PORTABLE, &out),
           JET_STATUS_INVALID_HANDLE);
  CHECK(out == NULL);
  return 0;
}

TEST(host_register_refused_where_platform_forbids) {
  char mem[256] = {0};
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "orin"));
  jet_buffer out = (jet_buffer)BAD;
  /* the policy of a non-I/O-coherent Tegra */
  c.platform.policy.host_register_allowed = 0;
  CHECK_ST(jet_host_register(&c, mem, sizeof mem, 0, &out), JET_STATUS_UNSUPPORTED);
  CHECK(out == NULL);
  CHECK(has(jet_last_error()->hint,
            "cudaHostRegister is unsupported on non-I/O-coherent Tegra"));
  CHECK(has(jet_last_error()->message, "orin"));
  /* a device without the attribute */
  c.platform.policy.host_register_allowed = 1;
  c.info.host_register_supported = 0;
  CHECK_ST(jet_host_register(&c, mem, sizeof mem, JET_MEM_PORTABLE, &out), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->hint, "cudaHostRegister is unsupported"));
  CHECK(has(jet_last_error()->message, "HostRegisterSupported"));
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ copies */

TEST(badarg_memcpy_1d) {
  char a[16] = {0}, b[16] = {0};
  int bogus[16] = {0};
  CHECK_ST(jet_memcpy(NULL, NULL, b, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy(NULL, a, NULL, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "src"));
  CHECK_ST(jet_memcpy(NULL, a, b, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy(NULL, WRAP, b, 16), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memcpy(NULL, a, WRAP, 16), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memcpy(NULL, a, b, SIZE_MAX), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memcpy(NULL, a, b, 16), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy((jet_context)bogus, a, b, 16), JET_STATUS_INVALID_HANDLE);

  CHECK_ST(jet_memcpy_async(NULL, NULL, b, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_async(NULL, a, NULL, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_async(NULL, a, b, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_async(NULL, WRAP, b, 16), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memcpy_async(NULL, a, b, 16), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy_async((jet_stream)bogus, a, b, 16), JET_STATUS_INVALID_HANDLE);

  CHECK_ST(jet_memset(NULL, NULL, 1, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset(NULL, a, 1, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset(NULL, a, 256, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset(NULL, a, -129, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset(NULL, a, 0x12345678, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset(NULL, WRAP, 1, 16), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memset(NULL, a, -1, 16), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset(NULL, a, 255, 16), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_async(NULL, NULL, 1, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_async(NULL, a, 1, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_async(NULL, a, 300, 16), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_async(NULL, a, 1, SIZE_MAX), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memset_async(NULL, a, 1, 16), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_async((jet_stream)bogus, a, 1, 16), JET_STATUS_INVALID_HANDLE);
  return 0;
}

TEST(badarg_memcpy_2d) {
  char a[64] = {0}, b[64] = {0};
  const size_t big = SIZE_MAX / 2;
  /* NULL, empty, width > pitch on either side, pitch * height overflow, wrap */
  CHECK_ST(jet_memcpy_2d(NULL, NULL, 8, b, 8, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d(NULL, a, 8, NULL, 8, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d(NULL, a, 8, b, 8, 0, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d(NULL, a, 8, b, 8, 4, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d(NULL, a, 3, b, 8, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "dst pitch 3"));
  CHECK_ST(jet_memcpy_2d(NULL, a, 8, b, 3, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "src pitch 3"));
  CHECK_ST(jet_memcpy_2d(NULL, a, big, b, 8, 4, 3), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memcpy_2d(NULL, a, big, b, big, big, 3), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memcpy_2d(NULL, a, 8, b, SIZE_MAX, 4, 2), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memcpy_2d(NULL, WRAP, 8, b, 8, 4, 3), JET_STATUS_OVERFLOW);
  /* one row: the pitch does not count, only the width */
  CHECK_ST(jet_memcpy_2d(NULL, a, SIZE_MAX, b, SIZE_MAX, 4, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy_2d(NULL, a, 8, b, 16, 8, 2), JET_STATUS_INVALID_HANDLE);

  CHECK_ST(jet_memcpy_2d_async(NULL, NULL, 8, b, 8, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d_async(NULL, a, 8, NULL, 8, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d_async(NULL, a, 8, b, 8, 0, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d_async(NULL, a, 8, b, 8, 4, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d_async(NULL, a, 8, b, 2, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_2d_async(NULL, a, big, b, big, big, 3), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memcpy_2d_async(NULL, a, 8, b, 8, 4, 2), JET_STATUS_INVALID_HANDLE);

  CHECK_ST(jet_memset_2d(NULL, NULL, 8, 1, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_2d(NULL, a, 8, 1, 0, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_2d(NULL, a, 8, 1, 4, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_2d(NULL, a, 3, 1, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_2d(NULL, a, 8, 256, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_2d(NULL, a, big, 1, big, 3), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memset_2d(NULL, a, 8, 1, 4, 2), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_2d_async(NULL, NULL, 8, 1, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_2d_async(NULL, a, 8, 1, 9, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_2d_async(NULL, a, 8, -200, 4, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_2d_async(NULL, a, big, 1, 4, 4), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memset_2d_async(NULL, a, 8, 1, 4, 2), JET_STATUS_INVALID_HANDLE);
  return 0;
}

static jet_copy_3d good_copy(void *dst, void *src) {
  jet_copy_3d p;
  memset(&p, 0, sizeof p);
  p.dst.ptr = dst;
  p.dst.pitch = 8;
  p.dst.rows = 4;
  p.src.ptr = src;
  p.src.pitch = 8;
  p.src.rows = 4;
  p.extent.width_bytes = 4;
  p.extent.height = 2;
  p.extent.depth = 2;
  return p;
}

TEST(badarg_memcpy_3d) {
  char a[128] = {0}, b[128] = {0};
  const size_t big = SIZE_MAX / 2;
  CHECK_ST(jet_memcpy_3d(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memcpy_3d_async(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_copy_3d p = good_copy(a, b);
  CHECK_ST(jet_memcpy_3d(NULL, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy_3d_async(NULL, &p), JET_STATUS_INVALID_HANDLE);

  static const char *const what[] = {
      "dst NULL", "src NULL", "width 0", "height 0", "depth 0", "dst x+width > pitch",
      "src x+width > pitch", "dst y+height > rows", "src y+height > rows"};
  for (int k = 0; k < 9; k++) {
    p = good_copy(a, b);
    switch (k) {
      case 0: p.dst.ptr = NULL; break;
      case 1: p.src.ptr = NULL; break;
      case 2: p.extent.width_bytes = 0; break;
      case 3: p.extent.height = 0; break;
      case 4: p.extent.depth = 0; break;
      case 5: p.dst_pos.x_bytes = 5; break;
      case 6: p.src.pitch = 3; break;
      case 7: p.dst_pos.y = 3; break;
      case 8: p.src.rows = 1; break;
    }
    jet_status st = jet_memcpy_3d(NULL, &p);
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT, "%s: %s", what[k], jet_status_name(st));
    st = jet_memcpy_3d_async(NULL, &p);
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT, "%s (async): %s", what[k], jet_status_name(st));
  }
  static const char *const ovf[] = {"pos + extent", "span", "z * rows", "wrap"};
  for (int k = 0; k < 4; k++) {
    p = good_copy(a, b);
    switch (k) {
      case 0: p.src_pos.x_bytes = SIZE_MAX; break;
      case 1:
        p.dst.pitch = big;
        p.dst.rows = 4;
        p.extent.depth = 3;
        break;
      case 2: p.src_pos.z = big; break;
      case 3: p.dst.ptr = WRAP; break;
    }
    jet_status st = jet_memcpy_3d(NULL, &p);
    CHECK_MSG(st == JET_STATUS_OVERFLOW, "%s: %s", ovf[k], jet_status_name(st));
    st = jet_memcpy_3d_async(NULL, &p);
    CHECK_MSG(st == JET_STATUS_OVERFLOW, "%s (async): %s", ovf[k], jet_status_name(st));
  }

  jet_pitched_ptr d = {a, 8, 4};
  jet_extent e = {4, 2, 2};
  CHECK_ST(jet_memset_3d(NULL, d, 7, e), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_3d_async(NULL, d, 7, e), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_3d(NULL, d, 256, e), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_3d_async(NULL, d, -129, e), JET_STATUS_INVALID_ARGUMENT);
  d.ptr = NULL;
  CHECK_ST(jet_memset_3d(NULL, d, 7, e), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_memset_3d_async(NULL, d, 7, e), JET_STATUS_INVALID_ARGUMENT);
  d.ptr = a;
  e.depth = 0;
  CHECK_ST(jet_memset_3d(NULL, d, 7, e), JET_STATUS_INVALID_ARGUMENT);
  e.depth = 2;
  e.width_bytes = 9;
  CHECK_ST(jet_memset_3d(NULL, d, 7, e), JET_STATUS_INVALID_ARGUMENT);
  e.width_bytes = 4;
  e.height = 5;
  CHECK_ST(jet_memset_3d_async(NULL, d, 7, e), JET_STATUS_INVALID_ARGUMENT);
  e.height = 2;
  d.pitch = big;
  e.depth = 3;
  CHECK_ST(jet_memset_3d(NULL, d, 7, e), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_memset_3d_async(NULL, d, 7, e), JET_STATUS_OVERFLOW);
  return 0;
}

/* Copies need unified addressing; a device without it is refused before CUDA. */
TEST(memcpy_refused_without_unified_addressing) {
  char a[16] = {0}, b[16] = {0};
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  c.info.unified_addressing = 0;
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  CHECK_ST(jet_memcpy(&c, a, b, 16), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->message, "unified addressing"));
  CHECK_ST(jet_memcpy_async(s, a, b, 16), JET_STATUS_UNSUPPORTED);
  CHECK_ST(jet_memset_2d(&c, a, 8, 0, 8, 2), JET_STATUS_UNSUPPORTED);
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ managed */

TEST(badarg_managed) {
  int bogus[16] = {0};
  CHECK_ST(jet_managed_attach(NULL, NULL, JET_ATTACH_GLOBAL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_attach((jet_stream)bogus, NULL, JET_ATTACH_GLOBAL),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_prefetch(NULL, NULL, JET_PROCESSOR_GPU), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_make_available(NULL, NULL, JET_PROCESSOR_CPU), JET_STATUS_INVALID_HANDLE);

  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK(jt_fake_context(&other, "desktop"));
  jet_stream s, legacy, s_other;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &legacy));
  CHECK_OK(jet_context_default_stream(&other, JET_STREAM_PER_THREAD, &s_other));
  struct jet_buffer_s m, dev;
  CHECK(fake_buf(&m, &c, JET_MEMORY_MANAGED, 0));
  CHECK(fake_buf(&dev, &c, JET_MEMORY_DEVICE, 0));

  /* NULL / foreign buffer */
  CHECK_ST(jet_managed_attach(s, NULL, JET_ATTACH_GLOBAL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_prefetch(s, (jet_buffer)bogus, JET_PROCESSOR_GPU), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_make_available(s, NULL, JET_PROCESSOR_GPU), JET_STATUS_INVALID_HANDLE);
  /* a stream is not a buffer */
  CHECK_ST(jet_managed_attach(s, (jet_buffer)(void *)s, JET_ATTACH_GLOBAL),
           JET_STATUS_INVALID_HANDLE);
  /* stream and buffer of different contexts */
  CHECK_ST(jet_managed_attach(s_other, &m, JET_ATTACH_GLOBAL), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_managed_prefetch(s_other, &m, JET_PROCESSOR_GPU), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_managed_make_available(s_other, &m, JET_PROCESSOR_CPU), JET_STATUS_WRONG_CONTEXT);
  /* not managed memory */
  CHECK_ST(jet_managed_attach(s, &dev, JET_ATTACH_HOST), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "not managed"));
  CHECK_ST(jet_managed_prefetch(s, &dev, JET_PROCESSOR_GPU), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_make_available(s, &dev, JET_PROCESSOR_GPU), JET_STATUS_INVALID_ARGUMENT);
  /* bad modes and access values */
  CHECK_ST(jet_managed_attach(s, &m, (jet_attach_mode)7), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_attach(s, &m, (jet_attach_mode)-1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_attach(legacy, &m, JET_ATTACH_SINGLE), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "legacy"));
  CHECK_ST(jet_managed_prefetch(s, &m, (jet_processor)0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_prefetch(s, &m, (jet_processor)(JET_PROCESSOR_GPU | JET_PROCESSOR_CPU)),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_make_available(s, &m, (jet_processor)0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_make_available(s, &m, (jet_processor)(JET_PROCESSOR_GPU | JET_PROCESSOR_CPU)),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "exactly one"));
  /* destroyed buffer */
  jet__handle_unregister(&m.h);
  CHECK_ST(jet_managed_attach(s, &m, JET_ATTACH_GLOBAL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_prefetch(s, &m, JET_PROCESSOR_CPU), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_make_available(s, &m, JET_PROCESSOR_GPU), JET_STATUS_INVALID_HANDLE);

  jet__handle_unregister(&dev.h);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&other);
  jt_fake_context_done(&c);
  /* streams of a destroyed context */
  CHECK_ST(jet_managed_attach(s, &m, JET_ATTACH_GLOBAL), JET_STATUS_INVALID_HANDLE);
  return 0;
}

TEST(managed_prefetch_refused_by_policy) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "orin"));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_PER_THREAD, &s));
  struct jet_buffer_s m;
  CHECK(fake_buf(&m, &c, JET_MEMORY_MANAGED, 0));
  /* Orin's policy hands over by stream attach, even where the device could prefetch */
  CHECK_ST(jet_managed_prefetch(s, &m, JET_PROCESSOR_GPU), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->hint,
            "cudaMemPrefetchAsync is unsupported on Tegra before Thor; use jet_managed_attach"));
  CHECK_ST(jet_managed_prefetch(s, &m, JET_PROCESSOR_CPU), JET_STATUS_UNSUPPORTED);
  /* a prefetch policy on a device without concurrent managed access */
  c.platform.policy.managed_mode = JET_MANAGED_PREFETCH;
  c.info.concurrent_managed_access = 0;
  CHECK_ST(jet_managed_prefetch(s, &m, JET_PROCESSOR_GPU), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->message, "concurrent managed access"));
  CHECK(has(jet_last_error()->hint, "jet_managed_attach"));
  jet__handle_unregister(&m.h);
  jt_fake_context_done(&c);
  return 0;
}

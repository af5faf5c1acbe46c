/* External memory on a GPU with a real exporter: CUDA VMM memory exported as a
 * POSIX file descriptor (cuMemExportToShareableHandle, the IPC work's
 * jet__vmm_alloc + jet__vmm_export_fd) and imported back as opaque-fd
 * external memory. Whether the driver accepts a VMM descriptor as external
 * memory is not documented either way: when cudaImportExternalMemory itself
 * refuses it, the tests skip and say so (with the driver's code); any other
 * failure is a bug. Data are fresh random bytes (seed printed once), read
 * into poisoned host memory and compared with a CPU copy, naming the first
 * wrong byte. The Vulkan exporter (memory and semaphores) is in
 * test_external_vulkan_gpu.c. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "test.h"
#include "internal.h"
#include "../../lib/memory/vmm.h"

#define MIB ((size_t)1 << 20)

#define CU_OK(call)                                                                 \
  do {                                                                              \
    cudaError_t cu_e_ = (call);                                                     \
    CHECK_MSG(cu_e_ == cudaSuccess, "%s returned %s", #call, cudaGetErrorName(cu_e_)); \
  } while (0)

static long first_diff(const unsigned char *a, const unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return (long)i;
  return -1;
}

#define CHECK_SAME(got, want, n, ...)                                                      \
  do {                                                                                     \
    long d_ = first_diff((const unsigned char *)(got), (const unsigned char *)(want), (n)); \
    if (d_ >= 0) {                                                                         \
      fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                      \
      fprintf(stderr, __VA_ARGS__);                                                        \
      fprintf(stderr, ": first difference at byte %ld of %zu: got 0x%02x, expected 0x%02x\n", \
              d_, (size_t)(n), ((const unsigned char *)(got))[d_],                         \
              ((const unsigned char *)(want))[d_]);                                        \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

static int has(const char *s, const char *sub) { return s && strstr(s, sub) != NULL; }

/* 1 when the last failure is the driver refusing the handle in the import
 * call itself (a documented outcome, not a jetrt bug). */
static int driver_refused(jet_status st, const char *call) {
  const jet_error_info *e = jet_last_error();
  return (st == JET_STATUS_INVALID_ARGUMENT || st == JET_STATUS_UNSUPPORTED) &&
         strcmp(e->native_call, call) == 0;
}

/* Skip unless the device has VMM with POSIX descriptors. */
#define REQUIRE_VMM_FD(ctx)                                                                    \
  do {                                                                                         \
    jet_platform_info pi_;                                                                     \
    CHECK_OK(jet_context_platform((ctx), &pi_));                                               \
    if (!pi_.vmm_supported || !pi_.posix_fd_handles_supported) {                               \
      jet_context_destroy(ctx);                                                                \
      SKIP("device lacks VMM or POSIX-descriptor export: no VMM exporter to test with");       \
    }                                                                                          \
  } while (0)

/* Outcome of importing a fresh descriptor of @m. */
enum { IMPORTED = 0, FAILED = 1, REFUSED = 2 };

static int import_vmm(jet_context ctx, const jet__vmm_map *m, jet_external_memory *out) {
  int fd = -1;
  jet_status st = jet__vmm_export_fd(m, &fd, "test");
  if (st != JET_STATUS_OK) {
    fprintf(stderr, "jet__vmm_export_fd: %s\n", jet_last_error_string());
    return FAILED;
  }
  jet_external_memory_desc d = {JET_EXTERNAL_MEMORY_OPAQUE_FD, fd, NULL, m->size, 0};
  st = jet_external_memory_import(ctx, &d, out);
  if (st == JET_STATUS_OK) return IMPORTED;
  int refused = driver_refused(st, "cudaImportExternalMemory");
  fprintf(stderr, "%s a VMM descriptor (%zu bytes) as opaque-fd external memory: %s\n",
          refused ? "the driver refuses" : "importing failed:", m->size, jet_last_error_string());
  /* A refused import leaves the descriptor the caller's. */
  if (fcntl(fd, F_GETFD) < 0) {
    fprintf(stderr, "the failed import closed the caller's descriptor %d\n", fd);
    return FAILED;
  }
  close(fd);
  return refused ? REFUSED : FAILED;
}

/* VMM memory of at least @bytes on the context's device, filled with @fill. */
static int vmm_source(jet_context ctx, size_t bytes, const unsigned char *fill, size_t fill_n,
                      jet__vmm_map *m) {
  jet_platform_info pi;
  if (jet_context_platform(ctx, &pi) != JET_STATUS_OK) return 0;
  if (jet__vmm_enter(pi.device, "test") != JET_STATUS_OK ||
      jet__vmm_alloc(pi.device, bytes, m, "test") != JET_STATUS_OK) {
    fprintf(stderr, "VMM allocation of %zu bytes: %s\n", bytes, jet_last_error_string());
    return 0;
  }
  if (fill) {
    cudaError_t e = cudaMemcpy((void *)(uintptr_t)m->ptr, fill, fill_n, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
      fprintf(stderr, "filling VMM memory: %s\n", cudaGetErrorName(e));
      return 0;
    }
  }
  return 1;
}

TEST(gpu_external_vmm_fd_buffer_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  REQUIRE_VMM_FD(ctx);
  const size_t asked = 3 * MIB + 12345;
  jet__vmm_map m;
  CHECK(vmm_source(ctx, asked, NULL, 0, &m));
  const size_t n = m.size;
  CHECK(n >= 4 * MIB);
  unsigned char *want = malloc(n), *got = malloc(n);
  CHECK(want && got);
  jt_fill_random(want, n);
  CU_OK(cudaMemcpy((void *)(uintptr_t)m.ptr, want, n, cudaMemcpyHostToDevice));

  jet_external_memory ext = NULL;
  int r = import_vmm(ctx, &m, &ext);
  if (r != IMPORTED) {
    free(want);
    free(got);
    (void)jet__vmm_free(&m, "test");
    jet_context_destroy(ctx);
    if (r == REFUSED) SKIP("the driver refuses VMM descriptors as opaque-fd external memory");
    return 1;
  }
  jet_external_memory_type t;
  size_t size = 0;
  int maps = -1;
  CHECK_OK(jet_external_memory_get_info(ext, &t, &size, &maps));
  CHECK(t == JET_EXTERNAL_MEMORY_OPAQUE_FD && size == n && maps == 0);

  /* The whole memory: what the exporter wrote. */
  jet_buffer whole = NULL, part = NULL;
  CHECK_OK(jet_external_memory_map_buffer(ext, 0, n, &whole));
  jet_buffer_info bi;
  CHECK_OK(jet_buffer_get_info(whole, &bi));
  CHECK_MSG(bi.kind == JET_MEMORY_DEVICE && bi.size == n && bi.device_ptr && !bi.host_ptr,
            "kind %d size %zu dev %p host %p", (int)bi.kind, bi.size, bi.device_ptr, bi.host_ptr);
  memset(got, 0xA5, n);
  CHECK_OK(jet_memcpy(ctx, got, bi.device_ptr, n));
  CHECK_SAME(got, want, n, "whole mapping vs the exporter's data");

  /* A length that is no multiple of anything: exporters may require
   * alignment (cudaExternalMemoryGetMappedBuffer), so a refusal by that call
   * is reported, not failed; a mapping that works must hold the data. */
  {
    jet_buffer odd = NULL;
    const size_t odd_len = 3 * 4097;
    jet_status st = jet_external_memory_map_buffer(ext, 0, odd_len, &odd);
    if (st == JET_STATUS_OK) {
      void *p = NULL;
      CHECK_OK(jet_buffer_device_ptr(odd, &p));
      memset(got, 0x99, odd_len);
      CHECK_OK(jet_memcpy(ctx, got, p, odd_len));
      CHECK_SAME(got, want, odd_len, "mapping of %zu bytes at 0", odd_len);
      CHECK_OK(jet_external_memory_unmap_buffer(ext, odd));
    } else {
      CHECK_MSG(driver_refused(st, "cudaExternalMemoryGetMappedBuffer"), "%s",
                jet_last_error_string());
      fprintf(stderr, "note: the driver refuses a %zu-byte mapping: %s\n", odd_len,
              jet_last_error_string());
    }
  }

  /* A part at 2 MiB: written through the mapping, seen by the exporter and
   * through the whole mapping. */
  const size_t off = 2 * MIB, len = MIB;
  CHECK_OK(jet_external_memory_map_buffer(ext, off, len, &part));
  CHECK_OK(jet_external_memory_get_info(ext, NULL, NULL, &maps));
  CHECK(maps == 2);
  void *pdev = NULL;
  CHECK_OK(jet_buffer_device_ptr(part, &pdev));
  jt_fill_random(want + off, len);
  CHECK_OK(jet_memcpy(ctx, pdev, want + off, len));
  CHECK_OK(jet_context_synchronize(ctx));
  memset(got, 0x5A, n);
  CU_OK(cudaMemcpy(got, (void *)(uintptr_t)m.ptr, n, cudaMemcpyDeviceToHost));
  CHECK_SAME(got, want, n, "exporter's view after writing [%zu, %zu) through the mapping", off,
             off + len);
  memset(got, 0x3C, n);
  CHECK_OK(jet_memcpy(ctx, got, bi.device_ptr, n));
  CHECK_SAME(got, want, n, "whole mapping after writing through the part mapping");

  /* Mapped objects belong to the memory. */
  CHECK_ST(jet_buffer_destroy(part), JET_STATUS_INVALID_STATE);
  CHECK(has(jet_last_error()->message, "jet_external_memory"));
  CHECK_ST(jet_external_memory_destroy(ext), JET_STATUS_INVALID_STATE);
  CHECK_ST(jet_context_destroy(ctx), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_external_memory_unmap_buffer(ext, part));
  CHECK_ST(jet_external_memory_unmap_buffer(ext, part), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_external_memory_destroy(ext), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_external_memory_unmap_buffer(ext, whole));
  CHECK_OK(jet_external_memory_destroy(ext));
  CHECK_ST(jet_external_memory_destroy(ext), JET_STATUS_INVALID_HANDLE);

  /* The exporter's memory outlives the import. */
  memset(got, 0x11, n);
  CU_OK(cudaMemcpy(got, (void *)(uintptr_t)m.ptr, n, cudaMemcpyDeviceToHost));
  CHECK_SAME(got, want, n, "exporter's memory after the import is destroyed");
  CHECK_OK(jet__vmm_free(&m, "test"));
  free(want);
  free(got);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Pitched images at offsets inside the memory (NV12 with padded rows, RGBA8
 * packed at an odd place), read and written against a CPU copy of the
 * exporter's bytes; padding between rows is left alone. */
TEST(gpu_external_vmm_fd_image_planes) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  REQUIRE_VMM_FD(ctx);
  jet__vmm_map m;
  CHECK(vmm_source(ctx, 2 * MIB, NULL, 0, &m));
  const size_t n = m.size;
  unsigned char *mem = malloc(n), *got = malloc(n);
  CHECK(mem && got);
  jt_fill_random(mem, n);
  CU_OK(cudaMemcpy((void *)(uintptr_t)m.ptr, mem, n, cudaMemcpyHostToDevice));
  jet_external_memory ext = NULL;
  int r = import_vmm(ctx, &m, &ext);
  if (r != IMPORTED) {
    free(mem);
    free(got);
    (void)jet__vmm_free(&m, "test");
    jet_context_destroy(ctx);
    if (r == REFUSED) SKIP("the driver refuses VMM descriptors as opaque-fd external memory");
    return 1;
  }

  const struct {
    jet_format format;
    int w, h;
    size_t pitch[3], offset[3];
  } rows[] = {
      {JET_FORMAT_NV12, 66, 34, {128, 192, 0}, {4096, 4096 + 128 * 34 + 2, 0}},
      {JET_FORMAT_RGBA8, 33, 17, {0, 0, 0}, {MIB + 12, 0, 0}},
      {JET_FORMAT_RGBA8, 1, 1, {0, 0, 0}, {n - 4, 0, 0}},
      {JET_FORMAT_GRAY8, 1001, 3, {1003, 0, 0}, {7, 0, 0}},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    jet_image img = NULL;
    jet_status st = jet_external_memory_map_image(ext, rows[i].format, rows[i].w, rows[i].h,
                                                  rows[i].pitch[0] ? rows[i].pitch : NULL,
                                                  rows[i].offset, &img);
    CHECK_MSG(st == JET_STATUS_OK, "row %zu: %s", i, jet_last_error_string());
    int planes = 0;
    CHECK_OK(jet_image_get_plane_count(img, &planes));
    jet_image_plane host[3];
    jet_image_plane_info pi[3];
    unsigned char *buf[3] = {NULL, NULL, NULL};
    for (int p = 0; p < planes; p++) {
      CHECK_OK(jet_image_get_plane(img, p, &pi[p]));
      buf[p] = malloc(pi[p].row_bytes * (size_t)pi[p].height);
      CHECK(buf[p]);
      memset(buf[p], 0xEE, pi[p].row_bytes * (size_t)pi[p].height);
      host[p].ptr = buf[p];
      host[p].pitch = pi[p].row_bytes;
    }
    /* Read: each row equals the exporter's bytes at offset + y * pitch. */
    CHECK_OK(jet_image_download(img, host, planes));
    for (int p = 0; p < planes; p++)
      for (int y = 0; y < pi[p].height; y++)
        CHECK_SAME(buf[p] + (size_t)y * pi[p].row_bytes,
                   mem + rows[i].offset[p] + (size_t)y * pi[p].pitch, pi[p].row_bytes,
                   "row %zu (%s %dx%d) plane %d line %d read", i, jet_format_name(rows[i].format),
                   rows[i].w, rows[i].h, p, y);
    /* Write: new rows land at the same places, padding untouched. */
    for (int p = 0; p < planes; p++) {
      jt_fill_random(buf[p], pi[p].row_bytes * (size_t)pi[p].height);
      for (int y = 0; y < pi[p].height; y++)
        memcpy(mem + rows[i].offset[p] + (size_t)y * pi[p].pitch,
               buf[p] + (size_t)y * pi[p].row_bytes, pi[p].row_bytes);
    }
    CHECK_OK(jet_image_upload(img, host, planes));
    memset(got, 0x77, n);
    CU_OK(cudaMemcpy(got, (void *)(uintptr_t)m.ptr, n, cudaMemcpyDeviceToHost));
    CHECK_SAME(got, mem, n, "row %zu (%s %dx%d) exporter's bytes after the upload", i,
               jet_format_name(rows[i].format), rows[i].w, rows[i].h);
    CHECK_ST(jet_image_destroy(img), JET_STATUS_INVALID_STATE);
    CHECK_OK(jet_external_memory_unmap_image(ext, img));
    for (int p = 0; p < planes; p++) free(buf[p]);
  }
  CHECK_OK(jet_external_memory_destroy(ext));
  CHECK_OK(jet__vmm_free(&m, "test"));
  free(mem);
  free(got);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Descriptors that are no GPU memory or semaphore: the driver refuses them,
 * the status says so, and the descriptor stays the caller's. */
TEST(gpu_external_import_refuses_foreign_descriptors) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  CHECK(fd >= 0);
  jet_external_memory ext = NULL;
  jet_external_memory_desc d = {JET_EXTERNAL_MEMORY_OPAQUE_FD, fd, NULL, MIB, 0};
  jet_status st = jet_external_memory_import(ctx, &d, &ext);
  CHECK_MSG(st != JET_STATUS_OK, "/dev/null imported as GPU memory");
  CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT || st == JET_STATUS_UNSUPPORTED, "%s (%s)",
            jet_status_name(st), jet_last_error_string());
  CHECK(strcmp(jet_last_error()->native_call, "cudaImportExternalMemory") == 0);
  CHECK(jet_last_error()->hint[0]);
  CHECK(ext == NULL);
  CHECK_MSG(fcntl(fd, F_GETFD) >= 0, "the refused import closed descriptor %d", fd);

  static const jet_external_semaphore_type types[] = {JET_EXTERNAL_SEMAPHORE_OPAQUE_FD,
                                                      JET_EXTERNAL_SEMAPHORE_TIMELINE_FD};
  for (size_t i = 0; i < 2; i++) {
    jet_external_semaphore sem = NULL;
    jet_external_semaphore_desc sd = {types[i], fd, NULL, 0};
    st = jet_external_semaphore_import(ctx, &sd, &sem);
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT || st == JET_STATUS_UNSUPPORTED,
              "semaphore type %d: %s (%s)", (int)types[i], jet_status_name(st),
              jet_last_error_string());
    CHECK(sem == NULL);
    CHECK(strcmp(jet_last_error()->native_call, "cudaImportExternalSemaphore") == 0);
    CHECK_MSG(fcntl(fd, F_GETFD) >= 0, "the refused import closed descriptor %d", fd);
  }
  /* CUDA is still usable afterwards. */
  CHECK_OK(jet_context_synchronize(ctx));
  close(fd);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Many export/import/map/unmap/destroy cycles: no descriptor, handle or
 * device memory is left behind. */
TEST(gpu_external_vmm_fd_cycles_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  REQUIRE_VMM_FD(ctx);
  jet__vmm_map m;
  CHECK(vmm_source(ctx, 2 * MIB, NULL, 0, &m));
  unsigned char word[64], back[64];
  const int cycles = 400;
  int fds0 = -1;
  size_t free0 = 0, free1 = 0, total = 0;
  for (int c = 0; c < cycles; c++) {
    jet_external_memory ext = NULL;
    int r = import_vmm(ctx, &m, &ext);
    if (r != IMPORTED) {
      (void)jet__vmm_free(&m, "test");
      jet_context_destroy(ctx);
      if (r == REFUSED) SKIP("the driver refuses VMM descriptors as opaque-fd external memory");
      fprintf(stderr, "cycle %d\n", c);
      return 1;
    }
    jet_buffer b = NULL;
    jet_image img = NULL;
    size_t off = (size_t)(jt_rand() % (unsigned)(m.size / 64 - 1)) * 64;
    CHECK_OK(jet_external_memory_map_buffer(ext, 0, m.size, &b));
    size_t ioff[3] = {off, 0, 0};
    CHECK_OK(jet_external_memory_map_image(ext, JET_FORMAT_GRAY8, 64, 1, NULL, ioff, &img));
    void *dev = NULL;
    CHECK_OK(jet_buffer_device_ptr(b, &dev));
    jt_fill_random(word, sizeof word);
    CHECK_OK(jet_memcpy(ctx, (char *)dev + off, word, sizeof word));
    memset(back, 0, sizeof back);
    jet_image_plane hp = {back, 64};
    CHECK_OK(jet_image_download(img, &hp, 1));
    CHECK_SAME(back, word, sizeof word, "cycle %d: image at %zu vs buffer write", c, off);
    CHECK_OK(jet_external_memory_unmap_image(ext, img));
    CHECK_OK(jet_external_memory_unmap_buffer(ext, b));
    CHECK_OK(jet_external_memory_destroy(ext));
    if (c == 1) {
      /* After a warm-up cycle: whatever the driver opens once is open. */
      fds0 = jt_count_fds();
      CHECK_OK(jet_context_mem_info(ctx, &free0, &total));
    }
  }
  int fds1 = jt_count_fds();
  CHECK_OK(jet_context_mem_info(ctx, &free1, &total));
  if (fds1 != fds0) jt_print_fds("after the cycles");
  CHECK_MSG(fds1 == fds0, "%d descriptors open after %d cycles, %d after the second", fds1,
            cycles, fds0);
  CHECK_MSG(free1 + 64 * MIB >= free0, "free device memory fell from %zu to %zu over %d cycles",
            free0, free1, cycles);
  CHECK_OK(jet__vmm_free(&m, "test"));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

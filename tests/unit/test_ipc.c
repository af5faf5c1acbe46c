/* Memory IPC on the host: the mechanism each policy and device gets, the pure
 * check of received descriptions (every field, forged sizes, overflow, plane
 * layouts), and the argument checks of every export, import and exportable
 * creation call, reached through fake contexts and handles before any CUDA
 * call. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "internal.h"
#include "shared_ops.h"
#include "../../lib/memory/memory_internal.h"
#include "../../lib/ipc/memory_ipc.h"

#define MIB ((uint64_t)1 << 20)

static int has(const char *hay, const char *needle) { return hay && strstr(hay, needle) != NULL; }

static uint64_t round_alloc(uint64_t n) {
  return (n + JET_IPC_ALLOC_ALIGN - 1) / JET_IPC_ALLOC_ALIGN * JET_IPC_ALLOC_ALIGN;
}

/* A random non-zero legacy handle. */
static void legacy_bytes(jet_ipc_memory_desc *d) {
  jt_fill_random(d->legacy_handle, sizeof d->legacy_handle);
  d->legacy_handle[0] |= 1u;
}

static jet_ipc_memory_desc header(jet_ipc_object object, jet_ipc_mechanism mech, uint32_t flags) {
  jet_ipc_memory_desc d;
  memset(&d, 0, sizeof d);
  d.version = JET_IPC_DESC_VERSION;
  d.mechanism = mech;
  d.object = object;
  d.flags = flags;
  jt_fill_random(d.device_uuid, sizeof d.device_uuid);
  if (mech == JET_IPC_MECHANISM_LEGACY) legacy_bytes(&d);
  return d;
}

/* What jet_ipc_export_buffer writes for a buffer of this extent. */
static jet_ipc_memory_desc buffer_desc(jet_ipc_mechanism mech, uint32_t flags, uint64_t w,
                                       uint64_t h, uint64_t dd) {
  jet_ipc_memory_desc d = header(JET_IPC_OBJECT_BUFFER, mech, flags);
  d.width_bytes = w;
  d.height = h;
  d.depth = dd;
  d.pitch = (flags & JET_MEM_PITCHED) ? (w + 511) / 512 * 512 : w;
  d.data_size = d.pitch * h * dd;
  d.alloc_size = round_alloc(d.data_size);
  return d;
}

/* What jet_ipc_export_image writes for jet_image_create's layout. */
static int image_desc(jet_ipc_memory_desc *d, jet_ipc_mechanism mech, uint32_t flags,
                      jet_format f, int w, int h) {
  jet__image_layout l;
  if (jet__image_layout_compute(f, w, h, NULL, JET_IMAGE_PITCH_ALIGN, &l, "test") != JET_STATUS_OK)
    return 0;
  *d = header(JET_IPC_OBJECT_IMAGE, mech, flags);
  d->format = (uint32_t)f;
  d->width = (uint32_t)w;
  d->image_height = (uint32_t)h;
  d->plane_count = (uint32_t)l.planes;
  for (int i = 0; i < l.planes; i++) {
    d->plane_offset[i] = l.plane[i].offset;
    d->plane_pitch[i] = l.plane[i].pitch;
  }
  d->data_size = l.total_bytes;
  d->alloc_size = round_alloc(l.total_bytes);
  return 1;
}

static jet_ipc_memory_desc shared_desc(jet_ipc_mechanism mech, uint64_t bytes) {
  jet_ipc_memory_desc d = header(JET_IPC_OBJECT_SHARED, mech, JET_SHARED_EXPORTABLE);
  d.data_size = bytes;
  d.alloc_size = round_alloc(bytes);
  return d;
}

static int fd_for(const jet_ipc_memory_desc *d) {
  return d->mechanism == JET_IPC_MECHANISM_LEGACY ? -1 : 3 + (int)(jt_rand() % 1000);
}

/* ------------------------------------------------------------ mechanism choice */

TEST(ipc_mechanism_per_policy_and_device) {
  enum { AUTO = JET__IPC_REQUEST_AUTO, LEGACY = JET__IPC_REQUEST_LEGACY };
  enum { VMM_ = JET_IPC_MECHANISM_VMM_FD, LEG_ = JET_IPC_MECHANISM_LEGACY, NO = -1 };
  static const struct {
    int integrated, major, minor;
    const char *platform; /* NULL: detected */
    int vmm, fd, ipc;     /* device: VMM, POSIX descriptor handles, CUDA IPC support */
    int request;
    int want;             /* mechanism, or NO for UNSUPPORTED */
    const char *word;     /* expected in the message or hint when refused */
  } rows[] = {
      /* desktop: descriptors wherever the device has them */
      {0, 9, 0, NULL, 1, 1, 1, AUTO, VMM_, NULL},
      {0, 9, 0, NULL, 1, 1, 1, LEGACY, LEG_, NULL},
      /* desktop without VMM descriptors: legacy, if the device has IPC */
      {0, 9, 0, NULL, 1, 0, 1, AUTO, LEG_, NULL},
      {0, 9, 0, NULL, 0, 0, 1, AUTO, LEG_, NULL},
      {0, 9, 0, NULL, 0, 0, 0, AUTO, NO, "legacy CUDA IPC is not available"},
      {0, 9, 0, NULL, 1, 1, 0, LEGACY, NO, "cudaDevAttrIpcEventSupport"},
      {0, 8, 6, "desktop", 1, 1, 1, AUTO, VMM_, NULL},
      /* Xavier, Orin: descriptors only; legacy refused with the L4T hint */
      {1, 7, 2, NULL, 1, 1, 1, AUTO, VMM_, NULL},
      {1, 7, 2, NULL, 1, 1, 1, LEGACY, NO, "before Thor"},
      {1, 8, 7, NULL, 1, 1, 1, AUTO, VMM_, NULL},
      {1, 8, 7, NULL, 1, 1, 1, LEGACY, NO, "before Thor"},
      {1, 8, 7, NULL, 1, 0, 1, AUTO, NO, "before Thor"},
      {1, 8, 7, NULL, 0, 0, 1, AUTO, NO, "no other mechanism"},
      /* Thor: descriptors by default; legacy allowed when asked */
      {1, 11, 0, NULL, 1, 1, 1, AUTO, VMM_, NULL},
      {1, 11, 0, NULL, 1, 1, 1, LEGACY, LEG_, NULL},
      {1, 11, 0, NULL, 0, 0, 1, AUTO, NO, "no other mechanism"},
      /* any other Tegra (TX2): descriptors if it has them, never legacy */
      {1, 6, 2, NULL, 1, 1, 1, AUTO, VMM_, NULL},
      {1, 6, 2, NULL, 1, 1, 1, LEGACY, NO, "before Thor"},
      {1, 6, 2, NULL, 0, 1, 1, AUTO, NO, "VMM unsupported"},
      /* Tegra policies forced on a desktop GPU behave as on a Jetson */
      {0, 9, 0, "orin", 1, 1, 1, AUTO, VMM_, NULL},
      {0, 9, 0, "orin", 1, 1, 1, LEGACY, NO, "(forced)"},
      {0, 9, 0, "xavier", 1, 1, 1, LEGACY, NO, "L4T"},
      {0, 9, 0, "thor", 1, 1, 1, LEGACY, LEG_, NULL},
      {0, 9, 0, "orin", 0, 0, 1, AUTO, NO, "before Thor"},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_platform_info dev = jt_fake_device(rows[r].integrated, rows[r].major, rows[r].minor);
    dev.vmm_supported = rows[r].vmm;
    dev.posix_fd_handles_supported = rows[r].fd;
    dev.ipc_event_supported = rows[r].ipc;
    jet__platform p;
    CHECK_OK(jet__platform_select(&dev, rows[r].platform, &p, "test"));
    jet_ipc_mechanism m = (jet_ipc_mechanism)77;
    jet_status st = jet__ipc_mechanism(&dev, &p.policy, (jet__ipc_request)rows[r].request, &m,
                                       "test");
    if (rows[r].want == NO) {
      CHECK_MSG(st == JET_STATUS_UNSUPPORTED && m == JET_IPC_MECHANISM_NONE,
                "row %zu (%s): %s, mechanism %d", r, p.policy.name, jet_status_name(st), (int)m);
      const jet_error_info *e = jet_last_error();
      CHECK_MSG(has(e->message, rows[r].word) || has(e->hint, rows[r].word),
                "row %zu: \"%s\" in neither \"%s\" nor \"%s\"", r, rows[r].word, e->message,
                e->hint);
      CHECK_MSG(e->hint[0], "row %zu: no hint", r);
    } else {
      CHECK_MSG(st == JET_STATUS_OK && (int)m == rows[r].want, "row %zu (%s): %s, mechanism %d",
                r, p.policy.name, jet_status_name(st), (int)m);
      /* what one process chooses, another on the same policy and device imports */
      CHECK_OK(jet__ipc_mechanism_usable(&dev, &p.policy, m, "test"));
    }
  }
  /* importing legacy memory under a Tegra policy is refused like exporting it */
  jet_platform_info dev = jt_fake_device(1, 8, 7);
  dev.vmm_supported = dev.posix_fd_handles_supported = dev.ipc_event_supported = 1;
  jet__platform p;
  CHECK_OK(jet__platform_select(&dev, NULL, &p, "test"));
  CHECK_ST(jet__ipc_mechanism_usable(&dev, &p.policy, JET_IPC_MECHANISM_LEGACY, "test"),
           JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->hint, "VMM POSIX file descriptors"));
  CHECK_ST(jet__ipc_mechanism_usable(&dev, &p.policy, JET_IPC_MECHANISM_NONE, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__ipc_mechanism_usable(&dev, &p.policy, (jet_ipc_mechanism)9, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  dev.posix_fd_handles_supported = 0;
  CHECK_ST(jet__ipc_mechanism_usable(&dev, &p.policy, JET_IPC_MECHANISM_VMM_FD, "test"),
           JET_STATUS_UNSUPPORTED);
  return 0;
}

/* ------------------------------------------------------------ description check */

TEST(ipc_desc_check_accepts_what_export_writes) {
  const jet_ipc_mechanism mechs[] = {JET_IPC_MECHANISM_VMM_FD, JET_IPC_MECHANISM_LEGACY};
  for (int k = 0; k < 2; k++) {
    jet_ipc_mechanism m = mechs[k];
    uint32_t exp = m == JET_IPC_MECHANISM_LEGACY ? JET_MEM_EXPORTABLE_LEGACY : JET_MEM_EXPORTABLE;
    jet_ipc_memory_desc bufs[] = {
        buffer_desc(m, exp, 1 + jt_rand() % 5000000, 1, 1),
        buffer_desc(m, exp | JET_MEM_PITCHED, 1921, 1081, 1),
        buffer_desc(m, exp | JET_MEM_PITCHED, 67, 13, 5),
        buffer_desc(m, exp, 4096, 512, 1), /* exactly 2 MiB */
    };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
      CHECK_OK(jet__ipc_desc_check(&bufs[i], JET_IPC_OBJECT_BUFFER, fd_for(&bufs[i]), NULL, "t"));
      /* a legacy-forced buffer may also have been AUTO on a desktop without VMM */
    }
    CHECK(bufs[3].alloc_size == 2 * MIB);
    uint32_t iexp = m == JET_IPC_MECHANISM_LEGACY ? JET_IMAGE_EXPORTABLE_LEGACY
                                                  : JET_IMAGE_EXPORTABLE;
    static const struct {
      jet_format f;
      int w, h;
    } imgs[] = {{JET_FORMAT_NV12, 1920, 1080}, {JET_FORMAT_RGBA8, 3, 2},
                {JET_FORMAT_GRAY8, 1, 1},      {JET_FORMAT_I420, 642, 482},
                {JET_FORMAT_RGBF32P, 33, 7},   {JET_FORMAT_YUYV, 10, 3}};
    for (size_t i = 0; i < sizeof imgs / sizeof imgs[0]; i++) {
      jet_ipc_memory_desc d;
      CHECK(image_desc(&d, m, iexp, imgs[i].f, imgs[i].w, imgs[i].h));
      jet__image_layout l;
      memset(&l, 0xa5, sizeof l);
      CHECK_OK(jet__ipc_desc_check(&d, JET_IPC_OBJECT_IMAGE, fd_for(&d), &l, "t"));
      CHECK(l.format == imgs[i].f && l.width == imgs[i].w && l.height == imgs[i].h);
      CHECK(l.total_bytes == d.data_size && (uint64_t)l.planes == d.plane_count);
      for (int p = 0; p < l.planes; p++)
        CHECK_MSG(l.plane[p].offset == d.plane_offset[p] && l.plane[p].pitch == d.plane_pitch[p],
                  "%s plane %d", jet_format_name(imgs[i].f), p);
    }
    /* an AUTO buffer exported by legacy (desktop without VMM) is valid too */
    if (m == JET_IPC_MECHANISM_LEGACY) {
      jet_ipc_memory_desc d = buffer_desc(m, JET_MEM_EXPORTABLE, 100, 1, 1);
      CHECK_OK(jet__ipc_desc_check(&d, JET_IPC_OBJECT_BUFFER, -1, NULL, "t"));
    }
    jet_ipc_memory_desc s = shared_desc(m, 1 + jt_rand() % 10000000);
    CHECK_OK(jet__ipc_desc_check(&s, JET_IPC_OBJECT_SHARED, fd_for(&s), NULL, "t"));
    s.flags |= JET_SHARED_STAGED;
    CHECK_OK(jet__ipc_desc_check(&s, JET_IPC_OBJECT_SHARED, fd_for(&s), NULL, "t"));
  }
  return 0;
}

/* One forged field each: refused with INVALID_ARGUMENT (or OVERFLOW) and a
 * message naming what is wrong. */
typedef struct forgery {
  const char *what;
  jet_ipc_object object;
  void (*forge)(jet_ipc_memory_desc *d, int *fd);
  const char *word;
} forgery;

#define FORGE(name, body) \
  static void name(jet_ipc_memory_desc *d, int *fd) { (void)d; (void)fd; body; }

FORGE(f_version0, d->version = 0)
FORGE(f_version2, d->version = JET_IPC_DESC_VERSION + 1)
FORGE(f_object_image, d->object = JET_IPC_OBJECT_IMAGE)
FORGE(f_object0, d->object = 0)
FORGE(f_object9, d->object = 9)
FORGE(f_mech0, d->mechanism = 0)
FORGE(f_mech3, d->mechanism = 3)
FORGE(f_flags_none, d->flags &= ~(uint32_t)(JET_MEM_EXPORTABLE | JET_MEM_EXPORTABLE_LEGACY))
FORGE(f_flags_both, d->flags |= JET_MEM_EXPORTABLE | JET_MEM_EXPORTABLE_LEGACY)
FORGE(f_flags_unknown, d->flags |= 1u << 20)
FORGE(f_flags_host, d->flags |= JET_MEM_FALLBACK_HOST)
FORGE(f_flags_legacy_vmm,
      d->flags = (d->flags & ~(uint32_t)JET_MEM_EXPORTABLE) | JET_MEM_EXPORTABLE_LEGACY)
FORGE(f_fd_missing, *fd = -1)
FORGE(f_fd_legacy, { d->mechanism = JET_IPC_MECHANISM_LEGACY; legacy_bytes(d); *fd = 5; })
FORGE(f_legacy_on_vmm, legacy_bytes(d))
FORGE(f_legacy_zero, { d->mechanism = JET_IPC_MECHANISM_LEGACY; *fd = -1; })
FORGE(f_alloc0, d->alloc_size = 0)
FORGE(f_alloc_page, d->alloc_size = 4096)
FORGE(f_alloc_odd, d->alloc_size += 1)
FORGE(f_alloc_small, d->alloc_size -= JET_IPC_ALLOC_ALIGN)
FORGE(f_data0, d->data_size = 0)
FORGE(f_data_big, d->data_size = d->alloc_size + 1)
FORGE(f_width0, d->width_bytes = 0)
FORGE(f_height0, d->height = 0)
FORGE(f_depth0, d->depth = 0)
FORGE(f_pitch_small, d->pitch = d->width_bytes - 1)
FORGE(f_pitch_unpitched, { d->flags &= ~(uint32_t)JET_MEM_PITCHED; })
FORGE(f_pitch_align, { d->pitch += 4; d->data_size = d->pitch * d->height * d->depth; })
FORGE(f_extent_overflow, { d->height = (uint64_t)1 << 40; d->depth = (uint64_t)1 << 30; })
FORGE(f_rows_overflow, { d->height = UINT64_MAX / 2; d->depth = 3; })
FORGE(f_data_mismatch, d->data_size -= 1)
FORGE(f_buffer_image_field, d->plane_pitch[2] = 64)
FORGE(f_buffer_format_field, d->format = JET_FORMAT_GRAY8)
FORGE(f_fmt0, d->format = 0)
FORGE(f_fmt_big, d->format = JET_FORMAT_COUNT_)
FORGE(f_fmt_huge, d->format = UINT32_MAX)
FORGE(f_img_w0, d->width = 0)
FORGE(f_img_w_huge, d->width = (uint32_t)INT32_MAX + 1u)
FORGE(f_img_odd, { d->width += 1; })
FORGE(f_img_planes, d->plane_count = 1)
FORGE(f_img_planes3, d->plane_count = 3)
FORGE(f_img_pitch_small, d->plane_pitch[0] = d->width - 1)
FORGE(f_img_pitch_huge, d->plane_pitch[1] = UINT64_MAX / 2)
FORGE(f_img_pitch_big, d->plane_pitch[1] = (uint64_t)1 << 30)
FORGE(f_img_offset_past, d->plane_offset[1] = d->alloc_size)
FORGE(f_img_offset_wrap, d->plane_offset[1] = UINT64_MAX - 100)
FORGE(f_img_overlap, d->plane_offset[1] = d->plane_offset[0] + 256)
FORGE(f_img_unused_plane, d->plane_offset[2] = 4096)
FORGE(f_img_data_longer, d->data_size += 256)
FORGE(f_img_buffer_field, d->pitch = 4096)
FORGE(f_img_flags_both, d->flags |= JET_IMAGE_EXPORTABLE_LEGACY)
FORGE(f_shared_buffer_field, d->width_bytes = 1)
FORGE(f_shared_image_field, d->plane_count = 1)
FORGE(f_shared_flags_zero, d->flags = JET_SHARED_ZERO_COPY | JET_SHARED_EXPORTABLE)
FORGE(f_shared_flags_none, d->flags = JET_SHARED_STAGED)
FORGE(f_shared_huge, { d->alloc_size = (uint64_t)1 << 63; d->data_size = d->alloc_size; })

TEST(ipc_desc_check_refuses_forged_fields) {
  static const forgery rows[] = {
      {"version 0", JET_IPC_OBJECT_BUFFER, f_version0, "version"},
      {"version 2", JET_IPC_OBJECT_BUFFER, f_version2, "version"},
      {"image description to the buffer import", JET_IPC_OBJECT_BUFFER, f_object_image,
       "jet_ipc_import_image"},
      {"object 0", JET_IPC_OBJECT_BUFFER, f_object0, "unknown object"},
      {"object 9", JET_IPC_OBJECT_SHARED, f_object9, "unknown object"},
      {"mechanism 0", JET_IPC_OBJECT_BUFFER, f_mech0, "mechanism"},
      {"mechanism 3", JET_IPC_OBJECT_IMAGE, f_mech3, "mechanism"},
      {"no exportable flag", JET_IPC_OBJECT_BUFFER, f_flags_none, "exactly one"},
      {"both exportable flags", JET_IPC_OBJECT_BUFFER, f_flags_both, "exactly one"},
      {"unknown flag", JET_IPC_OBJECT_BUFFER, f_flags_unknown, "not creation flags"},
      {"FALLBACK_HOST", JET_IPC_OBJECT_BUFFER, f_flags_host, "not creation flags"},
      {"_LEGACY flag on VMM", JET_IPC_OBJECT_BUFFER, f_flags_legacy_vmm, "_LEGACY"},
      {"VMM without descriptor", JET_IPC_OBJECT_BUFFER, f_fd_missing, "file descriptor"},
      {"legacy with descriptor", JET_IPC_OBJECT_SHARED, f_fd_legacy, "pass -1"},
      {"legacy handle on VMM", JET_IPC_OBJECT_BUFFER, f_legacy_on_vmm, "legacy handle"},
      {"all-zero legacy handle", JET_IPC_OBJECT_SHARED, f_legacy_zero, "all-zero"},
      {"alloc_size 0", JET_IPC_OBJECT_BUFFER, f_alloc0, "alloc_size"},
      {"alloc_size a page", JET_IPC_OBJECT_BUFFER, f_alloc_page, "alloc_size"},
      {"alloc_size odd", JET_IPC_OBJECT_IMAGE, f_alloc_odd, "alloc_size"},
      {"alloc_size below data", JET_IPC_OBJECT_BUFFER, f_alloc_small, "data_size"},
      {"data_size 0", JET_IPC_OBJECT_SHARED, f_data0, "data_size"},
      {"data_size past alloc", JET_IPC_OBJECT_SHARED, f_data_big, "data_size"},
      {"width 0", JET_IPC_OBJECT_BUFFER, f_width0, ">= 1"},
      {"height 0", JET_IPC_OBJECT_BUFFER, f_height0, ">= 1"},
      {"depth 0", JET_IPC_OBJECT_BUFFER, f_depth0, ">= 1"},
      {"pitch < width", JET_IPC_OBJECT_BUFFER, f_pitch_small, "smaller"},
      {"pitch without PITCHED", JET_IPC_OBJECT_BUFFER, f_pitch_unpitched, "JET_MEM_PITCHED"},
      {"pitch not 512-aligned", JET_IPC_OBJECT_BUFFER, f_pitch_align, "multiple of 512"},
      {"extent overflows", JET_IPC_OBJECT_BUFFER, f_extent_overflow, "overflows"},
      {"rows overflow", JET_IPC_OBJECT_BUFFER, f_rows_overflow, "overflows"},
      {"data_size mismatch", JET_IPC_OBJECT_BUFFER, f_data_mismatch, "data_size"},
      {"image field on buffer", JET_IPC_OBJECT_BUFFER, f_buffer_image_field, "image fields"},
      {"format on buffer", JET_IPC_OBJECT_BUFFER, f_buffer_format_field, "image fields"},
      {"format 0", JET_IPC_OBJECT_IMAGE, f_fmt0, "format"},
      {"format past the table", JET_IPC_OBJECT_IMAGE, f_fmt_big, "format"},
      {"format UINT32_MAX", JET_IPC_OBJECT_IMAGE, f_fmt_huge, "format"},
      {"width 0", JET_IPC_OBJECT_IMAGE, f_img_w0, "size"},
      {"width > INT_MAX", JET_IPC_OBJECT_IMAGE, f_img_w_huge, "size"},
      {"odd NV12 width", JET_IPC_OBJECT_IMAGE, f_img_odd, "even"},
      {"plane count 1 for NV12", JET_IPC_OBJECT_IMAGE, f_img_planes, "plane(s)"},
      {"plane count 3 for NV12", JET_IPC_OBJECT_IMAGE, f_img_planes3, "plane(s)"},
      {"pitch < row bytes", JET_IPC_OBJECT_IMAGE, f_img_pitch_small, "smaller"},
      {"pitch overflowing the plane", JET_IPC_OBJECT_IMAGE, f_img_pitch_huge, "size_t"},
      {"pitch larger than the allocation", JET_IPC_OBJECT_IMAGE, f_img_pitch_big, "past data_size"},
      {"plane past the allocation", JET_IPC_OBJECT_IMAGE, f_img_offset_past, "past data_size"},
      {"plane offset wraps", JET_IPC_OBJECT_IMAGE, f_img_offset_wrap, "past data_size"},
      {"overlapping planes", JET_IPC_OBJECT_IMAGE, f_img_overlap, "overlap"},
      {"third plane of NV12", JET_IPC_OBJECT_IMAGE, f_img_unused_plane, "does not exist"},
      {"data_size past the planes", JET_IPC_OBJECT_IMAGE, f_img_data_longer, "planes end"},
      {"buffer field on image", JET_IPC_OBJECT_IMAGE, f_img_buffer_field, "buffer fields"},
      {"both image flags", JET_IPC_OBJECT_IMAGE, f_img_flags_both, "exactly one"},
      {"buffer field on shared", JET_IPC_OBJECT_SHARED, f_shared_buffer_field, "buffer or image"},
      {"image field on shared", JET_IPC_OBJECT_SHARED, f_shared_image_field, "buffer or image"},
      {"zero-copy shared", JET_IPC_OBJECT_SHARED, f_shared_flags_zero, "not creation flags"},
      {"shared without EXPORTABLE", JET_IPC_OBJECT_SHARED, f_shared_flags_none, "exactly one"},
      {"shared larger than an object", JET_IPC_OBJECT_SHARED, f_shared_huge, "largest object"},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_ipc_memory_desc d;
    switch (rows[r].object) {
      case JET_IPC_OBJECT_BUFFER:
        d = buffer_desc(JET_IPC_MECHANISM_VMM_FD, JET_MEM_EXPORTABLE | JET_MEM_PITCHED, 1921, 1081,
                        3);
        break;
      case JET_IPC_OBJECT_IMAGE:
        CHECK(image_desc(&d, JET_IPC_MECHANISM_VMM_FD, JET_IMAGE_EXPORTABLE, JET_FORMAT_NV12,
                         1920, 1080));
        break;
      default:
        d = shared_desc(JET_IPC_MECHANISM_VMM_FD, 12345);
        break;
    }
    int fd = 3 + (int)(jt_rand() % 100);
    CHECK_MSG(jet__ipc_desc_check(&d, rows[r].object, fd, NULL, "t") == JET_STATUS_OK,
              "row %zu: the unforged description is refused: %s", r, jet_last_error_string());
    rows[r].forge(&d, &fd);
    jet__image_layout l;
    jet_status st = jet__ipc_desc_check(&d, rows[r].object, fd, &l, "t");
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT || st == JET_STATUS_OVERFLOW,
              "row %zu (%s): %s", r, rows[r].what, jet_status_name(st));
    CHECK_MSG(has(jet_last_error()->message, rows[r].word),
              "row %zu (%s): \"%s\" not in \"%s\"", r, rows[r].what, rows[r].word,
              jet_last_error()->message);
  }
  return 0;
}

/* Random descriptions, mostly malformed: the check never reads out of bounds
 * (ASan/UBSan builds) and accepts only self-consistent ones. */
TEST(ipc_desc_check_random_bytes) {
  int accepted = 0;
  for (int i = 0; i < 20000; i++) {
    jet_ipc_memory_desc d;
    CHECK(image_desc(&d, JET_IPC_MECHANISM_VMM_FD, JET_IMAGE_EXPORTABLE, JET_FORMAT_I420, 64, 32));
    /* flip a few random bytes of a valid description */
    unsigned char *b = (unsigned char *)&d;
    int flips = 1 + (int)(jt_rand() % 4);
    for (int k = 0; k < flips; k++) b[jt_rand() % sizeof d] ^= (unsigned char)(1 + jt_rand() % 255);
    jet__image_layout l;
    jet_ipc_object o = (jet_ipc_object)(1 + jt_rand() % 3);
    if (jet__ipc_desc_check(&d, o, 5, &l, "t") != JET_STATUS_OK) continue;
    accepted++;
    /* whatever passed describes planes inside the allocation */
    if (o == JET_IPC_OBJECT_IMAGE)
      for (int p = 0; p < l.planes; p++)
        CHECK(l.plane[p].offset + l.plane[p].extent <= d.data_size && d.data_size <= d.alloc_size);
  }
  fprintf(stderr, "%d of 20000 mutated descriptions passed the check\n", accepted);
  return 0;
}

/* ------------------------------------------------------------ fakes */

/* A fake context with the device capabilities the test needs. */
static int fake_ctx(struct jet_context_s *c, const char *platform, int vmm, int ipc) {
  if (!jt_fake_context(c, platform)) return 0;
  c->info.vmm_supported = c->info.posix_fd_handles_supported = vmm;
  c->info.ipc_event_supported = ipc;
  jt_fill_random(c->info.uuid, sizeof c->info.uuid);
  return 1;
}

TEST(badarg_ipc_export) {
  jet_ipc_memory_desc d;
  int fd = 12345;
  int bogus[32] = {0};
  CHECK_ST(jet_ipc_export_buffer(NULL, NULL, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(fd == -1);
  CHECK_ST(jet_ipc_export_buffer(NULL, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_ipc_export_image(NULL, NULL, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_ipc_export_shared(NULL, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  fd = 12345;
  CHECK_ST(jet_ipc_export_buffer(NULL, &d, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK(fd == -1);
  CHECK_ST(jet_ipc_export_buffer((jet_buffer)(void *)bogus, &d, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ipc_export_image((jet_image)(void *)bogus, &d, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ipc_export_shared((jet_shared)(void *)bogus, &d, &fd), JET_STATUS_INVALID_HANDLE);

  struct jet_context_s c;
  CHECK(fake_ctx(&c, "desktop", 1, 1));
  /* handles of the right kind that are not exportable: the message names the flag */
  struct jet_buffer_s b;
  memset(&b, 0, sizeof b);
  b.kind = b.requested = JET_MEMORY_DEVICE;
  b.width = b.pitch = b.size = 4096;
  b.height = b.depth = 1;
  b.mem = jet__alloc_of(JET__ALLOC_CUDA, 0, (void *)(uintptr_t)0x10000, 4096);
  CHECK_OK(jet__handle_register(&b.h, JET__H_BUFFER, &c, "test"));
  fd = 12345;
  CHECK_ST(jet_ipc_export_buffer(&b, &d, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "JET_MEM_EXPORTABLE") && fd == -1);
  /* an imported buffer cannot be exported again */
  b.mem.imported = 1;
  b.mem.origin = JET__ALLOC_VMM;
  CHECK_ST(jet_ipc_export_buffer(&b, &d, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "imported"));

  struct jet_image_s im;
  memset(&im, 0, sizeof im);
  CHECK_OK(jet__image_layout_compute(JET_FORMAT_NV12, 64, 64, NULL, JET_IMAGE_PITCH_ALIGN,
                                     &im.layout, "test"));
  CHECK_OK(jet__handle_register(&im.h, JET__H_IMAGE, &c, "test"));
  CHECK_ST(jet_ipc_export_image(&im, &d, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "JET_IMAGE_EXPORTABLE"));
  /* a live handle of another type */
  CHECK_ST(jet_ipc_export_image((jet_image)(void *)&b, &d, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ipc_export_buffer((jet_buffer)(void *)&im, &d, &fd), JET_STATUS_INVALID_HANDLE);

  struct jet_shared_s sb;
  memset(&sb, 0, sizeof sb);
  CHECK(pthread_mutex_init(&sb.lock, NULL) == 0);
  sb.bytes = 100;
  sb.flags = JET_SHARED_STAGED;
  CHECK_OK(jet__handle_register(&sb.h, JET__H_SHARED, &c, "test"));
  CHECK_ST(jet_ipc_export_shared(&sb, &d, &fd), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "JET_SHARED_EXPORTABLE"));

  /* destroyed handles are detected without being touched */
  jet__handle_unregister(&b.h);
  jet__handle_unregister(&im.h);
  jet__handle_unregister(&sb.h);
  CHECK_ST(jet_ipc_export_buffer(&b, &d, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ipc_export_image(&im, &d, &fd), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ipc_export_shared(&sb, &d, &fd), JET_STATUS_INVALID_HANDLE);
  pthread_mutex_destroy(&sb.lock);
  jt_fake_context_done(&c);
  return 0;
}

TEST(badarg_ipc_import) {
  int bogus[32] = {0};
  jet_buffer b = (jet_buffer)(uintptr_t)0x1;
  jet_image im = (jet_image)(uintptr_t)0x1;
  jet_shared sb = (jet_shared)(uintptr_t)0x1;
  jet_ipc_memory_desc d = buffer_desc(JET_IPC_MECHANISM_VMM_FD, JET_MEM_EXPORTABLE, 1000, 1, 1);
  int pfd[2];
  CHECK(pipe2(pfd, O_CLOEXEC) == 0);
  int open_fd = pfd[0];

  CHECK_ST(jet_ipc_import_buffer(NULL, &d, open_fd, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_ipc_import_buffer(NULL, NULL, open_fd, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(b == NULL);
  CHECK_ST(jet_ipc_import_image(NULL, NULL, open_fd, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK(im == NULL);
  CHECK_ST(jet_ipc_import_shared(NULL, NULL, open_fd, &sb), JET_STATUS_INVALID_ARGUMENT);
  CHECK(sb == NULL);
  /* the description is checked before the context */
  CHECK_ST(jet_ipc_import_image(NULL, &d, open_fd, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "jet_ipc_import_buffer"));
  CHECK_ST(jet_ipc_import_buffer(NULL, &d, -1, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_ipc_import_buffer(NULL, &d, open_fd, &b), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ipc_import_buffer((jet_context)(void *)bogus, &d, open_fd, &b),
           JET_STATUS_INVALID_HANDLE);

  /* desktop context with descriptors: UUID, size and descriptor checks */
  struct jet_context_s c;
  CHECK(fake_ctx(&c, "desktop", 1, 1));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
  CHECK_ST(jet_ipc_import_buffer((jet_context)(void *)s, &d, open_fd, &b),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_ipc_import_buffer(&c, &d, open_fd, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK_MSG(has(jet_last_error()->message, "GPU-") &&
                has(jet_last_error()->message, "exporting GPU"),
            "%s", jet_last_error()->message);
  memcpy(d.device_uuid, c.info.uuid, sizeof d.device_uuid);
  jet_ipc_memory_desc big = d;
  big.alloc_size = round_alloc(c.info.total_memory + 1);
  CHECK_ST(jet_ipc_import_buffer(&c, &big, open_fd, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "forged"));
  int closed[2];
  CHECK(pipe2(closed, O_CLOEXEC) == 0);
  close(closed[0]);
  close(closed[1]);
  CHECK_ST(jet_ipc_import_buffer(&c, &d, closed[0], &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strcmp(jet_last_error()->native_call, "fcntl") == 0 && b == NULL);
  /* an image and a shared buffer reach the same checks */
  jet_ipc_memory_desc di;
  CHECK(image_desc(&di, JET_IPC_MECHANISM_VMM_FD, JET_IMAGE_EXPORTABLE, JET_FORMAT_RGBA8, 3, 2));
  memcpy(di.device_uuid, c.info.uuid, sizeof di.device_uuid);
  CHECK_ST(jet_ipc_import_image(&c, &di, closed[0], &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strcmp(jet_last_error()->native_call, "fcntl") == 0 && im == NULL);
  jet_ipc_memory_desc ds = shared_desc(JET_IPC_MECHANISM_VMM_FD, 999);
  memcpy(ds.device_uuid, c.info.uuid, sizeof ds.device_uuid);
  CHECK_ST(jet_ipc_import_shared(&c, &ds, closed[0], &sb), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strcmp(jet_last_error()->native_call, "fcntl") == 0 && sb == NULL);
  /* a device without descriptors cannot import them */
  c.info.vmm_supported = 0;
  CHECK_ST(jet_ipc_import_buffer(&c, &d, open_fd, &b), JET_STATUS_UNSUPPORTED);
  CHECK(jet_last_error()->hint[0]);
  c.info.vmm_supported = 1;
  /* legacy on a device without CUDA IPC */
  jet_ipc_memory_desc dl =
      buffer_desc(JET_IPC_MECHANISM_LEGACY, JET_MEM_EXPORTABLE_LEGACY, 1000, 1, 1);
  memcpy(dl.device_uuid, c.info.uuid, sizeof dl.device_uuid);
  c.info.ipc_event_supported = 0;
  CHECK_ST(jet_ipc_import_buffer(&c, &dl, -1, &b), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->message, "cudaDevAttrIpcEventSupport"));
  jt_fake_context_done(&c);

  /* a Tegra policy refuses legacy memory with the L4T hint, before any CUDA call */
  CHECK(fake_ctx(&c, "orin", 1, 1));
  memcpy(dl.device_uuid, c.info.uuid, sizeof dl.device_uuid);
  CHECK_ST(jet_ipc_import_buffer(&c, &dl, -1, &b), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->hint, "L4T") && has(jet_last_error()->hint, "file descriptors"));
  jet_ipc_memory_desc dli;
  CHECK(image_desc(&dli, JET_IPC_MECHANISM_LEGACY, JET_IMAGE_EXPORTABLE_LEGACY, JET_FORMAT_GRAY8,
                   1, 1));
  memcpy(dli.device_uuid, c.info.uuid, sizeof dli.device_uuid);
  CHECK_ST(jet_ipc_import_image(&c, &dli, -1, &im), JET_STATUS_UNSUPPORTED);
  /* and descriptors where the device has none */
  c.info.posix_fd_handles_supported = 0;
  memcpy(d.device_uuid, c.info.uuid, sizeof d.device_uuid);
  CHECK_ST(jet_ipc_import_buffer(&c, &d, open_fd, &b), JET_STATUS_UNSUPPORTED);
  CHECK(has(jet_last_error()->hint, "L4T"));
  CHECK(b == NULL && im == NULL);
  jt_fake_context_done(&c);
  /* the caller's descriptor is still open: nothing closed it */
  CHECK(fcntl(open_fd, F_GETFD) >= 0);
  close(pfd[0]);
  close(pfd[1]);
  return 0;
}

TEST(badarg_exportable_creation) {
  jet_buffer b = (jet_buffer)(uintptr_t)0x1;
  jet_buffer_desc bd = {JET_MEMORY_DEVICE, JET_MEM_EXPORTABLE | JET_MEM_EXPORTABLE_LEGACY, 64, 0,
                        0};
  CHECK_ST(jet_buffer_create(NULL, &bd, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "exclude") && b == NULL);
  bd.flags = JET_MEM_EXPORTABLE | JET_MEM_FALLBACK_HOST;
  CHECK_ST(jet_buffer_create(NULL, &bd, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "FALLBACK_HOST"));
  static const jet_memory_kind not_device[] = {JET_MEMORY_HOST_PINNED, JET_MEMORY_HOST_MAPPED,
                                               JET_MEMORY_MANAGED};
  for (size_t i = 0; i < 3; i++) {
    jet_buffer_desc x = {not_device[i], JET_MEM_EXPORTABLE_LEGACY, 64, 0, 0};
    CHECK_ST(jet_buffer_create(NULL, &x, &b), JET_STATUS_INVALID_ARGUMENT);
    CHECK(has(jet_last_error()->message, "JET_MEM_EXPORTABLE_LEGACY"));
  }
  bd.flags = JET_MEM_EXPORTABLE | JET_MEM_PITCHED;
  CHECK_ST(jet_buffer_create(NULL, &bd, &b), JET_STATUS_INVALID_HANDLE);
  /* rows padded to 512 bytes overflow where the unpadded product does not */
  bd.width_bytes = SIZE_MAX - 100;
  CHECK_ST(jet_buffer_create(NULL, &bd, &b), JET_STATUS_OVERFLOW);
  CHECK(has(jet_last_error()->message, "padded"));
  bd.width_bytes = 513;
  bd.height = SIZE_MAX / 1000;
  CHECK_ST(jet_buffer_create(NULL, &bd, &b), JET_STATUS_OVERFLOW);
  bd.flags = JET_MEM_EXPORTABLE; /* unpitched: 513 * (SIZE_MAX / 1000) fits */
  CHECK_ST(jet_buffer_create(NULL, &bd, &b), JET_STATUS_INVALID_HANDLE);

  jet_image im = (jet_image)(uintptr_t)0x1;
  jet_image_desc id = {JET_FORMAT_NV12, 64, 64, JET_IMAGE_EXPORTABLE | JET_IMAGE_EXPORTABLE_LEGACY};
  CHECK_ST(jet_image_create_ex(NULL, NULL, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK(im == NULL);
  CHECK_ST(jet_image_create_ex(NULL, &id, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_image_create_ex(NULL, &id, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "exclude"));
  id.flags = 1u << 5;
  CHECK_ST(jet_image_create_ex(NULL, &id, &im), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "unknown"));
  id.flags = JET_IMAGE_EXPORTABLE;
  CHECK_ST(jet_image_create_ex(NULL, &id, &im), JET_STATUS_INVALID_HANDLE);
  CHECK(strcmp(jet_last_error()->function, "jet_image_create_ex") == 0);

  jet_shared sb = (jet_shared)(uintptr_t)0x1;
  CHECK_ST(jet_shared_create(NULL, 64, JET_SHARED_EXPORTABLE | JET_SHARED_ZERO_COPY, &sb),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "JET_SHARED_EXPORTABLE") && sb == NULL);
  CHECK_ST(jet_shared_create(NULL, 64, JET_SHARED_EXPORTABLE | JET_SHARED_MANAGED, &sb),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_shared_create(NULL, 64, JET_SHARED_EXPORTABLE | JET_SHARED_STAGED, &sb),
           JET_STATUS_INVALID_HANDLE);

  /* policies and devices without a mechanism refuse before any CUDA call */
  static const struct {
    const char *platform;
    int vmm, ipc;
    int legacy;        /* ask for the legacy mechanism */
    const char *word;  /* in the hint */
  } rows[] = {
      {"orin", 1, 1, 1, "L4T"},          {"xavier", 1, 1, 1, "before Thor"},
      {"orin", 0, 1, 0, "L4T"},          {"desktop", 0, 0, 0, "POSIX descriptor export"},
      {"desktop", 1, 0, 1, "unified addressing"},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    struct jet_context_s c;
    CHECK(fake_ctx(&c, rows[r].platform, rows[r].vmm, rows[r].ipc));
    unsigned xf = rows[r].legacy ? JET_MEM_EXPORTABLE_LEGACY : JET_MEM_EXPORTABLE;
    jet_buffer_desc x = {JET_MEMORY_DEVICE, xf, 4096, 3, 0};
    b = (jet_buffer)(uintptr_t)0x1;
    jet_status st = jet_buffer_create(&c, &x, &b);
    CHECK_MSG(st == JET_STATUS_UNSUPPORTED && b == NULL, "row %zu buffer: %s", r,
              jet_status_name(st));
    CHECK_MSG(has(jet_last_error()->hint, rows[r].word), "row %zu: hint \"%s\"", r,
              jet_last_error()->hint);
    jet_image_desc y = {JET_FORMAT_RGBA8, 3, 2,
                        rows[r].legacy ? JET_IMAGE_EXPORTABLE_LEGACY : JET_IMAGE_EXPORTABLE};
    st = jet_image_create_ex(&c, &y, &im);
    CHECK_MSG(st == JET_STATUS_UNSUPPORTED && im == NULL, "row %zu image: %s", r,
              jet_status_name(st));
    CHECK(has(jet_last_error()->hint, rows[r].word));
    if (!rows[r].legacy) {
      st = jet_shared_create(&c, 4096, JET_SHARED_EXPORTABLE, &sb);
      CHECK_MSG(st == JET_STATUS_UNSUPPORTED && sb == NULL, "row %zu shared: %s", r,
                jet_status_name(st));
      CHECK(has(jet_last_error()->hint, rows[r].word));
    }
    CHECK(atomic_load(&c.live_objects) == 0);
    jt_fake_context_done(&c);
  }
  return 0;
}

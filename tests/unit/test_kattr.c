/* Launch attributes, kernel attributes, module globals and L2 persistence:
 * the checks that come before any CUDA call (no GPU needed). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/module/module_int.h"
#include "../../lib/l2/l2_internal.h"

/* ------------------------------------------------------------ access policy */

TEST(kattr_access_policy_check) {
  struct cudaAccessPolicyWindow w;
  char buf[64];
  jet_access_policy p = {buf, sizeof buf, 0.5f, JET_ACCESS_PERSISTING, JET_ACCESS_STREAMING};
  CHECK_OK(jet__access_policy_check(&p, 1 << 20, &w, "t"));
  CHECK(w.base_ptr == buf && w.num_bytes == sizeof buf && w.hitRatio == 0.5f);
  CHECK(w.hitProp == cudaAccessPropertyPersisting && w.missProp == cudaAccessPropertyStreaming);

  CHECK_ST(jet__access_policy_check(NULL, 1 << 20, &w, "t"), JET_STATUS_INVALID_ARGUMENT);
  /* window larger than the device allows, and any window where it allows none */
  p.bytes = (1 << 20) + 1;
  p.base = (const void *)(uintptr_t)0x10000;
  CHECK_ST(jet__access_policy_check(&p, 1 << 20, &w, "t"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "accessPolicyMaxWindowSize") != NULL);
  p.bytes = 64;
  CHECK_ST(jet__access_policy_check(&p, 0, &w, "t"), JET_STATUS_INVALID_ARGUMENT);
  /* wraps the address space */
  p.base = (const void *)(uintptr_t)(UINTPTR_MAX - 10);
  CHECK_ST(jet__access_policy_check(&p, 1 << 20, &w, "t"), JET_STATUS_OVERFLOW);
  p.base = NULL;
  CHECK_ST(jet__access_policy_check(&p, 1 << 20, &w, "t"), JET_STATUS_INVALID_ARGUMENT);
  p.base = buf;
  /* hit ratio outside [0, 1], NaN */
  float bad_ratios[] = {-0.01f, 1.01f, NAN, INFINITY};
  for (size_t i = 0; i < sizeof bad_ratios / sizeof bad_ratios[0]; i++) {
    p.hit_ratio = bad_ratios[i];
    CHECK_ST(jet__access_policy_check(&p, 1 << 20, &w, "t"), JET_STATUS_INVALID_ARGUMENT);
  }
  p.hit_ratio = 0.0f;
  CHECK_OK(jet__access_policy_check(&p, 1 << 20, &w, "t"));
  p.hit_ratio = 1.0f;
  CHECK_OK(jet__access_policy_check(&p, 1 << 20, &w, "t"));
  /* miss PERSISTING refused; unknown properties refused */
  p.miss = JET_ACCESS_PERSISTING;
  CHECK_ST(jet__access_policy_check(&p, 1 << 20, &w, "t"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "PERSISTING") != NULL);
  p.miss = (jet_access_property)3;
  CHECK_ST(jet__access_policy_check(&p, 1 << 20, &w, "t"), JET_STATUS_INVALID_ARGUMENT);
  p.miss = JET_ACCESS_NORMAL;
  p.hit = (jet_access_property)-1;
  CHECK_ST(jet__access_policy_check(&p, 1 << 20, &w, "t"), JET_STATUS_INVALID_ARGUMENT);
  /* bytes 0: an empty window whatever the rest says */
  jet_access_policy none = {NULL, 0, 7.0f, JET_ACCESS_PERSISTING, JET_ACCESS_PERSISTING};
  memset(&w, 0xa5, sizeof w);
  CHECK_OK(jet__access_policy_check(&none, 0, &w, "t"));
  CHECK(w.base_ptr == NULL && w.num_bytes == 0 && w.hitRatio == 0.0f);
  CHECK(w.hitProp == cudaAccessPropertyNormal && w.missProp == cudaAccessPropertyNormal);
  return 0;
}

/* ------------------------------------------------------------ launch attributes */

static jet__launch_limits limits(int sm) {
  jet__launch_limits l;
  memset(&l, 0, sizeof l);
  l.sm = sm;
  l.cooperative_launch = 1;
  l.cluster_launch = sm >= 90;
  l.prio_least = 0;
  l.prio_greatest = -5;
  l.max_window = 1 << 20;
  l.l2_persistence = sm >= 80;
  l.l2_why = sm >= 80 ? "supported" : "SM 7.5: L2 persistence needs SM 8.0 or later";
  return l;
}

static jet_launch_config cfg_of(unsigned gx, unsigned gy, unsigned gz) {
  jet_launch_config c;
  memset(&c, 0, sizeof c);
  c.grid = (jet_dim3){gx, gy, gz};
  c.block = (jet_dim3){128, 1, 1};
  return c;
}

static const CUlaunchAttribute *find_attr(const CUlaunchAttribute *a, unsigned n,
                                          CUlaunchAttributeID id) {
  for (unsigned i = 0; i < n; i++)
    if (a[i].id == id) return &a[i];
  return NULL;
}

TEST(kattr_launch_attrs_plain_and_flags) {
  CUlaunchAttribute a[JET__LAUNCH_ATTRS_MAX];
  unsigned n = 99;
  jet__launch_limits l = limits(90);
  jet_launch_config c = cfg_of(8, 1, 1);
  CHECK_OK(jet__launch_attrs(&l, &c, "k", a, &n, "t"));
  CHECK(n == 0);
  c.flags = 1u << 7;
  CHECK_ST(jet__launch_attrs(&l, &c, "k", a, &n, "t"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "unknown launch flags") != NULL);
  /* everything at once that may be combined */
  char buf[256];
  jet_access_policy win = {buf, sizeof buf, 0.25f, JET_ACCESS_PERSISTING, JET_ACCESS_NORMAL};
  c.flags = JET_LAUNCH_PROGRAMMATIC | JET_LAUNCH_PRIORITY;
  c.priority = -3;
  c.cluster = (jet_dim3){2, 1, 1};
  c.access_policy = &win;
  CHECK_OK(jet__launch_attrs(&l, &c, "k", a, &n, "t"));
  CHECK(n == 4);
  const CUlaunchAttribute *x = find_attr(a, n, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
  CHECK(x && x->value.clusterDim.x == 2 && x->value.clusterDim.y == 1 &&
        x->value.clusterDim.z == 1);
  x = find_attr(a, n, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
  CHECK(x && x->value.programmaticStreamSerializationAllowed == 1);
  x = find_attr(a, n, CU_LAUNCH_ATTRIBUTE_PRIORITY);
  CHECK(x && x->value.priority == -3);
  x = find_attr(a, n, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW);
  CHECK(x && x->value.accessPolicyWindow.base_ptr == buf &&
        x->value.accessPolicyWindow.num_bytes == sizeof buf &&
        x->value.accessPolicyWindow.hitRatio == 0.25f &&
        x->value.accessPolicyWindow.hitProp == CU_ACCESS_PROPERTY_PERSISTING &&
        x->value.accessPolicyWindow.missProp == CU_ACCESS_PROPERTY_NORMAL);
  /* cooperative alone */
  c = cfg_of(8, 1, 1);
  c.flags = JET_LAUNCH_COOPERATIVE;
  CHECK_OK(jet__launch_attrs(&l, &c, "k", a, &n, "t"));
  CHECK(n == 1 && a[0].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && a[0].value.cooperative == 1);
  return 0;
}

TEST(kattr_launch_attrs_refusals) {
  CUlaunchAttribute a[JET__LAUNCH_ATTRS_MAX];
  unsigned n;
  /* SM 9.0 features below SM 9.0, with the reason */
  jet__launch_limits l87 = limits(87);
  jet_launch_config c = cfg_of(8, 1, 1);
  c.cluster = (jet_dim3){2, 1, 1};
  CHECK_ST(jet__launch_attrs(&l87, &c, "k", a, &n, "t"), JET_STATUS_UNSUPPORTED);
  CHECK(strstr(jet_last_error_string(), "SM 9.0") != NULL);
  CHECK(strstr(jet_last_error_string(), "8.7") != NULL);
  c = cfg_of(8, 1, 1);
  c.flags = JET_LAUNCH_PROGRAMMATIC;
  CHECK_ST(jet__launch_attrs(&l87, &c, "k", a, &n, "t"), JET_STATUS_UNSUPPORTED);
  CHECK(strstr(jet_last_error_string(), "programmatic") != NULL);
  /* SM 9.0 device without cluster launch */
  jet__launch_limits l90 = limits(90);
  l90.cluster_launch = 0;
  c = cfg_of(8, 1, 1);
  c.cluster = (jet_dim3){2, 1, 1};
  CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_UNSUPPORTED);
  l90 = limits(90);
  /* cluster dimensions: zero component, not dividing the grid, too big */
  c.cluster = (jet_dim3){2, 0, 1};
  CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_INVALID_ARGUMENT);
  c = cfg_of(9, 1, 1);
  c.cluster = (jet_dim3){2, 1, 1};
  CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "does not divide") != NULL);
  c = cfg_of(4, 6, 1);
  c.cluster = (jet_dim3){2, 4, 1};
  CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_INVALID_ARGUMENT);
  c = cfg_of(16, 1, 1);
  c.cluster = (jet_dim3){16, 1, 1};
  CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "portable") != NULL);
  c = cfg_of(4, 6, 2);
  c.cluster = (jet_dim3){2, 2, 2};
  CHECK_OK(jet__launch_attrs(&l90, &c, "k", a, &n, "t"));
  /* cooperative without device support; cooperative with clusters */
  l90.cooperative_launch = 0;
  c = cfg_of(8, 1, 1);
  c.flags = JET_LAUNCH_COOPERATIVE;
  CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_UNSUPPORTED);
  l90.cooperative_launch = 1;
  c.cluster = (jet_dim3){2, 1, 1};
  CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_INVALID_ARGUMENT);
  /* priority outside [greatest, least] */
  c = cfg_of(8, 1, 1);
  c.flags = JET_LAUNCH_PRIORITY;
  int bad[] = {-6, 1, INT32_MIN, INT32_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    c.priority = bad[i];
    CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_INVALID_ARGUMENT);
  }
  c.priority = -5;
  CHECK_OK(jet__launch_attrs(&l90, &c, "k", a, &n, "t"));
  c.priority = 0;
  CHECK_OK(jet__launch_attrs(&l90, &c, "k", a, &n, "t"));
  /* a window where L2 persistence is unsupported, and a bad window */
  char buf[64];
  jet_access_policy win = {buf, sizeof buf, 1.0f, JET_ACCESS_PERSISTING, JET_ACCESS_STREAMING};
  jet__launch_limits l75 = limits(75);
  c = cfg_of(8, 1, 1);
  c.access_policy = &win;
  CHECK_ST(jet__launch_attrs(&l75, &c, "k", a, &n, "t"), JET_STATUS_UNSUPPORTED);
  CHECK(strstr(jet_last_error_string(), "SM 8.0") != NULL);
  win.hit_ratio = 2.0f;
  CHECK_ST(jet__launch_attrs(&l90, &c, "k", a, &n, "t"), JET_STATUS_INVALID_ARGUMENT);
  CHECK(n == 0);
  return 0;
}

/* ------------------------------------------------------------ policy */

TEST(kattr_policy_l2_persistence) {
  jet__platform p;
  /* Orin: decided from its attributes, not its name */
  jet_platform_info orin = jt_fake_device(1, 8, 7);
  orin.l2_size = 4u << 20;
  orin.persisting_l2_max = 3u << 20;
  CHECK_OK(jet__platform_select(&orin, NULL, &p, "t"));
  CHECK(strcmp(p.policy.name, "orin") == 0 && p.policy.l2_persistence == 1);
  orin.persisting_l2_max = 0;
  CHECK_OK(jet__platform_select(&orin, NULL, &p, "t"));
  CHECK(p.policy.l2_persistence == 0);
  CHECK(strstr(p.policy.l2_persistence_why, "persistingL2CacheMaxSize 0") != NULL);
  /* Xavier (SM 7.2), desktop Turing: too old, whatever they report */
  jet_platform_info old = jt_fake_device(1, 7, 2);
  old.persisting_l2_max = 1u << 20;
  CHECK_OK(jet__platform_select(&old, NULL, &p, "t"));
  CHECK(p.policy.l2_persistence == 0 && strstr(p.policy.l2_persistence_why, "SM 8.0") != NULL);
  old = jt_fake_device(0, 7, 5);
  CHECK_OK(jet__platform_select(&old, NULL, &p, "t"));
  CHECK(p.policy.l2_persistence == 0);
  /* H100 under its own policy and forced to orin: the device decides */
  jet_platform_info h100 = jt_fake_device(0, 9, 0);
  h100.l2_size = 50u << 20;
  h100.persisting_l2_max = 30u << 20;
  CHECK_OK(jet__platform_select(&h100, NULL, &p, "t"));
  CHECK(p.policy.l2_persistence == 1);
  CHECK_OK(jet__platform_select(&h100, "orin", &p, "t"));
  CHECK(p.policy.l2_persistence == 1);
  return 0;
}

/* ------------------------------------------------------------ public calls before CUDA */

TEST(kattr_l2_badarg_before_cuda) {
  jet_l2_info info;
  CHECK_ST(jet_l2_query(NULL, &info), JET_STATUS_INVALID_HANDLE);
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  CHECK_ST(jet_l2_query(&c, NULL), JET_STATUS_INVALID_ARGUMENT);
  /* the fake SM 9.0 device reports no persisting L2: every use refused */
  CHECK(c.platform.policy.l2_persistence == 0);
  size_t granted = 7;
  CHECK_ST(jet_l2_set_aside(&c, 1024, &granted), JET_STATUS_UNSUPPORTED);
  CHECK(granted == 0);
  CHECK(strstr(jet_last_error_string(), "persistingL2CacheMaxSize 0") != NULL);
  CHECK_ST(jet_l2_reset_persisting(&c), JET_STATUS_UNSUPPORTED);
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
  char buf[64];
  jet_access_policy win = {buf, sizeof buf, 1.0f, JET_ACCESS_PERSISTING, JET_ACCESS_STREAMING};
  CHECK_ST(jet_l2_stream_set_window(s, &win), JET_STATUS_UNSUPPORTED);
  CHECK_ST(jet_l2_stream_clear_window(s), JET_STATUS_UNSUPPORTED);
  CHECK_ST(jet_l2_stream_window(s, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_l2_stream_set_window(s, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_l2_stream_set_window(NULL, &win), JET_STATUS_INVALID_HANDLE);
  /* with persistence: a set-aside above the maximum, a default stream's window */
  c.info.persisting_l2_max = 1u << 20;
  c.platform.policy.l2_persistence = 1;
  CHECK_ST(jet_l2_set_aside(&c, (1u << 20) + 1, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "1048576") != NULL);
  CHECK_ST(jet_l2_stream_set_window(s, &win), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "default stream") != NULL);
  jt_fake_context_done(&c);
  return 0;
}

/* A module and a kernel registered on a fake context: enough for the checks
 * that come before the driver. */
typedef struct fake_kernel {
  struct jet_module_s m;
  struct jet_kernel_s *k;
} fake_kernel;

static int fake_kernel_make(fake_kernel *f, struct jet_context_s *c) {
  memset(f, 0, sizeof *f);
  snprintf(f->m.info.name, sizeof f->m.info.name, "fake");
  if (jet__handle_register_embedded(&f->m.h, JET__H_MODULE, c, "test") != JET_STATUS_OK) return 0;
  f->k = calloc(1, sizeof *f->k + 8);
  if (!f->k) return 0;
  memcpy(f->k->name, "fake_k", 7);
  f->k->mod = &f->m;
  f->k->max_threads = 256;
  f->k->max_dyn_shared = 48 * 1024;
  return jet__handle_register_embedded(&f->k->h, JET__H_KERNEL, c, "test") == JET_STATUS_OK;
}

static void fake_kernel_done(fake_kernel *f) {
  jet__handle_unregister_embedded(&f->k->h);
  free(f->k);
  jet__handle_unregister_embedded(&f->m.h);
}

TEST(kattr_symbol_badarg_before_cuda) {
  void *p = (void *)1;
  size_t n = 5;
  CHECK_ST(jet_module_symbol(NULL, "x", &p, &n), JET_STATUS_INVALID_HANDLE);
  CHECK(p == NULL && n == 0);
  unsigned v[4] = {1, 2, 3, 4};
  CHECK_ST(jet_module_symbol_write(NULL, "x", 0, v, sizeof v), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_module_symbol_read(NULL, "x", 0, v, sizeof v), JET_STATUS_INVALID_HANDLE);
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  fake_kernel f;
  CHECK(fake_kernel_make(&f, &c));
  CHECK_ST(jet_module_symbol(&f.m, NULL, &p, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_module_symbol(&f.m, "", &p, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_module_symbol_write(&f.m, "x", 0, NULL, 4), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_module_symbol_read(&f.m, "x", 0, NULL, 4), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_module_symbol_write(&f.m, "x", SIZE_MAX - 2, v, sizeof v), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_module_symbol_read(&f.m, "x", SIZE_MAX, v, 1), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_module_symbol_read(&f.m, "x", 0, (void *)(uintptr_t)(UINTPTR_MAX - 1), 16),
           JET_STATUS_OVERFLOW);
  CHECK_ST(jet_module_symbol_write(&f.m, "", 0, v, sizeof v), JET_STATUS_INVALID_ARGUMENT);
  /* a kernel handle is not a module, and a module is not a stream */
  CHECK_ST(jet_module_symbol((jet_module)(void *)f.k, "x", &p, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_module_symbol_write_async((jet_stream)(void *)&f.m, &f.m, "x", 0, v, 4),
           JET_STATUS_INVALID_HANDLE);
  fake_kernel_done(&f);
  jt_fake_context_done(&c);
  return 0;
}

TEST(kattr_kernel_badarg_before_cuda) {
  int v = 7;
  jet_kernel_attrs at;
  CHECK_ST(jet_kernel_attributes(NULL, &at), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_kernel_occupancy(NULL, 128, 0, &v), JET_STATUS_INVALID_HANDLE);
  CHECK(v == 0);
  CHECK_ST(jet_kernel_set_carveout(NULL, 50), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_kernel_set_max_dynamic_shared(NULL, 1024), JET_STATUS_INVALID_HANDLE);
  jet_dim3 cl = {2, 1, 1}, blk = {128, 1, 1};
  CHECK_ST(jet_kernel_max_active_clusters(NULL, cl, blk, 0, &v), JET_STATUS_INVALID_HANDLE);
  jet_launch_config cfg = cfg_of(1, 1, 1);
  CHECK_ST(jet_launch_ex(NULL, NULL, &cfg, NULL), JET_STATUS_INVALID_HANDLE);

  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  fake_kernel f;
  CHECK(fake_kernel_make(&f, &c));
  CHECK_ST(jet_kernel_attributes(f.k, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_kernel_occupancy(f.k, 128, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_kernel_occupancy(f.k, 0, 0, &v), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_kernel_occupancy(f.k, 257, 0, &v), JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error_string(), "fake_k") != NULL);
  CHECK_ST(jet_kernel_set_carveout(f.k, -2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_kernel_set_carveout(f.k, 101), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_kernel_max_active_clusters(f.k, cl, blk, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_stream s;
  CHECK_OK(jet_context_default_stream(&c, JET_STREAM_LEGACY, &s));
  /* a stream handle as the kernel */
  CHECK_ST(jet_launch_ex(s, (jet_kernel)(void *)s, &cfg, NULL), JET_STATUS_INVALID_HANDLE);
  /* clusters below SM 9.0: refused with the reason, before the driver */
  c.info.cc_major = 8;
  c.info.cc_minor = 7;
  CHECK_ST(jet_kernel_max_active_clusters(f.k, cl, blk, 0, &v), JET_STATUS_UNSUPPORTED);
  CHECK(strstr(jet_last_error_string(), "SM 9.0") != NULL);
  /* jet_launch's shared checks, as jet_launch_ex uses them */
  void *args[1] = {NULL};
  f.k->params = 1;
  CHECK_ST(jet__launch_args_check(f.k, (jet_dim3){0, 1, 1}, blk, 0, args, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__launch_args_check(f.k, (jet_dim3){1, 1, 1}, (jet_dim3){16, 16, 2}, 0, args, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__launch_args_check(f.k, (jet_dim3){1, 1, 1}, blk, 0, NULL, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__launch_args_check(f.k, (jet_dim3){1, 1, 1}, blk, 0, args, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  args[0] = &v;
  CHECK_OK(jet__launch_args_check(f.k, (jet_dim3){1, 1, 1}, blk, 48 * 1024, args, "t"));
  CHECK_ST(jet__launch_args_check(f.k, (jet_dim3){1, 1, 1}, blk, (size_t)1 << 32, args, "t"),
           JET_STATUS_INVALID_ARGUMENT);
  fake_kernel_done(&f);
  jt_fake_context_done(&c);
  return 0;
}

/* Kernel image selection (host only, table-driven), image-set validation, the
 * no-image error text, forbid mode, the embedded pattern module, and bad
 * arguments checked before any CUDA call. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/module/module_int.h"
#include "jetrt_kernels.h"

static const unsigned char elf[16] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
static const char ptx[] = "// fake ptx\n.version 7.0\n";

#define CUBIN(sm) {sm, JET_IMAGE_CUBIN, elf, sizeof elf}
#define PTX(sm) {sm, JET_IMAGE_PTX, ptx, sizeof ptx}

static const jet_kernel_image full_imgs[] = {CUBIN(75), CUBIN(80), CUBIN(86), CUBIN(87), CUBIN(89),
                                             CUBIN(90), CUBIN(100), CUBIN(110), CUBIN(120), PTX(75)};
static const jet_kernel_image noexact_imgs[] = {CUBIN(90), CUBIN(80), PTX(75), CUBIN(86)};
static const jet_kernel_image orin_imgs[] = {CUBIN(87)};
static const jet_kernel_image ptx75_imgs[] = {PTX(75)};
static const jet_kernel_image ptx90_imgs[] = {PTX(90)};
static const jet_kernel_image notelf_imgs[] = {{90, JET_IMAGE_CUBIN, ptx, sizeof ptx}, PTX(80)};
static const char src[] = "extern \"C\" __global__ void k(void) {}";

enum { FULL, NOEXACT, ORIN, PTX75, PTX90, SRCONLY, NOTELF, NSETS };
static const jet_kernel_image_set sets[NSETS] = {
    [FULL] = {JET_KERNEL_IMAGE_SET_ABI, "full", full_imgs, 10, src, sizeof src},
    [NOEXACT] = {JET_KERNEL_IMAGE_SET_ABI, "noexact", noexact_imgs, 4, src, sizeof src},
    [ORIN] = {JET_KERNEL_IMAGE_SET_ABI, "orin", orin_imgs, 1, NULL, 0},
    [PTX75] = {JET_KERNEL_IMAGE_SET_ABI, "ptx75", ptx75_imgs, 1, NULL, 0},
    [PTX90] = {JET_KERNEL_IMAGE_SET_ABI, "ptx90", ptx90_imgs, 1, NULL, 0},
    [SRCONLY] = {JET_KERNEL_IMAGE_SET_ABI, "srconly", NULL, 0, src, sizeof src},
    [NOTELF] = {JET_KERNEL_IMAGE_SET_ABI, "notelf", notelf_imgs, 2, NULL, 0},
};

#define X JET_CUBIN_EXACT_SM
#define M JET_CUBIN_SAME_MAJOR
#define C JET_KERNEL_PATH_CUBIN
#define P JET_KERNEL_PATH_PTX
#define N JET_KERNEL_PATH_NVRTC
#define A JET_KERNEL_PATH_AUTO

TEST(module_select_table) {
  static const struct {
    int sm;
    jet_cubin_match match;
    int set, jit, nvrtc;
    jet_kernel_path force;
    jet_status st;
    int count;
    jet_kernel_path first; /* path of the first step */
    int first_sm;          /* its image's SM (0 for NVRTC) */
    int second_sm;         /* the second step's SM, -1: don't care, 0: NVRTC */
  } rows[] = {
      /* every SM of interest, full set, both policies */
      {72, X, FULL, 1, 1, A, JET_STATUS_OK, 1, N, 0, -1},
      {72, M, FULL, 1, 1, A, JET_STATUS_OK, 1, N, 0, -1},
      {87, X, FULL, 1, 1, A, JET_STATUS_OK, 3, C, 87, 75},
      {87, M, FULL, 1, 1, A, JET_STATUS_OK, 5, C, 87, 86},
      {89, X, FULL, 1, 1, A, JET_STATUS_OK, 3, C, 89, 75},
      {89, M, FULL, 1, 1, A, JET_STATUS_OK, 6, C, 89, 87},
      {90, X, FULL, 1, 1, A, JET_STATUS_OK, 3, C, 90, 75},
      {90, M, FULL, 1, 1, A, JET_STATUS_OK, 3, C, 90, 75},
      {110, X, FULL, 1, 1, A, JET_STATUS_OK, 3, C, 110, 75},
      {110, M, FULL, 1, 1, A, JET_STATUS_OK, 3, C, 110, 75},
      {120, X, FULL, 1, 1, A, JET_STATUS_OK, 3, C, 120, 75},
      {120, M, FULL, 1, 1, A, JET_STATUS_OK, 3, C, 120, 75},
      /* no exact cubin: Tegra falls to PTX, desktop takes a lower minor */
      {72, X, NOEXACT, 1, 1, A, JET_STATUS_OK, 1, N, 0, -1},
      {87, X, NOEXACT, 1, 1, A, JET_STATUS_OK, 2, P, 75, 0},
      {87, M, NOEXACT, 1, 1, A, JET_STATUS_OK, 4, C, 86, 80},
      {89, M, NOEXACT, 1, 1, A, JET_STATUS_OK, 4, C, 86, 80},
      {90, X, NOEXACT, 1, 1, A, JET_STATUS_OK, 3, C, 90, 75},
      {110, X, NOEXACT, 1, 1, A, JET_STATUS_OK, 2, P, 75, 0},
      {110, M, NOEXACT, 1, 1, A, JET_STATUS_OK, 2, P, 75, 0},
      {120, M, NOEXACT, 1, 1, A, JET_STATUS_OK, 2, P, 75, 0},
      /* forbid mode: cubins only */
      {87, X, FULL, 0, 1, A, JET_STATUS_OK, 1, C, 87, -1},
      {87, M, NOEXACT, 0, 1, A, JET_STATUS_OK, 2, C, 86, 80},
      {87, X, NOEXACT, 0, 1, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {110, X, NOEXACT, 0, 1, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {72, X, FULL, 0, 1, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {90, M, PTX75, 0, 1, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      /* Orin-only firmware build */
      {87, X, ORIN, 1, 1, A, JET_STATUS_OK, 1, C, 87, -1},
      {110, X, ORIN, 1, 1, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {89, M, ORIN, 1, 1, A, JET_STATUS_OK, 1, C, 87, -1},
      {86, M, ORIN, 1, 1, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      /* PTX only */
      {72, X, PTX75, 1, 1, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {87, X, PTX75, 1, 1, A, JET_STATUS_OK, 1, P, 75, -1},
      {89, X, PTX90, 1, 1, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {90, X, PTX90, 1, 1, A, JET_STATUS_OK, 1, P, 90, -1},
      {120, M, PTX90, 1, 1, A, JET_STATUS_OK, 1, P, 90, -1},
      /* source only, NVRTC in or out */
      {87, X, SRCONLY, 1, 1, A, JET_STATUS_OK, 1, N, 0, -1},
      {87, X, SRCONLY, 1, 0, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {72, M, FULL, 1, 0, A, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      /* forced paths */
      {90, M, FULL, 1, 1, C, JET_STATUS_OK, 1, C, 90, -1},
      {90, M, FULL, 1, 1, P, JET_STATUS_OK, 1, P, 75, -1},
      {90, M, FULL, 1, 1, N, JET_STATUS_OK, 1, N, 0, -1},
      {90, M, FULL, 1, 0, N, JET_STATUS_NOT_BUILT_IN, 0, A, 0, -1},
      {90, M, FULL, 0, 1, P, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {90, M, FULL, 0, 1, N, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      {72, X, FULL, 1, 1, C, JET_STATUS_NO_KERNEL_IMAGE, 0, A, 0, -1},
      /* a "cubin" that is not ELF is never chosen */
      {90, X, NOTELF, 1, 1, A, JET_STATUS_OK, 1, P, 80, -1},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    const jet_kernel_image_set *set = &sets[rows[r].set];
    CHECK_OK(jet__set_check(set, "test"));
    jet__select_in in = {rows[r].sm, rows[r].match, "test", rows[r].jit, "JIT forbidden (test)",
                         rows[r].force, rows[r].nvrtc};
    jet__plan plan;
    jet_clear_error();
    jet_status st = jet__select(set, &in, &plan, "test");
    CHECK_MSG(st == rows[r].st, "row %zu: got %s want %s: %s", r, jet_status_name(st),
              jet_status_name(rows[r].st), jet_last_error_string());
    if (st != JET_STATUS_OK) {
      CHECK_MSG(jet_last_error()->status == st, "row %zu: detail not set", r);
      continue;
    }
    CHECK_MSG(plan.count == rows[r].count, "row %zu: %d steps, want %d (%s)", r, plan.count,
              rows[r].count, plan.report);
    const jet__plan_step *s0 = &plan.steps[0];
    CHECK_MSG(s0->path == rows[r].first, "row %zu: first path %d want %d", r, (int)s0->path,
              (int)rows[r].first);
    if (s0->path == JET_KERNEL_PATH_NVRTC)
      CHECK_MSG(s0->image == -1, "row %zu", r);
    else
      CHECK_MSG(set->images[s0->image].sm == rows[r].first_sm, "row %zu: first sm %d want %d", r,
                set->images[s0->image].sm, rows[r].first_sm);
    if (rows[r].second_sm >= 0) {
      CHECK_MSG(plan.count >= 2, "row %zu", r);
      const jet__plan_step *s1 = &plan.steps[1];
      if (rows[r].second_sm == 0)
        CHECK_MSG(s1->path == JET_KERNEL_PATH_NVRTC, "row %zu: second step not NVRTC", r);
      else
        CHECK_MSG(s1->image >= 0 && set->images[s1->image].sm == rows[r].second_sm,
                  "row %zu: second sm want %d", r, rows[r].second_sm);
    }
    /* the plan never holds anything the rules refuse */
    for (int i = 0; i < plan.count; i++) {
      const jet__plan_step *s = &plan.steps[i];
      if (s->path == JET_KERNEL_PATH_NVRTC) {
        CHECK_MSG(rows[r].jit && rows[r].nvrtc && set->source, "row %zu", r);
        CHECK_MSG(i == plan.count - 1, "row %zu: NVRTC must be last", r);
        continue;
      }
      const jet_kernel_image *img = &set->images[s->image];
      CHECK_MSG(img->sm <= rows[r].sm, "row %zu: step %d sm %d newer than device", r, i, img->sm);
      if (s->path == JET_KERNEL_PATH_PTX) CHECK_MSG(rows[r].jit, "row %zu: PTX while forbidden", r);
      if (s->path == JET_KERNEL_PATH_CUBIN && rows[r].match == X)
        CHECK_MSG(img->sm == rows[r].sm, "row %zu: inexact cubin under exact policy", r);
      if (s->path == JET_KERNEL_PATH_CUBIN)
        CHECK_MSG(img->sm / 10 == rows[r].sm / 10, "row %zu: other major", r);
      if (i > 0 && plan.steps[i - 1].path == s->path)
        CHECK_MSG(set->images[plan.steps[i - 1].image].sm > img->sm, "row %zu: not best-first", r);
    }
  }
  return 0;
}

TEST(module_no_image_error_text) {
  jet__select_in in = {87, JET_CUBIN_EXACT_SM, "orin", 0, "JIT forbidden (JET_JIT=forbid)",
                       JET_KERNEL_PATH_AUTO, 1};
  jet__plan plan;
  CHECK_ST(jet__select(&sets[NOEXACT], &in, &plan, "jet_module_load"),
           JET_STATUS_NO_KERNEL_IMAGE);
  const jet_error_info *e = jet_last_error();
  CHECK(e->status == JET_STATUS_NO_KERNEL_IMAGE);
  CHECK(strcmp(e->function, "jet_module_load") == 0);
  const char *m = e->message;
  fprintf(stderr, "detail: %s\n", jet_last_error_string());
  CHECK(strstr(m, "'noexact'") != NULL);
  CHECK(strstr(m, "device sm_87") != NULL);
  CHECK(strstr(m, "policy orin") != NULL);
  CHECK(strstr(m, "sm_90 cubin: not sm_87") != NULL);
  CHECK(strstr(m, "sm_80 cubin: not sm_87") != NULL);
  CHECK(strstr(m, "sm_86 cubin: not sm_87") != NULL);
  CHECK(strstr(m, "compute_75 ptx: JIT forbidden (JET_JIT=forbid)") != NULL);
  CHECK(strstr(m, "source: JIT forbidden (JET_JIT=forbid)") != NULL);
  CHECK(strstr(e->hint, "sm_87") != NULL);

  /* desktop reasons: other major, newer minor, newer PTX, no source */
  static const jet_kernel_image imgs[] = {CUBIN(90), CUBIN(89), PTX(89), CUBIN(75)};
  jet_kernel_image_set s = {JET_KERNEL_IMAGE_SET_ABI, "desk", imgs, 4, NULL, 0};
  jet__select_in d = {86, JET_CUBIN_SAME_MAJOR, "desktop", 1, NULL, JET_KERNEL_PATH_AUTO, 1};
  CHECK_ST(jet__select(&s, &d, &plan, "t"), JET_STATUS_NO_KERNEL_IMAGE);
  m = jet_last_error()->message;
  fprintf(stderr, "detail: %s\n", jet_last_error_string());
  CHECK(strstr(m, "device sm_86") != NULL);
  CHECK(strstr(m, "sm_90 cubin: major 9 != 8") != NULL);
  CHECK(strstr(m, "sm_89 cubin: minor 9 > 6") != NULL);
  CHECK(strstr(m, "sm_75 cubin: major 7 != 8") != NULL);
  CHECK(strstr(m, "compute_89 ptx: newer than sm_86") != NULL);
  CHECK(strstr(m, "source: none embedded") != NULL);
  CHECK(strstr(jet_last_error()->hint, "JET_CUDA_ARCHS") != NULL);

  /* the longest real set (every SM nvcc 13 knows) still fits with all reasons */
  static const jet_kernel_image many[] = {CUBIN(75), CUBIN(80), CUBIN(86), CUBIN(87), CUBIN(88),
                                          CUBIN(89), CUBIN(90), CUBIN(100), CUBIN(103),
                                          CUBIN(110), CUBIN(120), CUBIN(121), PTX(75)};
  jet_kernel_image_set ms = {JET_KERNEL_IMAGE_SET_ABI, "many", many, 13, src, sizeof src};
  jet__select_in t = {72, JET_CUBIN_EXACT_SM, "xavier", 0, "JIT forbidden (JET_JIT=forbid)",
                      JET_KERNEL_PATH_AUTO, 1};
  CHECK_ST(jet__select(&ms, &t, &plan, "t"), JET_STATUS_NO_KERNEL_IMAGE);
  m = jet_last_error()->message;
  fprintf(stderr, "detail: %s\n", jet_last_error_string());
  CHECK(strstr(m, "sm_121 cubin: not sm_72") != NULL);
  CHECK(strstr(m, "compute_75 ptx: newer than sm_72") != NULL);
  CHECK(strstr(m, "source: JIT forbidden") != NULL);
  return 0;
}

TEST(module_not_elf_reason) {
  jet__select_in in = {90, JET_CUBIN_SAME_MAJOR, "desktop", 1, NULL, JET_KERNEL_PATH_CUBIN, 1};
  jet__plan plan;
  CHECK_ST(jet__select(&sets[NOTELF], &in, &plan, "t"), JET_STATUS_NO_KERNEL_IMAGE);
  CHECK(strstr(jet_last_error()->message, "sm_90 cubin: not an ELF cubin") != NULL);
  CHECK(strstr(jet_last_error()->message, "compute_80 ptx: path forced to cubin") != NULL);
  return 0;
}

TEST(badarg_module_set_check) {
  static const char noterm[4] = {'a', 'b', 'c', 'd'};
  jet_kernel_image bad_kind = {90, (jet_image_kind)7, elf, sizeof elf};
  jet_kernel_image no_data = {90, JET_IMAGE_CUBIN, NULL, 16};
  jet_kernel_image zero = {90, JET_IMAGE_CUBIN, elf, 0};
  jet_kernel_image bad_sm = {9, JET_IMAGE_CUBIN, elf, sizeof elf};
  jet_kernel_image ptx_noterm = {75, JET_IMAGE_PTX, noterm, sizeof noterm};
  jet_kernel_image good = CUBIN(90);
  const struct {
    jet_kernel_image_set set;
    const char *what;
  } rows[] = {
      {{2, "x", &good, 1, NULL, 0}, "abi"},
      {{JET_KERNEL_IMAGE_SET_ABI, NULL, &good, 1, NULL, 0}, "name"},
      {{JET_KERNEL_IMAGE_SET_ABI, "", &good, 1, NULL, 0}, "name"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", NULL, 1, NULL, 0}, "images is NULL"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &good, 65, NULL, 0}, "at most"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &bad_kind, 1, NULL, 0}, "kind"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &no_data, 1, NULL, 0}, "no data"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &zero, 1, NULL, 0}, "no data"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &bad_sm, 1, NULL, 0}, "SM 9"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &ptx_noterm, 1, NULL, 0}, "NUL"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &good, 1, noterm, sizeof noterm}, "source_size"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &good, 1, src, 0}, "source_size"},
      {{JET_KERNEL_IMAGE_SET_ABI, "x", &good, 1, NULL, 5}, "source is NULL"},
  };
  CHECK_ST(jet__set_check(NULL, "t"), JET_STATUS_INVALID_ARGUMENT);
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_status st = jet__set_check(&rows[r].set, "t");
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT, "row %zu: %s", r, jet_status_name(st));
    CHECK_MSG(strstr(jet_last_error()->message, rows[r].what) != NULL, "row %zu: '%s' not in '%s'",
              r, rows[r].what, jet_last_error()->message);
  }
  jet_kernel_image_set ok = {JET_KERNEL_IMAGE_SET_ABI, "x", &good, 1, src, sizeof src};
  CHECK_OK(jet__set_check(&ok, "t"));
  return 0;
}

/* The module jetrt embeds: one ELF cubin per configured SM, PTX, the source. */
TEST(module_embedded_pattern_table) {
  const jet_kernel_image_set *s = &jet__images_pattern;
  CHECK_OK(jet__set_check(s, "t"));
  CHECK(strcmp(s->name, "pattern") == 0);
  CHECK(s->image_count >= 1 + JET_TEST_PTX);
  int cubins = 0, ptxs = 0;
  for (size_t i = 0; i < s->image_count; i++) {
    const jet_kernel_image *img = &s->images[i];
    if (img->kind == JET_IMAGE_CUBIN) {
      const unsigned char *p = img->data;
      CHECK_MSG(img->size > 64 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F',
                "image %zu (sm_%d) is not an ELF file", i, img->sm);
      /* e_machine 190 = EM_CUDA */
      CHECK_MSG(p[18] == 190 && p[19] == 0, "image %zu: e_machine %d", i, p[18] | p[19] << 8);
      cubins++;
    } else {
      const char *t = img->data;
      CHECK(strlen(t) + 1 == img->size);
      CHECK(strstr(t, ".entry jet_test_pattern") != NULL);
      CHECK(strstr(t, ".entry jet_test_empty") != NULL);
      char target[32];
      snprintf(target, sizeof target, ".target sm_%d", img->sm);
      CHECK_MSG(strstr(t, target) != NULL, "PTX lacks %s", target);
      ptxs++;
    }
  }
  CHECK_MSG(cubins >= 1 && ptxs == JET_TEST_PTX, "%d cubins, %d PTX (JET_CUDA_PTX %d)", cubins, ptxs,
            JET_TEST_PTX);
  CHECK(s->source && strlen(s->source) + 1 == s->source_size);
  CHECK(strstr(s->source, "extern \"C\" __global__ void jet_test_pattern") != NULL);
  CHECK(strstr(s->source, "\n#include") == NULL && strncmp(s->source, "#include", 8) != 0);
  return 0;
}

TEST(badarg_module_host) {
  jet_module m = (jet_module)(uintptr_t)0x1;
  CHECK_ST(jet_module_load(NULL, &jet__images_pattern, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_module_load(NULL, &jet__images_pattern, NULL, &m), JET_STATUS_INVALID_HANDLE);
  CHECK(m == NULL);
  int fake_ctx[64] = {0};
  CHECK_ST(jet_module_load((jet_context)(void *)fake_ctx, &jet__images_pattern, NULL, &m),
           JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_module_destroy(NULL));
  int fake[64] = {0};
  CHECK_ST(jet_module_destroy((jet_module)(void *)fake), JET_STATUS_INVALID_HANDLE);
  jet_module_load_info info;
  CHECK_ST(jet_module_info(NULL, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_module_info((jet_module)(void *)fake, &info), JET_STATUS_INVALID_HANDLE);
  jet_kernel k = (jet_kernel)(uintptr_t)0x1;
  CHECK_ST(jet_module_kernel(NULL, "x", NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_module_kernel(NULL, "x", &k), JET_STATUS_INVALID_HANDLE);
  CHECK(k == NULL);
  jet_dim3 one = {1, 1, 1};
  CHECK_ST(jet_launch(NULL, NULL, one, one, 0, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_launch(NULL, (jet_kernel)(void *)fake, one, one, 0, NULL),
           JET_STATUS_INVALID_HANDLE);
  int bs = 0;
  CHECK_ST(jet_kernel_suggest_block(NULL, 0, &bs, NULL), JET_STATUS_INVALID_HANDLE);
  void *fn = NULL;
  CHECK_ST(jet_kernel_native(NULL, &fn), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_kernel_native((jet_kernel)(void *)fake, &fn), JET_STATUS_INVALID_HANDLE);
  return 0;
}

/* Every built-in module's embedded source (the fallback where no cubin
 * fits) compiles under NVRTC for Orin's SM 8.7, with no GPU: kernels that
 * nvcc takes but NVRTC would refuse show here, not on a board. */
TEST(module_nvrtc_compiles_every_builtin) {
  if (!jet__nvrtc_built_in()) SKIP("NVRTC not built in");
  const jet_kernel_image_set *mods[] = {&jet__images_color,    &jet__images_dnn,    &jet__images_filter,
                                        &jet__images_geometry, &jet__images_reduce, &jet__images_resize,
                                        &jet__images_copy2d,   &jet__images_pattern};
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    void *cubin = NULL;
    size_t n = 0;
    CHECK_MSG(jet__nvrtc_compile("builtin", mods[i]->source, 87, &cubin, &n, "t") == JET_STATUS_OK,
              "module %zu: %s", i, jet_last_error_string());
    const unsigned char *p = cubin;
    CHECK(n > 64 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F');
    free(cubin);
  }
  return 0;
}

/* NVRTC needs no GPU: the embedded source must compile under it for a Tegra
 * and a desktop SM, and a broken source must give NVRTC's log in the detail. */
TEST(module_nvrtc_compiles_embedded_source) {
  if (!jet__nvrtc_built_in()) {
    void *c = NULL;
    size_t n = 0;
    CHECK_ST(jet__nvrtc_compile("x", "", 90, &c, &n, "t"), JET_STATUS_NOT_BUILT_IN);
    SKIP("NVRTC not built in");
  }
  int major = 0, minor = 0;
  CHECK_OK(jet__nvrtc_version(&major, &minor, "t"));
  CHECK(major >= 12);
  static const int sms[] = {87, 90};
  for (int i = 0; i < 2; i++) {
    void *cubin = NULL;
    size_t n = 0;
    CHECK_OK(jet__nvrtc_compile("pattern", jet__images_pattern.source, sms[i], &cubin, &n, "t"));
    const unsigned char *p = cubin;
    CHECK(n > 64 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F' && p[18] == 190);
    free(cubin);
  }
  void *cubin = (void *)(uintptr_t)1;
  size_t n = 1;
  CHECK_ST(jet__nvrtc_compile("bad", "extern \"C\" __global__ void k(void) { undefined_thing(); }",
                              90, &cubin, &n, "t"),
           JET_STATUS_COMPILE_FAILED);
  CHECK(cubin == NULL && n == 0);
  fprintf(stderr, "detail: %s\n", jet_last_error_string());
  CHECK(strstr(jet_last_error()->message, "undefined_thing") != NULL);
  CHECK(strcmp(jet_last_error()->native_call, "nvrtcCompileProgram") == 0);
  return 0;
}

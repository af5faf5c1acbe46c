/*
 * Choosing a kernel image for a device: a pure function of the image set, the
 * device's SM and the policy, so that every rule is tested on the host.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "module_int.h"

void jet__image_label(const jet_kernel_image *img, char *buf, size_t cap) {
  if (img->kind == JET_IMAGE_CUBIN)
    snprintf(buf, cap, "sm_%d cubin", img->sm);
  else
    snprintf(buf, cap, "compute_%d ptx", img->sm);
}

jet_status jet__set_check(const jet_kernel_image_set *set, const char *fn) {
  if (!set) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "image set is NULL");
  if (set->abi != JET_KERNEL_IMAGE_SET_ABI)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "image set abi %d, this jetrt reads abi %d: rebuild the kernels", set->abi,
                      JET_KERNEL_IMAGE_SET_ABI);
  if (!set->name || !set->name[0])
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "image set has no name");
  if (set->image_count > JET__PLAN_MAX)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "image set '%s' has %zu images, at most %d",
                      set->name, set->image_count, JET__PLAN_MAX);
  if (set->image_count && !set->images)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "image set '%s': images is NULL, count %zu",
                      set->name, set->image_count);
  for (size_t i = 0; i < set->image_count; i++) {
    const jet_kernel_image *img = &set->images[i];
    if (img->kind != JET_IMAGE_CUBIN && img->kind != JET_IMAGE_PTX)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "image set '%s': image %zu has kind %d",
                        set->name, i, (int)img->kind);
    if (!img->data || img->size == 0)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "image set '%s': image %zu has no data (data %p, size %zu)", set->name, i,
                        img->data, img->size);
    if (img->sm < 10 || img->sm > 999)
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "image set '%s': image %zu has SM %d, expected 10*major+minor", set->name,
                        i, img->sm);
    if (img->kind == JET_IMAGE_PTX && ((const char *)img->data)[img->size - 1] != '\0')
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "image set '%s': PTX image %zu is not NUL-terminated within its size",
                        set->name, i);
  }
  if (set->source) {
    if (set->source_size == 0 || set->source[set->source_size - 1] != '\0')
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                        "image set '%s': source_size %zu does not end at the source's NUL",
                        set->name, set->source_size);
  } else if (set->source_size) {
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "image set '%s': source is NULL but source_size is %zu", set->name,
                      set->source_size);
  }
  return JET_STATUS_OK;
}

static int sm_major(int sm) { return sm / 10; }
static int sm_minor(int sm) { return sm % 10; }

static int is_elf(const jet_kernel_image *img) {
  const unsigned char *p = img->data;
  return img->size >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F';
}

/* Append "; label: why" to the report, keeping it NUL-terminated when full. */
static void note(jet__plan *plan, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note(jet__plan *plan, const char *label, const char *fmt, ...) {
  size_t len = strlen(plan->report);
  if (len + 1 >= sizeof plan->report) return;
  int n = snprintf(plan->report + len, sizeof plan->report - len, "; %s: ", label);
  if (n < 0 || (size_t)n >= sizeof plan->report - len) return;
  len += (size_t)n;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(plan->report + len, sizeof plan->report - len, fmt, ap);
  va_end(ap);
}

/* Why a cubin cannot run on the device, or NULL when it can. */
static const char *cubin_reject(const jet_kernel_image *img, const jet__select_in *in, char *buf,
                                size_t cap) {
  if (!is_elf(img)) return "not an ELF cubin";
  if (in->match == JET_CUBIN_EXACT_SM) {
    if (img->sm == in->device_sm) return NULL;
    snprintf(buf, cap, "not sm_%d", in->device_sm);
    return buf;
  }
  if (sm_major(img->sm) != sm_major(in->device_sm)) {
    snprintf(buf, cap, "major %d != %d", sm_major(img->sm), sm_major(in->device_sm));
    return buf;
  }
  if (sm_minor(img->sm) > sm_minor(in->device_sm)) {
    snprintf(buf, cap, "minor %d > %d", sm_minor(img->sm), sm_minor(in->device_sm));
    return buf;
  }
  return NULL;
}

static void sort_desc(jet__plan_step *s, int n, const jet_kernel_image *imgs) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && imgs[s[j].image].sm > imgs[s[j - 1].image].sm; j--) {
      jet__plan_step t = s[j];
      s[j] = s[j - 1];
      s[j - 1] = t;
    }
}

jet_status jet__select(const jet_kernel_image_set *set, const jet__select_in *in, jet__plan *plan,
                       const char *fn) {
  memset(plan, 0, sizeof *plan);
  snprintf(plan->report, sizeof plan->report, "device sm_%d, policy %s (%s cubin)", in->device_sm,
           in->policy ? in->policy : "?",
           in->match == JET_CUBIN_EXACT_SM ? "exact-SM" : "same-major");
  int want_cubin = in->force == JET_KERNEL_PATH_AUTO || in->force == JET_KERNEL_PATH_CUBIN;
  int want_ptx = in->force == JET_KERNEL_PATH_AUTO || in->force == JET_KERNEL_PATH_PTX;
  int want_nvrtc = in->force == JET_KERNEL_PATH_AUTO || in->force == JET_KERNEL_PATH_NVRTC;
  const char *jit_why = in->jit_why ? in->jit_why : "JIT forbidden";
  static const char *const path_names[] = {"auto", "cubin", "ptx", "nvrtc"};
  const char *forced = path_names[in->force >= 0 && in->force <= 3 ? in->force : 0];

  jet__plan_step cubins[JET__PLAN_MAX], ptxs[JET__PLAN_MAX];
  int nc = 0, np = 0;
  char label[32], why[64];
  for (size_t i = 0; i < set->image_count; i++) {
    const jet_kernel_image *img = &set->images[i];
    jet__image_label(img, label, sizeof label);
    if (img->kind == JET_IMAGE_CUBIN) {
      const char *r = cubin_reject(img, in, why, sizeof why);
      if (r)
        note(plan, label, "%s", r);
      else if (!want_cubin)
        note(plan, label, "path forced to %s", forced);
      else
        cubins[nc++] = (jet__plan_step){JET_KERNEL_PATH_CUBIN, (int)i};
    } else {
      if (img->sm > in->device_sm)
        note(plan, label, "newer than sm_%d", in->device_sm);
      else if (!want_ptx)
        note(plan, label, "path forced to %s", forced);
      else if (!in->jit_allowed)
        note(plan, label, "%s", jit_why);
      else
        ptxs[np++] = (jet__plan_step){JET_KERNEL_PATH_PTX, (int)i};
    }
  }
  sort_desc(cubins, nc, set->images);
  sort_desc(ptxs, np, set->images);
  for (int i = 0; i < nc; i++) plan->steps[plan->count++] = cubins[i];
  for (int i = 0; i < np; i++) plan->steps[plan->count++] = ptxs[i];

  if (!set->source)
    note(plan, "source", "none embedded");
  else if (!want_nvrtc)
    note(plan, "source", "path forced to %s", forced);
  else if (!in->jit_allowed)
    note(plan, "source", "%s", jit_why);
  else if (!in->nvrtc_built_in)
    note(plan, "source", "NVRTC not built in (JET_WITH_NVRTC=OFF)");
  else
    plan->steps[plan->count++] = (jet__plan_step){JET_KERNEL_PATH_NVRTC, -1};

  if (set->image_count == 0 && !set->source) note(plan, "images", "the set is empty");
  if (plan->count > 0) return JET_STATUS_OK;
  if (in->force == JET_KERNEL_PATH_NVRTC && set->source && in->jit_allowed && !in->nvrtc_built_in)
    return jet__error(JET_STATUS_NOT_BUILT_IN, fn, "module '%s': NVRTC forced but not built in: %s",
                      set->name, plan->report);
  jet_status st = jet__error(JET_STATUS_NO_KERNEL_IMAGE, fn, "module '%s': %s", set->name,
                             plan->report);
  if (!in->jit_allowed)
    jet__error_set_hint("run-time compilation is forbidden (%s): build a cubin for sm_%d "
                        "(JET_CUDA_ARCHS / jetrt_add_kernels ARCHS)",
                        jit_why, in->device_sm);
  else
    jet__error_set_hint("add sm_%d to JET_CUDA_ARCHS (or ARCHS of jetrt_add_kernels)",
                        in->device_sm);
  return st;
}

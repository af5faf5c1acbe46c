/* External memory and semaphores with Vulkan as the exporter, on the same GPU
 * (physical device matched by UUID). Test-only Vulkan code: libvulkan.so.1 is
 * opened at run time (or, where no loader is installed, NVIDIA's ICD
 * libGLX_nvidia.so.0 directly through vk_icdGetInstanceProcAddr); without
 * either, or without vulkan/vulkan.h at build time, the tests skip and say so.
 *
 * Vulkan allocates exportable device memory (VK_KHR_external_memory_fd) and
 * semaphores (VK_KHR_external_semaphore_fd: a timeline one, Vulkan 1.2, and a
 * binary one); data move through a host-visible staging buffer and
 * vkCmdCopyBuffer. CUDA imports both, waits for values Vulkan signals (from
 * its queue and from the host, vkSignalSemaphore), reads the data, writes new
 * data and signals values Vulkan waits for (vkWaitSemaphores). Patterns are
 * fresh random bytes; reads go into poisoned memory; a mismatch names the
 * first wrong byte. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#if defined(__has_include)
#if __has_include(<vulkan/vulkan.h>)
#define JT_HAVE_VULKAN 1
#endif
#endif

#ifdef JT_HAVE_VULKAN
#include <vulkan/vulkan.h>

#define WAIT_NS 20000000000ull /* 20 s: a lost signal, not a slow GPU */

/* ------------------------------------------------------------ loading */

/* Zero a Vulkan structure and set its sType (every one starts with sType, pNext). */
static void vk_init(void *p, size_t n, VkStructureType type) {
  memset(p, 0, n);
  ((VkBaseOutStructure *)p)->sType = type;
}

#define VK_GLOBAL_FNS(X) X(vkCreateInstance)
#define VK_INSTANCE_FNS(X)                                                     \
  X(vkDestroyInstance)                                                         \
  X(vkEnumeratePhysicalDevices)                                                \
  X(vkGetPhysicalDeviceProperties)                                             \
  X(vkGetPhysicalDeviceProperties2)                                            \
  X(vkGetPhysicalDeviceFeatures2)                                              \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkGetPhysicalDeviceMemoryProperties)                                       \
  X(vkEnumerateDeviceExtensionProperties)                                      \
  X(vkCreateDevice)                                                            \
  X(vkGetDeviceProcAddr)
#define VK_DEVICE_FNS(X)                                                       \
  X(vkDestroyDevice)                                                           \
  X(vkGetDeviceQueue)                                                          \
  X(vkCreateBuffer)                                                            \
  X(vkDestroyBuffer)                                                           \
  X(vkGetBufferMemoryRequirements2)                                            \
  X(vkAllocateMemory)                                                          \
  X(vkFreeMemory)                                                              \
  X(vkBindBufferMemory)                                                        \
  X(vkMapMemory)                                                               \
  X(vkUnmapMemory)                                                             \
  X(vkGetMemoryFdKHR)                                                          \
  X(vkCreateSemaphore)                                                         \
  X(vkDestroySemaphore)                                                        \
  X(vkGetSemaphoreFdKHR)                                                       \
  X(vkGetSemaphoreCounterValue)                                                \
  X(vkWaitSemaphores)                                                          \
  X(vkSignalSemaphore)                                                         \
  X(vkCreateCommandPool)                                                       \
  X(vkDestroyCommandPool)                                                      \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkBeginCommandBuffer)                                                      \
  X(vkEndCommandBuffer)                                                        \
  X(vkCmdCopyBuffer)                                                           \
  X(vkQueueSubmit)                                                             \
  X(vkDeviceWaitIdle)                                                          \
  X(vkCreateFence)                                                             \
  X(vkDestroyFence)                                                            \
  X(vkWaitForFences)                                                           \
  X(vkResetFences)

typedef struct vkx {
  void *lib;
  const char *lib_name;
  PFN_vkGetInstanceProcAddr gipa;
#define FN_FIELD(n) PFN_##n n;
  VK_GLOBAL_FNS(FN_FIELD) VK_INSTANCE_FNS(FN_FIELD) VK_DEVICE_FNS(FN_FIELD)
#undef FN_FIELD
  VkInstance inst;
  VkPhysicalDevice phys;
  VkDevice dev;
  VkQueue queue;
  uint32_t family;
  VkPhysicalDeviceMemoryProperties memprops;
  VkCommandPool pool;
  VkFence fence;
  char why[512]; /* why setup stopped: the skip message */
} vkx;

typedef VkResult (*pfn_negotiate)(uint32_t *);

/* @icd 0: the loader (libvulkan.so.1); 1: NVIDIA's ICD alone, called
 * directly (no loader, no layers), for machines with the driver's graphics
 * libraries but no loader or no ICD manifest. */
static int vk_open(vkx *v, int icd) {
  if (!icd) {
    v->lib_name = "libvulkan.so.1";
    v->lib = dlopen(v->lib_name, RTLD_NOW | RTLD_LOCAL);
    if (v->lib)
      v->gipa = (PFN_vkGetInstanceProcAddr)(uintptr_t)dlsym(v->lib, "vkGetInstanceProcAddr");
  } else {
    v->lib_name = "libGLX_nvidia.so.0 (NVIDIA's ICD, no loader)";
    v->lib = dlopen("libGLX_nvidia.so.0", RTLD_NOW | RTLD_LOCAL);
    if (v->lib) {
      pfn_negotiate neg =
          (pfn_negotiate)(uintptr_t)dlsym(v->lib, "vk_icdNegotiateLoaderICDInterfaceVersion");
      if (neg) {
        uint32_t ver = 5;
        (void)neg(&ver);
      }
      v->gipa = (PFN_vkGetInstanceProcAddr)(uintptr_t)dlsym(v->lib, "vk_icdGetInstanceProcAddr");
    }
  }
  if (!v->lib) {
    snprintf(v->why, sizeof v->why, "%s cannot be opened", v->lib_name);
    return 0;
  }
  if (!v->gipa) {
    snprintf(v->why, sizeof v->why, "%s has no vkGetInstanceProcAddr", v->lib_name);
    return 0;
  }
  return 1;
}

#define FAIL_SETUP(...)                              \
  do {                                               \
    snprintf(v->why, sizeof v->why, __VA_ARGS__);    \
    return 0;                                        \
  } while (0)

static int has_ext(const VkExtensionProperties *e, uint32_t n, const char *name) {
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(e[i].extensionName, name) == 0) return 1;
  return 0;
}

/* Instance, the physical device whose UUID is @uuid, a device with both fd
 * extensions and timeline semaphores, a queue, a command pool and a fence.
 * Returns 1, or 0 with v->why set (an environment lack: the test skips). */
static int vk_setup(vkx *v, const unsigned char uuid[16], int icd) {
  if (!vk_open(v, icd)) return 0;
#define LOAD_GLOBAL(n) v->n = (PFN_##n)(uintptr_t)v->gipa(NULL, #n);
  VK_GLOBAL_FNS(LOAD_GLOBAL)
#undef LOAD_GLOBAL
  if (!v->vkCreateInstance) FAIL_SETUP("%s: no vkCreateInstance", v->lib_name);
  VkApplicationInfo app;
  vk_init(&app, sizeof app, VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "jetrt external tests";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo ici;
  vk_init(&ici, sizeof ici, VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ici.pApplicationInfo = &app;
  VkResult r = v->vkCreateInstance(&ici, NULL, &v->inst);
  if (r != VK_SUCCESS) FAIL_SETUP("%s: vkCreateInstance (Vulkan 1.2) returned %d", v->lib_name, r);
#define LOAD_INST(n)                                              \
  v->n = (PFN_##n)(uintptr_t)v->gipa(v->inst, #n);                \
  if (!v->n) FAIL_SETUP("%s: instance lacks %s", v->lib_name, #n);
  VK_INSTANCE_FNS(LOAD_INST)
#undef LOAD_INST

  uint32_t np = 0;
  r = v->vkEnumeratePhysicalDevices(v->inst, &np, NULL);
  if (r != VK_SUCCESS || np == 0) FAIL_SETUP("%s: no Vulkan physical device (%d)", v->lib_name, r);
  VkPhysicalDevice pds[16];
  if (np > 16) np = 16;
  r = v->vkEnumeratePhysicalDevices(v->inst, &np, pds);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) FAIL_SETUP("vkEnumeratePhysicalDevices: %d", r);
  char seen[256] = "";
  for (uint32_t i = 0; i < np && !v->phys; i++) {
    VkPhysicalDeviceIDProperties idp;
    vk_init(&idp, sizeof idp, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES);
    VkPhysicalDeviceProperties2 p2;
    vk_init(&p2, sizeof p2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    p2.pNext = &idp;
    v->vkGetPhysicalDeviceProperties2(pds[i], &p2);
    size_t l = strlen(seen);
    snprintf(seen + l, sizeof seen - l, "%s\"%.60s\"", l ? ", " : "", p2.properties.deviceName);
    if (memcmp(idp.deviceUUID, uuid, 16) != 0) continue;
    if (p2.properties.apiVersion < VK_API_VERSION_1_2)
      FAIL_SETUP("the Vulkan device \"%s\" has API %u.%u: timeline semaphores need 1.2",
                 p2.properties.deviceName, VK_API_VERSION_MAJOR(p2.properties.apiVersion),
                 VK_API_VERSION_MINOR(p2.properties.apiVersion));
    v->phys = pds[i];
  }
  if (!v->phys)
    FAIL_SETUP("no Vulkan physical device has the CUDA device's UUID (Vulkan sees %s)", seen);

  VkExtensionProperties exts[512];
  uint32_t ne = 512;
  r = v->vkEnumerateDeviceExtensionProperties(v->phys, NULL, &ne, exts);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) FAIL_SETUP("vkEnumerateDeviceExtensionProperties: %d", r);
  static const char *const need[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
                                     VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
  for (int i = 0; i < 2; i++)
    if (!has_ext(exts, ne, need[i])) FAIL_SETUP("the Vulkan device lacks %s", need[i]);
  VkPhysicalDeviceVulkan12Features f12;
  vk_init(&f12, sizeof f12, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  VkPhysicalDeviceFeatures2 f2;
  vk_init(&f2, sizeof f2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f2.pNext = &f12;
  v->vkGetPhysicalDeviceFeatures2(v->phys, &f2);
  if (!f12.timelineSemaphore) FAIL_SETUP("the Vulkan device has no timelineSemaphore feature");

  VkQueueFamilyProperties qf[32];
  uint32_t nq = 32;
  v->vkGetPhysicalDeviceQueueFamilyProperties(v->phys, &nq, qf);
  v->family = UINT32_MAX;
  for (uint32_t i = 0; i < nq && v->family == UINT32_MAX; i++)
    if (qf[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT))
      v->family = i;
  if (v->family == UINT32_MAX) FAIL_SETUP("no Vulkan queue family can copy");

  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci;
  vk_init(&qci, sizeof qci, VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qci.queueFamilyIndex = v->family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &prio;
  VkPhysicalDeviceVulkan12Features en12;
  vk_init(&en12, sizeof en12, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  en12.timelineSemaphore = VK_TRUE;
  VkDeviceCreateInfo dci;
  vk_init(&dci, sizeof dci, VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  dci.pNext = &en12;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = 2;
  dci.ppEnabledExtensionNames = need;
  r = v->vkCreateDevice(v->phys, &dci, NULL, &v->dev);
  if (r != VK_SUCCESS) FAIL_SETUP("vkCreateDevice: %d", r);
#define LOAD_DEV(n)                                                      \
  v->n = (PFN_##n)(uintptr_t)v->vkGetDeviceProcAddr(v->dev, #n);         \
  if (!v->n) FAIL_SETUP("the Vulkan device lacks %s", #n);
  VK_DEVICE_FNS(LOAD_DEV)
#undef LOAD_DEV
  v->vkGetDeviceQueue(v->dev, v->family, 0, &v->queue);
  v->vkGetPhysicalDeviceMemoryProperties(v->phys, &v->memprops);
  VkCommandPoolCreateInfo pci;
  vk_init(&pci, sizeof pci, VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pci.queueFamilyIndex = v->family;
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  r = v->vkCreateCommandPool(v->dev, &pci, NULL, &v->pool);
  if (r != VK_SUCCESS) FAIL_SETUP("vkCreateCommandPool: %d", r);
  VkFenceCreateInfo fci;
  vk_init(&fci, sizeof fci, VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  r = v->vkCreateFence(v->dev, &fci, NULL, &v->fence);
  if (r != VK_SUCCESS) FAIL_SETUP("vkCreateFence: %d", r);
  return 1;
}

static void vk_teardown(vkx *v) {
  if (v->dev) {
    if (v->vkDeviceWaitIdle) v->vkDeviceWaitIdle(v->dev);
    if (v->fence) v->vkDestroyFence(v->dev, v->fence, NULL);
    if (v->pool) v->vkDestroyCommandPool(v->dev, v->pool, NULL);
    if (v->vkDestroyDevice) v->vkDestroyDevice(v->dev, NULL);
  }
  if (v->inst && v->vkDestroyInstance) v->vkDestroyInstance(v->inst, NULL);
  if (v->lib) dlclose(v->lib);
  memset(v, 0, sizeof *v);
}

/* The loader first, then NVIDIA's ICD directly; on failure v->why has both reasons. */
static int vk_setup_any(vkx *v, const unsigned char uuid[16]) {
  if (vk_setup(v, uuid, 0)) return 1;
  char first[512];
  snprintf(first, sizeof first, "%s", v->why);
  vk_teardown(v);
  if (vk_setup(v, uuid, 1)) return 1;
  char second[512];
  snprintf(second, sizeof second, "%s", v->why);
  snprintf(v->why, sizeof v->why, "no usable Vulkan: %.240s; %.240s", first, second);
  return 0;
}

static int mem_type(const vkx *v, uint32_t bits, VkMemoryPropertyFlags want) {
  for (uint32_t i = 0; i < v->memprops.memoryTypeCount; i++)
    if ((bits & (1u << i)) && (v->memprops.memoryTypes[i].propertyFlags & want) == want)
      return (int)i;
  return -1;
}

/* A buffer of @size bytes with its own memory: exportable as an opaque fd
 * (device-local) or host-visible staging (@export 0, mapped at *@map). */
typedef struct vkbuf {
  VkBuffer buf;
  VkDeviceMemory mem;
  VkDeviceSize alloc_size;
  int dedicated;
  void *map;
} vkbuf;

static VkResult vk_buffer(vkx *v, VkDeviceSize size, int export, vkbuf *out) {
  memset(out, 0, sizeof *out);
  VkExternalMemoryBufferCreateInfo ebi;
  vk_init(&ebi, sizeof ebi, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
  ebi.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo bci;
  vk_init(&bci, sizeof bci, VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bci.pNext = export ? &ebi : NULL;
  bci.size = size;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkResult r = v->vkCreateBuffer(v->dev, &bci, NULL, &out->buf);
  if (r != VK_SUCCESS) return r;
  VkMemoryDedicatedRequirements dr;
  vk_init(&dr, sizeof dr, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS);
  VkMemoryRequirements2 mr;
  vk_init(&mr, sizeof mr, VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2);
  mr.pNext = &dr;
  VkBufferMemoryRequirementsInfo2 mri;
  vk_init(&mri, sizeof mri, VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2);
  mri.buffer = out->buf;
  v->vkGetBufferMemoryRequirements2(v->dev, &mri, &mr);
  int t = mem_type(v, mr.memoryRequirements.memoryTypeBits,
                   export ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
                          : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (t < 0) return VK_ERROR_FEATURE_NOT_PRESENT;
  VkExportMemoryAllocateInfo emi;
  vk_init(&emi, sizeof emi, VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
  emi.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryDedicatedAllocateInfo dai;
  vk_init(&dai, sizeof dai, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO);
  dai.buffer = out->buf;
  VkMemoryAllocateInfo mai;
  vk_init(&mai, sizeof mai, VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  mai.allocationSize = mr.memoryRequirements.size;
  mai.memoryTypeIndex = (uint32_t)t;
  if (export) {
    mai.pNext = &emi;
    if (dr.requiresDedicatedAllocation) {
      emi.pNext = &dai;
      out->dedicated = 1;
    }
  }
  r = v->vkAllocateMemory(v->dev, &mai, NULL, &out->mem);
  if (r != VK_SUCCESS) return r;
  out->alloc_size = mai.allocationSize;
  r = v->vkBindBufferMemory(v->dev, out->buf, out->mem, 0);
  if (r != VK_SUCCESS) return r;
  if (!export) r = v->vkMapMemory(v->dev, out->mem, 0, VK_WHOLE_SIZE, 0, &out->map);
  return r;
}

static void vk_buffer_free(vkx *v, vkbuf *b) {
  if (b->map) v->vkUnmapMemory(v->dev, b->mem);
  if (b->buf) v->vkDestroyBuffer(v->dev, b->buf, NULL);
  if (b->mem) v->vkFreeMemory(v->dev, b->mem, NULL);
  memset(b, 0, sizeof *b);
}

/* Exportable semaphore, timeline (initial value 0) or binary. */
static VkResult vk_semaphore(vkx *v, int timeline, VkSemaphore *out) {
  VkSemaphoreTypeCreateInfo tci;
  vk_init(&tci, sizeof tci, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  tci.initialValue = 0;
  VkExportSemaphoreCreateInfo eci;
  vk_init(&eci, sizeof eci, VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO);
  eci.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  eci.pNext = timeline ? &tci : NULL;
  VkSemaphoreCreateInfo sci;
  vk_init(&sci, sizeof sci, VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  sci.pNext = &eci;
  return v->vkCreateSemaphore(v->dev, &sci, NULL, out);
}

static VkResult vk_semaphore_fd(vkx *v, VkSemaphore s, int *fd) {
  VkSemaphoreGetFdInfoKHR gi;
  vk_init(&gi, sizeof gi, VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR);
  gi.semaphore = s;
  gi.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  return v->vkGetSemaphoreFdKHR(v->dev, &gi, fd);
}

static VkResult vk_memory_fd(vkx *v, VkDeviceMemory m, int *fd) {
  VkMemoryGetFdInfoKHR gi;
  vk_init(&gi, sizeof gi, VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR);
  gi.memory = m;
  gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  return v->vkGetMemoryFdKHR(v->dev, &gi, fd);
}

/* Record one copy of @size bytes from @src to @dst into a new command buffer. */
static VkResult vk_copy_cmd(vkx *v, VkBuffer src, VkBuffer dst, VkDeviceSize size,
                            VkCommandBuffer *out) {
  VkCommandBufferAllocateInfo ai;
  vk_init(&ai, sizeof ai, VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  ai.commandPool = v->pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkResult r = v->vkAllocateCommandBuffers(v->dev, &ai, out);
  if (r != VK_SUCCESS) return r;
  VkCommandBufferBeginInfo bi;
  vk_init(&bi, sizeof bi, VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  r = v->vkBeginCommandBuffer(*out, &bi);
  if (r != VK_SUCCESS) return r;
  VkBufferCopy c = {0, 0, size};
  v->vkCmdCopyBuffer(*out, src, dst, 1, &c);
  return v->vkEndCommandBuffer(*out);
}

/* Submit @cb; optionally wait on binary @wait_bin, signal @sig (timeline
 * value @sig_value, or binary when @sig_value is 0) and the fence. */
static VkResult vk_submit(vkx *v, VkCommandBuffer cb, VkSemaphore wait_bin, VkSemaphore sig,
                          uint64_t sig_value, int fence) {
  VkTimelineSemaphoreSubmitInfo ts;
  vk_init(&ts, sizeof ts, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  ts.signalSemaphoreValueCount = 1;
  ts.pSignalSemaphoreValues = &sig_value;
  VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo si;
  vk_init(&si, sizeof si, VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.pNext = (sig && sig_value) ? &ts : NULL;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  if (wait_bin) {
    si.waitSemaphoreCount = 1;
    si.pWaitSemaphores = &wait_bin;
    si.pWaitDstStageMask = &stage;
  }
  if (sig) {
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &sig;
  }
  if (fence) {
    VkResult r = v->vkResetFences(v->dev, 1, &v->fence);
    if (r != VK_SUCCESS) return r;
  }
  return v->vkQueueSubmit(v->queue, 1, &si, fence ? v->fence : VK_NULL_HANDLE);
}

/* ------------------------------------------------------------ CUDA side */

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

#define VK_OK(call)                                                              \
  do {                                                                           \
    VkResult vk_r_ = (call);                                                     \
    CHECK_MSG(vk_r_ == VK_SUCCESS, "%s returned VkResult %d", #call, (int)vk_r_); \
  } while (0)

/* Poll @s until its work is done, for up to @seconds: OK, or NOT_READY when
 * it is still waiting (the signal never arrived). */
static jet_status stream_done_within(jet_stream s, double seconds) {
  double end = jt_now() + seconds;
  for (;;) {
    jet_status st = jet_stream_query(s);
    if (st != JET_STATUS_NOT_READY || jt_now() > end) return st;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

/* The shared state of one Vulkan test: context, Vulkan, an exported buffer of
 * n bytes imported and mapped, a staging buffer, a stream and pinned memory. */
typedef struct fixture {
  jet_context ctx;
  vkx v;
  vkbuf shared, staging;
  size_t n;
  jet_external_memory ext;
  jet_buffer mapped;
  void *mdev;
  jet_stream stream;
  jet_buffer pinned;
  unsigned char *host;
  VkCommandBuffer up, down; /* staging -> shared, shared -> staging */
} fixture;

/* 0: ready; TEST_SKIP: no usable Vulkan (message printed); 1: failure. */
static int fixture_setup(fixture *f) {
  memset(f, 0, sizeof *f);
  CHECK_OK(jt_context(&f->ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(f->ctx, &pi));
  if (!vk_setup_any(&f->v, pi.uuid)) {
    fprintf(stderr, "SKIP: %s\n", f->v.why);
    vk_teardown(&f->v);
    jet_context_destroy(f->ctx);
    return TEST_SKIP;
  }
  fprintf(stderr, "Vulkan through %s\n", f->v.lib_name);
  vkx *v = &f->v;
  f->n = (size_t)1 << 20 | (jt_rand() % 4096u) | 1u; /* odd, about 1 MiB */
  VK_OK(vk_buffer(v, f->n, 1, &f->shared));
  VK_OK(vk_buffer(v, f->n, 0, &f->staging));
  VK_OK(vk_copy_cmd(v, f->staging.buf, f->shared.buf, f->n, &f->up));
  VK_OK(vk_copy_cmd(v, f->shared.buf, f->staging.buf, f->n, &f->down));

  int fd = -1;
  VK_OK(vk_memory_fd(v, f->shared.mem, &fd));
  jet_external_memory_desc d = {JET_EXTERNAL_MEMORY_OPAQUE_FD, fd, NULL,
                                (size_t)f->shared.alloc_size,
                                f->shared.dedicated ? JET_EXTERNAL_MEMORY_DEDICATED : 0u};
  jet_status st = jet_external_memory_import(f->ctx, &d, &f->ext);
  if (st != JET_STATUS_OK) close(fd);
  CHECK_MSG(st == JET_STATUS_OK, "importing Vulkan memory (%llu bytes, dedicated %d): %s",
            (unsigned long long)f->shared.alloc_size, f->shared.dedicated,
            jet_last_error_string());
  CHECK_OK(jet_external_memory_map_buffer(f->ext, 0, f->n, &f->mapped));
  CHECK_OK(jet_buffer_device_ptr(f->mapped, &f->mdev));
  CHECK_OK(jet_stream_create(f->ctx, NULL, &f->stream));
  jet_buffer_desc pd = {JET_MEMORY_HOST_PINNED, 0, f->n, 0, 0};
  CHECK_OK(jet_buffer_create(f->ctx, &pd, &f->pinned));
  CHECK_OK(jet_buffer_host_ptr(f->pinned, (void **)&f->host));
  return 0;
}

static int fixture_done(fixture *f) {
  if (f->stream) CHECK_OK(jet_stream_synchronize(f->stream));
  if (f->v.dev) f->v.vkDeviceWaitIdle(f->v.dev);
  if (f->mapped) CHECK_OK(jet_external_memory_unmap_buffer(f->ext, f->mapped));
  CHECK_OK(jet_external_memory_destroy(f->ext));
  CHECK_OK(jet_buffer_destroy(f->pinned));
  CHECK_OK(jet_stream_destroy(f->stream));
  if (f->v.dev) {
    vk_buffer_free(&f->v, &f->shared);
    vk_buffer_free(&f->v, &f->staging);
  }
  vk_teardown(&f->v);
  CHECK_OK(jet_context_destroy(f->ctx));
  return 0;
}

static int import_semaphore(fixture *f, VkSemaphore s, jet_external_semaphore_type type,
                            jet_external_semaphore *out) {
  int fd = -1;
  VK_OK(vk_semaphore_fd(&f->v, s, &fd));
  jet_external_semaphore_desc d = {type, fd, NULL, 0};
  jet_status st = jet_external_semaphore_import(f->ctx, &d, out);
  if (st != JET_STATUS_OK) close(fd);
  CHECK_MSG(st == JET_STATUS_OK, "importing a Vulkan %s semaphore: %s",
            type == JET_EXTERNAL_SEMAPHORE_TIMELINE_FD ? "timeline" : "binary",
            jet_last_error_string());
  return 0;
}

static int run_timeline(void) {
  fixture f;
  int r = fixture_setup(&f);
  if (r) return r;
  vkx *v = &f.v;
  const size_t n = f.n;
  unsigned char *want = malloc(n);
  CHECK(want);
  VkSemaphore tl = VK_NULL_HANDLE;
  VK_OK(vk_semaphore(v, 1, &tl));
  jet_external_semaphore sem = NULL;
  if (import_semaphore(&f, tl, JET_EXTERNAL_SEMAPHORE_TIMELINE_FD, &sem)) return 1;

  /* 1. Vulkan -> CUDA: CUDA queues a wait for 1 and a read; nothing may run
   * before Vulkan's copy signals 1 from its queue. */
  jt_fill_random(want, n);
  memcpy(f.staging.map, want, n);
  memset(f.host, 0xA5, n);
  CHECK_OK(jet_external_semaphore_wait(sem, 1, f.stream));
  CHECK_OK(jet_memcpy_async(f.stream, f.host, f.mdev, n));
  struct timespec pause = {0, 50 * 1000000};
  nanosleep(&pause, NULL);
  CHECK_MSG(jet_stream_query(f.stream) == JET_STATUS_NOT_READY,
            "the CUDA stream finished before Vulkan signalled 1: the wait did not wait (%s)",
            jet_last_error_string());
  VK_OK(vk_submit(v, f.up, VK_NULL_HANDLE, tl, 1, 0));
  jet_status st = stream_done_within(f.stream, 20.0);
  CHECK_MSG(st == JET_STATUS_OK, "CUDA still waits 20 s after Vulkan signalled 1: %s (%s)",
            jet_status_name(st), jet_last_error_string());
  CHECK_SAME(f.host, want, n, "Vulkan-written data read by CUDA after waiting for value 1");

  /* 2. CUDA -> Vulkan: CUDA writes and signals 2; Vulkan's host waits for 2,
   * then copies the memory out. */
  jt_fill_random(f.host, n);
  memcpy(want, f.host, n);
  CHECK_OK(jet_memcpy_async(f.stream, f.mdev, f.host, n));
  CHECK_OK(jet_external_semaphore_signal(sem, 2, f.stream));
  VkSemaphoreWaitInfo wi;
  vk_init(&wi, sizeof wi, VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  uint64_t val = 2;
  wi.semaphoreCount = 1;
  wi.pSemaphores = &tl;
  wi.pValues = &val;
  VK_OK(v->vkWaitSemaphores(v->dev, &wi, WAIT_NS));
  memset(f.staging.map, 0x5A, n);
  VK_OK(vk_submit(v, f.down, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, 1));
  VK_OK(v->vkWaitForFences(v->dev, 1, &v->fence, VK_TRUE, WAIT_NS));
  CHECK_SAME(f.staging.map, want, n, "CUDA-written data read by Vulkan after value 2");

  /* 3. Host signal: vkSignalSemaphore(3) releases CUDA's wait, CUDA signals 4. */
  CHECK_OK(jet_external_semaphore_wait(sem, 3, f.stream));
  CHECK_OK(jet_external_semaphore_signal(sem, 4, f.stream));
  uint64_t now = 0;
  VK_OK(v->vkGetSemaphoreCounterValue(v->dev, tl, &now));
  CHECK_MSG(now == 2, "counter %llu before the host signal, expected 2", (unsigned long long)now);
  VkSemaphoreSignalInfo sgi;
  vk_init(&sgi, sizeof sgi, VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO);
  sgi.semaphore = tl;
  sgi.value = 3;
  VK_OK(v->vkSignalSemaphore(v->dev, &sgi));
  val = 4;
  VK_OK(v->vkWaitSemaphores(v->dev, &wi, WAIT_NS));
  VK_OK(v->vkGetSemaphoreCounterValue(v->dev, tl, &now));
  CHECK_MSG(now == 4, "counter %llu after CUDA's signal, expected 4", (unsigned long long)now);
  CHECK_OK(stream_done_within(f.stream, 20.0));

  CHECK_OK(jet_external_semaphore_destroy(sem));
  v->vkDestroySemaphore(v->dev, tl, NULL);
  free(want);
  return fixture_done(&f);
}

static int run_binary(void) {
  fixture f;
  int r = fixture_setup(&f);
  if (r) return r;
  vkx *v = &f.v;
  const size_t n = f.n;
  unsigned char *want = malloc(n);
  CHECK(want);
  VkSemaphore bin = VK_NULL_HANDLE;
  VK_OK(vk_semaphore(v, 0, &bin));
  jet_external_semaphore sem = NULL;
  if (import_semaphore(&f, bin, JET_EXTERNAL_SEMAPHORE_OPAQUE_FD, &sem)) return 1;
  CHECK_ST(jet_external_semaphore_signal(sem, 1, f.stream), JET_STATUS_INVALID_ARGUMENT);

  /* CUDA -> Vulkan: CUDA writes and signals; Vulkan's copy waits for it. */
  jt_fill_random(f.host, n);
  memcpy(want, f.host, n);
  memset(f.staging.map, 0x5A, n);
  CHECK_OK(jet_memcpy_async(f.stream, f.mdev, f.host, n));
  CHECK_OK(jet_external_semaphore_signal(sem, 0, f.stream));
  VK_OK(vk_submit(v, f.down, bin, VK_NULL_HANDLE, 0, 1));
  VK_OK(v->vkWaitForFences(v->dev, 1, &v->fence, VK_TRUE, WAIT_NS));
  CHECK_SAME(f.staging.map, want, n, "CUDA-written data read by Vulkan after a binary signal");
  CHECK_OK(stream_done_within(f.stream, 20.0));

  /* Vulkan -> CUDA: Vulkan's copy signals; CUDA waits, then reads. A binary
   * semaphore's wait must follow its signal's submission (Vulkan's rule). */
  jt_fill_random(want, n);
  memcpy(f.staging.map, want, n);
  memset(f.host, 0xA5, n);
  VK_OK(vk_submit(v, f.up, VK_NULL_HANDLE, bin, 0, 0));
  CHECK_OK(jet_external_semaphore_wait(sem, 0, f.stream));
  CHECK_OK(jet_memcpy_async(f.stream, f.host, f.mdev, n));
  jet_status st = stream_done_within(f.stream, 20.0);
  CHECK_MSG(st == JET_STATUS_OK, "CUDA still waits 20 s after Vulkan's binary signal: %s (%s)",
            jet_status_name(st), jet_last_error_string());
  CHECK_SAME(f.host, want, n, "Vulkan-written data read by CUDA after a binary wait");

  CHECK_OK(jet_external_semaphore_destroy(sem));
  v->vkDeviceWaitIdle(v->dev);
  v->vkDestroySemaphore(v->dev, bin, NULL);
  free(want);
  return fixture_done(&f);
}

/* Vulkan-written memory read as a pitched image (planes at offsets), and an
 * image upload read back by Vulkan. */
static int run_image(void) {
  fixture f;
  int r = fixture_setup(&f);
  if (r) return r;
  vkx *v = &f.v;
  const size_t n = f.n;
  unsigned char *want = malloc(n);
  CHECK(want);
  jt_fill_random(want, n);
  memcpy(f.staging.map, want, n);
  VK_OK(vk_submit(v, f.up, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, 1));
  VK_OK(v->vkWaitForFences(v->dev, 1, &v->fence, VK_TRUE, WAIT_NS));

  /* NV12 126x62 with 256-byte pitches, chroma after a gap. */
  const int w = 126, h = 62;
  size_t pitch[3] = {256, 256, 0};
  size_t off[3] = {512, 512 + 256 * 62 + 1024, 0};
  jet_image img = NULL;
  CHECK_OK(jet_external_memory_map_image(f.ext, JET_FORMAT_NV12, w, h, pitch, off, &img));
  jet_image_plane_info pi[2];
  unsigned char *pl[2];
  jet_image_plane hp[2];
  for (int p = 0; p < 2; p++) {
    CHECK_OK(jet_image_get_plane(img, p, &pi[p]));
    pl[p] = malloc(pi[p].row_bytes * (size_t)pi[p].height);
    CHECK(pl[p]);
    memset(pl[p], 0xEE, pi[p].row_bytes * (size_t)pi[p].height);
    hp[p].ptr = pl[p];
    hp[p].pitch = pi[p].row_bytes;
  }
  CHECK_OK(jet_image_download(img, hp, 2));
  for (int p = 0; p < 2; p++)
    for (int y = 0; y < pi[p].height; y++)
      CHECK_SAME(pl[p] + (size_t)y * pi[p].row_bytes, want + off[p] + (size_t)y * pitch[p],
                 pi[p].row_bytes, "NV12 plane %d line %d from Vulkan memory", p, y);
  for (int p = 0; p < 2; p++) {
    jt_fill_random(pl[p], pi[p].row_bytes * (size_t)pi[p].height);
    for (int y = 0; y < pi[p].height; y++)
      memcpy(want + off[p] + (size_t)y * pitch[p], pl[p] + (size_t)y * pi[p].row_bytes,
             pi[p].row_bytes);
  }
  CHECK_OK(jet_image_upload(img, hp, 2));
  CHECK_OK(jet_context_synchronize(f.ctx));
  memset(f.staging.map, 0x5A, n);
  VK_OK(vk_submit(v, f.down, VK_NULL_HANDLE, VK_NULL_HANDLE, 0, 1));
  VK_OK(v->vkWaitForFences(v->dev, 1, &v->fence, VK_TRUE, WAIT_NS));
  CHECK_SAME(f.staging.map, want, n, "Vulkan's view after the NV12 upload (padding unchanged)");
  CHECK_OK(jet_external_memory_unmap_image(f.ext, img));
  for (int p = 0; p < 2; p++) free(pl[p]);
  free(want);
  return fixture_done(&f);
}
/* Many import/map/signal/unmap/destroy cycles of Vulkan memory and a
 * timeline semaphore: no descriptor or device memory is left behind. */
static int run_cycles(void) {
  fixture f;
  int r = fixture_setup(&f);
  if (r) return r;
  vkx *v = &f.v;
  VkSemaphore tl = VK_NULL_HANDLE;
  VK_OK(vk_semaphore(v, 1, &tl));
  const int cycles = 300;
  int fds0 = -1;
  size_t free0 = 0, free1 = 0, total = 0;
  unsigned char word[32], back[32];
  for (int c = 0; c < cycles; c++) {
    int fd = -1;
    VK_OK(vk_memory_fd(v, f.shared.mem, &fd));
    jet_external_memory ext = NULL;
    jet_external_memory_desc d = {JET_EXTERNAL_MEMORY_OPAQUE_FD, fd, NULL,
                                  (size_t)f.shared.alloc_size,
                                  f.shared.dedicated ? JET_EXTERNAL_MEMORY_DEDICATED : 0u};
    jet_status st = jet_external_memory_import(f.ctx, &d, &ext);
    if (st != JET_STATUS_OK) close(fd);
    CHECK_MSG(st == JET_STATUS_OK, "cycle %d: %s", c, jet_last_error_string());
    jet_external_semaphore sem = NULL;
    if (import_semaphore(&f, tl, JET_EXTERNAL_SEMAPHORE_TIMELINE_FD, &sem)) return 1;
    jet_buffer b = NULL;
    CHECK_OK(jet_external_memory_map_buffer(ext, 0, f.n, &b));
    void *p = NULL;
    CHECK_OK(jet_buffer_device_ptr(b, &p));
    jt_fill_random(word, sizeof word);
    memcpy(f.host, word, sizeof word);
    CHECK_OK(jet_memcpy_async(f.stream, p, f.host, sizeof word));
    CHECK_OK(jet_external_semaphore_signal(sem, (uint64_t)c + 1, f.stream));
    VkSemaphoreWaitInfo wi;
    vk_init(&wi, sizeof wi, VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
    uint64_t val = (uint64_t)c + 1;
    wi.semaphoreCount = 1;
    wi.pSemaphores = &tl;
    wi.pValues = &val;
    VK_OK(v->vkWaitSemaphores(v->dev, &wi, WAIT_NS));
    CHECK_OK(jet_stream_synchronize(f.stream));
    memset(back, 0, sizeof back);
    CHECK_OK(jet_memcpy(f.ctx, back, f.mdev, sizeof back));
    CHECK_SAME(back, word, sizeof word, "cycle %d: written through a fresh import, read through "
               "the first", c);
    CHECK_OK(jet_external_semaphore_destroy(sem));
    CHECK_OK(jet_external_memory_unmap_buffer(ext, b));
    CHECK_OK(jet_external_memory_destroy(ext));
    if (c == 1) {
      fds0 = jt_count_fds();
      CHECK_OK(jet_context_mem_info(f.ctx, &free0, &total));
    }
  }
  int fds1 = jt_count_fds();
  CHECK_OK(jet_context_mem_info(f.ctx, &free1, &total));
  if (fds1 != fds0) jt_print_fds("after the cycles");
  CHECK_MSG(fds1 == fds0, "%d descriptors open after %d cycles, %d after the second", fds1,
            cycles, fds0);
  CHECK_MSG(free1 + ((size_t)64 << 20) >= free0,
            "free device memory fell from %zu to %zu over %d cycles", free0, free1, cycles);
  v->vkDestroySemaphore(v->dev, tl, NULL);
  return fixture_done(&f);
}
#endif /* JT_HAVE_VULKAN */

#define NO_VULKAN_HEADERS \
  "built without vulkan/vulkan.h (Debian: libvulkan-dev): the Vulkan exporter tests are not in this build"

TEST(gpu_external_vulkan_timeline_semaphore) {
  REQUIRE_GPU();
#ifdef JT_HAVE_VULKAN
  return run_timeline();
#else
  SKIP(NO_VULKAN_HEADERS);
#endif
}

TEST(gpu_external_vulkan_binary_semaphore) {
  REQUIRE_GPU();
#ifdef JT_HAVE_VULKAN
  return run_binary();
#else
  SKIP(NO_VULKAN_HEADERS);
#endif
}

TEST(gpu_external_vulkan_image_planes) {
  REQUIRE_GPU();
#ifdef JT_HAVE_VULKAN
  return run_image();
#else
  SKIP(NO_VULKAN_HEADERS);
#endif
}

TEST(gpu_external_vulkan_cycles_alone) {
  REQUIRE_GPU();
#ifdef JT_HAVE_VULKAN
  return run_cycles();
#else
  SKIP(NO_VULKAN_HEADERS);
#endif
}

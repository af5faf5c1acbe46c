#!/usr/bin/env bash
# Stage what the Vulkan exporter tests (tests/unit/test_external_vulkan_gpu.c) need
# on the GPU machine, into .device/gl next to the GL staging (run tests/stage-device.sh
# first; needs libvulkan-dev here):
#   .device/gl/include/{vulkan,vk_video}  headers: the test build finds them through
#                                         JET_GL_PREFIX (__has_include), nothing links them
#   .device/gl/lib/libvulkan.so.1         the loader, on LD_LIBRARY_PATH under tests/gpu-suite.sh
# Without the loader, or without an NVIDIA ICD manifest there, the tests call NVIDIA's
# ICD (libGLX_nvidia.so.0, part of the driver's graphics libraries) directly; without
# the headers they are built as skips.
set -eu
top=$(git rev-parse --show-toplevel)
dst=$top/.device/gl
[ -d "$dst" ] || { echo "stage-vulkan: run tests/stage-device.sh first" >&2; exit 1; }
[ -f /usr/include/vulkan/vulkan.h ] || { echo "stage-vulkan: no /usr/include/vulkan (apt-get install libvulkan-dev)" >&2; exit 1; }
mkdir -p "$dst/include" "$dst/lib"
for h in vulkan vk_video; do
  [ -d "/usr/include/$h" ] && cp -r "/usr/include/$h" "$dst/include/"
done
lib=/usr/lib/x86_64-linux-gnu/libvulkan.so.1
[ -e "$lib" ] && cp -L "$lib" "$dst/lib/"
du -sh "$dst" | sed 's/^/stage-vulkan: /'

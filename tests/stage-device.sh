#!/usr/bin/env bash
# Stage, on this machine, what the GPU machine lacks for the interop build and
# tests, into .device/ (ignored by git; carry it with the run):
#   .device/gl    glvnd EGL/GL dispatch libraries and Khronos headers (../shared/device/stage-gl.sh),
#                 plus zlib's headers and a libz.so link (the camera-display sample writes PNGs)
#                 and DLPack's header (jet_dlpack_*)
# tests/gpu-suite.sh uses .device/gl when it is there.
set -eu
top=$(git rev-parse --show-toplevel)
cd "$top"
mkdir -p "$(git rev-parse --git-common-dir)/info"
stage_gl=${STAGE_GL:-$top/../shared/device/stage-gl.sh}
[ -x "$stage_gl" ] || [ -f "$stage_gl" ] || { echo "stage-device: $stage_gl not found" >&2; exit 1; }
bash "$stage_gl"
dst=$top/.device/gl
cp /usr/include/zlib.h /usr/include/zconf.h "$dst/include/"
cp -L /usr/lib/x86_64-linux-gnu/libz.so.1 "$dst/lib/"
ln -sf libz.so.1 "$dst/lib/libz.so"
# DLPack's header (libdlpack-dev here; header-only) so jet_dlpack_* is built in there too.
if [ -f /usr/include/dlpack/dlpack.h ]; then
  mkdir -p "$dst/include/dlpack"
  cp /usr/include/dlpack/dlpack.h "$dst/include/dlpack/"
else
  # said, not silent: without it the GPU machine's build has jet_dlpack_* "not built in", its
  # GPU tests skip, and under compute-sanitizer a skip reads as exit 255
  echo "stage-device: no /usr/include/dlpack/dlpack.h (apt-get install libdlpack-dev; .ci/run installs it):" \
       "the GPU machine will build jet_dlpack_* as not built in" >&2
fi
du -sh "$top/.device" | sed 's/^/stage-device: /'

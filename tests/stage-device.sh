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
fi
du -sh "$top/.device" | sed 's/^/stage-device: /'

# CMake toolchain file: build jetrt for aarch64 Linux (Jetson Orin, Thor) on an
# x86-64 host.
#
#   cmake --preset jetson-orin                          # Debian/Ubuntu aarch64-linux-gnu-gcc
#   cmake --preset jetson-orin -DJET_SYSROOT=/path/to/Linux_for_Tegra/rootfs
#   cmake --preset jetson-orin -DJET_SYSROOT=/path/to/aarch64--glibc--stable-2022.08-1
#
# Settings (cache variable, or environment variable of the same name):
#   JET_SYSROOT       optional. Either an L4T root filesystem (used as --sysroot
#                     with Debian's aarch64-linux-gnu-gcc), or NVIDIA's Bootlin
#                     toolchain directory (its aarch64-buildroot-linux-gnu-gcc and
#                     its own sysroot are used). Without it, Debian's cross libc
#                     (/usr/aarch64-linux-gnu, glibc 2.36 on Debian 12) is used.
#   JET_CUDA_TARGET   preferred CUDA target layout: aarch64-linux (CUDA 12 Jetson
#                     cross packages) or sbsa-linux (CUDA 13). Whichever one the
#                     toolkit (or the sysroot's /usr/local/cuda) really has wins.
#   CUDAToolkit_ROOT  host CUDA toolkit with nvcc (default /usr/local/cuda).
#
# Results for the project: JET_CUDA_TARGET_DIR (the target's CUDA directory with
# lib/libcudart_static.a, empty when none was found) and JET_CUDA_INCLUDE_DIR
# (CUDA headers; the host toolkit's when the target has none: the runtime
# headers are target-neutral C). Without a target runtime only libjetrt.a can
# be built; the top-level CMakeLists.txt then turns samples and tests off.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

# try_compile projects re-read this file; hand them our settings.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES JET_SYSROOT JET_CUDA_TARGET CUDAToolkit_ROOT)

foreach(_jet_v JET_SYSROOT JET_CUDA_TARGET CUDAToolkit_ROOT)
  if(NOT DEFINED ${_jet_v} AND DEFINED ENV{${_jet_v}})
    set(${_jet_v} "$ENV{${_jet_v}}")
  endif()
endforeach()
if(NOT JET_CUDA_TARGET)
  set(JET_CUDA_TARGET aarch64-linux)
endif()
if(NOT CUDAToolkit_ROOT)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()

# ---------------------------------------------------------------- compilers
set(_jet_prefix aarch64-linux-gnu-)
set(_jet_bindir "")
set(_jet_sysroot "")
if(JET_SYSROOT)
  get_filename_component(JET_SYSROOT "${JET_SYSROOT}" ABSOLUTE)
  if(EXISTS "${JET_SYSROOT}/bin/aarch64-buildroot-linux-gnu-gcc")
    # NVIDIA's Bootlin toolchain: its compiler knows its own sysroot.
    set(_jet_prefix aarch64-buildroot-linux-gnu-)
    set(_jet_bindir "${JET_SYSROOT}/bin/")
    set(_jet_sysroot "${JET_SYSROOT}/aarch64-buildroot-linux-gnu/sysroot")
  elseif(EXISTS "${JET_SYSROOT}/usr/lib/aarch64-linux-gnu" OR EXISTS "${JET_SYSROOT}/usr/include")
    set(_jet_sysroot "${JET_SYSROOT}")
  else()
    message(FATAL_ERROR "JET_SYSROOT=${JET_SYSROOT} is neither an L4T rootfs (usr/lib/aarch64-linux-gnu) "
                        "nor a Bootlin toolchain (bin/aarch64-buildroot-linux-gnu-gcc)")
  endif()
  set(CMAKE_SYSROOT "${_jet_sysroot}")
endif()

set(CMAKE_C_COMPILER "${_jet_bindir}${_jet_prefix}gcc")
# The project is C only; a C++ cross compiler is used when present, and it is
# nvcc's host compiler should anything enable the CUDA language.
if(_jet_bindir)
  set(_jet_cxx "${_jet_bindir}${_jet_prefix}g++")
else()
  find_program(_jet_cxx "${_jet_prefix}g++" NO_CACHE)
endif()
if(_jet_cxx AND EXISTS "${_jet_cxx}")
  set(CMAKE_CXX_COMPILER "${_jet_cxx}")
  set(CMAKE_CUDA_HOST_COMPILER "${_jet_cxx}")
endif()

# ------------------------------------------------------------- search roots
# Libraries and headers come only from the target side, so the host's x86-64
# libcudart can never be picked up by mistake; programs (nvcc) from the host.
set(_jet_libc_root "${_jet_sysroot}")
if(NOT _jet_libc_root AND EXISTS /usr/aarch64-linux-gnu)
  set(_jet_libc_root /usr/aarch64-linux-gnu)
endif()

# The target CUDA runtime: in the host toolkit's targets/ (cross packages), or
# in the sysroot's own toolkit (L4T rootfs with CUDA installed).
if(JET_CUDA_TARGET STREQUAL "sbsa-linux")
  set(_jet_layouts sbsa-linux aarch64-linux)
else()
  set(_jet_layouts aarch64-linux sbsa-linux)
endif()
set(_jet_bases "${CUDAToolkit_ROOT}")
if(_jet_sysroot)
  file(GLOB _jet_sysroot_cuda LIST_DIRECTORIES true "${_jet_sysroot}/usr/local/cuda" "${_jet_sysroot}/usr/local/cuda-*")
  list(APPEND _jet_bases ${_jet_sysroot_cuda})
endif()
set(JET_CUDA_TARGET_DIR "")
foreach(_jet_base IN LISTS _jet_bases)
  foreach(_jet_layout IN LISTS _jet_layouts)
    if(NOT JET_CUDA_TARGET_DIR AND EXISTS "${_jet_base}/targets/${_jet_layout}/lib/libcudart_static.a")
      set(JET_CUDA_TARGET_DIR "${_jet_base}/targets/${_jet_layout}")
    endif()
  endforeach()
endforeach()

if(JET_CUDA_TARGET_DIR AND EXISTS "${JET_CUDA_TARGET_DIR}/include/cuda_runtime_api.h")
  set(JET_CUDA_INCLUDE_DIR "${JET_CUDA_TARGET_DIR}/include")
else()
  set(JET_CUDA_INCLUDE_DIR "${CUDAToolkit_ROOT}/include")
endif()

# CMake's FindCUDAToolkit guesses targets/aarch64-linux (older CMake knows no
# sbsa-linux and never looks in a sysroot); hand it what was found.
if(JET_CUDA_TARGET_DIR)
  set(CUDAToolkit_TARGET_DIR "${JET_CUDA_TARGET_DIR}")
endif()

set(CMAKE_FIND_ROOT_PATH ${JET_CUDA_TARGET_DIR} ${_jet_libc_root})
if(NOT CMAKE_FIND_ROOT_PATH)
  message(FATAL_ERROR "no aarch64 libc found: install gcc-aarch64-linux-gnu (Debian/Ubuntu) or set JET_SYSROOT")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ----------------------------------------------------------------- emulator
# Lets CTest run aarch64 test programs on the host, where they can be linked.
find_program(JET_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(JET_QEMU_AARCH64)
  if(_jet_libc_root)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${JET_QEMU_AARCH64};-L;${_jet_libc_root}")
  else()
    set(CMAKE_CROSSCOMPILING_EMULATOR "${JET_QEMU_AARCH64}")
  endif()
endif()

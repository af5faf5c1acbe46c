# Optional DLPack tensor exchange (lib/native/dlpack.c, jetrt/dlpack.h).
#
# Only the header is needed (Debian/Ubuntu: libdlpack-dev); there is no library.
# Without it, lib/native/dlpack_off.c builds instead and every jet_dlpack_* call
# returns JET_STATUS_NOT_BUILT_IN, so a cross build whose sysroot lacks the
# header still links.
#
#   JET_WITH_DLPACK   AUTO (default: on where dlpack/dlpack.h is found), ON, OFF
#   JET_DLPACK_PREFIX a prefix with include/dlpack/dlpack.h; searched first
#
# Cross builds look in the sysroot first, then take the host's copy (the header
# is architecture-neutral), copied into the build tree so that the host's
# /usr/include never reaches a cross compiler.
# Sets JET_HAVE_DLPACK (0/1) and JET_DLPACK_INCLUDE_DIR.

set(JET_WITH_DLPACK AUTO CACHE STRING "DLPack exchange: AUTO, ON or OFF")
set_property(CACHE JET_WITH_DLPACK PROPERTY STRINGS AUTO ON OFF)
set(JET_DLPACK_PREFIX "" CACHE PATH "Prefix holding include/dlpack/dlpack.h")

set(JET_HAVE_DLPACK 0)
if(JET_WITH_DLPACK STREQUAL "OFF")
  message(STATUS "DLPack: off (JET_WITH_DLPACK=OFF): jet_dlpack_* return JET_STATUS_NOT_BUILT_IN")
else()
  unset(JET_DLPACK_INCLUDE_DIR CACHE)
  set(_hints "")
  if(JET_DLPACK_PREFIX)
    list(APPEND _hints "${JET_DLPACK_PREFIX}/include")
  endif()
  find_path(JET_DLPACK_INCLUDE_DIR dlpack/dlpack.h HINTS ${_hints})
  if(NOT JET_DLPACK_INCLUDE_DIR AND CMAKE_CROSSCOMPILING)
    find_path(JET_DLPACK_INCLUDE_DIR dlpack/dlpack.h HINTS ${_hints} PATHS /usr/include
              NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH)
    if(JET_DLPACK_INCLUDE_DIR STREQUAL "/usr/include")
      set(_dst "${CMAKE_BINARY_DIR}/dlpack-include")
      file(COPY "/usr/include/dlpack" DESTINATION "${_dst}")
      set(JET_DLPACK_INCLUDE_DIR "${_dst}" CACHE PATH "" FORCE)
    endif()
  endif()
  if(JET_DLPACK_INCLUDE_DIR)
    set(JET_HAVE_DLPACK 1)
    file(STRINGS "${JET_DLPACK_INCLUDE_DIR}/dlpack/dlpack.h" _ver
         REGEX "^#define DLPACK_(MAJOR_VERSION|MINOR_VERSION|VERSION) ")
    string(REGEX REPLACE "#define DLPACK_" "" _ver "${_ver}")
    message(STATUS "DLPack: on (${JET_DLPACK_INCLUDE_DIR}/dlpack/dlpack.h: ${_ver})")
  elseif(JET_WITH_DLPACK STREQUAL "ON")
    message(FATAL_ERROR "JET_WITH_DLPACK=ON but dlpack/dlpack.h was not found: install "
                        "libdlpack-dev or set JET_DLPACK_PREFIX")
  else()
    message(STATUS "DLPack: off (dlpack/dlpack.h not found): jet_dlpack_* return "
                   "JET_STATUS_NOT_BUILT_IN")
  endif()
endif()

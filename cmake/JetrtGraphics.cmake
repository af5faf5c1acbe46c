# Optional graphics interop (lib/interop/): EGL (jetrt/egl.h) and OpenGL (jetrt/gl.h).
#
# Only the Khronos headers are needed to build: jetrt loads libEGL.so.1 and
# libOpenGL.so.0 (glvnd) at run time, so the library links no graphics library
# and a board without them gets a clear status instead of a link failure.
#
#   JET_WITH_EGL / JET_WITH_GL   AUTO (default: on where the headers are found), ON, OFF
#   JET_GL_PREFIX                a prefix with include/EGL and include/GL (for example a
#                                staged glvnd copy); searched before the system
#
# Cross builds look in the sysroot first; the headers are architecture-neutral, so
# the host's copies are used otherwise (copied into the build tree, so that the
# host's /usr/include is never on a cross compiler's include path).
# Sets JET_HAVE_EGL, JET_HAVE_GL (0/1) and JET_GRAPHICS_INCLUDE_DIRS.

set(JET_WITH_EGL AUTO CACHE STRING "EGL interop: AUTO, ON or OFF")
set(JET_WITH_GL AUTO CACHE STRING "OpenGL interop: AUTO, ON or OFF")
set_property(CACHE JET_WITH_EGL PROPERTY STRINGS AUTO ON OFF)
set_property(CACHE JET_WITH_GL PROPERTY STRINGS AUTO ON OFF)
set(JET_GL_PREFIX "" CACHE PATH "Prefix holding include/EGL and include/GL headers")

function(_jet_find_khr_header var header)
  unset(${var} CACHE)
  set(_hints "")
  if(JET_GL_PREFIX)
    list(APPEND _hints "${JET_GL_PREFIX}/include")
  endif()
  find_path(${var} ${header} HINTS ${_hints})
  if(NOT ${var} AND CMAKE_CROSSCOMPILING)
    find_path(${var} ${header} HINTS ${_hints} PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH)
    if(${var} AND ${var} STREQUAL "/usr/include")
      # Copy only the Khronos folders: the host's libc headers must stay out of a cross build.
      set(_dst "${CMAKE_BINARY_DIR}/khr-include")
      foreach(_d EGL KHR GL GLES2 GLES3)
        if(IS_DIRECTORY "/usr/include/${_d}")
          file(COPY "/usr/include/${_d}" DESTINATION "${_dst}")
        endif()
      endforeach()
      set(${var} "${_dst}" CACHE PATH "" FORCE)
      message(STATUS "${header}: host copy (architecture-neutral Khronos header) in ${_dst}")
    endif()
  endif()
endfunction()

set(JET_HAVE_EGL 0)
set(JET_HAVE_GL 0)
set(JET_GRAPHICS_INCLUDE_DIRS "")
foreach(_api EGL GL)
  if(_api STREQUAL "EGL")
    set(_hdr EGL/egl.h)
  else()
    set(_hdr GL/gl.h)
  endif()
  if(JET_WITH_${_api} STREQUAL "OFF")
    message(STATUS "${_api} interop: off (JET_WITH_${_api}=OFF): its calls return JET_STATUS_NOT_BUILT_IN")
    continue()
  endif()
  _jet_find_khr_header(JET_${_api}_INCLUDE_DIR ${_hdr})
  if(JET_${_api}_INCLUDE_DIR)
    set(JET_HAVE_${_api} 1)
    list(APPEND JET_GRAPHICS_INCLUDE_DIRS "${JET_${_api}_INCLUDE_DIR}")
    message(STATUS "${_api} interop: on (${_hdr} in ${JET_${_api}_INCLUDE_DIR}; the library is loaded at run time)")
  elseif(JET_WITH_${_api} STREQUAL "ON")
    message(FATAL_ERROR "JET_WITH_${_api}=ON but ${_hdr} was not found: install libegl-dev/libgl-dev "
                        "(glvnd) or set JET_GL_PREFIX")
  else()
    message(STATUS "${_api} interop: off (${_hdr} not found): its calls return JET_STATUS_NOT_BUILT_IN")
  endif()
endforeach()
# The display helper and EGLImages of GL textures need both.
list(REMOVE_DUPLICATES JET_GRAPHICS_INCLUDE_DIRS)

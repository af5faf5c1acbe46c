# JetrtKernels.cmake - compile CUDA kernel modules device-only and embed them.
#
#   jetrt_add_kernels(<target>
#                     SOURCES a.cu [b.cu ...]
#                     [ARCHS 87 90 ...]      # cubins; default: ${JET_CUDA_ARCHS}
#                     [PTX_ARCH 75 | NONE]   # PTX; default: the lowest of ARCHS
#                     [PREFIX jet_images_]   # symbol prefix; default jet_images_
#                     [NVCC_FLAGS ...]       # extra nvcc flags for every image
#                     [NO_SOURCE])           # do not embed the source for NVRTC
#
# Each source file is one module. nvcc compiles it device-only (-cubin per SM,
# -ptx for PTX_ARCH, with JET_IMAGE_PTX defined so that a source may leave out
# of its PTX what only the exact cubins need): no host compiler output is
# linked, so a cross build needs only the target's C compiler. The images and the source text are embedded as
# read-only data in a generated C file added to <target>, which defines
#
#   const jet_kernel_image_set <PREFIX><basename>;   // e.g. jet_images_scale
#
# and a header <target>_kernels.h (on <target>'s include path) declaring them:
#
#   #include "mytarget_kernels.h"
#   jet_module m; jet_module_load(ctx, &jet_images_scale, NULL, &m);
#
# Embedding uses the assembler's .incbin through the target C compiler (set
# JET_EMBED_METHOD=HEX to write the bytes as a C array instead): nothing built
# for the build machine has to run, so cross-compiling works.
#
# Kernel sources must also compile under NVRTC: a single file, no #include of
# host headers, kernels declared extern "C" __global__.
#
# This file also runs in script mode (cmake -P) at build time to write the
# embedding C file; that part is at the end.

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED JET_EMBED_MANIFEST)
  # ---------------------------------------------------------------- build-time embedding
  cmake_policy(VERSION 3.22)
  include(${JET_EMBED_MANIFEST})
  set(sym ${JET_EMBED_SYMBOL})
  set(asm "")
  set(arrays "")
  set(table "")
  set(report "")
  set(total 0)
  set(i 0)
  macro(_jet_embed path nul)
    file(SIZE ${path} _size)
    if(_size EQUAL 0)
      message(FATAL_ERROR "jetrt kernels: ${path} is empty")
    endif()
    if(JET_EMBED_METHOD STREQUAL "HEX")
      file(READ ${path} _hex HEX)
      string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _hex "${_hex}")
      string(REPEAT "0x[0-9a-f][0-9a-f]," 16 _pat) # CMake regexes have no {n}
      string(REGEX REPLACE "(${_pat})" "\\1\n  " _hex "${_hex}")
      if(${nul})
        string(APPEND _hex "0x00")
      endif()
      string(APPEND arrays "static const unsigned char ${sym}_blob${i}[] __attribute__((aligned(16))) = {\n  ${_hex}};\n")
    else()
      string(APPEND asm "    \"\\t.balign 16\\n\"\n    \"${sym}_blob${i}:\\n\"\n"
                        "    \"\\t.incbin \\\"${path}\\\"\\n\"\n")
      if(${nul})
        string(APPEND asm "    \"\\t.byte 0\\n\"\n")
      endif()
      string(APPEND arrays "extern const unsigned char ${sym}_blob${i}[] __attribute__((visibility(\"hidden\")));\n")
    endif()
    set(_bytes ${_size})
    if(${nul})
      math(EXPR _bytes "${_size} + 1")
    endif()
    math(EXPR total "${total} + ${_size}")
  endmacro()

  foreach(entry IN LISTS JET_EMBED_IMAGES)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 kind)
    list(GET entry 1 sm)
    list(GET entry 2 path)
    if(kind STREQUAL "cubin")
      _jet_embed(${path} FALSE)
      string(APPEND table "  {${sm}, JET_IMAGE_CUBIN, ${sym}_blob${i}, ${_bytes}u},\n")
      set(label "sm_${sm} cubin")
    else()
      _jet_embed(${path} TRUE)
      string(APPEND table "  {${sm}, JET_IMAGE_PTX, ${sym}_blob${i}, ${_bytes}u},\n")
      set(label "compute_${sm} ptx")
    endif()
    math(EXPR kib "(${_size} * 10 + 512) / 1024")
    string(REGEX REPLACE "([0-9])$" ".\\1" kib "${kib}")
    string(REGEX REPLACE "^\\." "0." kib "${kib}")
    list(APPEND report "${label} ${kib} KiB")
    math(EXPR i "${i} + 1")
  endforeach()
  list(LENGTH JET_EMBED_IMAGES count)
  set(src_ref "NULL, 0")
  if(JET_EMBED_SOURCE)
    # NVRTC sees only the embedded text: inline the module's own quoted
    # includes (headers beside it, e.g. kernels/image/color_coeffs.h).
    get_filename_component(_srcdir ${JET_EMBED_SOURCE} DIRECTORY)
    file(READ ${JET_EMBED_SOURCE} _text)
    string(REGEX MATCHALL "#include \"[^\"]+\"" _incs "${_text}")
    foreach(_inc IN LISTS _incs)
      string(REGEX REPLACE "#include \"([^\"]+)\"" "\\1" _h "${_inc}")
      if(NOT EXISTS ${_srcdir}/${_h})
        message(FATAL_ERROR "jetrt kernels: ${JET_EMBED_SOURCE} includes \"${_h}\", not beside it")
      endif()
      file(READ ${_srcdir}/${_h} _htext)
      string(REPLACE "${_inc}" "/* ${_h} */\n${_htext}" _text "${_text}")
    endforeach()
    # Comments are for readers of the .cu files: the embedded text drops
    # them (a third of its bytes), keeping their line breaks so that NVRTC's
    # line numbers still count lines of the inlined file.
    set(_out "")
    while(TRUE)
      string(FIND "${_text}" "/*" _a)
      if(_a EQUAL -1)
        break()
      endif()
      string(SUBSTRING "${_text}" 0 ${_a} _head)
      math(EXPR _a "${_a} + 2")
      string(SUBSTRING "${_text}" ${_a} -1 _text)
      string(FIND "${_text}" "*/" _e)
      if(_e EQUAL -1)
        message(FATAL_ERROR "jetrt kernels: ${JET_EMBED_SOURCE} has an unterminated comment")
      endif()
      string(SUBSTRING "${_text}" 0 ${_e} _body)
      string(REGEX REPLACE "[^\n]" "" _body "${_body}")
      string(APPEND _out "${_head}${_body}")
      math(EXPR _e "${_e} + 2")
      string(SUBSTRING "${_text}" ${_e} -1 _text)
    endwhile()
    string(REGEX REPLACE "[ \t]+\n" "\n" _text "${_out}${_text}")
    # Indentation too (a tenth of what is left), except after a line that
    # continues (backslash), where it may be what separates two tokens; and
    # the alignment before a continuing line's backslash, to one space.
    string(REGEX REPLACE "([^\\\\])\n[ \t]+" "\\1\n" _text "${_text}")
    string(REGEX REPLACE "[ \t]+\\\\\n" " \\\\\n" _text "${_text}")
    set(_nvrtc_src ${JET_EMBED_OUTPUT}.nvrtc.cu)
    file(WRITE ${_nvrtc_src} "${_text}")
    _jet_embed(${_nvrtc_src} TRUE)
    set(src_ref "(const char *)${sym}_blob${i}, ${_bytes}u")
    math(EXPR kib "(${_size} * 10 + 512) / 1024")
    string(REGEX REPLACE "([0-9])$" ".\\1" kib "${kib}")
    string(REGEX REPLACE "^\\." "0." kib "${kib}")
    list(APPEND report "source ${kib} KiB")
  endif()
  if(count EQUAL 0)
    set(table_ref "NULL")
  else()
    set(table_ref "${sym}_images")
  endif()

  set(c "/* Generated by JetrtKernels.cmake from ${JET_EMBED_SOURCE_FILE}: do not edit. */\n")
  string(APPEND c "#include \"jetrt/module.h\"\n\n")
  if(asm)
    string(APPEND c "__asm__(\n    \"\\t.pushsection .rodata.jetrt_kernels,\\\"a\\\"\\n\"\n${asm}"
                    "    \"\\t.popsection\\n\");\n\n")
  endif()
  string(APPEND c "${arrays}\n")
  if(count GREATER 0)
    string(APPEND c "static const jet_kernel_image ${sym}_images[] = {\n${table}};\n\n")
  endif()
  string(APPEND c "extern const jet_kernel_image_set ${sym};\n"
                  "const jet_kernel_image_set ${sym} = {JET_KERNEL_IMAGE_SET_ABI, \"${JET_EMBED_NAME}\",\n"
                  "    ${table_ref}, ${count}u, ${src_ref}};\n")
  file(WRITE ${JET_EMBED_OUTPUT} "${c}")
  math(EXPR tkib "(${total} * 10 + 512) / 1024")
  string(REGEX REPLACE "([0-9])$" ".\\1" tkib "${tkib}")
  string(REGEX REPLACE "^\\." "0." tkib "${tkib}")
  list(JOIN report ", " report)
  message(STATUS "jetrt kernels: embedded ${JET_EMBED_NAME} as ${sym} (${JET_EMBED_METHOD}): "
                 "${report}; total ${tkib} KiB")
  return()
endif()

# ---------------------------------------------------------------- configure time
include_guard(GLOBAL)
set(_JETRT_KERNELS_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

if(NOT CUDAToolkit_NVCC_EXECUTABLE)
  find_package(CUDAToolkit REQUIRED)
endif()

# The SMs this nvcc can build cubins for (sm_NN only; no arch-specific "a"/"f" variants).
if(NOT DEFINED _JETRT_NVCC_SMS)
  execute_process(COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} --list-gpu-code
                  OUTPUT_VARIABLE _out RESULT_VARIABLE _rc ERROR_QUIET)
  set(_sms "")
  if(_rc EQUAL 0)
    string(REGEX MATCHALL "sm_[0-9]+\n" _lines "${_out}\n")
    foreach(_l IN LISTS _lines)
      string(REGEX REPLACE "sm_([0-9]+)\n" "\\1" _n "${_l}")
      list(APPEND _sms ${_n})
    endforeach()
    list(SORT _sms COMPARE NATURAL)
    list(REMOVE_DUPLICATES _sms)
  endif()
  if(NOT _sms)
    message(FATAL_ERROR "jetrt kernels: '${CUDAToolkit_NVCC_EXECUTABLE} --list-gpu-code' failed")
  endif()
  set(_JETRT_NVCC_SMS "${_sms}" CACHE INTERNAL "SMs supported by nvcc")
endif()

set(JET_CUDA_ARCHS "${_JETRT_NVCC_SMS}" CACHE STRING
    "SMs to embed cubins for, e.g. \"87\" for an Orin-only firmware (default: all nvcc supports)")
set(JET_EMBED_METHOD "INCBIN" CACHE STRING "How kernel images are embedded: INCBIN or HEX")
set_property(CACHE JET_EMBED_METHOD PROPERTY STRINGS INCBIN HEX)

function(jetrt_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 K "NO_SOURCE" "PTX_ARCH;PREFIX" "SOURCES;ARCHS;NVCC_FLAGS")
  if(K_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "jetrt_add_kernels: unknown arguments ${K_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "jetrt_add_kernels: ${target} is not a target")
  endif()
  if(NOT K_SOURCES)
    message(FATAL_ERROR "jetrt_add_kernels(${target}): SOURCES is empty")
  endif()
  if(NOT K_ARCHS)
    set(K_ARCHS ${JET_CUDA_ARCHS})
  endif()
  foreach(a IN LISTS K_ARCHS)
    if(NOT a MATCHES "^[0-9]+$")
      message(FATAL_ERROR "jetrt_add_kernels(${target}): ARCHS entry '${a}' is not a number like 87")
    endif()
    if(NOT a IN_LIST _JETRT_NVCC_SMS)
      message(FATAL_ERROR "jetrt_add_kernels(${target}): sm_${a} is not supported by this nvcc "
                          "(it supports ${_JETRT_NVCC_SMS})")
    endif()
  endforeach()
  list(SORT K_ARCHS COMPARE NATURAL)
  list(REMOVE_DUPLICATES K_ARCHS)
  if(NOT DEFINED K_PTX_ARCH)
    list(GET K_ARCHS 0 K_PTX_ARCH)
  endif()
  if(NOT K_PREFIX)
    set(K_PREFIX jet_images_)
  endif()
  if(NOT K_PREFIX MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "jetrt_add_kernels(${target}): PREFIX '${K_PREFIX}' is not a C identifier")
  endif()

  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/jetrt_kernels/${target})
  file(MAKE_DIRECTORY ${outdir})
  string(MAKE_C_IDENTIFIER "${target}" guard)
  string(TOUPPER "${guard}" guard)
  set(header "/* Generated by jetrt_add_kernels(${target}): do not edit. */\n")
  string(APPEND header "#ifndef JETRT_KERNELS_${guard}_H\n#define JETRT_KERNELS_${guard}_H\n")
  string(APPEND header "#include \"jetrt/module.h\"\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n")
  set(names "")
  foreach(src IN LISTS K_SOURCES)
    get_filename_component(src ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME_WE)
    string(MAKE_C_IDENTIFIER "${name}" cname)
    if(cname IN_LIST names)
      message(FATAL_ERROR "jetrt_add_kernels(${target}): two modules named ${cname}")
    endif()
    list(APPEND names ${cname})
    set(sym ${K_PREFIX}${cname})
    if(src MATCHES "[\"\\\\]" OR outdir MATCHES "[\"\\\\]")
      message(FATAL_ERROR "jetrt_add_kernels: paths with quotes or backslashes are not supported: ${src}")
    endif()

    set(images "")
    set(outputs "")
    # Headers beside the module (the only includes a module may have) are inputs too.
    get_filename_component(srcdir ${src} DIRECTORY)
    file(GLOB local_headers ${srcdir}/*.h ${srcdir}/*.cuh)
    set(deps ${src} ${local_headers})
    foreach(a IN LISTS K_ARCHS)
      set(out ${outdir}/${cname}.sm_${a}.cubin)
      add_custom_command(OUTPUT ${out}
        COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -cubin -arch=sm_${a} --std=c++17 ${K_NVCC_FLAGS}
                -o ${out} ${src}
        DEPENDS ${deps}
        COMMENT "nvcc ${name} -> sm_${a} cubin" VERBATIM)
      list(APPEND images "cubin|${a}|${out}")
      list(APPEND outputs ${out})
    endforeach()
    if(NOT K_PTX_ARCH STREQUAL "NONE")
      if(NOT K_PTX_ARCH MATCHES "^[0-9]+$")
        message(FATAL_ERROR "jetrt_add_kernels(${target}): PTX_ARCH '${K_PTX_ARCH}' is not a number or NONE")
      endif()
      set(out ${outdir}/${cname}.compute_${K_PTX_ARCH}.ptx)
      add_custom_command(OUTPUT ${out}
        COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -ptx -arch=compute_${K_PTX_ARCH} --std=c++17
                -DJET_IMAGE_PTX=1 ${K_NVCC_FLAGS} -o ${out} ${src}
        DEPENDS ${deps}
        COMMENT "nvcc ${name} -> compute_${K_PTX_ARCH} ptx" VERBATIM)
      list(APPEND images "ptx|${K_PTX_ARCH}|${out}")
      list(APPEND outputs ${out})
    endif()
    set(embed_src "")
    if(NOT K_NO_SOURCE)
      set(embed_src ${src})
    endif()

    set(manifest ${outdir}/${cname}.manifest.cmake)
    file(CONFIGURE OUTPUT ${manifest} CONTENT
"set(JET_EMBED_NAME \"${cname}\")
set(JET_EMBED_SYMBOL \"${sym}\")
set(JET_EMBED_SOURCE_FILE \"${src}\")
set(JET_EMBED_SOURCE \"${embed_src}\")
set(JET_EMBED_IMAGES \"${images}\")
set(JET_EMBED_METHOD \"${JET_EMBED_METHOD}\")
set(JET_EMBED_OUTPUT \"${outdir}/${cname}_images.c\")
")
    set(gen ${outdir}/${cname}_images.c)
    add_custom_command(OUTPUT ${gen}
      COMMAND ${CMAKE_COMMAND} -DJET_EMBED_MANIFEST=${manifest} -P ${_JETRT_KERNELS_SCRIPT}
      DEPENDS ${outputs} ${deps} ${manifest} ${_JETRT_KERNELS_SCRIPT}
      COMMENT "embedding kernel module ${name}" VERBATIM)
    # .incbin'd files are invisible to the compiler's dependency scan.
    set_source_files_properties(${gen} PROPERTIES OBJECT_DEPENDS "${outputs};${deps}")
    target_sources(${target} PRIVATE ${gen})
    string(APPEND header "extern const jet_kernel_image_set ${sym};\n")
  endforeach()
  string(APPEND header "#ifdef __cplusplus\n}\n#endif\n#endif\n")
  file(CONFIGURE OUTPUT ${outdir}/${target}_kernels.h CONTENT "${header}")
  target_include_directories(${target} PRIVATE ${outdir})
  string(REPLACE ";" " " _a "${K_ARCHS}")
  message(STATUS "jetrt kernels for ${target}: ${names}: cubins sm ${_a}; PTX ${K_PTX_ARCH}; "
                 "embedding ${JET_EMBED_METHOD}")
endfunction()

# jetrt's own build: NVRTC linkage (static where the toolkit has it, shared
# otherwise, or none) and the modules under kernels/. Not for users.
function(jetrt_internal_kernels target kernels_dir)
  option(JET_WITH_NVRTC "Build NVRTC (run-time compilation fallback) into jetrt" ON)
  set(mode "off")
  if(JET_WITH_NVRTC)
    # Found by name, not through CUDA::nvrtc: that imported target drags in
    # libcuda, and jetrt reaches the driver only through the runtime.
    set(hints ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_TARGET_DIR}/lib64 ${CUDAToolkit_TARGET_DIR}/lib)
    find_library(JET_NVRTC_STATIC_LIB nvrtc_static HINTS ${hints} NO_DEFAULT_PATH)
    find_library(JET_NVRTC_BUILTINS_STATIC_LIB nvrtc-builtins_static HINTS ${hints} NO_DEFAULT_PATH)
    find_library(JET_NVPTXCOMPILER_STATIC_LIB nvptxcompiler_static HINTS ${hints} NO_DEFAULT_PATH)
    find_library(JET_NVRTC_SHARED_LIB nvrtc HINTS ${hints} NO_DEFAULT_PATH)
    if(JET_NVRTC_STATIC_LIB AND JET_NVRTC_BUILTINS_STATIC_LIB AND JET_NVPTXCOMPILER_STATIC_LIB)
      find_package(Threads REQUIRED)
      target_link_libraries(${target} PUBLIC ${JET_NVRTC_STATIC_LIB} ${JET_NVRTC_BUILTINS_STATIC_LIB}
                                             ${JET_NVPTXCOMPILER_STATIC_LIB} Threads::Threads
                                             ${CMAKE_DL_LIBS} stdc++ m)
      set(mode "static")
    elseif(JET_NVRTC_SHARED_LIB)
      target_link_libraries(${target} PUBLIC ${JET_NVRTC_SHARED_LIB})
      set(mode "shared")
    else()
      message(WARNING "jetrt: no NVRTC library for the target in ${hints}: building without "
                      "NVRTC (modules report JET_STATUS_NOT_BUILT_IN for the NVRTC path)")
    endif()
  endif()
  if(mode STREQUAL "off")
    target_compile_definitions(${target} PRIVATE JET_HAVE_NVRTC=0)
  else()
    target_compile_definitions(${target} PRIVATE JET_HAVE_NVRTC=1)
  endif()
  set(JET_NVRTC_MODE ${mode} PARENT_SCOPE)
  message(STATUS "jetrt: NVRTC ${mode}")

  option(JET_CUDA_PTX "Embed PTX (for the lowest of JET_CUDA_ARCHS) as a JIT fallback" ON)
  set(ptx_arg)
  if(NOT JET_CUDA_PTX)
    set(ptx_arg PTX_ARCH NONE) # a firmware build: exact cubins only, nothing to JIT
  endif()
  # Kernels that only add speed where general ones do the same work (today the
  # 8-bit enlarging resize kernels) stay out of a compact build: the launchers
  # take the general kernels there, with the same results.
  option(JET_COMPACT_KERNELS "Leave out kernels that only add speed (size-bound firmware builds)" OFF)
  set(compact_arg)
  if(JET_COMPACT_KERNELS)
    set(compact_arg NVCC_FLAGS -DJET_COMPACT_KERNELS=1)
    target_compile_definitions(${target} PRIVATE JET_COMPACT_KERNELS=1)
  endif()
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${kernels_dir}/*.cu)
  list(SORT srcs)
  jetrt_add_kernels(${target} SOURCES ${srcs} PREFIX jet__images_ ${ptx_arg} ${compact_arg})
endfunction()

# Configure-time helpers shared by the benchmark samples (bench-image, pipeline).

# jet_sample_check(VAR DIR SRC [INCLUDE_DIR...]): compile SRC alone (no link)
# with the project's warning flags and the include directories; the result in
# VAR, the compiler's first three error lines in VAR_LOG, the whole log in
# DIR/VAR.log. A missing function or a wrong signature fails the check, not a
# later link.
function(jet_sample_check var dir src)
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  string(REPLACE ";" "\\;" incs "${ARGN}")
  unset(${var} CACHE)
  try_compile(${var} ${dir}/${var} SOURCES ${src}
              CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${incs}"
              COMPILE_DEFINITIONS ${JET_WARNINGS} -D_GNU_SOURCE
                                  -Werror=implicit-function-declaration
                                  -Werror=incompatible-pointer-types -Werror=int-conversion
              C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
              OUTPUT_VARIABLE log)
  # try_compile keeps the result in the cache in older CMake: read it, then
  # drop it so the next configure checks again
  set(result ${${var}})
  unset(${var} CACHE)
  set(${var} ${result} PARENT_SCOPE)
  string(REGEX MATCHALL "[^\n]*error:[^\n]*" errors "${log}")
  file(WRITE ${dir}/${var}.log "${log}")
  list(LENGTH errors n)
  if(n GREATER 3)
    list(SUBLIST errors 0 3 errors)
  endif()
  string(REPLACE ";" "\n  " errors "${errors}")
  set(${var}_LOG "${errors}" PARENT_SCOPE)
endfunction()

# jet_find_npp(PREFIX ROOT STATIC OK_VAR LIBS_VAR LIB...): NPP's headers and
# the libraries LIB... (in link order, nppc last), looked for in ROOT (may be
# empty), then the CUDA toolkit. PREFIX_INCLUDE_DIR and PREFIX_<lib>_LIBRARY are
# cache entries; OK_VAR is TRUE when everything was found, LIBS_VAR the list to
# link (with culibos and the C++ runtime where STATIC).
function(jet_find_npp prefix root static ok_var libs_var)
  set(hints "")
  if(root)
    list(APPEND hints ${root})
  endif()
  if(CUDAToolkit_LIBRARY_ROOT)
    list(APPEND hints ${CUDAToolkit_LIBRARY_ROOT})
  endif()
  if(CUDAToolkit_BIN_DIR)
    get_filename_component(cuda_root ${CUDAToolkit_BIN_DIR} DIRECTORY)
    list(APPEND hints ${cuda_root})
  endif()
  list(APPEND hints /usr/local/cuda)
  find_path(${prefix}_INCLUDE_DIR nppi.h HINTS ${hints} ${CUDAToolkit_INCLUDE_DIRS}
            PATH_SUFFIXES include targets/x86_64-linux/include targets/sbsa-linux/include
            targets/aarch64-linux/include NO_DEFAULT_PATH)
  set(suffix "")
  if(static)
    set(suffix _static)
  endif()
  set(ok TRUE)
  set(libs "")
  if(NOT ${prefix}_INCLUDE_DIR)
    set(ok FALSE)
  endif()
  foreach(lib IN LISTS ARGN)
    find_library(${prefix}_${lib}${suffix}_LIBRARY NAMES ${lib}${suffix} HINTS ${hints}
                 ${CUDAToolkit_LIBRARY_DIR}
                 PATH_SUFFIXES lib64 lib targets/x86_64-linux/lib targets/sbsa-linux/lib
                 targets/aarch64-linux/lib NO_DEFAULT_PATH)
    if(${prefix}_${lib}${suffix}_LIBRARY)
      list(APPEND libs ${${prefix}_${lib}${suffix}_LIBRARY})
    else()
      set(ok FALSE)
    endif()
  endforeach()
  if(ok AND static)
    find_library(${prefix}_culibos_LIBRARY NAMES culibos HINTS ${hints} ${CUDAToolkit_LIBRARY_DIR}
                 PATH_SUFFIXES lib64 lib NO_DEFAULT_PATH)
    if(${prefix}_culibos_LIBRARY)
      list(APPEND libs ${${prefix}_culibos_LIBRARY} stdc++ m dl pthread rt)
    else()
      set(ok FALSE)
    endif()
  endif()
  set(${ok_var} ${ok} PARENT_SCOPE)
  set(${libs_var} "${libs}" PARENT_SCOPE)
endfunction()

# jet_sample_npp(NAME PREFIX ROOT STATIC SRC INCLUDES OK_VAR LIBS_VAR LIB...):
# NPP found by jet_find_npp(PREFIX ROOT STATIC ... LIB...), and SRC compiled
# against it (jet_sample_check into PREFIX_CHECK, with INCLUDES, NPP's and
# CUDA's headers). OK_VAR is TRUE where both hold, LIBS_VAR the libraries then
# (else empty); NAME's status lines say which, and why not.
function(jet_sample_npp name prefix root static src includes ok_var libs_var)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
  jet_find_npp(${prefix} "${root}" ${static} ok libs ${ARGN})
  get_filename_component(src_name ${src} NAME)
  if(ok)
    jet_sample_check(${prefix}_CHECK ${CMAKE_CURRENT_BINARY_DIR}/checks ${src} ${includes}
                     ${${prefix}_INCLUDE_DIR} ${CUDAToolkit_INCLUDE_DIRS})
    if(NOT ${prefix}_CHECK)
      message(STATUS "${name}: NPP found but ${src_name} does not compile against it:\n"
                     "  ${${prefix}_CHECK_LOG}")
      set(ok FALSE)
    endif()
  endif()
  if(ok)
    message(STATUS "${name}: NPP built in (${${prefix}_INCLUDE_DIR}; ${libs})")
  else()
    message(STATUS "${name}: NPP not found: built without NPP")
    set(libs "")
  endif()
  set(${ok_var} ${ok} PARENT_SCOPE)
  set(${libs_var} "${libs}" PARENT_SCOPE)
endfunction()

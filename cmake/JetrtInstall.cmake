# Installation of jetrt for consumers (included from the top-level CMakeLists.txt):
#   <prefix>/include/jetrt.h, <prefix>/include/jetrt/*.h
#   <prefix>/lib/libjetrt.a
#   <prefix>/lib/cmake/jetrt/   jetrtConfig.cmake, version file, jetrtTargets.cmake (jetrt::jetrt)
#   <prefix>/lib/pkgconfig/jetrt.pc   (use pkg-config --static: the library is static)
#
# Hooks for later work, set before this file is included:
#   JET_PC_NVRTC_LIBS        NVRTC libraries for jetrt.pc Libs.private, when built in
#   JET_PC_EXTRA_LIBS        cache: more Libs.private for jetrt.pc (EGL/GL...)
#   JET_EXPORT_CMAKE_MODULES list of .cmake files installed next to jetrtConfig.cmake
#                            and included by it, e.g. the consumer-facing module that
#                            defines jetrt_add_kernels(); they must define functions only.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(JET_PC_EXTRA_LIBS "" CACHE STRING
    "Extra libraries for jetrt.pc Libs.private, e.g. -lnvrtc_static -lnvrtc-builtins_static -lEGL -lGL")
set(JET_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/jetrt" CACHE STRING
    "Where the CMake package of jetrt is installed, relative to the prefix")
mark_as_advanced(JET_INSTALL_CMAKEDIR)

install(TARGETS jetrt EXPORT jetrtTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(EXPORT jetrtTargets NAMESPACE jetrt:: FILE jetrtTargets.cmake DESTINATION ${JET_INSTALL_CMAKEDIR})

# --- CMake package
set(JET_EXPORT_MODULE_NAMES "")
foreach(m IN LISTS JET_EXPORT_CMAKE_MODULES)
  get_filename_component(n "${m}" NAME)
  list(APPEND JET_EXPORT_MODULE_NAMES "${n}")
endforeach()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/jetrtConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/jetrtConfig.cmake
                              INSTALL_DESTINATION ${JET_INSTALL_CMAKEDIR})
# 0.x: a minor release may change the API, so only the same minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/jetrtConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/jetrtConfig.cmake ${PROJECT_BINARY_DIR}/jetrtConfigVersion.cmake
              ${JET_EXPORT_CMAKE_MODULES}
        DESTINATION ${JET_INSTALL_CMAKEDIR})

# --- pkg-config
# The CUDA library directory of the target, overridable by consumers with
# pkg-config --define-variable=cudalibdir=DIR. Without a target runtime (a
# library-only cross build) it is the on-device location of JetPack's CUDA.
if(TARGET CUDA::cudart_static AND CUDA_cudart_static_LIBRARY)
  get_filename_component(JET_PC_CUDA_LIBDIR "${CUDA_cudart_static_LIBRARY}" DIRECTORY)
else()
  set(JET_PC_CUDA_LIBDIR /usr/local/cuda/lib64)
endif()
string(REPLACE ";" " " JET_PC_EXTRA_LIBS_STR "${JET_PC_NVRTC_LIBS};${JET_PC_EXTRA_LIBS}")
string(STRIP "${JET_PC_EXTRA_LIBS_STR}" JET_PC_EXTRA_LIBS_STR)
configure_file(${CMAKE_CURRENT_LIST_DIR}/jetrt.pc.in ${PROJECT_BINARY_DIR}/jetrt.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/jetrt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

/*
 * The EGL entry points jetrt uses, one line each.
 *  JET__EGL_CORE(name, PFN type): EGL 1.4/1.5 core, resolved with dlsym from
 *    libEGL.so.1; a missing one fails the load.
 *  JET__EGL_EXT(name, PFN type, extension, client): resolved with
 *    eglGetProcAddress and used only where @extension is listed (glvnd returns
 *    a dispatch stub for any name, so a non-NULL pointer proves nothing);
 *    @client is 1 for client extensions (EGL_NO_DISPLAY), 0 for display ones.
 */
#ifndef JET_EGL_SYMS_H
#define JET_EGL_SYMS_H

#define JET__EGL_CORE_SYMS(X)                                          \
  X(eglGetError, PFNEGLGETERRORPROC)                                   \
  X(eglGetProcAddress, PFNEGLGETPROCADDRESSPROC)                       \
  X(eglQueryString, PFNEGLQUERYSTRINGPROC)                             \
  X(eglInitialize, PFNEGLINITIALIZEPROC)                               \
  X(eglTerminate, PFNEGLTERMINATEPROC)                                 \
  X(eglBindAPI, PFNEGLBINDAPIPROC)                                     \
  X(eglChooseConfig, PFNEGLCHOOSECONFIGPROC)                           \
  X(eglGetConfigAttrib, PFNEGLGETCONFIGATTRIBPROC)                     \
  X(eglCreateContext, PFNEGLCREATECONTEXTPROC)                         \
  X(eglDestroyContext, PFNEGLDESTROYCONTEXTPROC)                       \
  X(eglMakeCurrent, PFNEGLMAKECURRENTPROC)                             \
  X(eglGetCurrentContext, PFNEGLGETCURRENTCONTEXTPROC)                 \
  X(eglCreatePbufferSurface, PFNEGLCREATEPBUFFERSURFACEPROC)           \
  X(eglCreatePlatformWindowSurface, PFNEGLCREATEPLATFORMWINDOWSURFACEPROC) \
  X(eglDestroySurface, PFNEGLDESTROYSURFACEPROC)                       \
  X(eglQuerySurface, PFNEGLQUERYSURFACEPROC)                           \
  X(eglSwapBuffers, PFNEGLSWAPBUFFERSPROC)                             \
  X(eglSwapInterval, PFNEGLSWAPINTERVALPROC)                           \
  X(eglReleaseThread, PFNEGLRELEASETHREADPROC)                         \
  X(eglGetPlatformDisplay, PFNEGLGETPLATFORMDISPLAYPROC)              \
  X(eglCreateSync, PFNEGLCREATESYNCPROC)                               \
  X(eglDestroySync, PFNEGLDESTROYSYNCPROC)                             \
  X(eglClientWaitSync, PFNEGLCLIENTWAITSYNCPROC)

#define JET__EGL_EXT_SYMS(X)                                                                   \
  X(eglQueryDevicesEXT, PFNEGLQUERYDEVICESEXTPROC, "EGL_EXT_device_enumeration", 1)            \
  X(eglQueryDeviceStringEXT, PFNEGLQUERYDEVICESTRINGEXTPROC, "EGL_EXT_device_query", 1)        \
  X(eglQueryDeviceAttribEXT, PFNEGLQUERYDEVICEATTRIBEXTPROC, "EGL_EXT_device_query", 1)        \
  X(eglCreateImageKHR, PFNEGLCREATEIMAGEKHRPROC, "EGL_KHR_image_base", 0)                      \
  X(eglDestroyImageKHR, PFNEGLDESTROYIMAGEKHRPROC, "EGL_KHR_image_base", 0)                    \
  X(eglCreateStreamKHR, PFNEGLCREATESTREAMKHRPROC, "EGL_KHR_stream", 0)                        \
  X(eglDestroyStreamKHR, PFNEGLDESTROYSTREAMKHRPROC, "EGL_KHR_stream", 0)                      \
  X(eglStreamAttribKHR, PFNEGLSTREAMATTRIBKHRPROC, "EGL_KHR_stream", 0)                        \
  X(eglQueryStreamKHR, PFNEGLQUERYSTREAMKHRPROC, "EGL_KHR_stream", 0)                          \
  X(eglExportDMABUFImageQueryMESA, PFNEGLEXPORTDMABUFIMAGEQUERYMESAPROC,                       \
    "EGL_MESA_image_dma_buf_export", 0)                                                        \
  X(eglExportDMABUFImageMESA, PFNEGLEXPORTDMABUFIMAGEMESAPROC, "EGL_MESA_image_dma_buf_export", 0)

#endif

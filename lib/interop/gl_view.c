/*
 * The GL half of the display helper: EGL context and surface, the program
 * that draws a texture over the surface, swap and read-back. No CUDA here, so
 * host tests run all of it on Mesa's surfaceless display (presenter.c adds the
 * CUDA upload).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop_internal.h"

#if JET_HAVE_EGL && JET_HAVE_GL

/* One fullscreen triangle from gl_VertexID (no vertex buffer). v = 0 at the
 * top of the surface: image row 0, uploaded as texture row 0, lands on top. */
static const char vs_body[] =
    "out vec2 uv;\n"
    "void main() {\n"
    "  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
    "  uv = vec2(p.x * 0.5 + 0.5, 0.5 - p.y * 0.5);\n"
    "  gl_Position = vec4(p, 0.0, 1.0);\n"
    "}\n";

/* Alpha is not shown: the output is opaque (a window system would blend it). */
static const char fs_body[] =
    "uniform sampler2D tex;\n"
    "uniform int mode;\n"
    "in vec2 uv;\n"
    "out vec4 color;\n"
    "void main() {\n"
    "  vec4 t = texture(tex, uv);\n"
    "  if (mode == 1) color = vec4(t.b, t.g, t.r, 1.0);\n"
    "  else if (mode == 2) color = vec4(t.r, t.r, t.r, 1.0);\n"
    "  else color = vec4(t.r, t.g, t.b, 1.0);\n"
    "}\n";

static jet_status compile(const jet__gl_api *gl, GLenum kind, const char *header, const char *body,
                          GLuint *out, const char *fn) {
  const char *what = kind == GL_VERTEX_SHADER ? "vertex shader" : "fragment shader";
  GLuint sh = gl->glCreateShader(kind);
  if (!sh) {
    jet_status st = jet__gl_check(gl, fn, "glCreateShader");
    return st != JET_STATUS_OK ? st
                               : jet__error(JET_STATUS_GL_ERROR, fn, "glCreateShader returned 0");
  }
  const GLchar *src[2] = {header, body};
  gl->glShaderSource(sh, 2, src, NULL);
  gl->glCompileShader(sh);
  GLint ok = 0;
  gl->glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[512];
    GLsizei n = 0;
    log[0] = '\0';
    gl->glGetShaderInfoLog(sh, (GLsizei)sizeof log, &n, log);
    gl->glDeleteShader(sh);
    return jet__error_native(JET_STATUS_GL_ERROR, fn, "glCompileShader", "GL_COMPILE_STATUS", 0,
                             NULL, "compiling the %s (%.20s) failed: %s", what, header, log);
  }
  *out = sh;
  return JET_STATUS_OK;
}

static jet_status build_program(jet__gl_view *v, const char *fn) {
  const jet__gl_api *gl = v->gl;
  const char *vh = v->es ? "#version 300 es\n" : "#version 330 core\n";
  const char *fh = v->es ? "#version 300 es\nprecision highp float;\n" : "#version 330 core\n";
  GLuint vs = 0, fs = 0;
  JET__TRY(compile(gl, GL_VERTEX_SHADER, vh, vs_body, &vs, fn));
  jet_status st = compile(gl, GL_FRAGMENT_SHADER, fh, fs_body, &fs, fn);
  if (st != JET_STATUS_OK) {
    gl->glDeleteShader(vs);
    return st;
  }
  GLuint prog = gl->glCreateProgram();
  gl->glAttachShader(prog, vs);
  gl->glAttachShader(prog, fs);
  gl->glLinkProgram(prog);
  gl->glDeleteShader(vs); /* flagged: freed with the program */
  gl->glDeleteShader(fs);
  GLint ok = 0;
  gl->glGetProgramiv(prog, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[512];
    GLsizei n = 0;
    log[0] = '\0';
    gl->glGetProgramInfoLog(prog, (GLsizei)sizeof log, &n, log);
    gl->glDeleteProgram(prog);
    return jet__error_native(JET_STATUS_GL_ERROR, fn, "glLinkProgram", "GL_LINK_STATUS", 0, NULL,
                             "linking the display program failed: %s", log);
  }
  v->program = prog;
  v->mode_loc = gl->glGetUniformLocation(prog, "mode");
  v->tex_loc = gl->glGetUniformLocation(prog, "tex");
  gl->glGenVertexArrays(1, &v->vao);
  st = jet__gl_check(gl, fn, "creating the display program");
  if (st == JET_STATUS_OK && (v->mode_loc < 0 || v->tex_loc < 0))
    st = jet__error(JET_STATUS_INTERNAL, fn, "the display program lacks its uniforms (%d, %d)",
                    (int)v->mode_loc, (int)v->tex_loc);
  return st;
}

/* A config of @api for the surface kind with exactly 8-bit R, G, B (a deeper
 * one would be preferred by eglChooseConfig's sort, and read back differently). */
static int choose_config(const jet__gl_view *v, int window, EGLint renderable, EGLConfig *out,
                         char *why, size_t why_n) {
  const jet__egl_api *egl = v->egl;
  const EGLint attrs[] = {EGL_SURFACE_TYPE, window ? EGL_WINDOW_BIT : EGL_PBUFFER_BIT,
                          EGL_RENDERABLE_TYPE, renderable,
                          EGL_CONFORMANT, renderable,
                          EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                          EGL_NONE};
  EGLint n = 0;
  if (!egl->eglChooseConfig(v->dpy, attrs, NULL, 0, &n)) {
    snprintf(why, why_n, "eglChooseConfig: %s", jet__egl_error_name(egl->eglGetError()));
    return 0;
  }
  EGLConfig *cfgs = n > 0 ? malloc((size_t)n * sizeof *cfgs) : NULL;
  if (n > 0 && (!cfgs || !egl->eglChooseConfig(v->dpy, attrs, cfgs, n, &n))) {
    snprintf(why, why_n, "eglChooseConfig: %s",
             cfgs ? jet__egl_error_name(egl->eglGetError()) : "no host memory");
    free(cfgs);
    return 0;
  }
  int found = 0;
  for (EGLint i = 0; i < n && !found; i++) {
    EGLint r = 0, g = 0, b = 0;
    if (egl->eglGetConfigAttrib(v->dpy, cfgs[i], EGL_RED_SIZE, &r) &&
        egl->eglGetConfigAttrib(v->dpy, cfgs[i], EGL_GREEN_SIZE, &g) &&
        egl->eglGetConfigAttrib(v->dpy, cfgs[i], EGL_BLUE_SIZE, &b) && r == 8 && g == 8 && b == 8) {
      *out = cfgs[i];
      found = 1;
    }
  }
  free(cfgs);
  if (!found)
    snprintf(why, why_n, "no %s config with 8-bit RGB (%d with other depths)",
             window ? "window" : "pbuffer", (int)n);
  return found;
}

/* Context of one API on @v->dpy; 1 on success, else why in @why. */
static int try_api(jet__gl_view *v, int es, int window, char *why, size_t why_n) {
  const jet__egl_api *egl = v->egl;
  EGLenum api = es ? EGL_OPENGL_ES_API : EGL_OPENGL_API;
  if (!egl->eglBindAPI(api)) {
    snprintf(why, why_n, "eglBindAPI: %s", jet__egl_error_name(egl->eglGetError()));
    return 0;
  }
  EGLConfig cfg;
  if (!choose_config(v, window, es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT, &cfg, why, why_n))
    return 0;
  const EGLint gl_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                             EGL_NONE};
  const EGLint es_attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  EGLContext c = egl->eglCreateContext(v->dpy, cfg, EGL_NO_CONTEXT, es ? es_attrs : gl_attrs);
  if (c == EGL_NO_CONTEXT) {
    snprintf(why, why_n, "eglCreateContext: %s", jet__egl_error_name(egl->eglGetError()));
    return 0;
  }
  v->ctx = c;
  v->config = cfg;
  v->api = api;
  v->es = es;
  return 1;
}

jet_status jet__gl_view_create(const jet__egl_api *egl, EGLDisplay dpy,
                               const jet_presenter_desc *desc, int es_only, jet__gl_view *v,
                               const char *fn) {
  memset(v, 0, sizeof *v);
  v->egl = egl;
  v->dpy = dpy;
  v->ctx = EGL_NO_CONTEXT;
  v->surf = EGL_NO_SURFACE;
  v->is_window = desc->native_window != NULL;
  JET__TRY(jet__gl_load(&v->gl, fn));
  char why_gl[160] = "not tried", why_es[160];
  if ((es_only || !try_api(v, 0, v->is_window, why_gl, sizeof why_gl)) &&
      !try_api(v, 1, v->is_window, why_es, sizeof why_es))
    return jet__error_native(
        JET_STATUS_UNSUPPORTED, fn, "eglCreateContext", "", 0,
        v->is_window ? "a headless EGL device display has no window surfaces: pass "
                       "native_window NULL for a pbuffer, or an EGLDisplay of your window system"
                     : NULL,
        "no OpenGL 3.3 core or OpenGL ES 3.0 context for a %s on this EGL display: desktop GL: "
        "%s; GLES: %s",
        v->is_window ? "window" : "pbuffer", why_gl, why_es);
  jet_status st = JET_STATUS_OK;
  if (v->is_window) {
    v->surf = egl->eglCreatePlatformWindowSurface(dpy, v->config, desc->native_window, NULL);
    if (v->surf == EGL_NO_SURFACE)
      st = jet__egl_error(egl, fn, "eglCreatePlatformWindowSurface",
                          "native_window must be a window of the display's platform (for X11: "
                          "a pointer to the Window)",
                          NULL);
  } else {
    const EGLint attrs[] = {EGL_WIDTH, desc->width, EGL_HEIGHT, desc->height, EGL_NONE};
    v->surf = egl->eglCreatePbufferSurface(dpy, v->config, attrs);
    if (v->surf == EGL_NO_SURFACE)
      st = jet__egl_error(egl, fn, "eglCreatePbufferSurface", NULL, "%dx%d pbuffer", desc->width,
                          desc->height);
  }
  if (st == JET_STATUS_OK && !egl->eglMakeCurrent(dpy, v->surf, v->surf, v->ctx))
    st = jet__egl_error(egl, fn, "eglMakeCurrent", NULL, NULL);
  if (st == JET_STATUS_OK && v->is_window && !egl->eglSwapInterval(dpy, desc->swap_interval))
    st = jet__egl_error(egl, fn, "eglSwapInterval", NULL, "swap interval %d",
                        desc->swap_interval);
  if (st == JET_STATUS_OK) {
    const GLubyte *r = v->gl->glGetString(GL_RENDERER);
    snprintf(v->renderer, sizeof v->renderer, "%s", r ? (const char *)r : "?");
    st = build_program(v, fn);
  }
  if (st == JET_STATUS_OK) {
    v->gl->glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    v->gl->glClear(GL_COLOR_BUFFER_BIT);
    st = jet__gl_check(v->gl, fn, "glClear");
  }
  if (st != JET_STATUS_OK) (void)jet__gl_view_destroy(v, fn); /* keeps the first detail */
  return st;
}

static int is_current(const jet__gl_view *v) {
  return v->egl->eglBindAPI(v->api) && v->egl->eglGetCurrentContext() == v->ctx;
}

jet_status jet__gl_view_make_current(jet__gl_view *v, const char *fn) {
  if (is_current(v)) return JET_STATUS_OK;
  if (!v->egl->eglMakeCurrent(v->dpy, v->surf, v->surf, v->ctx))
    return jet__egl_error(v->egl, fn, "eglMakeCurrent",
                          "a GL context is current on one thread at a time: release it on the "
                          "thread that used it last",
                          NULL);
  return JET_STATUS_OK;
}

jet_status jet__gl_view_destroy(jet__gl_view *v, const char *fn) {
  const jet__egl_api *egl = v->egl;
  jet_status st = JET_STATUS_OK;
  if (v->ctx != EGL_NO_CONTEXT) {
    int cur = is_current(v);
    if (!cur && (v->program || v->vao)) {
      /* A context current elsewhere cannot be made current here: its objects
       * go with the context when that thread lets it go. */
      if (egl->eglMakeCurrent(v->dpy, v->surf, v->surf, v->ctx))
        cur = 1;
      else
        st = jet__egl_error(egl, fn, "eglMakeCurrent", NULL, "releasing the GL objects");
    }
    if (cur) {
      if (v->program) v->gl->glDeleteProgram(v->program);
      if (v->vao) v->gl->glDeleteVertexArrays(1, &v->vao);
      while (v->gl && v->gl->glGetError() != GL_NO_ERROR) {
      }
      if (!egl->eglMakeCurrent(v->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) &&
          st == JET_STATUS_OK)
        st = jet__egl_error(egl, fn, "eglMakeCurrent", NULL, "releasing the context");
    }
    if (!egl->eglDestroyContext(v->dpy, v->ctx) && st == JET_STATUS_OK)
      st = jet__egl_error(egl, fn, "eglDestroyContext", NULL, NULL);
  }
  if (v->surf != EGL_NO_SURFACE && !egl->eglDestroySurface(v->dpy, v->surf) &&
      st == JET_STATUS_OK)
    st = jet__egl_error(egl, fn, "eglDestroySurface", NULL, NULL);
  v->ctx = EGL_NO_CONTEXT;
  v->surf = EGL_NO_SURFACE;
  v->program = v->vao = 0;
  return st;
}

jet_status jet__gl_view_size(const jet__gl_view *v, int *w, int *h, const char *fn) {
  EGLint ew = 0, eh = 0;
  if (!v->egl->eglQuerySurface(v->dpy, v->surf, EGL_WIDTH, &ew) ||
      !v->egl->eglQuerySurface(v->dpy, v->surf, EGL_HEIGHT, &eh))
    return jet__egl_error(v->egl, fn, "eglQuerySurface", NULL, "surface size");
  *w = (int)ew;
  *h = (int)eh;
  return JET_STATUS_OK;
}

jet_status jet__gl_view_draw(jet__gl_view *v, GLuint tex, jet__gl_draw_mode mode, int tex_w,
                             int tex_h, const char *fn) {
  const jet__gl_api *gl = v->gl;
  int w, h;
  JET__TRY(jet__gl_view_size(v, &w, &h, fn));
  /* The caller may have drawn with GL in between: reset what would change the result. */
  gl->glBindFramebuffer(GL_FRAMEBUFFER, 0);
  gl->glDisable(GL_BLEND);
  gl->glDisable(GL_DEPTH_TEST);
  gl->glDisable(GL_STENCIL_TEST);
  gl->glDisable(GL_SCISSOR_TEST);
  gl->glDisable(GL_CULL_FACE);
  gl->glDisable(GL_DITHER);
  gl->glViewport(0, 0, w, h);
  gl->glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
  gl->glClear(GL_COLOR_BUFFER_BIT);
  gl->glUseProgram(v->program);
  gl->glActiveTexture(GL_TEXTURE0);
  gl->glBindTexture(GL_TEXTURE_2D, tex);
  GLint filter = (tex_w == w && tex_h == h) ? GL_NEAREST : GL_LINEAR;
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  gl->glUniform1i(v->tex_loc, 0);
  gl->glUniform1i(v->mode_loc, (GLint)mode);
  gl->glBindVertexArray(v->vao);
  gl->glDrawArrays(GL_TRIANGLES, 0, 3);
  gl->glBindVertexArray(0);
  return jet__gl_check(gl, fn, "drawing the texture");
}

jet_status jet__gl_view_swap(jet__gl_view *v, const char *fn) {
  if (!v->is_window) {
    v->gl->glFlush();
    return jet__gl_check(v->gl, fn, "glFlush");
  }
  if (!v->egl->eglSwapBuffers(v->dpy, v->surf))
    return jet__egl_error(v->egl, fn, "eglSwapBuffers", NULL, NULL);
  return JET_STATUS_OK;
}

jet_status jet__gl_view_read(jet__gl_view *v, void *rgba, size_t pitch, const char *fn) {
  const jet__gl_api *gl = v->gl;
  int w, h;
  JET__TRY(jet__gl_view_size(v, &w, &h, fn));
  size_t row = (size_t)w * 4, total;
  if (!jet__mul_ok(row, (size_t)h, &total))
    return jet__error(JET_STATUS_OVERFLOW, fn, "surface %dx%d", w, h);
  unsigned char *tmp = malloc(total ? total : 1);
  if (!tmp) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for %zu bytes", total);
  GLint pack_buf = 0, pack_align = 4;
  gl->glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buf);
  gl->glGetIntegerv(GL_PACK_ALIGNMENT, &pack_align);
  gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  gl->glPixelStorei(GL_PACK_ALIGNMENT, 1);
  gl->glBindFramebuffer(GL_FRAMEBUFFER, 0);
  gl->glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, tmp);
  jet_status st = jet__gl_check(gl, fn, "glReadPixels");
  gl->glPixelStorei(GL_PACK_ALIGNMENT, pack_align);
  gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buf);
  if (st == JET_STATUS_OK)
    for (int y = 0; y < h; y++)
      memcpy((unsigned char *)rgba + (size_t)y * pitch, tmp + (size_t)(h - 1 - y) * row, row);
  free(tmp);
  return st;
}

jet_status jet__gl_texture_create(const jet__gl_api *gl, jet__gl_draw_mode mode, int w, int h,
                                  const void *pixels, GLuint *tex, const char *fn) {
  int gray = mode == JET__GL_DRAW_GRAY;
  GLint unpack_buf = 0, unpack_align = 4;
  GLuint t = 0;
  gl->glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack_buf);
  gl->glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack_align);
  gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  gl->glGenTextures(1, &t);
  gl->glBindTexture(GL_TEXTURE_2D, t);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  gl->glTexImage2D(GL_TEXTURE_2D, 0, gray ? GL_R8 : GL_RGBA8, w, h, 0, gray ? GL_RED : GL_RGBA,
                   GL_UNSIGNED_BYTE, pixels);
  jet_status st = jet__gl_check(gl, fn, gray ? "glTexImage2D (GL_R8)" : "glTexImage2D (GL_RGBA8)");
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, unpack_align);
  gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, (GLuint)unpack_buf);
  if (st != JET_STATUS_OK) {
    gl->glDeleteTextures(1, &t);
    return st;
  }
  *tex = t;
  return JET_STATUS_OK;
}

#endif /* JET_HAVE_EGL && JET_HAVE_GL */

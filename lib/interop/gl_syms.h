/*
 * The OpenGL entry points jetrt uses (the display helper, and tests that make
 * GL objects), one line each: JET__GL_SYM(name, return type, parameters).
 * Resolved from libOpenGL.so.0 (glvnd), else libGL.so.1, else through
 * eglGetProcAddress. Desktop GL 3.3 core and OpenGL ES 3.0 both have all of them.
 */
#ifndef JET_GL_SYMS_H
#define JET_GL_SYMS_H

#define JET__GL_SYMS(X)                                                                     \
  X(glGetError, GLenum, (void))                                                             \
  X(glGetString, const GLubyte *, (GLenum))                                                 \
  X(glGetIntegerv, void, (GLenum, GLint *))                                                 \
  X(glFinish, void, (void))                                                                 \
  X(glFlush, void, (void))                                                                  \
  X(glViewport, void, (GLint, GLint, GLsizei, GLsizei))                                     \
  X(glClearColor, void, (GLfloat, GLfloat, GLfloat, GLfloat))                               \
  X(glClear, void, (GLbitfield))                                                            \
  X(glDisable, void, (GLenum))                                                              \
  X(glPixelStorei, void, (GLenum, GLint))                                                   \
  X(glReadPixels, void, (GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *))           \
  X(glGenTextures, void, (GLsizei, GLuint *))                                               \
  X(glDeleteTextures, void, (GLsizei, const GLuint *))                                      \
  X(glBindTexture, void, (GLenum, GLuint))                                                  \
  X(glActiveTexture, void, (GLenum))                                                        \
  X(glTexParameteri, void, (GLenum, GLenum, GLint))                                         \
  X(glTexImage2D, void,                                                                     \
    (GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void *))          \
  X(glTexSubImage2D, void,                                                                  \
    (GLenum, GLint, GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, const void *))          \
  X(glGenBuffers, void, (GLsizei, GLuint *))                                                \
  X(glDeleteBuffers, void, (GLsizei, const GLuint *))                                       \
  X(glBindBuffer, void, (GLenum, GLuint))                                                   \
  X(glBufferData, void, (GLenum, GLsizeiptr, const void *, GLenum))                         \
  X(glBufferSubData, void, (GLenum, GLintptr, GLsizeiptr, const void *))                    \
  X(glMapBufferRange, void *, (GLenum, GLintptr, GLsizeiptr, GLbitfield))                   \
  X(glUnmapBuffer, GLboolean, (GLenum))                                                     \
  X(glGenRenderbuffers, void, (GLsizei, GLuint *))                                          \
  X(glDeleteRenderbuffers, void, (GLsizei, const GLuint *))                                 \
  X(glBindRenderbuffer, void, (GLenum, GLuint))                                             \
  X(glRenderbufferStorage, void, (GLenum, GLenum, GLsizei, GLsizei))                        \
  X(glGenFramebuffers, void, (GLsizei, GLuint *))                                           \
  X(glDeleteFramebuffers, void, (GLsizei, const GLuint *))                                  \
  X(glBindFramebuffer, void, (GLenum, GLuint))                                              \
  X(glFramebufferTexture2D, void, (GLenum, GLenum, GLenum, GLuint, GLint))                  \
  X(glFramebufferRenderbuffer, void, (GLenum, GLenum, GLenum, GLuint))                      \
  X(glCheckFramebufferStatus, GLenum, (GLenum))                                             \
  X(glCreateShader, GLuint, (GLenum))                                                       \
  X(glDeleteShader, void, (GLuint))                                                         \
  X(glShaderSource, void, (GLuint, GLsizei, const GLchar *const *, const GLint *))          \
  X(glCompileShader, void, (GLuint))                                                        \
  X(glGetShaderiv, void, (GLuint, GLenum, GLint *))                                         \
  X(glGetShaderInfoLog, void, (GLuint, GLsizei, GLsizei *, GLchar *))                       \
  X(glCreateProgram, GLuint, (void))                                                        \
  X(glDeleteProgram, void, (GLuint))                                                        \
  X(glAttachShader, void, (GLuint, GLuint))                                                 \
  X(glLinkProgram, void, (GLuint))                                                          \
  X(glGetProgramiv, void, (GLuint, GLenum, GLint *))                                        \
  X(glGetProgramInfoLog, void, (GLuint, GLsizei, GLsizei *, GLchar *))                      \
  X(glUseProgram, void, (GLuint))                                                           \
  X(glGetUniformLocation, GLint, (GLuint, const GLchar *))                                  \
  X(glUniform1i, void, (GLint, GLint))                                                      \
  X(glGenVertexArrays, void, (GLsizei, GLuint *))                                           \
  X(glDeleteVertexArrays, void, (GLsizei, const GLuint *))                                  \
  X(glBindVertexArray, void, (GLuint))                                                      \
  X(glDrawArrays, void, (GLenum, GLint, GLsizei))

#endif

/*
 * The log callback: jetrt's only output channel, off by default.
 */
#include <stdio.h>
#include <pthread.h>

#include "internal.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static jet_log_fn log_fn;
static void *log_user;
/* Read without the lock on every failure path, so it is atomic. */
static atomic_int log_min = JET_LOG_OFF;

jet_status jet_set_log_callback(jet_log_fn fn, void *user, jet_log_level min_level) {
  if ((int)min_level < JET_LOG_DEBUG || (int)min_level > JET_LOG_OFF)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__, "log level %d is outside 0..%d",
                      (int)min_level, JET_LOG_OFF);
  pthread_mutex_lock(&log_lock);
  log_fn = fn;
  log_user = user;
  atomic_store(&log_min, fn ? (int)min_level : JET_LOG_OFF);
  pthread_mutex_unlock(&log_lock);
  return JET_STATUS_OK;
}

int jet__log_enabled(jet_log_level level) { return (int)level >= atomic_load(&log_min); }

void jet__log(jet_log_level level, const char *fmt, ...) {
  if (!jet__log_enabled(level)) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* The lock keeps fn and user consistent with each other against a concurrent
   * jet_set_log_callback; callbacks therefore must not call jet_set_log_callback. */
  pthread_mutex_lock(&log_lock);
  if (log_fn && (int)level >= atomic_load(&log_min)) log_fn(level, msg, log_user);
  pthread_mutex_unlock(&log_lock);
}

/* The error model: names, strings, per-thread detail, log callback. */
#include <pthread.h>
#include <string.h>

#include "test.h"

TEST(status_names_cover_every_code) {
#define X(name, value, text)                                                  \
  CHECK(strcmp(jet_status_name(JET_STATUS_##name), "JET_STATUS_" #name) == 0); \
  CHECK(strcmp(jet_status_string(JET_STATUS_##name), text) == 0);
  JET_STATUS_MAP(X)
#undef X
  CHECK(strcmp(jet_status_name((jet_status)9999), "JET_STATUS_UNKNOWN") == 0);
  CHECK(strcmp(jet_status_string((jet_status)-1), "unknown status") == 0);
  return 0;
}

TEST(status_values_are_distinct) {
  int seen[64] = {0};
#define X(name, value, text) CHECK(value < 64 && !seen[value]); seen[value] = 1;
  JET_STATUS_MAP(X)
#undef X
  CHECK(JET_STATUS_OK == 0);
  return 0;
}

TEST(error_detail_set_on_failure_and_cleared) {
  jet_clear_error();
  CHECK(jet_last_error()->status == JET_STATUS_OK);
  CHECK(strcmp(jet_last_error_string(), "") == 0);
  CHECK_ST(jet_device_count(NULL), JET_STATUS_INVALID_ARGUMENT);
  const jet_error_info *e = jet_last_error();
  CHECK(e->status == JET_STATUS_INVALID_ARGUMENT);
  CHECK(strcmp(e->function, "jet_device_count") == 0);
  CHECK(strstr(e->message, "count") != NULL);
  CHECK(strstr(jet_last_error_string(), "jet_device_count") != NULL);
  jet_clear_error();
  CHECK(jet_last_error()->status == JET_STATUS_OK);
  return 0;
}

static void *other_thread(void *arg) {
  (void)arg;
  /* A fresh thread sees no error even though the main thread has one. */
  int clean = jet_last_error()->status == JET_STATUS_OK;
  jet_context_create(NULL, NULL);
  clean = clean && jet_last_error()->status == JET_STATUS_INVALID_ARGUMENT &&
          strcmp(jet_last_error()->function, "jet_context_create") == 0;
  return clean ? (void *)1 : NULL;
}

TEST(error_detail_is_per_thread) {
  CHECK_ST(jet_device_count(NULL), JET_STATUS_INVALID_ARGUMENT);
  pthread_t t;
  void *ok = NULL;
  CHECK(pthread_create(&t, NULL, other_thread, NULL) == 0);
  CHECK(pthread_join(t, &ok) == 0);
  CHECK(ok == (void *)1);
  CHECK(strcmp(jet_last_error()->function, "jet_device_count") == 0);
  return 0;
}

struct log_capture {
  int calls;
  jet_log_level level;
  char last[256];
};

static void capture(jet_log_level level, const char *msg, void *user) {
  struct log_capture *c = user;
  c->calls++;
  c->level = level;
  snprintf(c->last, sizeof c->last, "%s", msg);
}

TEST(log_callback_off_by_default_and_delivers_errors) {
  struct log_capture c = {0};
  CHECK_ST(jet_device_count(NULL), JET_STATUS_INVALID_ARGUMENT); /* nothing installed yet */
  CHECK_OK(jet_set_log_callback(capture, &c, JET_LOG_WARN));
  CHECK_ST(jet_device_count(NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(c.calls == 1);
  CHECK(c.level == JET_LOG_ERROR);
  CHECK(strstr(c.last, "jet_device_count") != NULL);
  CHECK_OK(jet_set_log_callback(capture, &c, JET_LOG_OFF));
  CHECK_ST(jet_device_count(NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(c.calls == 1);
  CHECK_OK(jet_set_log_callback(NULL, NULL, JET_LOG_DEBUG));
  CHECK_ST(jet_device_count(NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(c.calls == 1);
  return 0;
}

TEST(badarg_log_level_out_of_range) {
  CHECK_ST(jet_set_log_callback(capture, NULL, (jet_log_level)42), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_set_log_callback(capture, NULL, (jet_log_level)-1), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

TEST(version_matches_header) {
  CHECK(jet_version() == JET_VERSION_NUMBER);
  char buf[32];
  snprintf(buf, sizeof buf, "%d.%d.%d", JET_VERSION_MAJOR, JET_VERSION_MINOR, JET_VERSION_PATCH);
  CHECK(strcmp(jet_version_string(), buf) == 0);
  return 0;
}

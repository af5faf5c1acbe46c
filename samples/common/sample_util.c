/* Helpers of the benchmark samples (sample_util.h). */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sample_util.h"

double jet_sample_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int jet_sample_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int jet_sample_cuda_fail(const char *what, cudaError_t e, char *err, size_t n) {
  snprintf(err, n, "%s: %s", what, cudaGetErrorName(e));
  return -1;
}

int jet_sample_jet_fail(const char *what, jet_status s, char *err, size_t n) {
  snprintf(err, n, "%s: %s: %s", what, jet_status_name(s), jet_last_error_string());
  return -1;
}

void jet_sample_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

void jet_sample_default_json_path(const char *file, char *out, size_t n) {
  char self[1024];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) {
    snprintf(out, n, "%s", file);
    return;
  }
  self[len] = '\0';
  char *slash = strrchr(self, '/');
  if (slash) *slash = '\0';
  snprintf(out, n, "%s/%s", self, file);
}

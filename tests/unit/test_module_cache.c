/* The NVRTC disk cache format (host only): round trip, corruption, foreign
 * keys, truncation, the directory rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "internal.h"
#include "../../lib/module/module_int.h"

static int make_tmpdir(char *buf, size_t cap) {
  snprintf(buf, cap, "/tmp/jet-cache-test-XXXXXX");
  return mkdtemp(buf) != NULL;
}

static void rm_tree(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

static long file_size(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static int flip_byte(const char *path, long off) {
  FILE *f = fopen(path, "r+b");
  if (!f) return 0;
  int ok = fseek(f, off, SEEK_SET) == 0;
  int c = ok ? fgetc(f) : EOF;
  ok = ok && c != EOF && fseek(f, off, SEEK_SET) == 0 && fputc(c ^ 0x5a, f) != EOF;
  return fclose(f) == 0 && ok;
}

TEST(module_cache_roundtrip_and_integrity) {
  char dir[64], path[512];
  CHECK(make_tmpdir(dir, sizeof dir));
  jet__cache_key key = {0, 90, 13, 0};
  key.source_hash = jt_rand() | (uint64_t)jt_rand() << 32;
  size_t n = 1000 + jt_rand() % 5000;
  unsigned char *data = malloc(n);
  CHECK(data);
  jt_fill_random(data, n);
  /* a nested directory that does not exist yet is created */
  char sub[128];
  snprintf(sub, sizeof sub, "%s/a/b", dir);
  CHECK(jet__cache_path(sub, "pat/tern x", &key, path, sizeof path));
  CHECK(strstr(path, "/a/b/pat_tern_x-") != NULL);
  CHECK(strstr(path, "-sm_90-nvrtc13.0.cubin") != NULL);
  void *got = NULL;
  size_t got_n = 0;
  CHECK_ST(jet__cache_read(path, &key, &got, &got_n, "t"), JET_STATUS_IO_ERROR); /* missing */
  CHECK_OK(jet__cache_write(path, &key, data, n, "t"));
  CHECK(file_size(path) == (long)(64 + n));
  CHECK_OK(jet__cache_read(path, &key, &got, &got_n, "t"));
  CHECK(got_n == n && memcmp(got, data, n) == 0);
  free(got);

  /* no temporary file is left behind */
  char cmd[256];
  snprintf(cmd, sizeof cmd, "ls '%s/a/b' | grep -q tmp", dir);
  CHECK(system(cmd) != 0);

  /* every single corrupted byte is detected: header and payload */
  long offs[] = {0, 9, 13, 17, 25, 33, 41, 49, 57, 64, 64 + (long)(n / 2), 64 + (long)n - 1};
  for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
    CHECK_OK(jet__cache_write(path, &key, data, n, "t"));
    CHECK(flip_byte(path, offs[i]));
    jet_status st = jet__cache_read(path, &key, &got, &got_n, "t");
    CHECK_MSG(st == JET_STATUS_INVALID_STATE, "flip at %ld: %s", offs[i], jet_status_name(st));
    CHECK(got == NULL && got_n == 0);
    CHECK(strstr(jet_last_error()->message, "rejected") != NULL);
  }

  /* foreign keys: other source, SM or NVRTC version */
  CHECK_OK(jet__cache_write(path, &key, data, n, "t"));
  jet__cache_key other[4] = {key, key, key, key};
  other[0].source_hash ^= 1;
  other[1].sm = 87;
  other[2].nvrtc_major = 12;
  other[3].nvrtc_minor = 9;
  for (int i = 0; i < 4; i++) {
    CHECK_ST(jet__cache_read(path, &other[i], &got, &got_n, "t"), JET_STATUS_INVALID_STATE);
    CHECK(strstr(jet_last_error()->message, "another key") != NULL);
  }

  /* truncated: inside the header, inside the payload; and trailing bytes */
  CHECK(truncate(path, 40) == 0);
  CHECK_ST(jet__cache_read(path, &key, &got, &got_n, "t"), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "truncated header") != NULL);
  CHECK_OK(jet__cache_write(path, &key, data, n, "t"));
  CHECK(truncate(path, (off_t)(64 + n - 1)) == 0);
  CHECK_ST(jet__cache_read(path, &key, &got, &got_n, "t"), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "truncated payload") != NULL);
  CHECK_OK(jet__cache_write(path, &key, data, n, "t"));
  FILE *f = fopen(path, "ab");
  CHECK(f && fputc('x', f) != EOF && fclose(f) == 0);
  CHECK_ST(jet__cache_read(path, &key, &got, &got_n, "t"), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "trailing") != NULL);

  /* not a cache file at all */
  f = fopen(path, "wb");
  CHECK(f);
  for (int i = 0; i < 200; i++) fputc('A' + i % 26, f);
  CHECK(fclose(f) == 0);
  CHECK_ST(jet__cache_read(path, &key, &got, &got_n, "t"), JET_STATUS_INVALID_STATE);
  CHECK(strstr(jet_last_error()->message, "not a jetrt cache file") != NULL);

  /* a rewrite replaces a bad entry */
  CHECK_OK(jet__cache_write(path, &key, data, n, "t"));
  CHECK_OK(jet__cache_read(path, &key, &got, &got_n, "t"));
  CHECK(got_n == n && memcmp(got, data, n) == 0);
  free(got);
  free(data);
  rm_tree(dir);
  return 0;
}

TEST(module_cache_write_unwritable) {
  jet__cache_key key = {1, 90, 13, 0};
  unsigned char b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  /* a regular file where a directory should be */
  char dir[64], path[512];
  CHECK(make_tmpdir(dir, sizeof dir));
  char file[128];
  snprintf(file, sizeof file, "%s/file", dir);
  FILE *f = fopen(file, "w");
  CHECK(f && fclose(f) == 0);
  snprintf(path, sizeof path, "%s/file/sub/entry.cubin", dir);
  CHECK_ST(jet__cache_write(path, &key, b, sizeof b, "t"), JET_STATUS_IO_ERROR);
  CHECK(jet_last_error()->hint[0] != '\0');
  rm_tree(dir);
  return 0;
}

TEST(module_cache_dir_rules) {
  char buf[512];
  jet__cache_dir("/opt/x", 1, buf, sizeof buf);
  CHECK(strcmp(buf, "/opt/x") == 0);
  setenv("JET_CACHE_DIR", "/tmp/jc", 1);
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  setenv("HOME", "/tmp/home", 1);
  jet__cache_dir(NULL, 1, buf, sizeof buf);
  CHECK(strcmp(buf, "/tmp/jc") == 0);
  jet__cache_dir(NULL, 0, buf, sizeof buf);
  CHECK(strcmp(buf, "") == 0);
  unsetenv("JET_CACHE_DIR");
  jet__cache_dir(NULL, 1, buf, sizeof buf);
  CHECK(strcmp(buf, "/tmp/xdg/jetrt") == 0);
  setenv("XDG_CACHE_HOME", "relative", 1); /* the XDG spec says to ignore relative paths */
  jet__cache_dir(NULL, 1, buf, sizeof buf);
  CHECK(strcmp(buf, "/tmp/home/.cache/jetrt") == 0);
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  jet__cache_dir(NULL, 1, buf, sizeof buf);
  CHECK(strcmp(buf, "") == 0);
  return 0;
}

TEST(module_fnv1a64_known_values) {
  /* reference values of FNV-1a 64 */
  CHECK(jet__fnv1a64(JET__FNV_SEED, "", 0) == 0xcbf29ce484222325ULL);
  CHECK(jet__fnv1a64(JET__FNV_SEED, "a", 1) == 0xaf63dc4c8601ec8cULL);
  CHECK(jet__fnv1a64(JET__FNV_SEED, "foobar", 6) == 0x85944171f73967e8ULL);
  return 0;
}

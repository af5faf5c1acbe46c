/*
 * The NVRTC disk cache: one file per key, a fixed 64-byte little-endian header
 * followed by the cubin.
 *
 *   0 magic "JETKCACH"   8 u32 format   12 u32 sm   16 u64 source hash
 *  24 u32 nvrtc major   28 u32 nvrtc minor   32 u64 payload length
 *  40 u64 FNV-1a of the payload   48 u64 FNV-1a of bytes 0..47   56 zero
 *
 * A reader trusts nothing it has not verified: a wrong magic, header checksum,
 * key, length or payload checksum makes the entry a miss to be rebuilt.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "module_int.h"

#define HDR 64
#define FORMAT 1
static const char magic[8] = {'J', 'E', 'T', 'K', 'C', 'A', 'C', 'H'};

uint64_t jet__fnv1a64(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static void put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static uint64_t get64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

void jet__cache_dir(const char *opt_dir, int use_env, char *buf, size_t cap) {
  buf[0] = '\0';
  if (opt_dir && opt_dir[0]) {
    snprintf(buf, cap, "%s", opt_dir);
    return;
  }
  if (!use_env) return;
  const char *e = getenv("JET_CACHE_DIR");
  if (e && e[0]) {
    snprintf(buf, cap, "%s", e);
    return;
  }
  e = getenv("XDG_CACHE_HOME");
  if (e && e[0] == '/') {
    snprintf(buf, cap, "%s/jetrt", e);
    return;
  }
  e = getenv("HOME");
  if (e && e[0]) snprintf(buf, cap, "%s/.cache/jetrt", e);
}

int jet__cache_path(const char *dir, const char *name, const jet__cache_key *key, char *buf,
                    size_t cap) {
  char safe[48];
  size_t n = 0;
  for (const char *c = name; *c && n + 1 < sizeof safe; c++)
    safe[n++] = ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                 *c == '_' || *c == '-')
                    ? *c
                    : '_';
  safe[n] = '\0';
  int w = snprintf(buf, cap, "%s/%s-%016llx-sm_%d-nvrtc%d.%d.cubin", dir, safe,
                   (unsigned long long)key->source_hash, key->sm, key->nvrtc_major,
                   key->nvrtc_minor);
  return w > 0 && (size_t)w < cap;
}

static int mkdirs(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    int r = mkdir(path, 0700);
    *p = '/';
    if (r != 0 && errno != EEXIST) return -1;
  }
  return (mkdir(path, 0700) == 0 || errno == EEXIST) ? 0 : -1;
}

static int write_all(int fd, const void *data, size_t n) {
  const unsigned char *p = data;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

jet_status jet__cache_write(const char *path, const jet__cache_key *key, const void *data,
                            size_t size, const char *fn) {
  static atomic_uint counter;
  char dir[1024], tmp[1100];
  if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
    return jet__error(JET_STATUS_IO_ERROR, fn, "cache path too long: %s", path);
  char *slash = strrchr(dir, '/');
  if (slash && slash != dir) {
    *slash = '\0';
    if (mkdirs(dir) != 0)
      return jet__error_native(JET_STATUS_IO_ERROR, fn, "mkdir", strerror(errno), errno,
                               "set JET_CACHE_DIR to a writable directory",
                               "cannot create cache directory %s", dir);
  }
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(),
           atomic_fetch_add(&counter, 1u));
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "open", strerror(errno), errno,
                             "set JET_CACHE_DIR to a writable directory", "cannot create %s", tmp);
  unsigned char h[HDR];
  memset(h, 0, sizeof h);
  memcpy(h, magic, sizeof magic);
  put32(h + 8, FORMAT);
  put32(h + 12, (uint32_t)key->sm);
  put64(h + 16, key->source_hash);
  put32(h + 24, (uint32_t)key->nvrtc_major);
  put32(h + 28, (uint32_t)key->nvrtc_minor);
  put64(h + 32, (uint64_t)size);
  put64(h + 40, jet__fnv1a64(JET__FNV_SEED, data, size));
  put64(h + 48, jet__fnv1a64(JET__FNV_SEED, h, 48));
  int err = 0;
  if (write_all(fd, h, sizeof h) != 0 || write_all(fd, data, size) != 0 || fsync(fd) != 0)
    err = errno ? errno : EIO;
  if (close(fd) != 0 && !err) err = errno;
  if (!err && rename(tmp, path) != 0) err = errno;
  if (err) {
    unlink(tmp);
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "write", strerror(err), err, NULL,
                             "cannot write cache entry %s", path);
  }
  return JET_STATUS_OK;
}

static jet_status bad(const char *fn, const char *path, const char *why) {
  return jet__error(JET_STATUS_INVALID_STATE, fn, "cache entry %s rejected: %s", path, why);
}

jet_status jet__cache_read(const char *path, const jet__cache_key *key, void **data, size_t *size,
                           const char *fn) {
  *data = NULL;
  *size = 0;
  FILE *f = fopen(path, "rbe");
  if (!f)
    return jet__error_native(JET_STATUS_IO_ERROR, fn, "fopen", strerror(errno), errno, NULL,
                             "no cache entry %s", path);
  unsigned char h[HDR];
  if (fread(h, 1, sizeof h, f) != sizeof h) {
    fclose(f);
    return bad(fn, path, "truncated header");
  }
  jet_status st = JET_STATUS_OK;
  const char *why = NULL;
  uint64_t len = get64(h + 32);
  if (memcmp(h, magic, sizeof magic) != 0)
    why = "not a jetrt cache file";
  else if (get64(h + 48) != jet__fnv1a64(JET__FNV_SEED, h, 48) || get64(h + 56) != 0)
    why = "header checksum mismatch";
  else if (get32(h + 8) != FORMAT)
    why = "other cache format";
  else if (get32(h + 12) != (uint32_t)key->sm || get64(h + 16) != key->source_hash ||
           get32(h + 24) != (uint32_t)key->nvrtc_major ||
           get32(h + 28) != (uint32_t)key->nvrtc_minor)
    why = "written for another key (source, SM or NVRTC version)";
  else if (len == 0 || len > ((uint64_t)1 << 30))
    why = "implausible payload length";
  if (why) {
    fclose(f);
    return bad(fn, path, why);
  }
  unsigned char *p = malloc((size_t)len + 1);
  if (!p) {
    fclose(f);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no memory for a %llu-byte cache entry",
                      (unsigned long long)len);
  }
  /* Read one byte more than announced: a longer file is as wrong as a shorter one. */
  size_t got = fread(p, 1, (size_t)len + 1, f);
  fclose(f);
  if (got < len)
    st = bad(fn, path, "truncated payload");
  else if (got > len)
    st = bad(fn, path, "trailing bytes after the payload");
  else if (get64(h + 40) != jet__fnv1a64(JET__FNV_SEED, p, (size_t)len))
    st = bad(fn, path, "payload checksum mismatch");
  if (st != JET_STATUS_OK) {
    free(p);
    return st;
  }
  *data = p;
  *size = (size_t)len;
  return JET_STATUS_OK;
}

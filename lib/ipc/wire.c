/*
 * The frame ring's wire codec (wire.h). One validator per message serves both
 * directions, so an encoder never emits what a decoder refuses and everything
 * a decoder accepts re-encodes to the same bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wire.h"
#include "../image/image_internal.h"

/* ------------------------------------------------------------ byte packing */

static void put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const unsigned char *p) {
  return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}
static int32_t geti32(const unsigned char *p) {
  uint32_t v = get32(p);
  return v <= 0x7fffffffu ? (int32_t)v : -(int32_t)(~v) - 1;
}

/* The wire's sizes are u64 whatever size_t is, so these are not jet__mul_ok. */
static int mul64_ok(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

static int all_zero(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}

const char *jet__wire_type_name(unsigned type) {
  switch (type) {
    case JET__WIRE_HELLO: return "HELLO";
    case JET__WIRE_WELCOME: return "WELCOME";
    case JET__WIRE_FRAME: return "FRAME";
    case JET__WIRE_RELEASE: return "RELEASE";
    case JET__WIRE_BYE: return "BYE";
  }
  return "unknown";
}

/* Shared argument checks of the encoders and decoders. */
#define ENC_ARGS(m, buf, len, need, cap, name)                                                   \
  do {                                                                                           \
    if (len) *(len) = 0;                                                                         \
    JET__ARG((m) && (buf) && (len), "m, buf and len must not be NULL");                          \
    JET__ARG((cap) >= (need), "buffer of %zu bytes is too small: %s needs %zu", (size_t)(cap),   \
             name, (size_t)(need));                                                              \
  } while (0)

#define DEC_ARGS(buf, len, out, fn)                                                     \
  do {                                                                                  \
    if (!(fn)) (fn) = __func__;                                                         \
    if (!(out)) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "out is NULL");      \
    memset((out), 0, sizeof *(out));                                                    \
    if (!(buf) && (len))                                                                \
      return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "buf is NULL with len %zu", (size_t)(len)); \
  } while (0)

static jet_status bad(jet_status st, const char *fn, const char *msg_name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static jet_status bad(jet_status st, const char *fn, const char *msg_name, const char *fmt, ...) {
  char text[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  return jet__error(st, fn, "%s: %s", msg_name, text);
}

static jet_status check_len(size_t len, size_t want, const char *fn, const char *name) {
  if (len != want)
    return bad(JET_STATUS_PROTOCOL_ERROR, fn, name, "payload is %zu bytes, expected exactly %zu",
               len, want);
  return JET_STATUS_OK;
}

static jet_status check_nfds(int nfds, int want, const char *fn, const char *name) {
  if (nfds != want)
    return bad(JET_STATUS_PROTOCOL_ERROR, fn, name, "came with %d descriptors, expected %d", nfds,
               want);
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ HELLO */

/* @padded: also require the bytes after the terminator to be 0 (decoding). */
static jet_status check_hello(const jet__wire_hello *m, int padded, jet_status st,
                              const char *fn) {
  const char *N = "HELLO";
  if (m->ring_version != JET__WIRE_RING_VERSION)
    return bad(st, fn, N, "ring_version is %u, this build speaks %d", m->ring_version,
               JET__WIRE_RING_VERSION);
  if (m->policy != JET__WIRE_POLICY_DROP_OLDEST && m->policy != JET__WIRE_POLICY_LOSSLESS)
    return bad(st, fn, N, "policy %u is neither 0 (drop-oldest) nor 1 (lossless)", m->policy);
  if (m->queue_depth < 1 || m->queue_depth > JET__WIRE_MAX_QUEUE)
    return bad(st, fn, N, "queue_depth %u is outside 1..%d", m->queue_depth, JET__WIRE_MAX_QUEUE);
  if (m->pid < 1 || m->pid > 0x7fffffffu)
    return bad(st, fn, N, "pid %u is not a process id", m->pid);
  size_t n = 0;
  while (n < JET__WIRE_NAME_LEN && m->name[n]) n++;
  if (n == JET__WIRE_NAME_LEN)
    return bad(st, fn, N, "name has no terminating NUL within its %d bytes",
               JET__WIRE_NAME_LEN);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)m->name[i];
    if (c < 0x20 || c > 0x7e)
      return bad(st, fn, N, "name byte %zu is 0x%02x, not printable ASCII", i, c);
  }
  if (padded && !all_zero((const unsigned char *)m->name + n, JET__WIRE_NAME_LEN - n))
    return bad(st, fn, N, "name is not NUL-padded after its terminator at byte %zu", n);
  return JET_STATUS_OK;
}

jet_status jet__wire_encode_hello(const jet__wire_hello *m, unsigned char *buf, size_t cap,
                                  size_t *len) {
  ENC_ARGS(m, buf, len, JET__WIRE_HELLO_SIZE, cap, "HELLO");
  JET__TRY(check_hello(m, 0, JET_STATUS_INVALID_ARGUMENT, __func__));
  put32(buf, m->ring_version);
  put32(buf + 4, m->policy);
  put32(buf + 8, m->queue_depth);
  put32(buf + 12, m->pid);
  size_t n = strlen(m->name); /* terminated: checked above */
  memcpy(buf + 16, m->name, n);
  memset(buf + 16 + n, 0, JET__WIRE_NAME_LEN - n);
  *len = JET__WIRE_HELLO_SIZE;
  return JET_STATUS_OK;
}

jet_status jet__wire_decode_hello(const unsigned char *buf, size_t len, int nfds,
                                  jet__wire_hello *out, const char *fn) {
  DEC_ARGS(buf, len, out, fn);
  JET__TRY(check_len(len, JET__WIRE_HELLO_SIZE, fn, "HELLO"));
  jet__wire_hello m;
  m.ring_version = get32(buf);
  m.policy = get32(buf + 4);
  m.queue_depth = get32(buf + 8);
  m.pid = get32(buf + 12);
  memcpy(m.name, buf + 16, JET__WIRE_NAME_LEN);
  JET__TRY(check_hello(&m, 1, JET_STATUS_PROTOCOL_ERROR, fn));
  JET__TRY(check_nfds(nfds, 0, fn, "HELLO"));
  *out = m;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ WELCOME */

int jet__wire_welcome_nfds(uint32_t mechanism, uint32_t slot_count) {
  if (slot_count < 1 || slot_count > JET__WIRE_MAX_SLOTS) return -1;
  if (mechanism == JET__WIRE_MECH_VMM_FD) return 1 + (int)slot_count;
  if (mechanism == JET__WIRE_MECH_LEGACY_IPC) return 1;
  return -1;
}

static jet_status check_image(const jet__wire_welcome *m, jet_status st, const char *fn) {
  const char *N = "WELCOME";
  const jet_format_desc *d = jet__format((jet_format)m->image.format);
  if (!d) return bad(st, fn, N, "image format %d is not a known jet_format", m->image.format);
  if (m->image.width <= 0 || m->image.height <= 0)
    return bad(st, fn, N, "image size %dx%d is not positive", m->image.width, m->image.height);
  if (m->image.plane_count != (uint32_t)d->planes)
    return bad(st, fn, N, "image plane_count is %u, format %s has %d", m->image.plane_count,
               d->name, d->planes);
  for (uint32_t i = 0; i < JET_IMAGE_MAX_PLANES; i++) {
    uint64_t off = m->image.offset[i], pitch = m->image.pitch[i];
    if (i >= m->image.plane_count) {
      if (off || pitch)
        return bad(st, fn, N, "unused plane %u has offset %llu and pitch %llu, both must be 0",
                   i, (unsigned long long)off, (unsigned long long)pitch);
      continue;
    }
    if (off >= m->alloc_size)
      return bad(st, fn, N, "plane %u offset %llu is not below alloc_size %llu", i,
                 (unsigned long long)off, (unsigned long long)m->alloc_size);
    if (pitch == 0 || pitch > m->alloc_size)
      return bad(st, fn, N, "plane %u pitch %llu is outside 1..alloc_size (%llu)", i,
                 (unsigned long long)pitch, (unsigned long long)m->alloc_size);
  }
  if (m->buffer.width_bytes || m->buffer.height || m->buffer.depth || m->buffer.pitch)
    return bad(st, fn, N, "object is an image but the buffer fields are not all 0");
  return JET_STATUS_OK;
}

static jet_status check_buffer(const jet__wire_welcome *m, jet_status st, const char *fn) {
  const char *N = "WELCOME";
  if (m->image.format || m->image.width || m->image.height || m->image.plane_count)
    return bad(st, fn, N, "object is a buffer but image format/width/height/plane_count are "
                          "%d/%d/%d/%u, not 0",
               m->image.format, m->image.width, m->image.height, m->image.plane_count);
  for (int i = 0; i < JET_IMAGE_MAX_PLANES; i++)
    if (m->image.offset[i] || m->image.pitch[i])
      return bad(st, fn, N, "object is a buffer but image plane %d offset/pitch are not 0", i);
  uint64_t w = m->buffer.width_bytes, h = m->buffer.height, dp = m->buffer.depth,
           p = m->buffer.pitch, rows, total;
  if (w == 0) return bad(st, fn, N, "buffer width_bytes is 0");
  if (p < w)
    return bad(st, fn, N, "buffer pitch %llu is less than width_bytes %llu",
               (unsigned long long)p, (unsigned long long)w);
  if (h == 0 || dp == 0)
    return bad(st, fn, N, "buffer height %llu and depth %llu must both be >= 1",
               (unsigned long long)h, (unsigned long long)dp);
  if (!mul64_ok(p, h, &rows) || !mul64_ok(rows, dp, &total))
    return bad(st, fn, N, "buffer pitch %llu * height %llu * depth %llu overflows",
               (unsigned long long)p, (unsigned long long)h, (unsigned long long)dp);
  if (total > m->alloc_size)
    return bad(st, fn, N,
               "buffer pitch %llu * height %llu * depth %llu = %llu exceeds alloc_size %llu",
               (unsigned long long)p, (unsigned long long)h, (unsigned long long)dp,
               (unsigned long long)total, (unsigned long long)m->alloc_size);
  return JET_STATUS_OK;
}

static jet_status check_welcome(const jet__wire_welcome *m, jet_status st, const char *fn) {
  const char *N = "WELCOME";
  if (m->ring_version != JET__WIRE_RING_VERSION)
    return bad(st, fn, N, "ring_version is %u, this build speaks %d", m->ring_version,
               JET__WIRE_RING_VERSION);
  if (m->consumer_index >= JET__WIRE_MAX_CONSUMERS)
    return bad(st, fn, N, "consumer_index %u is not below %d", m->consumer_index,
               JET__WIRE_MAX_CONSUMERS);
  if (m->slot_count < 1 || m->slot_count > JET__WIRE_MAX_SLOTS)
    return bad(st, fn, N, "slot_count %u is outside 1..%d", m->slot_count, JET__WIRE_MAX_SLOTS);
  if (m->mechanism != JET__WIRE_MECH_VMM_FD && m->mechanism != JET__WIRE_MECH_LEGACY_IPC)
    return bad(st, fn, N, "mechanism %u is neither 1 (VMM descriptor) nor 2 (legacy IPC)",
               m->mechanism);
  if (m->object != JET__WIRE_OBJECT_BUFFER && m->object != JET__WIRE_OBJECT_IMAGE)
    return bad(st, fn, N, "object %u is neither 1 (buffer) nor 2 (image)", m->object);
  if (m->user_bytes_max > JET__WIRE_USER_MAX)
    return bad(st, fn, N, "user_bytes_max %u exceeds %d", m->user_bytes_max, JET__WIRE_USER_MAX);
  if (m->alloc_size == 0 || m->alloc_size % JET__WIRE_PAGE)
    return bad(st, fn, N, "alloc_size %llu is not a positive multiple of %d",
               (unsigned long long)m->alloc_size, JET__WIRE_PAGE);
  if (m->data_size == 0 || m->data_size > m->alloc_size)
    return bad(st, fn, N, "data_size %llu is outside 1..alloc_size (%llu)",
               (unsigned long long)m->data_size, (unsigned long long)m->alloc_size);
  if (m->object == JET__WIRE_OBJECT_IMAGE)
    JET__TRY(check_image(m, st, fn));
  else
    JET__TRY(check_buffer(m, st, fn));
  if (m->control_size < JET__WIRE_CONTROL_MIN || m->control_size > JET__WIRE_CONTROL_MAX)
    return bad(st, fn, N, "control_size %llu is outside %d..%d",
               (unsigned long long)m->control_size, JET__WIRE_CONTROL_MIN,
               JET__WIRE_CONTROL_MAX);
  if (m->mechanism == JET__WIRE_MECH_VMM_FD)
    for (uint32_t i = 0; i < m->slot_count; i++)
      if (!all_zero(m->slot[i].mem_handle, JET__WIRE_HANDLE_LEN))
        return bad(st, fn, N, "slot %u has a mem_handle, which must be all zero with VMM", i);
  return JET_STATUS_OK;
}

jet_status jet__wire_encode_welcome(const jet__wire_welcome *m, unsigned char *buf, size_t cap,
                                    size_t *len) {
  if (len) *len = 0;
  JET__ARG(m && buf && len, "m, buf and len must not be NULL");
  JET__TRY(check_welcome(m, JET_STATUS_INVALID_ARGUMENT, __func__));
  size_t need = JET__WIRE_WELCOME_FIXED + (size_t)m->slot_count * JET__WIRE_WELCOME_SLOT;
  JET__ARG(cap >= need, "buffer of %zu bytes is too small: WELCOME needs %zu", cap, need);
  put32(buf, m->ring_version);
  put32(buf + 4, m->consumer_index);
  put32(buf + 8, m->slot_count);
  put32(buf + 12, m->mechanism);
  put32(buf + 16, m->object);
  put32(buf + 20, m->user_bytes_max);
  put64(buf + 24, m->alloc_size);
  put64(buf + 32, m->data_size);
  put32(buf + 40, (uint32_t)m->image.format);
  put32(buf + 44, (uint32_t)m->image.width);
  put32(buf + 48, (uint32_t)m->image.height);
  put32(buf + 52, m->image.plane_count);
  for (int i = 0; i < 3; i++) {
    put64(buf + 56 + 8 * i, m->image.offset[i]);
    put64(buf + 80 + 8 * i, m->image.pitch[i]);
  }
  put64(buf + 104, m->buffer.width_bytes);
  put64(buf + 112, m->buffer.height);
  put64(buf + 120, m->buffer.depth);
  put64(buf + 128, m->buffer.pitch);
  put64(buf + 136, m->control_size);
  memcpy(buf + 144, m->device_uuid, 16);
  for (uint32_t i = 0; i < m->slot_count; i++) {
    unsigned char *s = buf + JET__WIRE_WELCOME_FIXED + (size_t)i * JET__WIRE_WELCOME_SLOT;
    memcpy(s, m->slot[i].event_handle, JET__WIRE_HANDLE_LEN);
    memcpy(s + JET__WIRE_HANDLE_LEN, m->slot[i].mem_handle, JET__WIRE_HANDLE_LEN);
  }
  *len = need;
  return JET_STATUS_OK;
}

jet_status jet__wire_decode_welcome(const unsigned char *buf, size_t len, int nfds,
                                    jet__wire_welcome *out, const char *fn) {
  DEC_ARGS(buf, len, out, fn);
  const char *N = "WELCOME";
  if (len < JET__WIRE_WELCOME_FIXED)
    return bad(JET_STATUS_PROTOCOL_ERROR, fn, N,
               "payload is %zu bytes, shorter than the fixed part (%d)", len,
               JET__WIRE_WELCOME_FIXED);
  uint32_t slots = get32(buf + 8);
  if (slots < 1 || slots > JET__WIRE_MAX_SLOTS)
    return bad(JET_STATUS_PROTOCOL_ERROR, fn, N, "slot_count %u is outside 1..%d", slots,
               JET__WIRE_MAX_SLOTS);
  JET__TRY(check_len(len, JET__WIRE_WELCOME_FIXED + (size_t)slots * JET__WIRE_WELCOME_SLOT, fn,
                     N));
  jet__wire_welcome *m = out; /* zeroed by DEC_ARGS; cleared again on failure */
  m->ring_version = get32(buf);
  m->consumer_index = get32(buf + 4);
  m->slot_count = slots;
  m->mechanism = get32(buf + 12);
  m->object = get32(buf + 16);
  m->user_bytes_max = get32(buf + 20);
  m->alloc_size = get64(buf + 24);
  m->data_size = get64(buf + 32);
  m->image.format = geti32(buf + 40);
  m->image.width = geti32(buf + 44);
  m->image.height = geti32(buf + 48);
  m->image.plane_count = get32(buf + 52);
  for (int i = 0; i < 3; i++) {
    m->image.offset[i] = get64(buf + 56 + 8 * i);
    m->image.pitch[i] = get64(buf + 80 + 8 * i);
  }
  m->buffer.width_bytes = get64(buf + 104);
  m->buffer.height = get64(buf + 112);
  m->buffer.depth = get64(buf + 120);
  m->buffer.pitch = get64(buf + 128);
  m->control_size = get64(buf + 136);
  memcpy(m->device_uuid, buf + 144, 16);
  for (uint32_t i = 0; i < slots; i++) {
    const unsigned char *s = buf + JET__WIRE_WELCOME_FIXED + (size_t)i * JET__WIRE_WELCOME_SLOT;
    memcpy(m->slot[i].event_handle, s, JET__WIRE_HANDLE_LEN);
    memcpy(m->slot[i].mem_handle, s + JET__WIRE_HANDLE_LEN, JET__WIRE_HANDLE_LEN);
  }
  jet_status st = check_welcome(m, JET_STATUS_PROTOCOL_ERROR, fn);
  if (st == JET_STATUS_OK)
    st = check_nfds(nfds, jet__wire_welcome_nfds(m->mechanism, slots), fn, N);
  if (st != JET_STATUS_OK) memset(m, 0, sizeof *m);
  return st;
}

/* ------------------------------------------------------------ FRAME */

static jet_status check_frame(const jet__wire_frame *m, uint32_t slot_count, uint32_t user_max,
                              jet_status st, const char *fn) {
  if (m->user_len > user_max)
    return bad(st, fn, "FRAME", "user_len %u exceeds %u", m->user_len, user_max);
  if (m->slot >= slot_count)
    return bad(st, fn, "FRAME", "slot %u is not below slot_count %u", m->slot, slot_count);
  return JET_STATUS_OK;
}

jet_status jet__wire_encode_frame(const jet__wire_frame *m, unsigned char *buf, size_t cap,
                                  size_t *len) {
  if (len) *len = 0;
  JET__ARG(m && buf && len, "m, buf and len must not be NULL");
  JET__TRY(check_frame(m, JET__WIRE_MAX_SLOTS, JET__WIRE_USER_MAX, JET_STATUS_INVALID_ARGUMENT,
                       __func__));
  size_t need = JET__WIRE_FRAME_FIXED + (size_t)m->user_len;
  JET__ARG(cap >= need, "buffer of %zu bytes is too small: FRAME needs %zu", cap, need);
  put32(buf, m->slot);
  put32(buf + 4, m->user_len);
  put64(buf + 8, m->seq);
  put64(buf + 16, m->timestamp_ns);
  memcpy(buf + JET__WIRE_FRAME_FIXED, m->user, m->user_len);
  *len = need;
  return JET_STATUS_OK;
}

jet_status jet__wire_decode_frame(const unsigned char *buf, size_t len, int nfds,
                                  uint32_t slot_count, uint32_t user_max, jet__wire_frame *out,
                                  const char *fn) {
  DEC_ARGS(buf, len, out, fn);
  if (slot_count < 1 || slot_count > JET__WIRE_MAX_SLOTS || user_max > JET__WIRE_USER_MAX)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "FRAME decode: slot_count %u must be 1..%d and user_max %u <= %d",
                      slot_count, JET__WIRE_MAX_SLOTS, user_max, JET__WIRE_USER_MAX);
  if (len < JET__WIRE_FRAME_FIXED)
    return bad(JET_STATUS_PROTOCOL_ERROR, fn, "FRAME",
               "payload is %zu bytes, shorter than the fixed part (%d)", len,
               JET__WIRE_FRAME_FIXED);
  jet__wire_frame m;
  m.slot = get32(buf);
  m.user_len = get32(buf + 4);
  m.seq = get64(buf + 8);
  m.timestamp_ns = get64(buf + 16);
  JET__TRY(check_frame(&m, slot_count, user_max, JET_STATUS_PROTOCOL_ERROR, fn));
  JET__TRY(check_len(len, JET__WIRE_FRAME_FIXED + (size_t)m.user_len, fn, "FRAME"));
  JET__TRY(check_nfds(nfds, 0, fn, "FRAME"));
  out->slot = m.slot;
  out->user_len = m.user_len;
  out->seq = m.seq;
  out->timestamp_ns = m.timestamp_ns;
  memcpy(out->user, buf + JET__WIRE_FRAME_FIXED, m.user_len);
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ RELEASE */

jet_status jet__wire_encode_release(const jet__wire_release *m, unsigned char *buf, size_t cap,
                                    size_t *len) {
  ENC_ARGS(m, buf, len, JET__WIRE_RELEASE_SIZE, cap, "RELEASE");
  JET__ARG(m->slot < JET__WIRE_MAX_SLOTS, "RELEASE: slot %u is not below %d", m->slot,
           JET__WIRE_MAX_SLOTS);
  put32(buf, m->slot);
  put32(buf + 4, 0);
  put64(buf + 8, m->seq);
  *len = JET__WIRE_RELEASE_SIZE;
  return JET_STATUS_OK;
}

jet_status jet__wire_decode_release(const unsigned char *buf, size_t len, int nfds,
                                    uint32_t slot_count, jet__wire_release *out, const char *fn) {
  DEC_ARGS(buf, len, out, fn);
  if (slot_count < 1 || slot_count > JET__WIRE_MAX_SLOTS)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "RELEASE decode: slot_count %u must be 1..%d", slot_count,
                      JET__WIRE_MAX_SLOTS);
  JET__TRY(check_len(len, JET__WIRE_RELEASE_SIZE, fn, "RELEASE"));
  uint32_t slot = get32(buf), reserved = get32(buf + 4);
  if (reserved)
    return bad(JET_STATUS_PROTOCOL_ERROR, fn, "RELEASE", "reserved is 0x%08x, must be 0",
               reserved);
  if (slot >= slot_count)
    return bad(JET_STATUS_PROTOCOL_ERROR, fn, "RELEASE", "slot %u is not below slot_count %u",
               slot, slot_count);
  JET__TRY(check_nfds(nfds, 0, fn, "RELEASE"));
  out->slot = slot;
  out->seq = get64(buf + 8);
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ BYE */

static jet_status check_bye(uint32_t reason, jet_status st, const char *fn) {
  if (reason != JET__WIRE_BYE_NORMAL && reason != JET__WIRE_BYE_ERROR)
    return bad(st, fn, "BYE", "reason %u is neither 0 (normal) nor 1 (error)", reason);
  return JET_STATUS_OK;
}

jet_status jet__wire_encode_bye(const jet__wire_bye *m, unsigned char *buf, size_t cap,
                                size_t *len) {
  ENC_ARGS(m, buf, len, JET__WIRE_BYE_SIZE, cap, "BYE");
  JET__TRY(check_bye(m->reason, JET_STATUS_INVALID_ARGUMENT, __func__));
  put32(buf, m->reason);
  *len = JET__WIRE_BYE_SIZE;
  return JET_STATUS_OK;
}

jet_status jet__wire_decode_bye(const unsigned char *buf, size_t len, int nfds,
                                jet__wire_bye *out, const char *fn) {
  DEC_ARGS(buf, len, out, fn);
  JET__TRY(check_len(len, JET__WIRE_BYE_SIZE, fn, "BYE"));
  uint32_t reason = get32(buf);
  JET__TRY(check_bye(reason, JET_STATUS_PROTOCOL_ERROR, fn));
  JET__TRY(check_nfds(nfds, 0, fn, "BYE"));
  out->reason = reason;
  return JET_STATUS_OK;
}

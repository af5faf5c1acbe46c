/* The frame ring's wire codec (lib/ipc/wire.h) and the channel's record
 * header (jet__chan_header_parse): round trips of fresh random messages every
 * run, the byte layout against an independent packer written from the
 * documented offsets, and every malformation the decoders must refuse. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "wire.h"
#include "channel_internal.h"

/* ------------------------------------------------------------ helpers */

#define CHECK_PROTO(expr, needle)                                                        \
  do {                                                                                   \
    CHECK_ST(expr, JET_STATUS_PROTOCOL_ERROR);                                           \
    CHECK_MSG(strstr(jet_last_error()->message, needle) != NULL,                         \
              "message \"%s\" lacks \"%s\"", jet_last_error()->message, needle);          \
  } while (0)

static void p32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void p64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint64_t rand64(void) { return (uint64_t)jt_rand() << 32 | jt_rand(); }
static uint64_t rand_upto(uint64_t n) { return n ? rand64() % n : 0; } /* 0..n-1 */

/* An independent packer from the offsets documented in wire.h. */
static size_t pack_welcome(const jet__wire_welcome *m, unsigned char *b) {
  p32(b, m->ring_version);
  p32(b + 4, m->consumer_index);
  p32(b + 8, m->slot_count);
  p32(b + 12, m->mechanism);
  p32(b + 16, m->object);
  p32(b + 20, m->user_bytes_max);
  p64(b + 24, m->alloc_size);
  p64(b + 32, m->data_size);
  p32(b + 40, (uint32_t)m->image.format);
  p32(b + 44, (uint32_t)m->image.width);
  p32(b + 48, (uint32_t)m->image.height);
  p32(b + 52, m->image.plane_count);
  for (int i = 0; i < 3; i++) p64(b + 56 + 8 * i, m->image.offset[i]);
  for (int i = 0; i < 3; i++) p64(b + 80 + 8 * i, m->image.pitch[i]);
  p64(b + 104, m->buffer.width_bytes);
  p64(b + 112, m->buffer.height);
  p64(b + 120, m->buffer.depth);
  p64(b + 128, m->buffer.pitch);
  p64(b + 136, m->control_size);
  memcpy(b + 144, m->device_uuid, 16);
  uint32_t n = m->slot_count <= 32 ? m->slot_count : 32;
  for (uint32_t i = 0; i < n; i++) {
    memcpy(b + 160 + 128 * i, m->slot[i].event_handle, 64);
    memcpy(b + 160 + 128 * i + 64, m->slot[i].mem_handle, 64);
  }
  return 160 + 128 * (size_t)n;
}

static void rand_hello(jet__wire_hello *m) {
  memset(m, 0, sizeof *m);
  m->ring_version = 1;
  m->policy = jt_rand() % 2;
  m->queue_depth = 1 + jt_rand() % 64;
  m->pid = 1 + jt_rand() % 0x7fffffffu;
  int n = (int)(jt_rand() % 32);
  for (int i = 0; i < n; i++) m->name[i] = (char)(0x20 + jt_rand() % 95);
}

static void rand_welcome(jet__wire_welcome *m) {
  memset(m, 0, sizeof *m);
  m->ring_version = 1;
  m->consumer_index = jt_rand() % 64;
  m->slot_count = 1 + jt_rand() % 32;
  m->mechanism = 1 + jt_rand() % 2;
  m->object = 1 + jt_rand() % 2;
  m->user_bytes_max = jt_rand() % 257;
  m->alloc_size = 4096 * (1 + rand_upto(1u << 20));
  m->data_size = 1 + rand_upto(m->alloc_size);
  m->control_size = 64 + rand_upto((1u << 20) - 63);
  jt_fill_random(m->device_uuid, sizeof m->device_uuid);
  if (m->object == JET__WIRE_OBJECT_IMAGE) {
    m->image.format = 1 + (int32_t)(jt_rand() % (JET_FORMAT_COUNT_ - 1));
    jet_format_desc d;
    jet_format_info((jet_format)m->image.format, &d);
    m->image.width = 1 + (int32_t)(jt_rand() % 0x7fffffff);
    m->image.height = 1 + (int32_t)(jt_rand() % 8192);
    m->image.plane_count = (uint32_t)d.planes;
    for (int i = 0; i < d.planes; i++) {
      m->image.offset[i] = rand_upto(m->alloc_size);
      m->image.pitch[i] = 1 + rand_upto(m->alloc_size);
    }
  } else {
    uint64_t a = m->alloc_size;
    m->buffer.width_bytes = 1 + rand_upto(a);
    m->buffer.pitch = m->buffer.width_bytes + rand_upto(a - m->buffer.width_bytes + 1);
    m->buffer.height = 1 + rand_upto(a / m->buffer.pitch);
    m->buffer.depth = 1 + rand_upto(a / (m->buffer.pitch * m->buffer.height));
  }
  for (uint32_t i = 0; i < m->slot_count; i++) {
    jt_fill_random(m->slot[i].event_handle, 64);
    if (m->mechanism == JET__WIRE_MECH_LEGACY_IPC) jt_fill_random(m->slot[i].mem_handle, 64);
  }
}

/* A fixed, valid WELCOME of each object kind for the malformation tests. */
static void base_image(jet__wire_welcome *m) {
  memset(m, 0, sizeof *m);
  m->ring_version = 1;
  m->consumer_index = 3;
  m->slot_count = 4;
  m->mechanism = JET__WIRE_MECH_VMM_FD;
  m->object = JET__WIRE_OBJECT_IMAGE;
  m->user_bytes_max = 64;
  m->alloc_size = 1 << 22;
  m->data_size = 1920 * 1080 * 3 / 2;
  m->image.format = JET_FORMAT_NV12;
  m->image.width = 1920;
  m->image.height = 1080;
  m->image.plane_count = 2;
  m->image.offset[1] = 2048 * 1080;
  m->image.pitch[0] = m->image.pitch[1] = 2048;
  m->control_size = 4096;
  for (int i = 0; i < 4; i++) memset(m->slot[i].event_handle, 0xa0 + i, 64);
}

static void base_buffer(jet__wire_welcome *m) {
  base_image(m);
  memset(&m->image, 0, sizeof m->image);
  m->object = JET__WIRE_OBJECT_BUFFER;
  m->mechanism = JET__WIRE_MECH_LEGACY_IPC;
  m->buffer.width_bytes = 1000;
  m->buffer.pitch = 1024;
  m->buffer.height = 64;
  m->buffer.depth = 2;
  for (int i = 0; i < 4; i++) memset(m->slot[i].mem_handle, 0x50 + i, 64);
}

static jet_status decode_packed(const jet__wire_welcome *m, int nfds) {
  static unsigned char b[JET__WIRE_WELCOME_MAX];
  jet__wire_welcome out;
  size_t n = pack_welcome(m, b);
  return jet__wire_decode_welcome(b, n, nfds, &out, "test");
}

static int welcome_nfds(const jet__wire_welcome *m) {
  return jet__wire_welcome_nfds(m->mechanism, m->slot_count);
}

/* ------------------------------------------------------------ round trips */

TEST(ipc_wire_hello_round_trip_random) {
  for (int it = 0; it < 2000; it++) {
    jet__wire_hello m, d;
    rand_hello(&m);
    unsigned char b[64], b2[64];
    size_t n = 0, n2 = 0;
    CHECK_OK(jet__wire_encode_hello(&m, b, sizeof b, &n));
    CHECK(n == JET__WIRE_HELLO_SIZE);
    CHECK_OK(jet__wire_decode_hello(b, n, 0, &d, "test"));
    CHECK(memcmp(&m, &d, sizeof m) == 0);
    CHECK_OK(jet__wire_encode_hello(&d, b2, sizeof b2, &n2));
    CHECK(n2 == n && memcmp(b, b2, n) == 0);
  }
  return 0;
}

TEST(ipc_wire_welcome_round_trip_random) {
  static unsigned char b[JET__WIRE_WELCOME_MAX], b2[JET__WIRE_WELCOME_MAX];
  for (int it = 0; it < 2000; it++) {
    jet__wire_welcome m, d;
    rand_welcome(&m);
    size_t n = 0, n2;
    jet_status st = jet__wire_encode_welcome(&m, b, sizeof b, &n);
    CHECK_MSG(st == JET_STATUS_OK, "%s", jet_last_error_string());
    CHECK(n == 160 + 128 * (size_t)m.slot_count);
    n2 = pack_welcome(&m, b2);
    CHECK(n2 == n && memcmp(b, b2, n) == 0); /* the documented offsets */
    st = jet__wire_decode_welcome(b, n, welcome_nfds(&m), &d, "test");
    CHECK_MSG(st == JET_STATUS_OK, "%s", jet_last_error_string());
    CHECK(memcmp(&m, &d, sizeof m) == 0);
    CHECK_OK(jet__wire_encode_welcome(&d, b2, sizeof b2, &n2));
    CHECK(n2 == n && memcmp(b, b2, n) == 0);
  }
  return 0;
}

TEST(ipc_wire_frame_release_bye_round_trip_random) {
  for (int it = 0; it < 2000; it++) {
    uint32_t slots = 1 + jt_rand() % 32, umax = jt_rand() % 257;
    jet__wire_frame f, fd;
    memset(&f, 0, sizeof f);
    f.slot = jt_rand() % slots;
    f.user_len = umax ? jt_rand() % (umax + 1) : 0;
    f.seq = rand64();
    f.timestamp_ns = rand64();
    jt_fill_random(f.user, f.user_len);
    unsigned char b[JET__WIRE_FRAME_MAX], b2[JET__WIRE_FRAME_MAX];
    size_t n = 0, n2 = 0;
    CHECK_OK(jet__wire_encode_frame(&f, b, sizeof b, &n));
    CHECK(n == 24 + f.user_len);
    CHECK_OK(jet__wire_decode_frame(b, n, 0, slots, umax, &fd, "test"));
    CHECK(fd.slot == f.slot && fd.user_len == f.user_len && fd.seq == f.seq &&
          fd.timestamp_ns == f.timestamp_ns && memcmp(fd.user, f.user, f.user_len) == 0);
    CHECK_OK(jet__wire_encode_frame(&fd, b2, sizeof b2, &n2));
    CHECK(n2 == n && memcmp(b, b2, n) == 0);

    jet__wire_release r = {jt_rand() % slots, rand64()}, rd;
    CHECK_OK(jet__wire_encode_release(&r, b, sizeof b, &n));
    CHECK(n == 16);
    CHECK_OK(jet__wire_decode_release(b, n, 0, slots, &rd, "test"));
    CHECK(rd.slot == r.slot && rd.seq == r.seq);
    CHECK_OK(jet__wire_encode_release(&rd, b2, sizeof b2, &n2));
    CHECK(n2 == n && memcmp(b, b2, n) == 0);

    jet__wire_bye y = {jt_rand() % 2}, yd;
    CHECK_OK(jet__wire_encode_bye(&y, b, sizeof b, &n));
    CHECK(n == 4);
    CHECK_OK(jet__wire_decode_bye(b, n, 0, &yd, "test"));
    CHECK(yd.reason == y.reason);
  }
  return 0;
}

TEST(ipc_wire_byte_layout_is_little_endian) {
  jet__wire_hello h;
  memset(&h, 0, sizeof h);
  h.ring_version = 1;
  h.policy = 1;
  h.queue_depth = 0x10;
  h.pid = 0x01020304;
  strcpy(h.name, "cam");
  unsigned char b[64];
  size_t n;
  CHECK_OK(jet__wire_encode_hello(&h, b, sizeof b, &n));
  static const unsigned char want_hello[48] = {1, 0, 0, 0, 1, 0, 0, 0, 0x10, 0, 0, 0,
                                               4, 3, 2, 1, 'c', 'a', 'm'};
  CHECK(n == 48 && memcmp(b, want_hello, 48) == 0);
  jet__wire_release r = {7, 0x1122334455667788ULL};
  CHECK_OK(jet__wire_encode_release(&r, b, sizeof b, &n));
  static const unsigned char want_rel[16] = {7, 0, 0, 0, 0, 0, 0, 0,
                                             0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
  CHECK(n == 16 && memcmp(b, want_rel, 16) == 0);
  unsigned char hdr[16];
  jet__chan_header_encode(hdr, 0x0203, 0x11223344u, 5);
  static const unsigned char want_hdr[16] = {'J', 'E', 'T', 'C', 1, 0, 3, 2,
                                             0x44, 0x33, 0x22, 0x11, 5, 0, 0, 0};
  CHECK(memcmp(hdr, want_hdr, 16) == 0);
  CHECK(strcmp(jet__wire_type_name(JET__WIRE_WELCOME), "WELCOME") == 0);
  CHECK(strcmp(jet__wire_type_name(0), "unknown") == 0);
  return 0;
}

/* ------------------------------------------------------------ malformed: lengths */

TEST(ipc_wire_every_truncation_and_extension_is_refused) {
  static unsigned char b[JET__WIRE_WELCOME_MAX + 1];
  size_t n;
  jet__wire_hello h;
  rand_hello(&h);
  CHECK_OK(jet__wire_encode_hello(&h, b, sizeof b, &n));
  for (size_t len = 0; len <= n + 1; len++) {
    if (len == n) continue;
    jet__wire_hello o;
    CHECK_PROTO(jet__wire_decode_hello(b, len, 0, &o, "test"), "HELLO: payload is");
  }
  jet__wire_welcome w;
  rand_welcome(&w);
  w.slot_count = 32;
  for (uint32_t i = 0; i < 32; i++) jt_fill_random(w.slot[i].event_handle, 64);
  CHECK_OK(jet__wire_encode_welcome(&w, b, sizeof b, &n));
  CHECK(n == JET__WIRE_WELCOME_MAX);
  for (size_t len = 0; len <= n + 1; len++) {
    if (len == n) continue;
    jet__wire_welcome o;
    CHECK_PROTO(jet__wire_decode_welcome(b, len, welcome_nfds(&w), &o, "test"), "WELCOME");
    CHECK(strstr(jet_last_error()->message, len < 160 ? "fixed part" : "expected exactly"));
  }
  jet__wire_frame f;
  memset(&f, 0, sizeof f);
  f.user_len = 256;
  CHECK_OK(jet__wire_encode_frame(&f, b, sizeof b, &n));
  for (size_t len = 0; len <= n + 1; len++) {
    if (len == n) continue;
    jet__wire_frame o;
    CHECK_PROTO(jet__wire_decode_frame(b, len, 0, 1, 256, &o, "test"), "FRAME");
  }
  jet__wire_release r = {0, 1};
  CHECK_OK(jet__wire_encode_release(&r, b, sizeof b, &n));
  for (size_t len = 0; len <= n + 1; len++) {
    if (len == n) continue;
    jet__wire_release o;
    CHECK_PROTO(jet__wire_decode_release(b, len, 0, 1, &o, "test"), "RELEASE: payload is");
  }
  jet__wire_bye y = {0};
  CHECK_OK(jet__wire_encode_bye(&y, b, sizeof b, &n));
  for (size_t len = 0; len <= n + 1; len++) {
    if (len == n) continue;
    jet__wire_bye o;
    CHECK_PROTO(jet__wire_decode_bye(b, len, 0, &o, "test"), "BYE: payload is");
  }
  /* NULL with a length is an argument error, NULL with 0 a short message. */
  jet__wire_bye o;
  CHECK_ST(jet__wire_decode_bye(NULL, 4, 0, &o, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK_PROTO(jet__wire_decode_bye(NULL, 0, 0, &o, "test"), "BYE");
  CHECK_ST(jet__wire_decode_bye(b, 4, 0, NULL, "test"), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

/* ------------------------------------------------------------ malformed: HELLO */

TEST(ipc_wire_hello_malformed) {
  jet__wire_hello h, o;
  memset(&h, 0, sizeof h);
  h.ring_version = 1;
  h.queue_depth = 4;
  h.pid = 1234;
  strcpy(h.name, "consumer");
  unsigned char b[48], m[48];
  size_t n;
  CHECK_OK(jet__wire_encode_hello(&h, b, sizeof b, &n));
  CHECK_OK(jet__wire_decode_hello(b, n, 0, &o, "test"));
  struct {
    size_t off;
    uint32_t v;
    const char *needle;
  } c32[] = {{0, 0, "ring_version"},  {0, 2, "ring_version"},   {4, 2, "policy"},
             {4, 0xffffffffu, "policy"}, {8, 0, "queue_depth"}, {8, 65, "queue_depth"},
             {12, 0, "pid"},          {12, 0x80000000u, "pid"}};
  for (size_t i = 0; i < sizeof c32 / sizeof c32[0]; i++) {
    memcpy(m, b, 48);
    p32(m + c32[i].off, c32[i].v);
    CHECK_PROTO(jet__wire_decode_hello(m, 48, 0, &o, "test"), c32[i].needle);
    CHECK(o.pid == 0); /* out is cleared on failure */
  }
  memcpy(m, b, 48);
  memset(m + 16, 'x', 32); /* no terminator */
  CHECK_PROTO(jet__wire_decode_hello(m, 48, 0, &o, "test"), "terminating NUL");
  const unsigned char bad_chars[] = {0x01, 0x1f, 0x7f, 0x80, 0xff};
  for (size_t i = 0; i < sizeof bad_chars; i++) {
    memcpy(m, b, 48);
    m[16 + 3] = bad_chars[i];
    CHECK_PROTO(jet__wire_decode_hello(m, 48, 0, &o, "test"), "printable");
  }
  memcpy(m, b, 48);
  m[16 + 20] = 'z'; /* after the terminator */
  CHECK_PROTO(jet__wire_decode_hello(m, 48, 0, &o, "test"), "NUL-padded");
  CHECK_PROTO(jet__wire_decode_hello(b, 48, 1, &o, "test"), "descriptors");
  CHECK_PROTO(jet__wire_decode_hello(b, 48, -1, &o, "test"), "descriptors");
  /* The encoder refuses the same things, and short buffers. */
  o = h;
  o.queue_depth = 0;
  CHECK_ST(jet__wire_encode_hello(&o, b, sizeof b, &n), JET_STATUS_INVALID_ARGUMENT);
  o = h;
  memset(o.name, 'q', sizeof o.name);
  CHECK_ST(jet__wire_encode_hello(&o, b, sizeof b, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__wire_encode_hello(&h, b, 47, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK(n == 0);
  CHECK_ST(jet__wire_encode_hello(NULL, b, 48, &n), JET_STATUS_INVALID_ARGUMENT);
  /* ... but not garbage after the terminator, which it does not send. */
  o = h;
  o.name[30] = 'g';
  CHECK_OK(jet__wire_encode_hello(&o, m, sizeof m, &n));
  CHECK(memcmp(m, b, 48) == 0);
  return 0;
}

/* ------------------------------------------------------------ malformed: WELCOME */

TEST(ipc_wire_welcome_malformed_fields) {
  jet__wire_welcome m, base[2];
  base_image(&base[0]);
  base_buffer(&base[1]);
  for (int k = 0; k < 2; k++) CHECK_OK(decode_packed(&base[k], welcome_nfds(&base[k])));

#define BAD(k, change, needle)                                              \
  do {                                                                      \
    m = base[k];                                                            \
    change;                                                                 \
    CHECK_PROTO(decode_packed(&m, welcome_nfds(&m) < 0 ? 1 : welcome_nfds(&m)), needle); \
  } while (0)
  for (int k = 0; k < 2; k++) {
    BAD(k, m.ring_version = 0, "ring_version");
    BAD(k, m.ring_version = 2, "ring_version");
    BAD(k, m.consumer_index = 64, "consumer_index");
    BAD(k, m.consumer_index = 0xffffffffu, "consumer_index");
    BAD(k, m.slot_count = 0, "slot_count");
    BAD(k, m.slot_count = 33, "slot_count");
    BAD(k, m.slot_count = 0x80000000u, "slot_count");
    BAD(k, m.mechanism = 0, "mechanism");
    BAD(k, m.mechanism = 3, "mechanism");
    BAD(k, m.object = 0, "object");
    BAD(k, m.object = 3, "object");
    BAD(k, m.user_bytes_max = 257, "user_bytes_max");
    BAD(k, m.alloc_size = 0, "alloc_size");
    BAD(k, m.alloc_size = (1 << 22) + 1, "alloc_size");
    BAD(k, m.alloc_size = 4095, "alloc_size");
    BAD(k, m.data_size = 0, "data_size");
    BAD(k, m.data_size = m.alloc_size + 1, "data_size");
    BAD(k, m.data_size = UINT64_MAX, "data_size");
    BAD(k, m.control_size = 63, "control_size");
    BAD(k, m.control_size = (1 << 20) + 1, "control_size");
    BAD(k, m.control_size = UINT64_MAX, "control_size");
  }
  /* image */
  BAD(0, m.image.format = 0, "format");
  BAD(0, m.image.format = -1, "format");
  BAD(0, m.image.format = JET_FORMAT_COUNT_, "format");
  BAD(0, m.image.width = 0, "size");
  BAD(0, m.image.width = -1920, "size");
  BAD(0, m.image.height = 0, "size");
  BAD(0, m.image.height = INT32_MIN, "size");
  BAD(0, m.image.plane_count = 0, "plane_count");
  BAD(0, m.image.plane_count = 1, "plane_count");
  BAD(0, m.image.plane_count = 3, "plane_count");
  BAD(0, m.image.plane_count = 4, "plane_count");
  BAD(0, m.image.offset[1] = m.alloc_size, "offset");
  BAD(0, m.image.offset[0] = UINT64_MAX, "offset");
  BAD(0, m.image.pitch[0] = 0, "pitch");
  BAD(0, m.image.pitch[1] = m.alloc_size + 1, "pitch");
  BAD(0, m.image.pitch[2] = 1, "unused plane");
  BAD(0, m.image.offset[2] = 1, "unused plane");
  BAD(0, m.buffer.width_bytes = 1, "buffer fields");
  BAD(0, m.buffer.depth = 1, "buffer fields");
  /* buffer */
  BAD(1, m.image.format = JET_FORMAT_GRAY8, "image format");
  BAD(1, m.image.width = 1, "image format");
  BAD(1, m.image.plane_count = 1, "image format");
  BAD(1, m.image.offset[0] = 1, "plane 0");
  BAD(1, m.image.pitch[2] = 1, "plane 2");
  BAD(1, m.buffer.width_bytes = 0, "width_bytes");
  BAD(1, m.buffer.pitch = 999, "pitch");
  BAD(1, m.buffer.height = 0, "height");
  BAD(1, m.buffer.depth = 0, "depth");
  BAD(1, (m.buffer.pitch = 1ULL << 32, m.buffer.height = 1ULL << 32, m.buffer.depth = 2),
      "overflows");
  BAD(1, (m.buffer.pitch = 1ULL << 40, m.buffer.height = 1ULL << 24, m.buffer.depth = 1),
      "overflows");
  BAD(1, m.buffer.depth = 1000, "exceeds alloc_size");
  BAD(1, m.buffer.pitch = m.buffer.width_bytes = m.alloc_size + 1, "exceeds alloc_size");
  /* VMM carries no memory handles */
  BAD(0, m.slot[3].mem_handle[63] = 1, "mem_handle");
  BAD(1, (m.mechanism = JET__WIRE_MECH_VMM_FD, m.slot[0].mem_handle[0] = 9), "mem_handle");
#undef BAD

  /* Descriptor counts: VMM 1 + slot_count, legacy 1. */
  for (int k = 0; k < 2; k++) {
    int want = welcome_nfds(&base[k]);
    int wrong[] = {0, want - 1, want + 1, -1, 64};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++)
      if (wrong[i] != want)
        CHECK_PROTO(decode_packed(&base[k], wrong[i]), "descriptors");
  }
  CHECK(jet__wire_welcome_nfds(JET__WIRE_MECH_VMM_FD, 4) == 5);
  CHECK(jet__wire_welcome_nfds(JET__WIRE_MECH_LEGACY_IPC, 4) == 1);

  /* A slot_count that disagrees with the length (forged either way). */
  static unsigned char b[JET__WIRE_WELCOME_MAX];
  size_t n = pack_welcome(&base[1], b);
  jet__wire_welcome o;
  p32(b + 8, 5);
  CHECK_PROTO(jet__wire_decode_welcome(b, n, 1, &o, "test"), "expected exactly 800");
  p32(b + 8, 3);
  CHECK_PROTO(jet__wire_decode_welcome(b, n, 1, &o, "test"), "expected exactly 544");
  CHECK(o.slot_count == 0);

  /* The encoder refuses what the decoder refuses, and short buffers. */
  m = base[0];
  m.image.plane_count = 3;
  CHECK_ST(jet__wire_encode_welcome(&m, b, sizeof b, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__wire_encode_welcome(&base[0], b, 160 + 4 * 128 - 1, &n),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet__wire_encode_welcome(&base[0], b, 160 + 4 * 128, &n));
  return 0;
}

/* ------------------------------------------------------------ malformed: FRAME, RELEASE, BYE */

TEST(ipc_wire_frame_release_bye_malformed) {
  unsigned char b[JET__WIRE_FRAME_MAX + 8], m[JET__WIRE_FRAME_MAX + 8];
  size_t n;
  jet__wire_frame f, fo;
  memset(&f, 0, sizeof f);
  f.slot = 3;
  f.user_len = 10;
  f.seq = 99;
  CHECK_OK(jet__wire_encode_frame(&f, b, sizeof b, &n));
  CHECK_OK(jet__wire_decode_frame(b, n, 0, 4, 10, &fo, "test"));
  CHECK_PROTO(jet__wire_decode_frame(b, n, 0, 3, 10, &fo, "test"), "slot 3 is not below");
  CHECK_PROTO(jet__wire_decode_frame(b, n, 0, 4, 9, &fo, "test"), "user_len 10 exceeds 9");
  CHECK_PROTO(jet__wire_decode_frame(b, n, 1, 4, 10, &fo, "test"), "descriptors");
  memcpy(m, b, n);
  p32(m + 4, 257);
  CHECK_PROTO(jet__wire_decode_frame(m, n, 0, 4, 256, &fo, "test"), "user_len 257");
  p32(m + 4, 0xffffffffu);
  CHECK_PROTO(jet__wire_decode_frame(m, n, 0, 4, 256, &fo, "test"), "user_len");
  p32(m + 4, 11); /* forged: claims one byte more than sent */
  CHECK_PROTO(jet__wire_decode_frame(m, n, 0, 4, 256, &fo, "test"), "expected exactly 35");
  p32(m + 4, 9);
  CHECK_PROTO(jet__wire_decode_frame(m, n, 0, 4, 256, &fo, "test"), "expected exactly 33");
  CHECK(fo.seq == 0);
  CHECK_ST(jet__wire_decode_frame(b, n, 0, 0, 10, &fo, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__wire_decode_frame(b, n, 0, 33, 10, &fo, "test"), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet__wire_decode_frame(b, n, 0, 4, 257, &fo, "test"), JET_STATUS_INVALID_ARGUMENT);
  f.user_len = 257;
  CHECK_ST(jet__wire_encode_frame(&f, b, sizeof b, &n), JET_STATUS_INVALID_ARGUMENT);
  f.user_len = 1;
  f.slot = 32;
  CHECK_ST(jet__wire_encode_frame(&f, b, sizeof b, &n), JET_STATUS_INVALID_ARGUMENT);
  f.slot = 0;
  CHECK_ST(jet__wire_encode_frame(&f, b, 24, &n), JET_STATUS_INVALID_ARGUMENT);

  jet__wire_release r = {2, 5}, ro;
  CHECK_OK(jet__wire_encode_release(&r, b, sizeof b, &n));
  CHECK_OK(jet__wire_decode_release(b, n, 0, 3, &ro, "test"));
  CHECK_PROTO(jet__wire_decode_release(b, n, 0, 2, &ro, "test"), "slot 2 is not below");
  CHECK_PROTO(jet__wire_decode_release(b, n, 2, 3, &ro, "test"), "descriptors");
  memcpy(m, b, n);
  m[7] = 0x80;
  CHECK_PROTO(jet__wire_decode_release(m, n, 0, 3, &ro, "test"), "reserved");
  CHECK_ST(jet__wire_decode_release(b, n, 0, 0, &ro, "test"), JET_STATUS_INVALID_ARGUMENT);
  r.slot = 32;
  CHECK_ST(jet__wire_encode_release(&r, b, sizeof b, &n), JET_STATUS_INVALID_ARGUMENT);

  jet__wire_bye y = {1}, yo;
  CHECK_OK(jet__wire_encode_bye(&y, b, sizeof b, &n));
  CHECK_PROTO(jet__wire_decode_bye(b, n, 1, &yo, "test"), "descriptors");
  p32(m, 2);
  CHECK_PROTO(jet__wire_decode_bye(m, 4, 0, &yo, "test"), "reason 2");
  y.reason = 7;
  CHECK_ST(jet__wire_encode_bye(&y, b, sizeof b, &n), JET_STATUS_INVALID_ARGUMENT);
  y.reason = 0;
  CHECK_ST(jet__wire_encode_bye(&y, b, 3, &n), JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

/* ------------------------------------------------------------ the channel record header */

TEST(ipc_channel_header_parse_checks_every_field) {
  unsigned char h[16], m[16];
  jet__chan_header o;
  jet__chan_header_encode(h, 7, 100, 2);
  CHECK_OK(jet__chan_header_parse(h, 16, 116, 2, &o, "test"));
  CHECK(o.magic == JET__CHAN_MAGIC && o.version == 1 && o.type == 7 && o.payload_len == 100 &&
        o.nfds == 2 && o.reserved == 0);
  for (size_t len = 0; len < 16; len++)
    CHECK_PROTO(jet__chan_header_parse(h, len, len, 2, &o, "test"), "shorter than");
  CHECK_PROTO(jet__chan_header_parse(h, 8, 116, 2, &o, "test"), "shorter than");
  struct {
    size_t off;
    unsigned char v;
    const char *needle;
  } c[] = {{0, 'X', "magic"},    {3, 0, "magic"},     {4, 2, "version"}, {5, 1, "version"},
           {14, 1, "reserved"}, {15, 0x80, "reserved"}, {12, 3, "nfds is 3 but 2"},
           {12, 65, "limit"},   {13, 1, "limit"},     {8, 101, "payload_len is 101"}};
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    memcpy(m, h, 16);
    m[c[i].off] = c[i].v;
    CHECK_PROTO(jet__chan_header_parse(m, 16, 116, 2, &o, "test"), c[i].needle);
  }
  memcpy(m, h, 16);
  m[6] = m[7] = 0;
  CHECK_PROTO(jet__chan_header_parse(m, 16, 116, 2, &o, "test"), "type is 0");
  CHECK_PROTO(jet__chan_header_parse(h, 16, 116, 1, &o, "test"), "nfds is 2 but 1");
  CHECK_PROTO(jet__chan_header_parse(h, 16, 116, -1, &o, "test"), "nfds");
  CHECK_PROTO(jet__chan_header_parse(h, 16, 117, 2, &o, "test"), "101 bytes after");
  jet__chan_header_encode(h, 7, 0x7fffffffu, 0);
  CHECK_PROTO(jet__chan_header_parse(h, 16, 16 + 0x7fffffffu, 0, &o, "test"), "limit is 65536");
  jet__chan_header_encode(h, 65535, 65536, 64);
  CHECK_OK(jet__chan_header_parse(h, 16, 16 + 65536, 64, &o, "test"));
  return 0;
}

/* ------------------------------------------------------------ fuzz seeds */

/* The seed corpus of tests/fuzz/fuzz_ipc_wire.c: fixed, valid messages, each
 * behind the fuzz target's selector byte (low bits: the decoder; the other
 * bits 0: slot_count 32, user_max 256, the exact descriptor count). Checked
 * here on every run; written to $JET_IPC_WIRE_CORPUS when that is set
 * (that is how tests/fuzz/corpus/ipc_wire/ was made). */
typedef struct seed {
  char name[32];
  unsigned char sel;
  size_t len;
  unsigned char bytes[JET__WIRE_WELCOME_MAX];
} seed;

static int write_seed(const char *dir, const seed *s) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, s->name);
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  int ok = fputc(s->sel, f) != EOF && fwrite(s->bytes, 1, s->len, f) == s->len;
  return fclose(f) == 0 && ok;
}

TEST(ipc_wire_seed_corpus) {
  static seed seeds[24];
  int n = 0;
  const char *dir = getenv("JET_IPC_WIRE_CORPUS");

  jet__wire_hello h;
  memset(&h, 0, sizeof h);
  h.ring_version = 1;
  h.queue_depth = 4;
  h.pid = 4242;
  strcpy(h.name, "camera-consumer");
  for (int v = 0; v < 2; v++) {
    if (v) {
      h.policy = 1;
      h.queue_depth = 64;
      memset(h.name, 0, sizeof h.name);
      memset(h.name, '~', 31);
    }
    seed *s = &seeds[n++];
    snprintf(s->name, sizeof s->name, "hello-%d", v);
    s->sel = 0;
    CHECK_OK(jet__wire_encode_hello(&h, s->bytes, sizeof s->bytes, &s->len));
  }

  jet__wire_welcome w[4];
  base_image(&w[0]);
  base_buffer(&w[1]);
  base_image(&w[2]);
  w[2].mechanism = JET__WIRE_MECH_LEGACY_IPC;
  w[2].slot_count = 32;
  w[2].image.format = JET_FORMAT_I420;
  w[2].image.plane_count = 3;
  w[2].image.offset[2] = 2048 * 1080 + 1024 * 540;
  w[2].image.pitch[1] = w[2].image.pitch[2] = 1024;
  for (int i = 0; i < 32; i++) {
    memset(w[2].slot[i].event_handle, i, 64);
    memset(w[2].slot[i].mem_handle, 0x80 + i, 64);
  }
  base_buffer(&w[3]);
  w[3].mechanism = JET__WIRE_MECH_VMM_FD;
  w[3].slot_count = 1;
  w[3].consumer_index = 63;
  w[3].user_bytes_max = 256;
  memset(w[3].slot, 0, sizeof w[3].slot);
  for (int v = 0; v < 4; v++) {
    seed *s = &seeds[n++];
    snprintf(s->name, sizeof s->name, "welcome-%d", v);
    s->sel = 1;
    CHECK_OK(jet__wire_encode_welcome(&w[v], s->bytes, sizeof s->bytes, &s->len));
  }

  jet__wire_frame f;
  memset(&f, 0, sizeof f);
  for (int v = 0; v < 3; v++) {
    f.slot = v == 2 ? 31 : (uint32_t)v;
    f.user_len = v == 0 ? 0 : v == 1 ? 256 : 16;
    f.seq = 1000 + (uint64_t)v;
    f.timestamp_ns = 1700000000000000000ULL + (uint64_t)v;
    for (uint32_t i = 0; i < f.user_len; i++) f.user[i] = (unsigned char)i;
    seed *s = &seeds[n++];
    snprintf(s->name, sizeof s->name, "frame-%d", v);
    s->sel = 2;
    CHECK_OK(jet__wire_encode_frame(&f, s->bytes, sizeof s->bytes, &s->len));
  }
  for (int v = 0; v < 2; v++) {
    jet__wire_release r = {v ? 31u : 0u, v ? UINT64_MAX : 1};
    seed *s = &seeds[n++];
    snprintf(s->name, sizeof s->name, "release-%d", v);
    s->sel = 3;
    CHECK_OK(jet__wire_encode_release(&r, s->bytes, sizeof s->bytes, &s->len));
  }
  for (int v = 0; v < 2; v++) {
    jet__wire_bye y = {(uint32_t)v};
    seed *s = &seeds[n++];
    snprintf(s->name, sizeof s->name, "bye-%d", v);
    s->sel = 4;
    CHECK_OK(jet__wire_encode_bye(&y, s->bytes, sizeof s->bytes, &s->len));
  }
  /* Channel records: a HELLO record, an empty one with descriptors, one of 100 bytes. */
  const struct {
    unsigned type, nfds;
    size_t payload;
  } recs[] = {{JET__WIRE_HELLO, 0, 48}, {JET__WIRE_WELCOME, 5, 0}, {65535, 64, 100}};
  for (int v = 0; v < 3; v++) {
    seed *s = &seeds[n++];
    snprintf(s->name, sizeof s->name, "record-%d", v);
    s->sel = 5;
    jet__chan_header_encode(s->bytes, recs[v].type, (uint32_t)recs[v].payload, recs[v].nfds);
    if (v == 0)
      memcpy(s->bytes + 16, seeds[0].bytes, 48);
    else
      for (size_t i = 0; i < recs[v].payload; i++) s->bytes[16 + i] = (unsigned char)(i * 7);
    s->len = 16 + recs[v].payload;
  }

  /* Every seed decodes as the fuzz target decodes it. */
  for (int i = 0; i < n; i++) {
    const seed *s = &seeds[i];
    const unsigned char *b = s->bytes;
    jet_status st;
    union {
      jet__wire_hello h;
      jet__wire_welcome w;
      jet__wire_frame f;
      jet__wire_release r;
      jet__wire_bye y;
      jet__chan_header c;
    } u;
    switch (s->sel) {
      case 0: st = jet__wire_decode_hello(b, s->len, 0, &u.h, "seed"); break;
      case 1:
        st = jet__wire_decode_welcome(
            b, s->len, jet__wire_welcome_nfds(w[i - 2].mechanism, w[i - 2].slot_count), &u.w,
            "seed");
        break;
      case 2: st = jet__wire_decode_frame(b, s->len, 0, 32, 256, &u.f, "seed"); break;
      case 3: st = jet__wire_decode_release(b, s->len, 0, 32, &u.r, "seed"); break;
      case 4: st = jet__wire_decode_bye(b, s->len, 0, &u.y, "seed"); break;
      default: st = jet__chan_header_parse(b, s->len, s->len, (int)(b[12] | b[13] << 8), &u.c, "seed");
    }
    CHECK_MSG(st == JET_STATUS_OK, "seed %s: %s", s->name, jet_last_error_string());
    if (dir) CHECK_MSG(write_seed(dir, s), "cannot write %s/%s", dir, s->name);
  }
  if (dir) fprintf(stderr, "wrote %d seeds to %s\n", n, dir);
  return 0;
}

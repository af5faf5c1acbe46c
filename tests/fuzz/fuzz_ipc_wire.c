/* libFuzzer target: the frame ring's message decoders (lib/ipc/wire.h) and the
 * channel's record header parser (jet__chan_header_parse).
 *
 * Input: one selector byte, then the message payload (or, for the header, the
 * whole record). Selector bits:
 *   0-2  what to decode: 0 HELLO, 1 WELCOME, 2 FRAME, 3 RELEASE, 4 BYE,
 *        5-7 the channel record header
 *   3-4  slot_count for FRAME/RELEASE: 32 >> n
 *   5-6  user_max for FRAME: 256 >> n
 *   7    pass one descriptor more than the message needs
 * The descriptor count passed is the one the message itself implies (0, or
 * WELCOME's by its mechanism and slot_count, or the header's nfds field), so
 * valid inputs decode. Whatever decodes must re-encode to the same bytes;
 * whatever fails must fail with PROTOCOL_ERROR.
 *
 * Seeds: tests/fuzz/corpus/ipc_wire/, written by the unit test
 * ipc_wire_seed_corpus (JET_IPC_WIRE_CORPUS=DIR jet-tests ipc_wire_seed_corpus).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire.h"
#include "channel_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void must_fail_cleanly(jet_status st) {
  if (st != JET_STATUS_PROTOCOL_ERROR || jet_last_error()->message[0] == '\0') __builtin_trap();
}

static void same(const unsigned char *a, size_t na, const uint8_t *b, size_t nb) {
  if (na != nb || memcmp(a, b, na) != 0) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  unsigned sel = data[0];
  const uint8_t *p = data + 1;
  size_t n = size - 1;
  int extra = (sel >> 7) & 1;
  uint32_t slot_count = 32u >> ((sel >> 3) & 3);
  uint32_t user_max = 256u >> ((sel >> 5) & 3);
  static unsigned char out[JET__WIRE_WELCOME_MAX];
  size_t len = 0;
  jet_status st;

  switch (sel & 7) {
    case 0: {
      jet__wire_hello m;
      st = jet__wire_decode_hello(p, n, extra, &m, "fuzz");
      if (st != JET_STATUS_OK) {
        must_fail_cleanly(st);
        break;
      }
      if (jet__wire_encode_hello(&m, out, sizeof out, &len) != JET_STATUS_OK) __builtin_trap();
      same(out, len, p, n);
      break;
    }
    case 1: {
      static jet__wire_welcome m;
      int nfds = n >= 16 ? jet__wire_welcome_nfds(rd32(p + 12), rd32(p + 8)) : 0;
      st = jet__wire_decode_welcome(p, n, nfds + extra, &m, "fuzz");
      if (st != JET_STATUS_OK) {
        must_fail_cleanly(st);
        break;
      }
      if (jet__wire_welcome_nfds(m.mechanism, m.slot_count) != nfds + extra) __builtin_trap();
      if (jet__wire_encode_welcome(&m, out, sizeof out, &len) != JET_STATUS_OK) __builtin_trap();
      same(out, len, p, n);
      break;
    }
    case 2: {
      jet__wire_frame m;
      st = jet__wire_decode_frame(p, n, extra, slot_count, user_max, &m, "fuzz");
      if (st != JET_STATUS_OK) {
        must_fail_cleanly(st);
        break;
      }
      if (m.slot >= slot_count || m.user_len > user_max) __builtin_trap();
      if (jet__wire_encode_frame(&m, out, sizeof out, &len) != JET_STATUS_OK) __builtin_trap();
      same(out, len, p, n);
      break;
    }
    case 3: {
      jet__wire_release m;
      st = jet__wire_decode_release(p, n, extra, slot_count, &m, "fuzz");
      if (st != JET_STATUS_OK) {
        must_fail_cleanly(st);
        break;
      }
      if (m.slot >= slot_count) __builtin_trap();
      if (jet__wire_encode_release(&m, out, sizeof out, &len) != JET_STATUS_OK) __builtin_trap();
      same(out, len, p, n);
      break;
    }
    case 4: {
      jet__wire_bye m;
      st = jet__wire_decode_bye(p, n, extra, &m, "fuzz");
      if (st != JET_STATUS_OK) {
        must_fail_cleanly(st);
        break;
      }
      if (jet__wire_encode_bye(&m, out, sizeof out, &len) != JET_STATUS_OK) __builtin_trap();
      same(out, len, p, n);
      break;
    }
    default: {
      jet__chan_header h;
      int nfds = n >= 14 ? (int)(p[12] | p[13] << 8) : 0;
      /* The record as recvmsg() would see it: the full length, all bytes there. */
      st = jet__chan_header_parse(p, n, n, nfds + extra, &h, "fuzz");
      if (st != JET_STATUS_OK) {
        must_fail_cleanly(st);
        break;
      }
      if (h.payload_len != n - JET__CHAN_HEADER_SIZE || h.nfds > JET_CHANNEL_MAX_FDS ||
          h.type == 0)
        __builtin_trap();
      unsigned char enc[JET__CHAN_HEADER_SIZE];
      jet__chan_header_encode(enc, h.type, h.payload_len, h.nfds);
      same(enc, sizeof enc, p, JET__CHAN_HEADER_SIZE);
      break;
    }
  }
  return 0;
}

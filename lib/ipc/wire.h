/*
 * The frame ring's messages, carried as channel payloads (jetrt/channel.h):
 * pure encoders and decoders, no syscalls, no CUDA. All fields little-endian,
 * packed byte by byte at fixed offsets (no struct is ever cast onto a buffer).
 *
 *  type  name     direction             payload
 *   1    HELLO    consumer -> producer  u32 ring_version, u32 policy, u32 queue_depth, u32 pid,
 *                                       char name[32]                                (48 bytes)
 *   2    WELCOME  producer -> consumer  see jet__wire_welcome; 160 + slot_count * 128 bytes
 *   3    FRAME    producer -> consumer  u32 slot, u32 user_len, u64 seq, u64 timestamp_ns,
 *                                       u8 user[user_len]                     (24 + user_len)
 *   4    RELEASE  consumer -> producer  u32 slot, u32 reserved (0), u64 seq       (16 bytes)
 *   5    BYE      either way            u32 reason                              (4 bytes)
 *
 * Decoders trust nothing: the length must be exactly the message's, every
 * enum, count, size and reserved field is checked (sizes without overflow),
 * and the number of descriptors that came with the message must be the one
 * the message needs. Any failure is JET_STATUS_PROTOCOL_ERROR with the field
 * and the values; @out is zeroed first and holds nothing usable then.
 * Encoders apply the same rules to the struct (JET_STATUS_INVALID_ARGUMENT)
 * and need @cap >= the message length (JET_STATUS_INVALID_ARGUMENT too), so a
 * message that decodes re-encodes to the same bytes.
 */
#ifndef JET_WIRE_H
#define JET_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Channel message types. */
enum {
  JET__WIRE_HELLO = 1,
  JET__WIRE_WELCOME = 2,
  JET__WIRE_FRAME = 3,
  JET__WIRE_RELEASE = 4,
  JET__WIRE_BYE = 5
};

enum {
  JET__WIRE_RING_VERSION = 1,
  JET__WIRE_NAME_LEN = 32,       /* HELLO name, terminator included */
  JET__WIRE_MAX_QUEUE = 64,      /* HELLO queue_depth */
  JET__WIRE_MAX_CONSUMERS = 64,  /* WELCOME consumer_index bound */
  JET__WIRE_MAX_SLOTS = 32,      /* WELCOME slot_count */
  JET__WIRE_USER_MAX = 256,      /* user bytes per FRAME */
  JET__WIRE_HANDLE_LEN = 64,     /* cudaIpcEventHandle_t, cudaIpcMemHandle_t */
  JET__WIRE_HELLO_SIZE = 48,
  JET__WIRE_WELCOME_FIXED = 160, /* before the per-slot handles */
  JET__WIRE_WELCOME_SLOT = 128,  /* event_handle + mem_handle */
  JET__WIRE_WELCOME_MAX = 160 + 32 * 128,
  JET__WIRE_FRAME_FIXED = 24,
  JET__WIRE_FRAME_MAX = 24 + 256,
  JET__WIRE_RELEASE_SIZE = 16,
  JET__WIRE_BYE_SIZE = 4,
  JET__WIRE_CONTROL_MIN = 64,
  JET__WIRE_CONTROL_MAX = 1 << 20,
  JET__WIRE_PAGE = 4096          /* WELCOME alloc_size granularity */
};

/* HELLO policy */
enum { JET__WIRE_POLICY_DROP_OLDEST = 0, JET__WIRE_POLICY_LOSSLESS = 1 };
/* WELCOME mechanism: how slot memory travels */
enum { JET__WIRE_MECH_VMM_FD = 1, JET__WIRE_MECH_LEGACY_IPC = 2 };
/* WELCOME object: what a slot holds */
enum { JET__WIRE_OBJECT_BUFFER = 1, JET__WIRE_OBJECT_IMAGE = 2 };
/* BYE reason */
enum { JET__WIRE_BYE_NORMAL = 0, JET__WIRE_BYE_ERROR = 1 };

/* HELLO: a consumer asks to join. No descriptors. */
typedef struct jet__wire_hello {
  uint32_t ring_version; /* JET__WIRE_RING_VERSION */
  uint32_t policy;       /* JET__WIRE_POLICY_* */
  uint32_t queue_depth;  /* 1..JET__WIRE_MAX_QUEUE frames in flight */
  uint32_t pid;
  char name[JET__WIRE_NAME_LEN]; /* printable ASCII, NUL-terminated; sent NUL-padded */
} jet__wire_hello;

/*
 * WELCOME: the producer admits a consumer and describes the ring.
 *
 *   0 u32 ring_version     4 u32 consumer_index   8 u32 slot_count   12 u32 mechanism
 *  16 u32 object          20 u32 user_bytes_max  24 u64 alloc_size   32 u64 data_size
 *  40 i32 format          44 i32 width           48 i32 height       52 u32 plane_count
 *  56 u64 plane_offset[3] 80 u64 plane_pitch[3]
 * 104 u64 width_bytes    112 u64 height         120 u64 depth       128 u64 pitch
 * 136 u64 control_size   144 u8 device_uuid[16]   160 per slot: u8 event_handle[64],
 *                                                                         u8 mem_handle[64]
 *
 * Descriptors: VMM: 1 + slot_count (0: the control block memfd, 1 + i: slot
 * i's memory); legacy IPC: 1 (the control block). An image has format, width,
 * height and plane_count (the format's own) set, each used plane offset <
 * alloc_size and 0 < pitch <= alloc_size, unused planes and the buffer fields
 * 0. A buffer has width_bytes > 0, pitch >= width_bytes, height and depth >= 1,
 * pitch * height * depth <= alloc_size, and the image fields 0. The plane
 * extents of an image (which depend on the format's subsampling) are the
 * ring's to check.
 */
typedef struct jet__wire_welcome {
  uint32_t ring_version;
  uint32_t consumer_index; /* < JET__WIRE_MAX_CONSUMERS */
  uint32_t slot_count;     /* 1..JET__WIRE_MAX_SLOTS */
  uint32_t mechanism;      /* JET__WIRE_MECH_* */
  uint32_t object;         /* JET__WIRE_OBJECT_* */
  uint32_t user_bytes_max; /* <= JET__WIRE_USER_MAX */
  uint64_t alloc_size;     /* per slot, > 0, multiple of JET__WIRE_PAGE */
  uint64_t data_size;      /* 0 < data_size <= alloc_size */
  struct {
    int32_t format; /* jet_format */
    int32_t width, height;
    uint32_t plane_count;
    uint64_t offset[3];
    uint64_t pitch[3];
  } image;
  struct {
    uint64_t width_bytes, height, depth, pitch;
  } buffer;
  uint64_t control_size; /* JET__WIRE_CONTROL_MIN..JET__WIRE_CONTROL_MAX */
  unsigned char device_uuid[16]; /* the producer's GPU (cuDeviceGetUuid): imports check it */
  struct {
    unsigned char event_handle[JET__WIRE_HANDLE_LEN];
    unsigned char mem_handle[JET__WIRE_HANDLE_LEN]; /* all zero with VMM */
  } slot[JET__WIRE_MAX_SLOTS]; /* slot_count used; the rest zero after decode */
} jet__wire_welcome;

/* FRAME: slot @slot holds frame @seq. No descriptors. */
typedef struct jet__wire_frame {
  uint32_t slot;     /* < the ring's slot_count */
  uint32_t user_len; /* <= the ring's user_bytes_max */
  uint64_t seq;
  uint64_t timestamp_ns;
  unsigned char user[JET__WIRE_USER_MAX];
} jet__wire_frame;

/* RELEASE: the consumer is done with frame @seq in slot @slot. No descriptors. */
typedef struct jet__wire_release {
  uint32_t slot;
  uint64_t seq;
} jet__wire_release;

/* BYE: the sender is leaving. No descriptors. */
typedef struct jet__wire_bye {
  uint32_t reason; /* JET__WIRE_BYE_* */
} jet__wire_bye;

/* "HELLO", ..., or "unknown" */
const char *jet__wire_type_name(unsigned type);

/* Descriptors a WELCOME with this mechanism and slot count comes with; -1 when
 * either is out of range. */
int jet__wire_welcome_nfds(uint32_t mechanism, uint32_t slot_count);

jet_status jet__wire_encode_hello(const jet__wire_hello *m, unsigned char *buf, size_t cap,
                                  size_t *len);
jet_status jet__wire_decode_hello(const unsigned char *buf, size_t len, int nfds,
                                  jet__wire_hello *out, const char *fn);

jet_status jet__wire_encode_welcome(const jet__wire_welcome *m, unsigned char *buf, size_t cap,
                                    size_t *len);
jet_status jet__wire_decode_welcome(const unsigned char *buf, size_t len, int nfds,
                                    jet__wire_welcome *out, const char *fn);

/* Encoding checks slot < JET__WIRE_MAX_SLOTS and user_len <= JET__WIRE_USER_MAX;
 * decoding checks slot < @slot_count and user_len <= @user_max (the ring's
 * WELCOME values; @slot_count 1..32, @user_max <= 256, else INVALID_ARGUMENT). */
jet_status jet__wire_encode_frame(const jet__wire_frame *m, unsigned char *buf, size_t cap,
                                  size_t *len);
jet_status jet__wire_decode_frame(const unsigned char *buf, size_t len, int nfds,
                                  uint32_t slot_count, uint32_t user_max, jet__wire_frame *out,
                                  const char *fn);

jet_status jet__wire_encode_release(const jet__wire_release *m, unsigned char *buf, size_t cap,
                                    size_t *len);
jet_status jet__wire_decode_release(const unsigned char *buf, size_t len, int nfds,
                                    uint32_t slot_count, jet__wire_release *out, const char *fn);

jet_status jet__wire_encode_bye(const jet__wire_bye *m, unsigned char *buf, size_t cap,
                                size_t *len);
jet_status jet__wire_decode_bye(const unsigned char *buf, size_t len, int nfds,
                                jet__wire_bye *out, const char *fn);

#endif /* JET_WIRE_H */

/*
 * jetrt/ring.h - a zero-copy frame ring between processes.
 *
 * One producer process owns N slots of GPU memory (images or buffers), each
 * with an interprocess CUDA event. Consumer processes connect over a channel
 * (jetrt/channel.h), receive every slot once as file descriptors (VMM memory,
 * jetrt/ipc.h) and event handles, and from then on only small messages move:
 *
 *   producer: jet_ring_loan -> write the slot on a stream -> jet_ring_publish
 *   consumer: jet_ring_take (its stream waits for the slot's event)
 *             -> use the slot on that stream -> jet_ring_release
 *
 * Pixels never move between processes. A slot is reused only when no consumer
 * holds it. Each consumer picks a policy:
 *  - JET_RING_DROP_OLDEST (latest frame, for perception): the producer never
 *    waits for it; frames it has not taken yet are reclaimed when newer ones
 *    push them out of its queue (queue_depth) or when the producer needs a slot.
 *  - JET_RING_LOSSLESS (recording): the producer never reclaims its frames;
 *    jet_ring_loan waits (up to its timeout) for it to release.
 *
 * Faults: a consumer that exits or crashes, even mid-frame, is noticed by the
 * producer on its socket (hang-up), and the slots it held are reclaimed; the
 * producer and the other consumers go on. A producer that exits gives every
 * consumer JET_STATUS_DISCONNECTED on its next call; memory a consumer imported
 * stays valid until it destroys its end.
 *
 * Who holds a slot is kept, per consumer, in a small shared-memory block (a
 * sealed memfd the producer sends at connection) with one atomic word per
 * slot (sequence number and state), so a consumer's take and the producer's
 * reclaim can never both win; messages only wake the other side.
 *
 * Threads: one end is used by one thread at a time. Every blocking call takes
 * a timeout (milliseconds, >= 0); none blocks forever.
 */
#ifndef JETRT_RING_H
#define JETRT_RING_H

#include <stddef.h>
#include <stdint.h>
#include "context.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jet_ring_s *jet_ring; /* a producer or a consumer end */

/** Limits. */
enum {
  JET_RING_MAX_SLOTS = 32,
  JET_RING_MAX_CONSUMERS = 16,
  JET_RING_MAX_USER_BYTES = 256,
  JET_RING_MAX_QUEUE = 64
};

/** What a consumer wants when it falls behind. */
typedef enum jet_ring_policy {
  JET_RING_DROP_OLDEST = 0, /**< keep the newest frames; old ones are reclaimed */
  JET_RING_LOSSLESS = 1     /**< every frame; the producer waits for releases */
} jet_ring_policy;

/** Which frame jet_ring_take hands out. */
typedef enum jet_ring_take_mode {
  JET_RING_NEXT = 0,  /**< the oldest frame not taken yet (in order) */
  JET_RING_NEWEST = 1 /**< the newest; older ones not taken are released unseen */
} jet_ring_take_mode;

/** Channel security options (see jetrt/channel.h). */
enum {
  JET_RING_ALLOW_UID = 1u << 0, /**< also accept peers of allow_uid */
  JET_RING_ALLOW_GID = 1u << 1  /**< also accept peers of group allow_gid */
};

/** Parameters of jet_ring_create (producer). Zero-initialise, then set what you need. */
typedef struct jet_ring_desc {
  const char *path;     /**< socket path, or "@name" for an abstract socket */
  int slots;            /**< 2..JET_RING_MAX_SLOTS */
  jet_format format;    /**< image slots of this format and size; JET_FORMAT_NONE_: buffers */
  int width, height;
  size_t bytes;         /**< buffer slots (format NONE_): bytes per slot */
  int max_consumers;    /**< 1..JET_RING_MAX_CONSUMERS; 0 means 4 */
  unsigned flags;       /**< JET_RING_ALLOW_* */
  unsigned allow_uid, allow_gid;
} jet_ring_desc;

/** Parameters of jet_ring_connect (consumer). Zero-initialise, then set what you need. */
typedef struct jet_ring_consumer_desc {
  const char *path;        /**< the producer's address */
  jet_ring_policy policy;
  int queue_depth;         /**< frames received and not taken that are kept: 1..JET_RING_MAX_QUEUE (0 means 2) */
  const char *name;        /**< up to 31 printable characters, for the producer's logs; may be NULL */
  int timeout_ms;          /**< for connecting and the handshake */
  unsigned spin_us;        /**< jet_ring_take polls this long before it sleeps: lower latency, more CPU */
  unsigned flags;          /**< JET_RING_ALLOW_* (checks on the producer's credentials) */
  unsigned allow_uid, allow_gid;
} jet_ring_consumer_desc;

/** A slot as jet_ring_loan (producer) or jet_ring_take (consumer) hands it out. */
typedef struct jet_ring_frame {
  int slot;                 /**< 0..slots-1 */
  uint64_t seq;             /**< publish sequence number, from 1 */
  uint64_t timestamp_ns;    /**< as given to jet_ring_publish */
  size_t user_len;
  unsigned char user[JET_RING_MAX_USER_BYTES];
  jet_image image;          /**< image slots: the slot's image (owned by the ring) */
  jet_buffer buffer;        /**< buffer slots: the slot's buffer (owned by the ring) */
} jet_ring_frame;

/** Counters of one end (jet_ring_get_stats). */
typedef struct jet_ring_stats {
  uint64_t published;  /**< producer: frames published */
  uint64_t delivered;  /**< producer: frame messages sent; consumer: frames received */
  uint64_t taken;      /**< consumer: frames handed out by jet_ring_take */
  uint64_t dropped;    /**< frames reclaimed or released before a consumer took them */
  uint64_t reclaimed;  /**< producer: slots taken back from consumers that went away */
  uint64_t deferred;   /**< producer: frame messages a DROP_OLDEST consumer's full
                            socket refused; the newest waits and goes out when
                            there is room (at a publish, poll or loan) */
  int consumers;       /**< producer: consumers connected now */
  int lost_consumers;  /**< producer: consumers that went away (or were refused) */
} jet_ring_stats;

/**
 * jet_ring_create - the producer end: allocate the slots (exportable memory,
 * the mechanism jetrt/ipc.h picks for the platform), their interprocess
 * events, and listen on @desc->path.
 * @return JET_STATUS_OK; INVALID_ARGUMENT; INVALID_HANDLE; INVALID_STATE (the
 *         address is in use); UNSUPPORTED (no way to share memory or events on
 *         this platform: the detail says why); OUT_OF_MEMORY; a CUDA status.
 * Thread safety: safe from any thread.
 */
jet_status jet_ring_create(jet_context ctx, const jet_ring_desc *desc, jet_ring *out);

/**
 * jet_ring_connect - the consumer end: connect, check the producer, import
 * every slot and event.
 * @return JET_STATUS_OK; INVALID_ARGUMENT; INVALID_HANDLE; TIMEOUT; DISCONNECTED
 *         (refused or closed by the producer, e.g. when it is full);
 *         PERMISSION_DENIED; PROTOCOL_ERROR (a malformed or foreign answer); a
 *         CUDA status (importing).
 * Thread safety: safe from any thread.
 */
jet_status jet_ring_connect(jet_context ctx, const jet_ring_consumer_desc *desc, jet_ring *out);

/**
 * jet_ring_destroy - close either end. A consumer's held frames are released
 * (its streams are synchronised first); a producer's consumers see
 * DISCONNECTED. Work queued on slots must be complete or synchronised.
 * @r: the end, or NULL (a no-op).
 * @return JET_STATUS_OK; INVALID_HANDLE; a CUDA status (released anyway).
 * Thread safety: no other thread may use @r during the call.
 */
jet_status jet_ring_destroy(jet_ring r);

/**
 * jet_ring_poll - producer: accept new consumers, take in releases, notice
 * consumers that went away and send a waiting frame to a DROP_OLDEST consumer
 * whose socket has room again, waiting up to @timeout_ms for something to do
 * (jet_ring_loan does the same while it waits). A producer that stops
 * publishing keeps calling it to serve its consumers.
 * @return JET_STATUS_OK; TIMEOUT (nothing happened); INVALID_HANDLE;
 *         INVALID_ARGUMENT (a consumer end, negative timeout).
 */
jet_status jet_ring_poll(jet_ring r, int timeout_ms);

/**
 * jet_ring_loan - producer: a slot to write. Prefers a slot no one holds, then
 * reclaims the oldest frame that only DROP_OLDEST consumers queued and have not
 * taken; waits up to @timeout_ms for LOSSLESS consumers to release.
 * @frame: receives the slot (image or buffer), seq 0.
 * @return JET_STATUS_OK; TIMEOUT; INVALID_HANDLE; INVALID_ARGUMENT;
 *         INVALID_STATE (every slot is loaned already).
 */
jet_status jet_ring_loan(jet_ring r, int timeout_ms, jet_ring_frame *frame);

/**
 * jet_ring_publish - producer: the loaned slot is written by work on @stream;
 * record its event there and tell every consumer (sequence number, timestamp,
 * up to JET_RING_MAX_USER_BYTES of user bytes). Returns without waiting for
 * the GPU. A LOSSLESS consumer that cannot take the message is waited for up
 * to 100 ms, then loses the frame. When a DROP_OLDEST consumer's socket is
 * full (of messages of frames reclaimed since), its newest frame waits
 * (stats.deferred) and goes out once there is room, at the next publish,
 * poll or loan: a consumer that catches up after the producer has stopped
 * publishing still gets the last frame.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (not a loaned slot, too many user
 *         bytes); INVALID_HANDLE; WRONG_CONTEXT; a CUDA status.
 */
jet_status jet_ring_publish(jet_ring r, jet_ring_frame *frame, jet_stream stream,
                            uint64_t timestamp_ns, const void *user, size_t user_len);

/**
 * jet_ring_discard - producer: give back a loaned slot without publishing it.
 * @return JET_STATUS_OK, INVALID_HANDLE, INVALID_ARGUMENT.
 */
jet_status jet_ring_discard(jet_ring r, const jet_ring_frame *frame);

/**
 * jet_ring_take - consumer: the next or newest published frame. Work on
 * @stream after the call waits for the producer's writes (GPU-side wait; the
 * host does not block on the GPU).
 * @return JET_STATUS_OK; TIMEOUT (nothing new in @timeout_ms); DISCONNECTED
 *         (the producer has gone); INVALID_STATE (queue_depth frames held:
 *         release one); INVALID_HANDLE; WRONG_CONTEXT; PROTOCOL_ERROR; a CUDA
 *         status.
 */
jet_status jet_ring_take(jet_ring r, jet_ring_take_mode mode, jet_stream stream, int timeout_ms,
                         jet_ring_frame *frame);

/**
 * jet_ring_release - consumer: done with a taken frame once the work on
 * @stream finishes (NULL: it is finished now). The slot is handed back when
 * that work completes, without blocking here.
 * @return JET_STATUS_OK; INVALID_ARGUMENT (not a frame this end holds);
 *         INVALID_HANDLE; WRONG_CONTEXT; a CUDA status.
 */
jet_status jet_ring_release(jet_ring r, const jet_ring_frame *frame, jet_stream stream);

/**
 * jet_ring_fd - the socket to poll for readability in the caller's own loop:
 * a consumer's frames; a producer's new connections only (releases and room
 * for waiting frames come on each consumer's socket: jet_ring_poll serves
 * those).
 * @return JET_STATUS_OK, INVALID_HANDLE, INVALID_ARGUMENT.
 */
jet_status jet_ring_fd(jet_ring r, int *fd);

/**
 * jet_ring_get_stats - counters of this end.
 * @return JET_STATUS_OK, INVALID_HANDLE, INVALID_ARGUMENT.
 */
jet_status jet_ring_get_stats(jet_ring r, jet_ring_stats *stats);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_RING_H */

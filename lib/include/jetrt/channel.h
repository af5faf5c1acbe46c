/*
 * jetrt/channel.h - a local message channel that also carries file descriptors.
 *
 * A channel joins one producer process (the server, which listens) to any
 * number of consumer processes (clients, which connect) on the same machine,
 * over a Unix-domain SOCK_SEQPACKET socket. Each jet_channel_send is delivered
 * as one whole message by one jet_channel_recv: a 16-bit type, up to
 * JET_CHANNEL_MAX_PAYLOAD bytes and up to JET_CHANNEL_MAX_FDS file
 * descriptors (passed with SCM_RIGHTS, so the receiver gets its own
 * descriptors for the same open files). It needs no GPU and no context.
 *
 *   server                                   client
 *   jet_channel_listen(&desc, &l);           jet_channel_connect(&desc, 1000, &c);
 *   jet_channel_accept(l, 1000, &c);         jet_channel_send(c, 1, "hi", 2, NULL, 0, 1000);
 *   jet_channel_recv(c, 1000, &msg);
 *
 * Wire format: each message is one socket record, a 16-byte little-endian
 * header followed by the payload:
 *
 *   offset  size  field
 *    0      4     magic 0x4354454A ("JETC" in memory)
 *    4      2     version (1)
 *    6      2     type (1..65535)
 *    8      4     payload_len (bytes after the header, <= JET_CHANNEL_MAX_PAYLOAD)
 *   12      2     nfds (descriptors attached to the record, <= JET_CHANNEL_MAX_FDS)
 *   14      2     reserved (0)
 *
 * A received record is checked in full before anything in it is used; any
 * mismatch is JET_STATUS_PROTOCOL_ERROR, the record is consumed and every
 * descriptor that came with it is closed.
 *
 * Security:
 *  - desc.path is a file-system path, or "@name" for a Linux abstract socket
 *    (no file; "@" stands for the leading NUL byte).
 *  - A socket file is created with mode 0600. A stale socket file left by a
 *    dead server (nobody accepts connections on it) is replaced; a live one is
 *    refused (JET_STATUS_INVALID_STATE, "in use"); a path that exists and is
 *    not a socket is refused and never removed. The listener removes its file
 *    when closed, if the path still names the file it created.
 *  - Abstract sockets have no file permissions, so both ends check the other
 *    end's credentials (SO_PEERCRED, taken when the peer connected or began
 *    listening): a peer whose user id differs from this process's effective
 *    user id is refused with JET_STATUS_PERMISSION_DENIED, unless
 *    JET_CHANNEL_ALLOW_UID is set and its uid is desc.allow_uid, or
 *    JET_CHANNEL_ALLOW_GID is set and its gid is desc.allow_gid.
 *  - Received descriptors are close-on-exec; sending to a peer that has gone
 *    never raises SIGPIPE.
 *
 * Timeouts: every call that can wait takes timeout_ms, the most it waits in
 * milliseconds (0: do not wait at all; negative values are refused, so no call
 * can block forever). Running out of time is JET_STATUS_TIMEOUT and changes
 * nothing. A peer that closed its end, or died, gives JET_STATUS_DISCONNECTED.
 * Signals interrupting a wait do not cut it short.
 *
 * Thread safety: one thread may send while another receives on the same
 * channel, and accept may run while other channels are used. Two threads
 * receiving (or two sending) on one channel get whole records but in no
 * defined order. jet_channel_close must not race with any other call on the
 * same channel.
 */
#ifndef JETRT_CHANNEL_H
#define JETRT_CHANNEL_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A listening socket, or one end of a connection. */
typedef struct jet_channel_s *jet_channel;

/** Limits of one message. */
enum {
  JET_CHANNEL_MAX_PAYLOAD = 65536, /**< bytes of payload, header not counted */
  JET_CHANNEL_MAX_FDS = 64         /**< file descriptors */
};

/** jet_channel_desc.flags: which allow_* fields are in force. */
enum {
  JET_CHANNEL_ALLOW_UID = 1u << 0, /**< also accept peers whose uid is allow_uid */
  JET_CHANNEL_ALLOW_GID = 1u << 1  /**< also accept peers whose gid is allow_gid */
};

/** Where to listen or connect, and whom to trust. Zero-initialise, then set. */
typedef struct jet_channel_desc {
  const char *path;   /**< socket file path, or "@name" for an abstract socket */
  unsigned flags;     /**< JET_CHANNEL_ALLOW_* bits; 0: only peers of this process's euid */
  unsigned allow_uid; /**< read only with JET_CHANNEL_ALLOW_UID */
  unsigned allow_gid; /**< read only with JET_CHANNEL_ALLOW_GID */
} jet_channel_desc;

/** A received message. The caller provides payload and capacity. */
typedef struct jet_channel_msg {
  unsigned type;          /**< out: 1..65535 */
  size_t len;             /**< out: payload bytes received */
  unsigned char *payload; /**< in: the caller's buffer (may be NULL when capacity is 0) */
  size_t capacity;        /**< in: size of payload */
  int fds[JET_CHANNEL_MAX_FDS]; /**< out: received descriptors, the caller's to close; -1 beyond nfds */
  int nfds;               /**< out: count of fds; 0 after any failure */
} jet_channel_msg;

/** Credentials of the process at the other end, as the kernel saw them. */
typedef struct jet_channel_peer {
  int pid;          /**< process id when it connected (or listened) */
  unsigned uid, gid; /**< its effective user and group id then */
} jet_channel_peer;

/**
 * jet_channel_listen - open a listening channel at desc->path.
 *
 * A socket file is created with mode 0600; a stale socket file at the path
 * is replaced (see the security rules above).
 * @desc: the address and the allowed peers (kept for jet_channel_accept).
 * @out: receives the listener; left NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @desc, @out
 *         or path, an empty path or abstract name, a path too long for a
 *         socket address, or unknown flags; JET_STATUS_INVALID_STATE when a
 *         server is already listening at the path or the path exists and is
 *         not a socket (nothing is removed); JET_STATUS_PERMISSION_DENIED when
 *         the directory may not be written; JET_STATUS_IO_ERROR for other
 *         failures of socket, bind or listen (the detail names the call and
 *         errno); JET_STATUS_OUT_OF_MEMORY.
 * Thread safety: safe from any thread.
 */
jet_status jet_channel_listen(const jet_channel_desc *desc, jet_channel *out);

/**
 * jet_channel_accept - wait for a client and return its connection.
 *
 * The client's credentials are checked against the listener's desc; a
 * refused client is disconnected and the call returns
 * JET_STATUS_PERMISSION_DENIED (call again for the next client).
 * @listener: a channel made by jet_channel_listen.
 * @timeout_ms: most time to wait for a client, >= 0.
 * @out: receives the connection; left NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @out or a
 *         negative timeout; JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE
 *         when @listener is a connection; JET_STATUS_TIMEOUT;
 *         JET_STATUS_PERMISSION_DENIED (detail: the peer's pid, uid, gid);
 *         JET_STATUS_IO_ERROR (for example EMFILE); JET_STATUS_OUT_OF_MEMORY.
 * Thread safety: see the file comment.
 */
jet_status jet_channel_accept(jet_channel listener, int timeout_ms, jet_channel *out);

/**
 * jet_channel_connect - connect to the server listening at desc->path.
 *
 * The server's credentials are checked against @desc as accept checks a
 * client's. The call does not wait for a server to appear: with none there,
 * it fails at once.
 * @desc: the address and the allowed server users.
 * @timeout_ms: most time to wait while the server's queue of pending clients
 *              is full, >= 0.
 * @out: receives the connection; left NULL on failure.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT as for
 *         jet_channel_listen, or a negative timeout; JET_STATUS_DISCONNECTED
 *         when nobody listens at the path (ENOENT, ECONNREFUSED);
 *         JET_STATUS_PERMISSION_DENIED when the socket file may not be opened
 *         or the server's user is not allowed; JET_STATUS_TIMEOUT;
 *         JET_STATUS_IO_ERROR; JET_STATUS_OUT_OF_MEMORY.
 * Thread safety: safe from any thread.
 */
jet_status jet_channel_connect(const jet_channel_desc *desc, int timeout_ms, jet_channel *out);

/**
 * jet_channel_close - close a listener or a connection and free the handle.
 *
 * The peer of a connection sees JET_STATUS_DISCONNECTED once it has read what
 * was sent before. A listener removes its socket file (if the path still names
 * the file it created); clients already accepted stay connected.
 * @ch: the channel, or NULL (a no-op).
 * @return JET_STATUS_OK or JET_STATUS_INVALID_HANDLE.
 * Thread safety: no other call may use @ch during or after the call.
 */
jet_status jet_channel_close(jet_channel ch);

/**
 * jet_channel_send - send one message, with descriptors, as one record.
 *
 * The record is sent whole or not at all. The descriptors stay open and owned
 * by the caller; the receiver gets duplicates.
 * @ch: a connection.
 * @type: message type, 1..65535.
 * @payload: @len bytes; may be NULL when @len is 0.
 * @len: <= JET_CHANNEL_MAX_PAYLOAD.
 * @fds: @nfds open descriptors; may be NULL when @nfds is 0.
 * @nfds: 0..JET_CHANNEL_MAX_FDS.
 * @timeout_ms: most time to wait while the socket buffer is full, >= 0.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a type outside
 *         1..65535, @len or @nfds over the limit, a NULL pointer with a
 *         non-zero count, a negative descriptor or timeout, or a descriptor
 *         that is not open (EBADF); JET_STATUS_INVALID_HANDLE;
 *         JET_STATUS_INVALID_STATE on a listener; JET_STATUS_TIMEOUT (nothing
 *         was sent); JET_STATUS_DISCONNECTED when the peer has gone;
 *         JET_STATUS_IO_ERROR for other sendmsg failures.
 * Thread safety: see the file comment.
 */
jet_status jet_channel_send(jet_channel ch, unsigned type, const void *payload, size_t len,
                            const int *fds, int nfds, int timeout_ms);

/**
 * jet_channel_recv - receive one message.
 *
 * On success msg->type, len, fds and nfds are set and the descriptors belong
 * to the caller (close-on-exec is set on each). On any failure msg->nfds is 0,
 * msg->fds are all -1, nothing is left open, and the payload buffer's
 * contents are unspecified.
 * @ch: a connection.
 * @timeout_ms: most time to wait for a message, >= 0.
 * @msg: payload and capacity set by the caller; the rest is written.
 * @return JET_STATUS_OK; JET_STATUS_INVALID_ARGUMENT for a NULL @msg, a NULL
 *         payload with a non-zero capacity, or a negative timeout;
 *         JET_STATUS_INVALID_HANDLE; JET_STATUS_INVALID_STATE on a listener;
 *         JET_STATUS_TIMEOUT (nothing was consumed); JET_STATUS_DISCONNECTED
 *         when the peer has closed and everything it sent has been read;
 *         JET_STATUS_PROTOCOL_ERROR when the record is malformed (the detail
 *         names the field and the values) or its payload exceeds
 *         msg->capacity: the record is consumed, its descriptors closed, and
 *         the channel can go on with the next record; JET_STATUS_IO_ERROR.
 * Thread safety: see the file comment.
 */
jet_status jet_channel_recv(jet_channel ch, int timeout_ms, jet_channel_msg *msg);

/**
 * jet_channel_fd - the socket descriptor, for the caller's own poll loop.
 *
 * It is readable (POLLIN) when accept or recv would not wait. The caller must
 * not read, write, close or change it.
 * @fd: receives the descriptor.
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @fd, or
 *         JET_STATUS_INVALID_HANDLE.
 * Thread safety: safe from any thread.
 */
jet_status jet_channel_fd(jet_channel ch, int *fd);

/**
 * jet_channel_peer_info - the credentials of the process at the other end.
 * @ch: a connection.
 * @peer: receives pid, uid and gid (the ones checked when connecting).
 * @return JET_STATUS_OK, JET_STATUS_INVALID_ARGUMENT for a NULL @peer,
 *         JET_STATUS_INVALID_HANDLE, or JET_STATUS_INVALID_STATE on a listener.
 * Thread safety: safe from any thread.
 */
jet_status jet_channel_peer_info(jet_channel ch, jet_channel_peer *peer);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_CHANNEL_H */

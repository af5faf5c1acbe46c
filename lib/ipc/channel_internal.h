/*
 * Internal parts of the channel (lib/ipc/channel.c) that other layers and the
 * tests use: the record header codec, pure so that it can be fuzzed, and the
 * descriptor classifier.
 */
#ifndef JET_CHANNEL_INTERNAL_H
#define JET_CHANNEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define JET__CHAN_MAGIC 0x4354454Au /* "JETC" in memory, little-endian */
#define JET__CHAN_VERSION 1u
#define JET__CHAN_HEADER_SIZE 16u

/* The record header, decoded. */
typedef struct jet__chan_header {
  uint32_t magic;
  uint16_t version;
  uint16_t type;
  uint32_t payload_len;
  uint16_t nfds;
  uint16_t reserved;
} jet__chan_header;

/* Write the 16 header bytes of a record (magic, version 1, reserved 0). The
 * caller has checked type (1..65535), payload_len and nfds against the limits. */
void jet__chan_header_encode(unsigned char out[JET__CHAN_HEADER_SIZE], unsigned type,
                             uint32_t payload_len, unsigned nfds);

/* Check a received record: @rec holds its first min(@len, @avail) bytes, where
 * @len is the record's full length and @nfds_received the descriptors that came
 * with it. Validates, in order: length >= header, magic, version, type,
 * reserved, nfds <= the limit and == @nfds_received, payload_len <= the limit
 * and == @len - 16. PROTOCOL_ERROR with the field and the values otherwise.
 * @out is written only on success. Pure: no syscalls. */
jet_status jet__chan_header_parse(const unsigned char *rec, size_t avail, size_t len,
                                  int nfds_received, jet__chan_header *out, const char *fn);

/* What kind of file a descriptor refers to, so that a layer above the channel
 * can refuse descriptors of the wrong kind. */
typedef enum jet__fd_kind {
  JET__FD_REGULAR = 1,   /* regular file */
  JET__FD_MEMFD,         /* regular file made by memfd_create */
  JET__FD_CHAR_DEVICE,   /* e.g. /dev/nvidia*, /dev/nvmap */
  JET__FD_SOCKET,
  JET__FD_PIPE,          /* pipe or FIFO */
  JET__FD_ANON_INODE,    /* eventfd, sync_file, ...: the link reads "anon_inode:..." */
  JET__FD_DIRECTORY,
  JET__FD_OTHER          /* block device, symlink, anything else: see the link text */
} jet__fd_kind;

/* Classify @fd with fstat and, for regular files and anonymous inodes, the
 * /proc/self/fd link. @link (may be NULL) receives that link text, truncated to
 * @link_cap, or "" when it could not be read. INVALID_ARGUMENT (native EBADF)
 * for a descriptor that is not open. */
jet_status jet__fd_kind_of(int fd, jet__fd_kind *kind, char *link, size_t link_cap,
                           const char *fn);
const char *jet__fd_kind_name(jet__fd_kind kind);

/* The errno name ("ECONNREFUSED"), or "E?" for an unknown value. */
const char *jet__errno_name(int err);

#endif /* JET_CHANNEL_INTERNAL_H */

/* Memory module on a GPU: every kind allocated and round-tripped with fresh
 * random data, pitched 2D/3D copies at odd sizes and offsets, fills checked
 * against poisoned buffers, sync and stream-ordered variants, allocation
 * failure and host fallback, registration, managed hand-over per policy,
 * destroyed handles and wrong contexts. */
#include <stdlib.h>
#include <string.h>

#include "test.h"

static long first_diff(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return (long)i;
  return -1;
}

#define CHECK_SAME(a, b, n, what)                                                        \
  CHECK_MSG(first_diff((a), (b), (n)) < 0, "%s: first difference at byte %ld of %zu", (what), \
            first_diff((a), (b), (n)), (size_t)(n))

static void *rnd_alloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (p) jt_fill_random(p, n);
  return p;
}

static jet_status make_buf(jet_context ctx, jet_memory_kind kind, unsigned flags, size_t w,
                           size_t h, size_t d, jet_buffer *out, jet_buffer_info *info) {
  jet_buffer_desc desc = {kind, flags, w, h, d};
  jet_status st = jet_buffer_create(ctx, &desc, out);
  if (st == JET_STATUS_OK) st = jet_buffer_get_info(*out, info);
  return st;
}

static jet_status ctx_on(const char *platform, jet_context *ctx) {
  jet_context_desc d = {0, 0, platform};
  return jet_context_create(ctx, &d);
}

/* ------------------------------------------------------------ every kind */

TEST(gpu_buffer_every_kind_round_trip) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  jet_policy pol;
  CHECK_OK(jet_context_platform(ctx, &pi));
  CHECK_OK(jet_context_policy(ctx, &pol));
  static const struct {
    jet_memory_kind kind;
    unsigned flags;
    size_t w, h, d;
  } rows[] = {
      {JET_MEMORY_DEVICE, 0, 1, 0, 0},
      {JET_MEMORY_DEVICE, 0, 4099, 3, 2},
      {JET_MEMORY_DEVICE, JET_MEM_PITCHED, 1, 1, 1},
      {JET_MEMORY_DEVICE, JET_MEM_PITCHED, 1921, 1081, 0},
      {JET_MEMORY_DEVICE, JET_MEM_PITCHED, 67, 13, 5},
      {JET_MEMORY_DEVICE, JET_MEM_PITCHED | JET_MEM_FALLBACK_HOST, 3, 2, 0},
      {JET_MEMORY_HOST_PINNED, 0, 1000, 0, 0},
      {JET_MEMORY_HOST_PINNED, JET_MEM_PORTABLE, 333, 7, 3},
      {JET_MEMORY_HOST_PINNED, JET_MEM_WRITE_COMBINED, 4096, 2, 0},
      {JET_MEMORY_HOST_MAPPED, 0, 1, 0, 0},
      {JET_MEMORY_HOST_MAPPED, JET_MEM_PORTABLE | JET_MEM_WRITE_COMBINED, 5000, 3, 0},
      {JET_MEMORY_HOST_MAPPED, JET_MEM_PORTABLE, 129, 5, 2},
      {JET_MEMORY_MANAGED, 0, 7777, 0, 0},
      {JET_MEMORY_MANAGED, JET_MEM_ATTACH_GLOBAL, 100, 3, 3},
      {JET_MEMORY_MANAGED, JET_MEM_ATTACH_HOST, 65536, 0, 0},
  };
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    jet_memory_kind k = rows[r].kind;
    if (k == JET_MEMORY_HOST_MAPPED && !pi.can_map_host_memory) continue;
    if (k == JET_MEMORY_MANAGED && !pi.managed_memory) continue;
    size_t w = rows[r].w, h = rows[r].h ? rows[r].h : 1, d = rows[r].d ? rows[r].d : 1;
    jet_buffer b;
    jet_buffer_info i;
    CHECK_OK(make_buf(ctx, k, rows[r].flags, rows[r].w, rows[r].h, rows[r].d, &b, &i));
    CHECK_MSG(i.kind == k && i.requested_kind == k && i.flags == rows[r].flags, "row %zu", r);
    CHECK_MSG(i.width_bytes == w && i.height == h && i.depth == d, "row %zu", r);
    CHECK_MSG(i.pitch >= w && i.size == i.pitch * h * d, "row %zu: pitch %zu size %zu", r,
              i.pitch, i.size);
    if (!(rows[r].flags & JET_MEM_PITCHED)) CHECK_MSG(i.pitch == w, "row %zu", r);
    switch (k) {
      case JET_MEMORY_DEVICE: CHECK_MSG(i.device_ptr && !i.host_ptr, "row %zu", r); break;
      case JET_MEMORY_HOST_PINNED: CHECK_MSG(!i.device_ptr && i.host_ptr, "row %zu", r); break;
      case JET_MEMORY_HOST_MAPPED: CHECK_MSG(i.device_ptr && i.host_ptr, "row %zu", r); break;
      default: CHECK_MSG(i.device_ptr && i.device_ptr == i.host_ptr, "row %zu", r); break;
    }
    void *dp = (void *)1, *hp = (void *)1;
    CHECK_OK(jet_buffer_device_ptr(b, &dp));
    CHECK_OK(jet_buffer_host_ptr(b, &hp));
    CHECK(dp == i.device_ptr && hp == i.host_ptr);
    int pinned = k == JET_MEMORY_HOST_PINNED || k == JET_MEMORY_HOST_MAPPED;
    CHECK_MSG(i.cpu_reads_uncached ==
                  (pinned && ((rows[r].flags & JET_MEM_WRITE_COMBINED) ||
                              !pol.pinned_cpu_reads_cached)),
              "row %zu", r);
    CHECK_MSG(i.gpu_access_crosses_bus == (k == JET_MEMORY_HOST_MAPPED && !pi.integrated),
              "row %zu", r);

    /* in through one pointer, out again, compared; then the CPU view */
    size_t nrows = h * d, n = w * nrows;
    unsigned char *src = rnd_alloc(n), *back = rnd_alloc(n);
    CHECK(src && back);
    void *target = i.device_ptr ? i.device_ptr : i.host_ptr;
    CHECK_OK(jet_memcpy_2d(ctx, target, i.pitch, src, w, w, nrows));
    CHECK_OK(jet_memcpy_2d(ctx, back, w, target, i.pitch, w, nrows));
    CHECK_SAME(src, back, n, "round trip");
    if (i.host_ptr) {
      CHECK_OK(jet_context_synchronize(ctx));
      for (size_t y = 0; y < nrows; y++)
        CHECK_SAME((unsigned char *)i.host_ptr + y * i.pitch, src + y * w, w, "host view");
    }
    if (k == JET_MEMORY_HOST_MAPPED) {
      /* zero-copy: what the CPU writes, the device pointer reads */
      jt_fill_random(src, n);
      jt_fill_random(back, n);
      for (size_t y = 0; y < nrows; y++)
        memcpy((unsigned char *)i.host_ptr + y * i.pitch, src + y * w, w);
      CHECK_OK(jet_memcpy_2d(ctx, back, w, i.device_ptr, i.pitch, w, nrows));
      CHECK_SAME(src, back, n, "mapped view");
    }
    free(src);
    free(back);
    CHECK_OK(jet_buffer_destroy(b));
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ 2D */

static jet_status cp2d(jet_context ctx, jet_stream s, void *dst, size_t dp, const void *src,
                       size_t sp, size_t w, size_t h) {
  return s ? jet_memcpy_2d_async(s, dst, dp, src, sp, w, h)
           : jet_memcpy_2d(ctx, dst, dp, src, sp, w, h);
}

/* Host -> pitched device at an offset, device -> device to another offset,
 * both read back whole; everything outside the regions must keep its poison. */
static int run_2d(jet_context ctx, jet_stream s, size_t w, size_t h) {
  size_t ox = 1 + jt_rand() % 7, oy = 1 + jt_rand() % 5;
  size_t W = w + ox + 3, H = h + oy + 2;
  jet_buffer A, B;
  jet_buffer_info a, b;
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, JET_MEM_PITCHED, W, H, 0, &A, &a));
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, JET_MEM_PITCHED, W, H, 0, &B, &b));
  unsigned char *pa = rnd_alloc(W * H), *pb = rnd_alloc(W * H);
  CHECK(pa && pb);
  CHECK_OK(jet_memcpy_2d(ctx, a.device_ptr, a.pitch, pa, W, W, H));
  CHECK_OK(jet_memcpy_2d(ctx, b.device_ptr, b.pitch, pb, W, W, H));

  size_t sp = w + 5 + jt_rand() % 9, sx = jt_rand() % 5;
  unsigned char *S = rnd_alloc(sp * h + sx);
  CHECK(S);
  size_t bx = jt_rand() % (W - w + 1), by = jt_rand() % (H - h + 1);
  unsigned char *aregion = (unsigned char *)a.device_ptr + oy * a.pitch + ox;
  CHECK_OK(cp2d(ctx, s, aregion, a.pitch, S + sx, sp, w, h));
  CHECK_OK(cp2d(ctx, s, (unsigned char *)b.device_ptr + by * b.pitch + bx, b.pitch, aregion,
                a.pitch, w, h));
  size_t rp = W + 3;
  unsigned char *ra = rnd_alloc(rp * H), *rb = rnd_alloc(rp * H), *rb0 = malloc(rp * H);
  CHECK(ra && rb && rb0);
  memcpy(rb0, rb, rp * H);
  CHECK_OK(cp2d(ctx, s, ra, rp, a.device_ptr, a.pitch, W, H));
  CHECK_OK(cp2d(ctx, s, rb, rp, b.device_ptr, b.pitch, W, H));
  if (s) CHECK_OK(jet_context_synchronize(ctx));

  for (size_t y = 0; y < h; y++) {
    memcpy(pa + (oy + y) * W + ox, S + sx + y * sp, w);
    memcpy(pb + (by + y) * W + bx, S + sx + y * sp, w);
  }
  for (size_t y = 0; y < H; y++) {
    CHECK_MSG(first_diff(ra + y * rp, pa + y * W, W) < 0, "%zux%zu: A row %zu", w, h, y);
    CHECK_MSG(first_diff(rb + y * rp, pb + y * W, W) < 0, "%zux%zu: B row %zu", w, h, y);
    CHECK_MSG(first_diff(rb + y * rp + W, rb0 + y * rp + W, rp - W) < 0,
              "%zux%zu: padding of row %zu written", w, h, y);
  }
  free(pa);
  free(pb);
  free(S);
  free(ra);
  free(rb);
  free(rb0);
  CHECK_OK(jet_buffer_destroy(A));
  CHECK_OK(jet_buffer_destroy(B));
  return 0;
}

TEST(gpu_memcpy_2d_pitched_sizes_and_offsets) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream per_thread, legacy;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &per_thread));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &legacy));
  static const size_t sizes[][2] = {{1, 1}, {3, 2}, {1921, 1081}};
  jet_stream streams[] = {NULL, per_thread, legacy};
  for (int k = 0; k < 3; k++)
    for (int z = 0; z < 3; z++) {
      int rc = run_2d(ctx, streams[k], sizes[z][0], sizes[z][1]);
      if (rc) {
        fprintf(stderr, "  (stream variant %d, size %zux%zu)\n", k, sizes[z][0], sizes[z][1]);
        return rc;
      }
    }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Device to device inside one pitched buffer pair, for each width class of
 * jetrt's 2D kernels (16-byte, 4-byte and byte rows: offsets, pitches and
 * widths chosen so that each class is the widest that fits), the packed case
 * (one 1D copy) and rows taller than a grid's 65535: copies and fills, every
 * byte of both buffers checked, padding and margins included. */
static int random_value(void);

static int run_2d_d2d(jet_context ctx, jet_stream s, size_t w, size_t h, size_t align,
                      size_t pitch_pad) {
  size_t sp = w + pitch_pad, dp = w + pitch_pad + align, n_s = sp * h + 64, n_d = dp * h + 64;
  jet_buffer A, B;
  jet_buffer_info a, b;
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, 0, n_s, 0, 0, &A, &a));
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, 0, n_d, 0, 0, &B, &b));
  unsigned char *S = rnd_alloc(n_s), *D = rnd_alloc(n_d), *R = malloc(n_d);
  CHECK(S && D && R);
  CHECK_OK(jet_memcpy(ctx, a.device_ptr, S, n_s));
  CHECK_OK(jet_memcpy(ctx, b.device_ptr, D, n_d));
  size_t so = align, doff = 2 * align % 64;
  unsigned char *src = (unsigned char *)a.device_ptr + so, *dst = (unsigned char *)b.device_ptr + doff;
  CHECK_OK(s ? jet_memcpy_2d_async(s, dst, dp, src, sp, w, h) : jet_memcpy_2d(ctx, dst, dp, src, sp, w, h));
  if (s) CHECK_OK(jet_stream_synchronize(s));
  CHECK_OK(jet_memcpy(ctx, R, b.device_ptr, n_d));
  for (size_t y = 0; y < h; y++) memcpy(D + doff + y * dp, S + so + y * sp, w);
  CHECK_MSG(first_diff(R, D, n_d) < 0, "copy %zux%zu align %zu pad %zu: differs at %ld", w, h,
            align, pitch_pad, first_diff(R, D, n_d));
  int v = random_value();
  CHECK_OK(s ? jet_memset_2d_async(s, dst, dp, v, w, h) : jet_memset_2d(ctx, dst, dp, v, w, h));
  if (s) CHECK_OK(jet_stream_synchronize(s));
  CHECK_OK(jet_memcpy(ctx, R, b.device_ptr, n_d));
  for (size_t y = 0; y < h; y++) memset(D + doff + y * dp, (unsigned char)v, w);
  CHECK_MSG(first_diff(R, D, n_d) < 0, "fill %zux%zu align %zu pad %zu: differs at %ld", w, h,
            align, pitch_pad, first_diff(R, D, n_d));
  free(S);
  free(D);
  free(R);
  CHECK_OK(jet_buffer_destroy(A));
  CHECK_OK(jet_buffer_destroy(B));
  return 0;
}

TEST(gpu_memcpy_2d_device_to_device_widths) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream_desc sd = {JET_STREAM_NON_BLOCKING, 0};
  jet_stream st;
  CHECK_OK(jet_stream_create(ctx, &sd, &st));
  /* w, h, alignment of pointers and pitches (16, 4, 1), padding of the source pitch */
  /* rows of 80, 960 and 640 vectors take 16-, 64- and 128-lane blocks; a
   * one-vector row 1.1M tall takes 16 x 16 blocks and more than 65535 of them */
  static const size_t cases[][4] = {{7680, 1081, 16, 64}, {1921 * 4, 1081, 4, 4},
                                    {1921, 1081, 1, 3},   {64, 70000, 16, 16},
                                    {1, 1, 1, 1},         {16, 3, 16, 0},
                                    {3, 2, 4, 4},         {1280, 37, 16, 0},
                                    {15360, 9, 16, 64},   {10240, 5, 16, 16},
                                    {16, 1100000, 16, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int k = 0; k < 2; k++)
      CHECK(run_2d_d2d(ctx, k ? st : NULL, cases[i][0], cases[i][1], cases[i][2], cases[i][3]) == 0);
  /* packed rows (pitch == width): one 1D copy and fill, the fill by the
   * 16-byte kernel where the span allows it, else by cudaMemsetAsync */
  CHECK(run_2d_d2d(ctx, st, 4096, 64, 0, 0) == 0);
  CHECK(run_2d_d2d(ctx, st, 4095, 3, 0, 0) == 0);
  CHECK_OK(jet_stream_destroy(st));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ 3D */

static jet_status cp3d(jet_context ctx, jet_stream s, const jet_copy_3d *p) {
  return s ? jet_memcpy_3d_async(s, p) : jet_memcpy_3d(ctx, p);
}

/* Host region -> device region (pitched or linear buffer), device region ->
 * another host array at another position; both checked whole against poison. */
static int run_3d(jet_context ctx, jet_stream s, size_t w, size_t h, size_t d, unsigned flags) {
  size_t ox = jt_rand() % 4, oy = jt_rand() % 3, oz = jt_rand() % 2;
  size_t W = w + ox + 2, H = h + oy + 1, D = d + oz + 1;
  jet_buffer A;
  jet_buffer_info a;
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, flags, W, H, D, &A, &a));
  unsigned char *P = rnd_alloc(a.size);
  CHECK(P);
  CHECK_OK(jet_memcpy(ctx, a.device_ptr, P, a.size));

  size_t sx = jt_rand() % 3, sy = jt_rand() % 3, sz = jt_rand() % 2;
  size_t hp = w + sx + 3, hr = h + sy + 1, hd = d + sz;
  unsigned char *S = rnd_alloc(hp * hr * hd);
  size_t qp = w + 2, qr = h + 3, qd = d + 1, qn = qp * qr * qd;
  unsigned char *Q = rnd_alloc(qn), *Qe = malloc(qn), *RB = rnd_alloc(a.size);
  CHECK(S && Q && Qe && RB);
  memcpy(Qe, Q, qn);

  jet_copy_3d c;
  memset(&c, 0, sizeof c);
  c.dst = (jet_pitched_ptr){a.device_ptr, a.pitch, H};
  c.dst_pos = (jet_pos){ox, oy, oz};
  c.src = (jet_pitched_ptr){S, hp, hr};
  c.src_pos = (jet_pos){sx, sy, sz};
  c.extent = (jet_extent){w, h, d};
  CHECK_OK(cp3d(ctx, s, &c));
  c.src = c.dst;
  c.src_pos = c.dst_pos;
  c.dst = (jet_pitched_ptr){Q, qp, qr};
  c.dst_pos = (jet_pos){1, 2, 1};
  CHECK_OK(cp3d(ctx, s, &c));
  if (s) CHECK_OK(jet_context_synchronize(ctx));
  CHECK_OK(jet_memcpy(ctx, RB, a.device_ptr, a.size));

  for (size_t z = 0; z < d; z++)
    for (size_t y = 0; y < h; y++) {
      const unsigned char *row = S + ((sz + z) * hr + sy + y) * hp + sx;
      memcpy(P + ((oz + z) * H + oy + y) * a.pitch + ox, row, w);
      memcpy(Qe + ((1 + z) * qr + 2 + y) * qp + 1, row, w);
    }
  CHECK_MSG(first_diff(RB, P, a.size) < 0, "%zux%zux%zu flags %u: device image differs at %ld", w,
            h, d, flags, first_diff(RB, P, a.size));
  CHECK_MSG(first_diff(Q, Qe, qn) < 0, "%zux%zux%zu flags %u: host image differs at %ld", w, h, d,
            flags, first_diff(Q, Qe, qn));
  free(P);
  free(S);
  free(Q);
  free(Qe);
  free(RB);
  CHECK_OK(jet_buffer_destroy(A));
  return 0;
}

TEST(gpu_memcpy_3d_pitched_sizes_and_offsets) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream per_thread;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &per_thread));
  static const size_t sizes[][3] = {{1, 1, 1}, {3, 2, 2}, {67, 13, 5}, {1921, 1081, 2}};
  jet_stream streams[] = {NULL, per_thread};
  unsigned flags[] = {JET_MEM_PITCHED, 0};
  for (int k = 0; k < 2; k++)
    for (int f = 0; f < 2; f++)
      for (int z = 0; z < 4; z++) {
        int rc = run_3d(ctx, streams[k], sizes[z][0], sizes[z][1], sizes[z][2], flags[f]);
        if (rc) {
          fprintf(stderr, "  (stream variant %d)\n", k);
          return rc;
        }
      }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ fills */

static int random_value(void) { return (int)(jt_rand() % 384) - 128; }

static int run_memset(jet_context ctx, jet_stream s) {
  /* 1D inside a poisoned device buffer */
  size_t n = 100003, off = jt_rand() % 1000, len = n - off - jt_rand() % 1000;
  int v = random_value();
  jet_buffer B;
  jet_buffer_info b;
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, 0, n, 0, 0, &B, &b));
  unsigned char *P = rnd_alloc(n), *R = rnd_alloc(n);
  CHECK(P && R);
  CHECK_OK(jet_memcpy(ctx, b.device_ptr, P, n));
  unsigned char *dst = (unsigned char *)b.device_ptr + off;
  CHECK_OK(s ? jet_memset_async(s, dst, v, len) : jet_memset(ctx, dst, v, len));
  if (s) CHECK_OK(jet_context_synchronize(ctx));
  CHECK_OK(jet_memcpy(ctx, R, b.device_ptr, n));
  memset(P + off, (unsigned char)v, len);
  CHECK_SAME(R, P, n, "memset 1D");
  free(P);
  free(R);
  CHECK_OK(jet_buffer_destroy(B));

  /* 2D region of a pitched buffer */
  size_t w = 1921, h = 1081, ox = jt_rand() % 9, oy = jt_rand() % 9, W = w + 9, H = h + 9;
  v = random_value();
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, JET_MEM_PITCHED, W, H, 0, &B, &b));
  P = rnd_alloc(b.size);
  R = rnd_alloc(b.size);
  CHECK(P && R);
  CHECK_OK(jet_memcpy(ctx, b.device_ptr, P, b.size));
  dst = (unsigned char *)b.device_ptr + oy * b.pitch + ox;
  CHECK_OK(s ? jet_memset_2d_async(s, dst, b.pitch, v, w, h)
             : jet_memset_2d(ctx, dst, b.pitch, v, w, h));
  if (s) CHECK_OK(jet_context_synchronize(ctx));
  CHECK_OK(jet_memcpy(ctx, R, b.device_ptr, b.size));
  for (size_t y = 0; y < h; y++) memset(P + (oy + y) * b.pitch + ox, (unsigned char)v, w);
  CHECK_SAME(R, P, b.size, "memset 2D");
  free(P);
  free(R);
  CHECK_OK(jet_buffer_destroy(B));

  /* 3D region of a cudaMalloc3D buffer, started at an offset */
  w = 67, h = 13;
  size_t d = 5, oz = jt_rand() % 2, D = d + 2;
  ox = jt_rand() % 3, oy = jt_rand() % 2, W = w + 3, H = h + 2;
  v = random_value();
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, JET_MEM_PITCHED, W, H, D, &B, &b));
  P = rnd_alloc(b.size);
  R = rnd_alloc(b.size);
  CHECK(P && R);
  CHECK_OK(jet_memcpy(ctx, b.device_ptr, P, b.size));
  jet_pitched_ptr pp = {(unsigned char *)b.device_ptr + (oz * H + oy) * b.pitch + ox, b.pitch, H};
  jet_extent e = {w, h, d};
  CHECK_OK(s ? jet_memset_3d_async(s, pp, v, e) : jet_memset_3d(ctx, pp, v, e));
  if (s) CHECK_OK(jet_context_synchronize(ctx));
  CHECK_OK(jet_memcpy(ctx, R, b.device_ptr, b.size));
  for (size_t z = 0; z < d; z++)
    for (size_t y = 0; y < h; y++)
      memset(P + ((oz + z) * H + oy + y) * b.pitch + ox, (unsigned char)v, w);
  CHECK_SAME(R, P, b.size, "memset 3D");
  free(P);
  free(R);
  CHECK_OK(jet_buffer_destroy(B));
  return 0;
}

TEST(gpu_memset_poisoned_regions) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream per_thread;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &per_thread));
  if (run_memset(ctx, NULL)) return 1;
  if (run_memset(ctx, per_thread)) return 1;
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Fills reach memory the CPU sees: mapped and managed buffers. */
TEST(gpu_memset_mapped_and_managed) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  jet_stream s;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &s));
  jet_memory_kind kinds[] = {JET_MEMORY_HOST_MAPPED, JET_MEMORY_MANAGED};
  for (int k = 0; k < 2; k++) {
    if (kinds[k] == JET_MEMORY_HOST_MAPPED && !pi.can_map_host_memory) continue;
    if (kinds[k] == JET_MEMORY_MANAGED && !pi.managed_memory) continue;
    size_t n = 65537, off = 1 + jt_rand() % 100, len = n - off - 1 - jt_rand() % 100;
    jet_buffer B;
    jet_buffer_info b;
    CHECK_OK(make_buf(ctx, kinds[k], 0, n, 0, 0, &B, &b));
    unsigned char *P = rnd_alloc(n);
    CHECK(P);
    memcpy(b.host_ptr, P, n);
    int v = random_value();
    if (k == 0) {
      CHECK_OK(jet_memset(ctx, (unsigned char *)b.device_ptr + off, v, len));
    } else {
      CHECK_OK(jet_managed_make_available(s, B, JET_PROCESSOR_GPU));
      CHECK_OK(jet_memset_async(s, (unsigned char *)b.device_ptr + off, v, len));
      CHECK_OK(jet_managed_make_available(s, B, JET_PROCESSOR_CPU));
    }
    memset(P + off, (unsigned char)v, len);
    CHECK_SAME(b.host_ptr, P, n, kinds[k] == JET_MEMORY_MANAGED ? "managed" : "mapped");
    free(P);
    CHECK_OK(jet_buffer_destroy(B));
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ 1D async chain */

TEST(gpu_memcpy_async_chain_through_kinds) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  jet_stream streams[2];
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &streams[0]));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &streams[1]));
  size_t n = (1u << 22) + 13;
  for (int k = 0; k < 2; k++) {
    jet_buffer pin, d1, d2, out;
    jet_buffer_info ip, i1, i2, io;
    jet_memory_kind out_kind =
        pi.can_map_host_memory ? JET_MEMORY_HOST_MAPPED : JET_MEMORY_HOST_PINNED;
    CHECK_OK(make_buf(ctx, JET_MEMORY_HOST_PINNED, 0, n, 0, 0, &pin, &ip));
    CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, 0, n, 0, 0, &d1, &i1));
    CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, 0, n, 0, 0, &d2, &i2));
    CHECK_OK(make_buf(ctx, out_kind, 0, n, 0, 0, &out, &io));
    jt_fill_random(ip.host_ptr, n);
    jt_fill_random(io.host_ptr, n);
    size_t off = 1 + jt_rand() % 4096, len = n - off - jt_rand() % 4096;
    unsigned char *expect = malloc(n);
    CHECK(expect);
    memcpy(expect, io.host_ptr, n);
    memcpy(expect + off, (unsigned char *)ip.host_ptr + off, len);
    CHECK_OK(jet_memcpy_async(streams[k], i1.device_ptr, ip.host_ptr, n));
    CHECK_OK(jet_memcpy_async(streams[k], i2.device_ptr, i1.device_ptr, n));
    CHECK_OK(jet_memcpy_async(streams[k], (unsigned char *)io.host_ptr + off,
                              (unsigned char *)i2.device_ptr + off, len));
    CHECK_OK(jet_context_synchronize(ctx));
    CHECK_SAME(io.host_ptr, expect, n, k ? "legacy stream" : "per-thread stream");
    free(expect);
    CHECK_OK(jet_buffer_destroy(pin));
    CHECK_OK(jet_buffer_destroy(d1));
    CHECK_OK(jet_buffer_destroy(d2));
    CHECK_OK(jet_buffer_destroy(out));
  }
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ allocation failure */

static int check_oom_detail(size_t asked, const char *call) {
  const jet_error_info *e = jet_last_error();
  CHECK_MSG(strcmp(e->native_call, call) == 0, "native call %s, expected %s", e->native_call,
            call);
  CHECK(e->status == JET_STATUS_OUT_OF_MEMORY);
  const char *m = strstr(e->message, "asked ");
  CHECK_MSG(m != NULL, "message: %s", e->message);
  size_t a = 0, f = 0, t = 0;
  CHECK_MSG(sscanf(m, "asked %zu bytes of device memory, %zu bytes free of %zu", &a, &f, &t) == 3,
            "message: %s", e->message);
  CHECK_MSG(a == asked && t > 0 && f <= t, "asked %zu (want %zu), free %zu of %zu", a, asked, f,
            t);
  CHECK(e->hint[0] != '\0');
  return 0;
}

TEST(gpu_buffer_out_of_memory_detail) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  CHECK(pi.total_memory > 0 && pi.total_memory < SIZE_MAX / 8);
  size_t asked = pi.total_memory * 4;
  jet_buffer b = (jet_buffer)(uintptr_t)1;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, asked, 0, 0};
  CHECK_ST(jet_buffer_create(ctx, &d, &b), JET_STATUS_OUT_OF_MEMORY);
  CHECK(b == NULL);
  if (check_oom_detail(asked, "cudaMalloc")) return 1;
  /* pitched 2D and 3D: the bytes asked are width * height * depth */
  d.flags = JET_MEM_PITCHED;
  d.width_bytes = 65536;
  d.height = asked / 65536;
  CHECK_ST(jet_buffer_create(ctx, &d, &b), JET_STATUS_OUT_OF_MEMORY);
  if (check_oom_detail(d.width_bytes * d.height, "cudaMallocPitch")) return 1;
  d.height = 1024;
  d.depth = asked / 65536 / 1024;
  CHECK_ST(jet_buffer_create(ctx, &d, &b), JET_STATUS_OUT_OF_MEMORY);
  if (check_oom_detail(d.width_bytes * d.height * d.depth, "cudaMalloc3D")) return 1;
  CHECK(b == NULL);
  /* nothing leaked: the context has no objects left */
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

static int warn_count;
static char warn_text[1024];

static void capture_warn(jet_log_level level, const char *msg, void *user) {
  (void)user;
  if (level != JET_LOG_WARN) return;
  warn_count++;
  snprintf(warn_text, sizeof warn_text, "%s", msg);
}

/* Fill device memory with one big buffer, so that a modest request fails on
 * the device for real, then check the host fallback. Discrete GPUs only: on
 * Tegra the fallback draws on the same DRAM. */
TEST(gpu_buffer_fallback_to_mapped_host_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(ctx, &pi));
  if (pi.integrated || !pi.can_map_host_memory) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("host fallback is tested on discrete GPUs that map host memory");
  }
  const size_t MiB = (size_t)1 << 20, ask = 256 * MiB;
  size_t fr = 0, tot = 0;
  CHECK_OK(jet_context_mem_info(ctx, &fr, &tot));
  jet_buffer hog = NULL;
  jet_buffer_desc d = {JET_MEMORY_DEVICE, 0, 0, 0, 0};
  for (size_t leave = 64 * MiB; !hog && leave < 2048 * MiB && fr > leave + ask;
       leave += 128 * MiB) {
    d.width_bytes = fr - leave;
    if (jet_buffer_create(ctx, &d, &hog) != JET_STATUS_OK) hog = NULL;
  }
  CHECK_OK(jet_context_mem_info(ctx, &fr, &tot));
  if (!hog || fr >= ask) {
    CHECK_OK(jet_buffer_destroy(hog));
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("could not fill device memory enough to force a failure");
  }

  jet_buffer b = NULL;
  d.width_bytes = ask;
  CHECK_ST(jet_buffer_create(ctx, &d, &b), JET_STATUS_OUT_OF_MEMORY);
  if (check_oom_detail(ask, "cudaMalloc")) return 1;

  warn_count = 0;
  CHECK_OK(jet_set_log_callback(capture_warn, NULL, JET_LOG_WARN));
  d.flags = JET_MEM_FALLBACK_HOST;
  jet_status st = jet_buffer_create(ctx, &d, &b);
  jet_buffer b2 = NULL;
  jet_buffer_desc d2 = {JET_MEMORY_DEVICE, JET_MEM_FALLBACK_HOST | JET_MEM_PITCHED, 16384,
                        ask / 16384, 0};
  jet_status st2 = jet_buffer_create(ctx, &d2, &b2);
  CHECK_OK(jet_set_log_callback(NULL, NULL, JET_LOG_OFF));
  CHECK_OK(jet_buffer_destroy(hog));
  CHECK_OK(st);
  CHECK_OK(st2);
  CHECK_MSG(warn_count == 2 && strstr(warn_text, "falling back"), "%d warnings, last: %s",
            warn_count, warn_text);

  jet_buffer_info i;
  CHECK_OK(jet_buffer_get_info(b, &i));
  CHECK(i.kind == JET_MEMORY_HOST_MAPPED && i.requested_kind == JET_MEMORY_DEVICE);
  CHECK(i.host_ptr && i.device_ptr && i.size == ask && i.pitch == ask);
  CHECK(i.gpu_access_crosses_bus == 1);
  jet_buffer_info i2;
  CHECK_OK(jet_buffer_get_info(b2, &i2));
  CHECK(i2.kind == JET_MEMORY_HOST_MAPPED && i2.pitch == 16384 && i2.size == ask);

  /* it works as the memory it is: written by the CPU, read through the device pointer */
  jt_fill_random(i.host_ptr, ask);
  jet_buffer dev;
  jet_buffer_info di;
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, 0, ask, 0, 0, &dev, &di));
  unsigned char *back = rnd_alloc(ask);
  CHECK(back);
  CHECK_OK(jet_memcpy(ctx, di.device_ptr, i.device_ptr, ask));
  CHECK_OK(jet_memcpy(ctx, back, di.device_ptr, ask));
  CHECK_SAME(back, i.host_ptr, ask, "fallback buffer");
  free(back);
  CHECK_OK(jet_buffer_destroy(dev));
  CHECK_OK(jet_buffer_destroy(b));
  CHECK_OK(jet_buffer_destroy(b2));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ host registration */

static int register_round_trip(const char *platform) {
  jet_context ctx;
  CHECK_OK(ctx_on(platform, &ctx));
  jet_platform_info pi;
  jet_policy pol;
  CHECK_OK(jet_context_platform(ctx, &pi));
  CHECK_OK(jet_context_policy(ctx, &pol));
  size_t n = (1u << 20) + 123, cap = ((n + 4095) / 4096) * 4096;
  unsigned char *mem = aligned_alloc(4096, cap);
  CHECK(mem);
  jt_fill_random(mem, n);
  jet_buffer r = (jet_buffer)(uintptr_t)1;
  jet_status st = jet_host_register(ctx, mem, n, 0, &r);
  if (!pol.host_register_allowed || !pi.host_register_supported) {
    CHECK_ST(st, JET_STATUS_UNSUPPORTED);
    CHECK(r == NULL && strstr(jet_last_error()->hint, "cudaHostRegister is unsupported"));
    free(mem);
    CHECK_OK(jet_context_destroy(ctx));
    return 0;
  }
  CHECK_OK(st);
  jet_buffer_info i;
  CHECK_OK(jet_buffer_get_info(r, &i));
  CHECK(i.kind == JET_MEMORY_HOST_REGISTERED && i.requested_kind == JET_MEMORY_HOST_REGISTERED);
  CHECK(i.host_ptr == mem && i.size == n && i.pitch == n && i.height == 1 && i.depth == 1);
  CHECK((i.device_ptr != NULL) == (pi.can_map_host_memory != 0));
  CHECK(i.gpu_access_crosses_bus == (i.device_ptr && !pi.integrated));
  /* registering an overlapping range again is refused */
  jet_buffer r2 = (jet_buffer)(uintptr_t)1;
  CHECK_ST(jet_host_register(ctx, mem + 4096, 4096, JET_MEM_PORTABLE, &r2),
           JET_STATUS_INVALID_STATE);
  CHECK(r2 == NULL);

  jet_stream s;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &s));
  jet_buffer dev;
  jet_buffer_info di;
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, 0, n, 0, 0, &dev, &di));
  unsigned char *back = rnd_alloc(n), *fresh = rnd_alloc(n);
  CHECK(back && fresh);
  void *gp = i.device_ptr ? i.device_ptr : mem;
  CHECK_OK(jet_memcpy(ctx, di.device_ptr, gp, n));
  CHECK_OK(jet_memcpy(ctx, back, di.device_ptr, n));
  CHECK_SAME(back, mem, n, "from registered memory");
  CHECK_OK(jet_memcpy(ctx, di.device_ptr, fresh, n));
  CHECK_OK(jet_memcpy_async(s, gp, di.device_ptr, n));
  CHECK_OK(jet_context_synchronize(ctx));
  CHECK_SAME(mem, fresh, n, "into registered memory");
  CHECK_OK(jet_buffer_destroy(dev));
  /* destroy unregisters: the same range registers again, and the memory is still the user's */
  CHECK_OK(jet_buffer_destroy(r));
  CHECK_OK(jet_host_register(ctx, mem, n, JET_MEM_PORTABLE, &r));
  CHECK_OK(jet_buffer_destroy(r));
  memset(mem, 0x5a, n);
  free(back);
  free(fresh);
  free(mem);
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_host_register_round_trip) {
  REQUIRE_GPU();
  if (register_round_trip(NULL)) return 1;
  if (register_round_trip("orin")) return 1;
  return 0;
}

/* ------------------------------------------------------------ managed hand-over */

static int managed_hand_over(const char *platform, unsigned flags) {
  jet_context ctx;
  CHECK_OK(ctx_on(platform, &ctx));
  jet_platform_info pi;
  jet_policy pol;
  CHECK_OK(jet_context_platform(ctx, &pi));
  CHECK_OK(jet_context_policy(ctx, &pol));
  if (!pi.managed_memory) {
    CHECK_OK(jet_context_destroy(ctx));
    return TEST_SKIP;
  }
  jet_stream s, legacy;
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &s));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_LEGACY, &legacy));
  size_t n = (1u << 20) + 77;
  jet_buffer m, dev;
  jet_buffer_info mi, di;
  CHECK_OK(make_buf(ctx, JET_MEMORY_MANAGED, flags, n, 0, 0, &m, &mi));
  CHECK_OK(make_buf(ctx, JET_MEMORY_DEVICE, 0, n, 0, 0, &dev, &di));
  unsigned char *r1 = rnd_alloc(n), *r2 = rnd_alloc(n), *back = rnd_alloc(n);
  CHECK(r1 && r2 && back);

  /* CPU writes, GPU reads */
  CHECK_OK(jet_managed_make_available(s, m, JET_PROCESSOR_CPU));
  memcpy(mi.host_ptr, r1, n);
  CHECK_OK(jet_managed_make_available(s, m, JET_PROCESSOR_GPU));
  CHECK_OK(jet_memcpy_async(s, di.device_ptr, mi.device_ptr, n));
  CHECK_OK(jet_managed_make_available(s, m, JET_PROCESSOR_CPU));
  CHECK_OK(jet_memcpy(ctx, back, di.device_ptr, n));
  CHECK_SAME(back, r1, n, "GPU read of CPU-written managed memory");

  /* GPU writes, CPU reads right after the hand-over, with no other wait */
  CHECK_OK(jet_memcpy(ctx, di.device_ptr, r2, n));
  CHECK_OK(jet_managed_make_available(s, m, JET_PROCESSOR_GPU));
  CHECK_OK(jet_memcpy_async(s, mi.device_ptr, di.device_ptr, n));
  CHECK_OK(jet_managed_make_available(s, m, JET_PROCESSOR_CPU));
  CHECK_SAME(mi.host_ptr, r2, n, "CPU read of GPU-written managed memory");

  /* prefetch where the policy and the device allow it, refused elsewhere */
  int can = pol.managed_mode == JET_MANAGED_PREFETCH && pi.concurrent_managed_access;
  jet_status st = jet_managed_prefetch(s, m, JET_PROCESSOR_GPU);
  if (can) {
    CHECK_OK(st);
    CHECK_OK(jet_managed_prefetch(s, m, JET_PROCESSOR_CPU));
    CHECK_OK(jet_context_synchronize(ctx));
    CHECK_SAME(mi.host_ptr, r2, n, "after prefetches");
  } else {
    CHECK_ST(st, JET_STATUS_UNSUPPORTED);
    CHECK(jet_last_error()->hint[0] != '\0');
    if (pol.managed_mode == JET_MANAGED_STREAM_ATTACH)
      CHECK(strstr(jet_last_error()->hint, "before Thor") != NULL);
  }

  /* explicit attach modes */
  CHECK_OK(jet_managed_attach(s, m, JET_ATTACH_HOST));
  CHECK_OK(jet_managed_attach(legacy, m, JET_ATTACH_GLOBAL));
  CHECK_ST(jet_managed_attach(legacy, m, JET_ATTACH_SINGLE), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_managed_attach(s, dev, JET_ATTACH_GLOBAL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_context_synchronize(ctx));

  free(r1);
  free(r2);
  free(back);
  CHECK_OK(jet_buffer_destroy(m));
  CHECK_OK(jet_buffer_destroy(dev));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

TEST(gpu_managed_hand_over_per_policy) {
  REQUIRE_GPU();
  const char *platforms[] = {NULL, "orin", "thor", "desktop"};
  unsigned flags[] = {0, JET_MEM_ATTACH_HOST};
  for (int p = 0; p < 4; p++)
    for (int f = 0; f < 2; f++) {
      int rc = managed_hand_over(platforms[p], flags[f]);
      if (rc == TEST_SKIP) SKIP("the device has no managed memory");
      if (rc) {
        fprintf(stderr, "  (platform %s, flags %u)\n", platforms[p] ? platforms[p] : "auto",
                flags[f]);
        return rc;
      }
    }
  return 0;
}

/* ------------------------------------------------------------ handles */

TEST(gpu_badarg_memory_destroyed_and_wrong_context) {
  REQUIRE_GPU();
  jet_context a, b;
  CHECK_OK(jt_context(&a, 0));
  CHECK_OK(jt_context(&b, 0));
  jet_platform_info pi;
  CHECK_OK(jet_context_platform(a, &pi));
  jet_stream sa, sb;
  CHECK_OK(jet_context_default_stream(a, JET_STREAM_PER_THREAD, &sa));
  CHECK_OK(jet_context_default_stream(b, JET_STREAM_PER_THREAD, &sb));
  jet_memory_kind mk = pi.managed_memory ? JET_MEMORY_MANAGED : JET_MEMORY_DEVICE;
  jet_buffer m, d;
  jet_buffer_info mi, di;
  CHECK_OK(make_buf(a, mk, 0, 4096, 0, 0, &m, &mi));
  CHECK_OK(make_buf(a, JET_MEMORY_DEVICE, 0, 4096, 0, 0, &d, &di));

  if (mk == JET_MEMORY_MANAGED) {
    CHECK_ST(jet_managed_attach(sb, m, JET_ATTACH_GLOBAL), JET_STATUS_WRONG_CONTEXT);
    CHECK_ST(jet_managed_prefetch(sb, m, JET_PROCESSOR_GPU), JET_STATUS_WRONG_CONTEXT);
    CHECK_ST(jet_managed_make_available(sb, m, JET_PROCESSOR_CPU), JET_STATUS_WRONG_CONTEXT);
  }
  /* the context is kept while its buffers live */
  CHECK_ST(jet_context_destroy(a), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_buffer_destroy(m));
  CHECK_OK(jet_buffer_destroy(d));

  jet_buffer_info i;
  void *p;
  CHECK_ST(jet_buffer_destroy(d), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_get_info(d, &i), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_device_ptr(m, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_buffer_host_ptr(m, &p), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_attach(sa, m, JET_ATTACH_GLOBAL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_prefetch(sa, m, JET_PROCESSOR_GPU), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_managed_make_available(sa, m, JET_PROCESSOR_GPU), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_context_destroy(a));

  /* a destroyed context and its default streams */
  unsigned char h1[64] = {0}, h2[64] = {0};
  jet_buffer out = (jet_buffer)(uintptr_t)1;
  jet_buffer_desc desc = {JET_MEMORY_DEVICE, 0, 64, 0, 0};
  CHECK_ST(jet_buffer_create(a, &desc, &out), JET_STATUS_INVALID_HANDLE);
  CHECK(out == NULL);
  CHECK_ST(jet_host_register(a, h1, sizeof h1, 0, &out), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy(a, h1, h2, sizeof h1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy_async(sa, h1, h2, sizeof h1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy_2d(a, h1, 8, h2, 8, 8, 8), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy_2d_async(sa, h1, 8, h2, 8, 8, 8), JET_STATUS_INVALID_HANDLE);
  jet_copy_3d c;
  memset(&c, 0, sizeof c);
  c.dst = (jet_pitched_ptr){h1, 8, 4};
  c.src = (jet_pitched_ptr){h2, 8, 4};
  c.extent = (jet_extent){8, 4, 2};
  CHECK_ST(jet_memcpy_3d(a, &c), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memcpy_3d_async(sa, &c), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset(a, h1, 1, 8), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_async(sa, h1, 1, 8), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_2d(a, h1, 8, 1, 8, 8), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_2d_async(sa, h1, 8, 1, 8, 8), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_3d(a, c.dst, 1, c.extent), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_memset_3d_async(sa, c.dst, 1, c.extent), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_context_destroy(b));
  return 0;
}

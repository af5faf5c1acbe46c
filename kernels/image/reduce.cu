/*
 * reduce: per-channel sum / min / max and the GRAY8 histogram, one pass each.
 *
 * Launch shapes and the work-memory layout: reduce_params.h.
 *
 * The histogram runs blocks of 1024 threads, at most one per SM (few blocks:
 * few global atomics in the merge), with 32 bank-interleaved shared copies
 * of the bins.
 *
 * Both kernels: a grid-stride loop over 16-byte chunks of the rows (48 bytes
 * for 3-channel formats, so that every lane of a chunk has a fixed channel),
 * four chunks in flight per thread (two for 3-channel formats; 8-bit
 * reductions in packed 16x2 lane arithmetic, see vec_u8), then
 * a scalar pass over the row tails (or everything, when pointers or pitches
 * are not 16-byte aligned). Each block reduces with warp shuffles and shared
 * memory and takes its result to the grid's merge (grid_merge_atomic,
 * grid_merge_partials): the last block to take a ticket writes the answer
 * and clears the counter.
 */

#include "pdl.cuh"
#include "reduce_params.h"

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#define RED_WARPS (JET_RED_THREADS / 32)
#define WORK_HIST_TICKET 1 /* u32 index */

struct jet_reduce_result_dev { /* jet_reduce_result of jetrt/reduce.h */
  double sum[4], mean[4], min[4], max[4];
  u64 count;
  int channels, reserved;
};

struct partial { /* 64 bytes */
  u64 sum[4];    /* u64, or double bits for floats */
  u32 mn[4], mx[4]; /* u32, or float bits */
};
static_assert(sizeof(partial) == JET_RED_PARTIAL_BYTES, "reduce_params.h sizes the partials");

/* Sample traits: integer samples sum exactly in u64, floats in double. */
template <bool F>
struct acc_t;
template <>
struct acc_t<false> {
  typedef u64 S;
  typedef u32 M;
  static __device__ __forceinline__ M lo() { return 0xffffffffu; }
  static __device__ __forceinline__ M hi() { return 0u; }
  static __device__ __forceinline__ M mn(M a, M b) { return a < b ? a : b; }
  static __device__ __forceinline__ M mx(M a, M b) { return a > b ? a : b; }
  static __device__ __forceinline__ u64 sbits(S s) { return s; }
  static __device__ __forceinline__ S sfrom(u64 b) { return b; }
  static __device__ __forceinline__ u32 mbits(M m) { return m; }
  static __device__ __forceinline__ M mfrom(u32 b) { return b; }
};
template <>
struct acc_t<true> {
  typedef double S;
  typedef float M;
  static __device__ __forceinline__ M lo() { return __int_as_float(0x7f800000); }
  static __device__ __forceinline__ M hi() { return __int_as_float((int)0xff800000u); }
  static __device__ __forceinline__ M mn(M a, M b) { return fminf(a, b); }
  static __device__ __forceinline__ M mx(M a, M b) { return fmaxf(a, b); }
  static __device__ __forceinline__ u64 sbits(S s) { return (u64)__double_as_longlong(s); }
  static __device__ __forceinline__ S sfrom(u64 b) { return __longlong_as_double((long long)b); }
  static __device__ __forceinline__ u32 mbits(M m) { return (u32)__float_as_int(m); }
  static __device__ __forceinline__ M mfrom(u32 b) { return __int_as_float((int)b); }
};

/* A float as an int whose signed order is the float order (-0 < +0), for
 * any non-NaN float; o2f inverts it. */
__device__ __forceinline__ int f2o(float f) {
  const int b = __float_as_int(f);
  return b ^ ((b >> 31) & 0x7fffffff);
}
__device__ __forceinline__ float o2f(int o) { return __int_as_float(o ^ ((o >> 31) & 0x7fffffff)); }

/* Warp reduction of one channel; lane 0 gets the result. On sm_80+ min and
 * max are one redux instruction each (floats through f2o: per-thread minima
 * and maxima are never NaN, fminf/fmaxf skip NaN from +-inf starts), and so
 * is an integer sum whenever every lane's sum is below 2^27 (the warp total
 * fits 32 bits); float sums keep their fixed shuffle tree. */
template <bool F>
__device__ __forceinline__ void warp_reduce(typename acc_t<F>::S &sum, typename acc_t<F>::M &mn,
                                            typename acc_t<F>::M &mx) {
  typedef acc_t<F> A;
  const unsigned full = 0xffffffffu;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (F) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(full, sum, o);
    mn = o2f(__reduce_min_sync(full, f2o(mn)));
    mx = o2f(__reduce_max_sync(full, f2o(mx)));
  } else {
    if (__all_sync(full, sum < (1ull << 27))) {
      sum = __reduce_add_sync(full, (unsigned)sum);
    } else {
#pragma unroll
      for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(full, sum, o);
    }
    mn = __reduce_min_sync(full, mn);
    mx = __reduce_max_sync(full, mx);
  }
#else
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    sum += __shfl_down_sync(full, sum, o);
    mn = A::mn(mn, __shfl_down_sync(full, mn, o));
    mx = A::mx(mx, __shfl_down_sync(full, mx, o));
  }
#endif
}

/* Lane k of a chunk of 32-bit words, as the sample type. */
template <int ES>
__device__ __forceinline__ u32 lane_u(const u32 *wd, int k) {
  if (ES == 1) return (wd[k >> 2] >> ((k & 3) * 8)) & 0xffu;
  if (ES == 2) return (wd[k >> 1] >> ((k & 1) * 16)) & 0xffffu;
  return wd[k];
}

/* Walks a flattened rows x per_row item space with a grid stride, keeping
 * (y, j) without a division per step. 32-bit start and stride (grids are
 * capped far below 2^32 threads): a 64-bit division is a long subroutine on
 * the critical path of every thread. */
struct walker {
  u32 y, j, qs, rs, per_row;
  __device__ __forceinline__ void init(u32 start, u32 stride, u32 n) {
    per_row = n;
    y = start / n, j = start % n;
    qs = stride / n, rs = stride % n;
  }
  __device__ __forceinline__ void next() {
    j += rs, y += qs;
    if (j >= per_row) j -= per_row, y++;
  }
};

/* The aligned 16-byte chunks of 8-bit images, in packed lane arithmetic: a
 * word w splits into its bytes 0 and 2 (w & 0x00ff00ff) and 1 and 3 (a byte
 * permute), as two 16-bit lanes each; lanes are summed with one 32-bit add
 * and go through min.u16x2 / max.u16x2 (one instruction on sm_90). Per step,
 * a lane gains at most 16 bytes (4080 < 2^16) before it is widened into the
 * 64-bit sums. Byte b of word i of a chunk is sample 4i + b, of channel
 * (4i + b) % NC: NC = 1 and 4 need one word phase, NC = 3 three (i % 3). */
template <int NC>
__device__ __forceinline__ void vec_u8(const u8 *__restrict__ src, u64 sp, u32 h, u32 cpr, u32 tid,
                                       u32 nthreads, u64 *sum, u32 *mn, u32 *mx) {
  const int C = NC == 3 ? 48 : 16;
  const int NW = C / 4;
  const int Q = NC == 3 ? 2 : 4;
  const int P = NC == 3 ? 3 : 1;
  u32 mnA[P], mnB[P], mxA[P], mxB[P];
#pragma unroll
  for (int p = 0; p < P; p++) mnA[p] = mnB[p] = 0xffffffffu, mxA[p] = mxB[p] = 0u;
  walker a;
  a.init(tid, nthreads, cpr);
  while (a.y < h) {
    /* Q chunks per step, all loads issued before any arithmetic (each as soon
     * as its address is known); chunks past the end are not loaded. */
    u32 wd[Q][NW];
    bool ok[Q];
#pragma unroll
    for (int q = 0; q < Q; q++) {
      ok[q] = q == 0 || a.y < h;
      if (ok[q]) {
        const uint4 *pp = (const uint4 *)(src + (u64)a.y * sp + (u64)a.j * C);
        a.next();
#pragma unroll
        for (int k = 0; k < C / 16; k++) {
          const uint4 v = __ldg(pp + k);
          wd[q][4 * k] = v.x, wd[q][4 * k + 1] = v.y, wd[q][4 * k + 2] = v.z, wd[q][4 * k + 3] = v.w;
        }
      } else {
#pragma unroll
        for (int k = 0; k < NW; k++) wd[q][k] = 0u;
      }
    }
    u32 sA[P], sB[P];
#pragma unroll
    for (int p = 0; p < P; p++) sA[p] = sB[p] = 0u;
#pragma unroll
    for (int q = 0; q < Q; q++) {
      if (!ok[q]) break;
#pragma unroll
      for (int i = 0; i < NW; i++) {
        const int p = i % P;
        const u32 lo = wd[q][i] & 0x00ff00ffu, hi = __byte_perm(wd[q][i], 0u, 0x4341);
        sA[p] += lo, sB[p] += hi;
        mnA[p] = __vminu2(mnA[p], lo), mnB[p] = __vminu2(mnB[p], hi);
        mxA[p] = __vmaxu2(mxA[p], lo), mxB[p] = __vmaxu2(mxB[p], hi);
      }
    }
    if (NC == 1) {
      const u32 x = sA[0] + sB[0]; /* lanes <= 8160 */
      sum[0] += (u64)((x & 0xffffu) + (x >> 16));
    } else {
#pragma unroll
      for (int p = 0; p < P; p++) {
        sum[p % NC] += (u64)(sA[p] & 0xffffu);
        sum[(p + 1) % NC] += (u64)(sB[p] & 0xffffu);
        sum[(p + 2) % NC] += (u64)(sA[p] >> 16);
        sum[(p + 3) % NC] += (u64)(sB[p] >> 16);
      }
    }
  }
  /* Lanes that saw no sample hold 0xffff / 0: above / below every sample. */
#pragma unroll
  for (int p = 0; p < P; p++) {
    const u32 m[4] = {mnA[p] & 0xffffu, mnB[p] & 0xffffu, mnA[p] >> 16, mnB[p] >> 16};
    const u32 M[4] = {mxA[p] & 0xffffu, mxB[p] & 0xffffu, mxA[p] >> 16, mxB[p] >> 16};
#pragma unroll
    for (int b = 0; b < 4; b++) {
      const int c = (p + b) % NC;
      mn[c] = min(mn[c], m[b]), mx[c] = max(mx[c], M[b]);
    }
  }
}

/* The grid ticket: a release atomic add (the caller's earlier writes and
 * atomics are visible before its increment is), returning the old count. */
__device__ __forceinline__ u32 ticket_take(u32 *ticket) {
  u32 old;
  asm volatile("atom.release.gpu.global.add.u32 %0, [%1], 1;"
               : "=r"(old)
               : "l"(__cvta_generic_to_global(ticket))
               : "memory");
  return old;
}
/* A fence that orders this thread's earlier memory operations before its
 * later ones at GPU scope: the last block runs it before reading the other
 * blocks' results. Lighter than __threadfence() (fence.sc). */
__device__ __forceinline__ void fence_acq_rel() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }

/* Channel c of a block's result: the warps' results in shared memory,
 * combined in warp order. */
template <bool F, int NC>
__device__ __forceinline__ void warps_combine(const typename acc_t<F>::S (*s_sum)[NC],
                                              const typename acc_t<F>::M (*s_mn)[NC],
                                              const typename acc_t<F>::M (*s_mx)[NC], int c,
                                              typename acc_t<F>::S &s, typename acc_t<F>::M &a,
                                              typename acc_t<F>::M &b) {
  typedef acc_t<F> A;
  s = s_sum[0][c], a = s_mn[0][c], b = s_mx[0][c];
  for (int k = 1; k < RED_WARPS; k++)
    s += s_sum[k][c], a = A::mn(a, s_mn[k][c]), b = A::mx(b, s_mx[k][c]);
}

/* Channel c of the answer (all zeros for c >= nc). */
__device__ __forceinline__ void write_channel(jet_reduce_result_dev *out, int c, int nc, double s,
                                              double mn, double mx, u64 count) {
  out->sum[c] = s, out->mean[c] = c < nc ? __ddiv_rn(s, (double)count) : 0.0;
  out->min[c] = mn, out->max[c] = mx;
}

/* The answer's header; the ticket is cleared for the next call. */
__device__ __forceinline__ void write_header(jet_reduce_result_dev *out, int nc, u64 count,
                                             u32 *ticket) {
  out->count = count;
  out->channels = nc;
  out->reserved = 0;
  atomicExch(ticket, 0u);
}

/* Integer reductions, thread 0 of each block with the block's result: the
 * block's sums, minima and maxima go into the grid's accumulators with
 * atomics (exact in any order: minima as the maxima of their complements, so
 * that zero-filled memory is every accumulator's start); the last block to
 * take a ticket reads and clears them, an exchange each, and writes the
 * answer. Against a partial per block and a block-wide merge of them, the
 * last block's path is a few dozen instructions and one round trip (H100:
 * RGBA8 at 720p 1.4 us less, GRAY8 0.3 us). */
template <int NC>
__device__ __forceinline__ void grid_merge_atomic(const u64 *sum, const u32 *mn, const u32 *mx,
                                                  u8 *work, u64 count, jet_reduce_result_dev *out) {
  u64 *gs[NC];
  u32 *gn[NC], *gx[NC];
#pragma unroll
  for (int c = 0; c < NC; c++) {
    gs[c] = (u64 *)(work + JET_RED_WORK_ACC + c * JET_RED_WORK_LINE);
    gn[c] = (u32 *)(work + JET_RED_WORK_ACC + (4 + c) * JET_RED_WORK_LINE);
    gx[c] = (u32 *)(work + JET_RED_WORK_ACC + (8 + c) * JET_RED_WORK_LINE);
    atomicAdd((unsigned long long *)gs[c], (unsigned long long)sum[c]);
    atomicMax(gn[c], ~mn[c]);
    atomicMax(gx[c], mx[c]);
  }
  u32 *ticket = (u32 *)work;
  if (ticket_take(ticket) != gridDim.x - 1) return;
  fence_acq_rel();
  u64 s[NC];
  u32 a[NC], b[NC];
#pragma unroll
  for (int c = 0; c < NC; c++) {
    s[c] = atomicExch((unsigned long long *)gs[c], 0ull);
    a[c] = ~atomicExch(gn[c], 0u);
    b[c] = atomicExch(gx[c], 0u);
  }
#pragma unroll
  for (int c = 0; c < 4; c++)
    write_channel(out, c, NC, c < NC ? (double)s[c] : 0.0, c < NC ? (double)a[c] : 0.0,
                  c < NC ? (double)b[c] : 0.0, count);
  write_header(out, NC, count, ticket);
}

/* Float reductions, the whole block: double sums in a fixed order, so that
 * results repeat bit for bit. Thread 0 stores the block's partial; the last
 * block to take a ticket combines the partials in block order per thread,
 * then across its threads with warp_reduce (a fixed tree) and the warps in
 * order, and thread c < 4 writes channel c. s_* hold the warps' results of
 * the block reduction, and are reused. With __threadfence (fence.sc) and
 * its own channel writes: through ticket_take, fence_acq_rel and
 * write_channel the float reductions took 0.1-0.2 us longer (H100, GRAYF32
 * 720p); warps_combine compiles to the same instructions as its loop
 * written out. */
template <int NC>
__device__ __forceinline__ void grid_merge_partials(double (*s_sum)[NC], float (*s_mn)[NC],
                                                    float (*s_mx)[NC], u8 *work, int w, int h,
                                                    jet_reduce_result_dev *out) {
  typedef acc_t<true> A;
  __shared__ bool s_last;
  partial *parts = (partial *)(work + JET_RED_WORK_PARTIALS);
  u32 *ticket = (u32 *)work;
  if (threadIdx.x == 0) {
    partial pt;
#pragma unroll
    for (int c = 0; c < 4; c++) pt.sum[c] = 0, pt.mn[c] = 0, pt.mx[c] = 0;
#pragma unroll
    for (int c = 0; c < NC; c++) {
      double s;
      float a, b;
      warps_combine<true, NC>(s_sum, s_mn, s_mx, c, s, a, b);
      pt.sum[c] = A::sbits(s), pt.mn[c] = A::mbits(a), pt.mx[c] = A::mbits(b);
    }
    parts[blockIdx.x] = pt;
    __threadfence();
    s_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!s_last) return;
  __threadfence();
  double sum[NC];
  float mn[NC], mx[NC];
#pragma unroll
  for (int c = 0; c < NC; c++) sum[c] = 0, mn[c] = A::lo(), mx[c] = A::hi();
  /* MQ partials per thread per round, all loaded before any is combined (one
   * L2 round trip per round, where a plain loop waits for each). */
  const int MQ = NC == 1 ? 4 : 2;
  for (u32 b0 = threadIdx.x; b0 < gridDim.x; b0 += MQ * JET_RED_THREADS) {
    u64 ps[MQ][NC];
    u32 pn[MQ][NC], px[MQ][NC];
#pragma unroll
    for (int q = 0; q < MQ; q++) {
      const u32 b = b0 + q * JET_RED_THREADS;
#pragma unroll
      for (int c = 0; c < NC; c++)
        if (b < gridDim.x) {
          ps[q][c] = __ldcg(&parts[b].sum[c]);
          pn[q][c] = __ldcg(&parts[b].mn[c]);
          px[q][c] = __ldcg(&parts[b].mx[c]);
        }
    }
#pragma unroll
    for (int q = 0; q < MQ; q++)
      if (b0 + q * JET_RED_THREADS < gridDim.x)
#pragma unroll
        for (int c = 0; c < NC; c++) {
          sum[c] += A::sfrom(ps[q][c]);
          mn[c] = A::mn(mn[c], A::mfrom(pn[q][c]));
          mx[c] = A::mx(mx[c], A::mfrom(px[q][c]));
        }
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int c = 0; c < NC; c++) warp_reduce<true>(sum[c], mn[c], mx[c]);
  __syncthreads(); /* thread 0 read s_* above; reuse them */
  if (lane == 0)
#pragma unroll
    for (int c = 0; c < NC; c++) s_sum[warp][c] = sum[c], s_mn[warp][c] = mn[c], s_mx[warp][c] = mx[c];
  __syncthreads();
  /* Thread c < 4 writes channel c, in parallel: the double division and the
   * warp merges of the channels overlap. */
  if (threadIdx.x < 4) {
    const int c = threadIdx.x;
    const u64 count = (u64)w * (u64)h;
    double rs = 0.0, rm = 0.0, rn = 0.0, rx = 0.0;
    if (c < NC) {
      double s;
      float a, b;
      warps_combine<true, NC>(s_sum, s_mn, s_mx, c, s, a, b);
      rs = s;
      rm = __ddiv_rn(rs, (double)count);
      rn = a;
      rx = b;
    }
    out->sum[c] = rs, out->mean[c] = rm, out->min[c] = rn, out->max[c] = rx;
    if (c == 0) write_header(out, NC, count, ticket);
  }
}

template <int ES, int NC, bool F>
__device__ __forceinline__ void reduce_body(const u8 *__restrict__ src, u64 sp, int w, int h,
                                            int vec, u8 *work, jet_reduce_result_dev *out) {
  typedef acc_t<F> A;
  typedef typename A::S S;
  typedef typename A::M M;
  const int C = NC == 3 ? 48 : 16; /* chunk bytes */
  const int L = C / ES;            /* lanes (samples) per chunk */
  const int NW = C / 4;
  const int Q = NC == 1 ? 4 : 2; /* chunks in flight per thread (more cost registers) */
  S sum[NC];
  M mn[NC], mx[NC];
#pragma unroll
  for (int c = 0; c < NC; c++) sum[c] = 0, mn[c] = A::lo(), mx[c] = A::hi();

  const u32 tid = blockIdx.x * JET_RED_THREADS + threadIdx.x;
  const u32 nthreads = gridDim.x * JET_RED_THREADS;
  const u32 row_elems = (u32)w * NC; /* < 2^32: the launcher refuses wider rows */
  const u32 cpr = vec ? (u32)((u64)row_elems * ES / C) : 0u;

  if constexpr (ES == 1) {
    if (cpr) vec_u8<NC>(src, sp, (u32)h, cpr, tid, nthreads, sum, mn, mx);
  } else if (cpr) {
    walker a;
    a.init(tid, nthreads, cpr);
    while (a.y < (u32)h) {
      /* Q chunks per step, all loads issued before any arithmetic; a chunk
       * past the end re-reads chunk 0 of this step and is not counted. */
      const uint4 *p[Q];
      bool ok[Q];
      p[0] = (const uint4 *)(src + (u64)a.y * sp + (u64)a.j * C);
      ok[0] = true;
      a.next();
#pragma unroll
      for (int q = 1; q < Q; q++) {
        ok[q] = a.y < (u32)h;
        p[q] = ok[q] ? (const uint4 *)(src + (u64)a.y * sp + (u64)a.j * C) : p[0];
        if (ok[q]) a.next();
      }
      u32 wd[Q][NW];
#pragma unroll
      for (int q = 0; q < Q; q++)
#pragma unroll
        for (int k = 0; k < C / 16; k++) {
          uint4 v = __ldg(p[q] + k);
          wd[q][4 * k] = v.x, wd[q][4 * k + 1] = v.y, wd[q][4 * k + 2] = v.z, wd[q][4 * k + 3] = v.w;
        }
#pragma unroll
      for (int q = 0; q < Q; q++) {
        if (!ok[q]) break;
        if constexpr (F) {
          float cs[NC];
#pragma unroll
          for (int c = 0; c < NC; c++) cs[c] = 0.0f;
#pragma unroll
          for (int k = 0; k < L; k++) {
            const float f = __int_as_float((int)wd[q][k]);
            cs[k % NC] = __fadd_rn(cs[k % NC], f);
            mn[k % NC] = A::mn(mn[k % NC], f);
            mx[k % NC] = A::mx(mx[k % NC], f);
          }
#pragma unroll
          for (int c = 0; c < NC; c++) sum[c] += (S)cs[c];
        } else {
          u32 cs[NC];
#pragma unroll
          for (int c = 0; c < NC; c++) cs[c] = 0;
#pragma unroll
          for (int k = 0; k < L; k++) {
            const u32 v = lane_u<ES>(wd[q], k);
            cs[k % NC] += v;
            mn[k % NC] = A::mn(mn[k % NC], v);
            mx[k % NC] = A::mx(mx[k % NC], v);
          }
#pragma unroll
          for (int c = 0; c < NC; c++) sum[c] += (S)cs[c];
        }
      }
    }
  }

  /* Row tails (everything when !vec): one sample per step. */
  const u32 done = cpr * (u32)L;
  const u32 tail = row_elems - done;
  if (tail) {
    walker a;
    a.init(tid, nthreads, tail);
    while (a.y < (u32)h) {
      const u32 e = done + a.j;
      const u8 *p = src + (u64)a.y * sp + (u64)e * ES;
      const int ch = (int)(a.j % NC);
      a.next();
      u32 v = ES == 1 ? (u32)*p : ES == 2 ? (u32) * (const u16 *)p : *(const u32 *)p;
#pragma unroll
      for (int c = 0; c < NC; c++)
        if (c == ch) {
          if constexpr (F) {
            const float f = __int_as_float((int)v);
            sum[c] += (S)f;
            mn[c] = A::mn(mn[c], f);
            mx[c] = A::mx(mx[c], f);
          } else {
            sum[c] += (S)v;
            mn[c] = A::mn(mn[c], v);
            mx[c] = A::mx(mx[c], v);
          }
        }
    }
  }

  /* Block reduction: warp_reduce, then the warps' results through shared
   * memory, then the grid's merge. */
  __shared__ S s_sum[RED_WARPS][NC];
  __shared__ M s_mn[RED_WARPS][NC], s_mx[RED_WARPS][NC];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int c = 0; c < NC; c++) {
    warp_reduce<F>(sum[c], mn[c], mx[c]);
    if (lane == 0) s_sum[warp][c] = sum[c], s_mn[warp][c] = mn[c], s_mx[warp][c] = mx[c];
  }
  __syncthreads();
  if constexpr (F) {
    grid_merge_partials<NC>(s_sum, s_mn, s_mx, work, w, h, out);
  } else if (threadIdx.x == 0) {
#pragma unroll
    for (int c = 0; c < NC; c++) warps_combine<F, NC>(s_sum, s_mn, s_mx, c, sum[c], mn[c], mx[c]);
    grid_merge_atomic<NC>(sum, mn, mx, work, (u64)w * (u64)h, out);
  }
}

#define JET_REDUCE(NAME, ES, NC, F)                                                             \
  extern "C" __global__ void __launch_bounds__(JET_RED_THREADS, JET_RED_BLOCKS_PER_SM)          \
      NAME(const u8 *src, u64 sp, int w, int h, int vec, u8 *work, jet_reduce_result_dev *out) { \
    jet_pdl_enter();                                                                            \
    reduce_body<ES, NC, F>(src, sp, w, h, vec, work, out);                                      \
  }

JET_REDUCE(jet_reduce_u8c1, 1, 1, false)
JET_REDUCE(jet_reduce_u8c3, 1, 3, false)
JET_REDUCE(jet_reduce_u8c4, 1, 4, false)
JET_REDUCE(jet_reduce_u16c1, 2, 1, false)
JET_REDUCE(jet_reduce_f32c1, 4, 1, true)
JET_REDUCE(jet_reduce_f32c3, 4, 3, true)

/* ------------------------------------------------------------ histogram */

#define HIST_Q 4 /* 16-byte chunks in flight per thread */

/* Loads the next HIST_Q chunks of the walk (those before the end; ok[q]
 * says which) and advances the walker past them. */
__device__ __forceinline__ void hist_load(const u8 *__restrict__ src, u64 sp, u32 h, walker &a,
                                          uint4 *v, bool *ok) {
#pragma unroll
  for (int q = 0; q < HIST_Q; q++) {
    ok[q] = q == 0 || a.y < h;
    if (ok[q]) {
      v[q] = __ldg((const uint4 *)(src + (u64)a.y * sp + (u64)a.j * 16));
      a.next();
    }
  }
}

extern "C" __global__ void __launch_bounds__(JET_HIST_THREADS, 1)
    jet_histogram_u8(const u8 *__restrict__ src, u64 sp, int w, int h, int vec, u8 *work,
                     u32 *out) {
  /* 32 interleaved copies of the histogram, word bin * 32 + lane: lane l
   * always counts in copy l, which sits in bank l, so the shared atomics of
   * a warp never conflict, whatever the pixel values. */
  __shared__ __align__(16) u32 sh[256 * 32];
  __shared__ bool s_last;
  const int lane = threadIdx.x & 31;
  const u32 nt = blockDim.x; /* JET_HIST_THREADS; the loops below take any multiple of 32 */
  jet_pdl_enter();
  u32 *mine = sh + lane;
  const u32 tid = blockIdx.x * nt + threadIdx.x;
  const u32 nthreads = gridDim.x * nt;
  const u32 cpr = vec ? (u32)w / 16u : 0u;
  /* The first step's loads are issued before the shared copies are cleared,
   * so that the clearing and the barrier hide under their latency. */
  walker a;
  uint4 v[HIST_Q];
  bool ok[HIST_Q];
  bool more = false;
  if (cpr) {
    a.init(tid, nthreads, cpr);
    more = a.y < (u32)h;
    if (more) hist_load(src, sp, (u32)h, a, v, ok);
  }
  for (u32 i = threadIdx.x; i < 256u * 32u / 4u; i += nt) ((uint4 *)sh)[i] = make_uint4(0u, 0u, 0u, 0u);
  __syncthreads();
  while (more) {
#pragma unroll
    for (int q = 0; q < HIST_Q; q++) {
      if (!ok[q]) break;
      const u32 wd[4] = {v[q].x, v[q].y, v[q].z, v[q].w};
#pragma unroll
      for (int k = 0; k < 4; k++)
#pragma unroll
        for (int b = 0; b < 4; b++) atomicAdd(&mine[((wd[k] >> (8 * b)) & 0xffu) * 32], 1u);
    }
    more = a.y < (u32)h;
    if (more) hist_load(src, sp, (u32)h, a, v, ok);
  }
  const u32 done = cpr * 16u, tail = (u32)w - done;
  if (tail) {
    walker t;
    t.init(tid, nthreads, tail);
    while (t.y < (u32)h) {
      const u8 px = src[(u64)t.y * sp + done + t.j];
      t.next();
      atomicAdd(&mine[(u32)px * 32], 1u);
    }
  }
  __syncthreads();
  u32 *acc = (u32 *)(work + JET_RED_WORK_HIST); /* bin b at word b * BIN_WORDS */
  const u32 BIN_WORDS = JET_RED_WORK_LINE / 4;
  u32 *ticket = (u32 *)work + WORK_HIST_TICKET;
  /* Four threads per bin, each adding the 8 copies c = q (mod 4), read so
   * that the 32 lanes of a warp hit 32 different banks. */
  for (u32 t = threadIdx.x; t < 1024u; t += nt) {
    const u32 bin = t >> 2, l = t & 31;
    u32 v = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) v += sh[bin * 32 + ((l + 4 * i) & 31)];
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    v += __shfl_xor_sync(0xffffffffu, v, 2);
    if ((t & 3) == 0 && v) atomicAdd(&acc[bin * BIN_WORDS], v);
  }
  fence_acq_rel();
  __syncthreads();
  if (threadIdx.x == 0) s_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!s_last) return;
  fence_acq_rel();
  for (u32 bin = threadIdx.x; bin < 256u; bin += nt) out[bin] = atomicExch(&acc[bin * BIN_WORDS], 0u);
  __syncthreads();
  if (threadIdx.x == 0) atomicExch(ticket, 0u);
}

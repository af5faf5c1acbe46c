// Test kernels of jetrt's launch attributes, kernel attributes and module
// globals (tests/unit/test_kattr_gpu.c). One file, no includes, extern "C":
// it must compile under NVRTC too. SM 9.0 features (clusters, programmatic
// dependent launch) are inline PTX guarded by __CUDA_ARCH__, so the file
// builds for every SM; without them the kernels write KATTR_NO_SM90 instead.

#define KATTR_ARRAY_N 1021u
#define KATTR_COEFFS_N 16u
#define KATTR_NO_SM90 0xdead0090u

// Globals looked up by name (jet_module_symbol): plain names at namespace scope.
__device__ unsigned kattr_array[KATTR_ARRAY_N];
__constant__ float kattr_coeffs[KATTR_COEFFS_N];

__device__ __forceinline__ unsigned kattr_hash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// kattr_array[i] = kattr_array[i] * 3 + seed + i, in place.
extern "C" __global__ void kattr_array_update(unsigned seed) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < KATTR_ARRAY_N) kattr_array[i] = kattr_array[i] * 3u + seed + i;
}

// out[i] = in[i] * c[i % 16] + c[(i + 5) % 16], from constant memory.
extern "C" __global__ void kattr_const_apply(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * kattr_coeffs[i % KATTR_COEFFS_N] + kattr_coeffs[(i + 5u) % KATTR_COEFFS_N];
}

// A grid-wide barrier by hand: legal only when every block is resident at once,
// which a cooperative launch guarantees. bar[0] counts arrivals, bar[1] is the
// generation; both start at 0.
__device__ void kattr_grid_barrier(unsigned *bar) {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned nblocks = gridDim.x * gridDim.y * gridDim.z;
    volatile unsigned *gen = bar + 1;
    unsigned g = atomicAdd(bar + 1, 0u);
    __threadfence();
    if (atomicAdd(bar, 1u) + 1u == nblocks) {
      atomicExch(bar, 0u);
      __threadfence();
      atomicAdd(bar + 1, 1u);
    } else {
      while (*gen == g) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

// @rounds rounds of dst[i] = src[i] + hash(src[(i * 7 + 3) % n] + r), ping-pong
// between a (round 0's source) and b, a grid barrier between rounds. Every
// element depends on elements other blocks wrote in the previous round.
extern "C" __global__ void kattr_coop_rounds(unsigned *a, unsigned *b, unsigned n, unsigned rounds,
                                             unsigned *bar) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned r = 0; r < rounds; r++) {
    const unsigned *src = (r & 1u) ? b : a;
    unsigned *dst = (r & 1u) ? a : b;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
      unsigned j = (unsigned)(((unsigned long long)i * 7u + 3u) % n);
      dst[i] = src[i] + kattr_hash(src[j] + r);
    }
    kattr_grid_barrier(bar);
  }
}

// Dynamic shared memory of @words words per block (launched with more than
// 48 KiB): fill it from in, then read it back reversed.
extern "C" __global__ void kattr_dyn_smem(const unsigned *in, unsigned *out, unsigned words) {
  extern __shared__ unsigned kattr_dyn[];
  const unsigned *bin = in + (size_t)blockIdx.x * words;
  unsigned *bout = out + (size_t)blockIdx.x * words;
  for (unsigned j = threadIdx.x; j < words; j += blockDim.x) kattr_dyn[j] = bin[j] ^ 0x5a5a5a5au;
  __syncthreads();
  for (unsigned j = threadIdx.x; j < words; j += blockDim.x)
    bout[j] = kattr_dyn[words - 1u - j] + blockIdx.x;
}

// Thread-block clusters (1D grid, cluster along x, blockDim.x <= 256): each
// block fills its shared memory, then reads its neighbour's (rank + 1) through
// distributed shared memory: out[g] = in[peer block's (blockDim.x - 1 - t)] + rank.
// info[block] = rank | cluster size << 16.
extern "C" __global__ void kattr_cluster_dsmem(const unsigned *in, unsigned *out, unsigned *info) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ unsigned s[256];
  s[threadIdx.x] = in[g];
  unsigned rank, size;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  unsigned peer = (rank + 1u) % size;
  unsigned long long generic = (unsigned long long)&s[blockDim.x - 1u - threadIdx.x];
  unsigned long long local;
  asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(local) : "l"(generic));
  unsigned remote, v;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"((unsigned)local), "r"(peer));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
  out[g] = v + rank;
  if (threadIdx.x == 0) info[blockIdx.x] = rank | (size << 16);
  // No block may exit while a peer still reads its shared memory.
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
#else
  (void)in;
  out[g] = KATTR_NO_SM90;
  if (threadIdx.x == 0) info[blockIdx.x] = KATTR_NO_SM90;
#endif
}

// Programmatic dependent launch: the primary lets its dependents start at once
// (griddepcontrol.launch_dependents), then spends a while before writing buf.
extern "C" __global__ void kattr_pdl_primary(unsigned *buf, unsigned n, unsigned seed,
                                             unsigned spin) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = i ^ seed;
  for (unsigned k = 0; k < spin; k++) x = kattr_hash(x);
  buf[i] = x;
}

// The dependent: waits for the primary's results (griddepcontrol.wait), then
// out[i] = buf[i] * 3 + 1.
extern "C" __global__ void kattr_pdl_secondary(const unsigned *buf, unsigned *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (i < n) out[i] = buf[i] * 3u + 1u;
#else
  (void)buf;
  if (i < n) out[i] = KATTR_NO_SM90;
#endif
}

// A kernel that reads @hot (small, reused) for every element of @stream_in
// (large): the access pattern of the L2 persistence tests.
extern "C" __global__ void kattr_hot_stream(const unsigned *hot, unsigned hot_n,
                                            const unsigned *stream_in, unsigned *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = stream_in[i] + hot[kattr_hash(i) % hot_n];
}

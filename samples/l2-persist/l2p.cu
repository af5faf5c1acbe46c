// Kernels of the l2-persist sample. One file, no includes, extern "C" (NVRTC too).

__device__ __forceinline__ unsigned l2p_hash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// p[i] = hash(i ^ seed) for i < n.
extern "C" __global__ void l2p_fill(unsigned *p, unsigned long long n, unsigned seed) {
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    p[i] = l2p_hash((unsigned)i ^ seed);
}

// One iteration: a chunk of the large buffer streams through (read once,
// written once) while every element also reads the small hot buffer, whose
// index continues from @hot_base so that all iterations together sweep it evenly:
//   out[i] = in[i] + hot[(hot_base + i) % hot_words]
extern "C" __global__ void l2p_step(const unsigned *hot, unsigned hot_words, unsigned hot_base,
                                    const unsigned *in, unsigned *out, unsigned n) {
  unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i] + hot[(unsigned)(((unsigned long long)hot_base + i) % hot_words)];
}

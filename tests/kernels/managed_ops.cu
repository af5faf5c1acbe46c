/*
 * Test kernels for managed memory (tests/unit/test_managed_advice_gpu.c).
 * One file, no host headers, extern "C": nvcc and NVRTC both compile it.
 */

/* out[i] = in[i] * a + b (mod 2^32): every output depends on its input. */
extern "C" __global__ void managed_affine(const unsigned int *in, unsigned int *out,
                                          unsigned int n, unsigned int a, unsigned int b) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * a + b;
}

/* In place: p[i] = p[i] ^ key, so a kernel writes memory the CPU wrote. */
extern "C" __global__ void managed_xor(unsigned int *p, unsigned int n, unsigned int key) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] ^= key;
}

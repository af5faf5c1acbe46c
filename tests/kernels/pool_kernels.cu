/* Test-only kernels of the pool/VMM tests (tests/unit/test_pool_gpu.c). */

/* data[i] = (data[i] ^ key) + i for the n words: every word changes in a way
 * the CPU reference reproduces, so a stale or misplaced buffer shows. */
extern "C" __global__ void pool_xor_add(unsigned int *data, unsigned long long n,
                                        unsigned int key) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < n) data[i] = (data[i] ^ key) + (unsigned int)i;
}

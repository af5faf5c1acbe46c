/*
 * sumArray (Professional CUDA C ch.4): C = A + B, one element per thread.
 * One file, no host headers, extern "C" (nvcc and NVRTC both compile it).
 */
extern "C" __global__ void zc_sum(const float *a, const float *b, float *c, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

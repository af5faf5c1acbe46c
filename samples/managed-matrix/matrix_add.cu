/*
 * C = A + B on an nx x ny row-major float matrix, one element per thread of
 * a 2D grid. One file, no host headers, extern "C" (nvcc and NVRTC).
 */
extern "C" __global__ void mm_add(const float *a, const float *b, float *c, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) {
    long long i = (long long)iy * nx + ix;
    c[i] = a[i] + b[i];
  }
}

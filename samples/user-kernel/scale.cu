/*
 * A user's kernel module, embedded by jetrt_add_kernels (see CMakeLists.txt).
 * Rules for a module: one file, no host headers, extern "C" kernels, so that
 * nvcc and NVRTC both compile it and names do not mangle.
 */
extern "C" __global__ void user_scale_add(float a, const float *x, const float *y, float *out,
                                          unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __fadd_rn(__fmul_rn(a, x[i]), y[i]);
}

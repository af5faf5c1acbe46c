// Kernels that set a conditional node's condition (tests/unit/test_graph_build_gpu.c).
// cudaGraphSetConditional comes from the device runtime header under nvcc; the
// module is compiled device-only (no -rdc): the call stays an external symbol
// that the driver resolves when the module loads, as it does for vprintf.
// Kept apart from graph_ops.cu so that a driver refusing it fails only the
// conditional test.
#ifdef __CUDACC_RTC__
typedef unsigned long long cudaGraphConditionalHandle;
extern "C" __device__ void cudaGraphSetConditional(cudaGraphConditionalHandle handle,
                                                   unsigned int value);
#endif

// Loop body: count one more pass, go on while the count is below limit.
extern "C" __global__ void graph_while_step(cudaGraphConditionalHandle handle, unsigned *count,
                                            unsigned limit) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned c = *count + 1u;
    *count = c;
    cudaGraphSetConditional(handle, c < limit ? 1u : 0u);
  }
}

// Before an IF node: its condition is *flag.
extern "C" __global__ void graph_if_set(cudaGraphConditionalHandle handle, const unsigned *flag) {
  if (blockIdx.x == 0 && threadIdx.x == 0) cudaGraphSetConditional(handle, *flag);
}

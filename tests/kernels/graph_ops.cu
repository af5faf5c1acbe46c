// Test kernels for lib/graph (tests/unit/test_graph_build_gpu.c): small
// integer operations, so results compare exactly with a CPU reference.

extern "C" __global__ void graph_axpb(unsigned *y, const unsigned *x, unsigned a, unsigned b,
                                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

extern "C" __global__ void graph_add(unsigned *y, const unsigned *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[i];
}

extern "C" __global__ void graph_mark(unsigned *flag, unsigned v) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *flag = v;
}

extern "C" __global__ void graph_count(unsigned *counter) {
  if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(counter, 1u);
}

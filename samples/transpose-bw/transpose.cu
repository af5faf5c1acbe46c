/*
 * The matrix transpose kernels of Professional CUDA C Programming, chapter 4
 * (global memory access patterns), written for any size. A is ny rows of nx
 * floats (row-major); B = A^T is nx rows of ny floats. "row" kernels walk A
 * (coalesced reads, strided writes), "col" kernels walk B (strided reads,
 * coalesced writes). One file, no includes, extern "C": nvcc and NVRTC both
 * compile it.
 */

/* Upper bound: copy A by rows (coalesced reads and writes). */
extern "C" __global__ void copy_row(float *out, const float *in, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) out[(size_t)iy * nx + ix] = in[(size_t)iy * nx + ix];
}

/* Lower bound: copy by columns (neighbouring threads 'ny' elements apart). */
extern "C" __global__ void copy_col(float *out, const float *in, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) out[(size_t)ix * ny + iy] = in[(size_t)ix * ny + iy];
}

/* Naive, load rows / store columns: thread (ix, iy) over A. */
extern "C" __global__ void naive_row(float *out, const float *in, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) out[(size_t)ix * ny + iy] = in[(size_t)iy * nx + ix];
}

/* Naive, load columns / store rows: thread (ix, iy) over B. */
extern "C" __global__ void naive_col(float *out, const float *in, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < ny && iy < nx) out[(size_t)iy * ny + ix] = in[(size_t)ix * nx + iy];
}

/* Unrolled x4: each thread moves four elements blockDim.x apart. */
extern "C" __global__ void unroll4_row(float *out, const float *in, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x * 4 + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (iy >= ny) return;
#pragma unroll
  for (int k = 0; k < 4; k++) {
    int x = ix + k * (int)blockDim.x;
    if (x < nx) out[(size_t)x * ny + iy] = in[(size_t)iy * nx + x];
  }
}

extern "C" __global__ void unroll4_col(float *out, const float *in, int nx, int ny) {
  int ix = blockIdx.x * blockDim.x * 4 + threadIdx.x, iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (iy >= nx) return;
#pragma unroll
  for (int k = 0; k < 4; k++) {
    int x = ix + k * (int)blockDim.x;
    if (x < ny) out[(size_t)iy * ny + x] = in[(size_t)x * nx + iy];
  }
}

/* Diagonal block order: blocks that run together touch different DRAM
 * partitions. The mapping of the CUDA SDK's transpose, for any grid shape. */
__device__ static void diagonal(int *bx, int *by) {
  unsigned bid = blockIdx.x + gridDim.x * blockIdx.y;
  *by = (int)(bid % gridDim.y);
  *bx = (int)((bid / gridDim.y + *by) % gridDim.x);
}

extern "C" __global__ void diagonal_row(float *out, const float *in, int nx, int ny) {
  int bx, by;
  diagonal(&bx, &by);
  int ix = bx * blockDim.x + threadIdx.x, iy = by * blockDim.y + threadIdx.y;
  if (ix < nx && iy < ny) out[(size_t)ix * ny + iy] = in[(size_t)iy * nx + ix];
}

extern "C" __global__ void diagonal_col(float *out, const float *in, int nx, int ny) {
  int bx, by;
  diagonal(&bx, &by);
  int ix = bx * blockDim.x + threadIdx.x, iy = by * blockDim.y + threadIdx.y;
  if (ix < ny && iy < nx) out[(size_t)iy * ny + ix] = in[(size_t)ix * nx + iy];
}

/* Shared-memory tiles: a 32 x 32 tile read by rows, written by rows of B;
 * blocks of 32 x 8 threads, four rows each. TILE_PAD 1 puts the column the
 * write phase reads into 32 different banks; 0 shows the 32-way conflict. */
#define TILE 32
#define TILE_ROWS 8

#define TRANSPOSE_SMEM(name, pad)                                                        \
  extern "C" __global__ void name(float *out, const float *in, int nx, int ny) {         \
    __shared__ float tile[TILE][TILE + pad];                                             \
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;        \
    for (int j = 0; j < TILE; j += TILE_ROWS)                                            \
      if (x < nx && y + j < ny) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * nx + x]; \
    __syncthreads();                                                                     \
    x = blockIdx.y * TILE + threadIdx.x;                                                 \
    y = blockIdx.x * TILE + threadIdx.y;                                                 \
    for (int j = 0; j < TILE; j += TILE_ROWS)                                            \
      if (x < ny && y + j < nx) out[(size_t)(y + j) * ny + x] = tile[threadIdx.x][threadIdx.y + j]; \
  }

TRANSPOSE_SMEM(smem, 0)
TRANSPOSE_SMEM(smem_pad, 1)

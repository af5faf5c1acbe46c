/*
 * copy2d: device-to-device copies and fills of pitched rows for
 * jet_memcpy_2d / jet_memset_2d (lib/memory/copy.c), where CUDA's own 2D copy
 * runs well below its 1D copy (H100, 4K RGBA8 rows 64 bytes apart: 1.6x the
 * time of a 1D copy of the same bytes, slower than NPP's copy).
 *
 * A thread moves one V (16, 4 or 1 bytes: the widest that the pointers,
 * pitches and row width allow) of a row, and walks down the rows
 * gridDim.y * blockDim.y apart, four rows' loads in flight before their
 * stores. Blocks are 256 threads: blockDim.x lanes across a row (16 to 256,
 * chosen by the host to leave the fewest idle lanes at a row's end) times
 * blockDim.y rows. Fills store with the streaming hint (st.global.cs): the
 * bytes are not read back by this kernel, and on H100 it made packed fills
 * of 16-byte-aligned spans faster than cudaMemsetAsync, which they replace.
 * Like the image kernels, each starts with the programmatic-launch wait
 * (griddepcontrol; kernels/image/pdl.cuh explains it).
 */
typedef unsigned long long u64;

__device__ __forceinline__ void jet_pdl_enter_() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

template <typename V>
__device__ __forceinline__ void copy_rows(const char *__restrict__ src, u64 sp,
                                          char *__restrict__ dst, u64 dp, u64 nv, u64 h) {
  jet_pdl_enter_();
  const u64 x = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= nv) return;
  const u64 step = (u64)gridDim.y * blockDim.y;
  u64 y = (u64)blockIdx.y * blockDim.y + threadIdx.y;
  for (; y + 3 * step < h; y += 4 * step) {
    V v[4];
#pragma unroll
    for (int i = 0; i < 4; i++) v[i] = __ldg((const V *)(src + (y + i * step) * sp) + x);
#pragma unroll
    for (int i = 0; i < 4; i++) ((V *)(dst + (y + i * step) * dp))[x] = v[i];
  }
  for (; y < h; y += step) ((V *)(dst + y * dp))[x] = __ldg((const V *)(src + y * sp) + x);
}

template <typename V>
__device__ __forceinline__ void fill_rows(char *__restrict__ dst, u64 dp, u64 nv, u64 h, V v) {
  jet_pdl_enter_();
  const u64 x = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= nv) return;
  const u64 step = (u64)gridDim.y * blockDim.y;
  for (u64 y = (u64)blockIdx.y * blockDim.y + threadIdx.y; y < h; y += step)
    __stcs((V *)(dst + y * dp) + x, v);
}

extern "C" __global__ void __launch_bounds__(256) jet_copy2d_v16(const char *src, u64 sp, char *dst,
                                                                 u64 dp, u64 nv, u64 h) {
  copy_rows<uint4>(src, sp, dst, dp, nv, h);
}
extern "C" __global__ void __launch_bounds__(256) jet_copy2d_v4(const char *src, u64 sp, char *dst,
                                                                u64 dp, u64 nv, u64 h) {
  copy_rows<unsigned>(src, sp, dst, dp, nv, h);
}
extern "C" __global__ void __launch_bounds__(256) jet_copy2d_v1(const char *src, u64 sp, char *dst,
                                                                u64 dp, u64 nv, u64 h) {
  copy_rows<unsigned char>(src, sp, dst, dp, nv, h);
}
extern "C" __global__ void __launch_bounds__(256) jet_fill2d_v16(char *dst, u64 dp, u64 nv, u64 h,
                                                                 unsigned word) {
  fill_rows<uint4>(dst, dp, nv, h, make_uint4(word, word, word, word));
}
extern "C" __global__ void __launch_bounds__(256) jet_fill2d_v4(char *dst, u64 dp, u64 nv, u64 h,
                                                                unsigned word) {
  fill_rows<unsigned>(dst, dp, nv, h, word);
}
extern "C" __global__ void __launch_bounds__(256) jet_fill2d_v1(char *dst, u64 dp, u64 nv, u64 h,
                                                                unsigned word) {
  fill_rows<unsigned char>(dst, dp, nv, h, (unsigned char)word);
}

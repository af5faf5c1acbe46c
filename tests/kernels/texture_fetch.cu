// Test-only kernels for tests/unit/test_texture_gpu.c: one fetch per thread
// through a texture object, at coordinates the host chose, into a float4 per
// sample (the host compares with its model of the Programming Guide's texture
// fetching rules). Coordinates come as float4: (x, y, z, w) where each kernel
// says what it reads; layer and level indices are carried in w.
// Surface kernels write and read 32-bit texels.

extern "C" __global__ void jt_tex1d(unsigned long long tex, const float4 *c, float4 *out, int n,
                                    int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float4>(tex, c[i].x);
}

extern "C" __global__ void jt_tex2d(unsigned long long tex, const float4 *c, float4 *out, int n,
                                    int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(tex, c[i].x, c[i].y);
}

// One-channel float result (GRAY8 / GRAYF32 planes): .x holds it, .y .z .w are 0.
extern "C" __global__ void jt_tex2d_f1(unsigned long long tex, const float4 *c, float4 *out,
                                       int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = make_float4(tex2D<float>(tex, c[i].x, c[i].y), 0.0f, 0.0f, 0.0f);
}

// Element read of U8 x 4: the bytes widened to float without scaling.
extern "C" __global__ void jt_tex2d_uchar4(unsigned long long tex, const float4 *c, float4 *out,
                                           int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uchar4 v = tex2D<uchar4>(tex, c[i].x, c[i].y);
    out[i] = make_float4((float)v.x, (float)v.y, (float)v.z, (float)v.w);
  }
}

extern "C" __global__ void jt_tex3d(unsigned long long tex, const float4 *c, float4 *out, int n,
                                    int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float4>(tex, c[i].x, c[i].y, c[i].z);
}

extern "C" __global__ void jt_tex1d_layered(unsigned long long tex, const float4 *c, float4 *out,
                                            int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1DLayered<float4>(tex, c[i].x, (int)c[i].w);
}

extern "C" __global__ void jt_tex2d_layered(unsigned long long tex, const float4 *c, float4 *out,
                                            int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float4>(tex, c[i].x, c[i].y, (int)c[i].w);
}

extern "C" __global__ void jt_tex_cubemap(unsigned long long tex, const float4 *c, float4 *out,
                                          int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float4>(tex, c[i].x, c[i].y, c[i].z);
}

extern "C" __global__ void jt_tex_cubemap_layered(unsigned long long tex, const float4 *c,
                                                  float4 *out, int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemapLayered<float4>(tex, c[i].x, c[i].y, c[i].z, (int)c[i].w);
}

// w is the level of detail.
extern "C" __global__ void jt_tex2d_lod(unsigned long long tex, const float4 *c, float4 *out,
                                        int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLod<float4>(tex, c[i].x, c[i].y, c[i].w);
}

// extra: the component gathered (0..3).
extern "C" __global__ void jt_tex2d_gather(unsigned long long tex, const float4 *c, float4 *out,
                                           int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = c[i].x, y = c[i].y;
  float4 v;
  switch (extra) {
    case 0: v = tex2Dgather<float4>(tex, x, y, 0); break;
    case 1: v = tex2Dgather<float4>(tex, x, y, 1); break;
    case 2: v = tex2Dgather<float4>(tex, x, y, 2); break;
    default: v = tex2Dgather<float4>(tex, x, y, 3); break;
  }
  out[i] = v;
}

// Linear memory: x is the integer index.
extern "C" __global__ void jt_tex1d_fetch(unsigned long long tex, const float4 *c, float4 *out,
                                          int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(tex, (int)c[i].x);
}

__device__ unsigned int jt_texel_hash(unsigned int x, unsigned int y, unsigned int z,
                                      unsigned int seed) {
  unsigned int h = seed ^ (x * 0x9e3779b1u) ^ (y * 0x85ebca6bu) ^ (z * 0xc2b2ae35u);
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

// Surfaces of 32-bit texels: write the hash of each texel's coordinates.
extern "C" __global__ void jt_surf2d_write(unsigned long long surf, int w, int h,
                                           unsigned int seed) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) surf2Dwrite(jt_texel_hash(x, y, 0, seed), surf, x * 4, y);
}

extern "C" __global__ void jt_surf2d_layered_write(unsigned long long surf, int w, int h,
                                                   int layers, unsigned int seed) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    for (int l = 0; l < layers; l++)
      surf2DLayeredwrite(jt_texel_hash(x, y, l, seed), surf, x * 4, y, l);
}

extern "C" __global__ void jt_surf3d_write(unsigned long long surf, int w, int h, int d,
                                           unsigned int seed) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    for (int z = 0; z < d; z++) surf3Dwrite(jt_texel_hash(x, y, z, seed), surf, x * 4, y, z);
}

// Copy the surface into out (w * h words, packed), read with surf2Dread.
extern "C" __global__ void jt_surf2d_read(unsigned long long surf, unsigned int *out, int w,
                                          int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[(size_t)y * w + x] = surf2Dread<unsigned int>(surf, x * 4, y);
}

// Every channel count and result type, at texel centres: floats (F16/F32 and
// normalised 8/16-bit reads) in .x .y .z .w as they come; 32-bit integers as
// their bits (__int_as_float). Missing channels are written as 0.
extern "C" __global__ void jt_tex2d_f2(unsigned long long tex, const float4 *c, float4 *out,
                                       int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 v = tex2D<float2>(tex, c[i].x, c[i].y);
    out[i] = make_float4(v.x, v.y, 0.0f, 0.0f);
  }
}

extern "C" __global__ void jt_tex2d_i1(unsigned long long tex, const float4 *c, float4 *out,
                                       int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = make_float4(__int_as_float(tex2D<int>(tex, c[i].x, c[i].y)), 0.0f, 0.0f, 0.0f);
}

extern "C" __global__ void jt_tex2d_i2(unsigned long long tex, const float4 *c, float4 *out,
                                       int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int2 v = tex2D<int2>(tex, c[i].x, c[i].y);
    out[i] = make_float4(__int_as_float(v.x), __int_as_float(v.y), 0.0f, 0.0f);
  }
}

extern "C" __global__ void jt_tex2d_i4(unsigned long long tex, const float4 *c, float4 *out,
                                       int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int4 v = tex2D<int4>(tex, c[i].x, c[i].y);
    out[i] = make_float4(__int_as_float(v.x), __int_as_float(v.y), __int_as_float(v.z),
                         __int_as_float(v.w));
  }
}

extern "C" __global__ void jt_tex2d_u1(unsigned long long tex, const float4 *c, float4 *out,
                                       int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = make_float4(__uint_as_float(tex2D<unsigned int>(tex, c[i].x, c[i].y)), 0.0f, 0.0f,
                         0.0f);
}

extern "C" __global__ void jt_tex2d_u2(unsigned long long tex, const float4 *c, float4 *out,
                                       int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uint2 v = tex2D<uint2>(tex, c[i].x, c[i].y);
    out[i] = make_float4(__uint_as_float(v.x), __uint_as_float(v.y), 0.0f, 0.0f);
  }
}

extern "C" __global__ void jt_tex2d_u4(unsigned long long tex, const float4 *c, float4 *out,
                                       int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uint4 v = tex2D<uint4>(tex, c[i].x, c[i].y);
    out[i] = make_float4(__uint_as_float(v.x), __uint_as_float(v.y), __uint_as_float(v.z),
                         __uint_as_float(v.w));
  }
}

/*
 * The synthetic camera of camera-display: an NV12 test pattern that moves
 * with the frame number, and the frame number itself drawn into the Y plane.
 * Embedded by jetrt_add_kernels (see CMakeLists.txt): one file, no #include,
 * extern "C", so that nvcc and NVRTC both compile it.
 *
 * One thread writes a 2x2 block: four Y samples and one U,V pair.
 */

/* 3x5 digits, one row per entry, bit 2 = left column. */
__constant__ unsigned char font[10][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};

#define DIGITS 6
#define SCALE 8              /* font pixels are SCALE x SCALE image pixels */
#define CELL (4 * SCALE)     /* digit advance */
#define BOX_X 16
#define BOX_Y 16
#define BOX_W (DIGITS * CELL + SCALE)
#define BOX_H (5 * SCALE + 2 * SCALE)

/* Luma of the counter box at (x, y), or -1 outside it. */
__device__ int counter_luma(int x, int y, unsigned int frame) {
  int bx = x - BOX_X, by = y - BOX_Y;
  if (bx < 0 || by < 0 || bx >= BOX_W || by >= BOX_H) return -1;
  int gx = bx - SCALE, gy = by - SCALE; /* inside the margin */
  if (gx < 0 || gy < 0 || gy >= 5 * SCALE) return 16;
  int d = gx / CELL, cx = (gx % CELL) / SCALE;
  if (d >= DIGITS || cx >= 3) return 16;
  unsigned int v = frame;
  for (int k = DIGITS - 1; k > d; k--) v /= 10u;
  int digit = (int)(v % 10u);
  int row = gy / SCALE;
  return (font[digit][row] >> (2 - cx)) & 1 ? 235 : 16;
}

__device__ unsigned char pattern_luma(int x, int y, unsigned int frame) {
  /* diagonal bands drifting right, with a bright disc orbiting the centre */
  int band = ((x + (y >> 1) + 6 * (int)frame) >> 5) & 7;
  int v = 40 + band * 24;
  float t = (float)frame * 0.03f;
  float cx = 960.0f + 500.0f * __cosf(t), cy = 540.0f + 300.0f * __sinf(t);
  float dx = (float)x - cx, dy = (float)y - cy;
  if (dx * dx + dy * dy < 120.0f * 120.0f) v = 220;
  int c = counter_luma(x, y, frame);
  return (unsigned char)(c >= 0 ? c : v);
}

extern "C" __global__ void camera_pattern(unsigned char *y_plane, unsigned long long y_pitch,
                                          unsigned char *uv_plane, unsigned long long uv_pitch,
                                          int width, int height, unsigned int frame) {
  int bx = blockIdx.x * blockDim.x + threadIdx.x, by = blockIdx.y * blockDim.y + threadIdx.y;
  int x = 2 * bx, y = 2 * by;
  if (x >= width || y >= height) return;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++)
      y_plane[(unsigned long long)(y + j) * y_pitch + (unsigned long long)(x + i)] =
          pattern_luma(x + i, y + j, frame);
  /* chroma: a slow hue sweep across the image; neutral under the counter */
  unsigned char u = 128, v = 128;
  if (counter_luma(x, y, frame) < 0) {
    u = (unsigned char)(64 + ((x + 2 * (int)frame) & 127));
    v = (unsigned char)(64 + ((y + (int)frame) & 127));
  }
  unsigned char *uv = uv_plane + (unsigned long long)by * uv_pitch + (unsigned long long)x;
  uv[0] = u;
  uv[1] = v;
}

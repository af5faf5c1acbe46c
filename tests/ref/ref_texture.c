/* CPU model of texture fetching: see ref_texture.h. */
#include <math.h>

#include "ref_texture.h"

const char *const ref_tex_am_names[4] = {"clamp", "wrap", "mirror", "border"};

long ref_tex_address(jet_address_mode m, long i, long n) {
  switch (m) {
    case JET_ADDRESS_WRAP: return ((i % n) + n) % n;
    case JET_ADDRESS_MIRROR: {
      long k = ((i % (2 * n)) + 2 * n) % (2 * n);
      return k < n ? k : 2 * n - 1 - k;
    }
    case JET_ADDRESS_BORDER: return (i < 0 || i >= n) ? -1 : i;
    default: return i < 0 ? 0 : (i >= n ? n - 1 : i);
  }
}

void ref_tex_fetch(const ref_tex_model *m, int dims, const float *c, float out[4], float tol[4]) {
  long idx[3][2];
  double w[3][2];
  for (int k = 0; k < 3; k++) {
    idx[k][0] = idx[k][1] = 0;
    w[k][0] = 1.0;
    w[k][1] = 0.0;
    if (k >= dims) continue;
    double u = m->norm ? (double)c[k] * (double)m->n[k] : (double)c[k];
    if (m->linear) {
      u -= 0.5;
      double i0 = floor(u), a = u - i0;
      a = floor(a * 256.0 + 0.5) / 256.0;
      idx[k][0] = (long)i0;
      idx[k][1] = (long)i0 + 1;
      w[k][0] = 1.0 - a;
      w[k][1] = a;
    } else {
      idx[k][0] = idx[k][1] = (long)floor(u);
    }
  }
  double acc[4] = {0, 0, 0, 0}, lo[4], hi[4];
  for (int ch = 0; ch < 4; ch++) lo[ch] = INFINITY, hi[ch] = -INFINITY;
  for (int corner = 0; corner < (1 << dims); corner++) {
    double wt = 1.0;
    long at[3] = {0, 0, 0};
    int border = 0;
    for (int k = 0; k < dims; k++) {
      int b = (corner >> k) & 1;
      wt *= w[k][b];
      at[k] = ref_tex_address(m->am[k], idx[k][b], (long)m->n[k]);
      if (at[k] < 0) border = 1;
    }
    const float *v = m->border;
    if (!border)
      v = m->t + 4 * ((size_t)at[0] + m->n[0] * ((size_t)at[1] + m->n[1] * (size_t)at[2]));
    for (int ch = 0; ch < 4; ch++) {
      acc[ch] += wt * v[ch];
      if (v[ch] < lo[ch]) lo[ch] = v[ch];
      if (v[ch] > hi[ch]) hi[ch] = v[ch];
    }
  }
  for (int ch = 0; ch < 4; ch++) {
    out[ch] = (float)acc[ch];
    tol[ch] = m->linear ? (float)((hi[ch] - lo[ch]) * dims / 256.0 + 1e-5 * (1.0 + fabs(acc[ch])))
                        : 0.0f;
    tol[ch] += (float)(m->extra_tol * (1.0 + fabs(acc[ch])));
  }
}

void ref_tex_cube_face(const float *c, int *face, double *u, double *v) {
  double x = c[0], y = c[1], z = c[2], ax = fabs(x), ay = fabs(y), az = fabs(z), m, s, t;
  if (ax >= ay && ax >= az) {
    m = ax;
    *face = x >= 0 ? 0 : 1;
    s = x >= 0 ? -z : z;
    t = -y;
  } else if (ay >= az) {
    m = ay;
    *face = y >= 0 ? 2 : 3;
    s = x;
    t = y >= 0 ? z : -z;
  } else {
    m = az;
    *face = z >= 0 ? 4 : 5;
    s = z >= 0 ? x : -x;
    t = -y;
  }
  *u = (s / m + 1) / 2;
  *v = (t / m + 1) / 2;
}

void ref_tex_cube_dir(int face, double u, double v, double r, float out[3]) {
  double s = 2 * u - 1, t = 2 * v - 1, x = 0, y = 0, z = 0;
  switch (face) {
    case 0: x = 1, z = -s, y = -t; break;
    case 1: x = -1, z = s, y = -t; break;
    case 2: y = 1, x = s, z = t; break;
    case 3: y = -1, x = s, z = -t; break;
    case 4: z = 1, x = s, y = -t; break;
    default: z = -1, x = -s, y = -t; break;
  }
  out[0] = (float)(x * r);
  out[1] = (float)(y * r);
  out[2] = (float)(z * r);
}

float ref_tex_half_to_float(uint16_t h) {
  int s = h >> 15, ex = (h >> 10) & 31, m = h & 1023;
  float v = ex == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m + 1024), ex - 25);
  return s ? -v : v;
}

float ref_tex_srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

uint32_t ref_tex_hash(uint32_t x, uint32_t y, uint32_t z, uint32_t seed) {
  uint32_t h = seed ^ (x * 0x9e3779b1u) ^ (y * 0x85ebca6bu) ^ (z * 0xc2b2ae35u);
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

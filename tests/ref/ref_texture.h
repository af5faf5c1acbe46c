/* CPU model of the Programming Guide's appendix "Texture Fetching", shared by
 * the texture GPU tests and the host tests that check the model itself. */
#ifndef JET_REF_TEXTURE_H
#define JET_REF_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "jetrt.h"

typedef struct ref_tex_model {
  size_t n[3];          /* extent per dimension (1 where unused) */
  const float *t;       /* n[0] * n[1] * n[2] texels of 4 floats, x fastest */
  jet_address_mode am[3];
  float border[4];
  int linear, norm;     /* linear filtering; normalised coordinates */
  double extra_tol;     /* relative tolerance added to every channel (normalised reads) */
} ref_tex_model;

extern const char *const ref_tex_am_names[4];

/* Texel index @i of a dimension of @n texels after address mode @m, or -1 for
 * the border: clamp to [0, n-1], wrap modulo n, mirror with period 2n. */
long ref_tex_address(jet_address_mode m, long i, long n);

/* Fetch at the first @dims coordinates of @c: point reads texel floor(x);
 * linear reads floor(xB) and floor(xB)+1, xB = x - 0.5, with the weight
 * frac(xB) rounded to 1/256 (9-bit fixed point, 8 fractional bits). @tol
 * receives the tolerance per channel: (texel range) * dims / 256 for linear
 * filtering (weights may be truncated instead of rounded), 0 for point, plus
 * extra_tol relative. */
void ref_tex_fetch(const ref_tex_model *m, int dims, const float *c, float out[4], float tol[4]);

/* Cubemaps (PG table "Cubemap Fetch"): the face (0..5: +X -X +Y -Y +Z -Z) and
 * face coordinates in [0, 1] of direction @c; and the inverse, a direction of
 * length about @r for a face and face coordinates. */
void ref_tex_cube_face(const float *c, int *face, double *u, double *v);
void ref_tex_cube_dir(int face, double u, double v, double r, float out[3]);

/* IEEE half bits to float. */
float ref_tex_half_to_float(uint16_t h);
/* sRGB -> linear, the formula of the sRGB standard. */
float ref_tex_srgb_to_linear(float c);
/* The surface kernels' per-texel hash (tests/kernels/texture_fetch.cu). */
uint32_t ref_tex_hash(uint32_t x, uint32_t y, uint32_t z, uint32_t seed);

#endif

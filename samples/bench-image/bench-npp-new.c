/*
 * bench-npp-new.c - NPP's equivalents that only newer NPP releases have
 * (colour conversions with an NppiColorSpace argument, NV21 to four
 * channels). Compiled and checked apart from bench-npp.c, so an older NPP
 * loses only these rows.
 */
#include <string.h>

#include <nppi_color_conversion.h>

#include "bench-npp.h"

static int nv12_c4(const bench_io *io) {
  bench_planes p;
  if (bench_npp_planes(io, &p)) return -1;
  const Npp8u *src[2] = {(const Npp8u *)p.s[0].ptr, (const Npp8u *)p.s[1].ptr};
  NppiSize roi = {io->cfg->w, io->cfg->h};
  if (io->cfg->dst == JET_FORMAT_BGRA8)
    return nppiNV12ToBGR_8u_P2C4R_Ctx(src, (int)p.s[0].pitch, (Npp8u *)p.d[0].ptr,
                                      (int)p.d[0].pitch, roi, NPP_BT601JPEG, 255, bench_npp_ctx);
  return nppiNV12ToRGB_8u_P2C4R_Ctx(src, (int)p.s[0].pitch, (Npp8u *)p.d[0].ptr, (int)p.d[0].pitch,
                                    roi, NPP_BT601JPEG, 255, bench_npp_ctx);
}

static int nv21_c4(const bench_io *io) {
  bench_planes p;
  if (bench_npp_planes(io, &p)) return -1;
  const Npp8u *src[2] = {(const Npp8u *)p.s[0].ptr, (const Npp8u *)p.s[1].ptr};
  NppiSize roi = {io->cfg->w, io->cfg->h};
  if (io->cfg->dst == JET_FORMAT_BGRA8)
    return nppiNV21ToBGR_8u_P2C4R_Ctx(src, (int)p.s[0].pitch, (Npp8u *)p.d[0].ptr,
                                      (int)p.d[0].pitch, roi, bench_npp_ctx);
  return nppiNV21ToRGB_8u_P2C4R_Ctx(src, (int)p.s[0].pitch, (Npp8u *)p.d[0].ptr, (int)p.d[0].pitch,
                                    roi, bench_npp_ctx);
}

static int rgb_nv12(const bench_io *io) {
  bench_planes p;
  if (bench_npp_planes(io, &p)) return -1;
  Npp8u *dst[2] = {(Npp8u *)p.d[0].ptr, (Npp8u *)p.d[1].ptr};
  NppiSize roi = {io->cfg->w, io->cfg->h};
  return nppiRGBToNV12_8u_C3P2R_Ctx((const Npp8u *)p.s[0].ptr, (int)p.s[0].pitch, dst,
                                    (int)p.d[0].pitch, roi, NPP_BT601JPEG, bench_npp_ctx);
}

int bench_npp_select_new(const bench_cfg *c, bench_npp_entry *out) {
  memset(out, 0, sizeof *out);
  if (c->op != BOP_COLOR) return 0;
  int c4 = c->dst == JET_FORMAT_RGBA8 || c->dst == JET_FORMAT_BGRA8;
  if (c->src == JET_FORMAT_NV12 && c4) {
    out->fn = nv12_c4;
    out->name = c->dst == JET_FORMAT_BGRA8 ? "nppiNV12ToBGR_8u_P2C4R" : "nppiNV12ToRGB_8u_P2C4R";
  } else if (c->src == JET_FORMAT_NV21 && c4) {
    out->fn = nv21_c4;
    out->name = c->dst == JET_FORMAT_BGRA8 ? "nppiNV21ToBGR_8u_P2C4R" : "nppiNV21ToRGB_8u_P2C4R";
  } else if (c->src == JET_FORMAT_RGB8 && c->dst == JET_FORMAT_NV12) {
    out->fn = rgb_nv12;
    out->name = "nppiRGBToNV12_8u_C3P2R";
  }
  return out->fn != NULL;
}

/* Arrays, textures and surfaces without a GPU: every rule checked before CUDA,
 * on fake contexts, arrays, buffers and images that no CUDA call ever sees. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/memory/memory_internal.h"
#include "../../lib/image/image_internal.h"
#include "../../lib/texture/texture_internal.h"

#define BAD ((void *)(uintptr_t)0x10000) /* never dereferenced: checks fail first */

static int has(const char *needle) {
  const char *m = jet_last_error()->message;
  if (m && strstr(m, needle)) return 1;
  fprintf(stderr, "  detail \"%s\" lacks \"%s\"\n", m ? m : "(null)", needle);
  return 0;
}

/* ------------------------------------------------------------ fakes */

static struct jet_array_s *fake_array(struct jet_context_s *c, jet_array_kind kind,
                                      jet_channel_type t, int ch, size_t w, size_t h, size_t d,
                                      size_t layers, unsigned levels, unsigned flags) {
  jet_array_desc in = {kind, {t, ch}, w, h, d, layers, levels, flags};
  struct jet_array_s *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  if (jet__array_desc_check(&in, &a->desc, "test") != JET_STATUS_OK) {
    fprintf(stderr, "fake_array: %s\n", jet_last_error_string());
    free(a);
    return NULL;
  }
  a->texel = jet__texel_bytes(a->desc.format);
  if (a->desc.levels > 1) a->mip = (cudaMipmappedArray_t)BAD; /* marks it mipmapped */
  atomic_init(&a->users, 0);
  if (jet__handle_register(&a->h, JET__H_ARRAY, c, "test") != JET_STATUS_OK) {
    free(a);
    return NULL;
  }
  return a;
}

static void fake_array_free(struct jet_array_s *a) {
  if (!a) return;
  jet__handle_unregister(&a->h);
  free(a);
}

static int fake_buf(struct jet_buffer_s *b, struct jet_context_s *c, jet_memory_kind kind,
                    size_t size, size_t pitch) {
  memset(b, 0, sizeof *b);
  b->kind = b->requested = kind;
  b->dev = kind == JET_MEMORY_HOST_PINNED ? NULL : BAD;
  b->host = kind == JET_MEMORY_DEVICE ? NULL : BAD;
  b->width = pitch;
  b->pitch = pitch;
  b->size = size;
  b->height = size / pitch;
  b->depth = 1;
  return jet__handle_register(&b->h, JET__H_BUFFER, c, "test") == JET_STATUS_OK;
}

static struct jet_image_s *fake_image(struct jet_context_s *c, jet_format f, int w, int h) {
  struct jet_image_s *im = malloc(sizeof *im);
  if (im && !jt_fake_image(im, c, f, w, h, (uintptr_t)BAD)) {
    free(im);
    return NULL;
  }
  return im;
}

static void fake_image_free(struct jet_image_s *im) {
  jet__handle_unregister(&im->h);
  free(im);
}

/* ------------------------------------------------------------ formats */

TEST(texture_texel_sizes) {
  static const size_t per[] = {0, 1, 1, 2, 2, 4, 4, 2, 4};
  for (int t = JET_CHANNEL_S8; t <= JET_CHANNEL_F32; t++)
    for (int ch = 0; ch <= 5; ch++) {
      jet_texel_format f = {(jet_channel_type)t, ch};
      size_t b = 12345;
      if (ch == 1 || ch == 2 || ch == 4) {
        CHECK_OK(jet_texel_size(f, &b));
        CHECK_MSG(b == per[t] * (size_t)ch, "type %d ch %d: %zu", t, ch, b);
        struct cudaChannelFormatDesc cd = jet__channel_desc(f);
        int bits = (int)per[t] * 8;
        CHECK(cd.x == bits && cd.y == (ch >= 2 ? bits : 0) && cd.z == (ch == 4 ? bits : 0) &&
              cd.w == cd.z);
        enum cudaChannelFormatKind k = t == JET_CHANNEL_F16 || t == JET_CHANNEL_F32
                                           ? cudaChannelFormatKindFloat
                                           : (t % 2 ? cudaChannelFormatKindSigned
                                                    : cudaChannelFormatKindUnsigned);
        CHECK_MSG(cd.f == k, "type %d kind %d", t, (int)cd.f);
      } else {
        CHECK_ST(jet_texel_size(f, &b), JET_STATUS_INVALID_ARGUMENT);
        CHECK(b == 12345);
      }
    }
  jet_texel_format bad = {(jet_channel_type)9, 1};
  size_t b;
  CHECK_ST(jet_texel_size(bad, &b), JET_STATUS_INVALID_ARGUMENT);
  bad.type = (jet_channel_type)0;
  CHECK_ST(jet_texel_size(bad, &b), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_texel_size((jet_texel_format){JET_CHANNEL_U8, 1}, NULL),
           JET_STATUS_INVALID_ARGUMENT);
  return 0;
}

/* ------------------------------------------------------------ array descriptions */

TEST(texture_array_desc_rules) {
  jet_array out = (jet_array)BAD;
  const jet_texel_format u8 = {JET_CHANNEL_U8, 1};
  CHECK_ST(jet_array_create(NULL, NULL, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  jet_array_desc ok = {JET_ARRAY_2D, u8, 16, 8, 0, 0, 0, 0};
  CHECK_ST(jet_array_create(NULL, &ok, NULL), JET_STATUS_INVALID_ARGUMENT);
  /* a valid description reaches the context check */
  CHECK_ST(jet_array_create(NULL, &ok, &out), JET_STATUS_INVALID_HANDLE);

  static const struct {
    jet_array_desc d;
    const char *needle;
  } bad[] = {
      {{(jet_array_kind)0, {JET_CHANNEL_U8, 1}, 4, 4, 0, 0, 0, 0}, "unknown array kind"},
      {{(jet_array_kind)8, {JET_CHANNEL_U8, 1}, 4, 4, 0, 0, 0, 0}, "unknown array kind"},
      {{JET_ARRAY_2D, {JET_CHANNEL_U8, 3}, 4, 4, 0, 0, 0, 0}, "channels"},
      {{JET_ARRAY_2D, {(jet_channel_type)9, 1}, 4, 4, 0, 0, 0, 0}, "channel type"},
      {{JET_ARRAY_2D, {JET_CHANNEL_U8, 1}, 4, 4, 0, 0, 0, 0x4}, "unknown array flags"},
      {{JET_ARRAY_3D, {JET_CHANNEL_U8, 1}, 4, 4, 4, 0, 0, JET_ARRAY_GATHER}, "GATHER"},
      {{JET_ARRAY_2D_LAYERED, {JET_CHANNEL_U8, 1}, 4, 4, 0, 2, 0, JET_ARRAY_GATHER}, "GATHER"},
      {{JET_ARRAY_1D, {JET_CHANNEL_U8, 1}, 4, 0, 0, 0, 0, JET_ARRAY_GATHER}, "GATHER"},
      {{JET_ARRAY_2D, {JET_CHANNEL_U8, 1}, 0, 4, 0, 0, 0, 0}, "width is 0"},
      {{JET_ARRAY_2D, {JET_CHANNEL_U8, 1}, 4, 0, 0, 0, 0, 0}, "height is 0"},
      {{JET_ARRAY_3D, {JET_CHANNEL_U8, 1}, 4, 4, 0, 0, 0, 0}, "depth is 0"},
      {{JET_ARRAY_1D, {JET_CHANNEL_U8, 1}, 4, 2, 0, 0, 0, 0}, "1D kind has none"},
      {{JET_ARRAY_2D, {JET_CHANNEL_U8, 1}, 4, 4, 2, 0, 0, 0}, "only 3D arrays"},
      {{JET_ARRAY_2D_LAYERED, {JET_CHANNEL_U8, 1}, 4, 4, 3, 0, 0, 0}, "set layers"},
      {{JET_ARRAY_2D_LAYERED, {JET_CHANNEL_U8, 1}, 4, 4, 0, 0, 0, 0}, "layers is 0"},
      {{JET_ARRAY_1D_LAYERED, {JET_CHANNEL_U8, 1}, 4, 0, 0, 0, 0, 0}, "layers is 0"},
      {{JET_ARRAY_2D, {JET_CHANNEL_U8, 1}, 4, 4, 0, 3, 0, 0}, "only layered"},
      {{JET_ARRAY_CUBEMAP, {JET_CHANNEL_U8, 1}, 4, 5, 0, 6, 0, 0}, "square"},
      {{JET_ARRAY_CUBEMAP, {JET_CHANNEL_U8, 1}, 4, 4, 0, 12, 0, 0}, "must be 6"},
      {{JET_ARRAY_CUBEMAP_LAYERED, {JET_CHANNEL_U8, 1}, 4, 4, 0, 0, 0, 0}, "multiple of 6"},
      {{JET_ARRAY_CUBEMAP_LAYERED, {JET_CHANNEL_U8, 1}, 4, 4, 0, 9, 0, 0}, "multiple of 6"},
      {{JET_ARRAY_2D, {JET_CHANNEL_U8, 1}, 16, 5, 0, 0, 6, 0}, "mip levels"},
      {{JET_ARRAY_1D, {JET_CHANNEL_U8, 1}, 1, 0, 0, 0, 2, 0}, "mip levels"},
      {{JET_ARRAY_2D_LAYERED, {JET_CHANNEL_U8, 1}, 4, 4, 0, 64, 4, 0}, "mip levels"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    out = (jet_array)BAD;
    jet_status st = jet_array_create(NULL, &bad[i].d, &out);
    CHECK_MSG(st == JET_STATUS_INVALID_ARGUMENT, "row %zu: %s (%s)", i, jet_status_name(st),
              jet_last_error_string());
    CHECK_MSG(out == NULL, "row %zu", i);
    CHECK_MSG(has(bad[i].needle), "row %zu", i);
  }
  jet_array_desc huge = {JET_ARRAY_3D, {JET_CHANNEL_F32, 4}, SIZE_MAX / 8, 3, 3, 0, 0, 0};
  CHECK_ST(jet_array_create(NULL, &huge, &out), JET_STATUS_OVERFLOW);
  return 0;
}

TEST(texture_array_desc_normalised) {
  jet_array_desc in, d;
  memset(&in, 0, sizeof in);
  in.kind = JET_ARRAY_CUBEMAP;
  in.format = (jet_texel_format){JET_CHANNEL_F32, 4};
  in.width = 32;
  CHECK_OK(jet__array_desc_check(&in, &d, "t"));
  CHECK(d.height == 32 && d.layers == 6 && d.levels == 1 && d.depth == 0);
  in.levels = 6; /* 32 -> 1: 6 levels */
  CHECK_OK(jet__array_desc_check(&in, &d, "t"));
  in.levels = 7;
  CHECK_ST(jet__array_desc_check(&in, &d, "t"), JET_STATUS_INVALID_ARGUMENT);
  in = (jet_array_desc){JET_ARRAY_1D, {JET_CHANNEL_U8, 1}, 7, 1, 1, 0, 3, 0};
  CHECK_OK(jet__array_desc_check(&in, &d, "t"));
  CHECK(d.height == 0 && d.depth == 0 && d.levels == 3);
  in = (jet_array_desc){JET_ARRAY_3D, {JET_CHANNEL_U8, 1}, 3, 2, 33, 0, 6, 0};
  CHECK_OK(jet__array_desc_check(&in, &d, "t"));

  /* level extents: halved, at least 1, layers kept */
  size_t w, h, z;
  jet__array_level_extent(&d, 0, &w, &h, &z);
  CHECK(w == 3 && h == 2 && z == 33);
  jet__array_level_extent(&d, 1, &w, &h, &z);
  CHECK(w == 1 && h == 1 && z == 16);
  jet__array_level_extent(&d, 5, &w, &h, &z);
  CHECK(w == 1 && h == 1 && z == 1);
  in = (jet_array_desc){JET_ARRAY_2D_LAYERED, {JET_CHANNEL_U8, 1}, 9, 20, 0, 7, 5, 0};
  CHECK_OK(jet__array_desc_check(&in, &d, "t"));
  jet__array_level_extent(&d, 2, &w, &h, &z);
  CHECK(w == 2 && h == 5 && z == 7);
  in = (jet_array_desc){JET_ARRAY_1D_LAYERED, {JET_CHANNEL_U8, 1}, 9, 0, 0, 4, 0, 0};
  CHECK_OK(jet__array_desc_check(&in, &d, "t"));
  jet__array_level_extent(&d, 0, &w, &h, &z);
  CHECK(w == 9 && h == 1 && z == 4);
  in = (jet_array_desc){JET_ARRAY_CUBEMAP_LAYERED, {JET_CHANNEL_U8, 1}, 8, 8, 0, 18, 0, 0};
  CHECK_OK(jet__array_desc_check(&in, &d, "t"));
  jet__array_level_extent(&d, 0, &w, &h, &z);
  CHECK(w == 8 && h == 8 && z == 18);
  return 0;
}

/* ------------------------------------------------------------ handles */

TEST(texture_handles_destroyed_and_foreign) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  int bogus[32] = {0};
  CHECK_OK(jet_array_destroy(NULL));
  CHECK_OK(jet_texture_destroy(NULL));
  CHECK_OK(jet_surface_destroy(NULL));
  CHECK_ST(jet_array_destroy((jet_array)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_texture_destroy((jet_texture)bogus), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_surface_destroy((jet_surface)bogus), JET_STATUS_INVALID_HANDLE);
  unsigned long long obj = 7;
  CHECK_ST(jet_texture_native((jet_texture)bogus, &obj), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_surface_native((jet_surface)bogus, &obj), JET_STATUS_INVALID_HANDLE);
  CHECK(obj == 7);
  jet_array_info info;
  CHECK_ST(jet_array_get_info((jet_array)bogus, &info), JET_STATUS_INVALID_HANDLE);

  struct jet_array_s *a = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_U8, 4, 5, 3, 0, 0, 2, 0);
  CHECK(a);
  CHECK(atomic_load(&c.live_objects) == 1);
  /* an array is not a texture, a buffer is not an array */
  CHECK_ST(jet_texture_native((jet_texture)a, &obj), JET_STATUS_INVALID_HANDLE);
  struct jet_buffer_s b;
  CHECK(fake_buf(&b, &c, JET_MEMORY_DEVICE, 4096, 4096));
  CHECK_ST(jet_array_get_info((jet_array)&b, &info), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_surface_create((jet_array)&b, 0, (jet_surface *)&obj), JET_STATUS_INVALID_HANDLE);
  jet__handle_unregister(&b.h);

  CHECK_ST(jet_array_get_info(a, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_array_get_info(a, &info));
  CHECK(info.mipmapped == 1 && info.texel_bytes == 4 && info.desc.levels == 2 &&
        info.desc.width == 5 && info.desc.height == 3 && info.textures == 0);
  size_t w = 0, h = 0, d = 0;
  CHECK_OK(jet_array_level_extent(a, 1, &w, &h, &d));
  CHECK(w == 2 && h == 1 && d == 1);
  CHECK_OK(jet_array_level_extent(a, 0, NULL, NULL, NULL));
  CHECK_ST(jet_array_level_extent(a, 2, &w, &h, &d), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("level 2"));

  /* a texture or surface holds the array: destroy refused, nothing freed */
  atomic_store(&a->users, 2);
  CHECK_ST(jet_array_destroy(a), JET_STATUS_INVALID_STATE);
  CHECK(has("2 texture(s) or surface(s)"));
  CHECK_OK(jet_array_get_info(a, &info));
  CHECK(info.textures == 2);
  atomic_store(&a->users, 0);
  jet__handle_unregister(&a->h); /* as destroy does, before the free */
  CHECK(atomic_load(&c.live_objects) == 0);
  CHECK_ST(jet_array_get_info(a, &info), JET_STATUS_INVALID_HANDLE);
  free(a);
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ texture descriptions */

static jet_texture_desc tdesc(void) {
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  return d;
}

TEST(texture_desc_rules) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  struct jet_array_s *u8 = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_U8, 4, 9, 7, 0, 0, 0, 0);
  struct jet_array_s *u32 = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_U32, 1, 9, 7, 0, 0, 0, 0);
  struct jet_array_s *f32 = fake_array(&c, JET_ARRAY_3D, JET_CHANNEL_F32, 1, 9, 7, 3, 0, 0, 0);
  struct jet_array_s *s16 = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_S16, 2, 9, 7, 0, 0, 0, 0);
  struct jet_array_s *mip = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_U16, 1, 16, 16, 0, 0, 4, 0);
  struct jet_array_s *cube = fake_array(&c, JET_ARRAY_CUBEMAP, JET_CHANNEL_F16, 4, 8, 0, 0, 0, 0, 0);
  CHECK(u8 && u32 && f32 && s16 && mip && cube);
  jet_texture out = (jet_texture)BAD;
  jet_texture_desc d = tdesc();
  CHECK_ST(jet_texture_create_array(u8, NULL, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_ST(jet_texture_create_array(u8, &d, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_texture_create_array(NULL, &d, &out), JET_STATUS_INVALID_HANDLE);

#define BAD_DESC(arr, needle)                                                          \
  do {                                                                                 \
    out = (jet_texture)BAD;                                                            \
    CHECK_ST(jet_texture_create_array((arr), &d, &out), JET_STATUS_INVALID_ARGUMENT);  \
    CHECK(out == NULL);                                                                \
    CHECK(has(needle));                                                                \
    d = tdesc();                                                                       \
  } while (0)

  d.address[1] = (jet_address_mode)4;
  BAD_DESC(u8, "unknown address mode");
  d.address[2] = (jet_address_mode)-1;
  BAD_DESC(u8, "address[2]");
  d.filter = (jet_filter)2;
  BAD_DESC(u8, "unknown filter");
  d.mipmap_filter = (jet_filter)7;
  BAD_DESC(mip, "unknown mipmap_filter");
  d.read_mode = (jet_read_mode)2;
  BAD_DESC(u8, "unknown read mode");
  d.border_color[3] = NAN;
  BAD_DESC(u8, "border_color[3]");
  d.mip_bias = INFINITY;
  BAD_DESC(mip, "finite");
  d.max_anisotropy = 17;
  BAD_DESC(u8, "above 16");
  /* wrap and mirror need normalised coordinates, on every dimension used */
  d.address[0] = JET_ADDRESS_WRAP;
  BAD_DESC(u8, "JET_ADDRESS_WRAP needs normalized_coords");
  d.address[1] = JET_ADDRESS_MIRROR;
  BAD_DESC(u8, "JET_ADDRESS_MIRROR needs normalized_coords");
  d.address[2] = JET_ADDRESS_MIRROR;
  BAD_DESC(f32, "address[2]");
  /* linear filtering needs a float result */
  d.filter = JET_FILTER_LINEAR;
  BAD_DESC(u8, "JET_FILTER_LINEAR needs a float result");
  d.filter = JET_FILTER_LINEAR;
  BAD_DESC(s16, "JET_FILTER_LINEAR needs a float result");
  d.filter = JET_FILTER_LINEAR;
  d.read_mode = JET_READ_NORMALIZED_FLOAT;
  BAD_DESC(u32, "8 and 16-bit integer formats only");
  d.read_mode = JET_READ_NORMALIZED_FLOAT;
  BAD_DESC(f32, "8 and 16-bit integer formats only");
  d.srgb = 1;
  BAD_DESC(u8, "srgb needs a U8 format read as JET_READ_NORMALIZED_FLOAT");
  d.srgb = 1;
  d.read_mode = JET_READ_NORMALIZED_FLOAT;
  BAD_DESC(s16, "srgb");
  /* mipmap settings on a plain array */
  d.mipmap_filter = JET_FILTER_LINEAR;
  BAD_DESC(f32, "mipmapped arrays only");
  d.mip_bias = 0.5f;
  BAD_DESC(u8, "mipmapped arrays only");
  d.min_mip_level = 1.0f;
  d.max_mip_level = 2.0f;
  BAD_DESC(u8, "mipmapped arrays only");
  /* and wrong ones on a mipmapped array */
  d.max_mip_level = 4.0f;
  BAD_DESC(mip, "inside [0, 3]");
  d.min_mip_level = 2.0f;
  d.max_mip_level = 1.0f;
  BAD_DESC(mip, "reversed");
  d.min_mip_level = -1.0f;
  d.max_mip_level = 1.0f;
  BAD_DESC(mip, "inside");
  d.mipmap_filter = JET_FILTER_LINEAR;
  BAD_DESC(mip, "mipmap_filter JET_FILTER_LINEAR needs a float result");
  d.seamless_cubemap = 1;
  BAD_DESC(u8, "seamless_cubemap needs a cubemap");
#undef BAD_DESC

  /* a reference held, destroy refused; the users count is what the texture adds */
  CHECK(atomic_load(&u8->users) == 0);
  struct jet_array_s *all[] = {u8, u32, f32, s16, mip, cube};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) fake_array_free(all[i]);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

TEST(texture_linear_pitch_image_rules) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  struct jet_buffer_s dev, pinned;
  CHECK(fake_buf(&dev, &c, JET_MEMORY_DEVICE, 64 * 1024, 1024));
  CHECK(fake_buf(&pinned, &c, JET_MEMORY_HOST_PINNED, 4096, 4096));
  jet_texel_format f4 = {JET_CHANNEL_F32, 4}, u8 = {JET_CHANNEL_U8, 1};
  jet_texture_desc d = tdesc();
  jet_texture out = (jet_texture)BAD;

  /* linear */
  CHECK_ST(jet_texture_create_linear(&dev, 0, 16, f4, NULL, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_ST(jet_texture_create_linear(&dev, 0, 0, f4, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("count is 0"));
  CHECK_ST(jet_texture_create_linear(&dev, 0, 16, (jet_texel_format){JET_CHANNEL_F32, 3}, &d,
                                     &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_texture_create_linear(NULL, 0, 16, f4, &d, &out), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_texture_create_linear(&dev, 512, 4096, f4, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("exceed the buffer's 65536 bytes"));
  CHECK_ST(jet_texture_create_linear(&dev, SIZE_MAX - 8, 4, f4, &d, &out), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_texture_create_linear(&dev, 0, SIZE_MAX / 8, f4, &d, &out), JET_STATUS_OVERFLOW);
  CHECK_ST(jet_texture_create_linear(&pinned, 0, 16, f4, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("no device pointer"));
  d.filter = JET_FILTER_LINEAR;
  CHECK_ST(jet_texture_create_linear(&dev, 0, 16, f4, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("not filtered"));
  d = tdesc();
  d.normalized_coords = 1;
  CHECK_ST(jet_texture_create_linear(&dev, 0, 16, f4, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("integer indices"));
  d = tdesc();
  d.address[0] = JET_ADDRESS_BORDER;
  CHECK_ST(jet_texture_create_linear(&dev, 0, 16, f4, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("no address modes"));
  d = tdesc();
  d.max_anisotropy = 4;
  CHECK_ST(jet_texture_create_linear(&dev, 0, 16, f4, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("arrays only"));
  d = tdesc();
  d.max_mip_level = 1.0f;
  CHECK_ST(jet_texture_create_linear(&dev, 0, 16, f4, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("mipmapped arrays only"));

  /* pitch 2D */
  d = tdesc();
  CHECK_ST(jet_texture_create_pitch2d(&dev, 0, 0, 4, 0, u8, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_texture_create_pitch2d(&dev, 0, 1025, 4, 0, u8, &d, &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("pitch 1024 is below the row bytes 1025"));
  CHECK_ST(jet_texture_create_pitch2d(&dev, 0, 256, 4, 0, f4, &d, &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("below the row bytes 4096"));
  CHECK_ST(jet_texture_create_pitch2d(&dev, 0, 100, 65, 0, u8, &d, &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("exceed the buffer's"));
  CHECK_ST(jet_texture_create_pitch2d(&dev, 1024, 100, 64, 0, u8, &d, &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_texture_create_pitch2d(&dev, 0, 100, SIZE_MAX / 512, 0, u8, &d, &out),
           JET_STATUS_OVERFLOW);
  CHECK_ST(jet_texture_create_pitch2d(&pinned, 0, 100, 2, 0, u8, &d, &out),
           JET_STATUS_INVALID_ARGUMENT);
  d.address[1] = JET_ADDRESS_WRAP;
  CHECK_ST(jet_texture_create_pitch2d(&dev, 0, 100, 2, 0, u8, &d, &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("normalized_coords"));
  d = tdesc();
  d.seamless_cubemap = 1;
  CHECK_ST(jet_texture_create_pitch2d(&dev, 0, 100, 2, 0, u8, &d, &out),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("pitch-2D memory"));

  /* image planes */
  struct jet_image_s *rgb = fake_image(&c, JET_FORMAT_RGB8, 6, 4);
  struct jet_image_s *nv12 = fake_image(&c, JET_FORMAT_NV12, 6, 4);
  CHECK(rgb && nv12);
  d = tdesc();
  CHECK_ST(jet_texture_create_image(rgb, 0, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("RGB8 has 3 interleaved channels"));
  CHECK_ST(jet_image_texture(rgb, 0, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_texture_create_image(nv12, 2, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("plane 2 of a NV12 image"));
  CHECK_ST(jet_texture_create_image(nv12, -1, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_texture_create_image(NULL, 0, &d, &out), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_texture_create_image((jet_image)&dev, 0, &d, &out), JET_STATUS_INVALID_HANDLE);
  d.filter = JET_FILTER_LINEAR; /* U8 in element mode */
  CHECK_ST(jet_texture_create_image(nv12, 1, &d, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("U8 x 2"));
  CHECK_ST(jet_image_texture(nv12, 5, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(out == NULL);
  fake_image_free(rgb);
  fake_image_free(nv12);
  jet__handle_unregister(&dev.h);
  jet__handle_unregister(&pinned.h);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

TEST(texture_surface_rules) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  struct jet_array_s *plain = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_U8, 4, 9, 7, 0, 0, 0, 0);
  struct jet_array_s *surf =
      fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_U8, 4, 9, 7, 0, 0, 0, JET_ARRAY_SURFACE);
  CHECK(plain && surf);
  jet_surface out = (jet_surface)BAD;
  CHECK_ST(jet_surface_create(surf, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_surface_create(NULL, 0, &out), JET_STATUS_INVALID_HANDLE);
  CHECK(out == NULL);
  CHECK_ST(jet_surface_create(plain, 0, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("JET_ARRAY_SURFACE"));
  CHECK_ST(jet_surface_create(surf, 1, &out), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("level 1 of an array with 1 level(s)"));
  CHECK(atomic_load(&surf->users) == 0);
  fake_array_free(plain);
  fake_array_free(surf);
  jt_fake_context_done(&c);
  return 0;
}

/* ------------------------------------------------------------ copies */

TEST(texture_copy_region_rules) {
  struct jet_context_s c, c2;
  CHECK(jt_fake_context(&c, NULL));
  CHECK(jt_fake_context(&c2, NULL));
  struct jet_array_s *a2 = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_U8, 4, 9, 7, 0, 0, 3, 0);
  struct jet_array_s *a3 = fake_array(&c, JET_ARRAY_3D, JET_CHANNEL_F32, 1, 5, 4, 3, 0, 0, 0);
  struct jet_array_s *lay = fake_array(&c, JET_ARRAY_2D_LAYERED, JET_CHANNEL_U16, 4, 5, 4, 0, 6, 0, 0);
  struct jet_array_s *other = fake_array(&c2, JET_ARRAY_2D, JET_CHANNEL_U8, 4, 9, 7, 0, 0, 0, 0);
  struct jet_buffer_s buf;
  CHECK(fake_buf(&buf, &c, JET_MEMORY_DEVICE, 1000, 100));
  struct jet_image_s *gray = fake_image(&c, JET_FORMAT_GRAY8, 8, 6);
  struct jet_image_s *rgba = fake_image(&c, JET_FORMAT_RGBA8, 8, 6);
  CHECK(a2 && a3 && lay && other && gray && rgba);
  char host[16];
  jet_copy_end A = {0}, H = {0};
  A.kind = JET_COPY_END_ARRAY;
  A.array = a2;
  H.kind = JET_COPY_END_HOST;
  H.host = host;

  CHECK_ST(jet_array_copy(NULL, &H, 1, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_array_copy(&A, NULL, 1, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_array_copy(&A, &H, 0, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("width is 0"));
  jet_copy_end H2 = H;
  CHECK_ST(jet_array_copy(&H2, &H, 4, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("neither end is an array"));
  H2.kind = (jet_copy_end_kind)9;
  CHECK_ST(jet_array_copy(&A, &H2, 4, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("src end: unknown kind 9"));
  /* boxes against the level */
  CHECK_ST(jet_array_copy(&A, &H, 10, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("exceeds level 0 of the array, 9 x 7 x 1 (x)"));
  A.y = 6;
  CHECK_ST(jet_array_copy(&A, &H, 1, 2, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("(y)"));
  A.y = 0;
  CHECK_ST(jet_array_copy(&A, &H, 1, 1, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("z/layer"));
  A.level = 1; /* 4 x 3 */
  CHECK_ST(jet_array_copy(&A, &H, 5, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("level 1 of the array, 4 x 3 x 1"));
  A.level = 3;
  CHECK_ST(jet_array_copy(&A, &H, 1, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("level 3 of an array with 3 level(s)"));
  A.level = 0;
  A.x = SIZE_MAX;
  CHECK_ST(jet_array_copy(&A, &H, 2, 1, 1), JET_STATUS_OVERFLOW);
  A.x = 0;
  /* layers */
  jet_copy_end L = {0};
  L.kind = JET_COPY_END_ARRAY;
  L.array = lay;
  L.z = 4;
  CHECK_ST(jet_array_copy(&H, &L, 5, 4, 3), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("src end: box (0, 0, 4) + 5 x 4 x 3 exceeds level 0 of the array, 5 x 4 x 6"));
  /* linear ends: pitch, rows, range */
  L.z = 0;
  H.pitch = 39; /* rows of 5 texels of 8 bytes: 40 */
  CHECK_ST(jet_array_copy(&H, &L, 5, 4, 3), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("dst end: pitch 39 is below the copy's row bytes 40"));
  H.pitch = 0;
  H.rows = 3;
  CHECK_ST(jet_array_copy(&H, &L, 5, 4, 3), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("rows per slice 3 is below the copy's height 4"));
  H.rows = SIZE_MAX;
  CHECK_ST(jet_array_copy(&H, &L, 5, 4, 3), JET_STATUS_OVERFLOW);
  H.rows = 0;
  H.host = NULL;
  CHECK_ST(jet_array_copy(&H, &L, 5, 4, 3), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("host is NULL"));
  H.host = host;
  jet_copy_end B = {0};
  B.kind = JET_COPY_END_BUFFER;
  B.buffer = &buf;
  B.pitch = 100;
  /* span of 5 x 4 x 3 F32 rows at pitch 100: 100 * (4 * 2 + 3) + 20 = 1120 > 1000 */
  jet_copy_end A3 = {0};
  A3.kind = JET_COPY_END_ARRAY;
  A3.array = a3;
  CHECK_ST(jet_array_copy(&A3, &B, 5, 4, 3), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("src end: bytes [0, 0 + 1120) exceed the buffer's 1000 bytes"));
  B.offset = 990;
  CHECK_ST(jet_array_copy(&A3, &B, 5, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("exceed the buffer's"));
  B.offset = 0;
  B.buffer = (jet_buffer)a3;
  CHECK_ST(jet_array_copy(&A3, &B, 5, 1, 1), JET_STATUS_INVALID_HANDLE);
  B.buffer = &buf;
  /* texel size mismatch between arrays, and with an image plane */
  CHECK_ST(jet_array_copy(&A3, &L, 1, 1, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("dst array has 4-byte texels, src array 8-byte ones"));
  jet_copy_end A8 = A;
  A8.array = a3;
  jet_copy_end I = {0};
  I.kind = JET_COPY_END_IMAGE;
  I.image = gray;
  CHECK_ST(jet_array_copy(&A8, &I, 2, 2, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("1-byte pixels, the array 4-byte texels"));
  I.image = rgba;
  I.x = 7;
  CHECK_ST(jet_array_copy(&A, &I, 2, 2, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("exceeds plane 0, 8 x 6"));
  I.x = 0;
  I.z = 1;
  CHECK_ST(jet_array_copy(&A, &I, 2, 2, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has("one slice"));
  I.z = 0;
  I.plane = 1;
  CHECK_ST(jet_array_copy(&A, &I, 2, 2, 1), JET_STATUS_INVALID_ARGUMENT);
  I.plane = 0;
  /* contexts */
  jet_copy_end O = A;
  O.array = other;
  CHECK_ST(jet_array_copy(&O, &A, 2, 2, 1), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_array_copy(&O, &I, 2, 2, 1), JET_STATUS_WRONG_CONTEXT);
  /* a valid copy stops before CUDA where cudaMemcpyDefault cannot work */
  c.info.unified_addressing = 0;
  CHECK_ST(jet_array_copy(&A, &H, 2, 2, 1), JET_STATUS_UNSUPPORTED);
  CHECK(has("unified addressing"));
  CHECK_ST(jet_array_upload(a2, 1, host), JET_STATUS_UNSUPPORTED);
  c.info.unified_addressing = 1;
  /* whole-level helpers */
  CHECK_ST(jet_array_upload(a2, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_array_download(a2, 3, host), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_array_upload(NULL, 0, host), JET_STATUS_INVALID_HANDLE);
  /* a stream of another kind of handle */
  CHECK_ST(jet_array_copy_async(&A, &H, 2, 2, 1, (jet_stream)a2), JET_STATUS_INVALID_HANDLE);

  struct jet_array_s *all[] = {a2, a3, lay, other};
  for (size_t i = 0; i < 4; i++) fake_array_free(all[i]);
  fake_image_free(gray);
  fake_image_free(rgba);
  jet__handle_unregister(&buf.h);
  jt_fake_context_done(&c);
  jt_fake_context_done(&c2);
  return 0;
}

/* ------------------------------------------------------------ the CPU model of the GPU tests */

#include "../ref/ref_texture.h"

/* The model's index addressing against the PG's coordinate formulas for point
 * sampling with normalised coordinates: wrap reads floor(frac(x) * N); mirror
 * reads floor(m * N) with m = frac(x) for even floor(x), 1 - frac(x) for odd;
 * clamp reads floor(min(max(x, 0), 1 - 1/N) * N). Coordinates stay 0.1 texel
 * away from texel edges, as in the GPU tests. */
TEST(texture_ref_address_matches_pg_formulas) {
  for (int it = 0; it < 20000; it++) {
    long n = 1 + (long)(jt_rand() % 40);
    double u = (double)((long)(jt_rand() % (uint32_t)(6 * n)) - 3 * n) +
               0.1 + 0.8 * (double)(jt_rand() % 1000) / 1000.0;
    double x = u / (double)n, fl = floor(x), fr = x - fl;
    long i = (long)floor(u);
    long wrap = (long)floor(fr * (double)n);
    long mirror = (long)floor(((long)fl % 2 == 0 ? fr : 1.0 - fr) * (double)n);
    double xc = x < 0 ? 0 : (x > 1.0 - 1.0 / (double)n ? 1.0 - 1.0 / (double)n : x);
    long clamp = (long)floor(xc * (double)n);
    CHECK_MSG(ref_tex_address(JET_ADDRESS_WRAP, i, n) == wrap, "wrap n %ld u %.3f", n, u);
    CHECK_MSG(ref_tex_address(JET_ADDRESS_MIRROR, i, n) == mirror, "mirror n %ld u %.3f: %ld vs %ld",
              n, u, ref_tex_address(JET_ADDRESS_MIRROR, i, n), mirror);
    CHECK_MSG(ref_tex_address(JET_ADDRESS_CLAMP, i, n) == clamp, "clamp n %ld u %.3f", n, u);
    CHECK(ref_tex_address(JET_ADDRESS_BORDER, i, n) == (i < 0 || i >= n ? -1 : i));
  }
  return 0;
}

TEST(texture_ref_linear_weights) {
  float t[2 * 4] = {10, -4, 0, 1, 30, 4, 256, 2};
  ref_tex_model m = {{2, 1, 1}, t, {JET_ADDRESS_CLAMP, 0, 0}, {7, 7, 7, 7}, 1, 0, 0.0};
  float c[4] = {0}, out[4], tol[4];
  /* x = 1.0: xB = 0.5, halfway */
  c[0] = 1.0f;
  ref_tex_fetch(&m, 1, c, out, tol);
  CHECK(out[0] == 20.0f && out[1] == 0.0f && out[2] == 128.0f && out[3] == 1.5f);
  CHECK(fabsf(tol[0] - 20.0f / 256.0f) < 1e-3f);
  /* texel centres read the texel, clamp beyond the edges */
  c[0] = 0.5f;
  ref_tex_fetch(&m, 1, c, out, tol);
  CHECK(out[0] == 10.0f);
  c[0] = 1.25f; /* xB = 0.75 */
  ref_tex_fetch(&m, 1, c, out, tol);
  CHECK(out[0] == 25.0f);
  c[0] = 9.0f;
  ref_tex_fetch(&m, 1, c, out, tol);
  CHECK(out[0] == 30.0f);
  /* x = 1.3: xB = 0.8, a weight held as 205/256 */
  c[0] = 1.3f;
  ref_tex_fetch(&m, 1, c, out, tol);
  CHECK_MSG(fabsf(out[0] - (10.0f + 20.0f * 205.0f / 256.0f)) < 1e-4f, "%g", out[0]);
  /* border: half of the edge texel, half of the border colour */
  m.am[0] = JET_ADDRESS_BORDER;
  c[0] = 0.0f;
  ref_tex_fetch(&m, 1, c, out, tol);
  CHECK(out[0] == 8.5f);
  /* point sampling, normalised: x = 0.75 of 2 texels is texel 1, exactly */
  m.linear = 0;
  m.norm = 1;
  c[0] = 0.75f;
  ref_tex_fetch(&m, 1, c, out, tol);
  CHECK(out[0] == 30.0f && tol[0] == 0.0f);
  return 0;
}

TEST(texture_ref_cube_faces_round_trip) {
  /* the six major axes */
  static const float axes[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (int f = 0; f < 6; f++) {
    int face;
    double u, v;
    ref_tex_cube_face(axes[f], &face, &u, &v);
    CHECK(face == f && u == 0.5 && v == 0.5);
  }
  /* +X: s = -z, t = -y; +Y: s = x, t = z; -Z: s = -x, t = -y */
  float d[3] = {2, -1, 1};
  int face;
  double u, v;
  ref_tex_cube_face(d, &face, &u, &v);
  CHECK(face == 0 && u == 0.25 && v == 0.75);
  float d2[3] = {0.5f, 4, -2};
  ref_tex_cube_face(d2, &face, &u, &v);
  CHECK(face == 2 && u == 0.5625 && v == 0.25);
  float d3[3] = {1, 1, -2};
  ref_tex_cube_face(d3, &face, &u, &v);
  CHECK(face == 5 && u == 0.25 && v == 0.25);
  for (int it = 0; it < 10000; it++) {
    int f = (int)(jt_rand() % 6);
    double uu = 0.02 + 0.96 * (jt_rand() % 10000) / 10000.0, vv = 0.02 + 0.96 * (jt_rand() % 10000) / 10000.0;
    float dir[3];
    ref_tex_cube_dir(f, uu, vv, 0.25 + (jt_rand() % 100) / 10.0, dir);
    ref_tex_cube_face(dir, &face, &u, &v);
    CHECK_MSG(face == f && fabs(u - uu) < 1e-5 && fabs(v - vv) < 1e-5,
              "face %d (%.4f, %.4f) -> face %d (%.4f, %.4f)", f, uu, vv, face, u, v);
  }
  return 0;
}

TEST(texture_ref_half_and_srgb) {
  CHECK(ref_tex_half_to_float(0x3c00) == 1.0f);
  CHECK(ref_tex_half_to_float(0xc000) == -2.0f);
  CHECK(ref_tex_half_to_float(0x0001) == ldexpf(1.0f, -24));
  CHECK(ref_tex_half_to_float(0x7bff) == 65504.0f);
  CHECK(ref_tex_half_to_float(0x3555) == 0.333251953125f);
  CHECK(ref_tex_srgb_to_linear(0.0f) == 0.0f);
  CHECK(fabsf(ref_tex_srgb_to_linear(1.0f) - 1.0f) < 1e-6f);
  CHECK(fabsf(ref_tex_srgb_to_linear(0.5f) - 0.21404f) < 1e-4f);
  CHECK(ref_tex_hash(1, 2, 3, 4) != ref_tex_hash(2, 1, 3, 4));
  return 0;
}

TEST(texture_cuda_desc_translation) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, NULL));
  struct jet_array_s *mip = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_F32, 4, 16, 9, 0, 0, 5, 0);
  struct jet_array_s *plain = fake_array(&c, JET_ARRAY_2D, JET_CHANNEL_F32, 4, 16, 9, 0, 0, 0, 0);
  CHECK(mip && plain);
  jet_texture_desc d;
  memset(&d, 0, sizeof d);
  struct cudaTextureDesc t = jet__texture_cuda_desc(&d, plain, 2);
  /* zero is clamp / point / element / unnormalised, anisotropy 1 */
  CHECK(t.addressMode[0] == cudaAddressModeClamp && t.addressMode[1] == cudaAddressModeClamp &&
        t.addressMode[2] == cudaAddressModeClamp);
  CHECK(t.filterMode == cudaFilterModePoint && t.readMode == cudaReadModeElementType);
  CHECK(t.normalizedCoords == 0 && t.sRGB == 0 && t.maxAnisotropy == 1);
  CHECK(t.maxMipmapLevelClamp == 0.0f && t.seamlessCubemap == 0);
  /* [0, 0] on a mipmapped array is the whole chain */
  t = jet__texture_cuda_desc(&d, mip, 2);
  CHECK(t.minMipmapLevelClamp == 0.0f && t.maxMipmapLevelClamp == 4.0f);
  d.min_mip_level = 1.0f;
  d.max_mip_level = 2.5f;
  d.mip_bias = -0.5f;
  d.mipmap_filter = JET_FILTER_LINEAR;
  t = jet__texture_cuda_desc(&d, mip, 2);
  CHECK(t.minMipmapLevelClamp == 1.0f && t.maxMipmapLevelClamp == 2.5f &&
        t.mipmapLevelBias == -0.5f && t.mipmapFilterMode == cudaFilterModeLinear);
  d.address[0] = JET_ADDRESS_WRAP;
  d.address[1] = JET_ADDRESS_MIRROR;
  d.address[2] = JET_ADDRESS_BORDER;
  d.filter = JET_FILTER_LINEAR;
  d.read_mode = JET_READ_NORMALIZED_FLOAT;
  d.normalized_coords = 7;
  d.srgb = 3;
  d.max_anisotropy = 16;
  d.seamless_cubemap = 1;
  for (int i = 0; i < 4; i++) d.border_color[i] = 0.25f * (float)i - 0.1f;
  t = jet__texture_cuda_desc(&d, NULL, 3);
  CHECK(t.addressMode[0] == cudaAddressModeWrap && t.addressMode[1] == cudaAddressModeMirror &&
        t.addressMode[2] == cudaAddressModeBorder);
  /* dimensions the memory lacks clamp (a 1D fetch samples y = 0 of a 2D view) */
  struct cudaTextureDesc t1 = jet__texture_cuda_desc(&d, NULL, 1);
  CHECK(t1.addressMode[0] == cudaAddressModeWrap && t1.addressMode[1] == cudaAddressModeClamp &&
        t1.addressMode[2] == cudaAddressModeClamp);
  t1 = jet__texture_cuda_desc(&d, NULL, 2);
  CHECK(t1.addressMode[1] == cudaAddressModeMirror && t1.addressMode[2] == cudaAddressModeClamp);
  CHECK(t.filterMode == cudaFilterModeLinear && t.readMode == cudaReadModeNormalizedFloat);
  CHECK(t.normalizedCoords == 1 && t.sRGB == 1 && t.maxAnisotropy == 16 && t.seamlessCubemap == 1);
  for (int i = 0; i < 4; i++) CHECK(t.borderColor[i] == d.border_color[i]);
  fake_array_free(mip);
  fake_array_free(plain);
  jt_fake_context_done(&c);
  return 0;
}

/*
 * jetrt/dlpack.h without a DLPack header at build time (JET_HAVE_DLPACK 0):
 * every call says so, so that a cross build without libdlpack-dev links.
 */
#if !JET_HAVE_DLPACK

#define JET_DLPACK_NO_HEADER
#include "internal.h"
#include "jetrt/dlpack.h"

static jet_status off(const char *fn) {
  return jet__error(JET_STATUS_NOT_BUILT_IN, fn,
                    "jetrt was built without a DLPack header (dlpack/dlpack.h, Debian's "
                    "libdlpack-dev): rebuild with it to exchange DLPack tensors");
}

int jet_dlpack_versioned_supported(void) { return 0; }

jet_status jet_dlpack_export_buffer(jet_buffer buf, const jet_dl_dtype *dtype,
                                    struct DLManagedTensor **out) {
  (void)buf;
  (void)dtype;
  if (out) *out = NULL;
  return off(__func__);
}

jet_status jet_dlpack_export_image(jet_image image, int plane, struct DLManagedTensor **out) {
  (void)image;
  (void)plane;
  if (out) *out = NULL;
  return off(__func__);
}

jet_status jet_dlpack_import_buffer(jet_context ctx, struct DLManagedTensor *tensor,
                                    jet_buffer *out) {
  (void)ctx;
  (void)tensor;
  if (out) *out = NULL;
  return off(__func__);
}

jet_status jet_dlpack_import_image(jet_context ctx, struct DLManagedTensor *tensor,
                                   jet_format format, jet_image *out) {
  (void)ctx;
  (void)tensor;
  (void)format;
  if (out) *out = NULL;
  return off(__func__);
}

jet_status jet_dlpack_export_buffer_versioned(jet_buffer buf, const jet_dl_dtype *dtype,
                                              struct DLManagedTensorVersioned **out) {
  (void)buf;
  (void)dtype;
  if (out) *out = NULL;
  return off(__func__);
}

jet_status jet_dlpack_export_image_versioned(jet_image image, int plane,
                                             struct DLManagedTensorVersioned **out) {
  (void)image;
  (void)plane;
  if (out) *out = NULL;
  return off(__func__);
}

jet_status jet_dlpack_import_buffer_versioned(jet_context ctx,
                                              struct DLManagedTensorVersioned *tensor,
                                              jet_buffer *out) {
  (void)ctx;
  (void)tensor;
  if (out) *out = NULL;
  return off(__func__);
}

jet_status jet_dlpack_import_image_versioned(jet_context ctx,
                                             struct DLManagedTensorVersioned *tensor,
                                             jet_format format, jet_image *out) {
  (void)ctx;
  (void)tensor;
  (void)format;
  if (out) *out = NULL;
  return off(__func__);
}

#endif /* !JET_HAVE_DLPACK */

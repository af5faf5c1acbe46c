/* jetrt's own modules: loaded once per context on first use, owned by the
 * context, released by jet_context_destroy. */
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/module/module_int.h"

TEST(gpu_builtin_module_loads_once_per_context) {
  REQUIRE_GPU();
  jet_context a, b;
  CHECK_OK(jt_context(&a, 0));
  CHECK_OK(jt_context(&b, 0));
  jet_kernel k1, k2, kb, ke;
  CHECK_OK(jet__builtin_kernel(a, &jet__images_pattern, "jet_test_pattern", &k1, "test"));
  CHECK_OK(jet__builtin_kernel(a, &jet__images_pattern, "jet_test_pattern", &k2, "test"));
  CHECK(k1 == k2);
  CHECK_OK(jet__builtin_kernel(a, &jet__images_pattern, "jet_test_empty", &ke, "test"));
  CHECK(ke != k1);
  CHECK_OK(jet__builtin_kernel(b, &jet__images_pattern, "jet_test_pattern", &kb, "test"));
  CHECK(kb != k1); /* one module per context */
  CHECK(a->builtins[0].set == &jet__images_pattern && a->builtins[1].set == NULL);
  /* the module is the context's: users cannot destroy it */
  CHECK_ST(jet_module_destroy(a->builtins[0].mod), JET_STATUS_INVALID_ARGUMENT);
  /* an unknown kernel name is a clear error that names the module */
  CHECK_ST(jet__builtin_kernel(a, &jet__images_pattern, "no_such_kernel", &k2, "test"),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(jet_last_error()->hint, "pattern") != NULL);
  /* launch through the internal path on the per-thread stream */
  jet_dim3 one = {1, 1, 1};
  CHECK_OK(jet__launch(cudaStreamPerThread, ke, one, one, 0, NULL, "test"));
  CHECK(cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess);
  /* built-in modules do not keep the context alive, and are released with it */
  CHECK_OK(jet_context_destroy(a));
  CHECK_ST(jet_launch(NULL, k1, one, one, 0, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_kernel_native(k1, &(void *){NULL}), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_context_destroy(b));
  return 0;
}

TEST(gpu_builtin_module_no_leak_over_contexts_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  size_t before = 0, after = 0;
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < 200; i++) {
      CHECK_OK(jt_context(&ctx, 0));
      jet_kernel k;
      CHECK_OK(jet__builtin_kernel(ctx, &jet__images_pattern, "jet_test_pattern", &k, "test"));
      if (i == 199) CHECK_OK(jet_context_mem_info(ctx, round ? &after : &before, NULL));
      CHECK_OK(jet_context_destroy(ctx));
    }
  }
  /* each load takes device memory for the module; 200 leaked would show */
  CHECK_MSG(after + ((size_t)8 << 20) >= before, "free memory fell from %zu to %zu", before, after);
  return 0;
}

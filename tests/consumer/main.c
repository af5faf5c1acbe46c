/*
 * Consumer check for an installed jetrt: jet-info's code path through the
 * public API only. Exit codes: 0 a context was created and reported its
 * policy; 77 no CUDA device or driver (skip); 1 failure.
 */
#include <stdio.h>

#include <jetrt.h>

int main(void) {
  if (jet_version() != JET_VERSION_NUMBER) {
    fprintf(stderr, "consumer: header %d vs library %u\n", JET_VERSION_NUMBER, jet_version());
    return 1;
  }
  printf("consumer: jetrt %s\n", jet_version_string());
  int n = 0;
  if (jet_device_count(&n) != JET_STATUS_OK) {
    fprintf(stderr, "consumer: jet_device_count: %s\n", jet_last_error_string());
    return 1;
  }
  if (n == 0) {
    printf("consumer: no CUDA device (%s): skipped\n", jet_last_error()->message);
    return 77;
  }
  jet_context ctx = NULL;
  jet_context_desc desc = {0, 0, NULL};
  if (jet_context_create(&ctx, &desc) != JET_STATUS_OK) {
    fprintf(stderr, "consumer: jet_context_create: %s\n", jet_last_error_string());
    return 1;
  }
  jet_policy p;
  jet_status st = jet_context_policy(ctx, &p);
  if (st == JET_STATUS_OK) printf("consumer: device 0 policy %s: %s\n", p.name, p.reason);
  else fprintf(stderr, "consumer: jet_context_policy: %s\n", jet_last_error_string());
  if (jet_context_destroy(ctx) != JET_STATUS_OK) st = JET_STATUS_INTERNAL;
  return st == JET_STATUS_OK ? 0 : 1;
}

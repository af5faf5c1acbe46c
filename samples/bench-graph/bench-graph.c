/*
 * jet-bench-graph: graph replay overhead per node.
 *
 * A chain of N (default 100) kernel nodes, each a near-empty kernel, built
 * twice from the same CUfunction: through jetrt (jet_graph_create,
 * jet_graph_add_kernel, jet_graph_instantiate, jet_graph_upload) and as a raw
 * CUDA graph (cudaGraphCreate, cuGraphAddKernelNode, cudaGraphInstantiate,
 * cudaGraphUpload). Each run launches one of them between two CUDA events on
 * the same stream, jetrt and raw alternating; the device time of a launch
 * divided by N is the time per node. Also timed: B launches back to back
 * between events (steady replay), and the host time of one launch call.
 * Medians over the runs. The kernels count their runs; the count is checked.
 *
 * Usage: jet-bench-graph [--runs R] [--nodes N] [--batch B]
 *        (defaults 2000, 100, 20)
 * Prints a table. Exit: 0 ok, 2 no GPU, 1 failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

#include "jetrt.h"
#include "jet-bench-graph_kernels.h" /* generated: declares jet_images_bench_graph */

typedef CUresult(CUDAAPI *add_kernel_fn)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                                         const CUDA_KERNEL_NODE_PARAMS *);

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_d);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int fail(const char *what) {
  fprintf(stderr, "jet-bench-graph: %s: %s\n", what, jet_last_error_string());
  return 1;
}

static int cuda_fail(const char *what, cudaError_t e) {
  fprintf(stderr, "jet-bench-graph: %s: %s\n", what, cudaGetErrorString(e));
  return 1;
}

#define CU(call)                                      \
  do {                                                \
    cudaError_t e_ = (call);                          \
    if (e_ != cudaSuccess) return cuda_fail(#call, e_); \
  } while (0)
#define JT(call)                                \
  do {                                          \
    if ((call) != JET_STATUS_OK) return fail(#call); \
  } while (0)

/* The raw graph: the same chain through the driver's kernel node. */
static int raw_graph(CUfunction f, unsigned **counter, int nodes, cudaGraphExec_t *out,
                     cudaGraph_t *graph) {
  void *p = NULL;
  enum cudaDriverEntryPointQueryResult q;
  CU(cudaGetDriverEntryPointByVersion("cuGraphAddKernelNode", &p, 12000, cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !p) {
    fprintf(stderr, "jet-bench-graph: the driver has no cuGraphAddKernelNode\n");
    return 1;
  }
  add_kernel_fn add;
  memcpy(&add, &p, sizeof p);
  CU(cudaGraphCreate(graph, 0));
  CUgraphNode prev = NULL;
  for (int i = 0; i < nodes; i++) {
    CUDA_KERNEL_NODE_PARAMS kp;
    memset(&kp, 0, sizeof kp);
    kp.func = f;
    kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
    kp.blockDimX = 32;
    kp.blockDimY = kp.blockDimZ = 1;
    void *args[] = {counter};
    kp.kernelParams = args;
    CUgraphNode n = NULL;
    CUresult r = add(&n, (CUgraph)*graph, prev ? &prev : NULL, prev ? 1 : 0, &kp);
    if (r != CUDA_SUCCESS) {
      fprintf(stderr, "jet-bench-graph: cuGraphAddKernelNode failed (%d)\n", (int)r);
      return 1;
    }
    prev = n;
  }
  CU(cudaGraphInstantiate(out, *graph, 0));
  return 0;
}

int main(int argc, char **argv) {
  int runs = 2000, nodes = 100, batch = 20;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--nodes") == 0 && i + 1 < argc)
      nodes = atoi(argv[++i]);
    else if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc)
      batch = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: jet-bench-graph [--runs R] [--nodes N] [--batch B]\n");
      return 1;
    }
  }
  if (runs < 10) runs = 10;
  if (nodes < 1 || nodes > 100000) nodes = 100;
  if (batch < 1) batch = 1;

  int count = 0;
  if (jet_device_count(&count) != JET_STATUS_OK || count == 0) {
    fprintf(stderr, "jet-bench-graph: no CUDA device: %s\n", jet_last_error_string());
    return 2;
  }
  jet_context ctx;
  JT(jet_context_create(&ctx, NULL));
  jet_platform_info info;
  JT(jet_context_platform(ctx, &info));
  jet_module mod;
  JT(jet_module_load(ctx, &jet_images_bench_graph, NULL, &mod));
  jet_kernel k;
  JT(jet_module_kernel(mod, "bench_touch", &k));
  void *fn = NULL;
  JT(jet_kernel_native(k, &fn));
  jet_stream s;
  JT(jet_stream_create(ctx, NULL, &s));
  void *cs = NULL;
  JT(jet_stream_native(s, &cs));
  jet_event e0, e1;
  JT(jet_event_create(ctx, JET_EVENT_TIMING, &e0));
  JT(jet_event_create(ctx, JET_EVENT_TIMING, &e1));
  unsigned *counter = NULL;
  CU(cudaMalloc((void **)&counter, sizeof *counter));
  CU(cudaMemset(counter, 0, sizeof *counter));

  /* jetrt's graph */
  jet_graph g;
  JT(jet_graph_create(ctx, &g));
  jet_graph_node prev = JET_GRAPH_NODE_NONE;
  jet_dim3 one = {1, 1, 1}, blk = {32, 1, 1};
  for (int i = 0; i < nodes; i++) {
    void *args[] = {&counter};
    jet_graph_node n;
    JT(jet_graph_add_kernel(g, i ? &prev : NULL, i ? 1 : 0, k, one, blk, 0, args, &n));
    prev = n;
  }
  jet_graph_exec x;
  JT(jet_graph_instantiate(g, &x));
  JT(jet_graph_upload(x, s));

  /* the raw one */
  cudaGraph_t rg;
  cudaGraphExec_t rx;
  if (raw_graph((CUfunction)fn, &counter, nodes, &rx, &rg)) return 1;
  CU(cudaGraphUpload(rx, (cudaStream_t)cs));
  JT(jet_stream_synchronize(s));

  double *dev_j = calloc((size_t)runs, sizeof(double)), *dev_r = calloc((size_t)runs, sizeof(double));
  double *b2b_j = calloc((size_t)runs, sizeof(double)), *b2b_r = calloc((size_t)runs, sizeof(double));
  double *host_j = calloc((size_t)runs, sizeof(double)), *host_r = calloc((size_t)runs, sizeof(double));
  if (!dev_j || !dev_r || !b2b_j || !b2b_r || !host_j || !host_r) return 1;
  const int warm = 20;
  unsigned long long launches = 0;
  for (int i = -warm; i < runs; i++) {
    for (int which = 0; which < 2; which++) {
      int jet = (which + i) % 2 == 0; /* alternate which goes first */
      float ms = 0.0f;
      /* one launch between events */
      JT(jet_event_record(e0, s));
      double t0 = now_us();
      if (jet)
        JT(jet_graph_exec_launch(x, s));
      else
        CU(cudaGraphLaunch(rx, (cudaStream_t)cs));
      double t1 = now_us();
      JT(jet_event_record(e1, s));
      JT(jet_event_synchronize(e1));
      JT(jet_event_elapsed_ms(e0, e1, &ms));
      launches++;
      if (i >= 0) {
        (jet ? dev_j : dev_r)[i] = (double)ms * 1000.0;
        (jet ? host_j : host_r)[i] = t1 - t0;
      }
      /* a batch back to back */
      JT(jet_event_record(e0, s));
      for (int b = 0; b < batch; b++) {
        if (jet)
          JT(jet_graph_exec_launch(x, s));
        else
          CU(cudaGraphLaunch(rx, (cudaStream_t)cs));
      }
      JT(jet_event_record(e1, s));
      JT(jet_event_synchronize(e1));
      JT(jet_event_elapsed_ms(e0, e1, &ms));
      launches += (unsigned long long)batch;
      if (i >= 0) (jet ? b2b_j : b2b_r)[i] = (double)ms * 1000.0 / batch;
    }
  }
  unsigned got = 0;
  CU(cudaMemcpy(&got, counter, sizeof got, cudaMemcpyDeviceToHost));
  unsigned want = (unsigned)(launches * (unsigned long long)nodes);
  if (got != want) {
    fprintf(stderr, "jet-bench-graph: the kernels ran %u times, expected %u\n", got, want);
    return 1;
  }

  double dj = median(dev_j, runs), dr = median(dev_r, runs);
  double bj = median(b2b_j, runs), br = median(b2b_r, runs);
  double hj = median(host_j, runs), hr = median(host_r, runs);
  printf("jet-bench-graph: %s (sm_%d%d), a chain of %d near-empty kernel nodes, %d runs "
         "(median), batches of %d\n",
         info.name, info.cc_major, info.cc_minor, nodes, runs, batch);
  printf("%-34s %12s %12s %8s\n", "", "jetrt", "raw CUDA", "ratio");
  printf("%-34s %12.2f %12.2f %8.3f\n", "device us per launch", dj, dr, dj / dr);
  printf("%-34s %12.3f %12.3f %8.3f\n", "device us per node", dj / nodes, dr / nodes, dj / dr);
  printf("%-34s %12.3f %12.3f %8.3f\n", "back-to-back us per node", bj / nodes, br / nodes,
         bj / br);
  printf("%-34s %12.2f %12.2f %8.3f\n", "host us per launch call", hj, hr, hj / hr);
  printf("target: <= 1.00 us per node with jetrt: %s (%.3f us)\n",
         dj / nodes <= 1.0 ? "met" : "NOT met", dj / nodes);

  free(dev_j);
  free(dev_r);
  free(b2b_j);
  free(b2b_r);
  free(host_j);
  free(host_r);
  CU(cudaGraphExecDestroy(rx));
  CU(cudaGraphDestroy(rg));
  JT(jet_graph_exec_destroy(x));
  JT(jet_graph_destroy(g));
  CU(cudaFree(counter));
  JT(jet_event_destroy(e0));
  JT(jet_event_destroy(e1));
  JT(jet_stream_destroy(s));
  JT(jet_module_destroy(mod));
  JT(jet_context_destroy(ctx));
  return 0;
}

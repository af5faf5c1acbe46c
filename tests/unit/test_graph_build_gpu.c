/* Explicit graphs on a GPU: built vs captured, per-node and whole-graph
 * updates, disabled nodes, user objects, memory and conditional nodes,
 * topology, clone, DOT, and a long update+launch loop. Kernels:
 * tests/kernels/graph_ops.cu. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"
#include "internal.h"
#include "jet-tests_kernels.h"
#include "test_stream_util.h"

#define POISON 0xA5A5A5A5u
#define BLOCK 128

typedef struct gk {
  jet_module m;
  jet_kernel axpb, add, mark, count;
} gk;

static int load_kernels(jet_context ctx, gk *k) {
  CHECK_OK(jet_module_load(ctx, &jt_images_graph_ops, NULL, &k->m));
  CHECK_OK(jet_module_kernel(k->m, "graph_axpb", &k->axpb));
  CHECK_OK(jet_module_kernel(k->m, "graph_add", &k->add));
  CHECK_OK(jet_module_kernel(k->m, "graph_mark", &k->mark));
  CHECK_OK(jet_module_kernel(k->m, "graph_count", &k->count));
  return 0;
}

static jet_dim3 grid_for(int n, unsigned block) {
  jet_dim3 g = {(unsigned)((n + (int)block - 1) / (int)block), 1, 1};
  return g;
}

static const jet_dim3 blk = {BLOCK, 1, 1};
static const jet_dim3 one = {1, 1, 1};

static void poison(unsigned *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = POISON;
}

/* Compare @n words; print the first mismatches with the seed context. */
static int same(const char *what, const unsigned *got, const unsigned *want, size_t n) {
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      if (bad < 5)
        fprintf(stderr, "%s: index %zu of %zu: expected 0x%08x, got 0x%08x\n", what, i, n,
                want[i], got[i]);
      bad++;
    }
  if (bad) fprintf(stderr, "%s: %d of %zu words differ\n", what, bad, n);
  return bad == 0;
}

/* A word of device memory (0xDEADBEEF when the copy fails, printed). */
static unsigned read_word(const unsigned *dev) {
  unsigned v = 0xDEADBEEFu;
  cudaError_t e = cudaMemcpy(&v, dev, 4, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) fprintf(stderr, "cudaMemcpy: %s\n", cudaGetErrorString(e));
  return v;
}

static int has_detail_node(const char *m) { return m && strstr(m, "node 2") != NULL; }

static void count_host(void *user) { atomic_fetch_add((atomic_int *)user, 1); }

static int wait_flag(atomic_int *v, int want, double seconds) {
  double end = jts_now() + seconds;
  while (atomic_load(v) != want && jts_now() < end) jts_sleep_us(1000);
  return atomic_load(v) == want;
}

/* ------------------------------------------------------------ built vs captured */

typedef struct pipeline {
  int n;
  unsigned a, b, v; /* v: the byte of the memset */
  unsigned *in, *in2, *out;  /* pinned host */
  unsigned *dx, *dy, *dz;    /* device */
} pipeline;

/* out = a * (vvvv + in) + b + in2, in nine nodes with parallel branches. */
static int build_pipe(jet_graph g, gk *k, pipeline *p, jet_event ev, atomic_int *calls) {
  size_t bytes = (size_t)p->n * 4;
  jet_graph_node c1, c2, ms, add1, ax, add2, down, host, rec;
  CHECK_OK(jet_graph_add_memcpy(g, NULL, 0, p->dx, p->in, bytes, &c1));
  CHECK_OK(jet_graph_add_memcpy(g, NULL, 0, p->dz, p->in2, bytes, &c2));
  jet_graph_memset m = {p->dy, 0, p->v, 1, bytes, 1};
  CHECK_OK(jet_graph_add_memset(g, NULL, 0, &m, &ms));
  jet_graph_node d14[2] = {c1, ms};
  void *args_add1[] = {&p->dy, &p->dx, &p->n};
  CHECK_OK(jet_graph_add_kernel(g, d14, 2, k->add, grid_for(p->n, BLOCK), blk, 0, args_add1,
                                &add1));
  void *args_ax[] = {&p->dx, &p->dy, &p->a, &p->b, &p->n};
  CHECK_OK(jet_graph_add_kernel(g, &add1, 1, k->axpb, grid_for(p->n, BLOCK), blk, 0, args_ax,
                                &ax));
  jet_graph_node d6[2] = {ax, c2};
  void *args_add2[] = {&p->dx, &p->dz, &p->n};
  CHECK_OK(jet_graph_add_kernel(g, d6, 2, k->add, grid_for(p->n, BLOCK), blk, 0, args_add2,
                                &add2));
  CHECK_OK(jet_graph_add_memcpy(g, &add2, 1, p->out, p->dx, bytes, &down));
  CHECK_OK(jet_graph_add_host(g, &down, 1, count_host, calls, &host));
  CHECK_OK(jet_graph_add_event_record(g, &host, 1, ev, &rec));
  CHECK(c1 == 0 && rec == 8);
  return 0;
}

/* The same work captured (an event recorded during capture is a capture-internal
 * dependency, not an event node: the captured graph has eight nodes). */
static int capture_pipe(jet_stream s, gk *k, pipeline *p, atomic_int *calls, jet_graph *g) {
  size_t bytes = (size_t)p->n * 4;
  CHECK_OK(jet_stream_begin_capture(s, JET_CAPTURE_THREAD_LOCAL));
  CHECK_OK(jet_memcpy_async(s, p->dx, p->in, bytes));
  CHECK_OK(jet_memcpy_async(s, p->dz, p->in2, bytes));
  CHECK_OK(jet_memset_async(s, p->dy, (int)p->v, bytes));
  void *args_add1[] = {&p->dy, &p->dx, &p->n};
  CHECK_OK(jet_launch(s, k->add, grid_for(p->n, BLOCK), blk, 0, args_add1));
  void *args_ax[] = {&p->dx, &p->dy, &p->a, &p->b, &p->n};
  CHECK_OK(jet_launch(s, k->axpb, grid_for(p->n, BLOCK), blk, 0, args_ax));
  void *args_add2[] = {&p->dx, &p->dz, &p->n};
  CHECK_OK(jet_launch(s, k->add, grid_for(p->n, BLOCK), blk, 0, args_add2));
  CHECK_OK(jet_memcpy_async(s, p->out, p->dx, bytes));
  CHECK_OK(jet_stream_add_callback(s, count_host, calls));
  CHECK_OK(jet_stream_end_capture(s, g));
  return 0;
}

TEST(gpu_graph_build_explicit_matches_capture) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  jet_event ev;
  CHECK_OK(jet_event_create(ctx, 0, &ev));
  static const int sizes[] = {1, 6, 100003};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    pipeline p;
    memset(&p, 0, sizeof p);
    p.n = sizes[si];
    size_t bytes = (size_t)p.n * 4;
    CHECK(cudaMallocHost((void **)&p.in, bytes) == cudaSuccess);
    CHECK(cudaMallocHost((void **)&p.in2, bytes) == cudaSuccess);
    CHECK(cudaMallocHost((void **)&p.out, bytes) == cudaSuccess);
    CHECK(cudaMalloc((void **)&p.dx, bytes) == cudaSuccess);
    CHECK(cudaMalloc((void **)&p.dy, bytes) == cudaSuccess);
    CHECK(cudaMalloc((void **)&p.dz, bytes) == cudaSuccess);
    unsigned *want = malloc(bytes), *got_built = malloc(bytes);
    CHECK(want && got_built);
    jt_fill_random(p.in, bytes);
    jt_fill_random(p.in2, bytes);
    p.a = jt_rand() | 1u;
    p.b = jt_rand();
    p.v = 1 + jt_rand() % 255;
    unsigned vvvv = p.v * 0x01010101u;
    for (int i = 0; i < p.n; i++) want[i] = p.a * (vvvv + p.in[i]) + p.b + p.in2[i];

    atomic_int calls;
    atomic_init(&calls, 0);
    jet_graph gb, gc;
    CHECK_OK(jet_graph_create(ctx, &gb));
    if (build_pipe(gb, &k, &p, ev, &calls)) return 1;
    size_t cnt = 0;
    CHECK_OK(jet_graph_node_count(gb, &cnt));
    CHECK(cnt == 9);
    jet_graph_node roots[4];
    CHECK_OK(jet_graph_root_nodes(gb, roots, 4, &cnt));
    CHECK_MSG(cnt == 3 && roots[0] + roots[1] + roots[2] == 0 + 1 + 2, "%zu roots", cnt);
    jet_graph_exec xb, xc;
    CHECK_OK(jet_graph_instantiate(gb, &xb));
    poison(p.out, (size_t)p.n);
    CHECK_OK(jet_graph_exec_launch(xb, s));
    CHECK_OK(jet_stream_synchronize(s));
    CHECK_OK(jet_event_query(ev));
    CHECK(atomic_load(&calls) == 1);
    memcpy(got_built, p.out, bytes);
    if (!same("explicitly built graph", got_built, want, (size_t)p.n)) {
      fprintf(stderr, "n %d, a 0x%x, b 0x%x, memset byte 0x%x\n", p.n, p.a, p.b, p.v);
      return 1;
    }

    if (capture_pipe(s, &k, &p, &calls, &gc)) return 1;
    CHECK_OK(jet_graph_instantiate(gc, &xc));
    poison(p.out, (size_t)p.n);
    CHECK_OK(jet_graph_exec_launch(xc, s));
    CHECK_OK(jet_stream_synchronize(s));
    CHECK(atomic_load(&calls) == 2);
    if (!same("captured graph vs explicit", p.out, got_built, (size_t)p.n)) return 1;
    CHECK_OK(jet_graph_node_count(gc, &cnt));
    CHECK_MSG(cnt == 8, "captured graph has %zu nodes, expected 8", cnt);

    CHECK_OK(jet_graph_exec_destroy(xb));
    CHECK_OK(jet_graph_exec_destroy(xc));
    CHECK_OK(jet_graph_destroy(gb));
    CHECK_OK(jet_graph_destroy(gc));
    free(want);
    free(got_built);
    CHECK(cudaFreeHost(p.in) == cudaSuccess && cudaFreeHost(p.in2) == cudaSuccess);
    CHECK(cudaFreeHost(p.out) == cudaSuccess);
    CHECK(cudaFree(p.dx) == cudaSuccess && cudaFree(p.dy) == cudaSuccess);
    CHECK(cudaFree(p.dz) == cudaSuccess);
  }
  CHECK_OK(jet_event_destroy(ev));
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ per-node updates */

typedef struct upd {
  int n;
  unsigned *in, *in2, *out, *out2; /* pinned */
  unsigned *dx, *dy, *dz;
  jet_graph_node up, fill, ax, add, down;
} upd;

static int upd_alloc(upd *u, int n) {
  memset(u, 0, sizeof *u);
  u->n = n;
  size_t bytes = (size_t)n * 4;
  CHECK(cudaMallocHost((void **)&u->in, bytes) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&u->in2, bytes) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&u->out, bytes) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&u->out2, bytes) == cudaSuccess);
  CHECK(cudaMalloc((void **)&u->dx, bytes) == cudaSuccess);
  CHECK(cudaMalloc((void **)&u->dy, bytes) == cudaSuccess);
  CHECK(cudaMalloc((void **)&u->dz, bytes) == cudaSuccess);
  return 0;
}

static int upd_free(upd *u) {
  CHECK(cudaFreeHost(u->in) == cudaSuccess && cudaFreeHost(u->in2) == cudaSuccess);
  CHECK(cudaFreeHost(u->out) == cudaSuccess && cudaFreeHost(u->out2) == cudaSuccess);
  CHECK(cudaFree(u->dx) == cudaSuccess && cudaFree(u->dy) == cudaSuccess);
  CHECK(cudaFree(u->dz) == cudaSuccess);
  return 0;
}

/* out = a * in + b + v (v a 32-bit memset of dy). */
static int upd_build(jet_graph g, gk *k, upd *u, unsigned a, unsigned b, unsigned v) {
  size_t bytes = (size_t)u->n * 4;
  CHECK_OK(jet_graph_add_memcpy(g, NULL, 0, u->dx, u->in, bytes, &u->up));
  jet_graph_memset m = {u->dy, 0, v, 4, (size_t)u->n, 1};
  CHECK_OK(jet_graph_add_memset(g, NULL, 0, &m, &u->fill));
  void *args_ax[] = {&u->dz, &u->dx, &a, &b, &u->n};
  CHECK_OK(jet_graph_add_kernel(g, &u->up, 1, k->axpb, grid_for(u->n, BLOCK), blk, 0, args_ax,
                                &u->ax));
  jet_graph_node d[2] = {u->fill, u->ax};
  void *args_add[] = {&u->dz, &u->dy, &u->n};
  CHECK_OK(jet_graph_add_kernel(g, d, 2, k->add, grid_for(u->n, BLOCK), blk, 0, args_add,
                                &u->add));
  CHECK_OK(jet_graph_add_memcpy(g, &u->add, 1, u->out, u->dz, bytes, &u->down));
  return 0;
}

TEST(gpu_graph_build_per_node_updates) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  upd u;
  if (upd_alloc(&u, 4099)) return 1;
  size_t n = (size_t)u.n;
  unsigned *want = malloc(n * 4);
  CHECK(want);
  jt_fill_random(u.in, n * 4);
  jt_fill_random(u.in2, n * 4);
  unsigned a = jt_rand(), b = jt_rand(), v = jt_rand();
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  if (upd_build(g, &k, &u, a, b, v)) return 1;
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g, &x));
  CHECK_OK(jet_graph_destroy(g)); /* per-node updates still work: x keeps what it needs */
  poison(u.out, n);
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  for (size_t i = 0; i < n; i++) want[i] = a * u.in[i] + b + v;
  if (!same("before updates", u.out, want, n)) return 1;

  /* new kernel arguments and grid, memset value, copy addresses (CUDA takes
   * these; a memset's shape and a copy's dimensions stay) */
  unsigned a2 = jt_rand(), b2 = jt_rand(), v2 = jt_rand();
  void *args_ax[] = {&u.dz, &u.dx, &a2, &b2, &u.n};
  jet_dim3 blk64 = {64, 1, 1};
  CHECK_OK(jet_graph_exec_set_kernel(x, u.ax, grid_for(u.n, 64), blk64, 0, args_ax));
  jet_graph_memset m = {u.dy, 0, v2, 4, n, 1};
  CHECK_OK(jet_graph_exec_set_memset(x, u.fill, &m));
  CHECK_OK(jet_graph_exec_set_memcpy(x, u.up, u.dx, u.in2, n * 4));
  CHECK_OK(jet_graph_exec_set_memcpy(x, u.down, u.out2, u.dz, n * 4));
  /* wrong node types are refused */
  CHECK_ST(jet_graph_exec_set_memset(x, u.ax, &m), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_kernel(x, u.up, one, one, 0, args_ax), JET_STATUS_INVALID_ARGUMENT);
  poison(u.out, n);
  poison(u.out2, n);
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  for (size_t i = 0; i < n; i++) want[i] = a2 * u.in2[i] + b2 + v2;
  if (!same("after per-node updates", u.out2, want, n)) {
    fprintf(stderr, "a2 0x%x b2 0x%x v2 0x%x\n", a2, b2, v2);
    return 1;
  }
  for (size_t i = 0; i < n; i++)
    CHECK_MSG(u.out[i] == POISON, "old destination written at %zu: 0x%08x", i, u.out[i]);

  CHECK_OK(jet_graph_exec_destroy(x));
  free(want);
  if (upd_free(&u)) return 1;
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ memset element sizes, 2D */

TEST(gpu_graph_build_memset_sizes_2d) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  /* rows of 37 elements in a pitch of 256 bytes, 5 rows, from byte offset 8 */
  const size_t pitch = 256, rows = 5, cols = 37, total = pitch * (rows + 1);
  unsigned char *dev, *init, *got, *want;
  CHECK(cudaMalloc((void **)&dev, total) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&init, total) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&got, total) == cudaSuccess);
  want = malloc(total);
  CHECK(want);
  static const unsigned sizes[] = {1, 2, 4};
  for (size_t e = 0; e < 3; e++) {
    unsigned es = sizes[e];
    unsigned v = es == 4 ? jt_rand() : jt_rand() & ((1u << (8 * es)) - 1u);
    jt_fill_random(init, total);
    memset(got, 0xA5, total);
    memcpy(want, init, total);
    for (size_t r = 0; r < rows; r++)
      for (size_t c = 0; c < cols; c++)
        for (unsigned b = 0; b < es; b++)
          want[8 + r * pitch + c * es + b] = (unsigned char)(v >> (8 * b));
    jet_graph g;
    CHECK_OK(jet_graph_create(ctx, &g));
    jet_graph_node up, ms, down;
    CHECK_OK(jet_graph_add_memcpy(g, NULL, 0, dev, init, total, &up));
    jet_graph_memset m = {dev + 8, pitch, v, es, cols, rows};
    CHECK_OK(jet_graph_add_memset(g, &up, 1, &m, &ms));
    CHECK_OK(jet_graph_add_memcpy_2d(g, &ms, 1, got, pitch, dev, pitch, pitch, rows + 1, &down));
    jet_graph_exec x;
    CHECK_OK(jet_graph_instantiate(g, &x));
    CHECK_OK(jet_graph_exec_launch(x, s));
    CHECK_OK(jet_stream_synchronize(s));
    for (size_t i = 0; i < total; i++)
      CHECK_MSG(got[i] == want[i], "element size %u, value 0x%x: byte %zu (row %zu, col byte %zu): "
                "expected 0x%02x, got 0x%02x", es, v, i, i / pitch, i % pitch, want[i], got[i]);
    CHECK_OK(jet_graph_exec_destroy(x));
    CHECK_OK(jet_graph_destroy(g));
  }
  free(want);
  CHECK(cudaFree(dev) == cudaSuccess);
  CHECK(cudaFreeHost(init) == cudaSuccess && cudaFreeHost(got) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ whole-graph update */

/* Three mark kernels writing flags[0..2] = v[0..2]: edges 0->1 and (chain ?
 * 1->2 : 0->2); with @memset_last, node 2 is a memset of the device word
 * @scratch instead. */
static int marks(jet_context ctx, gk *k, unsigned *flags, unsigned *scratch, const unsigned v[3],
                 int chain, int memset_last, jet_graph *out) {
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  jet_graph_node n0, n1, n2;
  unsigned *f0 = flags, *f1 = flags + 1, *f2 = flags + 2;
  void *a0[] = {&f0, (void *)&v[0]};
  void *a1[] = {&f1, (void *)&v[1]};
  void *a2[] = {&f2, (void *)&v[2]};
  CHECK_OK(jet_graph_add_kernel(g, NULL, 0, k->mark, one, one, 0, a0, &n0));
  CHECK_OK(jet_graph_add_kernel(g, &n0, 1, k->mark, one, one, 0, a1, &n1));
  jet_graph_node dep = chain ? n1 : n0;
  if (memset_last) {
    jet_graph_memset m = {scratch, 0, v[2], 4, 1, 1};
    CHECK_OK(jet_graph_add_memset(g, &dep, 1, &m, &n2));
  } else {
    CHECK_OK(jet_graph_add_kernel(g, &dep, 1, k->mark, one, one, 0, a2, &n2));
  }
  CHECK(n2 == 2);
  *out = g;
  return 0;
}

TEST(gpu_graph_build_whole_update_reports_node) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  unsigned *flags;
  CHECK(cudaMallocHost((void **)&flags, 16) == cudaSuccess); /* kernels write it through UVA */
  unsigned v1[3] = {jt_rand(), jt_rand(), jt_rand()}, v2[3] = {jt_rand(), jt_rand(), jt_rand()};
  unsigned *scratch;
  CHECK(cudaMalloc((void **)&scratch, 4) == cudaSuccess);
  jet_graph g1, g2, g3, g4;
  if (marks(ctx, &k, flags, scratch, v1, 0, 0, &g1) ||
      marks(ctx, &k, flags, scratch, v2, 0, 0, &g2) ||
      marks(ctx, &k, flags, scratch, v1, 1, 0, &g3) ||
      marks(ctx, &k, flags, scratch, v1, 0, 1, &g4))
    return 1;
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g1, &x));
  jet_graph_update_info info;
  CHECK_ST(jet_graph_exec_update_info(x, g2, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_exec_update_info(x, g2, &info));
  CHECK(info.result == JET_GRAPH_UPDATE_SUCCESS && info.error_node == JET_GRAPH_NODE_NONE);
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  for (int i = 0; i < 3; i++)
    CHECK_MSG(flags[i] == v2[i], "flag %d: expected 0x%x, got 0x%x", i, v2[i], flags[i]);

  /* other edges: node 2 depends on node 1 instead of node 0 */
  CHECK_ST(jet_graph_exec_update_info(x, g3, &info), JET_STATUS_GRAPH_UPDATE_FAILED);
  fprintf(stderr, "topology change: result %d, node %d, from %d; detail: %s\n", (int)info.result,
          (int)info.error_node, (int)info.error_from_node, jet_last_error_string());
  CHECK(info.result == JET_GRAPH_UPDATE_TOPOLOGY_CHANGED);
  /* CUDA 13 on an H100 names no node for a topology change; where a driver
   * does, it must be one of the two ends of the changed edge. */
  CHECK_MSG(info.error_node == JET_GRAPH_NODE_NONE || info.error_node == 2 ||
                info.error_node == 1,
            "the failing node should be the one whose dependencies changed (2), got %d",
            (int)info.error_node);
  /* a node of another type */
  CHECK_ST(jet_graph_exec_update_info(x, g4, &info), JET_STATUS_GRAPH_UPDATE_FAILED);
  fprintf(stderr, "type change: result %d, node %d; detail: %s\n", (int)info.result,
          (int)info.error_node, jet_last_error_string());
  CHECK(info.result == JET_GRAPH_UPDATE_NODE_TYPE_CHANGED);
  CHECK_MSG(info.error_node == 2, "failing node %d, expected 2", (int)info.error_node);
  CHECK(has_detail_node(jet_last_error()->message));
  /* x is unchanged: it still writes v2 */
  flags[0] = flags[1] = flags[2] = POISON;
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  for (int i = 0; i < 3; i++) CHECK(flags[i] == v2[i]);

  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_destroy(g1));
  CHECK_OK(jet_graph_destroy(g2));
  CHECK_OK(jet_graph_destroy(g3));
  CHECK_OK(jet_graph_destroy(g4));
  CHECK(cudaFreeHost(flags) == cudaSuccess && cudaFree(scratch) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ disabled nodes */

TEST(gpu_graph_build_disabled_node_does_not_run) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  /* flag: pinned (a kernel stores to it); the memset and the copy write device memory */
  unsigned *h, *dev;
  CHECK(cudaMallocHost((void **)&h, 64 * 4) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dev, 32 * 4) == cudaSuccess);
  unsigned *flag = h, *src = h + 16, *back = h + 32; /* back: 20 words read from dev */
  unsigned *fill = dev, *dst = dev + 4;               /* 4 and 16 words: back[0..19] */
  unsigned v = jt_rand(), fv = jt_rand();
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  jet_graph_node nk, nm, nc, nh;
  void *args[] = {&flag, &v};
  CHECK_OK(jet_graph_add_kernel(g, NULL, 0, k.mark, one, one, 0, args, &nk));
  jet_graph_memset m = {fill, 0, fv, 4, 4, 1};
  CHECK_OK(jet_graph_add_memset(g, &nk, 1, &m, &nm));
  CHECK_OK(jet_graph_add_memcpy(g, &nm, 1, dst, src, 16 * 4, &nc));
  atomic_int calls;
  atomic_init(&calls, 0);
  CHECK_OK(jet_graph_add_host(g, &nc, 1, count_host, &calls, &nh));
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g, &x));
  int en = -1;
  CHECK_OK(jet_graph_exec_get_enabled(x, nk, &en));
  CHECK(en == 1);
  CHECK_OK(jet_graph_exec_set_enabled(x, nk, 0));
  CHECK_OK(jet_graph_exec_set_enabled(x, nm, 0));
  CHECK_OK(jet_graph_exec_set_enabled(x, nc, 0));
  CHECK_ST(jet_graph_exec_set_enabled(x, nh, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_exec_get_enabled(x, nm, &en));
  CHECK(en == 0);
  poison(h, 64);
  CHECK(cudaMemcpy(dev, h + 32, 32 * 4, cudaMemcpyHostToDevice) == cudaSuccess); /* poison */
  jt_fill_random(src, 16 * 4);
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  CHECK(cudaMemcpy(back, dev, 20 * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(atomic_load(&calls) == 1); /* the enabled node after them still ran */
  CHECK_MSG(*flag == POISON, "disabled kernel ran: flag 0x%08x", *flag);
  for (int i = 0; i < 4; i++) CHECK_MSG(back[i] == POISON, "disabled memset wrote word %d", i);
  for (int i = 0; i < 16; i++)
    CHECK_MSG(back[4 + i] == POISON, "disabled copy wrote word %d", i);
  /* enable the kernel and the copy again */
  CHECK_OK(jet_graph_exec_set_enabled(x, nk, 1));
  CHECK_OK(jet_graph_exec_set_enabled(x, nc, 1));
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  CHECK(cudaMemcpy(back, dev, 20 * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(atomic_load(&calls) == 2);
  CHECK_MSG(*flag == v, "enabled kernel: flag 0x%08x, expected 0x%08x", *flag, v);
  for (int i = 0; i < 4; i++) CHECK_MSG(back[i] == POISON, "disabled memset wrote word %d", i);
  if (!same("enabled copy", back + 4, src, 16)) return 1;
  /* a host node's function and data, updated in place */
  atomic_int calls2;
  atomic_init(&calls2, 0);
  CHECK_OK(jet_graph_exec_set_host(x, nh, count_host, &calls2));
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_MSG(atomic_load(&calls) == 2 && atomic_load(&calls2) == 1,
            "host node calls: old data %d (expected 2), new data %d (expected 1)",
            atomic_load(&calls), atomic_load(&calls2));
  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_destroy(g));
  CHECK(cudaFreeHost(h) == cudaSuccess && cudaFree(dev) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ user objects */

static atomic_int destroyed;
static void on_destroy(void *user) {
  (void)user;
  atomic_fetch_add(&destroyed, 1);
}

TEST(gpu_graph_build_user_object_destructor_once) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  unsigned *flag;
  CHECK(cudaMallocHost((void **)&flag, 4) == cudaSuccess);
  atomic_store(&destroyed, 0);
  int live0 = atomic_load(&ctx->live_objects);
  jet_user_object obj;
  CHECK_OK(jet_user_object_create(ctx, on_destroy, NULL, &obj));
  CHECK_OK(jet_user_object_retain(obj, 2)); /* the caller holds 3 */
  CHECK_ST(jet_user_object_release(obj, 4), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_user_object_release(obj, 2));
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  unsigned v = jt_rand();
  void *args[] = {&flag, &v};
  CHECK_OK(jet_graph_add_kernel(g, NULL, 0, k.mark, one, one, 0, args, NULL));
  CHECK_OK(jet_graph_retain_user_object(g, obj, 2, 0)); /* new references */
  CHECK_OK(jet_graph_release_user_object(g, obj, 1));
  CHECK_ST(jet_graph_retain_user_object(g, obj, 2, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_retain_user_object(g, obj, 1, 1)); /* moves the caller's last */
  CHECK_ST(jet_user_object_release(obj, 1), JET_STATUS_INVALID_HANDLE);
  jet_graph_exec x1, x2;
  CHECK_OK(jet_graph_instantiate(g, &x1));
  CHECK_OK(jet_graph_instantiate(g, &x2));
  CHECK_OK(jet_graph_exec_launch(x1, s));
  CHECK_OK(jet_graph_exec_launch(x2, s));
  CHECK_OK(jet_graph_destroy(g));
  CHECK_OK(jet_stream_synchronize(s));
  jts_sleep_us(50000);
  CHECK_MSG(atomic_load(&destroyed) == 0, "destructor ran while executable graphs live");
  CHECK_OK(jet_graph_exec_destroy(x1));
  jts_sleep_us(50000);
  CHECK_MSG(atomic_load(&destroyed) == 0, "destructor ran while an executable graph lives");
  CHECK_OK(jet_graph_exec_launch(x2, s));
  CHECK_OK(jet_graph_exec_destroy(x2)); /* its launch may still run */
  CHECK_OK(jet_stream_synchronize(s));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK_MSG(wait_flag(&destroyed, 1, 10.0), "destructor ran %d times, expected once",
            atomic_load(&destroyed));
  jts_sleep_us(200000);
  CHECK_MSG(atomic_load(&destroyed) == 1, "destructor ran %d times", atomic_load(&destroyed));
  CHECK(*flag == v);
  CHECK_MSG(atomic_load(&ctx->live_objects) == live0, "live objects %d, expected %d",
            atomic_load(&ctx->live_objects), live0);
  CHECK(cudaFreeHost(flag) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ memory nodes */

TEST(gpu_graph_build_memory_nodes) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  int pools = 0;
  CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, ctx->device) ==
        cudaSuccess);
  if (!pools) {
    jet_graph g0;
    void *p0 = NULL;
    CHECK_OK(jet_graph_create(ctx, &g0));
    CHECK_ST(jet_graph_add_mem_alloc(g0, NULL, 0, 4096, &p0, NULL), JET_STATUS_UNSUPPORTED);
    CHECK_OK(jet_graph_destroy(g0));
    CHECK_OK(jet_stream_destroy(s));
    CHECK_OK(jet_module_destroy(k.m));
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("the device has no memory pools: graph memory nodes are refused (checked)");
  }
  int n = 77777;
  size_t bytes = (size_t)n * 4;
  unsigned *in, *out, *dy;
  CHECK(cudaMallocHost((void **)&in, bytes) == cudaSuccess);
  CHECK(cudaMallocHost((void **)&out, bytes) == cudaSuccess);
  CHECK(cudaMalloc((void **)&dy, bytes) == cudaSuccess);
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  void *tmp = NULL;
  jet_graph_node na, nu, nk, nf, nd;
  CHECK_OK(jet_graph_add_mem_alloc(g, NULL, 0, bytes, &tmp, &na));
  CHECK(tmp != NULL);
  CHECK_OK(jet_graph_add_memcpy(g, &na, 1, tmp, in, bytes, &nu));
  unsigned a = jt_rand(), b = jt_rand();
  void *args[] = {&dy, &tmp, &a, &b, &n};
  CHECK_OK(jet_graph_add_kernel(g, &nu, 1, k.axpb, grid_for(n, BLOCK), blk, 0, args, &nk));
  CHECK_OK(jet_graph_add_mem_free(g, &nk, 1, tmp, &nf));
  CHECK_OK(jet_graph_add_memcpy(g, &nk, 1, out, dy, bytes, &nd));
  jet_graph_node_type t;
  CHECK_OK(jet_graph_node_get_type(g, na, &t));
  CHECK(t == JET_GRAPH_NODE_MEM_ALLOC);
  CHECK_OK(jet_graph_node_get_type(g, nf, &t));
  CHECK(t == JET_GRAPH_NODE_MEM_FREE);
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g, &x));
  for (int round = 0; round < 3; round++) {
    jt_fill_random(in, bytes);
    poison(out, (size_t)n);
    CHECK_OK(jet_graph_exec_launch(x, s));
    CHECK_OK(jet_stream_synchronize(s));
    for (int i = 0; i < n; i++)
      CHECK_MSG(out[i] == a * in[i] + b, "round %d, index %d: expected 0x%08x, got 0x%08x",
                round, i, a * in[i] + b, out[i]);
  }
  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_destroy(g));
  CHECK(cudaDeviceGraphMemTrim(ctx->device) == cudaSuccess);
  CHECK(cudaFreeHost(in) == cudaSuccess && cudaFreeHost(out) == cudaSuccess);
  CHECK(cudaFree(dy) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ conditional nodes */

/* A graph with one conditional node whose body marks *flag = v. Returns 2 when
 * conditional nodes are refused as unsupported (checked). */
static int cond_graph(jet_context ctx, gk *k, jet_graph_cond_type type, unsigned dflt,
                      unsigned *flag, unsigned v, jet_graph *out) {
  jet_graph g, body = NULL;
  CHECK_OK(jet_graph_create(ctx, &g));
  uint64_t h = 0;
  jet_graph_node nc;
  jet_status st = jet_graph_add_conditional(g, NULL, 0, type, dflt, 0, &body, &h, &nc);
  int drv = 0;
  CHECK(cudaDriverGetVersion(&drv) == cudaSuccess);
  if (drv < 12040 || CUDART_VERSION < 12040) {
    CHECK_MSG(st == JET_STATUS_UNSUPPORTED, "driver %d: got %s", drv, jet_status_name(st));
    CHECK_OK(jet_graph_destroy(g));
    return 2;
  }
  CHECK_MSG(st == JET_STATUS_OK, "jet_graph_add_conditional: %s", jet_last_error_string());
  CHECK(body != NULL); /* the handle is opaque: any value */
  jet_graph_node_type t;
  CHECK_OK(jet_graph_node_get_type(g, nc, &t));
  CHECK(t == JET_GRAPH_NODE_CONDITIONAL);
  void *args[] = {&flag, &v};
  CHECK_OK(jet_graph_add_kernel(body, NULL, 0, k->mark, one, one, 0, args, NULL));
  CHECK_ST(jet_graph_destroy(body), JET_STATUS_INVALID_ARGUMENT);
  *out = g;
  return 0;
}

TEST(gpu_graph_build_conditional_if_while_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  unsigned *flag;
  CHECK(cudaMallocHost((void **)&flag, 4) == cudaSuccess);
  /* compute-sanitizer faults conditional graphs that touch memory allocated
   * just before them unless the device synchronised in between (NVIDIA/warp
   * issue 1406); without the tool the graphs run either way */
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  static const struct {
    jet_graph_cond_type type;
    unsigned dflt;
    int runs;
  } cases[] = {{JET_GRAPH_COND_IF, 1, 1}, {JET_GRAPH_COND_IF, 0, 0}, {JET_GRAPH_COND_IF, 7, 1},
               {JET_GRAPH_COND_WHILE, 0, 0}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    unsigned v = jt_rand() & 0x7fffffffu;
    jet_graph g = NULL;
    int r = cond_graph(ctx, &k, cases[c].type, cases[c].dflt, flag, v, &g);
    if (r == 2) SKIP("conditional nodes need CUDA 12.4 (refusal checked)");
    if (r) return 1;
    jet_graph cl = NULL;
    if (jet_graph_clone(g, &cl) == JET_STATUS_OK) { /* CUDA 13.0 documents a refusal */
      fprintf(stderr, "note: CUDA cloned a graph with a conditional node\n");
      CHECK_OK(jet_graph_destroy(cl));
    } else {
      CHECK(cl == NULL);
    }
    jet_graph_exec x;
    CHECK_OK(jet_graph_instantiate(g, &x));
    *flag = POISON;
    CHECK_OK(jet_graph_exec_launch(x, s));
    CHECK_OK(jet_stream_synchronize(s));
    unsigned want = cases[c].runs ? v : POISON;
    CHECK_MSG(*flag == want, "case %zu (type %d, value %u): flag 0x%08x, expected 0x%08x", c,
              (int)cases[c].type, cases[c].dflt, *flag, want);
    CHECK_OK(jet_graph_exec_destroy(x));
    CHECK_OK(jet_graph_destroy(g));
  }
  CHECK(cudaFreeHost(flag) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ topology, clone, DOT */

static int sorted2(const jet_graph_node *l, size_t n, jet_graph_node a, jet_graph_node b) {
  return n == 2 && ((l[0] == a && l[1] == b) || (l[0] == b && l[1] == a));
}

TEST(gpu_graph_build_topology_clone_remove_dot) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  unsigned *c;
  CHECK(cudaMalloc((void **)&c, 4) == cudaSuccess); /* device memory: kernels add atomically */
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  /* diamond A -> {B, C} -> D, D's edges added afterwards; B, C, D count */
  jet_graph_node A, B, C, D, l[8];
  void *args[] = {&c};
  CHECK_OK(jet_graph_add_empty(g, NULL, 0, &A));
  CHECK_OK(jet_graph_add_kernel(g, &A, 1, k.count, one, one, 0, args, &B));
  CHECK_OK(jet_graph_add_kernel(g, &A, 1, k.count, one, one, 0, args, &C));
  CHECK_OK(jet_graph_add_kernel(g, NULL, 0, k.count, one, one, 0, args, &D));
  jet_graph_node from[2] = {B, C}, to[2] = {D, D};
  CHECK_OK(jet_graph_add_dependencies(g, from, to, 2));
  size_t n = 0;
  CHECK_OK(jet_graph_root_nodes(g, l, 8, &n));
  CHECK_MSG(n == 1 && l[0] == A, "%zu roots, first %u", n, (unsigned)l[0]);
  CHECK_OK(jet_graph_node_dependencies(g, D, l, 8, &n));
  CHECK(sorted2(l, n, B, C));
  CHECK_OK(jet_graph_node_dependents(g, A, NULL, 0, &n));
  CHECK(n == 2);
  CHECK_OK(jet_graph_node_dependents(g, A, l, 1, &n));
  CHECK(n == 2 && (l[0] == B || l[0] == C));
  jet_graph_node_type t;
  CHECK_OK(jet_graph_node_get_type(g, A, &t));
  CHECK(t == JET_GRAPH_NODE_EMPTY);
  CHECK_OK(jet_graph_node_get_type(g, D, &t));
  CHECK(t == JET_GRAPH_NODE_KERNEL);

  /* a child graph node running a copy of g */
  jet_graph parent;
  CHECK_OK(jet_graph_create(ctx, &parent));
  jet_graph_node ch;
  CHECK_OK(jet_graph_add_child(parent, NULL, 0, g, &ch));
  CHECK_OK(jet_graph_node_get_type(parent, ch, &t));
  CHECK(t == JET_GRAPH_NODE_CHILD_GRAPH);

  /* clone keeps indexes; runs the same work */
  jet_graph cl;
  CHECK_OK(jet_graph_clone(g, &cl));
  CHECK_OK(jet_graph_node_dependencies(cl, D, l, 8, &n));
  CHECK(sorted2(l, n, B, C));
  jet_graph_exec x, xp;
  CHECK_OK(jet_graph_instantiate(cl, &x));
  CHECK_OK(jet_graph_instantiate(parent, &xp));
  CHECK(cudaMemset(c, 0, 4) == cudaSuccess);
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_graph_exec_launch(xp, s));
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_MSG(read_word(c) == 6, "counter %u after the clone and the child ran, expected 6",
            read_word(c));

  /* removal: refused while an executable graph of it lives */
  CHECK_ST(jet_graph_remove_node(cl, B), JET_STATUS_INVALID_STATE);
  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_remove_node(cl, B));
  CHECK_ST(jet_graph_remove_node(cl, B), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_node_count(cl, &n));
  CHECK(n == 3);
  CHECK_OK(jet_graph_node_dependencies(cl, D, l, 8, &n));
  CHECK(n == 1 && l[0] == C);
  CHECK_OK(jet_graph_nodes(cl, l, 8, &n));
  CHECK(n == 3 && l[0] == A && l[1] == C && l[2] == D);
  CHECK_OK(jet_graph_instantiate(cl, &x));
  CHECK(cudaMemset(c, 0, 4) == cudaSuccess);
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_MSG(read_word(c) == 2, "counter %u after removing a node, expected 2", read_word(c));
  /* the original is untouched */
  CHECK_OK(jet_graph_node_count(g, &n));
  CHECK(n == 4);

  /* DOT */
  char path[64];
  snprintf(path, sizeof path, "/tmp/jet-graph-%d.dot", (int)getpid());
  CHECK_OK(jet_graph_write_dot(g, path, 1));
  struct stat st;
  CHECK(stat(path, &st) == 0 && st.st_size > 0);
  unlink(path);
  CHECK_ST(jet_graph_write_dot(g, "/nonexistent-dir/x/g.dot", 0), JET_STATUS_IO_ERROR);

  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_exec_destroy(xp));
  CHECK_OK(jet_graph_destroy(cl));
  CHECK_OK(jet_graph_destroy(parent));
  CHECK_OK(jet_graph_destroy(g));
  CHECK(cudaFree(c) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* ------------------------------------------------------------ streams, upload, native */

TEST(gpu_graph_build_upload_native_streams_contexts) {
  REQUIRE_GPU();
  jet_context ctx, other;
  CHECK_OK(jt_context(&ctx, 0));
  CHECK_OK(jt_context(&other, 0));
  gk k, ko;
  if (load_kernels(ctx, &k) || load_kernels(other, &ko)) return 1;
  jet_stream s1, s2, so, pt;
  CHECK_OK(jet_stream_create(ctx, NULL, &s1));
  CHECK_OK(jet_stream_create(ctx, NULL, &s2));
  CHECK_OK(jet_stream_create(other, NULL, &so));
  CHECK_OK(jet_context_default_stream(ctx, JET_STREAM_PER_THREAD, &pt));
  unsigned *c;
  CHECK(cudaMalloc((void **)&c, 4) == cudaSuccess); /* device memory: kernels add atomically */
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  void *args[] = {&c};
  jet_graph_node n0 = 99;
  CHECK_ST(jet_graph_add_kernel(g, NULL, 0, ko.count, one, one, 0, args, &n0),
           JET_STATUS_WRONG_CONTEXT);
  CHECK(n0 == JET_GRAPH_NODE_NONE);
  jet_dim3 huge = {1, 1, 1}, big_block = {4096, 1, 1}, zero = {0, 1, 1};
  CHECK_ST(jet_graph_add_kernel(g, NULL, 0, k.count, huge, big_block, 0, args, &n0),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_kernel(g, NULL, 0, k.count, zero, one, 0, args, &n0),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_kernel(g, NULL, 0, k.count, one, one, 0, NULL, &n0),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_add_kernel(g, NULL, 0, k.count, one, one, 0, args, &n0));
  CHECK(n0 == 0);
  /* an event wait node ordering the graph after work on s2 */
  jet_event ev, evo;
  CHECK_OK(jet_event_create(ctx, 0, &ev));
  CHECK_OK(jet_event_create(other, 0, &evo));
  CHECK_ST(jet_graph_add_event_wait(g, &n0, 1, evo, NULL), JET_STATUS_WRONG_CONTEXT);
  jet_graph_node nw;
  CHECK_OK(jet_graph_add_event_wait(g, &n0, 1, ev, &nw));
  CHECK_OK(jet_graph_add_kernel(g, &nw, 1, k.count, one, one, 0, args, NULL));
  void *native = NULL;
  CHECK_OK(jet_graph_native(g, &native));
  size_t cn = 0, n = 0;
  CHECK(cudaGraphGetNodes((cudaGraph_t)native, NULL, &cn) == cudaSuccess);
  CHECK_OK(jet_graph_node_count(g, &n));
  CHECK(cn == 3 && n == 3);
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g, &x));
  CHECK_OK(jet_graph_exec_native(x, &native));
  CHECK(native != NULL);
  CHECK_ST(jet_graph_upload(x, so), JET_STATUS_WRONG_CONTEXT);
  CHECK_ST(jet_graph_exec_launch(x, so), JET_STATUS_WRONG_CONTEXT);
  CHECK_OK(jet_graph_upload(x, s1));
  CHECK(cudaMemset(c, 0, 4) == cudaSuccess);
  CHECK_OK(jet_event_record(ev, s2));
  CHECK_OK(jet_graph_exec_launch(x, s1));
  CHECK_OK(jet_graph_exec_launch(x, pt));
  CHECK_OK(jet_graph_exec_launch(x, s2));
  CHECK_OK(jet_context_synchronize(ctx));
  CHECK_MSG(read_word(c) == 6, "counter %u after three launches on three streams, expected 6",
            read_word(c));
  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_destroy(g));
  CHECK_OK(jet_event_destroy(ev));
  CHECK_OK(jet_event_destroy(evo));
  CHECK(cudaFree(c) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s1));
  CHECK_OK(jet_stream_destroy(s2));
  CHECK_OK(jet_stream_destroy(so));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_module_destroy(ko.m));
  CHECK_OK(jet_context_destroy(ctx));
  CHECK_OK(jet_context_destroy(other));
  return 0;
}

/* ------------------------------------------------------------ update + launch cycles */

TEST(gpu_graph_build_update_launch_cycles_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  upd u;
  if (upd_alloc(&u, 1023)) return 1;
  size_t n = (size_t)u.n;
  jt_fill_random(u.in, n * 4);
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  if (upd_build(g, &k, &u, 3, 5, 7)) return 1;
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g, &x));
  CHECK_OK(jet_graph_exec_launch(x, s));
  CHECK_OK(jet_stream_synchronize(s));
  const int warm = 200, rounds = 10000;
  size_t free0 = 0, free1 = 0, total = 0, rss0 = 0;
  int live0 = 0;
  double t0 = jts_now();
  for (int i = 0; i < warm + rounds; i++) {
    if (i == warm) {
      CHECK_OK(jet_stream_synchronize(s));
      CHECK_OK(jet_context_mem_info(ctx, &free0, &total));
      live0 = atomic_load(&ctx->live_objects);
      rss0 = jts_rss_bytes();
    }
    unsigned a = (unsigned)i * 2654435761u + 1, b = (unsigned)i, v = (unsigned)(i ^ 0x5a5a);
    void *args[] = {&u.dz, &u.dx, &a, &b, &u.n};
    unsigned blockx = (i & 1) ? 64u : 128u;
    jet_dim3 bk = {blockx, 1, 1};
    CHECK_OK(jet_graph_exec_set_kernel(x, u.ax, grid_for(u.n, blockx), bk, 0, args));
    jet_graph_memset m = {u.dy, 0, v, 4, n, 1};
    CHECK_OK(jet_graph_exec_set_memset(x, u.fill, &m));
    CHECK_OK(jet_graph_exec_launch(x, s));
    if (i % 1000 == 999) {
      CHECK_OK(jet_stream_synchronize(s));
      for (size_t j = 0; j < n; j++)
        CHECK_MSG(u.out[j] == a * u.in[j] + b + v,
                  "cycle %d, index %zu: expected 0x%08x, got 0x%08x", i, j,
                  a * u.in[j] + b + v, u.out[j]);
      poison(u.out, n);
    }
  }
  CHECK_OK(jet_stream_synchronize(s));
  CHECK_OK(jet_context_mem_info(ctx, &free1, &total));
  size_t rss1 = jts_rss_bytes();
  int live1 = atomic_load(&ctx->live_objects);
  double grew = ((double)rss1 - (double)rss0) / (1024.0 * 1024.0);
  fprintf(stderr,
          "%d update+launch cycles in %.2f s; device free %zu -> %zu; live objects %d -> %d; "
          "RSS %+.2f MiB\n",
          rounds, jts_now() - t0, free0, free1, live0, live1, grew);
  CHECK_MSG(live1 == live0, "live objects %d -> %d", live0, live1);
  CHECK_MSG(free1 + (2u << 20) >= free0, "device free memory fell by %zu bytes",
            free0 - free1);
  CHECK_MSG(grew < 4.0, "RSS grew %.2f MiB", grew);
  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_destroy(g));
  if (upd_free(&u)) return 1;
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

/* Conditions set by kernels (cudaGraphSetConditional in a device-only module,
 * tests/kernels/graph_cond.cu): a WHILE that counts to a random limit, an IF
 * that follows a flag in device memory. */
TEST(gpu_graph_build_conditional_device_set_alone) {
  REQUIRE_GPU();
  jet_context ctx;
  CHECK_OK(jt_context(&ctx, 0));
  int drv = 0;
  CHECK(cudaDriverGetVersion(&drv) == cudaSuccess);
  if (drv < 12040 || CUDART_VERSION < 12040) {
    CHECK_OK(jet_context_destroy(ctx));
    SKIP("conditional nodes need CUDA 12.4 (the refusal is checked in "
         "gpu_graph_build_conditional_if_while_alone)");
  }
  gk k;
  if (load_kernels(ctx, &k)) return 1;
  jet_module mc;
  jet_status st = jet_module_load(ctx, &jt_images_graph_cond, NULL, &mc);
  CHECK_MSG(st == JET_STATUS_OK,
            "a device-only module calling cudaGraphSetConditional did not load (the driver "
            "should resolve it like vprintf): %s",
            jet_last_error_string());
  jet_kernel step, set;
  CHECK_OK(jet_module_kernel(mc, "graph_while_step", &step));
  CHECK_OK(jet_module_kernel(mc, "graph_if_set", &set));
  jet_stream s;
  CHECK_OK(jet_stream_create(ctx, NULL, &s));
  unsigned *dev, *out;
  CHECK(cudaMalloc((void **)&dev, 8) == cudaSuccess); /* dev[0]: count, dev[1]: flag */
  CHECK(cudaMallocHost((void **)&out, 4) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess); /* as in the IF and WHILE test above */
  unsigned *count = dev, *flag = dev + 1;

  /* WHILE: reset the count, then loop until it reaches limit */
  unsigned limit = 1 + jt_rand() % 50;
  jet_graph g;
  CHECK_OK(jet_graph_create(ctx, &g));
  jet_graph_node reset, loop;
  jet_graph_memset m = {count, 0, 0, 4, 1, 1};
  CHECK_OK(jet_graph_add_memset(g, NULL, 0, &m, &reset));
  jet_graph body;
  uint64_t h = 0;
  CHECK_OK(jet_graph_add_conditional(g, &reset, 1, JET_GRAPH_COND_WHILE, 1, 1, &body, &h,
                                     &loop));
  unsigned long long hv = (unsigned long long)h;
  void *step_args[] = {&hv, &count, &limit};
  CHECK_OK(jet_graph_add_kernel(body, NULL, 0, step, one, one, 0, step_args, NULL));
  jet_graph_exec x;
  CHECK_OK(jet_graph_instantiate(g, &x));
  for (int round = 0; round < 2; round++) {
    CHECK(cudaMemset(count, 0x5A, 4) == cudaSuccess);
    CHECK_OK(jet_graph_exec_launch(x, s));
    CHECK_OK(jet_stream_synchronize(s));
    CHECK_MSG(read_word(count) == limit, "round %d: the WHILE body ran %u times, expected %u",
              round, read_word(count), limit);
  }
  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_destroy(g));

  /* IF: a kernel sets the condition from *flag; the node added first, the
   * kernel needs its handle, the edge comes after */
  CHECK_OK(jet_graph_create(ctx, &g));
  jet_graph_node cond, setter;
  CHECK_OK(jet_graph_add_conditional(g, NULL, 0, JET_GRAPH_COND_IF, 0, 1, &body, &h, &cond));
  hv = (unsigned long long)h;
  void *set_args[] = {&hv, &flag};
  CHECK_OK(jet_graph_add_kernel(g, NULL, 0, set, one, one, 0, set_args, &setter));
  CHECK_OK(jet_graph_add_dependencies(g, &setter, &cond, 1));
  unsigned v = jt_rand() & 0x7fffffffu;
  void *mark_args[] = {&out, &v};
  CHECK_OK(jet_graph_add_kernel(body, NULL, 0, k.mark, one, one, 0, mark_args, NULL));
  CHECK_OK(jet_graph_instantiate(g, &x));
  static const unsigned flags[] = {1, 0, 5, 0};
  for (int i = 0; i < 4; i++) {
    CHECK(cudaMemcpy(flag, &flags[i], 4, cudaMemcpyHostToDevice) == cudaSuccess);
    *out = POISON;
    CHECK_OK(jet_graph_exec_launch(x, s));
    CHECK_OK(jet_stream_synchronize(s));
    unsigned want = flags[i] ? v : POISON;
    CHECK_MSG(*out == want, "flag %u: out 0x%08x, expected 0x%08x", flags[i], *out, want);
  }
  CHECK_OK(jet_graph_exec_destroy(x));
  CHECK_OK(jet_graph_destroy(g));
  CHECK(cudaFree(dev) == cudaSuccess && cudaFreeHost(out) == cudaSuccess);
  CHECK_OK(jet_stream_destroy(s));
  CHECK_OK(jet_module_destroy(mc));
  CHECK_OK(jet_module_destroy(k.m));
  CHECK_OK(jet_context_destroy(ctx));
  return 0;
}

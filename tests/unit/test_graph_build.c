/* Explicit graphs, host side: argument checks that come before any CUDA call,
 * on NULL, foreign and fake handles (a registered graph with a hand-made node
 * table and no CUDA graph behind it). */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "internal.h"
#include "../../lib/graph/graph_internal.h"

static int has(const char *s, const char *sub) { return s && strstr(s, sub) != NULL; }

static void noop(void *user) { (void)user; }
static void user_destroy(void *user) { (void)user; }

TEST(graph_build_badarg_null_handles) {
  int bogus[16] = {0};
  jet_graph g = (jet_graph)(uintptr_t)0x1;
  jet_graph_node n = 7;
  jet_dim3 one = {1, 1, 1};
  CHECK_ST(jet_graph_create(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_create(NULL, &g), JET_STATUS_INVALID_HANDLE);
  CHECK(g == NULL);
  CHECK_ST(jet_graph_create((jet_context)bogus, &g), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_empty(NULL, NULL, 0, &n), JET_STATUS_INVALID_HANDLE);
  CHECK(n == JET_GRAPH_NODE_NONE);
  CHECK_ST(jet_graph_add_empty((jet_graph)bogus, NULL, 0, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_kernel(NULL, NULL, 0, NULL, one, one, 0, NULL, &n),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_memcpy(NULL, NULL, 0, bogus, bogus, 4, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_memset(NULL, NULL, 0, NULL, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_host(NULL, NULL, 0, noop, NULL, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_event_record(NULL, NULL, 0, NULL, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_event_wait(NULL, NULL, 0, NULL, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_child(NULL, NULL, 0, NULL, &n), JET_STATUS_INVALID_HANDLE);
  void *d = bogus;
  CHECK_ST(jet_graph_add_mem_alloc(NULL, NULL, 0, 16, &d, &n), JET_STATUS_INVALID_HANDLE);
  CHECK(d == NULL);
  CHECK_ST(jet_graph_add_mem_free(NULL, NULL, 0, bogus, &n), JET_STATUS_INVALID_HANDLE);
  jet_graph body = (jet_graph)(uintptr_t)0x1;
  uint64_t ch = 5;
  CHECK_ST(jet_graph_add_conditional(NULL, NULL, 0, JET_GRAPH_COND_IF, 1, 0, &body, &ch, &n),
           JET_STATUS_INVALID_HANDLE);
  CHECK(body == NULL && ch == 0);
  CHECK_ST(jet_graph_add_dependencies(NULL, NULL, NULL, 0), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_remove_node(NULL, 0), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_clone(NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_clone((jet_graph)bogus, &g), JET_STATUS_INVALID_HANDLE);
  size_t cnt = 3;
  CHECK_ST(jet_graph_node_count(NULL, &cnt), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_nodes(NULL, NULL, 0, &cnt), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_root_nodes((jet_graph)bogus, NULL, 0, &cnt), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_node_dependencies(NULL, 0, NULL, 0, &cnt), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_node_dependents(NULL, 0, NULL, 0, &cnt), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_root_nodes(NULL, NULL, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_graph_node_type t;
  CHECK_ST(jet_graph_node_get_type(NULL, 0, &t), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_write_dot(NULL, "/tmp/x.dot", 0), JET_STATUS_INVALID_HANDLE);
  void *native = NULL;
  CHECK_ST(jet_graph_native(NULL, &native), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_native((jet_graph_exec)bogus, &native), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_upload(NULL, NULL), JET_STATUS_INVALID_HANDLE);
  jet_graph_update_info ui;
  CHECK_ST(jet_graph_exec_update_info(NULL, NULL, &ui), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_update_info(NULL, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_access_policy ap = {&ui, 64, 0.5f, JET_ACCESS_PERSISTING, JET_ACCESS_STREAMING};
  CHECK_ST(jet_graph_kernel_set_access_policy(NULL, 0, &ap), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_kernel_set_access_policy((jet_graph)bogus, 0, &ap),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_kernel_set_access_policy(NULL, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_kernel_access_policy(NULL, 0, &ap), JET_STATUS_INVALID_HANDLE);
  CHECK(ap.base == NULL && ap.bytes == 0); /* zeroed on failure */
  CHECK_ST(jet_graph_kernel_access_policy(NULL, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(ui.error_node == JET_GRAPH_NODE_NONE && ui.error_from_node == JET_GRAPH_NODE_NONE);
  CHECK_ST(jet_graph_exec_set_kernel(NULL, 0, one, one, 0, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_set_memcpy(NULL, 0, bogus, bogus, 4), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_set_memcpy_3d(NULL, 0, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_set_memset(NULL, 0, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_set_host(NULL, 0, noop, NULL), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_exec_set_enabled(NULL, 0, 1), JET_STATUS_INVALID_HANDLE);
  int en;
  CHECK_ST(jet_graph_exec_get_enabled((jet_graph_exec)bogus, 0, &en), JET_STATUS_INVALID_HANDLE);
  jet_user_object uo = (jet_user_object)(uintptr_t)0x1;
  CHECK_ST(jet_user_object_create(NULL, user_destroy, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_user_object_create(NULL, NULL, NULL, &uo), JET_STATUS_INVALID_ARGUMENT);
  CHECK(uo == NULL);
  CHECK_ST(jet_user_object_create(NULL, user_destroy, NULL, &uo), JET_STATUS_INVALID_HANDLE);
  CHECK_OK(jet_user_object_release(NULL, 1));
  CHECK_ST(jet_user_object_release((jet_user_object)bogus, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_user_object_retain(NULL, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_retain_user_object(NULL, NULL, 1, 1), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_release_user_object(NULL, NULL, 1), JET_STATUS_INVALID_HANDLE);
  return 0;
}

/* A registered graph of @c with @n nodes, no CUDA graph: node i is of type
 * @types[i], removed when @types[i] < 0. */
static int fake_graph(struct jet_graph_s *g, struct jet_context_s *c, const int *types,
                      uint32_t n) {
  memset(g, 0, sizeof *g);
  atomic_init(&g->refs, 1);
  atomic_init(&g->execs, 0);
  g->nodes = calloc(n + 1, sizeof *g->nodes);
  CHECK(g->nodes);
  for (uint32_t i = 0; i < n; i++) {
    g->nodes[i].cu = types[i] < 0 ? NULL : (cudaGraphNode_t)(uintptr_t)(0x1000 + 16 * i);
    g->nodes[i].type = types[i] < 0 ? JET_GRAPH_NODE_EMPTY : types[i];
  }
  g->count = n;
  g->cap = n + 1;
  CHECK_OK(jet__handle_register(&g->h, JET__H_GRAPH, c, "test"));
  return 0;
}

static const int fake_types[] = {JET_GRAPH_NODE_KERNEL, JET_GRAPH_NODE_MEMCPY, -1,
                                 JET_GRAPH_NODE_MEMSET, JET_GRAPH_NODE_HOST,
                                 JET_GRAPH_NODE_EMPTY};
#define FAKE_N 6u

TEST(graph_build_badarg_nodes_and_params) {
  struct jet_context_s c, other;
  CHECK(jt_fake_context(&c, "desktop") && jt_fake_context(&other, "desktop"));
  struct jet_graph_s g;
  if (fake_graph(&g, &c, fake_types, FAKE_N)) return 1;
  jet_graph_node n = 0;
  jet_graph_node d[3];

  /* dependencies */
  CHECK_ST(jet_graph_add_empty(&g, NULL, 1, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK(n == JET_GRAPH_NODE_NONE);
  d[0] = FAKE_N;
  CHECK_ST(jet_graph_add_empty(&g, d, 1, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "not a node of this graph"));
  d[0] = 2; /* removed */
  CHECK_ST(jet_graph_add_empty(&g, d, 1, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "removed"));
  d[0] = 1;
  d[1] = 3;
  d[2] = 1;
  CHECK_ST(jet_graph_add_empty(&g, d, 3, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "twice"));
  d[0] = JET_GRAPH_NODE_NONE;
  CHECK_ST(jet_graph_add_empty(&g, d, 1, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_graph_node many[16] = {0};
  CHECK_ST(jet_graph_add_empty(&g, many, 16, &n), JET_STATUS_INVALID_ARGUMENT);

  /* parameters */
  jet_dim3 one = {1, 1, 1};
  CHECK_ST(jet_graph_add_kernel(&g, NULL, 0, NULL, one, one, 0, NULL, &n),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_kernel(&g, NULL, 0, (jet_kernel)(void *)&g, one, one, 0, NULL, &n),
           JET_STATUS_INVALID_HANDLE);
  unsigned char buf[64];
  CHECK_ST(jet_graph_add_memcpy(&g, NULL, 0, NULL, buf, 4, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_memcpy(&g, NULL, 0, buf, NULL, 4, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_memcpy(&g, NULL, 0, buf, buf + 8, 0, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_memcpy(&g, NULL, 0, (void *)(uintptr_t)(SIZE_MAX - 3), buf, 16, &n),
           JET_STATUS_OVERFLOW);
  CHECK_ST(jet_graph_add_memcpy_2d(&g, NULL, 0, buf, 4, buf + 32, 8, 6, 2, &n),
           JET_STATUS_INVALID_ARGUMENT); /* width beyond dst pitch */
  CHECK_ST(jet_graph_add_memcpy_2d(&g, NULL, 0, buf, 8, buf + 32, 8, 6, 0, &n),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_memcpy_3d(&g, NULL, 0, NULL, &n), JET_STATUS_INVALID_ARGUMENT);
  jet_copy_3d c3;
  memset(&c3, 0, sizeof c3);
  c3.dst.ptr = buf;
  c3.dst.pitch = 8;
  c3.dst.rows = 2;
  c3.src.ptr = buf + 32;
  c3.src.pitch = 8;
  c3.src.rows = 2;
  c3.extent.width_bytes = 8;
  c3.extent.height = 3; /* more rows than a slice has */
  c3.extent.depth = 1;
  CHECK_ST(jet_graph_add_memcpy_3d(&g, NULL, 0, &c3, &n), JET_STATUS_INVALID_ARGUMENT);

  uint32_t words[8];
  jet_graph_memset ms = {words, 0, 0x1234, 2, 3, 1};
  CHECK_ST(jet_graph_add_memset(&g, NULL, 0, NULL, &n), JET_STATUS_INVALID_ARGUMENT);
  ms.element_size = 3;
  CHECK_ST(jet_graph_add_memset(&g, NULL, 0, &ms, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "1, 2 or 4"));
  ms.element_size = 1; /* 0x1234 does not fit a byte */
  CHECK_ST(jet_graph_add_memset(&g, NULL, 0, &ms, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "does not fit"));
  ms.element_size = 4;
  ms.dst = (unsigned char *)words + 2; /* misaligned */
  CHECK_ST(jet_graph_add_memset(&g, NULL, 0, &ms, &n), JET_STATUS_INVALID_ARGUMENT);
  ms.dst = words;
  ms.height = 2;
  ms.pitch = 8; /* < 3 elements of 4 bytes */
  CHECK_ST(jet_graph_add_memset(&g, NULL, 0, &ms, &n), JET_STATUS_INVALID_ARGUMENT);
  ms.width = 0;
  CHECK_ST(jet_graph_add_memset(&g, NULL, 0, &ms, &n), JET_STATUS_INVALID_ARGUMENT);
  ms.dst = NULL;
  CHECK_ST(jet_graph_add_memset(&g, NULL, 0, &ms, &n), JET_STATUS_INVALID_ARGUMENT);

  CHECK_ST(jet_graph_add_host(&g, NULL, 0, NULL, NULL, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_event_record(&g, NULL, 0, NULL, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_event_wait(&g, NULL, 0, (jet_event)(void *)&g, &n),
           JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_child(&g, NULL, 0, NULL, &n), JET_STATUS_INVALID_HANDLE);
  CHECK_ST(jet_graph_add_child(&g, NULL, 0, &g, &n), JET_STATUS_INVALID_ARGUMENT);
  struct jet_graph_s og;
  if (fake_graph(&og, &other, fake_types, FAKE_N)) return 1;
  CHECK_ST(jet_graph_add_child(&g, NULL, 0, &og, &n), JET_STATUS_WRONG_CONTEXT);
  void *dp = buf;
  CHECK_ST(jet_graph_add_mem_alloc(&g, NULL, 0, 16, NULL, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_mem_alloc(&g, NULL, 0, 0, &dp, &n), JET_STATUS_INVALID_ARGUMENT);
  CHECK(dp == NULL);
  CHECK_ST(jet_graph_add_mem_free(&g, NULL, 0, NULL, &n), JET_STATUS_INVALID_ARGUMENT);
  jet_graph body;
  CHECK_ST(jet_graph_add_conditional(&g, NULL, 0, JET_GRAPH_COND_IF, 1, 0, NULL, NULL, &n),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_conditional(&g, NULL, 0, (jet_graph_cond_type)7, 1, 0, &body, NULL, &n),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_conditional(&g, NULL, 0, JET_GRAPH_COND_WHILE, 1, 0, &body, NULL, &n),
           JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "never end"));

  /* edges */
  jet_graph_node from[2] = {0, 1}, to[2] = {3, 1};
  CHECK_ST(jet_graph_add_dependencies(&g, NULL, to, 1), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_add_dependencies(&g, from, to, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "itself"));
  to[1] = 2;
  CHECK_ST(jet_graph_add_dependencies(&g, from, to, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_add_dependencies(&g, NULL, NULL, 0));

  /* the table is unchanged by every refusal */
  CHECK(g.count == FAKE_N);
  jet__handle_unregister(&og.h);
  free(og.nodes);
  jet__handle_unregister(&g.h);
  free(g.nodes);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  jt_fake_context_done(&other);
  return 0;
}

TEST(graph_build_queries_without_device) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  struct jet_graph_s g;
  if (fake_graph(&g, &c, fake_types, FAKE_N)) return 1;
  size_t cnt = 0;
  CHECK_ST(jet_graph_node_count(&g, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_node_count(&g, &cnt));
  CHECK(cnt == FAKE_N - 1);
  jet_graph_node list[8];
  memset(list, 0xff, sizeof list);
  CHECK_OK(jet_graph_nodes(&g, NULL, 0, &cnt));
  CHECK(cnt == FAKE_N - 1);
  CHECK_OK(jet_graph_nodes(&g, list, 2, &cnt));
  CHECK(cnt == FAKE_N - 1 && list[0] == 0 && list[1] == 1 && list[2] == JET_GRAPH_NODE_NONE);
  CHECK_OK(jet_graph_nodes(&g, list, 8, &cnt));
  CHECK(list[2] == 3 && list[3] == 4 && list[4] == 5);
  CHECK_ST(jet_graph_nodes(&g, NULL, 3, &cnt), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_node_dependencies(&g, 2, list, 8, &cnt), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_node_dependents(&g, 99, list, 8, &cnt), JET_STATUS_INVALID_ARGUMENT);
  jet_graph_node_type t = JET_GRAPH_NODE_OTHER;
  CHECK_ST(jet_graph_node_get_type(&g, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_node_get_type(&g, 3, &t));
  CHECK(t == JET_GRAPH_NODE_MEMSET);
  CHECK_ST(jet_graph_node_get_type(&g, 2, &t), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_write_dot(&g, NULL, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_write_dot(&g, "", 1), JET_STATUS_INVALID_ARGUMENT);
  void *native = NULL;
  CHECK_ST(jet_graph_native(&g, NULL), JET_STATUS_INVALID_ARGUMENT);
  g.cu = (cudaGraph_t)(uintptr_t)0x5000;
  CHECK_OK(jet_graph_native(&g, &native));
  CHECK(native == (void *)(uintptr_t)0x5000);
  CHECK_ST(jet_graph_remove_node(&g, 2), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_remove_node(&g, FAKE_N), JET_STATUS_INVALID_ARGUMENT);
  /* an executable graph made from it: removal refused */
  atomic_store(&g.execs, 1);
  CHECK_ST(jet_graph_remove_node(&g, 1), JET_STATUS_INVALID_STATE);
  CHECK(has(jet_last_error()->message, "executable graph"));
  atomic_store(&g.execs, 0);
  /* a conditional body is not destroyed, cloned or instantiated by itself */
  struct jet_graph_s b;
  if (fake_graph(&b, &c, fake_types, 0)) return 1;
  b.parent = &g;
  CHECK_ST(jet_graph_destroy(&b), JET_STATUS_INVALID_ARGUMENT);
  jet_graph out = NULL;
  CHECK_ST(jet_graph_clone(&b, &out), JET_STATUS_INVALID_ARGUMENT);
  jet_graph_exec x = NULL;
  CHECK_ST(jet_graph_instantiate(&b, &x), JET_STATUS_INVALID_ARGUMENT);
  b.parent = NULL;
  jet__handle_unregister(&b.h);
  free(b.nodes);
  jet__handle_unregister(&g.h);
  free(g.nodes);
  jt_fake_context_done(&c);
  return 0;
}

static void other_fn(void *user) { (void)user; }

TEST(graph_build_badarg_exec_nodes) {
  struct jet_context_s c;
  CHECK(jt_fake_context(&c, "desktop"));
  struct jet_graph_exec_s x;
  memset(&x, 0, sizeof x);
  jet__gnode nodes[FAKE_N];
  for (uint32_t i = 0; i < FAKE_N; i++) {
    nodes[i].cu = fake_types[i] < 0 ? NULL : (cudaGraphNode_t)(uintptr_t)(0x1000 + 16 * i);
    nodes[i].type = fake_types[i] < 0 ? JET_GRAPH_NODE_EMPTY : fake_types[i];
    nodes[i].kernel = NULL; /* node 0: a captured kernel */
  }
  x.nodes = nodes;
  x.count = FAKE_N;
  CHECK_OK(jet__handle_register(&x.h, JET__H_GRAPH_EXEC, &c, "test"));
  jet_dim3 one = {1, 1, 1};
  unsigned char buf[64];
  CHECK_ST(jet_graph_exec_set_kernel(&x, 0, one, one, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "captured"));
  CHECK_ST(jet_graph_exec_set_kernel(&x, 1, one, one, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_kernel(&x, FAKE_N, one, one, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_memcpy(&x, 0, buf, buf + 8, 8), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_memcpy(&x, 2, buf, buf + 8, 8), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_memcpy(&x, 1, NULL, buf + 8, 8), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_memcpy(&x, 1, buf, buf + 8, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_memcpy_3d(&x, 1, NULL), JET_STATUS_INVALID_ARGUMENT);
  jet_graph_memset ms = {buf, 0, 0x100, 1, 4, 1};
  CHECK_ST(jet_graph_exec_set_memset(&x, 3, &ms), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_memset(&x, 1, &ms), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_host(&x, 4, NULL, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_host(&x, 5, other_fn, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_enabled(&x, 4, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK(has(jet_last_error()->message, "only kernel, memcpy and memset"));
  CHECK_ST(jet_graph_exec_set_enabled(&x, 5, 0), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_set_enabled(&x, 2, 0), JET_STATUS_INVALID_ARGUMENT);
  int en;
  CHECK_ST(jet_graph_exec_get_enabled(&x, 0, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_ST(jet_graph_exec_get_enabled(&x, 4, &en), JET_STATUS_INVALID_ARGUMENT);
  void *native = NULL;
  CHECK_ST(jet_graph_exec_native(&x, NULL), JET_STATUS_INVALID_ARGUMENT);
  CHECK_OK(jet_graph_exec_native(&x, &native));
  jet__handle_unregister(&x.h);
  CHECK(atomic_load(&c.live_objects) == 0);
  jt_fake_context_done(&c);
  return 0;
}

/*
 * Graphs built node by node: the node table, add functions, edges, removal,
 * clone, topology queries, DOT output.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "../l2/l2_internal.h"
#include "../memory/memory_internal.h"

#define STACK_DEPS 16

/* CUDA 13 gave these calls the edge-data parameter of their 12.3 _v2 forms
 * (and dropped the old forms); jetrt uses default edges only. */
#if CUDART_VERSION >= 13000
#define ADD_DEPENDENCIES(g, from, to, n) cudaGraphAddDependencies(g, from, to, NULL, n)
#define NODE_DEPENDENCIES(node, list, n) cudaGraphNodeGetDependencies(node, list, NULL, n)
#define NODE_DEPENDENTS(node, list, n) cudaGraphNodeGetDependentNodes(node, list, NULL, n)
#define ADD_NODE(out, g, deps, n, params) cudaGraphAddNode(out, g, deps, NULL, n, params)
#else
#define ADD_DEPENDENCIES(g, from, to, n) cudaGraphAddDependencies(g, from, to, n)
#define NODE_DEPENDENCIES(node, list, n) cudaGraphNodeGetDependencies(node, list, n)
#define NODE_DEPENDENTS(node, list, n) cudaGraphNodeGetDependentNodes(node, list, n)
#define ADD_NODE(out, g, deps, n, params) cudaGraphAddNode(out, g, deps, n, params)
#endif

/* One add in progress: the graph, its checked dependencies as CUDA nodes. */
typedef struct adder {
  struct jet_graph_s *g;
  const jet_graph_node *deps;
  size_t ndeps;
  cudaGraphNode_t stack[STACK_DEPS];
  cudaGraphNode_t *cu_deps;
  jet_graph_node *out;
  const char *fn;
} adder;

static jet_status check_nodes(const struct jet_graph_s *g, const jet_graph_node *nodes, size_t n,
                              const char *what, const char *fn) {
  if (n && !nodes)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "%s is NULL but its count is %zu", what, n);
  for (size_t i = 0; i < n; i++) JET__TRY(jet__graph_node_check(g, nodes[i], fn, what));
  return JET_STATUS_OK;
}

/* Checks that need no device: the graph handle, @out, the dependencies. */
static jet_status add_check(adder *a, jet_graph g, const jet_graph_node *deps, size_t ndeps,
                            jet_graph_node *out, const char *fn) {
  memset(a, 0, sizeof *a);
  a->fn = fn;
  if (out) *out = JET_GRAPH_NODE_NONE;
  JET__TRY(jet__handle_check(g, JET__H_GRAPH, fn, "graph"));
  a->g = g;
  a->deps = deps;
  a->ndeps = ndeps;
  a->out = out;
  if (ndeps > g->count)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "%zu dependencies, but the graph has %u node indexes", ndeps,
                      (unsigned)g->count);
  JET__TRY(check_nodes(g, deps, ndeps, "dependency", fn));
  /* Quadratic, so only for short lists; CUDA refuses longer ones with duplicates. */
  for (size_t i = 0; ndeps <= 256 && i < ndeps; i++)
    for (size_t j = i + 1; j < ndeps; j++)
      if (deps[i] == deps[j])
        return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                          "dependency %u is listed twice (deps[%zu] and deps[%zu])",
                          (unsigned)deps[i], i, j);
  if (g->count >= JET_GRAPH_NODE_NONE - 1)
    return jet__error(JET_STATUS_OVERFLOW, fn, "the graph has used every node index");
  return JET_STATUS_OK;
}

static void add_done(adder *a) {
  if (a->cu_deps && a->cu_deps != a->stack) free(a->cu_deps);
  a->cu_deps = NULL;
}

/* Room for one more node, the CUDA dependency array, the device current. */
static jet_status add_prepare(adder *a) {
  struct jet_graph_s *g = a->g;
  if (g->count == g->cap) {
    uint32_t cap = g->cap ? (g->cap > 0x3fffffffu ? JET_GRAPH_NODE_NONE - 1 : g->cap * 2) : 16;
    jet__gnode *n = realloc(g->nodes, (size_t)cap * sizeof *n);
    if (!n)
      return jet__error(JET_STATUS_OUT_OF_MEMORY, a->fn,
                        "no host memory for a node table of %u entries", (unsigned)cap);
    g->nodes = n;
    g->cap = cap;
  }
  a->cu_deps = a->stack;
  if (a->ndeps > STACK_DEPS) {
    a->cu_deps = malloc(a->ndeps * sizeof *a->cu_deps);
    if (!a->cu_deps)
      return jet__error(JET_STATUS_OUT_OF_MEMORY, a->fn, "no host memory for %zu dependencies",
                        a->ndeps);
  }
  for (size_t i = 0; i < a->ndeps; i++) a->cu_deps[i] = g->nodes[a->deps[i]].cu;
  jet_status st = jet__ctx_activate(g->h.ctx, a->fn);
  if (st != JET_STATUS_OK) add_done(a);
  return st;
}

/* Record the node CUDA made; the add's result. */
static jet_status add_finish(adder *a, cudaError_t e, const char *call, cudaGraphNode_t node,
                             jet_graph_node_type type, jet_kernel kernel) {
  add_done(a);
  if (e != cudaSuccess) return jet__cuda_error(e, a->fn, call, NULL, NULL);
  struct jet_graph_s *g = a->g;
  g->nodes[g->count].cu = node;
  g->nodes[g->count].type = (int)type;
  g->nodes[g->count].kernel = kernel;
  if (a->out) *a->out = g->count;
  g->count++;
  return JET_STATUS_OK;
}

jet_status jet_graph_create(jet_context ctx, jet_graph *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__ctx_enter(ctx, __func__));
  struct jet_graph_s *g = jet__graph_alloc();
  if (!g) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a graph");
  cudaGraph_t cu = NULL;
  cudaError_t e = cudaGraphCreate(&cu, 0);
  if (e != cudaSuccess) {
    free(g);
    return jet__cuda_error(e, __func__, "cudaGraphCreate", NULL, NULL);
  }
  return jet__graph_adopt(g, ctx, cu, out, __func__);
}

/* ------------------------------------------------------------ nodes */

void jet__graph_kernel_params(const jet__kernel_desc *kd, jet_dim3 grid, jet_dim3 block,
                              size_t shared_bytes, void **args, CUDA_KERNEL_NODE_PARAMS *p) {
  memset(p, 0, sizeof *p);
  p->func = kd->fn;
  p->gridDimX = grid.x;
  p->gridDimY = grid.y;
  p->gridDimZ = grid.z;
  p->blockDimX = block.x;
  p->blockDimY = block.y;
  p->blockDimZ = block.z;
  p->sharedMemBytes = (unsigned)shared_bytes;
  p->kernelParams = args;
}

jet_status jet_graph_add_kernel(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                jet_kernel kernel, jet_dim3 grid, jet_dim3 block,
                                size_t shared_bytes, void **args, jet_graph_node *out) {
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  JET__TRY(jet__handle_check_in(kernel, JET__H_KERNEL, graph->h.ctx, __func__, "kernel"));
  JET__TRY(jet__launch_check(kernel, grid, block, shared_bytes, args, __func__));
  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, __func__));
  JET__TRY(add_prepare(&a));
  jet__kernel_desc kd;
  jet__kernel_describe(kernel, &kd);
  CUDA_KERNEL_NODE_PARAMS p;
  jet__graph_kernel_params(&kd, grid, block, shared_bytes, args, &p);
  CUgraphNode node = NULL;
  CUresult r = api->cuGraphAddKernelNode(&node, (CUgraph)graph->cu, (const CUgraphNode *)a.cu_deps,
                                         ndeps, &p);
  if (r != CUDA_SUCCESS) {
    add_done(&a);
    return jet__cu_error(r, __func__, "cuGraphAddKernelNode", NULL,
                         "kernel '%s', grid (%u, %u, %u), block (%u, %u, %u), %zu shared bytes",
                         kd.name, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                         shared_bytes);
  }
  return add_finish(&a, cudaSuccess, "cuGraphAddKernelNode", (cudaGraphNode_t)node,
                    JET_GRAPH_NODE_KERNEL, kernel);
}

jet_status jet_graph_add_memcpy_3d(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                   const jet_copy_3d *p, jet_graph_node *out) {
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  struct cudaMemcpy3DParms m;
  JET__TRY(jet__copy_3d_params(p, &m, __func__));
  JET__TRY(add_prepare(&a));
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddMemcpyNode(&node, graph->cu, a.cu_deps, ndeps, &m);
  return add_finish(&a, e, "cudaGraphAddMemcpyNode", node, JET_GRAPH_NODE_MEMCPY, NULL);
}

jet_status jet_graph_add_memcpy_2d(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                   void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width_bytes, size_t height, jet_graph_node *out) {
  jet_copy_3d c = jet__copy_2d_as_3d(dst, dpitch, src, spitch, width_bytes, height);
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  struct cudaMemcpy3DParms m;
  JET__TRY(jet__copy_3d_params(&c, &m, __func__));
  JET__TRY(add_prepare(&a));
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddMemcpyNode(&node, graph->cu, a.cu_deps, ndeps, &m);
  return add_finish(&a, e, "cudaGraphAddMemcpyNode", node, JET_GRAPH_NODE_MEMCPY, NULL);
}

jet_status jet_graph_add_memcpy(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                void *dst, const void *src, size_t bytes, jet_graph_node *out) {
  jet_copy_3d c = jet__copy_2d_as_3d(dst, bytes, src, bytes, bytes, 1);
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  struct cudaMemcpy3DParms m;
  JET__TRY(jet__copy_3d_params(&c, &m, __func__));
  JET__TRY(add_prepare(&a));
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddMemcpyNode(&node, graph->cu, a.cu_deps, ndeps, &m);
  return add_finish(&a, e, "cudaGraphAddMemcpyNode", node, JET_GRAPH_NODE_MEMCPY, NULL);
}

jet_status jet__graph_memset_params(const jet_graph_memset *p, struct cudaMemsetParams *out,
                                    const char *fn) {
  if (!p) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "p is NULL");
  if (!p->dst) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "p->dst is NULL");
  unsigned es = p->element_size;
  if (es != 1 && es != 2 && es != 4)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "element_size %u is not 1, 2 or 4", es);
  if ((uintptr_t)p->dst % es)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "dst %p is not aligned to the element size %u", p->dst, es);
  if (es < 4 && p->value >> (8 * es))
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "value 0x%x does not fit in an element of %u byte(s)", p->value, es);
  if (!p->width || !p->height)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "empty region: width %zu, height %zu",
                      p->width, p->height);
  size_t row, span;
  if (!jet__mul_ok(p->width, es, &row))
    return jet__error(JET_STATUS_OVERFLOW, fn, "width %zu x element size %u overflows", p->width,
                      es);
  size_t pitch = p->height > 1 ? p->pitch : row;
  if (p->height > 1 && pitch < row)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "pitch %zu is less than a row of %zu elements of %u bytes (%zu)", pitch,
                      p->width, es, row);
  if (!jet__mul_ok(pitch, p->height - 1, &span) || !jet__add_ok(span, row, &span) ||
      !jet__add_ok((size_t)(uintptr_t)p->dst, span, &span))
    return jet__error(JET_STATUS_OVERFLOW, fn, "the region at %p wraps the address space",
                      p->dst);
  memset(out, 0, sizeof *out);
  out->dst = p->dst;
  out->pitch = pitch;
  out->value = p->value;
  out->elementSize = es;
  out->width = p->width;
  out->height = p->height;
  return JET_STATUS_OK;
}

jet_status jet_graph_add_memset(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                const jet_graph_memset *p, jet_graph_node *out) {
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  struct cudaMemsetParams m;
  JET__TRY(jet__graph_memset_params(p, &m, __func__));
  JET__TRY(add_prepare(&a));
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddMemsetNode(&node, graph->cu, a.cu_deps, ndeps, &m);
  return add_finish(&a, e, "cudaGraphAddMemsetNode", node, JET_GRAPH_NODE_MEMSET, NULL);
}

jet_status jet_graph_add_host(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                              jet_stream_callback fn, void *user, jet_graph_node *out) {
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  JET__ARG(fn, "fn is NULL");
  JET__TRY(add_prepare(&a));
  struct cudaHostNodeParams hp;
  hp.fn = (cudaHostFn_t)fn;
  hp.userData = user;
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddHostNode(&node, graph->cu, a.cu_deps, ndeps, &hp);
  return add_finish(&a, e, "cudaGraphAddHostNode", node, JET_GRAPH_NODE_HOST, NULL);
}

static jet_status add_event(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                            jet_event event, jet_graph_node *out, int wait, const char *fn) {
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, fn));
  JET__TRY(jet__handle_check_in(event, JET__H_EVENT, graph->h.ctx, fn, "event"));
  JET__TRY(add_prepare(&a));
  cudaGraphNode_t node = NULL;
  cudaError_t e = wait ? cudaGraphAddEventWaitNode(&node, graph->cu, a.cu_deps, ndeps, event->cu)
                       : cudaGraphAddEventRecordNode(&node, graph->cu, a.cu_deps, ndeps,
                                                     event->cu);
  return add_finish(&a, e, wait ? "cudaGraphAddEventWaitNode" : "cudaGraphAddEventRecordNode",
                    node, wait ? JET_GRAPH_NODE_EVENT_WAIT : JET_GRAPH_NODE_EVENT_RECORD, NULL);
}

jet_status jet_graph_add_event_record(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                      jet_event event, jet_graph_node *out) {
  return add_event(graph, deps, ndeps, event, out, 0, __func__);
}

jet_status jet_graph_add_event_wait(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                    jet_event event, jet_graph_node *out) {
  return add_event(graph, deps, ndeps, event, out, 1, __func__);
}

jet_status jet_graph_add_empty(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                               jet_graph_node *out) {
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  JET__TRY(add_prepare(&a));
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddEmptyNode(&node, graph->cu, a.cu_deps, ndeps);
  return add_finish(&a, e, "cudaGraphAddEmptyNode", node, JET_GRAPH_NODE_EMPTY, NULL);
}

jet_status jet_graph_add_child(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                               jet_graph child, jet_graph_node *out) {
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  JET__TRY(jet__handle_check_in(child, JET__H_GRAPH, graph->h.ctx, __func__, "child"));
  JET__ARG(child != graph, "a graph cannot be its own child");
  JET__ARG(!child->parent, "child is the body of a conditional node");
  JET__TRY(add_prepare(&a));
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddChildGraphNode(&node, graph->cu, a.cu_deps, ndeps, child->cu);
  return add_finish(&a, e, "cudaGraphAddChildGraphNode", node, JET_GRAPH_NODE_CHILD_GRAPH, NULL);
}

static jet_status need_pools(struct jet_context_s *ctx, const char *fn) {
  int pools = 0;
  JET__CUDA(cudaDeviceGetAttribute, (&pools, cudaDevAttrMemoryPoolsSupported, ctx->device));
  if (!pools)
    return jet__error_native(JET_STATUS_UNSUPPORTED, fn, "cudaDeviceGetAttribute", "", 0,
                             "allocate the memory before building the graph (jet_buffer_create) "
                             "and use its address in the nodes",
                             "device %d has no memory pools (cudaDevAttrMemoryPoolsSupported "
                             "is 0): graph memory nodes need them",
                             ctx->device);
  return JET_STATUS_OK;
}

jet_status jet_graph_add_mem_alloc(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                   size_t bytes, void **dptr, jet_graph_node *out) {
  if (dptr) *dptr = NULL;
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  JET__ARG(dptr, "dptr is NULL");
  JET__ARG(bytes > 0, "bytes is 0");
  JET__TRY(add_prepare(&a));
  jet_status st = need_pools(graph->h.ctx, __func__);
  if (st != JET_STATUS_OK) {
    add_done(&a);
    return st;
  }
  struct cudaMemAllocNodeParams mp;
  memset(&mp, 0, sizeof mp);
  mp.poolProps.allocType = cudaMemAllocationTypePinned;
  mp.poolProps.handleTypes = cudaMemHandleTypeNone;
  mp.poolProps.location.type = cudaMemLocationTypeDevice;
  mp.poolProps.location.id = graph->h.ctx->device;
  mp.bytesize = bytes;
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddMemAllocNode(&node, graph->cu, a.cu_deps, ndeps, &mp);
  if (e != cudaSuccess) {
    add_done(&a);
    return jet__cuda_error(e, __func__, "cudaGraphAddMemAllocNode", NULL,
                           "%s (asked for %zu bytes)", cudaGetErrorString(e), bytes);
  }
  *dptr = mp.dptr;
  return add_finish(&a, e, "cudaGraphAddMemAllocNode", node, JET_GRAPH_NODE_MEM_ALLOC, NULL);
}

jet_status jet_graph_add_mem_free(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                  void *dptr, jet_graph_node *out) {
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  JET__ARG(dptr, "dptr is NULL");
  JET__TRY(add_prepare(&a));
  cudaGraphNode_t node = NULL;
  cudaError_t e = cudaGraphAddMemFreeNode(&node, graph->cu, a.cu_deps, ndeps, dptr);
  return add_finish(&a, e, "cudaGraphAddMemFreeNode", node, JET_GRAPH_NODE_MEM_FREE, NULL);
}

/* ------------------------------------------------------------ conditional nodes */

#define COND_MIN_VERSION 12040

jet_status jet_graph_add_conditional(jet_graph graph, const jet_graph_node *deps, size_t ndeps,
                                     jet_graph_cond_type type, unsigned default_value,
                                     int device_sets_condition, jet_graph *body,
                                     uint64_t *cond_handle, jet_graph_node *out) {
  if (body) *body = NULL;
  if (cond_handle) *cond_handle = 0;
  adder a;
  JET__TRY(add_check(&a, graph, deps, ndeps, out, __func__));
  JET__ARG(body, "body is NULL");
  JET__ARG(type == JET_GRAPH_COND_IF || type == JET_GRAPH_COND_WHILE,
           "unknown conditional type %d", (int)type);
  JET__ARG(type != JET_GRAPH_COND_WHILE || !default_value || device_sets_condition,
           "a WHILE node with condition %u that no kernel sets would never end; pass "
           "device_sets_condition when a kernel calls cudaGraphSetConditional",
           default_value);
#if CUDART_VERSION < COND_MIN_VERSION
  (void)device_sets_condition;
  return jet__error(JET_STATUS_UNSUPPORTED, __func__,
                    "conditional nodes need CUDA 12.4; jetrt was built with CUDA runtime %d",
                    CUDART_VERSION);
#else
  int drv = 0;
  JET__CUDA(cudaDriverGetVersion, (&drv));
  if (drv < COND_MIN_VERSION)
    return jet__error_native(JET_STATUS_UNSUPPORTED, __func__, "cudaDriverGetVersion", "", 0,
                             "update the NVIDIA driver (on Jetson: the JetPack release)",
                             "conditional nodes need a CUDA 12.4 driver; this driver is CUDA "
                             "%d.%d (runtime %d)",
                             drv / 1000, drv % 1000 / 10, CUDART_VERSION);
  struct jet_graph_s *b = jet__graph_alloc();
  struct jet_graph_s **bodies = realloc(graph->bodies, (size_t)(graph->nbodies + 1) * sizeof *bodies);
  if (bodies) graph->bodies = bodies;
  if (!b || !bodies) {
    free(b);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a body graph");
  }
  jet_status st = add_prepare(&a);
  if (st != JET_STATUS_OK) {
    free(b);
    return st;
  }
  cudaGraphConditionalHandle h = 0;
  cudaError_t e = cudaGraphConditionalHandleCreate(&h, graph->cu, default_value,
                                                   cudaGraphCondAssignDefault);
  if (e != cudaSuccess) {
    add_done(&a);
    free(b);
    return jet__cuda_error(e, __func__, "cudaGraphConditionalHandleCreate", NULL, NULL);
  }
  struct cudaGraphNodeParams np;
  memset(&np, 0, sizeof np);
  np.type = cudaGraphNodeTypeConditional;
  np.conditional.handle = h;
  np.conditional.type = type == JET_GRAPH_COND_IF ? cudaGraphCondTypeIf : cudaGraphCondTypeWhile;
  np.conditional.size = 1;
  cudaGraphNode_t node = NULL;
  e = ADD_NODE(&node, graph->cu, a.cu_deps, ndeps, &np);
  if (e != cudaSuccess || !np.conditional.phGraph_out || !np.conditional.phGraph_out[0]) {
    add_done(&a);
    free(b);
    if (e == cudaSuccess) {
      (void)cudaGraphDestroyNode(node);
      return jet__error(JET_STATUS_INTERNAL, __func__, "cudaGraphAddNode gave no body graph");
    }
    return jet__cuda_error(e, __func__, "cudaGraphAddNode", NULL, NULL);
  }
  b->cu = np.conditional.phGraph_out[0];
  b->parent = graph;
  st = jet__handle_register(&b->h, JET__H_GRAPH, graph->h.ctx, __func__);
  if (st != JET_STATUS_OK) {
    add_done(&a);
    (void)cudaGraphDestroyNode(node);
    free(b);
    return st;
  }
  graph->bodies[graph->nbodies++] = b;
  *body = b;
  if (cond_handle) *cond_handle = (uint64_t)h;
  return add_finish(&a, cudaSuccess, "cudaGraphAddNode", node, JET_GRAPH_NODE_CONDITIONAL, NULL);
#endif
}

/* ------------------------------------------------------------ edges, removal, clone */

jet_status jet_graph_add_dependencies(jet_graph graph, const jet_graph_node *from,
                                      const jet_graph_node *to, size_t n) {
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__TRY(check_nodes(graph, from, n, "from", __func__));
  JET__TRY(check_nodes(graph, to, n, "to", __func__));
  for (size_t i = 0; i < n; i++)
    JET__ARG(from[i] != to[i], "edge %zu: node %u cannot depend on itself", i,
             (unsigned)from[i]);
  if (!n) return JET_STATUS_OK;
  size_t bytes;
  if (!jet__mul_ok(n, 2 * sizeof(cudaGraphNode_t), &bytes))
    return jet__error(JET_STATUS_OVERFLOW, __func__, "%zu edges", n);
  cudaGraphNode_t *cf = malloc(bytes);
  if (!cf) return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for %zu edges", n);
  cudaGraphNode_t *ct = cf + n;
  for (size_t i = 0; i < n; i++) {
    cf[i] = graph->nodes[from[i]].cu;
    ct[i] = graph->nodes[to[i]].cu;
  }
  jet_status st = jet__ctx_activate(graph->h.ctx, __func__);
  if (st == JET_STATUS_OK) {
    cudaError_t e = ADD_DEPENDENCIES(graph->cu, cf, ct, n);
    if (e != cudaSuccess) st = jet__cuda_error(e, __func__, "cudaGraphAddDependencies", NULL, NULL);
  }
  free(cf);
  return st;
}

jet_status jet_graph_remove_node(jet_graph graph, jet_graph_node node) {
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__TRY(jet__graph_node_check(graph, node, __func__, "node"));
  const struct jet_graph_s *top = graph;
  while (top->parent) top = top->parent;
  int execs = atomic_load(&top->execs);
  if (execs)
    return jet__error(JET_STATUS_INVALID_STATE, __func__,
                      "%d executable graph(s) made from this graph still live and may update "
                      "node %u; destroy them first, or remove the node from a clone",
                      execs, (unsigned)node);
  JET__ARG(graph->nodes[node].type != JET_GRAPH_NODE_CONDITIONAL,
           "node %u is a conditional node; jetrt keeps its body until the graph goes",
           (unsigned)node);
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  JET__CUDA(cudaGraphDestroyNode, (graph->nodes[node].cu));
  graph->nodes[node].cu = NULL;
  graph->nodes[node].kernel = NULL;
  return JET_STATUS_OK;
}

jet_status jet_graph_clone(jet_graph graph, jet_graph *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__ARG(!graph->parent, "the graph is the body of a conditional node");
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  struct jet_graph_s *c = jet__graph_alloc();
  jet__gnode *nodes = graph->count ? calloc(graph->count, sizeof *nodes) : NULL;
  if (!c || (graph->count && !nodes)) {
    free(c);
    free(nodes);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a graph");
  }
  cudaGraph_t cu = NULL;
  cudaError_t e = cudaGraphClone(&cu, graph->cu);
  for (uint32_t i = 0; e == cudaSuccess && i < graph->count; i++) {
    nodes[i] = graph->nodes[i];
    if (graph->nodes[i].cu) e = cudaGraphNodeFindInClone(&nodes[i].cu, graph->nodes[i].cu, cu);
  }
  if (e != cudaSuccess) {
    if (cu) (void)cudaGraphDestroy(cu);
    free(c);
    free(nodes);
    return jet__cuda_error(e, __func__, "cudaGraphClone",
                           graph->nbodies ? "CUDA cannot clone graphs with conditional nodes"
                                          : NULL,
                           NULL);
  }
  c->cu = cu;
  c->nodes = nodes;
  c->count = c->cap = graph->count;
  jet_status st = jet__handle_register(&c->h, JET__H_GRAPH, graph->h.ctx, __func__);
  if (st != JET_STATUS_OK) {
    (void)cudaGraphDestroy(cu);
    free(nodes);
    free(c);
    return st;
  }
  *out = c;
  return JET_STATUS_OK;
}

/* ------------------------------------------------------------ queries */

static jet_status list_check(jet_graph_node *nodes, size_t capacity, size_t *count,
                             const char *fn) {
  if (count) *count = 0;
  if (!count) return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "count is NULL");
  if (capacity && !nodes)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "nodes is NULL but capacity is %zu",
                      capacity);
  return JET_STATUS_OK;
}

jet_status jet_graph_node_count(jet_graph graph, size_t *count) {
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__ARG(count, "count is NULL");
  size_t n = 0;
  for (uint32_t i = 0; i < graph->count; i++) n += graph->nodes[i].cu != NULL;
  *count = n;
  return JET_STATUS_OK;
}

jet_status jet_graph_nodes(jet_graph graph, jet_graph_node *nodes, size_t capacity,
                           size_t *count) {
  JET__TRY(list_check(nodes, capacity, count, __func__));
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  size_t n = 0;
  for (uint32_t i = 0; i < graph->count; i++)
    if (graph->nodes[i].cu) {
      if (n < capacity) nodes[n] = i;
      n++;
    }
  *count = n;
  return JET_STATUS_OK;
}

typedef enum list_kind { LIST_ROOTS, LIST_DEPS, LIST_DEPENDENTS } list_kind;

/* Ask CUDA for a node list and give it back as indexes of @g. */
static jet_status list_nodes(jet_graph g, list_kind kind, jet_graph_node node,
                             jet_graph_node *nodes, size_t capacity, size_t *count,
                             const char *fn) {
  JET__TRY(list_check(nodes, capacity, count, fn));
  JET__TRY(jet__handle_check(g, JET__H_GRAPH, fn, "graph"));
  if (kind != LIST_ROOTS) JET__TRY(jet__graph_node_check(g, node, fn, "node"));
  JET__TRY(jet__ctx_activate(g->h.ctx, fn));
  cudaGraphNode_t cn = kind == LIST_ROOTS ? NULL : g->nodes[node].cu;
  const char *call = kind == LIST_ROOTS  ? "cudaGraphGetRootNodes"
                     : kind == LIST_DEPS ? "cudaGraphNodeGetDependencies"
                                         : "cudaGraphNodeGetDependentNodes";
  cudaGraphNode_t *list = NULL;
  size_t n = 0;
  cudaError_t e = cudaSuccess;
  /* First the size, then the list. */
  for (int pass = 0; pass < 2; pass++) {
    e = kind == LIST_ROOTS  ? cudaGraphGetRootNodes(g->cu, list, &n)
        : kind == LIST_DEPS ? NODE_DEPENDENCIES(cn, list, &n)
                            : NODE_DEPENDENTS(cn, list, &n);
    if (e != cudaSuccess || pass == 1 || n == 0) break;
    list = calloc(n, sizeof *list);
    if (!list) return jet__error(JET_STATUS_OUT_OF_MEMORY, fn, "no host memory for %zu nodes", n);
  }
  if (e != cudaSuccess) {
    free(list);
    return jet__cuda_error(e, fn, call, NULL, NULL);
  }
  size_t w = 0;
  for (size_t i = 0; i < n && list; i++) {
    jet_graph_node idx = jet__graph_find(g, list[i]);
    if (idx == JET_GRAPH_NODE_NONE) continue; /* made through the native handle */
    if (w < capacity) nodes[w] = idx;
    w++;
  }
  free(list);
  *count = w;
  return JET_STATUS_OK;
}

jet_status jet_graph_root_nodes(jet_graph graph, jet_graph_node *nodes, size_t capacity,
                                size_t *count) {
  return list_nodes(graph, LIST_ROOTS, 0, nodes, capacity, count, __func__);
}

jet_status jet_graph_node_dependencies(jet_graph graph, jet_graph_node node,
                                       jet_graph_node *nodes, size_t capacity, size_t *count) {
  return list_nodes(graph, LIST_DEPS, node, nodes, capacity, count, __func__);
}

jet_status jet_graph_node_dependents(jet_graph graph, jet_graph_node node, jet_graph_node *nodes,
                                     size_t capacity, size_t *count) {
  return list_nodes(graph, LIST_DEPENDENTS, node, nodes, capacity, count, __func__);
}

jet_status jet_graph_node_get_type(jet_graph graph, jet_graph_node node,
                                   jet_graph_node_type *type) {
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__ARG(type, "type is NULL");
  JET__TRY(jet__graph_node_check(graph, node, __func__, "node"));
  *type = (jet_graph_node_type)graph->nodes[node].type;
  return JET_STATUS_OK;
}

jet_status jet_graph_write_dot(jet_graph graph, const char *path, int verbose) {
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__ARG(path && path[0], "path is NULL or empty");
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  cudaError_t e = cudaGraphDebugDotPrint(graph->cu, path,
                                         verbose ? (unsigned)cudaGraphDebugDotFlagsVerbose : 0u);
  if (e == cudaSuccess) return JET_STATUS_OK;
  if (e == cudaErrorOperatingSystem || e == cudaErrorInvalidValue) {
    (void)cudaGetLastError();
    return jet__error_native(JET_STATUS_IO_ERROR, __func__, "cudaGraphDebugDotPrint",
                             cudaGetErrorName(e), (int)e,
                             "check that the folder exists and is writable",
                             "cannot write '%s': %s", path, cudaGetErrorString(e));
  }
  return jet__cuda_error(e, __func__, "cudaGraphDebugDotPrint", NULL, "'%s': %s", path,
                         cudaGetErrorString(e));
}

/* ------------------------------------------------------------ node attributes */

/* @node as a kernel node that can take an L2 window, the context current. */
static jet_status window_node(jet_graph g, jet_graph_node node, const char *fn) {
  JET__TRY(jet__handle_check(g, JET__H_GRAPH, fn, "graph"));
  JET__TRY(jet__graph_node_check(g, node, fn, "node"));
  if (g->nodes[node].type != JET_GRAPH_NODE_KERNEL)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "node %u is not a kernel node",
                      (unsigned)node);
  JET__TRY(jet__l2_require(g->h.ctx, fn));
  return jet__ctx_activate(g->h.ctx, fn);
}

jet_status jet_graph_kernel_set_access_policy(jet_graph graph, jet_graph_node node,
                                              const jet_access_policy *policy) {
  JET__ARG(policy, "policy is NULL");
  JET__TRY(window_node(graph, node, __func__));
  cudaKernelNodeAttrValue v;
  memset(&v, 0, sizeof v);
  JET__TRY(jet__access_policy_native(policy, graph->h.ctx->device, &v.accessPolicyWindow,
                                     __func__));
  cudaError_t e = cudaGraphKernelNodeSetAttribute(
      graph->nodes[node].cu, cudaKernelNodeAttributeAccessPolicyWindow, &v);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphKernelNodeSetAttribute", NULL,
                           "node %u: window %p + %zu bytes, hit ratio %g", (unsigned)node,
                           policy->base, policy->bytes, (double)policy->hit_ratio);
  return JET_STATUS_OK;
}

jet_status jet_graph_kernel_access_policy(jet_graph graph, jet_graph_node node,
                                          jet_access_policy *policy) {
  JET__ARG(policy, "policy is NULL");
  memset(policy, 0, sizeof *policy);
  JET__TRY(window_node(graph, node, __func__));
  cudaKernelNodeAttrValue v;
  memset(&v, 0, sizeof v);
  cudaError_t e = cudaGraphKernelNodeGetAttribute(
      graph->nodes[node].cu, cudaKernelNodeAttributeAccessPolicyWindow, &v);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphKernelNodeGetAttribute", NULL, "node %u",
                           (unsigned)node);
  policy->base = v.accessPolicyWindow.base_ptr;
  policy->bytes = v.accessPolicyWindow.num_bytes;
  policy->hit_ratio = v.accessPolicyWindow.hitRatio;
  policy->hit = (jet_access_property)v.accessPolicyWindow.hitProp;
  policy->miss = (jet_access_property)v.accessPolicyWindow.missProp;
  return JET_STATUS_OK;
}

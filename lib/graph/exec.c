/*
 * Per-node updates of executable graphs, and enabling/disabling nodes.
 */
#include <string.h>

#include "graph_internal.h"
#include "../memory/memory_internal.h"

/* The node @node of @exec's table, checked to be of @type (any when < 0). */
static jet_status exec_node(jet_graph_exec exec, jet_graph_node node, int type,
                            const jet__gnode **out, const char *fn) {
  JET__TRY(jet__handle_check(exec, JET__H_GRAPH_EXEC, fn, "exec"));
  if (node >= exec->count || !exec->nodes[node].cu)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "node %u was not a node of the graph when the executable graph was made "
                      "(%u node indexes then)",
                      (unsigned)node, (unsigned)exec->count);
  const jet__gnode *n = &exec->nodes[node];
  if (type >= 0 && n->type != type)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn, "node %u is of type %d, not %d",
                      (unsigned)node, n->type, type);
  *out = n;
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_set_kernel(jet_graph_exec exec, jet_graph_node node, jet_dim3 grid,
                                     jet_dim3 block, size_t shared_bytes, void **args) {
  const jet__gnode *n = NULL;
  JET__TRY(exec_node(exec, node, JET_GRAPH_NODE_KERNEL, &n, __func__));
  if (!n->kernel)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, __func__,
                      "kernel node %u was captured, not made by jet_graph_add_kernel: jetrt does "
                      "not know its parameters; capture again and use jet_graph_exec_update",
                      (unsigned)node);
  JET__TRY(jet__handle_check(n->kernel, JET__H_KERNEL, __func__, "the node's kernel (its module "
                                                                 "was unloaded?)"));
  JET__TRY(jet__launch_check(n->kernel, grid, block, shared_bytes, args, __func__));
  const jet__driver_api *api;
  JET__TRY(jet__driver(&api, __func__));
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  jet__kernel_desc kd;
  jet__kernel_describe(n->kernel, &kd);
  CUDA_KERNEL_NODE_PARAMS p;
  jet__graph_kernel_params(&kd, grid, block, shared_bytes, args, &p);
  CUresult r = api->cuGraphExecKernelNodeSetParams((CUgraphExec)exec->cu, (CUgraphNode)n->cu, &p);
  if (r != CUDA_SUCCESS)
    return jet__cu_error(r, __func__, "cuGraphExecKernelNodeSetParams", NULL,
                         "node %u, kernel '%s', grid (%u, %u, %u), block (%u, %u, %u)",
                         (unsigned)node, kd.name, grid.x, grid.y, grid.z, block.x, block.y,
                         block.z);
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_set_memcpy_3d(jet_graph_exec exec, jet_graph_node node,
                                        const jet_copy_3d *p) {
  const jet__gnode *n = NULL;
  JET__TRY(exec_node(exec, node, JET_GRAPH_NODE_MEMCPY, &n, __func__));
  struct cudaMemcpy3DParms m;
  JET__TRY(jet__copy_3d_params(p, &m, __func__));
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  cudaError_t e = cudaGraphExecMemcpyNodeSetParams(exec->cu, n->cu, &m);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphExecMemcpyNodeSetParams",
                           "a copy node keeps its kind of memory and its device: to change "
                           "those, build a new graph",
                           "node %u: %s", (unsigned)node, cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_set_memcpy(jet_graph_exec exec, jet_graph_node node, void *dst,
                                     const void *src, size_t bytes) {
  jet_copy_3d c = jet__copy_2d_as_3d(dst, bytes, src, bytes, bytes, 1);
  return jet_graph_exec_set_memcpy_3d(exec, node, &c);
}

jet_status jet_graph_exec_set_memset(jet_graph_exec exec, jet_graph_node node,
                                     const jet_graph_memset *p) {
  const jet__gnode *n = NULL;
  JET__TRY(exec_node(exec, node, JET_GRAPH_NODE_MEMSET, &n, __func__));
  struct cudaMemsetParams m;
  JET__TRY(jet__graph_memset_params(p, &m, __func__));
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  cudaError_t e = cudaGraphExecMemsetNodeSetParams(exec->cu, n->cu, &m);
  if (e != cudaSuccess)
    return jet__cuda_error(e, __func__, "cudaGraphExecMemsetNodeSetParams",
                           "a memset node keeps its device", "node %u: %s", (unsigned)node,
                           cudaGetErrorString(e));
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_set_host(jet_graph_exec exec, jet_graph_node node,
                                   jet_stream_callback fn, void *user) {
  const jet__gnode *n = NULL;
  JET__TRY(exec_node(exec, node, JET_GRAPH_NODE_HOST, &n, __func__));
  JET__ARG(fn, "fn is NULL");
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  struct cudaHostNodeParams hp;
  hp.fn = (cudaHostFn_t)fn;
  hp.userData = user;
  JET__CUDA(cudaGraphExecHostNodeSetParams, (exec->cu, n->cu, &hp));
  return JET_STATUS_OK;
}

static jet_status toggle_check(const jet__gnode *n, jet_graph_node node, const char *fn) {
  if (n->type != JET_GRAPH_NODE_KERNEL && n->type != JET_GRAPH_NODE_MEMCPY &&
      n->type != JET_GRAPH_NODE_MEMSET)
    return jet__error(JET_STATUS_INVALID_ARGUMENT, fn,
                      "node %u is of type %d: only kernel, memcpy and memset nodes can be "
                      "enabled or disabled",
                      (unsigned)node, n->type);
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_set_enabled(jet_graph_exec exec, jet_graph_node node, int enabled) {
  const jet__gnode *n = NULL;
  JET__TRY(exec_node(exec, node, -1, &n, __func__));
  JET__TRY(toggle_check(n, node, __func__));
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  JET__CUDA(cudaGraphNodeSetEnabled, (exec->cu, n->cu, enabled ? 1u : 0u));
  return JET_STATUS_OK;
}

jet_status jet_graph_exec_get_enabled(jet_graph_exec exec, jet_graph_node node, int *enabled) {
  const jet__gnode *n = NULL;
  JET__TRY(exec_node(exec, node, -1, &n, __func__));
  JET__ARG(enabled, "enabled is NULL");
  JET__TRY(toggle_check(n, node, __func__));
  JET__TRY(jet__ctx_activate(exec->h.ctx, __func__));
  unsigned on = 0;
  JET__CUDA(cudaGraphNodeGetEnabled, (exec->cu, n->cu, &on));
  *enabled = on ? 1 : 0;
  return JET_STATUS_OK;
}

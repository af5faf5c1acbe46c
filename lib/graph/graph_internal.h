/*
 * Internal definitions of lib/graph: graphs (captured or built node by node),
 * their node tables, and executable graphs.
 */
#ifndef JET_GRAPH_INTERNAL_H
#define JET_GRAPH_INTERNAL_H

#include "internal.h"
#include "../stream/stream_internal.h"

/* One entry of a graph's node table; a jet_graph_node is its index. */
typedef struct jet__gnode {
  cudaGraphNode_t cu; /* NULL: removed (the index is never reused) */
  int type;           /* jet_graph_node_type */
  jet_kernel kernel;  /* kernel nodes made by jet_graph_add_kernel; NULL otherwise */
} jet__gnode;

struct jet_graph_s {
  jet__handle h;
  cudaGraph_t cu;
  jet__gnode *nodes;
  uint32_t count; /* indexes handed out, removed ones included */
  uint32_t cap;
  /* The handle and each executable graph instantiated from it: per-node
   * updates of an executable graph name nodes of this graph, so CUDA's graph
   * stays until the last of them goes (jet__graph_release). */
  atomic_int refs;
  atomic_int execs; /* live executable graphs made from it (node removal refused) */
  /* Conditional bodies: graphs owned by a conditional node of this graph. A
   * body has a parent, is not destroyed by the user and goes with its parent. */
  struct jet_graph_s *parent;
  struct jet_graph_s **bodies;
  int nbodies;
};

struct jet_graph_exec_s {
  jet__handle h;
  cudaGraphExec_t cu;
  struct jet_graph_s *graph; /* the graph it was instantiated from (a reference) */
  jet__gnode *nodes;         /* that graph's node table when instantiated */
  uint32_t count;
};

/* A zeroed graph with one reference, not registered yet; NULL without memory. */
struct jet_graph_s *jet__graph_alloc(void);

/* Make @g (from jet__graph_alloc) a jet_graph of @ctx over @cu, its node table
 * filled from cudaGraphGetNodes. @cu and @g are owned from here: on failure
 * both are destroyed. The device must be current. */
jet_status jet__graph_adopt(struct jet_graph_s *g, struct jet_context_s *ctx, cudaGraph_t cu,
                            jet_graph *out, const char *fn);

/* Drop one reference; the last one destroys the CUDA graph, its bodies and
 * the tables. Returns the cudaGraphDestroy failure, if any. */
cudaError_t jet__graph_release(struct jet_graph_s *g);

/* The index of @cu in @g's table, or JET_GRAPH_NODE_NONE. */
jet_graph_node jet__graph_find(const struct jet_graph_s *g, cudaGraphNode_t cu);

/* OK when @node names a live node of @g; INVALID_ARGUMENT naming @what otherwise. */
jet_status jet__graph_node_check(const struct jet_graph_s *g, jet_graph_node node,
                                 const char *fn, const char *what);

/* Check @p and fill CUDA's memset parameters (graph memset nodes). */
jet_status jet__graph_memset_params(const jet_graph_memset *p, struct cudaMemsetParams *out,
                                    const char *fn);

/* CUDA's kernel node parameters for @kd's function (kernel nodes are made and
 * updated through the driver API: jet_kernel is a CUfunction). */
void jet__graph_kernel_params(const jet__kernel_desc *kd, jet_dim3 grid, jet_dim3 block,
                              size_t shared_bytes, void **args, CUDA_KERNEL_NODE_PARAMS *p);

#endif /* JET_GRAPH_INTERNAL_H */

/*
 * User objects: a destructor CUDA calls once the last reference to the object
 * is gone, references held by the caller, graphs and executable graphs.
 */
#include <limits.h>
#include <stdlib.h>

#include "graph_internal.h"

struct jet_user_object_s {
  jet__handle h;
  cudaUserObject_t cu;
  unsigned refs; /* the caller's references */
};

/* What CUDA's destructor gets: freed by it, so it outlives the handle. */
typedef struct destructor {
  jet_user_object_destroy_fn fn;
  void *user;
} destructor;

static void CUDART_CB run_destructor(void *p) {
  destructor *d = p;
  d->fn(d->user);
  free(d);
}

jet_status jet_user_object_create(jet_context ctx, jet_user_object_destroy_fn destroy, void *user,
                                  jet_user_object *out) {
  JET__ARG(out, "out is NULL");
  *out = NULL;
  JET__ARG(destroy, "destroy is NULL");
  JET__TRY(jet__ctx_enter(ctx, __func__));
  struct jet_user_object_s *o = calloc(1, sizeof *o);
  destructor *d = malloc(sizeof *d);
  if (!o || !d) {
    free(o);
    free(d);
    return jet__error(JET_STATUS_OUT_OF_MEMORY, __func__, "no host memory for a user object");
  }
  d->fn = destroy;
  d->user = user;
  /* Registered first: once CUDA has the object, only a release undoes it, and
   * that runs the user's destructor. */
  jet_status st = jet__handle_register(&o->h, JET__H_USER_OBJECT, ctx, __func__);
  if (st != JET_STATUS_OK) {
    free(o);
    free(d);
    return st;
  }
  cudaError_t e = cudaUserObjectCreate(&o->cu, d, run_destructor, 1,
                                       cudaUserObjectNoDestructorSync);
  if (e != cudaSuccess) {
    jet__handle_unregister(&o->h);
    free(o);
    free(d);
    return jet__cuda_error(e, __func__, "cudaUserObjectCreate", NULL, NULL);
  }
  o->refs = 1;
  *out = o;
  return JET_STATUS_OK;
}

jet_status jet_user_object_retain(jet_user_object obj, unsigned count) {
  JET__TRY(jet__handle_check(obj, JET__H_USER_OBJECT, __func__, "obj"));
  JET__ARG(count > 0, "count is 0");
  JET__ARG(count <= INT_MAX - obj->refs, "count %u on top of %u references overflows", count,
           obj->refs);
  JET__TRY(jet__ctx_activate(obj->h.ctx, __func__));
  JET__CUDA(cudaUserObjectRetain, (obj->cu, count));
  obj->refs += count;
  return JET_STATUS_OK;
}

/* The caller gave up @count references (released or moved): the handle goes
 * with the last. */
static void dropped(jet_user_object obj, unsigned count) {
  obj->refs -= count;
  if (obj->refs == 0) {
    jet__handle_unregister(&obj->h);
    free(obj);
  }
}

jet_status jet_user_object_release(jet_user_object obj, unsigned count) {
  if (!obj) return JET_STATUS_OK;
  JET__TRY(jet__handle_check(obj, JET__H_USER_OBJECT, __func__, "obj"));
  JET__ARG(count > 0 && count <= obj->refs, "count %u, but the caller holds %u reference(s)",
           count, obj->refs);
  JET__TRY(jet__ctx_activate(obj->h.ctx, __func__));
  JET__CUDA(cudaUserObjectRelease, (obj->cu, count));
  dropped(obj, count);
  return JET_STATUS_OK;
}

jet_status jet_graph_retain_user_object(jet_graph graph, jet_user_object obj, unsigned count,
                                        int move) {
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__TRY(jet__handle_check_in(obj, JET__H_USER_OBJECT, graph->h.ctx, __func__, "obj"));
  JET__ARG(count > 0, "count is 0");
  JET__ARG(!move || count <= obj->refs, "moving %u reference(s), but the caller holds %u", count,
           obj->refs);
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  JET__CUDA(cudaGraphRetainUserObject,
            (graph->cu, obj->cu, count, move ? (unsigned)cudaGraphUserObjectMove : 0u));
  if (move) dropped(obj, count);
  return JET_STATUS_OK;
}

jet_status jet_graph_release_user_object(jet_graph graph, jet_user_object obj, unsigned count) {
  JET__TRY(jet__handle_check(graph, JET__H_GRAPH, __func__, "graph"));
  JET__TRY(jet__handle_check_in(obj, JET__H_USER_OBJECT, graph->h.ctx, __func__, "obj"));
  JET__ARG(count > 0, "count is 0");
  JET__TRY(jet__ctx_activate(graph->h.ctx, __func__));
  JET__CUDA(cudaGraphReleaseUserObject, (graph->cu, obj->cu, count));
  return JET_STATUS_OK;
}

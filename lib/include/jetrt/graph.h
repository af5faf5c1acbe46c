/* jetrt/graph.h - placeholder, being written. */
#ifndef JETRT_GRAPH_H
#define JETRT_GRAPH_H
#include "context.h"
#endif

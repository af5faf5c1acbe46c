/* jetrt/reduce.h - placeholder, being written. */
#ifndef JETRT_REDUCE_H
#define JETRT_REDUCE_H
#include "image.h"
#include "stream.h"
#endif

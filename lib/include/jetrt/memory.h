/* jetrt/memory.h - placeholder, being written. */
#ifndef JETRT_MEMORY_H
#define JETRT_MEMORY_H
#include "context.h"
#endif

/* jetrt/shared.h - placeholder, being written. */
#ifndef JETRT_SHARED_H
#define JETRT_SHARED_H
#include "context.h"
#endif

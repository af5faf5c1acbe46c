/* jetrt/stream.h - placeholder, being written. */
#ifndef JETRT_STREAM_H
#define JETRT_STREAM_H
#include "context.h"
#endif

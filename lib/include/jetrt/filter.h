/* jetrt/filter.h - placeholder, being written. */
#ifndef JETRT_FILTER_H
#define JETRT_FILTER_H
#include "image.h"
#include "stream.h"
#endif

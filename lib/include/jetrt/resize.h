/* jetrt/resize.h - placeholder, being written. */
#ifndef JETRT_RESIZE_H
#define JETRT_RESIZE_H
#include "image.h"
#include "stream.h"
#endif

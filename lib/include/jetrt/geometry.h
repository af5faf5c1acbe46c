/* jetrt/geometry.h - placeholder, being written. */
#ifndef JETRT_GEOMETRY_H
#define JETRT_GEOMETRY_H
#include "image.h"
#include "stream.h"
#endif

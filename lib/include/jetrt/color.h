/* jetrt/color.h - placeholder, being written. */
#ifndef JETRT_COLOR_H
#define JETRT_COLOR_H
#include "image.h"
#include "stream.h"
#endif

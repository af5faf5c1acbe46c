/* jetrt/dnn.h - placeholder, being written. */
#ifndef JETRT_DNN_H
#define JETRT_DNN_H
#include "image.h"
#include "stream.h"
#endif

/*
 * jetrt.h - the umbrella header: include this one.
 *
 * jetrt wraps the CUDA runtime for NVIDIA Jetson (Tegra) and desktop GPUs in one
 * C API. Each area has its own header under jetrt/; see each for the details.
 *
 * Conventions, everywhere:
 *  - Functions return jet_status; JET_STATUS_OK is 0. The failure's detail is in
 *    jet_last_error() on the calling thread.
 *  - Objects are opaque handles made by jet_X_create and released by
 *    jet_X_destroy; destroy accepts NULL.
 *  - jetrt never prints, exits or aborts. Output goes only to the optional log
 *    callback (jet_set_log_callback).
 */
#ifndef JETRT_H
#define JETRT_H

#include "jetrt/version.h"
#include "jetrt/status.h"
#include "jetrt/context.h"
#include "jetrt/memory.h"
#include "jetrt/shared.h"
#include "jetrt/stream.h"
#include "jetrt/graph.h"
#include "jetrt/module.h"
#include "jetrt/image.h"
#include "jetrt/color.h"
#include "jetrt/resize.h"
#include "jetrt/filter.h"
#include "jetrt/geometry.h"
#include "jetrt/reduce.h"
#include "jetrt/dnn.h"
#include "jetrt/egl.h"
#include "jetrt/gl.h"
#include "jetrt/display.h"
#include "jetrt/ipc.h"
#include "jetrt/channel.h"
#include "jetrt/ring.h"
#include "jetrt/texture.h"
#include "jetrt/l2.h"
#include "jetrt/native.h"
#include "jetrt/pool.h"
#include "jetrt/vmm.h"
#include "jetrt/peer.h"
#include "jetrt/external.h"

#endif /* JETRT_H */

/*
 * The driver API entry points jetrt uses, one line each:
 * JET__DRIVER_SYM(name, cuda version introducing this ABI, return type, parameters).
 * Add a line here to make a symbol available as jet__driver_api.name.
 */
#ifndef JET_DRIVER_SYMS_H
#define JET_DRIVER_SYMS_H

#define JET__DRIVER_SYMS(X)                                                                 \
  X(cuGetErrorName, 6000, CUresult, (CUresult, const char **))                             \
  X(cuGetErrorString, 6000, CUresult, (CUresult, const char **))                           \
  X(cuDeviceGet, 2000, CUresult, (CUdevice *, int))                                        \
  X(cuDeviceGetAttribute, 2000, CUresult, (int *, CUdevice_attribute, CUdevice))          \
  X(cuDeviceTotalMem, 3020, CUresult, (size_t *, CUdevice))                                \
  X(cuDeviceGetName, 2000, CUresult, (char *, int, CUdevice))                              \
  X(cuModuleLoadDataEx, 2010, CUresult,                                                    \
    (CUmodule *, const void *, unsigned int, CUjit_option *, void **))                     \
  X(cuModuleUnload, 2000, CUresult, (CUmodule))                                            \
  X(cuModuleGetFunction, 2000, CUresult, (CUfunction *, CUmodule, const char *))           \
  X(cuFuncGetAttribute, 2020, CUresult, (int *, CUfunction_attribute, CUfunction))         \
  X(cuFuncGetParamInfo, 12040, CUresult, (CUfunction, size_t, size_t *, size_t *))         \
  X(cuLaunchKernel, 4000, CUresult,                                                        \
    (CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,     \
     unsigned int, unsigned int, CUstream, void **, void **))                              \
  X(cuOccupancyMaxPotentialBlockSize, 6050, CUresult,                                      \
    (int *, int *, CUfunction, CUoccupancyB2DSize, size_t, int))                           \
  X(cuDeviceGetUuid, 11040, CUresult, (CUuuid *, CUdevice))                                \
  X(cuMemGetAddressRange, 3020, CUresult, (CUdeviceptr *, size_t *, CUdeviceptr))          \
  /* virtual memory management (lib/memory/vmm.c) */                                       \
  X(cuMemGetAllocationGranularity, 10020, CUresult,                                        \
    (size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags))             \
  X(cuMemCreate, 10020, CUresult,                                                          \
    (CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long)) \
  X(cuMemRelease, 10020, CUresult, (CUmemGenericAllocationHandle))                         \
  X(cuMemAddressReserve, 10020, CUresult,                                                  \
    (CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long))                      \
  X(cuMemAddressFree, 10020, CUresult, (CUdeviceptr, size_t))                              \
  X(cuMemMap, 10020, CUresult,                                                             \
    (CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long))       \
  X(cuMemUnmap, 10020, CUresult, (CUdeviceptr, size_t))                                    \
  X(cuMemSetAccess, 10020, CUresult, (CUdeviceptr, size_t, const CUmemAccessDesc *, size_t)) \
  X(cuMemRetainAllocationHandle, 11000, CUresult, (CUmemGenericAllocationHandle *, void *)) \
  X(cuMemExportToShareableHandle, 10020, CUresult,                                         \
    (void *, CUmemGenericAllocationHandle, CUmemAllocationHandleType, unsigned long long)) \
  X(cuMemImportFromShareableHandle, 10020, CUresult,                                       \
    (CUmemGenericAllocationHandle *, void *, CUmemAllocationHandleType))                   \
  /* module globals, extended launches, kernel attributes (lib/module) */                   \
  X(cuModuleGetGlobal, 3020, CUresult, (CUdeviceptr *, size_t *, CUmodule, const char *))  \
  X(cuFuncSetAttribute, 9000, CUresult, (CUfunction, CUfunction_attribute, int))           \
  X(cuLaunchKernelEx, 11060, CUresult, (const CUlaunchConfig *, CUfunction, void **, void **)) \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050, CUresult,                           \
    (int *, CUfunction, int, size_t))                                                      \
  X(cuOccupancyMaxActiveClusters, 11070, CUresult,                                         \
    (int *, CUfunction, const CUlaunchConfig *))                                           \
  /* native handles (lib/native) */                                                        \
  X(cuCtxGetCurrent, 4000, CUresult, (CUcontext *))                                        \
  X(cuCtxGetDevice, 2000, CUresult, (CUdevice *))                                          \
  X(cuStreamGetCtx, 9020, CUresult, (CUstream, CUcontext *))                               \
  /* graph kernel nodes from a CUfunction (lib/graph) */                                    \
  X(cuGraphAddKernelNode, 12000, CUresult,                                                 \
    (CUgraphNode *, CUgraph, const CUgraphNode *, size_t, const CUDA_KERNEL_NODE_PARAMS *))  \
  X(cuGraphExecKernelNodeSetParams, 12000, CUresult,                                       \
    (CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS *))                           \
  /* external memory through the driver: dma-buf, which the runtime has no type for        \
   * (lib/external/external.c) */                                                          \
  X(cuImportExternalMemory, 10000, CUresult,                                               \
    (CUexternalMemory *, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *))                        \
  X(cuExternalMemoryGetMappedBuffer, 10000, CUresult,                                      \
    (CUdeviceptr *, CUexternalMemory, const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *))           \
  X(cuDestroyExternalMemory, 10000, CUresult, (CUexternalMemory))                          \
  X(cuMemFree, 3020, CUresult, (CUdeviceptr))

#endif

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
  X(cuDeviceGetAttribute, 2000, CUresult, (int *, CUdevice_attribute, CUdevice))          \
  X(cuDeviceTotalMem, 3020, CUresult, (size_t *, CUdevice))                                \
  X(cuDeviceGetName, 2000, CUresult, (char *, int, CUdevice))

#endif

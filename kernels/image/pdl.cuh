/*
 * pdl.cuh - programmatic dependent launch (jet_stream_set_programmatic) for
 * the image kernels. Every image kernel calls jet_pdl_enter() before its first
 * global memory access. Launched with programmatic stream serialization, a
 * kernel may start while its predecessor on the stream still runs:
 * griddepcontrol.wait then blocks until that predecessor has completed and its
 * writes are visible. Launched normally, both instructions do nothing.
 * launch_dependents comes first so that the next kernel's blocks may be
 * scheduled as soon as every block of this one has started; they wait in turn.
 * Only SM 9.0 and newer have the instructions; lib/module launches with the
 * attribute only kernels from such images.
 */
#ifndef JET_KERNELS_IMAGE_PDL_CUH
#define JET_KERNELS_IMAGE_PDL_CUH

__device__ __forceinline__ void jet_pdl_enter() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

#endif /* JET_KERNELS_IMAGE_PDL_CUH */

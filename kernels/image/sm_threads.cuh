/*
 * sm_threads.cuh - JET_SM_THREADS, the most threads an SM of the architecture
 * being compiled holds, for the minimum block counts of __launch_bounds__ (a
 * count beyond it is out of range: ptxas warns and ignores it, leaving the
 * register count unbounded). 2048 on SM 8.0, 9.0, 10.0 and 10.3; 1024 on 7.5;
 * 1536 on the others (8.6, 8.7 Orin, 8.9, 11.0 Thor, 12.x). The host pass
 * sees 2048 (unused there).
 */
#ifndef JET_KERNELS_IMAGE_SM_THREADS_CUH
#define JET_KERNELS_IMAGE_SM_THREADS_CUH

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000 || \
    __CUDA_ARCH__ == 1030
#define JET_SM_THREADS 2048
#elif __CUDA_ARCH__ == 750
#define JET_SM_THREADS 1024
#else
#define JET_SM_THREADS 1536
#endif

#endif /* JET_KERNELS_IMAGE_SM_THREADS_CUH */

/* Step 1.2: privatization. Each block keeps its own copy of the bins in shared
 * memory, adds its elements there with shared-memory atomics, and merges its copy
 * into the global bins once at the end (one global atomic per non-empty bin per
 * block instead of one per element).
 *
 * A grid of as many blocks as the GPU holds at once walks the input with a
 * grid-stride loop, so each block's merge is paid for by many elements. Shared
 * atomics are done in the SM, close to the threads, instead of in the L2.
 * Still slow: lanes of a warp that hit the same shared bin are still serialized
 * (single, kwarp:1), and all the warps of a block contend on the block's one copy
 * of the bins.
 * Shared memory in a template: `extern __shared__ T bins[]` does not compile once
 * the template is instantiated for two types (the one extern array would get two
 * types). The kit declares one byte array, aligned for any T, and casts it.
 * Launch (lab1_smem.cuh): the budget counts the kernel's static shared memory and
 * the device's limits; lab1_smem_prepare opts in above the default limit and sizes
 * the grid with the occupancy API. When not even one copy fits (--bins 2^20: 4 MB
 * of counts) the launcher calls global-atomic's; the table's param column says
 * which path ran (smem-private=1: one copy; smem-private=global: the fallback).
 * Expect: about 95x global-atomic at 256 bins on uniform keys, and fastest on a
 * single key: shared atomics are cheap even when lanes collide (lecture 1, Step
 * 1.2's table). */
#include "lab1.h"
#include "lab1_smem.cuh"
#include "lab1_value.cuh"

enum { NT = LAB1_NT };

template <typename T>
__global__ void add_smem_private(const int *__restrict__ keys, const double *__restrict__ values,
                                 size_t n, int bins, T *out)
{
    // BEGIN SOLUTION (Step 1.2): extern __shared__ __align__(16) unsigned char smem_raw[]; T *mine = reinterpret_cast<T *>(smem_raw); zero mine[0..bins); barrier; grid-stride loop of shared atomicAdd(&mine[key], lab1_weight<T>(values, i)); barrier; merge the non-zero bins into `out` with global atomics
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *mine = reinterpret_cast<T *>(smem_raw);
    for (int b = threadIdx.x; b < bins; b += NT)
        mine[b] = 0;
    __syncthreads();
    size_t stride = (size_t)gridDim.x * NT;
    for (size_t i = (size_t)blockIdx.x * NT + threadIdx.x; i < n; i += stride)
        atomicAdd(&mine[keys[i]], lab1_weight<T>(values, i));
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += NT) {
        T v = mine[b];
        if (v != 0)
            atomicAdd(&out[b], v);
    }
    // END SOLUTION
}

/* One copy of the bins per block: the budget of the kernel for T. */
template <typename T> static int budget(const lab1_io *io, lab1_smem_budget *out)
{
    return lab1_smem_budget_of(add_smem_private<T>, io, sizeof(T), 1, out);
}

extern "C" int lab1_smem_private_budget(const lab1_io *io, lab1_op op, lab1_smem_budget *out)
{
    return op == LAB1_HISTOGRAM ? budget<int>(io, out) : budget<double>(io, out);
}

template <typename T> static int launch(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.2): budget<T>(io, &limits); lab1_smem_prepare(add_smem_private<T>, io, &limits, NT, blocks needed, 0, &setup); setup.plan.copies == 0: return lab1_global_atomic<T>(io, stream); else zero the bins (lab1_zero_bins<T>), n == 0: done, launch setup.grid blocks with setup.plan.bytes of dynamic shared memory
    lab1_smem_budget limits;
    lab1_smem_launch setup;
    if (int err = budget<T>(io, &limits))
        return err;
    if (int err = lab1_smem_prepare(add_smem_private<T>, io, &limits, NT, kit_div_up(io->n, NT), 0, &setup))
        return err;
    if (setup.plan.copies == 0)
        return lab1_global_atomic<T>(io, stream);
    if (int err = lab1_zero_bins<T>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    add_smem_private<T><<<setup.grid, NT, setup.plan.bytes, stream>>>(io->keys, io->values, io->n, io->bins,
                                                                        lab1_bins_of(io, (T *)0));
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io;
    // STUB: (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab1_smem_private_histogram(const lab1_io *io, cudaStream_t stream)
{
    return launch<int>(io, stream);
}

extern "C" int lab1_smem_private_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    return launch<double>(io, stream);
}

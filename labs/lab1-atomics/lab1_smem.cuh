/* lab1_smem.cuh: launching a kernel that keeps private copies of the bins in
 * dynamic shared memory (smem-private, Step 1.2; smem-warp, Step 1.5).
 *
 * Three facts decide such a launch, and none of them is a constant:
 *   - the budget: the device's per-block limits (lab1_io.smem_block, .smem_optin)
 *     minus the kernel's own static __shared__ bytes, which only
 *     cudaFuncGetAttributes knows (lab1_plan_smem in lab1.h turns it into copies);
 *   - the opt-in: above smem_block, cudaFuncSetAttribute(kernel,
 *     cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) before the launch;
 *   - the grid: a grid-stride kernel wants as many blocks as the GPU holds at once,
 *     and with kilobytes of shared memory per block that is fewer than the thread
 *     limit allows: cudaOccupancyMaxActiveBlocksPerMultiprocessor counts them. More
 *     blocks than that would run as a second, short wave. */
#ifndef LAB1_SMEM_CUH
#define LAB1_SMEM_CUH
#include "lab1.h"

/* The budget of `kernel` for bins of elem bytes, up to max_copies copies. */
template <typename Kernel>
inline int lab1_smem_budget_of(Kernel kernel, const lab1_io *io, size_t elem, int max_copies,
                               lab1_smem_budget *out)
{
    cudaFuncAttributes attr;
    if (int err = KIT_CHECK(cudaFuncGetAttributes(&attr, kernel)))
        return err;
    *out = lab1_smem_budget{ elem, max_copies, attr.sharedSizeBytes, io->smem_block, io->smem_optin };
    return 0;
}

/* How to launch a privatizing kernel: its plan, and its grid. */
typedef struct {
    lab1_smem_plan plan; /* plan.copies == 0: the bins do not fit, nothing was prepared */
    unsigned grid;
} lab1_smem_launch;

/* Plan the copies for io->bins, opt in when the plan says so, and size the grid:
 * enough blocks of `threads` for work_blocks (at least one), at most what the GPU
 * holds at once with plan.bytes each, and at most cap_per_sm per SM (0: no cap).
 * work_blocks: the blocks the input needs, rounded up, e.g. kit_div_up(n, threads)
 * for one element per thread (a partial last block is still a block). */
template <typename Kernel>
inline int lab1_smem_prepare(Kernel kernel, const lab1_io *io, const lab1_smem_budget *budget, int threads,
                             size_t work_blocks, int cap_per_sm, lab1_smem_launch *out)
{
    out->plan = lab1_plan_smem((size_t)io->bins, budget);
    out->grid = 0;
    if (out->plan.copies == 0)
        return 0;
    // TODO(Step 1.2): if plan.opt_in: cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)plan.bytes); per_sm = cudaOccupancyMaxActiveBlocksPerMultiprocessor(kernel, threads, plan.bytes), capped; grid = min(work_blocks, per_sm * io->sms), at least 1 (about 14 lines)
    (void)kernel;
    (void)threads;
    (void)work_blocks;
    (void)cap_per_sm;
    return KIT_TODO;
}
#endif

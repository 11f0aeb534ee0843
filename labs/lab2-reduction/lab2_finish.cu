/* lab2_finish.cu: host helpers every lab2 variant shares.
 *
 * lab2_multipass is the recursive scheme of the lecture: a block can only
 * combine what its own threads hold, and blocks cannot wait for each other inside
 * a kernel, so a launch turns n values into one partial per block, and the next
 * launch reduces those partials, until one block is left. Each pass is a kernel
 * boundary: the partials written by one launch are visible to the next. */
#include "lab2.h"
#include "lab2_ops.cuh"

__global__ void lab2_store_int(int *out, int value)
{
    *out = value;
}

extern "C" int lab2_write_identity(const lab2_io *io, cudaStream_t stream)
{
    switch (io->type) {
    case LAB2_I64:
    case LAB2_F32: /* 0 and 0.0f are all-zero bytes */
        return KIT_CHECK(cudaMemsetAsync(io->out, 0, lab2_result_bytes(io->type), stream));
    case LAB2_MAX:
        lab2_store_int<<<1, 1, 0, stream>>>((int *)io->out, INT_MIN);
        return KIT_LAUNCH_CHECK();
    }
    return KIT_CHECK(cudaErrorInvalidValue);
}

/* One pass: cudaLaunchKernel takes the kernel's arguments by address, which lets
 * one non-template helper launch every kernel of signature (const In *, size_t, Acc *). */
static int launch_pass(const void *kernel, size_t blocks, unsigned threads, const void *src,
                       size_t count, void *dst, cudaStream_t stream)
{
    void *args[] = { (void *)&src, (void *)&count, (void *)&dst };
    cudaError_t err = cudaLaunchKernel(kernel, dim3((unsigned)blocks), dim3(threads), args, 0, stream);
    if (err != cudaSuccess) {
        cudaGetLastError(); /* reported here; do not report it twice */
        return KIT_CHECK(err);
    }
    return KIT_LAUNCH_CHECK();
}

extern "C" int lab2_multipass(const lab2_io *io, const void *first, const void *rest,
                              unsigned threads, size_t items_per_block, size_t max_blocks,
                              cudaStream_t stream)
{
    if (io->n == 0)
        return lab2_write_identity(io, stream);
    if (items_per_block < 2)
        return KIT_CHECK(cudaErrorInvalidValue); /* the passes would never shrink */
    size_t count = io->n;
    size_t blocks = lab2_pass_blocks(count, items_per_block, max_blocks);
    if (blocks > io->ws.capacity || blocks > 0x7fffffffu)
        return KIT_CHECK(cudaErrorInvalidValue); /* the workspace is for a smaller problem */
    const void *src = io->in;
    void *dst = blocks == 1 ? io->out : io->ws.partials[0];
    if (int err = launch_pass(first, blocks, threads, src, count, dst, stream))
        return err;
    int next = 1;
    while (blocks > 1) {
        src = dst;
        count = blocks;
        blocks = lab2_pass_blocks(count, items_per_block, max_blocks);
        dst = blocks == 1 ? io->out : io->ws.partials[next]; /* never the buffer being read */
        next ^= 1;
        if (int err = launch_pass(rest, blocks, threads, src, count, dst, stream))
            return err;
    }
    return 0;
}

extern "C" size_t lab2_occupancy_grid(const void *kernel, int threads)
{
    int blocks = 0;
    return kit_resident_blocks(kernel, threads, 0, &blocks) ? 0 : (size_t)blocks;
}

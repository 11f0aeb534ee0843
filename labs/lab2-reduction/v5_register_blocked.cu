/* Step 2.5: enough bytes in flight. This step bundles three ideas, each of which
 * the earlier kernels lacked (lecture 2, Step 2.5, measures each one's share):
 *   1. 16-byte loads: each load is an int4 (4 int32/float, or 2 int64 partials),
 *      4x the bytes per load instruction of Step 2.4;
 *   2. register blocking: a tile is NT threads x VT vectors; a thread issues its VT
 *      loads back to back into registers, then combines them, so VT independent
 *      loads per thread are in flight (the NT x VT tiles of Baxter's moderngpu,
 *      whose tile vocabulary this kit follows);
 *   3. a grid that fits the GPU: only as many blocks as are resident at once
 *      (resident blocks per SM x SMs, from the occupancy API, computed with the
 *      problem), each looping over tiles blockIdx.x, blockIdx.x + gridDim.x, ...
 *      (grid-stride loop): a thread folds many values into one register before the
 *      single block reduction, and the first pass leaves one partial per block (a
 *      few blocks per SM) instead of one per tile.
 * The loop is lab2_thread_reduce_tiles (lab2_ops.cuh), which single-pass reuses.
 * The vectors after the last whole tile and the count % per_vector values after the
 * last whole vector (n % 4 for int32 input) are spread over all threads of the grid
 * (lab2_shape.h has the index math).
 * What is still slow: the grid is still finished by a second launch (over the
 * partials): at sizes where one pass lasts a few microseconds, that launch and
 * the idle GPU around it show.
 * Expect: near the read bandwidth of the GPU at large n, up to a little above the
 * memcpy row's GB/s, which counts a read and a write per byte (lecture 2, Step 2.5's
 * table and the Results table).
 * Types: i64, f32, max. Tunables: LAB2_BLOCKED_NT, LAB2_BLOCKED_VT (edit them in lab2_shape.h). */
#include "lab2.h"
#include "lab2_ops.cuh"

/* VT counts 16-byte vectors here, not values (unlike Steps 2.0-2.4, hence no NV): a tile
 * is TILE_VECTORS vectors, i.e. lab2_tile_items(NT, VT, sizeof(In)) values. */
enum { NT = LAB2_BLOCKED_NT, VT = LAB2_BLOCKED_VT, TILE_VECTORS = NT * VT };

template <class Op, class In>
__global__ __launch_bounds__(NT) void reduce_register_blocked(const In *__restrict__ in, size_t count,
                                                              typename Op::acc *__restrict__ out)
{
    // TODO(Step 2.5): this thread's share with lab2_thread_reduce_tiles<Op, NT, VT>, then lab2_block_reduce, thread 0 stores (about 4 lines)
}

template <class Op, class In>
static int run_register_blocked(const lab2_io *io, cudaStream_t stream)
{
    // TODO(Step 2.5): lab2_multipass with NT threads, lab2_tile_items(NT, VT, sizeof(In)) values per block (one tile; not TILE_VECTORS, which counts vectors) and io->max_blocks as the grid cap; the later passes over Op::acc partials reuse that same number (the grid-stride loop handles any count) (about 3 lines)
    (void)io;
    (void)stream;
    return KIT_TODO;
}

extern "C" int lab2_register_blocked(const lab2_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return lab2_write_identity(io, stream);
    if ((uintptr_t)io->in % 16)
        return KIT_CHECK(cudaErrorMisalignedAddress); /* int4 loads need 16-byte alignment */
    switch (io->type) {
    case LAB2_I64: return run_register_blocked<lab2_sum_i64, int>(io, stream);
    case LAB2_F32: return run_register_blocked<lab2_sum_f32, float>(io, stream);
    case LAB2_MAX: return run_register_blocked<lab2_max_i32, int>(io, stream);
    }
    return KIT_CHECK(cudaErrorInvalidValue);
}

/* Called once per problem, outside timing: the grid that fills the GPU. */
extern "C" size_t lab2_register_blocked_grid(lab2_type type)
{
    switch (type) {
    case LAB2_I64: return lab2_occupancy_grid((const void *)reduce_register_blocked<lab2_sum_i64, int>, NT);
    case LAB2_F32: return lab2_occupancy_grid((const void *)reduce_register_blocked<lab2_sum_f32, float>, NT);
    case LAB2_MAX: return lab2_occupancy_grid((const void *)reduce_register_blocked<lab2_max_i32, int>, NT);
    }
    return 0;
}

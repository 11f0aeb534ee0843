/* Step 2.5: register blocking, 16-byte loads and a grid that fits the GPU.
 *
 * Reading memory at full speed needs many bytes in flight at once (latency x
 * bandwidth: tens of KB per SM). The earlier steps had one or two 4-byte loads
 * per thread and a thread per value. Here:
 *   - each load is an int4 (16 bytes: 4 int32/float or 2 int64 partials);
 *   - a tile is RB_NT threads x RB_VT vectors: a thread issues its RB_VT loads
 *     back to back into registers, then combines them, so RB_VT independent
 *     loads per thread are in flight (the register blocking of the Baxter seed);
 *   - the grid is only as large as the GPU holds at once (resident blocks per SM
 *     x SMs, from the occupancy API, computed with the problem): each block loops
 *     over tiles blockIdx.x, blockIdx.x + gridDim.x, ... (grid-stride loop), so a
 *     thread reduces many values sequentially in a register before the one block
 *     reduction, and the first pass leaves only one partial per block (a few blocks per
 *     SM: 1056 on an H200).
 * The last partial tile and the n % 4 values after the last whole vector are
 * spread over all threads of the grid (lab2_shape.h has the index math).
 * What is still slow: the grid is still finished by a second launch (over the
 * partials): at sizes where one pass lasts a few microseconds, that
 * launch and the idle GPU around it show.
 * Expect: near the read bandwidth of the GPU at large n: above the memcpy row's
 * GB/s, which counts a read and a write per byte.
 * Types: i64, f32, max. Tunables: RB_NT, RB_VT. */
#include "lab2.h"
#include "lab2_ops.cuh"

#define RB_NT 256 /* threads per block */
#define RB_VT 4   /* 16-byte loads per thread per tile */

template <class Op, class In>
__global__ __launch_bounds__(RB_NT) void reduce_register_blocked(const In *__restrict__ in, size_t count,
                                                                 typename Op::acc *__restrict__ out)
{
    // BEGIN SOLUTION (Step 2.5): grid-stride loop over whole tiles (RB_VT int4 loads first, then combine), then the leftover vectors and values, then lab2_block_reduce
    constexpr int per_vector = 16 / sizeof(In);
    const int4 *__restrict__ vec = reinterpret_cast<const int4 *>(in);
    const size_t vectors = count / per_vector;
    const size_t tiles = lab2_full_tiles(vectors, RB_NT, RB_VT);
    typename Op::acc x = Op::identity();
    for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        lab2_vec<In> v[RB_VT];
#pragma unroll
        for (int k = 0; k < RB_VT; k++) /* all loads first: RB_VT in flight */
            v[k].raw = vec[lab2_tile_vector(tile, k, threadIdx.x, RB_NT, RB_VT)];
#pragma unroll
        for (int k = 0; k < RB_VT; k++)
#pragma unroll
            for (int j = 0; j < per_vector; j++)
                x = Op::combine(x, v[k].item[j]);
    }
    const size_t thread = (size_t)blockIdx.x * RB_NT + threadIdx.x;
    const size_t threads = (size_t)gridDim.x * RB_NT;
    for (size_t i = tiles * RB_NT * RB_VT + thread; i < vectors; i += threads) {
        lab2_vec<In> v;
        v.raw = vec[i];
#pragma unroll
        for (int j = 0; j < per_vector; j++)
            x = Op::combine(x, v.item[j]);
    }
    for (size_t i = vectors * per_vector + thread; i < count; i += threads)
        x = Op::combine(x, in[i]);
    x = lab2_block_reduce<Op, RB_NT>(x);
    if (threadIdx.x == 0)
        out[blockIdx.x] = x;
    // END SOLUTION
}

template <class Op, class In>
static int run_register_blocked(const lab2_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 2.5): lab2_multipass with RB_NT threads, a tile of values per block (lab2_tile_items) and io->max_blocks as the grid cap
    return lab2_multipass(io, (const void *)reduce_register_blocked<Op, In>,
                          (const void *)reduce_register_blocked<Op, typename Op::acc>, RB_NT,
                          lab2_tile_items(RB_NT, RB_VT, sizeof(In)), io->max_blocks, stream);
    // STUB: return KIT_TODO;
    // END SOLUTION
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
    case LAB2_I64: return lab2_occupancy_grid((const void *)reduce_register_blocked<lab2_sum_i64, int>, RB_NT);
    case LAB2_F32: return lab2_occupancy_grid((const void *)reduce_register_blocked<lab2_sum_f32, float>, RB_NT);
    case LAB2_MAX: return lab2_occupancy_grid((const void *)reduce_register_blocked<lab2_max_i32, int>, RB_NT);
    }
    return 0;
}

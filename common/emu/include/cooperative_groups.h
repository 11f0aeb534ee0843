/* cooperative_groups.h of the kit's CPU emulator: the block and its warp-sized
 * tiles, whose sync and shuffles are the emulator's meeting points. */
#ifndef KIT_EMU_COOPERATIVE_GROUPS_H
#define KIT_EMU_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"

namespace cooperative_groups {

class thread_block {
public:
    void sync(KIT_EMU_HERE) const { ::kit_emu::block_barrier(::kit_emu::BAR_PLAIN, 0, file, line); }
    unsigned thread_rank() const { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
    unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
    unsigned num_threads() const { return size(); }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block(); }

/* N consecutive threads of the block (N a power of two, at most 32). */
template <unsigned N>
class thread_block_tile {
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "tiles of 1, 2, 4, ..., 32 threads");
    unsigned rank_in_block() const { return thread_block().thread_rank(); }

public:
    unsigned mask() const
    {
        unsigned lanes = N == 32 ? 0xffffffffu : (1u << N) - 1;
        return lanes << (rank_in_block() % 32 / N * N);
    }
    unsigned thread_rank() const { return rank_in_block() % N; }
    unsigned meta_group_rank() const { return rank_in_block() / N; }
    unsigned meta_group_size() const { return (thread_block().size() + N - 1) / N; }
    static constexpr unsigned size() { return N; }
    static constexpr unsigned num_threads() { return N; }
    void sync(KIT_EMU_HERE) const
    {
        ::kit_emu::warp_collective(::kit_emu::COLL_SYNCWARP, mask(), 0, 0, 0, 32, file, line);
    }
    template <class T>
    T shfl(T var, int src, KIT_EMU_HERE) const
    {
        return ::kit_emu::shuffle(::kit_emu::COLL_SHFL_IDX, mask(), var, src, N, file, line);
    }
    template <class T>
    T shfl_up(T var, unsigned delta, KIT_EMU_HERE) const
    {
        return ::kit_emu::shuffle(::kit_emu::COLL_SHFL_UP, mask(), var, (int)delta, N, file, line);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, KIT_EMU_HERE) const
    {
        return ::kit_emu::shuffle(::kit_emu::COLL_SHFL_DOWN, mask(), var, (int)delta, N, file, line);
    }
    template <class T>
    T shfl_xor(T var, unsigned lane_mask, KIT_EMU_HERE) const
    {
        return ::kit_emu::shuffle(::kit_emu::COLL_SHFL_XOR, mask(), var, (int)lane_mask, N, file, line);
    }
    unsigned ballot(int predicate, KIT_EMU_HERE) const
    {
        unsigned all = __ballot_sync(mask(), predicate, file, line);
        return N == 32 ? all : all >> (rank_in_block() % 32 / N * N);
    }
    bool any(int predicate, KIT_EMU_HERE) const { return __any_sync(mask(), predicate, file, line); }
    bool all(int predicate, KIT_EMU_HERE) const { return __all_sync(mask(), predicate, file, line); }
};

template <unsigned N, class Parent>
thread_block_tile<N> tiled_partition(const Parent &)
{
    return thread_block_tile<N>();
}

template <class T = void>
struct plus {
    T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T = void>
struct less {
    T operator()(const T &a, const T &b) const { return a < b ? a : b; }
};
template <class T = void>
struct greater {
    T operator()(const T &a, const T &b) const { return a > b ? a : b; }
};
template <class T = void>
struct bit_and {
    T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T = void>
struct bit_or {
    T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T = void>
struct bit_xor {
    T operator()(const T &a, const T &b) const { return a ^ b; }
};

/* Every thread of the tile gets op over all the tile's values (a butterfly). */
template <unsigned N, class T, class Op>
T reduce(const thread_block_tile<N> &tile, T value, Op op)
{
    for (unsigned d = 1; d < N; d *= 2)
        value = op(value, tile.shfl_xor(value, d));
    return value;
}

} // namespace cooperative_groups
#endif

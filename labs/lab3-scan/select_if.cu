/* Step 3.6 (application): stream compaction (select-if) in ONE pass and IN PLACE,
 * on the machinery of Step 3.5.
 *
 * Each tile counts the items it keeps, scans those 0/1 flags across the block
 * (each kept item's rank within the tile), and finds with the warp-parallel
 * look-back how many items all earlier tiles keep: that is where its first kept
 * item goes. Kept items are gathered in shared memory in order, then written out
 * contiguously (coalesced).
 *
 * Why in place is safe here (Merrill and Garland's observation): tile t writes
 * only below the end of its own tile (no tile keeps more than it read), and it
 * writes only after its look-back has acquired every tile back to the nearest P,
 * whose own look-back acquired the ones before it (release/acquire is
 * cumulative); each tile publishes only after it has read all of its input. So no tile can
 * overwrite input a predecessor has not read yet. In a multi-pass compaction
 * the last pass's tiles run independently and have no such guarantee. Because
 * the argument is about *data* written by other blocks, the statuses here are
 * published with release stores and read with acquire loads (the scans, which
 * only pass values through the status words, can use relaxed ones).
 *
 * The status value is the count of kept items (32 bits: n < 2^32), so one 64-bit
 * word holds flag + count for both element types. */
#include "lab3_scan.cuh"

#define SEL_NT LAB3_SELECT_NT /* tile shape: lab3.h */

template <typename T>
struct select_shape {
    static constexpr int VT = sizeof(T) == 4 ? LAB3_SELECT_VT_I32 : LAB3_SELECT_VT_I64;
    static_assert(VT <= 32, "the kept items of a thread are a 32-bit mask");
    static constexpr int NV = SEL_NT * VT;
    static constexpr int PER_VEC = 16 / sizeof(T);
    static constexpr int VECS = NV / PER_VEC;
    static constexpr int VEC_ITERS = (VECS + SEL_NT - 1) / SEL_NT;
};

// TODO(Step 3.6): count status words with release/acquire, a window look-back over them, and the select kernel (about 132 lines)

extern "C" int lab3_select_if(const lab3_select_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return KIT_CHECK(cudaMemsetAsync(io->d_count, 0, sizeof *io->d_count, stream));
    if (io->n > 0xffffffffull)
        return KIT_CHECK(cudaErrorInvalidValue); /* counts are 32-bit */
    // TODO(Step 3.6): dispatch on the element type (about 1 line)
    return KIT_TODO;
}

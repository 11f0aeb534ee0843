/* lab2_shape.h: lab 2's tile shapes, the one place to retune them, and the
 * launch-shape arithmetic, shared by the launchers, the kernels and the CPU suite
 * (tests/cpu/test_lab2_ref.c). Valid C11 and CUDA C++ (KIT_HD, kit_hd.h). */
#ifndef LAB2_SHAPE_H
#define LAB2_SHAPE_H

#include <stddef.h>

#include "kit_hd.h"

/* Tile shapes (each variant file names its own in an enum: NT threads per block, VT
 * per thread). Steps 2.0-2.4: VT counts VALUES, and NV = NT * VT values per block is
 * what they pass to lab2_multipass. Steps 2.5-2.6: VT counts 16-byte VECTORS, so a
 * tile is NT * VT vectors = lab2_tile_items(NT, VT, sizeof(In)) values (4096 int32 at
 * 256 x 4); those files name it TILE_VECTORS, not NV, so that the two cannot be mixed.
 * The GPU suite derives its sizes from these constants, so retuning a tile moves its
 * tests. To retune (Question 4), edit the value HERE and rebuild: the Makefile has no
 * hook for extra -D flags, and a -D given to nvcc alone would not reach the C test
 * files that read the same constants. (The #ifndef only lets the ablation build of
 * tools/maint/gpu-extra-lab23.sh compile the .cu files with -DLAB2_BLOCKED_VT=1.) */
#define LAB2_TREE_NT 256    /* Steps 2.0-2.4: threads per block (one value each, two from 2.3 on) */
#define LAB2_BLOCKED_NT 256 /* Steps 2.5-2.6: threads per block ... */
#ifndef LAB2_BLOCKED_VT
#define LAB2_BLOCKED_VT 4   /* ... x 16-byte loads per thread per tile */
#endif

/* The smallest number of values one block of a multi-pass variant reduces (one
 * per thread, 256 threads). It bounds how many block partials the first pass can
 * write, so it sizes the partial buffers of the workspace. */
#define LAB2_MIN_ITEMS_PER_BLOCK 256

/* Values in one 16-byte vector load: 4 for 4-byte values, 2 for 8-byte ones. */
KIT_HD size_t lab2_per_vector(size_t value_bytes)
{
    return 16 / value_bytes;
}

/* Blocks of one pass over `count` values when a block covers `items_per_block`
 * of them. `max_blocks` > 0 caps the grid (grid-stride kernels loop over the
 * rest); 0 means "one block per items_per_block values". 0 blocks for count 0. */
KIT_HD size_t lab2_pass_blocks(size_t count, size_t items_per_block, size_t max_blocks)
{
    size_t blocks = kit_div_up(count, items_per_block);
    if (max_blocks > 0 && blocks > max_blocks)
        blocks = max_blocks;
    return blocks;
}

/* Launches the multi-pass scheme needs to bring n values down to one: the first
 * pass reads the input, every further pass reads the previous pass's partials,
 * the pass that launches a single block writes the result. 0 for n = 0 (the
 * launcher only stores the identity). Needs items_per_block >= 2. */
static inline int lab2_pass_count(size_t n, size_t items_per_block, size_t max_blocks)
{
    int passes = 0;
    size_t count = n;
    while (count > 0) {
        count = lab2_pass_blocks(count, items_per_block, max_blocks);
        passes++;
        if (count == 1)
            break;
    }
    return passes;
}

/* Partials each of the two ping-pong buffers must hold for an input of n values:
 * no pass of any variant writes more (at least 1, so the buffers always exist). */
static inline size_t lab2_partials_capacity(size_t n)
{
    size_t blocks = lab2_pass_blocks(n, LAB2_MIN_ITEMS_PER_BLOCK, 0);
    return blocks ? blocks : 1;
}

/* Register blocking (register-blocked, single-pass). The input is read as
 * 16-byte vectors; a tile is NT threads x VT vectors. In tile t, load k of
 * thread tid reads vector t*NT*VT + k*NT + tid: for a fixed k the NT threads
 * read NT consecutive vectors (coalesced), and the VT loads of a thread are
 * independent, so all VT can be in flight at once. Whole tiles are dealt to the
 * blocks round-robin; the vectors after the last whole tile, then the values
 * after the last whole vector (count % per_vector), are spread over every thread
 * of the grid. */
KIT_HD size_t lab2_full_tiles(size_t vectors, int nt, int vt)
{
    return vectors / ((size_t)nt * (size_t)vt);
}

KIT_HD size_t lab2_tile_vector(size_t tile, int k, int tid, int nt, int vt)
{
    return tile * (size_t)nt * (size_t)vt + (size_t)k * (size_t)nt + (size_t)tid;
}

/* Values of input one block of NT x VT vectors covers per tile. */
KIT_HD size_t lab2_tile_items(int nt, int vt, size_t value_bytes)
{
    return (size_t)nt * (size_t)vt * lab2_per_vector(value_bytes);
}

#endif

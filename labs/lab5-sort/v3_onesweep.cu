/* Step 5.3: Onesweep (Adinets and Merrill): one read and one write per key per pass.
 *
 * Step 5.2 reads every key twice per pass (count, then scatter) with a scan of
 * the (digit x tile) counts in between: ~3n traffic and three launches per pass.
 * Onesweep drops the counting read:
 *   1. onesweep_histogram reads the keys once and counts the digits of all four
 *      passes (4 x 256 counters per block in shared memory); its last block scans
 *      them (where each digit starts in each pass's output), plans which passes
 *      to skip (a digit that every key shares) and resets the tickets. Every
 *      block also zeroes its share of the status words of the four passes;
 *   2. onesweep_pass, once per pass: a tile takes its id from a ticket, loads and
 *      counts its keys, publishes its 256 digit counts (flag A) before it ranks
 *      them (lab5_rank.cuh), then learns how many keys of each digit all earlier
 *      tiles hold by decoupled look-back (lab 3's, once per digit: thread d walks
 *      back over digit d's status words until a P), publishes P and scatters.
 *      The keys stay on chip between count and scatter.
 * A status word packs a 2-bit flag over a 30-bit count (lab5_radix.h): one
 * relaxed 32-bit store at GPU scope publishes both, one load reads both, so no
 * fence is needed. A tile waits only for tiles with smaller tickets, whose
 * blocks are already running.
 * What makes it fast: 8-bit digits, big tiles held in registers (pass_shape),
 * persistent blocks, stores through shared memory in runs of one digit, with
 * values the keys written first and each value then put where its key went in
 * the same shared memory, and only the shared memory the blocks need (the rest
 * of the SM stays L1, where loads in flight land).
 * Still slow: ~2n per pass plus one read up front; the ranking and the look-back
 * are serial phases of a tile that the SM's other block covers only in part.
 * Expect: about 1.2x Step 5.2 and 1.2x CUB for keys, level with CUB with values
 * (lecture 5, Step 5.3's table; how it got there: the notebook, section 3). */
#include "kit_cuda.cuh"
#include "lab5_rank.cuh"

enum {
    HIST_NT = 256, /* one thread per digit in the last block */
    HIST_LOADS = LAB5_ONESWEEP_HIST_LOADS,
};

/* ---- the histograms of all four passes --------------------------------------------- */

/* The bits of x that are the same in every lane's x, and those that are set in
 * some lane's: one redux instruction each from sm_80 on, five shuffles before. */
[[maybe_unused]] static __device__ __forceinline__ uint32_t warp_and(uint32_t x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_and_sync(KIT_FULL_MASK, x);
#else
    for (int d = 16; d > 0; d /= 2)
        x &= __shfl_xor_sync(KIT_FULL_MASK, x, d);
    return x;
#endif
}
[[maybe_unused]] static __device__ __forceinline__ uint32_t warp_or(uint32_t x)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_or_sync(KIT_FULL_MASK, x);
#else
    for (int d = 16; d > 0; d /= 2)
        x |= __shfl_xor_sync(KIT_FULL_MASK, x, d);
    return x;
#endif
}

/* Add the 4 keys of one lane's 16-byte load to the block's counters of every pass.
 * Sorted, equal or low-bit keys make whole warps hit one counter (lab 1's trick:
 * then one lane adds for the warp, or a lane adds its 4 at once). Which digits are
 * shared is found once for all four passes: a bit is the same in a set of words
 * exactly where their AND and their OR agree, so my 4 words' AND ^ OR marks the
 * bits where they differ, and the warp's (two reductions) the bits where its 128
 * keys differ. A digit with no such bit is shared. */
template <lab5_type T>
static __device__ __forceinline__ void count_quad(uint32_t (*hist)[LAB5_DIGITS], uint4 q)
{
    // TODO(Step 5.3): AND and OR of my 4 words and of the warp's (warp_and, warp_or); per pass: the warp's digit bits all agree -> lane 0 adds 128; mine agree -> add 4; else 4 atomics (about 17 lines)
    (void)hist; (void)q;
}

/* Grid-stride over the keys: each warp takes HIST_LOADS x 32 16-byte loads at a
 * time (all issued before any is counted); the rest one key per thread. Then the
 * block adds its counters to SUMS; the last block to finish (ticket) scans SUMS
 * into OFFSETS, writes the PLAN, zeroes SUMS and resets the tickets. Every block
 * also zeroes its share of the status words (status_words of them). */
template <lab5_type T>
static __global__ void __launch_bounds__(HIST_NT) onesweep_histogram(const uint32_t *__restrict__ keys, size_t n,
                                                             uint32_t *ctl, size_t status_words)
{
    // TODO(Step 5.3): zero the block's 4 x 256 counters and its share of the status words; count (full warp tiles with count_quad, then single keys); add the counters to SUMS; the last block (threadFenceReduction ticket) scans SUMS into OFFSETS (lab5_digit_scan, with a barrier between two calls: they share scan_warps), sets PLAN (lab5_plan of the passes where a count equals n), zeroes SUMS and the tickets (about 55 lines)
}

/* ---- one digit pass ----------------------------------------------------------------------- */

/* A pass's tile: NT threads x VT keys, and how many blocks of it share an SM (their
 * registers must fit: 2 x 384 threads may use 80 each, 1 x 640 up to 96). Keys: two
 * tiles of 384 x 24 per SM. With values: two of 384 x 22 (more keys per thread would
 * not fit in 80 registers), or one of 640 x 24 where the DRAM is slow for the SMs
 * (lab5_onesweep_tiles_per_sm): fewer tiles at a time make fewer streams of
 * scattered writes at a time, and each tile writes longer runs per digit. */
template <bool VALUES, int TILES_PER_SM>
struct pass_shape {
    static constexpr bool PAIRS = VALUES;
    static constexpr bool SOLO = PAIRS && TILES_PER_SM == 1;
    static constexpr int NT = SOLO ? LAB5_ONESWEEP_SOLO_NT : LAB5_ONESWEEP_NT;
    static constexpr int VT = SOLO ? LAB5_ONESWEEP_SOLO_VT_PAIRS : PAIRS ? LAB5_ONESWEEP_VT_PAIRS : LAB5_ONESWEEP_VT;
    static constexpr int NV = NT * VT;
    static constexpr int BLOCKS = TILES_PER_SM;
    static constexpr int WINDOW = PAIRS ? LAB5_LOOKBACK_WINDOW_PAIRS : LAB5_LOOKBACK_WINDOW; /* look_back */
    /* dynamic shared memory: the sorted tile's keys, then its values; with
     * values, each key's rank (16 bits) */
    static constexpr size_t SMEM = (size_t)NV * (sizeof(uint32_t) + (PAIRS ? sizeof(uint16_t) : 0));
    static_assert(NT % 32 == 0 && NT >= LAB5_DIGITS, "one thread per digit for the look-back");
    static_assert(NV <= 65536, "a key's place in the tile is kept in 16 bits");
};

/* Thread t < 256, tile > 0: the number of keys of digit t in all tiles before
 * `tile`. `status` points at this pass's first status word (lab5_radix.h): the
 * word of tile j and digit t is status[j * LAB5_DIGITS + t], so one digit's
 * words are LAB5_DIGITS apart. Walk back until an inclusive count (P), W tiles
 * at a time: the W words of a window are all loaded (kit_load_relaxed) before
 * the first is looked at; the nearest tile comes first, and a word that still
 * shows X is read again until its tile has published. */
template <int W>
static __device__ __forceinline__ uint32_t look_back(const uint32_t *status, uint32_t tile)
{
    // TODO(Step 5.3): windows of tiles end - 1 down to end - W: load the W words (tile j's: status[j * LAB5_DIGITS + threadIdx.x]; none below tile 0), then nearest first: spin while X, add the count, stop at a P; next window (about 16 lines)
    (void)status; (void)tile;
    return 0;
}

template <lab5_type T, class S>
static __global__ void __launch_bounds__(S::NT, S::BLOCKS)
onesweep_pass(const uint32_t *keys_in, const uint32_t *values_in, uint32_t *keys_out, uint32_t *values_out,
              uint32_t *keys_alt, uint32_t *values_alt, size_t n, int pass, uint32_t *ctl)
{
    // TODO(Step 5.3): skip a pass the PLAN leaves out; pick source and destination (lab5_live_before, lab5_write_to_output); loop: ticket; load; warp histograms; publish A (P for tile 0); digit scan; rank; look back, publish P, set base; barrier; lab5_scatter_tile. This pass's status words start at ctl + LAB5_OS_STATUS + pass * tiles * LAB5_DIGITS, tiles = kit_div_up(n, S::NV) (about 62 lines)
}

/* ---- the launcher ----------------------------------------------------------------------------- */

/* The pass kernel's query (kit_resident_blocks), once per GPU: before counting,
 * let it have its `smem` bytes of dynamic shared memory and set its carveout: the
 * percentage of the SM's shared memory that BLOCKS blocks need (dynamic + static +
 * the 1 KB reserved per block), rounded up by the driver to a carveout it has.
 * Shared memory is carved out of the SM's L1, whose lines also receive the loads
 * in flight: the rest of the SM's 256 KB of L1 + shared memory stays L1 (the
 * notebook, section 3.4, compares it with the largest carveout). */
template <int BLOCKS>
static int fit_carveout_then_count(int device, const void *kernel, int threads, size_t smem, int *blocks)
{
    if (int err = KIT_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)))
        return err;
    int per_sm = 0;
    cudaFuncAttributes attr;
    if (int err = KIT_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device)))
        return err;
    if (int err = KIT_CHECK(cudaFuncGetAttributes(&attr, kernel)))
        return err;
    size_t need = (size_t)BLOCKS * (smem + attr.sharedSizeBytes + 1024);
    int percent = (int)((need * 100 + per_sm - 1) / per_sm);
    percent = percent < 100 ? percent : 100;
    if (int err = KIT_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent)))
        return err;
    return kit_count_resident_blocks(device, kernel, threads, smem, blocks);
}

/* One sort with tile shape S: the histograms, then the four passes. */
template <lab5_type T, class S>
static int onesweep_sort(const lab5_sort_io *io, cudaStream_t stream)
{
    // TODO(Step 5.3): size both grids (kit_resident_blocks; the pass kernel's query fit_carveout_then_count<S::BLOCKS> also opts in to S::SMEM of dynamic shared memory and sets the carveout, once per GPU); histogram kernel (zeroes the status of 4 x tiles), then the 4 pass kernels (about 25 lines)
    (void)io; (void)stream;
    return KIT_TODO;
}

/* lab5.h: whether a block can have the one-tile shape's shared memory here. */
extern "C" int lab5_onesweep_solo_fits(void)
{
    typedef pass_shape<true, 1> solo;
    int id = 0, optin = 0;
    cudaFuncAttributes attr;
    bool fits = cudaGetDevice(&id) == cudaSuccess &&
                cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, id) == cudaSuccess &&
                cudaFuncGetAttributes(&attr, onesweep_pass<LAB5_U32, solo>) == cudaSuccess &&
                solo::SMEM + attr.sharedSizeBytes <= (size_t)optin;
    cudaGetLastError(); /* a failed query means: it does not fit */
    return fits;
}

/* A query (kit_resident_blocks) that does not count but chooses, for the one-tile
 * shape's kernel: 1 tile per SM where the GPU's peak DRAM bandwidth per SM is
 * under LAB5_SOLO_GBS_PER_SM and that shape fits, else 2. */
static int choose_tiles_per_sm(int device, const void *kernel, int threads, size_t smem, int *tiles)
{
    (void)kernel, (void)threads, (void)smem;
    kit_device dev;
    char why[256];
    bool slow_dram = kit_device_open(device, &dev, why, sizeof why) == 0 && dev.peak_gbs > 0 &&
                     dev.peak_gbs / dev.sms < LAB5_SOLO_GBS_PER_SM;
    cudaGetLastError();
    *tiles = slow_dram && lab5_onesweep_solo_fits() ? 1 : 2;
    return 0;
}

/* lab5.h: the choice above, made once per GPU. */
extern "C" int lab5_onesweep_tiles_per_sm(void)
{
    typedef pass_shape<true, 1> solo;
    int tiles = 2;
    kit_resident_blocks(onesweep_pass<LAB5_U32, solo>, solo::NT, solo::SMEM, &tiles, choose_tiles_per_sm);
    return tiles;
}

template <lab5_type T, bool PAIRS>
struct onesweep {
    static int run(const lab5_sort_io *io, cudaStream_t stream)
    {
        if constexpr (PAIRS) {
            const int tiles = io->onesweep_tiles_per_sm ? io->onesweep_tiles_per_sm : lab5_onesweep_tiles_per_sm();
            if (tiles == 1)
                return onesweep_sort<T, pass_shape<true, 1>>(io, stream);
            if (tiles != 2)
                return KIT_CHECK(cudaErrorInvalidValue);
        }
        return onesweep_sort<T, pass_shape<PAIRS, 2>>(io, stream);
    }
};

extern "C" int lab5_onesweep(const lab5_sort_io *io, cudaStream_t stream)
{
    return lab5_dispatch<onesweep>(io, stream);
}

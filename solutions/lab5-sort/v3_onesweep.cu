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
    // BEGIN SOLUTION (Step 5.3): AND and OR of my 4 words and of the warp's (warp_and, warp_or); per pass: the warp's digit bits all agree -> lane 0 adds 128; mine agree -> add 4; else 4 atomics
    const uint32_t w[4] = { lab5_order(q.x, T), lab5_order(q.y, T), lab5_order(q.z, T), lab5_order(q.w, T) };
    const uint32_t my_and = w[0] & w[1] & w[2] & w[3], my_or = w[0] | w[1] | w[2] | w[3];
    const uint32_t warp_and_bits = warp_and(my_and), warp_differ = warp_and_bits ^ warp_or(my_or);
    const uint32_t my_differ = my_and ^ my_or;
#pragma unroll
    for (int p = 0; p < LAB5_OS_PASSES; p++) {
        if (lab5_digit(warp_differ, p, LAB5_OS_BITS) == 0) { /* the same in the whole warp */
            if (lab5_lane() == 0)
                atomicAdd(&hist[p][lab5_digit(warp_and_bits, p, LAB5_OS_BITS)], 4u * 32u);
        } else if (lab5_digit(my_differ, p, LAB5_OS_BITS) == 0) {
            atomicAdd(&hist[p][lab5_digit(my_and, p, LAB5_OS_BITS)], 4u);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                atomicAdd(&hist[p][lab5_digit(w[j], p, LAB5_OS_BITS)], 1u);
        }
    }
    // STUB: (void)hist; (void)q;
    // END SOLUTION
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
    // BEGIN SOLUTION (Step 5.3): zero the block's 4 x 256 counters and its share of the status words; count (full warp tiles with count_quad, then single keys); add the counters to SUMS; the last block (threadFenceReduction ticket) scans SUMS into OFFSETS (lab5_digit_scan, with a barrier between two calls: they share scan_warps), sets PLAN (lab5_plan of the passes where a count equals n), zeroes SUMS and the tickets
    __shared__ uint32_t hist[LAB5_OS_PASSES][LAB5_DIGITS];
    __shared__ uint32_t scan_warps[LAB5_DIGITS / 32]; /* for lab5_digit_scan in the last block */
    __shared__ bool last;
    const size_t threads = (size_t)gridDim.x * HIST_NT, me = (size_t)blockIdx.x * HIST_NT + threadIdx.x;
    for (int i = threadIdx.x; i < LAB5_OS_PASSES * LAB5_DIGITS; i += HIST_NT)
        hist[i / LAB5_DIGITS][i % LAB5_DIGITS] = 0;
    uint4 *status = (uint4 *)(ctl + LAB5_OS_STATUS);
    for (size_t i = me; i < status_words / 4; i += threads)
        status[i] = make_uint4(0, 0, 0, 0);
    __syncthreads();

    const uint4 *quads = (const uint4 *)keys; /* 16-byte aligned (lab5.h) */
    const size_t nquads = n / 4, tile = (size_t)HIST_LOADS * 32, warps = threads / 32;
    const size_t warp = me / 32, lane = lab5_lane();
    for (size_t t = warp; t < nquads / tile; t += warps) {
        uint4 q[HIST_LOADS];
#pragma unroll
        for (int u = 0; u < HIST_LOADS; u++)
            q[u] = quads[t * tile + (size_t)u * 32 + lane];
#pragma unroll
        for (int u = 0; u < HIST_LOADS; u++)
            count_quad<T>(hist, q[u]);
    }
    for (size_t i = nquads / tile * tile * 4 + me; i < n; i += threads) {
        uint32_t w = lab5_order(keys[i], T);
#pragma unroll
        for (int p = 0; p < LAB5_OS_PASSES; p++)
            atomicAdd(&hist[p][lab5_digit(w, p, LAB5_OS_BITS)], 1u);
    }
    __syncthreads();
    for (int p = 0; p < LAB5_OS_PASSES; p++) {
        uint32_t c = hist[p][threadIdx.x];
        if (c)
            atomicAdd(&ctl[LAB5_OS_SUMS + p * LAB5_DIGITS + threadIdx.x], c);
    }

    __threadfence(); /* this block's sums are visible before its ticket says it is done */
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(&ctl[LAB5_OS_HIST_TICKET], 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence(); /* see every block's sums */
    uint32_t one_digit = 0;
    for (int p = 0; p < LAB5_OS_PASSES; p++) {
        uint32_t c = atomicExch(&ctl[LAB5_OS_SUMS + p * LAB5_DIGITS + threadIdx.x], 0u);
        ctl[LAB5_OS_OFFSETS + p * LAB5_DIGITS + threadIdx.x] = lab5_digit_scan(c, scan_warps);
        if (__syncthreads_or(c == n)) /* also the barrier before the next scan reuses scan_warps */
            one_digit |= 1u << p;
    }
    if (threadIdx.x == 0) {
        ctl[LAB5_OS_PLAN] = lab5_plan(one_digit);
        ctl[LAB5_OS_HIST_TICKET] = 0;
        for (int p = 0; p < LAB5_OS_PASSES; p++)
            ctl[LAB5_OS_PASS_TICKETS + p] = 0;
    }
    // END SOLUTION
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
    // BEGIN SOLUTION (Step 5.3): windows of tiles end - 1 down to end - W: load the W words (tile j's: status[j * LAB5_DIGITS + threadIdx.x]; none below tile 0), then nearest first: spin while X, add the count, stop at a P; next window
    auto word_of = [&](uint32_t j) { return kit_load_relaxed(status + (size_t)j * LAB5_DIGITS + threadIdx.x); };
    uint32_t before = 0;
    for (uint32_t end = tile;; end -= W) { /* the window is tiles end - W .. end - 1 */
        uint32_t word[W];
#pragma unroll
        for (int i = 0; i < W; i++)
            word[i] = (uint32_t)i < end ? word_of(end - 1 - i) : 0;
#pragma unroll
        for (int i = 0; i < W; i++) { /* tile 0 always ends as P: a word below it is never used */
            while (lab5_status_flag(word[i]) == LAB5_STATUS_X)
                word[i] = word_of(end - 1 - i);
            before += lab5_status_count(word[i]);
            if (lab5_status_flag(word[i]) == LAB5_STATUS_P)
                return before;
        }
    }
    // STUB: (void)status; (void)tile;
    // STUB: return 0;
    // END SOLUTION
}

template <lab5_type T, class S>
static __global__ void __launch_bounds__(S::NT, S::BLOCKS)
onesweep_pass(const uint32_t *keys_in, const uint32_t *values_in, uint32_t *keys_out, uint32_t *values_out,
              uint32_t *keys_alt, uint32_t *values_alt, size_t n, int pass, uint32_t *ctl)
{
    // BEGIN SOLUTION (Step 5.3): skip a pass the PLAN leaves out; pick source and destination (lab5_live_before, lab5_write_to_output); loop: ticket; load; warp histograms; publish A (P for tile 0); digit scan; rank; look back, publish P, set base; barrier; lab5_scatter_tile. This pass's status words start at ctl + LAB5_OS_STATUS + pass * tiles * LAB5_DIGITS, tiles = kit_div_up(n, S::NV)
    const uint32_t plan = ctl[LAB5_OS_PLAN];
    if (!(plan >> pass & 1))
        return;
    /* This is live pass j of `passes`: it reads what live pass j - 1 wrote. */
    const int passes = lab5_popcount4(plan), j = lab5_live_before(plan, pass);
    const uint32_t *src_keys = keys_in, *src_values = values_in;
    if (j > 0) {
        bool from_out = lab5_write_to_output(j - 1, passes);
        src_keys = from_out ? keys_out : keys_alt;
        src_values = from_out ? values_out : values_alt;
    }
    const bool to_out = lab5_write_to_output(j, passes);
    uint32_t *dst_keys = to_out ? keys_out : keys_alt, *dst_values = to_out ? values_out : values_alt;

    extern __shared__ __align__(16) uint32_t smem[];
    uint32_t *s_tile = smem;                          /* the sorted keys, then their values */
    uint16_t *s_rank = (uint16_t *)(smem + S::NV);    /* pairs: where each key went */
    __shared__ lab5_rank_storage<S::NT> s;
    __shared__ uint32_t tile_id;
    const size_t tiles = kit_div_up(n, S::NV);
    uint32_t *status = ctl + LAB5_OS_STATUS + (size_t)pass * tiles * LAB5_DIGITS;
    const bool digit_thread = threadIdx.x < LAB5_DIGITS;
    /* where digit t's keys start in this pass's output (read once, used per tile) */
    const uint32_t digit_offset = digit_thread ? ctl[LAB5_OS_OFFSETS + pass * LAB5_DIGITS + threadIdx.x] : 0;
    uint32_t *row = s.warp_digit[threadIdx.x / 32];

    for (;;) {
        if (threadIdx.x == 0)
            tile_id = atomicAdd(&ctl[LAB5_OS_PASS_TICKETS + pass], 1u);
        __syncthreads(); /* also: every thread is done with the previous tile's shared memory */
        const uint32_t tile = tile_id;
        if (tile >= tiles)
            return;
        const size_t offset = (size_t)tile * S::NV;
        const int count = (int)kit_tile_items(n, S::NV, tile);

        uint32_t k[S::VT];
        lab5_load_striped<S::NT, S::VT>(src_keys, offset, count, lab5_pad_key<T>(), k);
        lab5_warp_histogram<S::VT, T>(k, pass, row);
        __syncthreads();
        uint32_t tile_count = 0;
        if (digit_thread) {
            tile_count = lab5_warp_prefix<S::NT>(s);
            /* publish early: successors can add this count while we rank */
            kit_store_relaxed(status + (size_t)tile * LAB5_DIGITS + threadIdx.x,
                              lab5_status_pack(tile == 0 ? LAB5_STATUS_P : LAB5_STATUS_A, tile_count));
        }
        uint32_t digit_start = lab5_digit_scan(tile_count, s.scan_warps);
        if (digit_thread)
            lab5_warp_starts<S::NT>(s, digit_start);
        __syncthreads();
        lab5_rank_to_shared<S::VT, T, S::PAIRS>(k, pass, row, s_tile, s_rank);
        if (digit_thread) {
            uint32_t before = 0;
            if (tile > 0) {
                before = look_back<S::WINDOW>(status, tile);
                kit_store_relaxed(status + (size_t)tile * LAB5_DIGITS + threadIdx.x,
                                  lab5_status_pack(LAB5_STATUS_P, before + tile_count));
            }
            s.base[threadIdx.x] = digit_offset + before - digit_start;
        }
        __syncthreads();
        lab5_scatter_tile<S::NT, S::VT, T, S::PAIRS>(s_tile, s_rank, src_values, offset, count, pass, s.base,
                                                     dst_keys, dst_values);
    }
    // END SOLUTION
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
    // BEGIN SOLUTION (Step 5.3): size both grids (kit_resident_blocks; the pass kernel's query fit_carveout_then_count<S::BLOCKS> also opts in to S::SMEM of dynamic shared memory and sets the carveout, once per GPU); histogram kernel (zeroes the status of 4 x tiles), then the 4 pass kernels
    const size_t tiles = kit_div_up(io->n, S::NV);
    const size_t status_words = lab5_onesweep_words(tiles) - LAB5_OS_STATUS;
    if (lab5_onesweep_words(tiles) > io->ws->onesweep_words)
        return KIT_CHECK(cudaErrorInvalidValue); /* workspace sized for fewer tiles */
    int pass_blocks = 0, hist_blocks = 0;
    if (int err = kit_resident_blocks(onesweep_pass<T, S>, S::NT, S::SMEM, &pass_blocks,
                                      fit_carveout_then_count<S::BLOCKS>))
        return err;
    if (int err = kit_resident_blocks(onesweep_histogram<T>, HIST_NT, 0, &hist_blocks))
        return err;
    size_t hist_grid = kit_div_up(io->n, (size_t)HIST_NT * HIST_LOADS * 4);
    hist_grid = hist_grid < (size_t)hist_blocks ? hist_grid : (size_t)hist_blocks;
    onesweep_histogram<T><<<(unsigned)hist_grid, HIST_NT, 0, stream>>>(io->keys_in, io->n, io->ws->onesweep,
                                                                       status_words);
    if (int err = KIT_LAUNCH_CHECK())
        return err;
    const unsigned grid = (unsigned)(tiles < (size_t)pass_blocks ? tiles : (size_t)pass_blocks);
    for (int pass = 0; pass < LAB5_OS_PASSES; pass++) {
        onesweep_pass<T, S><<<grid, S::NT, S::SMEM, stream>>>(io->keys_in, io->values_in, io->keys_out,
                                                              io->values_out, io->ws->keys_alt, io->ws->values_alt,
                                                              io->n, pass, io->ws->onesweep);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
    }
    return 0;
    // STUB: (void)io; (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
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

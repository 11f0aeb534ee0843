/* lab3_lookback.cuh: how the tiles of a single-pass scan learn what came before
 * them (Steps 3.3-3.8), in two parts, as CUB keeps its tile state apart from the
 * prefix callback that uses it:
 *   - the tile status (given: lab3_tile_status, with the ticket, publishing A and
 *     P, reading and waiting; lab3_tile.h says how a status is packed and why the
 *     scans need no fence);
 *   - the warp-parallel look-back: you write it in Step 3.5, and select-if
 *     (Step 3.6) and the pipelines (Steps 3.7-3.8) run the same code. */
#ifndef LAB3_LOOKBACK_CUH
#define LAB3_LOOKBACK_CUH

#include "kit_cuda.cuh"
#include "lab3.h"
#include "lab3_block_scan.cuh"

/* ---- tile status of the single-pass scans (Steps 3.3-3.8) --------------------------
 * Layout of ws->status (lab3_tile.h): a ticket counter in the first
 * LAB3_TICKET_BYTES, then LAB3_LOOKBACK_PAD spare entries, then one entry per tile.
 *
 * How a status access is ordered with the memory accesses around it:
 *   LAB3_RELAXED  the scans. A status word carries all a reader needs (flag and
 *                 value in one access, lab3_tile.h), so relaxed accesses at GPU
 *                 scope suffice: they go to L2 (never a stale L1 copy) and the
 *                 compiler may neither drop nor merge them (a spin loop re-reads).
 *   LAB3_ORDERED  select-if (Step 3.6), which compacts in place: publishing must
 *                 also make the tile's earlier reads of its input happen before
 *                 the reader's later writes over it. Publishing is a release
 *                 store, reading an acquire load (32-bit values only: counts).
 *   LAB3_P_RELEASED  select-pipeline (Step 3.8), in place too: only P is a
 *                 release store (A and every read of the look-back are relaxed);
 *                 a writer that is about to overwrite a tile's input first waits
 *                 for that tile's P with acquire loads (wait_inclusive). A stays
 *                 relaxed because a release costs the publisher a fence
 *                 (MEMBAR.GPU) before its store, which would hold A back for every
 *                 look-back that waits on it. */
enum lab3_order { LAB3_RELAXED, LAB3_ORDERED, LAB3_P_RELEASED };

/* After a poll that found X: LAB3_BACKOFF_NS of sleep (lab3_shapes.h says why). */
static __device__ __forceinline__ void lab3_backoff()
{
#if LAB3_BACKOFF_NS > 0
    __nanosleep(LAB3_BACKOFF_NS);
#endif
}

/* How a launch finds the status array clean:
 *   LAB3_RESET   zeroed before every launch (reset; Steps 3.3-3.6);
 *   LAB3_EPOCHS  every flag tagged with the launch's epoch, no memset (begin_epoch;
 *                the pipelines, Steps 3.7-3.8, lab3_tile.h). With LAB3_RESET the
 *                tags are compiled out and cost those kernels nothing. */
enum lab3_reuse { LAB3_RESET, LAB3_EPOCHS };

/* The status array of one single-pass launch, for status values of type V
 * (the scans: the element type; select-if: 32-bit counts), accessed in ORDER,
 * made clean for each launch as REUSE says, with its entries SPACING bytes apart
 * (0: packed, each entry right after the one before; the pipelines space them,
 * lab3_shapes.h says why). Passed by value. */
template <typename V, lab3_order ORDER = LAB3_RELAXED, lab3_reuse REUSE = LAB3_RESET, size_t SPACING = 0>
struct lab3_tile_status {
    static_assert(sizeof(V) == 4 || (sizeof(V) == 8 && ORDER == LAB3_RELAXED),
                  "64-bit statuses are two words: relaxed only (lab3_tile.h)");
    typedef V value_type;
    static constexpr lab3_order order = ORDER;
    /* An entry is 8 bytes (flag + 32-bit value in one word) or 16 (two words, flag
     * in both); ENTRY_BYTES from one entry to the next. */
    static constexpr size_t PACKED_BYTES = sizeof(V) == 4 ? 8 : 16;
    static constexpr size_t ENTRY_BYTES = SPACING ? SPACING : PACKED_BYTES;
    static_assert(ENTRY_BYTES % PACKED_BYTES == 0, "entries that do not overlap, each aligned to its size");

    void *words;        /* ws->status */
    uint32_t epoch = 0; /* the launch's epoch (lab3_tile.h); LAB3_EPOCHS only */

    /* Host, before every launch of Steps 3.3-3.6: zero the ticket and the first
     * `tiles` entries of THIS entry size (and the statistics when they are on).
     * Without it the second run would find the first run's P flags and add stale
     * prefixes. These launches leave the ticket where their draws left it, so the
     * next pipeline launch must zero the array first (ws->epoch = 0). */
    static int reset(lab3_workspace *ws, size_t tiles, cudaStream_t stream)
    {
        size_t bytes = bytes_for(tiles);
        if (bytes > ws->status_bytes)
            return KIT_CHECK(cudaErrorInvalidValue); /* workspace sized for fewer tiles */
        ws->epoch = 0;
        if (int err = KIT_CHECK(cudaMemsetAsync(ws->status, 0, bytes, stream)))
            return err;
        return zero_stats(ws, stream);
    }

    /* Host, before every launch of a pipeline (Steps 3.7-3.8), instead of reset:
     * the statuses of a new epoch, with no memset. Every word an earlier launch
     * wrote carries another epoch and reads as X, and the ticket is back at 0, as
     * the previous pipeline launch's last draw left it (draw_ticket_rewinding).
     * Only when ws->epoch is 0 (a fresh workspace, or a reset since the last
     * pipeline launch: it left the ticket as its draws did) or has used up the
     * epochs is the whole array zeroed, and the count starts again at 1: words
     * tagged 1, 2, ... by earlier launches must not read as current. The
     * statistics are zeroed when they are on. */
    static int begin_epoch(lab3_workspace *ws, size_t tiles, cudaStream_t stream, lab3_tile_status *status)
    {
        static_assert(REUSE == LAB3_EPOCHS, "statuses without epochs are reset before every launch");
        if (bytes_for(tiles) > ws->status_bytes)
            return KIT_CHECK(cudaErrorInvalidValue); /* workspace sized for fewer tiles */
        if (ws->epoch == 0 || ws->epoch == LAB3_EPOCH_MAX) {
            if (int err = KIT_CHECK(cudaMemsetAsync(ws->status, 0, ws->status_bytes, stream)))
                return err;
            ws->epoch = 0;
        }
        ws->epoch++;
        *status = lab3_tile_status{ ws->status, ws->epoch };
        return zero_stats(ws, stream);
    }

    /* One thread draws the next tile id from the ticket counter; sharing it with the
     * block is the caller's business (Step 3.7: its loader warp). */
    __device__ unsigned int draw_ticket() const { return atomicAdd((unsigned int *)words, 1u); }

    /* The pipelines' draw: in their launches each of the gridDim.x blocks draws
     * until it gets an id past the last tile, tiles + gridDim.x draws in all. The
     * last of them (it draws tiles + gridDim.x - 1) sets the counter back to 0 for
     * the next launch: no other draw of this launch comes after it. */
    __device__ unsigned int draw_ticket_rewinding(size_t tiles) const
    {
        unsigned int t = draw_ticket();
        if (t == tiles + gridDim.x - 1)
            atomicExch((unsigned int *)words, 0u);
        return t;
    }

    /* Every thread of the block calls it: thread 0 draws the next tile id and shares
     * it through shared memory (one barrier). */
    __device__ unsigned int take_tile() const
    {
        __shared__ unsigned int tile_id;
        if (threadIdx.x == 0)
            tile_id = draw_ticket();
        __syncthreads();
        return tile_id;
    }

    /* Publish tile `tile`'s aggregate (flag A) or inclusive prefix (flag P). */
    __device__ void set_aggregate(long long tile, V aggregate) const { publish(tile, LAB3_STATUS_A, aggregate); }
    __device__ void set_inclusive(long long tile, V inclusive) const { publish(tile, LAB3_STATUS_P, inclusive); }

    /* Read tile `tile`'s status once: returns the flag (X, A or P) and sets value. */
    __device__ uint32_t load(long long tile, V &value) const
    {
        if constexpr (sizeof(V) == 4) {
            unsigned long long w =
                ORDER == LAB3_ORDERED ? kit_load_acquire(entry(tile)) : kit_load_relaxed(entry(tile));
            value = lab3_value32(w);
            return untag(lab3_flag32(w));
        } else {
            unsigned long long lo, hi;
            kit_load_relaxed_pair(entry(tile), lo, hi);
            lab3_pair p = { lo, hi };
            value = lab3_value64(p);
            return untag(lab3_flag64(p));
        }
    }

    /* Read until the flag is not X (backing off between polls); counts the polls
     * that found X in `waits`. Returns A or P and sets value. */
    __device__ uint32_t wait(long long tile, V &value, unsigned long long &waits) const
    {
        uint32_t flag;
        while ((flag = load(tile, value)) == LAB3_STATUS_X) {
            waits++;
            lab3_backoff();
        }
        return flag;
    }

    /* Wait until tile `tile` has published P, with acquire loads (backing off
     * between polls): what the tile did before its release of P happens before
     * whatever this thread does next. LAB3_P_RELEASED only. */
    __device__ void wait_inclusive(long long tile) const
    {
        static_assert(ORDER == LAB3_P_RELEASED, "only P is released");
        while (untag(lab3_flag32(kit_load_acquire(entry(tile)))) != LAB3_STATUS_P)
            lab3_backoff();
    }

  private:
    /* Bytes of the ticket, the padding and `tiles` entries of this size. */
    static size_t bytes_for(size_t tiles) { return LAB3_TICKET_BYTES + (LAB3_LOOKBACK_PAD + tiles) * ENTRY_BYTES; }
    static int zero_stats(lab3_workspace *ws, cudaStream_t stream)
    {
        return ws->stats ? KIT_CHECK(cudaMemsetAsync(ws->stats, 0, LAB3_STAT_COUNT * sizeof(unsigned long long), stream))
                         : 0;
    }
    __host__ __device__ uint32_t tag(uint32_t flag) const { return REUSE == LAB3_EPOCHS ? lab3_tag(epoch, flag) : flag; }
    __host__ __device__ uint32_t untag(uint32_t tagged) const
    {
        return REUSE == LAB3_EPOCHS ? lab3_untag(epoch, tagged) : tagged;
    }
    __device__ unsigned long long *entry(long long tile) const
    {
        return (unsigned long long *)((char *)words + LAB3_TICKET_BYTES +
                                      (size_t)(tile + LAB3_LOOKBACK_PAD) * ENTRY_BYTES);
    }
    /* One 8-byte store (flag + value) or one 16-byte store (flag repeated in both halves). */
    __device__ void publish(long long tile, uint32_t flag, V value) const
    {
        if constexpr (sizeof(V) == 4) {
            unsigned long long w = lab3_pack32(tag(flag), value);
            if (ORDER == LAB3_ORDERED || (ORDER == LAB3_P_RELEASED && flag == LAB3_STATUS_P))
                kit_store_release(entry(tile), w);
            else
                kit_store_relaxed(entry(tile), w);
        } else {
            lab3_pair p = lab3_pack64(tag(flag), value);
            kit_store_relaxed_pair(entry(tile), p.lo, p.hi);
        }
    }
};

/* Device side: record that one tile inspected `depth` predecessors and found X
 * `waits` times (only when statistics are on). Call it ONCE per tile that looked
 * back, from one thread (Step 3.4: thread 0; Step 3.5: lane 0 of the look-back
 * warp); tile 0 does not look back and records nothing. */
static __device__ __forceinline__ void lab3_stats_record(unsigned long long *stats, unsigned long long depth,
                                                         unsigned long long waits)
{
    if (stats) {
        atomicAdd(&stats[LAB3_STAT_TILES], 1ull);
        atomicAdd(&stats[LAB3_STAT_DEPTH_SUM], depth);
        atomicMax(&stats[LAB3_STAT_DEPTH_MAX], depth);
        atomicAdd(&stats[LAB3_STAT_WAITS], waits);
    }
}

/* ---- the warp-parallel look-back (Step 3.5; select-if reuses it) ---------------- */

/* Called by all 32 lanes of one warp for tile t > 0, after the tile has published
 * its aggregate. Returns the tile's exclusive prefix (in every lane). Lane l
 * watches predecessor p0 - l, p0 starting at t - 1: the warp polls until no lane
 * sees X, the nearest P is the lowest lane that sees P, the lanes up to it add
 * their values, and with no P the window slides 32 tiles back. Lanes before tile 0
 * (p < 0, at least -31) may issue their read like the others (it lands in the
 * status array's padding, LAB3_LOOKBACK_PAD entries: in bounds) or skip it; either
 * way they must then count as P with value 0, since the padding is never written
 * and reads as X for ever.
 * Statistics (stats may be NULL: lab3_stats_record then does nothing): lane 0 alone
 * records once at the end, with depth = 32 for every window that had no P plus the
 * lanes up to and including the nearest P in the last window, and waits = the polls
 * of the whole window that found an X in some lane (one per poll, not per lane). */
template <typename Status>
static __device__ __forceinline__ typename Status::value_type lab3_lookback_window(Status status, long long t,
                                                                                  unsigned long long *stats)
{
    typedef typename Status::value_type V;
    // BEGIN SOLUTION (Step 3.5): poll the window until no lane sees X (__any_sync; lab3_backoff between polls); ballot the P lanes; sum lanes up to the nearest P (lab3_warp_sum); slide back if none; lane 0 records the stats once
    const int lane = threadIdx.x & 31;
    V exclusive_prefix = 0;
    unsigned long long depth = 0, waits = 0;
    for (long long p0 = t - 1;; p0 -= 32) {
        long long p = p0 - lane; /* >= -31 in the first window: inside the padding */
        V value;
        uint32_t flag;
        for (;;) {
            flag = status.load(p, value);
            if (p < 0) { /* before tile 0: contributes nothing and stops the search */
                flag = LAB3_STATUS_P;
                value = 0;
            }
            if (!__any_sync(KIT_FULL_MASK, flag == LAB3_STATUS_X))
                break;
            waits++;
            lab3_backoff();
        }
        unsigned int p_lanes = __ballot_sync(KIT_FULL_MASK, flag == LAB3_STATUS_P);
        int last = p_lanes ? __ffs(p_lanes) - 1 : 31; /* nearest P, or the whole window */
        exclusive_prefix += lab3_warp_sum(lane <= last ? value : V(0));
        depth += (unsigned long long)last + 1;
        if (p_lanes) /* a window that reaches tile 0 always has a P: the loop ends */
            break;
    }
    if (lane == 0)
        lab3_stats_record(stats, depth, waits);
    return exclusive_prefix;
    // STUB: (void)status, (void)t, (void)stats;
    // STUB: return V(0);
    // END SOLUTION
}

/* The single-pass protocol for tile t, run by all 32 lanes of warp 0 once the
 * block knows the tile's aggregate: tile 0 publishes P at once; any other tile
 * publishes A, looks back (lab3_lookback_window) and publishes P = its exclusive
 * prefix + aggregate. Returns the exclusive prefix, valid in thread 0. With
 * LAB3_ORDERED, a __syncwarp() first makes every lane's acquire loads happen
 * before lane 0's release of P (so P passes on all the look-back saw). The other
 * warps of the block learn the prefix, and with LAB3_ORDERED what the look-back
 * acquired, only through shared memory and a __syncthreads() after this call. */
template <typename Status>
static __device__ __forceinline__ typename Status::value_type
lab3_tile_lookback(Status status, long long t, typename Status::value_type aggregate, unsigned long long *stats)
{
    typedef typename Status::value_type V;
    // BEGIN SOLUTION (Step 3.5): tile 0: lane 0 publishes P, return 0; else lane 0 publishes A, the warp looks back, (ordered: __syncwarp), lane 0 publishes P
    const bool lane0 = threadIdx.x == 0;
    if (t == 0) {
        if (lane0)
            status.set_inclusive(0, aggregate);
        return V(0);
    }
    if (lane0)
        status.set_aggregate(t, aggregate);
    V before = lab3_lookback_window(status, t, stats);
    if (Status::order == LAB3_ORDERED)
        __syncwarp();
    if (lane0)
        status.set_inclusive(t, before + aggregate);
    return before;
    // STUB: (void)status, (void)t, (void)aggregate, (void)stats;
    // STUB: return V(0);
    // END SOLUTION
}

#endif

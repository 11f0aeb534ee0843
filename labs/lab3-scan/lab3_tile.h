/* lab3_tile.h: the host/device logic of lab3 that needs no GPU to test: how n
 * items split into tiles, how much scratch the multi-pass scans need, how a
 * tile's status (flag + value) is packed into memory words for the single-pass
 * scans, and the keep predicate of the compaction. The kernels and the CPU suite
 * (tests/cpu/test_lab3_ref.c, compiled as C) include the same code. */
#ifndef LAB3_TILE_H
#define LAB3_TILE_H

#include <stddef.h>
#include <stdint.h>

#include "kit_hd.h"

/* ---- tiles ------------------------------------------------------------------ */

/* Scratch entries the recursive multi-pass scans need: one per tile at every
 * level (the tile totals, then the totals of those, ...) until one tile is left. */
KIT_HD size_t lab3_spine_entries(size_t n, size_t nv)
{
    size_t total = 0;
    while (n > nv) {
        n = kit_div_up(n, nv);
        total += n;
    }
    return total;
}

/* ---- tile status for the single-pass scans -------------------------------------
 * Every tile publishes one status: X (nothing yet), A (its own aggregate is known)
 * or P (its inclusive prefix, i.e. the sum of everything up to and including it,
 * is known). X is 0 so that a memset to zero resets the array. */
#define LAB3_STATUS_X 0u
#define LAB3_STATUS_A 1u
#define LAB3_STATUS_P 2u

/* Look-back reads tile t - 1 - lane for lane = 0..31: the status array starts
 * with this many spare entries so those reads stay in bounds for the first tiles
 * (lanes that reach before tile 0 ignore what they read). */
#define LAB3_LOOKBACK_PAD 32
/* Bytes before the first status entry: the ticket counter that hands out tile
 * ids, alone in its own 128-byte line. */
#define LAB3_TICKET_BYTES 128
/* Bytes of one status entry: 8 for 32-bit values, 16 for 64-bit values. */
#define LAB3_STATUS_ENTRY_MAX 16
/* Bytes of the status block (ticket + padding + one entry per tile) for a scan
 * of n items in tiles of nv with entries of entry_bytes. */
KIT_HD size_t lab3_status_bytes(size_t n, size_t nv, size_t entry_bytes)
{
    return LAB3_TICKET_BYTES + (LAB3_LOOKBACK_PAD + kit_div_up(n, nv)) * entry_bytes;
}

/* 32-bit values: flag and value in ONE 64-bit word (flag in the high half), so a
 * single 64-bit store publishes both and a single 64-bit load sees both: no
 * reader can ever see a new flag with an old value. */
KIT_HD uint64_t lab3_pack32(uint32_t flag, uint32_t value)
{
    return (uint64_t)flag << 32 | value;
}
KIT_HD uint32_t lab3_flag32(uint64_t word) { return (uint32_t)(word >> 32); }
KIT_HD uint32_t lab3_value32(uint64_t word) { return (uint32_t)word; }

/* 64-bit values: flag + 64-bit value do not fit one 64-bit word, and the memory
 * model only promises that each aligned 64-bit access is indivisible (a 16-byte
 * vector access counts as two 64-bit accesses in unspecified order). So the entry
 * is two 64-bit words, each carrying the flag next to one 32-bit half of the
 * value: { flag:32 | low:32 } { flag:32 | high:32 }. Both are written with one
 * 16-byte store and read with one 16-byte load; a reader that sees two different
 * flags has caught the entry between two states and treats it as X (reads again).
 * Because every state (A, then P) is written exactly once per run, two halves
 * with the same flag always come from the same store. No fence is needed. */
typedef struct {
    uint64_t lo, hi;
} lab3_pair;

KIT_HD lab3_pair lab3_pack64(uint32_t flag, uint64_t value)
{
    lab3_pair p;
    p.lo = lab3_pack32(flag, (uint32_t)value);
    p.hi = lab3_pack32(flag, (uint32_t)(value >> 32));
    return p;
}
/* The flag, or X when the two halves disagree (a torn read: try again). */
KIT_HD uint32_t lab3_flag64(lab3_pair p)
{
    uint32_t a = lab3_flag32(p.lo), b = lab3_flag32(p.hi);
    return a == b ? a : LAB3_STATUS_X;
}
KIT_HD uint64_t lab3_value64(lab3_pair p)
{
    return (uint64_t)lab3_value32(p.hi) << 32 | lab3_value32(p.lo);
}

/* Epochs (Steps 3.7-3.8): the pipelines do not zero the array before a launch.
 * Each launch tags every flag it writes with its own epoch, 1 .. LAB3_EPOCH_MAX
 * (counted per workspace, lab3.h), in the 32-bit flag field beside the value:
 * epoch << 2 | flag. A reader untags with its launch's epoch, and a word of any
 * other launch reads as X: stale prefixes are never added. The variants that zero
 * the array before each launch use epoch 0, so for them a tag is the plain flag.
 * A zeroed word is X in every epoch. */
#define LAB3_EPOCH_MAX ((1u << 30) - 1)
KIT_HD uint32_t lab3_tag(uint32_t epoch, uint32_t flag) { return epoch << 2 | flag; }
KIT_HD uint32_t lab3_untag(uint32_t epoch, uint32_t tagged)
{
    return tagged >> 2 == epoch ? tagged & 3u : LAB3_STATUS_X;
}

/* ---- compaction --------------------------------------------------------------- */

/* Keep an item when a hash of its bits falls below keep_pct percent: the same on
 * CPU and GPU, about keep_pct% of random data, none for 0, all for 100. */
KIT_HD int lab3_keep(uint64_t bits, uint32_t keep_pct)
{
    bits ^= bits >> 33;
    bits *= 0xff51afd7ed558ccdull;
    bits ^= bits >> 33;
    bits *= 0xc4ceb9fe1a85ec53ull;
    bits ^= bits >> 33;
    return (uint32_t)(bits % 100u) < keep_pct;
}

#endif

/* lab5.h: radix sort, the capstone: a digit histogram (lab 1), a scan (lab 3) and
 * a stable scatter, from a one-bit split to Onesweep; a merge sort (lab 4) for
 * contrast. The lab's C API: what every variant computes, the launcher signature,
 * the variant table, the CPU reference, the data and the "problem" (data +
 * reference + device buffers + workspace) shared by the driver and the GPU tests. */
#ifndef LAB5_H
#define LAB5_H

#include "kit.h"
#include "lab5_radix.h"
#include "lab5_shapes.h" /* every tile shape and tuning choice */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- what a sort computes ------------------------------------------------------------
 * keys_out = the n keys of keys_in in ascending key order (lab5_order), stable:
 * keys that compare equal keep their input order. With values (pairs), value i
 * travels with key i. keys_in and values_in are never written; scratch comes from
 * the workspace. Buffers are device pointers, 16-byte aligned. */
typedef struct {
    uint32_t *keys_alt, *values_alt; /* the scratch half of every ping-pong: n keys, n values */
    uint32_t *ranks;                 /* split-1bit: n destinations (the scanned flags) */
    uint32_t *counts;                /* digit-4bit, digit-8bit: digit x tile counts, scanned in place */
    size_t counts_words;
    uint32_t *onesweep;              /* onesweep: control block + status words (lab5_radix.h) */
    size_t onesweep_words;
    int64_t *partitions;             /* merge-sort: one Merge Path split per tile boundary */
    size_t partition_count;
    void *scan_temp;                 /* CUB's scan scratch (split-1bit, digit-4bit, digit-8bit) */
    size_t scan_temp_bytes;
    void *cub_temp;                  /* the cub row's scratch */
    size_t cub_temp_bytes;
} lab5_workspace;

typedef struct {
    const uint32_t *keys_in, *values_in; /* values_in NULL: keys only */
    uint32_t *keys_out, *values_out;
    size_t n;
    lab5_type type;
    lab5_workspace *ws;
    /* onesweep with values: 2 = two tiles of LAB5_ONESWEEP_NV_PAIRS keys per SM,
     * 1 = one tile of LAB5_ONESWEEP_SOLO_NV_PAIRS, 0 = the GPU's choice
     * (lab5_onesweep_tiles_per_sm). Keys only, and the other variants, ignore it. */
    int onesweep_tiles_per_sm;
} lab5_sort_io;

typedef int (*lab5_sort_fn)(const lab5_sort_io *io, cudaStream_t stream);

typedef struct {
    kit_variant_info info;
    lab5_sort_fn run;
} lab5_variant;

extern const lab5_variant lab5_variants[];
extern const int lab5_variant_count;

/* Launchers (one file each). */
int lab5_split_1bit(const lab5_sort_io *io, cudaStream_t stream);
int lab5_digit_4bit(const lab5_sort_io *io, cudaStream_t stream);
int lab5_digit_8bit_warp_rank(const lab5_sort_io *io, cudaStream_t stream);
int lab5_onesweep(const lab5_sort_io *io, cudaStream_t stream);
/* Onesweep's tiles per SM with values on the current GPU, 1 or 2 (lab5_shapes.h
 * says how it is chosen). */
int lab5_onesweep_tiles_per_sm(void);
/* Whether this GPU can run the one-tile shape at all (its shared memory per block:
 * not on sm_75 or sm_86, for example). */
int lab5_onesweep_solo_fits(void);
int lab5_merge_sort(const lab5_sort_io *io, cudaStream_t stream);
/* cub_ref.cu: cub::DeviceRadixSort::SortKeys / SortPairs (the cub row), and CUB's
 * exclusive scan of n 32-bit counts, which split-1bit and the digit variants use. */
int lab5_cub_sort(const lab5_sort_io *io, cudaStream_t stream);
int lab5_cub_exclusive_scan(uint32_t *counts, size_t n, lab5_workspace *ws, cudaStream_t stream);
/* Scratch bytes of a CUB sort of n keys (with or without values), of a CUB scan of n counts. */
size_t lab5_cub_sort_temp_bytes(size_t n);
size_t lab5_cub_scan_temp_bytes(size_t n);

/* ---- data (lab5_problem.c) ------------------------------------------------------------ */
typedef enum { LAB5_UNIFORM, LAB5_FEW, LAB5_EQUAL, LAB5_SORTED, LAB5_REVERSE, LAB5_LOWBITS, LAB5_DIST_COUNT } lab5_dist;
/* "uniform", "few", ..., NULL: the --dist names, in lab5_dist order. */
extern const char *const lab5_dist_names[];
const char *lab5_type_name(lab5_type type);
/* n keys of a distribution, the same for any thread count:
 *   uniform  every 32-bit word equally likely (f32: NaNs, infinities, both zeros included)
 *   few      16 distinct keys, among them the type's edge values (f32: -0.0, +0.0, NaNs,
 *            infinities; i32: INT_MIN, -1, 0, INT_MAX; u32: 0, 2^32-1)
 *   equal    one key n times
 *   sorted   ascending in key order, spread over the whole range
 *   reverse  descending
 *   lowbits  uniform in the low 16 bits, the high 16 bits zero (the top two 8-bit
 *            digits are the same for every key: passes a sort can skip) */
void lab5_generate(uint32_t *keys, size_t n, lab5_type type, lab5_dist dist, uint64_t seed);

/* ---- CPU reference (lab5_ref.c) ------------------------------------------------------- */
/* Stable sort of n keys by lab5_order; values may be NULL (then values_out is ignored). */
void lab5_ref_sort(const uint32_t *keys, const uint32_t *values, size_t n, lab5_type type, uint32_t *keys_out,
                   uint32_t *values_out);

/* ---- the problem: data, device buffers, reference, one kit_case per row ---------------- */
typedef struct lab5_problem lab5_problem;
/* n keys of `dist`; with pairs, value i = i (the key's original index, so the check
 * also proves stability). Exits 2 with a message if n > LAB5_MAX_N or the buffers
 * do not fit. */
lab5_problem *lab5_problem_create(size_t n, lab5_type type, lab5_dist dist, int pairs, uint64_t seed);
/* The same with the caller's keys (host array of n). */
lab5_problem *lab5_problem_create_from(const uint32_t *h_keys, size_t n, lab5_type type, int pairs);
void lab5_problem_destroy(lab5_problem *p);
/* Device bytes a problem needs. */
size_t lab5_device_bytes(size_t n, int pairs);
/* The case of variant v (index into lab5_variants), or of CUB's sort when v ==
 * LAB5_CUB: prepare poisons the outputs, check compares keys (and values) with
 * the reference, bit for bit. */
#define LAB5_CUB (-1)
kit_case lab5_problem_case(lab5_problem *p, int v);
/* The memcpy row: copy the n keys (and values), device to device. */
void lab5_problem_copy_limit(lab5_problem *p, kit_config *cfg);
/* Onesweep's tiles per SM with values for this problem's runs (lab5_sort_io). */
void lab5_problem_set_onesweep_tiles(lab5_problem *p, int tiles_per_sm);
/* After an onesweep run: its plan (bit p: pass p ran). 0 on success. */
int lab5_problem_onesweep_plan(lab5_problem *p, uint32_t *plan);

#ifdef __cplusplus
}
#endif
#endif

/* kit.h: the harness every lab shares.
 *
 * Host code is C11; kernels and launchers are CUDA C and see these declarations
 * through extern "C". A lab uses the harness in four steps:
 *   1. describe itself (kit_lab: name, variants, extra flags) and parse options;
 *   2. for each size / type / distribution, build its data and one kit_case per row;
 *   3. kit_run_cases() checks every case against the CPU reference, then times it
 *      next to a device-to-device memcpy of the same bytes;
 *   4. kit_report_finish() prints the table, writes the CSV and gives the exit status.
 */
#ifndef KIT_H
#define KIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#include "kit_hd.h" /* KIT_HD, KIT_FULL_MASK, kit_div_up */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status and exit codes (errors.c) ----------------------------------- */

/* A launcher returns 0, a cudaError_t, or KIT_TODO for a step not written yet. */
#define KIT_TODO 100000

typedef enum { KIT_PASS = 0, KIT_FAIL = 1, KIT_ERROR = 2, KIT_TODO_STATUS = 3 } kit_status;
enum { KIT_EXIT_OK = 0, KIT_EXIT_WRONG = 1, KIT_EXIT_USAGE = 2, KIT_EXIT_TODO = 3 };

const char *kit_status_name(kit_status s);

/* ---- errors (errors.c) -------------------------------------------------- */

/* Report a failed CUDA call with its text and file:line; evaluates to the error. */
#define KIT_CHECK(call) kit_check_((call), #call, __FILE__, __LINE__)
int kit_check_(cudaError_t err, const char *what, const char *file, int line);

/* After a launch: catches launch errors at once and, with KIT_SYNC_CHECK=1 in the
 * environment, synchronizes so a fault inside the kernel is blamed on this launch. */
#define KIT_LAUNCH_CHECK() kit_launch_check_(__FILE__, __LINE__)
int kit_launch_check_(const char *file, int line);

/* Print to stderr and exit with status code. */
void kit_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Host allocation that exits 2 with a message naming what it was for. */
void *kit_host_alloc(size_t bytes, const char *what);
/* a * b, or exit 2 with what overflowed. */
size_t kit_mul_or_die(size_t a, size_t b, const char *what);

/* ---- progress (progress.c) ---------------------------------------------- */

/* No run may look hung. Wrap a host step that can take a while (a CPU reference,
 * data for a large n) in kit_note_begin("building the CPU reference") ...
 * kit_note_end(): if the step runs longer than 3 s, a note on stderr says what is
 * running and for how long, every 10 s, and when it ends. One step at a time;
 * kit_note_end returns the seconds the step took. */
void kit_note_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double kit_note_end(void);

/* ---- sizes (options.c), statistics (timing.c), random numbers (random.c) --- */

/* Parse "1048576", "2^20", "2^20+7", "2^24-1" or "1<<20" into *out.
 * Returns 0, or -1 for anything else (negative, garbage, overflow). */
int kit_parse_size(const char *text, size_t *out);

typedef struct {
    double median, min, max;
    int runs; /* how many samples */
} kit_stats;
/* Median/min/max of n samples (the array is sorted in place). n >= 1. */
kit_stats kit_stats_of(double *samples, int n);

/* Counter-based generator: value i depends only on (seed, i), so data is the same
 * whatever order or thread produces it. */
uint64_t kit_hash64(uint64_t seed, uint64_t i);
/* Uniform in [lo, hi] (inclusive), unbiased enough for test data. */
int64_t kit_rand_range(uint64_t seed, uint64_t i, int64_t lo, int64_t hi);
/* Uniform float in [0, 1). */
double kit_rand_unit(uint64_t seed, uint64_t i);

void kit_fill_i32(int32_t *a, size_t n, uint64_t seed, int32_t lo, int32_t hi);
void kit_fill_i64(int64_t *a, size_t n, uint64_t seed, int64_t lo, int64_t hi);
void kit_fill_f32(float *a, size_t n, uint64_t seed, float lo, float hi);
void kit_fill_f64(double *a, size_t n, uint64_t seed, double lo, double hi);

/* The CPU references' radix sort (radix_sort.c): the n words, and their payloads when payload is not
 * NULL, sorted in place by word, stably (equal words keep their input order). Four
 * passes over 8-bit digits, least significant first, each split over the OpenMP
 * threads: a count per thread's contiguous part, one scan in (digit, thread) order,
 * then each thread moves its part. */
void kit_radix_sort_u32(uint32_t *word, uint32_t *payload, size_t n);

/* ---- the lab description and options (options.c) ------------------------ */

typedef struct {
    const char *slug; /* name on the command line, in the table and in the CSV */
    const char *step; /* exercise step id, e.g. "2.3"; shared by sheet, TODO and test */
    const char *idea; /* the one idea of this step, in a line */
} kit_variant_info;

/* A lab's variant table is an array of structs whose FIRST member is a
 * kit_variant_info; the harness walks it with the struct's size as stride. */
typedef struct {
    const void *first;
    size_t stride;
    int count;
} kit_variant_list;
#define KIT_VARIANTS(table, count_) ((kit_variant_list){ &(table)[0].info, sizeof((table)[0]), (count_) })
const kit_variant_info *kit_variant_at(kit_variant_list list, int i);
/* Index of slug in the list, or -1. */
int kit_variant_find(kit_variant_list list, const char *slug);

typedef enum { KIT_FLAG_SIZE, KIT_FLAG_INT, KIT_FLAG_STRING, KIT_FLAG_SWITCH } kit_flag_kind;

/* A lab-specific flag, e.g. --bins N. target points to size_t, long long,
 * const char * or int (switch) according to kind. */
typedef struct {
    const char *name;    /* "--bins" */
    kit_flag_kind kind;
    const char *metavar; /* "N" */
    const char *help;
    void *target;
    long long min, max;  /* inclusive range for SIZE and INT */
} kit_flag;

typedef struct {
    const char *name;          /* "lab0" */
    const char *title;         /* one line: what the lab is about */
    kit_variant_list variants;
    const char *const *dists;  /* NULL-terminated list of --dist names; NULL if none */
    const char *dist_help;     /* what the distributions mean */
    const kit_flag *flags;     /* extra flags, terminated by a {NULL} entry; may be NULL */
    size_t default_n;
    size_t max_n;              /* largest n the lab accepts (its index math) */
    const char *n_unit;        /* what n counts, e.g. "int32 keys" */
} kit_lab;

typedef struct {
    size_t n;            /* --n; default lab->default_n */
    int reps, warmup;    /* --reps, --warmup */
    double budget_s;     /* --budget: seconds one row may take before its repetitions stop */
    const char *variant; /* --variant; "all" by default */
    int list, sweep, help;
    const char *csv_path; /* --csv or NULL */
    uint64_t seed;
    const char *dist;    /* --dist; first of lab->dists by default */
    int device;
} kit_options;

/* Parse argv. Returns 0 on success, 1 when --help was asked for, -1 on an error
 * (message in err). Touches no CUDA state, so it is safe anywhere. */
int kit_parse_options(const kit_lab *lab, int argc, char **argv, kit_options *opt,
                      char *err, size_t err_len);
void kit_print_usage(const kit_lab *lab, FILE *to);
void kit_print_variants(const kit_lab *lab, FILE *to);
/* Parse, and act on --help, --list and errors (exit 0 / 0 / 2). */
void kit_options_or_exit(const kit_lab *lab, int argc, char **argv, kit_options *opt);
/* For checks a lab makes after parsing (e.g. a value out of range for this
 * distribution): print the message and the usage, exit 2. */
void kit_usage_error(const kit_lab *lab, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Does the variant pass the --variant filter? */
int kit_variant_selected(const kit_options *opt, const char *slug);

/* Sizes for one run: {--n}, or 2^10..2^28 with --sweep, capped at max_n.
 * Returns the count; sizes must hold 32 entries. */
int kit_sizes(const kit_options *opt, const kit_lab *lab, size_t *sizes);

/* ---- the device (device.c, resident.c) ---------------------------------- */

typedef struct {
    int id;
    char name[256];
    int sms, cc_major, cc_minor;
    size_t global_mem, l2_bytes;
    double peak_gbs;  /* from memory clock and bus width; 0 if unknown */
} kit_device;

/* 1 in a build for the kit's CPU emulator (EMU=1, common/emu/README.md): kernels
 * run on the CPU, so results are checked but nothing is timed. */
int kit_emulated(void);
/* Under the emulator, the largest default --n (and --sweep size): what it runs in
 * seconds. */
#define KIT_EMU_MAX_DEFAULT_N ((size_t)1 << 16)

/* Select the device. Returns 0, or an error with a reason ("no CUDA-capable GPU
 * found: ...") written to why. */
int kit_device_open(int id, kit_device *dev, char *why, size_t why_len);
/* Open --device or exit 2 with "no CUDA-capable GPU found (reason)". */
void kit_device_open_or_exit(const kit_options *opt, kit_device *dev);
void kit_device_print(const kit_device *dev, FILE *to);

/* Device allocation that fails with a clear message naming what it was for. */
void *kit_device_alloc(size_t bytes, const char *what);
/* Exit 2 unless `bytes` more fit in free device memory (with headroom). */
void kit_require_device_bytes(size_t bytes, const char *what);

/* How many blocks of a kernel (threads per block, smem bytes of dynamic shared
 * memory) the GPU `device` holds at once: the grid of a persistent kernel, one
 * that loops over tiles whose number it learns on the device. The CUDA files ask
 * through kit_resident_blocks (kit_cuda.cuh), which names the current device.
 * A query answers for the current device, which is `device`: 0 or a CUDA error
 * (reported). */
typedef int (*kit_resident_query)(int device, const void *kernel, int threads, size_t smem, int *blocks);
/* The plain query: the SMs x the blocks per SM the occupancy calculator allows
 * (at least one per SM). */
int kit_count_resident_blocks(int device, const void *kernel, int threads, size_t smem, int *blocks);
/* query's answer, asked the first time a (device, kernel, threads, smem, query)
 * comes and remembered after (not when it fails): a query may set the kernel's
 * attributes first, and those too are per device. Thread-safe. */
int kit_resident_blocks_on(int device, const void *kernel, int threads, size_t smem, kit_resident_query query,
                           int *blocks);

/* Fill bytes with a pattern no kernel writes by accident (0xA5 bytes), so that
 * an element a variant forgot to write fails the check. */
int kit_poison(void *d_ptr, size_t bytes, cudaStream_t stream);

/* ---- checking (compare.c; kit_download: device.c) ----------------------- */

/* Each compare returns 0 when equal; otherwise 1 and a message naming the first
 * bad index, the expected and the got value (and how many differ). */
int kit_compare_i32(const int32_t *got, const int32_t *expected, size_t n, char *msg, size_t len);
int kit_compare_i64(const int64_t *got, const int64_t *expected, size_t n, char *msg, size_t len);
int kit_compare_u32(const uint32_t *got, const uint32_t *expected, size_t n, char *msg, size_t len);
/* Floats: |got - expected| <= abs_tol + rel_tol * |expected|. An expected infinity
 * needs the same infinity, a NaN any NaN. abs_tol = rel_tol = 0 means bit-exact:
 * equal values of the same sign (-0.0 is not +0.0); NaNs still match any NaN. */
int kit_compare_f32(const float *got, const float *expected, size_t n, double abs_tol,
                    double rel_tol, char *msg, size_t len);
int kit_compare_f64(const double *got, const double *expected, size_t n, double abs_tol,
                    double rel_tol, char *msg, size_t len);

/* Copy n_bytes from the device into a fresh host buffer (caller frees). */
void *kit_download(const void *d_ptr, size_t n_bytes);

/* ---- cases, timing (timing.c) and the report (report.c) ----------------- */

/* Enqueue the work of one case on the stream: 0, a cudaError_t, or KIT_TODO. */
typedef int (*kit_run_fn)(void *ctx, cudaStream_t stream);
/* After a run has finished: 0 when the output matches the CPU reference,
 * otherwise 1 with the reason in msg. */
typedef int (*kit_check_fn)(void *ctx, char *msg, size_t len);

typedef struct {
    const char *variant;   /* slug shown in the table */
    kit_run_fn prepare;    /* optional: poison outputs / reset state before the checked run */
    kit_run_fn run;
    kit_check_fn check;    /* NULL for rows that are only timed */
    void *ctx;
    double bytes;          /* bytes one run must move (each input read once, each output
                              written once): the GB/s column */
    double items;          /* items one run processes: the Gitems/s column */
    kit_run_fn reset;      /* optional: restore the inputs before every timed run, outside
                              the timed span (for a case that works in place) */
} kit_case;

/* prepare, run once, wait, check: PASS, FAIL, TODO or ERROR with the reason.
 * The driver and the GPU tests both judge a case with this. */
kit_status kit_check_case(const kit_case *c, cudaStream_t stream, char *why, size_t len);

typedef struct {
    const char *lab, *type, *dist; /* for the table and CSV */
    char param[64];                /* a lab-specific parameter, e.g. "s=4"; "" if none */
    size_t n;
    double items;                  /* items of the memcpy row (usually n) */
    const void *copy_src;          /* the memcpy row copies copy_bytes from src to dst */
    void *copy_dst;
    size_t copy_bytes;
} kit_config;

typedef struct {
    char lab[16], variant[40], type[16], dist[32], param[64];
    size_t n;
    kit_stats ms;         /* ms.runs < planned_runs: the time budget cut the repetitions */
    int planned_runs;
    char baseline[40];    /* the row the speedup is relative to ("" for memcpy) */
    double gbytes_s, gitems_s, pct_of_memcpy, speedup;
    kit_status status;
    char why[256];
} kit_row;

typedef struct {
    kit_row *rows;
    int count, cap;
    FILE *csv;
    kit_device dev;
    void *flush_buf;     /* written before every timed run so L2 starts cold */
    size_t flush_bytes;
} kit_report;

/* How to time a case: warmup untimed runs, then reps timed runs, within a budget of
 * seconds (0: none). Once the budget is spent the runs stop early (at least one is
 * timed; warm-up stops at half the budget); out->runs says how many were timed. */
typedef struct {
    int warmup, reps;
    double budget_s;
    void *flush_buf;   /* written before every timed run so L2 starts cold; may be NULL */
    size_t flush_bytes;
} kit_timing;

/* Time a case's run with CUDA events. Before each timed run, outside the timed span:
 * the case's reset (if any), then the L2 flush. */
int kit_time(const kit_case *c, cudaStream_t stream, const kit_timing *t, kit_stats *out);

void kit_report_open(kit_report *rep, const kit_options *opt, const kit_device *dev);
/* What every driver does first: open the --device GPU (exit 2 with the reason if
 * there is none), open the report, create the stream all cases run on. */
cudaStream_t kit_begin(const kit_options *opt, kit_report *rep);
/* ...and last: destroy the stream, finish the report; returns the exit status. */
int kit_end(kit_report *rep, cudaStream_t stream);
/* Check then time every case of one configuration; append rows (memcpy first).
 * speedup is relative to the first timed case after memcpy. */
void kit_run_cases(kit_report *rep, const kit_options *opt, const kit_config *cfg,
                   const kit_case *cases, int count, cudaStream_t stream);
/* Add a row that was not run (e.g. a TODO found before allocating). */
void kit_report_add(kit_report *rep, const kit_row *row);
/* Print the failures again, close the CSV; returns the exit status
 * (0 pass, 1 some FAIL, 2 a CUDA error, 3 some TODO). */
int kit_report_finish(kit_report *rep);

/* Formatting, shared with tests. */
void kit_csv_header(FILE *to, const kit_device *dev);
void kit_csv_row(FILE *to, const kit_row *row);
void kit_print_table_head(FILE *to);
void kit_print_table_row(FILE *to, const kit_row *row);

#ifdef __cplusplus
}
#endif
#endif

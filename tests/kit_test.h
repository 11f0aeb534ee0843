/* kit_test.h: what the Criterion suites share.
 *
 * Criterion runs each test in a forked worker and CUDA does not survive fork():
 * a test touches CUDA only inside its body, never in a global, a parameter
 * generator or a constructor. GPU suites skip themselves, with the reason, when no
 * GPU is present. */
#ifndef KIT_TEST_H
#define KIT_TEST_H

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>
#include <criterion/redirect.h>

#include "kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kit's root folder, for tests that run its scripts or read its fixtures:
 * $KIT_ROOT if set, otherwise the nearest folder above the test binary that holds
 * tools/mklabs.sh (ROOT/build/tests/BINARY, or ROOT/build/emu/tests/BINARY under the
 * CPU emulator), so a suite built in one place runs from anywhere. */
static inline const char *kit_test_root(void)
{
    static char root[4096];
    if (root[0])
        return root;
    const char *env = getenv("KIT_ROOT");
    if (env && *env) {
        snprintf(root, sizeof root, "%s", env);
    } else {
        ssize_t len = readlink("/proc/self/exe", root, sizeof root - 1);
        cr_assert(gt(sz, (size_t)(len > 0 ? len : 0), 0), "cannot read /proc/self/exe: set KIT_ROOT");
        root[len] = '\0';
        char here[4200];
        for (int up = 0; up < 4; up++) {
            char *slash = strrchr(root, '/');
            if (slash)
                *slash = '\0';
            snprintf(here, sizeof here, "%s/tools/mklabs.sh", root);
            if (up >= 2 && access(here, R_OK) == 0)
                break;
        }
    }
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/tools/mklabs.sh", root);
    cr_assert(eq(int, access(probe, R_OK), 0),
              "the kit's root was taken to be '%s' (no tools/mklabs.sh there): set KIT_ROOT", root);
    return root;
}

/* Skip the calling test unless a CUDA device can be opened. */
#define KIT_TEST_REQUIRE_GPU()                                              \
    do {                                                                    \
        kit_device dev_;                                                    \
        char why_[512];                                                     \
        if (kit_device_open(0, &dev_, why_, sizeof why_))                   \
            cr_skip_test("GPU suite skipped: %s", why_);                    \
    } while (0)

/* Under the CPU emulator (a build without a GPU, common/emu/README.md) the suites
 * run every case up to KIT_EMU_TEST_MAX_N elements (the environment may change it):
 * the sizes a CPU emulates in seconds, every boundary case among them. A larger
 * case is skipped with the reason, counted as not run. */
#define KIT_TEST_EMU_MAX_N_DEFAULT ((size_t)300000)
static inline size_t kit_test_emu_max_n(void)
{
    const char *v = getenv("KIT_EMU_TEST_MAX_N");
    return v && *v ? (size_t)strtoull(v, NULL, 0) : KIT_TEST_EMU_MAX_N_DEFAULT;
}
#define KIT_TEST_EMULATED_UP_TO(n, what)                                                                  \
    do {                                                                                                  \
        if (kit_emulated() && (size_t)(n) > kit_test_emu_max_n())                                         \
            cr_skip_test("not run under the CPU emulator: %s has %zu elements, past the %zu it runs "     \
                         "(KIT_EMU_TEST_MAX_N; the GPU runs it)",                                         \
                         (what), (size_t)(n), kit_test_emu_max_n());                                      \
    } while (0)

/* For a test that loops over sizes: KIT_TEST_EMU_SIZES_BEGIN, then `if
 * (KIT_TEST_EMU_TOO_BIG(n)) continue;` in the loop, then KIT_TEST_EMU_SIZES_END(what):
 * the sizes the emulator ran were checked, and the test says which one it did not
 * run (a skip: not a pass). */
#define KIT_TEST_EMU_SIZES_BEGIN size_t kit_emu_skipped_ = 0
#define KIT_TEST_EMU_TOO_BIG(n) \
    (kit_emulated() && (size_t)(n) > kit_test_emu_max_n() && (kit_emu_skipped_ = (size_t)(n), 1))
#define KIT_TEST_EMU_SIZES_END(what)                                                                      \
    do {                                                                                                  \
        if (kit_emu_skipped_)                                                                             \
            cr_skip_test("partly not run under the CPU emulator: %s at n = %zu, past the %zu elements it " \
                         "runs (KIT_EMU_TEST_MAX_N; the smaller sizes passed)",                           \
                         (what), kit_emu_skipped_, kit_test_emu_max_n());                                 \
    } while (0)

/* Skip the calling test, with the reason, unless `bytes` of device memory (plus
 * headroom for the context and library scratch) are free: the tests past 2^31
 * elements run where the GPU is large enough and say so where it is not. A skip is
 * reported as "not run", never as a pass (tools/grade.sh).
 * KIT_TEST_BIG=0 in the environment also skips every test that needs 2 GiB or more,
 * so that a GPU node can run the small tests of several labs side by side and the
 * big ones apart (tools/maint/gpu-run.sh); those skips say so. */
#define KIT_TEST_BIG_BYTES ((size_t)2 << 30)
#define KIT_TEST_REQUIRE_DEVICE_BYTES(bytes, what)                                          \
    do {                                                                                    \
        KIT_TEST_REQUIRE_GPU();                                                             \
        size_t free_ = 0, total_ = 0;                                                       \
        size_t need_ = (size_t)(bytes) + ((size_t)1 << 30);                                 \
        const char *big_ = getenv("KIT_TEST_BIG");                                          \
        if (kit_emulated() && (size_t)(bytes) >= KIT_TEST_BIG_BYTES)                        \
            cr_skip_test("not run under the CPU emulator: %s needs %.1f GiB (the GPU runs it)", \
                         (what), (size_t)(bytes) / 1073741824.0);                           \
        if (big_ && strcmp(big_, "0") == 0 && (size_t)(bytes) >= KIT_TEST_BIG_BYTES)        \
            cr_skip_test("%s needs %.1f GiB: left for the pass of big tests (KIT_TEST_BIG=0)", \
                         (what), need_ / 1073741824.0);                                     \
        if (cudaMemGetInfo(&free_, &total_) != cudaSuccess || need_ > free_)                \
            cr_skip_test("%s needs %.1f GiB of device memory; %.1f GiB are free", (what),  \
                         need_ / 1073741824.0, free_ / 1073741824.0);                       \
    } while (0)

/* A step whose code answered TODO fails the case with this one message: grading
 * names the step from it, and tools/grade/report.awk scores an unfinished step 0
 * when a case fails with "not implemented yet (TODO)". */
#define KIT_TEST_FAIL_TODO(step, variant) cr_fail("Step %s (%s) is not implemented yet (TODO)", (step), (variant))

/* Judge a case exactly as the driver does: poison, run, wait, compare with the
 * CPU reference. A TODO fails with the step id (KIT_TEST_FAIL_TODO).
 * `what` describes the input (size, distribution...) for the failure message. */
static inline void kit_test_expect_pass(kit_case c, const char *step, const char *what)
{
    char why[512] = "";
    kit_status s = kit_check_case(&c, 0, why, sizeof why);
    if (s == KIT_TODO_STATUS)
        KIT_TEST_FAIL_TODO(step, c.variant);
    cr_assert(eq(int, (int)s, (int)KIT_PASS), "%s [%s]: %s", c.variant, what, why);
}

/* The sizes every GPU suite runs unless a lab needs more: the empty input, a
 * single element, both sides of a warp, both sides of a typical block, and an
 * odd size past 2^20. */
#define KIT_TEST_SIZES 0, 1, 31, 32, 33, 1023, 1025, (1u << 20) + 7, 1u << 24

/* ---- grading (tools/grade) -------------------------------------------------------
 * Every case of a parameterised test has a name of its own in the grading reports
 * (lab3_v5/sizes/n=1025): KIT_CASE("n=%zu", *n) is the first statement of its body.
 * The grading programs define kit_test_case_name; elsewhere nothing does. */
void kit_test_case_name(const char *name) __attribute__((weak));
#define KIT_CASE(...)                                                 \
    do {                                                              \
        if (kit_test_case_name) {                                     \
            char case_name_[192];                                     \
            snprintf(case_name_, sizeof case_name_, __VA_ARGS__);     \
            kit_test_case_name(case_name_);                           \
        }                                                             \
    } while (0)

/* A parameterised suite's cases, each once (a size that two lists of edges both
 * name runs one time). The grading selection: with KIT_GRADE_SELECTION=1 in the
 * environment (make grade, make grade-submission) only the cases whose size is at
 * most KIT_GRADE_MAX_N (every edge: 0, 1, warps, tiles, 2^20 + 7); the larger ones
 * stay in make test. KIT_TEST_PARAMS(type, array, field): the cases of the array,
 * where `field` is the size_t that sizes a case (KIT_TEST_SIZE_PARAMS for size_t). */
#define KIT_GRADE_MAX_N ((size_t)1 << 21)
static inline int kit_test_grading(void)
{
    const char *grading = getenv("KIT_GRADE_SELECTION");
    return grading && !strcmp(grading, "1");
}
static inline void kit_test_params_free(struct criterion_test_params *params) { cr_free(params->params); }
static inline struct criterion_test_params kit_test_params(const void *array, size_t count, size_t size,
                                                           size_t n_offset)
{
    int selection = kit_test_grading();
    char *kept = cr_malloc(count * size);
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        const char *item = (const char *)array + i * size;
        size_t n, seen = 0;
        memcpy(&n, item + n_offset, sizeof n);
        while (seen < k && memcmp(kept + seen * size, item, size))
            seen++;
        if (seen == k && (!selection || n <= KIT_GRADE_MAX_N))
            memcpy(kept + size * k++, item, size);
    }
    return (struct criterion_test_params){ .size = size, .params = kept, .length = k, .cleanup = kit_test_params_free };
}
#define KIT_TEST_PARAMS(type, array, field) \
    kit_test_params((array), sizeof(array) / sizeof((array)[0]), sizeof(type), offsetof(type, field))
#define KIT_TEST_SIZE_PARAMS(array) kit_test_params((array), sizeof(array) / sizeof((array)[0]), sizeof(size_t), 0)

#endif

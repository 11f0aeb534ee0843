/* GPU suite for the harness itself: the per-row time budget cuts the repetitions of
 * a slow case and says so; a quick case gets every repetition. */
#include "kit_test.h"

#include <time.h>

/* A run that takes about 200 ms of host time between the two events. */
static int slow_run(void *ctx, cudaStream_t stream)
{
    (void)ctx;
    (void)stream;
    struct timespec nap = { 0, 200000000 };
    nanosleep(&nap, NULL);
    return 0;
}

static int quick_run(void *ctx, cudaStream_t stream)
{
    (void)ctx;
    (void)stream;
    return 0;
}

/* Timing needs a GPU: the emulator times nothing. */
#define REQUIRE_TIMING()                                                                  \
    do {                                                                                  \
        KIT_TEST_REQUIRE_GPU();                                                           \
        if (kit_emulated())                                                               \
            cr_skip_test("not run under the CPU emulator: it times nothing (the GPU runs it)"); \
    } while (0)

Test(harness_gpu, the_budget_cuts_a_slow_row_short)
{
    REQUIRE_TIMING();
    kit_case slow = { .variant = "slow", .run = slow_run };
    kit_timing t = { .warmup = 3, .reps = 50, .budget_s = 1.0 };
    kit_stats st;
    cr_assert(eq(int, kit_time(&slow, 0, &t, &st), 0));
    /* warm-up stops at half the budget (3 x 0.2 s > 0.5 s: 3 runs), then timed runs
     * until 1 s has gone by: about 3 of them, never all 50, never none */
    cr_assert(ge(int, st.runs, 1));
    cr_assert(le(int, st.runs, 5), "%d runs in a 1 s budget of 0.2 s runs", st.runs);
    cr_assert(ge(dbl, st.median, 150.0), "a 200 ms run timed as %.1f ms", st.median);
}

Test(harness_gpu, a_quick_row_gets_every_run)
{
    REQUIRE_TIMING();
    kit_case quick = { .variant = "quick", .run = quick_run };
    kit_timing t = { .warmup = 2, .reps = 30, .budget_s = 10.0 };
    kit_stats st;
    cr_assert(eq(int, kit_time(&quick, 0, &t, &st), 0));
    cr_assert(eq(int, st.runs, 30));
}

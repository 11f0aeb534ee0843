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

#include "kit.h"

/* Skip the calling test unless a CUDA device can be opened. */
#define KIT_TEST_REQUIRE_GPU()                                              \
    do {                                                                    \
        kit_device dev_;                                                    \
        char why_[512];                                                     \
        if (kit_device_open(0, &dev_, why_, sizeof why_))                   \
            cr_skip_test("GPU suite skipped: %s", why_);                    \
    } while (0)

/* Judge a case exactly as the driver does: poison, run, wait, compare with the
 * CPU reference. A TODO fails with the step id, so grading names the step.
 * `what` describes the input (size, distribution...) for the failure message. */
static inline void kit_test_expect_pass(kit_case c, const char *step, const char *what)
{
    char why[512] = "";
    kit_status s = kit_check_case(&c, 0, why, sizeof why);
    if (s == KIT_TODO_STATUS)
        cr_fail("Step %s (%s) is not implemented yet (TODO)", step, c.variant);
    cr_assert(eq(int, (int)s, (int)KIT_PASS), "%s [%s]: %s", c.variant, what, why);
}

/* The sizes every GPU suite runs unless a lab needs more: the empty input, a
 * single element, both sides of a warp, both sides of a typical block, and an
 * odd size past 2^20. */
#define KIT_TEST_SIZES 0, 1, 31, 32, 33, 1023, 1025, (1u << 20) + 7, 1u << 24

#endif

/* speed_probe.c: a lab's driver as one side of the speed race (tools/grade/race.c).
 * Linked into the driver with -Xlinker --wrap=kit_run_cases. Without
 * GRADE_SPEED_FDS in the environment the driver is unchanged. With
 * GRADE_SPEED_FDS=IN,OUT and GRADE_SPEED_ROW=ROW, each configuration the driver
 * makes is not run as a table: the probe checks the row's case once, warms it up and
 * then times it when the race says so, on the driver's own stream:
 *     probe -> race   "ready"                     (or "status FAIL|TODO|ERROR why")
 *     race -> probe   "go R"    R timed runs, each after the case's reset and an L2 flush
 *     probe -> race   "done MS"  the runs' median by CUDA events, after the last finished
 *     race -> probe   "next"     on to the driver's next configuration
 * A configuration without the row says nothing. The race keeps its own clock around
 * every "go" ... "done": see race.c for what that proves. */
#include "kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void __real_kit_run_cases(kit_report *rep, const kit_options *opt, const kit_config *cfg, const kit_case *cases,
                          int count, cudaStream_t stream);
void __wrap_kit_run_cases(kit_report *rep, const kit_options *opt, const kit_config *cfg, const kit_case *cases,
                          int count, cudaStream_t stream);

static FILE *from_race, *to_race;

static int connected(void)
{
    const char *fds = getenv("GRADE_SPEED_FDS");
    int in, out;
    if (from_race)
        return 1;
    if (!fds || sscanf(fds, "%d,%d", &in, &out) != 2 || !(from_race = fdopen(in, "r")) ||
        !(to_race = fdopen(out, "w")))
        return 0;
    setvbuf(to_race, NULL, _IOLBF, 0);
    return 1;
}

/* The race's next word ("go", "next"), and its number. */
static int command(char *word, size_t len, int *number)
{
    char line[128];
    if (!fgets(line, sizeof line, from_race))
        return 0;
    *number = 0;
    char format[32];
    snprintf(format, sizeof format, "%%%zus %%d", len - 1);
    return sscanf(line, format, word, number) >= 1;
}

static void serve(kit_report *rep, const kit_case *c, cudaStream_t stream)
{
    char why[512] = "";
    kit_status status = kit_check_case(c, stream, why, sizeof why);
    kit_timing warm = { .warmup = 2, .reps = 1, .flush_buf = rep->flush_buf, .flush_bytes = rep->flush_bytes };
    kit_stats stats;
    if (status == KIT_PASS && kit_time(c, stream, &warm, &stats)) {
        status = KIT_ERROR;
        snprintf(why, sizeof why, "a CUDA error while warming up");
    }
    if (status == KIT_PASS)
        fprintf(to_race, "ready\n");
    else
        fprintf(to_race, "status %s %s\n", kit_status_name(status), why);
    char word[16];
    int reps;
    while (command(word, sizeof word, &reps) && !strcmp(word, "go") && status == KIT_PASS) {
        kit_timing t = { .warmup = 0, .reps = reps > 0 ? reps : 1, .flush_buf = rep->flush_buf,
                         .flush_bytes = rep->flush_bytes };
        if (kit_time(c, stream, &t, &stats) || cudaStreamSynchronize(stream)) {
            fprintf(to_race, "status ERROR a CUDA error while timing\n");
            return;
        }
        fprintf(to_race, "done %.6f\n", stats.median);
    }
}

void __wrap_kit_run_cases(kit_report *rep, const kit_options *opt, const kit_config *cfg, const kit_case *cases,
                          int count, cudaStream_t stream)
{
    const char *row = getenv("GRADE_SPEED_ROW");
    if (!row || !connected()) {
        __real_kit_run_cases(rep, opt, cfg, cases, count, stream);
        return;
    }
    for (int i = 0; i < count; i++)
        if (!strcmp(cases[i].variant, row)) {
            serve(rep, &cases[i], stream);
            return;
        }
}

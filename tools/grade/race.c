/* race.c: the speed of one row of a lab's speed table, the submission's driver
 * against the reference's, in the same run on the same GPU.
 *
 *   race [--rounds K] [--reps R] [--limit S] -- YOUR COMMAND... --reference REFERENCE COMMAND...
 *
 * Each command is a lab driver linked with tools/grade/speed_probe.c (usually run
 * through tools/grade/contain with --keep 3 --keep 4); the race gives it the row in
 * GRADE_SPEED_ROW (which the caller sets) and talks to it on descriptors 3 (commands)
 * and 4 (replies). Both drivers set up and check the row, then the race alternates:
 * K rounds (default 5), each side R runs per round (default 10), the reference first
 * in odd rounds. It prints one line:
 *     you STATUS MS CLOCK_MS
 *     ref STATUS MS CLOCK_MS
 * MS: the median over the rounds of the driver's own CUDA-event median, summed over
 * the driver's configurations; CLOCK_MS: the same from the race's clock, per run.
 * STATUS: PASS, FAIL, TODO, ERROR (the driver's check), MISSING (no such row, or it
 * stopped before reporting), TIMEOUT.
 *
 * What the two times prove. The events are precise but the driver measures them,
 * and a driver holds the submission's code: it could report anything. The race's
 * clock cannot be moved by the driver except by answering "done" before its work is
 * done; around R runs it includes what the events leave out (reset, L2 flush,
 * launch), which is the same code on both sides. So the score uses the events, and
 * tools/speed.awk refuses a step whose events leave out much more of your clock
 * than of the reference's (a forged or rewritten timing). What it cannot catch: a
 * submission that attacks the race itself (answers "done" early from another
 * thread and finishes the work afterwards). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { YOU, REF, SIDES };
static const char *side_name[SIDES] = { "you", "ref" };

typedef struct {
    pid_t pid;
    int to, from;       /* our ends of its descriptors 3 and 4 */
    char buf[4096];     /* what it said that we have not read yet */
    size_t len;
    char status[16];    /* first status other than PASS */
    double ms, clock_ms; /* sums over configurations */
    int open;
} side;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void start(side *s, char **command)
{
    int down[2], up[2];
    if (pipe(down) || pipe(up)) {
        perror("race: pipe");
        exit(2);
    }
    s->pid = fork();
    if (s->pid < 0) {
        perror("race: fork");
        exit(2);
    }
    if (s->pid == 0) {
        dup2(down[0], 3);
        dup2(up[1], 4);
        for (int fd = 5; fd < 1024; fd++)
            close(fd);
        setenv("GRADE_SPEED_FDS", "3,4", 1);
        execvp(command[0], command);
        fprintf(stderr, "race: cannot run %s\n", command[0]);
        _exit(127);
    }
    close(down[0]);
    close(up[1]);
    s->to = down[1];
    s->from = up[0];
    s->open = 1;
    strcpy(s->status, "PASS");
}

/* The side's next line, within `limit` seconds; "" when it closed or took too long
 * (status MISSING or TIMEOUT then). */
static const char *line_from(side *s, double limit)
{
    static char line[4096];
    double deadline = now() + limit;
    for (;;) {
        char *end = memchr(s->buf, '\n', s->len);
        if (end) {
            size_t n = (size_t)(end - s->buf);
            memcpy(line, s->buf, n);
            line[n] = '\0';
            memmove(s->buf, end + 1, s->len - n - 1);
            s->len -= n + 1;
            return line;
        }
        double left = deadline - now();
        struct pollfd p = { s->from, POLLIN, 0 };
        int r = left > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        ssize_t got = r > 0 && s->len < sizeof s->buf ? read(s->from, s->buf + s->len, sizeof s->buf - s->len) : -1;
        if (got <= 0) { /* the driver ended (at its end, or before reporting: MISSING below) */
            if (r == 0)
                strcpy(s->status, "TIMEOUT");
            s->open = 0;
            return "";
        }
        s->len += (size_t)got;
    }
}

static void say(side *s, const char *text)
{
    if (s->open && write(s->to, text, strlen(text)) < 0)
        s->open = 0;
}

static double median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int rounds = 5, reps = 10;
    double limit = 300;
    int i = 1;
    for (; i + 1 < argc && strcmp(argv[i], "--"); i += 2) {
        if (!strcmp(argv[i], "--rounds"))
            rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--limit"))
            limit = atof(argv[i + 1]);
        else
            break;
    }
    int split = i + 1; /* your command may hold a "--" of its own (contain's) */
    while (split < argc && strcmp(argv[split], "--reference"))
        split++;
    if (i >= argc || strcmp(argv[i], "--") || split >= argc - 1 || split == i + 1 || rounds < 1 || rounds > 99 ||
        reps < 1) {
        fprintf(stderr, "usage: race [--rounds K] [--reps R] [--limit S] -- YOUR COMMAND... --reference REFERENCE...\n");
        return 2;
    }
    argv[split] = NULL;
    signal(SIGPIPE, SIG_IGN);
    side sides[SIDES] = { 0 };
    start(&sides[YOU], argv + i + 1);
    start(&sides[REF], argv + split + 1);

    for (int configs = 0;; configs++) {
        int ready[SIDES];
        for (int k = 0; k < SIDES; k++) {
            side *s = &sides[k];
            const char *line = s->open ? line_from(s, limit) : "";
            ready[k] = !strcmp(line, "ready");
            if (!strncmp(line, "status ", 7) && !strcmp(s->status, "PASS"))
                sscanf(line + 7, "%15s", s->status);
        }
        if (!sides[YOU].open && !sides[REF].open)
            break;
        if (ready[YOU] && ready[REF]) {
            double ms[SIDES][99], clock[SIDES][99];
            for (int r = 0; r < rounds; r++)
                for (int turn = 0; turn < SIDES; turn++) {
                    int k = r % 2 ? turn : 1 - turn; /* the reference first in odd rounds */
                    char go[32];
                    snprintf(go, sizeof go, "go %d\n", reps);
                    double t0 = now();
                    say(&sides[k], go);
                    const char *line = line_from(&sides[k], limit);
                    clock[k][r] = (now() - t0) * 1e3 / reps;
                    if (sscanf(line, "done %lf", &ms[k][r]) != 1) {
                        ms[k][r] = 0;
                        if (!strncmp(line, "status ", 7) && !strcmp(sides[k].status, "PASS"))
                            sscanf(line + 7, "%15s", sides[k].status);
                    }
                }
            for (int k = 0; k < SIDES; k++) {
                sides[k].ms += median(ms[k], rounds);
                sides[k].clock_ms += median(clock[k], rounds);
            }
        }
        for (int k = 0; k < SIDES; k++)
            say(&sides[k], "next\n");
        if (configs > 1000)
            break;
    }
    for (int k = 0; k < SIDES; k++) {
        close(sides[k].to);
        close(sides[k].from);
        int status;
        waitpid(sides[k].pid, &status, 0);
        if (!strcmp(sides[k].status, "PASS") && sides[k].ms <= 0)
            strcpy(sides[k].status, "MISSING");
        printf("%s %s %.6f %.6f\n", side_name[k], sides[k].status, sides[k].ms, sides[k].clock_ms);
    }
    return 0;
}

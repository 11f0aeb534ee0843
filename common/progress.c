/* progress.c: a progress watchdog, so that no run looks hung. A host step that may take a while (building a CPU
 * reference, generating data, checking or timing a slow variant) is wrapped in
 * kit_note_begin / kit_note_end; if it is still running after KIT_NOTE_AFTER_S
 * seconds, a watchdog thread says so on stderr, again every KIT_NOTE_EVERY_S
 * seconds, and once more when the step ends. Quick steps print nothing. */
#include "kit.h"

#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

enum { KIT_NOTE_AFTER_S = 3, KIT_NOTE_EVERY_S = 10 };

static pthread_mutex_t note_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t note_changed;
static pthread_once_t note_once = PTHREAD_ONCE_INIT;

static struct {
    int active;          /* a step is running */
    int printed;         /* the watchdog has spoken about it */
    char what[256];
    struct timespec started, next; /* CLOCK_MONOTONIC */
} note;

static double seconds_between(struct timespec a, struct timespec b)
{
    return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

static struct timespec now_plus(int seconds)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += seconds;
    return t;
}

static void *watchdog(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&note_lock);
    for (;;) {
        if (!note.active) {
            pthread_cond_wait(&note_changed, &note_lock);
            continue;
        }
        struct timespec due = note.next;
        if (pthread_cond_timedwait(&note_changed, &note_lock, &due) == 0)
            continue; /* the step changed or ended: look again */
        struct timespec t = now_plus(0);
        if (note.active && seconds_between(note.next, t) >= 0) {
            fprintf(stderr, "... still %s (%.0f s so far)\n", note.what, seconds_between(note.started, t));
            note.printed = 1;
            note.next = now_plus(KIT_NOTE_EVERY_S);
        }
    }
    return NULL;
}

static void start_watchdog(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&note_changed, &attr);
    pthread_condattr_destroy(&attr);
    pthread_t thread;
    if (pthread_create(&thread, NULL, watchdog, NULL) == 0)
        pthread_detach(thread);
}

void kit_note_begin(const char *fmt, ...)
{
    pthread_once(&note_once, start_watchdog);
    pthread_mutex_lock(&note_lock);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note.what, sizeof note.what, fmt, ap);
    va_end(ap);
    note.active = 1;
    note.printed = 0;
    note.started = now_plus(0);
    note.next = now_plus(KIT_NOTE_AFTER_S);
    pthread_cond_signal(&note_changed);
    pthread_mutex_unlock(&note_lock);
}

double kit_note_end(void)
{
    pthread_once(&note_once, start_watchdog);
    pthread_mutex_lock(&note_lock);
    double took = note.active ? seconds_between(note.started, now_plus(0)) : 0;
    if (note.active && note.printed)
        fprintf(stderr, "... done %s (%.1f s)\n", note.what, took);
    note.active = 0;
    pthread_cond_signal(&note_changed);
    pthread_mutex_unlock(&note_lock);
    return took;
}

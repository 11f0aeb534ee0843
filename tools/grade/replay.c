/* replay.c: the records of tools/grade/replay.h, written by the worker and read by
 * the judge. One file per test case, $GRADE_RECORDS/<hash of the case's id>.rec:
 *
 *   "KITREC1\n" case-id "\n"
 *   per call:  u32 'CALL', u32 name length, name,
 *              u32 buffers, per buffer u64 id, u64 bytes, the bytes,
 *              u32 events, per event u64 id,
 *              u32 outs, per out u64 bytes, the bytes,
 *              i64 return value, u32 'DONE'
 *
 * A call that never reached 'DONE' (the worker crashed, hung or exited inside it)
 * fails the judge's case with that reason. The judge checks every id and size
 * against its own buffers, so a record cannot write outside them. */
#include "replay.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_CALL 0x4c4c4143u /* "CALL" */
#define TAG_DONE 0x454e4f44u /* "DONE" */
#define MAX_NAME 256

static grade_buffer *buffers;
static size_t buffer_count, buffer_cap;
typedef struct {
    void *handle;
    int device; /* an event is recorded on the stream of its own device */
    int live, recorded;
} grade_event;
static grade_event *events;
static size_t event_count, event_cap;
static int depth;          /* calls into the submission now running (nested calls are not recorded) */
static FILE *record;       /* the record of this case: the worker's while it writes a call, the judge's */
static int calls;          /* calls recorded or replayed in this case */

int grade_inside(void) { return __atomic_load_n(&depth, __ATOMIC_SEQ_CST) > 0; }

static void *grow(void *array, size_t *cap, size_t elem)
{
    *cap = *cap ? 2 * *cap : 64;
    void *bigger = realloc(array, *cap * elem);
    if (!bigger) {
        fprintf(stderr, "grade: out of host memory\n");
        abort();
    }
    return bigger;
}

void grade_buffer_added(void *ptr, size_t bytes, int device, int pinned)
{
    if (!ptr || !bytes)
        return;
    for (size_t i = 0; i < buffer_count; i++)
        if (buffers[i].live && buffers[i].ptr == ptr)
            return; /* the runtime reported one allocation twice */
    if (buffer_count == buffer_cap)
        buffers = grow(buffers, &buffer_cap, sizeof *buffers);
    buffers[buffer_count++] = (grade_buffer){ ptr, bytes, device, pinned, 1, { 0, 0 } };
}

void grade_buffer_removed(void *ptr)
{
    for (size_t i = 0; i < buffer_count; i++)
        if (buffers[i].live && buffers[i].ptr == ptr)
            buffers[i].live = 0;
}

void grade_event_added(void *event, int device)
{
    if (event_count == event_cap)
        events = grow(events, &event_cap, sizeof *events);
    events[event_count++] = (grade_event){ event, device, 1, 0 };
}

void grade_event_removed(void *event)
{
    for (size_t i = 0; i < event_count; i++)
        if (events[i].live && events[i].handle == event)
            events[i].live = 0;
}

void grade_event_recorded(void *event)
{
    for (size_t i = 0; i < event_count; i++)
        if (events[i].live && events[i].handle == event)
            events[i].recorded = 1;
}

static void record_path(char *path, size_t len)
{
    const char *dir = getenv("GRADE_RECORDS");
    uint64_t h = 1469598103934665603ull; /* FNV-1a of the case's id */
    for (const char *c = grade_case_id(); *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    snprintf(path, len, "%s/%016llx.rec", dir ? dir : ".", (unsigned long long)h);
}

/* ---- the worker ------------------------------------------------------------------ */

static void put(const void *data, size_t bytes)
{
    if (record && fwrite(data, 1, bytes, record) != bytes) {
        fprintf(stderr, "grade: cannot write the record: %s\n", strerror(errno));
        exit(2);
    }
}
static void put32(uint32_t v) { put(&v, sizeof v); }
static void put64(uint64_t v) { put(&v, sizeof v); }

/* The worker opens its record only while it writes a call, after the submission's
 * code has returned: no descriptor of it is open while that code runs. */
static void open_record_for_writing(void)
{
    char path[4200];
    record_path(path, sizeof path);
    record = fopen(path, calls ? "ab" : "wb");
    if (!record) {
        fprintf(stderr, "grade: cannot write %s: %s\n", path, strerror(errno));
        exit(2);
    }
    if (!calls)
        fprintf(record, "KITREC1\n%s\n", grade_case_id());
}

void grade_call_enter(void)
{
    if (__atomic_fetch_add(&depth, 1, __ATOMIC_SEQ_CST) > 0)
        return;
    grade_backend_sync();
    for (size_t i = 0; i < buffer_count; i++)
        if (buffers[i].live && grade_backend_hash(&buffers[i], buffers[i].hash))
            buffers[i].hash[0] = buffers[i].hash[1] = 0;
    for (size_t i = 0; i < event_count; i++)
        events[i].recorded = 0;
}

int64_t grade_call_leave(const char *name, int64_t ret, const grade_out *outs, int out_count)
{
    if (__atomic_sub_fetch(&depth, 1, __ATOMIC_SEQ_CST) > 0)
        return ret;
    int err = grade_backend_sync();
    if (ret == 0 && err)
        ret = err; /* a fault inside the call: the caller sees the error */
    open_record_for_writing();
    size_t name_len = strlen(name);
    put32(TAG_CALL);
    put32((uint32_t)name_len);
    put(name, name_len);
    /* the buffers the call changed, whole (none after a fault: the device is gone) */
    size_t changed = 0;
    char *is_changed = calloc(buffer_count + 1, 1);
    for (size_t i = 0; i < buffer_count && !err; i++) {
        uint64_t h[2];
        if (buffers[i].live && (grade_backend_hash(&buffers[i], h) || h[0] != buffers[i].hash[0] ||
                                h[1] != buffers[i].hash[1])) {
            is_changed[i] = 1;
            changed++;
        }
    }
    put32((uint32_t)changed);
    for (size_t i = 0; i < buffer_count; i++) {
        if (!is_changed[i])
            continue;
        void *host = malloc(buffers[i].bytes);
        if (!host || grade_backend_read(&buffers[i], host)) {
            fprintf(stderr, "grade: cannot read back buffer %zu (%zu bytes)\n", i, buffers[i].bytes);
            exit(2);
        }
        put64(i);
        put64(buffers[i].bytes);
        put(host, buffers[i].bytes);
        free(host);
    }
    free(is_changed);
    uint32_t recorded = 0;
    for (size_t i = 0; i < event_count; i++)
        recorded += events[i].live && events[i].recorded;
    put32(recorded);
    for (size_t i = 0; i < event_count; i++)
        if (events[i].live && events[i].recorded)
            put64(i);
    put32((uint32_t)out_count);
    for (int k = 0; k < out_count; k++) {
        put64(outs[k].bytes);
        put(outs[k].ptr, outs[k].bytes);
    }
    put64((uint64_t)ret);
    put32(TAG_DONE);
    fclose(record);
    record = NULL;
    calls++;
    return ret;
}

/* ---- the judge ------------------------------------------------------------------- */

/* The case fails with the reason; cr_fail leaves the test. */
static void refuse(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(const char *name, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    cr_assert_fail("the submission's %s (call %d of this case): %s", name, calls + 1, why);
}

static int get(void *data, size_t bytes) { return record && fread(data, 1, bytes, record) == bytes; }

static int get32(uint32_t *v) { return get(v, sizeof *v); }
static int get64(uint64_t *v) { return get(v, sizeof *v); }

static const char *did_not_finish =
    "its run stopped before this call returned (a crash, an exit, or the time limit of a case; "
    "the worker's log says which)";

static void open_record_for_reading(const char *name)
{
    if (record)
        return;
    char path[4200], head[1100], want[1100];
    record_path(path, sizeof path);
    record = fopen(path, "rb");
    if (!record)
        refuse(name, "%s", "no record of this case: the submission's run never reached it (it crashed, exited or "
                           "ran past its time limit; the worker's log says which)");
    snprintf(want, sizeof want, "KITREC1\n%s\n", grade_case_id());
    size_t len = strlen(want);
    if (fread(head, 1, len, record) != len || memcmp(head, want, len))
        refuse(name, "%s", "the record belongs to another case");
}

int64_t grade_call_replay(const char *name, const grade_out *outs, int out_count)
{
    open_record_for_reading(name);
    uint32_t tag, len, n;
    char got[MAX_NAME + 1];
    if (!get32(&tag))
        refuse(name, "%s", did_not_finish);
    if (tag != TAG_CALL || !get32(&len) || len > MAX_NAME || !get(got, len))
        refuse(name, "%s", "the record is malformed");
    got[len] = '\0';
    if (strcmp(got, name))
        refuse(name, "the record has a call of %s here: the runs went different ways", got);
    if (!get32(&n))
        refuse(name, "%s", did_not_finish);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t id, bytes;
        if (!get64(&id) || !get64(&bytes))
            refuse(name, "%s", did_not_finish);
        if (id >= buffer_count || !buffers[id].live || bytes != buffers[id].bytes)
            refuse(name, "the record writes %llu bytes to buffer %llu, which this test does not have",
                   (unsigned long long)bytes, (unsigned long long)id);
        void *host = malloc(bytes);
        if (!host)
            refuse(name, "%s", "no host memory for the record");
        if (!get(host, bytes))
            refuse(name, "%s", did_not_finish);
        if (grade_backend_write(&buffers[id], host))
            refuse(name, "%s", "the judge could not write the recorded buffer");
        free(host);
    }
    if (!get32(&n))
        refuse(name, "%s", did_not_finish);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t id;
        if (!get64(&id))
            refuse(name, "%s", did_not_finish);
        if (id >= event_count || !events[id].live)
            refuse(name, "the record names event %llu, which this test does not have", (unsigned long long)id);
        if (grade_backend_record_event(events[id].handle, events[id].device))
            refuse(name, "%s", "the judge could not record the event");
    }
    if (!get32(&n))
        refuse(name, "%s", did_not_finish);
    if ((int)n != out_count)
        refuse(name, "the record has %u out-parameters, the call %d", n, out_count);
    for (int k = 0; k < out_count; k++) {
        uint64_t bytes;
        if (!get64(&bytes))
            refuse(name, "%s", did_not_finish);
        if (bytes != outs[k].bytes)
            refuse(name, "%s", "an out-parameter of the record has the wrong size");
        if (!get(outs[k].ptr, outs[k].bytes))
            refuse(name, "%s", did_not_finish);
    }
    uint64_t ret;
    if (!get64(&ret) || !get32(&tag) || tag != TAG_DONE)
        refuse(name, "%s", did_not_finish);
    if (grade_backend_sync())
        refuse(name, "%s", "the judge's device failed while applying the record");
    calls++;
    return (int64_t)ret;
}

/* stream.cc: streams, events, and the executor that runs their operations.
 *
 * Nothing runs when it is enqueued. A synchronizing call (cudaStreamSynchronize,
 * cudaMemcpy, cudaEventSynchronize, ...) runs operations until what it waits for is
 * done, each time choosing at random (KIT_EMU_SEED) among the operations that may
 * run: the first of each stream whose waits are done (earlier operations of the
 * legacy default stream and of blocking streams, cudaStreamWaitEvent's event). So
 * two streams' work runs in any order CUDA allows, and a missing wait shows. */
#include "emu.h"

#include <setjmp.h>
#include <string.h>

#include <algorithm>
#include <deque>
#include <set>

namespace kit_emu {

struct stream_state {
    int device;
    unsigned flags;
    bool legacy;
    std::deque<op_ptr> queue;
    op_ptr last;
};

struct event_state {
    int device;
    unsigned flags;
    op_ptr record;
};

bool in_device_work = false;
extern sigjmp_buf *device_work_escape;

static std::vector<stream_state *> streams; /* live ones, and destroyed ones with work left */
static std::set<stream_state *> handles;    /* live ones */
static std::set<event_state *> events;
static stream_state *legacy_of[MAX_GPUS];

static stream_state *legacy(int device)
{
    if (!legacy_of[device]) {
        legacy_of[device] = new stream_state{ device, 0, true, {}, nullptr };
        streams.push_back(legacy_of[device]);
    }
    return legacy_of[device];
}

stream_state *stream_of(cudaStream_t s)
{
    if (s == nullptr || s == (cudaStream_t)1) /* 0 and cudaStreamLegacy */
        return legacy(current_device());
    stream_state *st = (stream_state *)s;
    return handles.count(st) ? st : nullptr;
}

int device_of(stream_state *s) { return s->device; }

static bool pending(const op_ptr &o) { return o && !o->done; }

cudaError_t enqueue(cudaStream_t s, const char *what, std::function<void()> run, op_ptr *made)
{
    stream_state *st = stream_of(s);
    if (!st)
        return cudaErrorInvalidResourceHandle;
    op_ptr o = std::make_shared<op>();
    o->what = what;
    o->stream = st;
    o->run = std::move(run);
    /* The legacy default stream waits for every blocking stream of its GPU, and they for it. */
    if (st->legacy) {
        for (stream_state *other : streams)
            if (other != st && other->device == st->device && !(other->flags & cudaStreamNonBlocking) &&
                pending(other->last))
                o->after.push_back(other->last);
    } else if (!(st->flags & cudaStreamNonBlocking) && pending(legacy(st->device)->last)) {
        o->after.push_back(legacy(st->device)->last);
    }
    st->queue.push_back(o);
    st->last = o;
    if (made)
        *made = o;
    return cudaSuccess;
}

static bool waits_done(const op *o)
{
    for (const op_ptr &a : o->after)
        if (!a->done)
            return false;
    return true;
}

static bool may_run(const op *o)
{
    if (!o->multi)
        return waits_done(o);
    for (const op *part : o->multi->parts)
        if (part->stream->queue.empty() || part->stream->queue.front().get() != part || !waits_done(part))
            return false;
    return true;
}

static void execute(op *o)
{
    const std::function<void()> &run = o->multi ? o->multi->run : o->run;
    sigjmp_buf escape;
    in_device_work = true;
    device_work_escape = &escape;
    /* After a failure nothing runs until the program has heard of it, as on a GPU,
     * whose context stops at a fault: one message per failure. */
    if (!async_pending() && sigsetjmp(escape, 0) == 0)
        run();
    in_device_work = false;
    device_work_escape = nullptr;
    std::vector<op *> parts = o->multi ? o->multi->parts : std::vector<op *>{ o };
    if (o->multi)
        o->multi->done = true;
    for (op *p : parts) {
        p->done = true;
        p->run = nullptr; /* frees a kernel's arguments */
        p->stream->queue.pop_front();
    }
    for (size_t i = 0; i < streams.size();) /* destroyed streams leave once empty */
        if (!handles.count(streams[i]) && !streams[i]->legacy && streams[i]->queue.empty()) {
            delete streams[i];
            streams.erase(streams.begin() + (long)i);
        } else {
            i++;
        }
}

/* One operation that may run, chosen at random; false when none may. */
static bool step()
{
    std::vector<op *> ready;
    for (stream_state *s : streams)
        if (!s->queue.empty() && may_run(s->queue.front().get())) {
            op *o = s->queue.front().get();
            if (!o->multi || o->multi->parts.front() == o) /* one entry per multi-stream operation */
                ready.push_back(o);
        }
    if (ready.empty())
        return false;
    execute(ready[random_u64() % ready.size()]);
    return true;
}

bool drain(const std::function<bool()> &done, const char *waiting_for)
{
    while (!done())
        if (!step()) {
            std::string heads;
            for (stream_state *s : streams)
                if (!s->queue.empty())
                    heads += format("\n  GPU %d %s stream: %s waits%s", s->device, s->legacy ? "default" : "a",
                                    s->queue.front()->what,
                                    s->queue.front()->multi ? " for its peers on the other streams"
                                                            : " for an event or another stream");
            note("%s waits for work that can never run (a deadlock between streams):%s", waiting_for, heads.c_str());
            return false;
        }
    return true;
}

bool device_idle(int device)
{
    for (stream_state *s : streams)
        if (s->device == device && !s->queue.empty())
            return false;
    return true;
}

/* ---- for CUB's and NCCL's CPU work ------------------------------------------------------------- */
cudaError_t enqueue_host_work(cudaStream_t s, const char *what, std::function<void()> work)
{
    return set_last(enqueue(s, what, std::move(work)));
}

bool device_range_ok(const void *p, size_t bytes, const char *what)
{
    if (heap_range_ok(p, bytes, -1, what, "a CUB call"))
        return true;
    set_async(cudaErrorIllegalAddress);
    return false;
}

cudaError_t cub_temp(const char *call, void *temp, size_t &temp_bytes, size_t needed)
{
    if (!temp) {
        temp_bytes = needed;
        return cudaSuccess;
    }
    if (temp_bytes < needed) {
        note("%s: %zu bytes of temp storage, but it asked for %zu (call it first with d_temp_storage = NULL)", call,
             temp_bytes, needed);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

} // namespace kit_emu

using namespace kit_emu;

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    stream_state *s = new stream_state{ current_device(), flags, false, {}, nullptr };
    streams.push_back(s);
    handles.insert(s);
    *stream = (cudaStream_t)s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    stream_state *s = stream_of(stream);
    if (!s || s->legacy)
        return set_last(cudaErrorInvalidResourceHandle);
    handles.erase(s); /* its work still runs; the executor drops it once empty */
    if (s->queue.empty()) {
        streams.erase(std::find(streams.begin(), streams.end(), s));
        delete s;
    }
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    stream_state *s = stream_of(stream);
    if (!s)
        return set_last(cudaErrorInvalidResourceHandle);
    if (!drain([s] { return s->queue.empty(); }, "cudaStreamSynchronize"))
        return set_last(cudaErrorLaunchFailure);
    return take_async();
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    stream_state *s = stream_of(stream);
    if (!s)
        return set_last(cudaErrorInvalidResourceHandle);
    if (!s->queue.empty())
        step();
    return s->queue.empty() ? take_async() : cudaErrorNotReady;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    event_state *e = (event_state *)event;
    if (!events.count(e) || flags)
        return set_last(cudaErrorInvalidResourceHandle);
    if (!e->record) /* never recorded: nothing to wait for */
        return stream_of(stream) ? cudaSuccess : set_last(cudaErrorInvalidResourceHandle);
    op_ptr made;
    cudaError_t r = enqueue(stream, "cudaStreamWaitEvent", [] {}, &made);
    if (!r)
        made->after.push_back(e->record); /* the record as it is now, as CUDA captures it */
    return set_last(r);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    event_state *e = new event_state{ current_device(), flags, nullptr };
    events.insert(e);
    *event = (cudaEvent_t)e;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    event_state *e = (event_state *)event;
    if (!events.erase(e))
        return set_last(cudaErrorInvalidResourceHandle);
    delete e;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    event_state *e = (event_state *)event;
    stream_state *s = stream_of(stream);
    if (!events.count(e) || !s || s->device != e->device)
        return set_last(cudaErrorInvalidResourceHandle);
    op_ptr made;
    cudaError_t r = enqueue(stream, "cudaEventRecord", [] {}, &made);
    if (!r)
        e->record = made;
    return set_last(r);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    event_state *e = (event_state *)event;
    if (!events.count(e))
        return set_last(cudaErrorInvalidResourceHandle);
    op_ptr rec = e->record;
    if (!drain([rec] { return !rec || rec->done; }, "cudaEventSynchronize"))
        return set_last(cudaErrorLaunchFailure);
    return take_async();
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    event_state *e = (event_state *)event;
    if (!events.count(e))
        return set_last(cudaErrorInvalidResourceHandle);
    if (e->record && !e->record->done)
        step();
    return !e->record || e->record->done ? cudaSuccess : cudaErrorNotReady;
}

/* Emulated events carry no time: a pair of completed, timing events gives 0 ms. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    event_state *a = (event_state *)start, *b = (event_state *)end;
    if (!events.count(a) || !events.count(b) || !a->record || !b->record ||
        ((a->flags | b->flags) & cudaEventDisableTiming))
        return set_last(cudaErrorInvalidResourceHandle);
    if (!a->record->done || !b->record->done)
        return cudaErrorNotReady;
    *ms = 0.0f;
    return cudaSuccess;
}

} /* extern "C" */

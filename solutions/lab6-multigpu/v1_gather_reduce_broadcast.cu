/* Step 6.1: all-reduce through GPU 0, over peer-to-peer copies.
 *
 * Gather: every other GPU pushes its input into a staging area on GPU 0
 * (cudaMemcpyPeerAsync on its own stream, so the G-1 copies run at once). Reduce: one
 * kernel on GPU 0 adds the G arrays. Broadcast: every other GPU pulls the sum from
 * GPU 0. Events order the three phases across GPUs; nothing waits on the host.
 *
 * What is slow: every byte goes through GPU 0's links, twice: (G-1) x n values in and
 * (G-1) x n out, while the other GPUs' links carry n each way. GPU 0 is the bottleneck,
 * the other GPUs idle during the reduce, and the three phases run one after the
 * other. With G = 2 that is 2n values over the one link, against 1n per direction for
 * the ring of Step 6.2 (2(G-1)/G x n).
 * Expect: on two GPUs, about half the ring's bus bandwidth from 2^26 values up (lecture 6,
 * Step 6.1's table); worse as G grows.
 * Needs every GPU in this process, with peer access. */
#include "lab6_sum.cuh"

extern "C" int lab6_gather_reduce_broadcast(const lab6_reduce_io *io)
{
    const lab6_team *t = io->team;
    if (!t->peer_access)
        return lab6_needs_one_process(t, "gather-reduce-broadcast");
    if (io->n == 0)
        return 0;
    // BEGIN SOLUTION (Step 6.1): gather the inputs on GPU 0 (t->step_done[g][0] marks GPU g's copy done), add them there (lab6_launch_sum), record t->step_done[0][1], and let every other GPU copy the sum back after it
    const int G = t->gpus;
    const size_t bytes = io->n * lab6_type_bytes(io->type);
    cudaEvent_t reduced = t->step_done[0][1];
    int r = 0;
    const void *arrays[LAB6_MAX_LOCAL] = { io->in[0] };
    for (int g = 1; g < G && !r; g++) {
        void *staged = (char *)io->ws->stage + (size_t)(g - 1) * bytes;
        arrays[g] = staged;
        if ((r = lab6_use(t, g)) ||
            (r = KIT_CHECK(cudaMemcpyPeerAsync(staged, t->device[0], io->in[g], t->device[g], bytes, t->lane[g][0]))))
            break;
        r = KIT_CHECK(cudaEventRecord(t->step_done[g][0], t->lane[g][0]));
    }
    if (!r)
        r = lab6_use(t, 0);
    for (int g = 1; g < G && !r; g++)
        r = KIT_CHECK(cudaStreamWaitEvent(t->lane[0][0], t->step_done[g][0], 0));
    if (!r)
        r = lab6_launch_sum(t, 0, t->lane[0][0], io->type, arrays, G, io->out[0], io->n);
    if (!r)
        r = KIT_CHECK(cudaEventRecord(reduced, t->lane[0][0]));
    for (int g = 1; g < G && !r; g++) {
        if ((r = lab6_use(t, g)) || (r = KIT_CHECK(cudaStreamWaitEvent(t->lane[g][0], reduced, 0))))
            break;
        r = KIT_CHECK(cudaMemcpyPeerAsync(io->out[g], t->device[g], io->out[0], t->device[0], bytes, t->lane[g][0]));
    }
    return r;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

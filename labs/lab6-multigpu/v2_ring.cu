/* Step 6.2: the ring all-reduce, written by hand over peer-to-peer reads.
 *
 * The n values are cut into G segments. Reduce-scatter, G-1 steps: at step q GPU g
 * reads its left neighbour's running sum of one segment (its input at step 0) and adds
 * its own input, so after G-1 steps it holds the complete sum of one segment.
 * All-gather, G-1 steps: GPU g copies a complete segment from its neighbour. Which
 * segment, which buffer: lab6_ring_step_of (lab6_plan.h, checked on the CPU). Every
 * GPU reads 2(G-1)/G x n values over one link, and every link is busy in both
 * directions at once: the least any all-reduce can move.
 *
 * Chunked and pipelined: each segment is cut into io->chunks chunks; step q of chunk
 * k on GPU g waits (an event) only for step q-1 of chunk k on the neighbour, and the
 * chunks alternate between two streams per GPU, so while one chunk waits for its
 * neighbour the other moves data, and no GPU idles until a whole segment is done.
 *
 * What is still slow: each step is a kernel launch plus an event wait (microseconds),
 * so small messages are latency-bound; the add kernel reads over the link with plain
 * loads, where NCCL's kernels are tuned per protocol.
 * Expect: on two GPUs, about NCCL's bus bandwidth from 2^26 values up, far below it at
 * small n (lecture 6, "Measured: all-reduce").
 * Needs every GPU in this process, with peer access. */
#include "lab6_sum.cuh"

extern "C" int lab6_ring(const lab6_reduce_io *io)
{
    const lab6_team *t = io->team;
    if (!t->peer_access)
        return lab6_needs_one_process(t, "ring");
    if (io->n == 0)
        return 0;
    // TODO(Step 6.2): a ring of one copies; otherwise, step-major (so every event is recorded before anyone waits for it), for each GPU and chunk: wait for the neighbour's previous step, add or copy, record lab6_step_event (about 35 lines)
    return KIT_TODO;
}

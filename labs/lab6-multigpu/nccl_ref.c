/* The library row, complete in the starter: NCCL's all-reduce, the rate the other
 * variants are measured against (with the peer-to-peer copy rate).
 *
 * ncclAllReduce runs on every GPU of the ring at once: each call enqueues that GPU's
 * part on its stream, and the parts meet through NCCL's own buffers. When one process
 * drives several GPUs, their calls must sit in one group (ncclGroupStart/End): NCCL
 * then launches them together; called one by one, the first would wait forever for
 * the others. With one process per GPU the group holds one call and changes nothing.
 * On NVLink NCCL picks a ring or a tree and a protocol by message size; it never
 * goes through the host. */
#include "lab6.h"

int lab6_nccl_allreduce(const lab6_reduce_io *io)
{
    const lab6_team *t = io->team;
    if (io->n == 0)
        return 0;
    int r = LAB6_NCCL(ncclGroupStart());
    for (int l = 0; l < t->local && !r; l++)
        r = LAB6_NCCL(ncclAllReduce(io->in[l], io->out[l], io->n, lab6_nccl_type(io->type), ncclSum, t->comm[l],
                                    t->lane[l][0]));
    int end = LAB6_NCCL(ncclGroupEnd());
    return r ? r : end;
}

/* nccl.cc: a stand-in for the NCCL calls lab 6 makes, over the emulated GPUs of
 * this process. A group (ncclGroupStart .. ncclGroupEnd, or one call outside a
 * group) becomes one operation on every stream it names, run when it leads each
 * of them: as NCCL's kernels, it starts when all its ranks' streams reach it. It
 * must hold every rank's part (the matching collectives of all ranks of the
 * communicator, each send with its receive); NCCL across processes is not
 * emulated. */
#include "emu.h"

#include <nccl.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <set>

namespace kit_emu {

struct clique {
    int ranks;
    std::vector<kit_emu_nccl_comm *> comms;
};

} // namespace kit_emu

struct kit_emu_nccl_comm {
    kit_emu::clique *group;
    int rank, device;
};

namespace kit_emu {

enum call_kind { ALL_REDUCE, BROADCAST, REDUCE, ALL_GATHER, REDUCE_SCATTER, SEND, RECV };
static const char *call_names[] = { "ncclAllReduce", "ncclBroadcast",  "ncclReduce", "ncclAllGather",
                                    "ncclReduceScatter", "ncclSend", "ncclRecv" };
struct nccl_call {
    call_kind kind;
    kit_emu_nccl_comm *comm;
    const void *send;
    void *recv;
    size_t count;
    ncclDataType_t type;
    ncclRedOp_t op;
    int root_or_peer;
    cudaStream_t stream;
};

static int group_depth = 0;
static std::vector<nccl_call> grouped;
static std::string last_error;
static std::set<kit_emu_nccl_comm *> live_comms;

static ncclResult_t usage(const std::string &why)
{
    last_error = why;
    note("emulated NCCL: %s", why.c_str());
    return ncclInvalidUsage;
}

static size_t type_bytes(ncclDataType_t t)
{
    switch (t) {
    case ncclInt8:
    case ncclUint8: return 1;
    case ncclFloat16: return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32: return 4;
    default: return 8;
    }
}

template <class T>
static void combine_as(ncclRedOp_t op, void *acc, const void *x, size_t n)
{
    T *a = (T *)acc;
    const T *b = (const T *)x;
    for (size_t i = 0; i < n; i++)
        switch (op) {
        case ncclSum:
        case ncclAvg: a[i] = (T)(a[i] + b[i]); break;
        case ncclProd: a[i] = (T)(a[i] * b[i]); break;
        case ncclMax: a[i] = std::max(a[i], b[i]); break;
        case ncclMin: a[i] = std::min(a[i], b[i]); break;
        }
}

static void combine(ncclDataType_t t, ncclRedOp_t op, void *acc, const void *x, size_t n)
{
    switch (t) {
    case ncclInt8: combine_as<int8_t>(op, acc, x, n); break;
    case ncclUint8: combine_as<uint8_t>(op, acc, x, n); break;
    case ncclInt32: combine_as<int32_t>(op, acc, x, n); break;
    case ncclUint32: combine_as<uint32_t>(op, acc, x, n); break;
    case ncclInt64: combine_as<int64_t>(op, acc, x, n); break;
    case ncclUint64: combine_as<uint64_t>(op, acc, x, n); break;
    case ncclFloat32: combine_as<float>(op, acc, x, n); break;
    case ncclFloat64: combine_as<double>(op, acc, x, n); break;
    default: break;
    }
}

static void divide(ncclDataType_t t, void *acc, size_t n, int ranks)
{
    for (size_t i = 0; i < n; i++)
        if (t == ncclFloat32)
            ((float *)acc)[i] /= (float)ranks;
        else if (t == ncclFloat64)
            ((double *)acc)[i] /= ranks;
}

static bool buffer_ok(const nccl_call &c, const void *p, size_t bytes, const char *what)
{
    std::string op = format("%s (rank %d, GPU %d)", call_names[c.kind], c.comm->rank, c.comm->device);
    if (heap_range_ok(p, bytes, c.comm->device, what, op.c_str()))
        return true;
    set_async(cudaErrorIllegalAddress);
    return false;
}

/* The collectives of one communicator's ranks, rank by rank, in call order. */
static void run_collective(const std::vector<const nccl_call *> &by_rank)
{
    const nccl_call &c0 = *by_rank[0];
    const int R = (int)by_rank.size();
    const size_t n = c0.count, e = type_bytes(c0.type);
    std::vector<std::vector<char>> in(R);
    for (int r = 0; r < R; r++) {
        const nccl_call &c = *by_rank[r];
        size_t in_count = c.kind == REDUCE_SCATTER ? n * R : n;
        bool has_input = c.kind != BROADCAST || r == c.root_or_peer;
        if (has_input) {
            if (!buffer_ok(c, c.send, in_count * e, "the send buffer"))
                return;
            in[r].assign((const char *)c.send, (const char *)c.send + in_count * e);
        }
    }
    std::vector<char> sum;
    if (c0.kind == ALL_REDUCE || c0.kind == REDUCE || c0.kind == REDUCE_SCATTER) {
        sum = in[0];
        for (int r = 1; r < R; r++)
            combine(c0.type, c0.op, sum.data(), in[r].data(), sum.size() / e);
        if (c0.op == ncclAvg)
            divide(c0.type, sum.data(), sum.size() / e, R);
    }
    for (int r = 0; r < R; r++) {
        const nccl_call &c = *by_rank[r];
        switch (c.kind) {
        case ALL_REDUCE:
            if (buffer_ok(c, c.recv, n * e, "the receive buffer"))
                memcpy(c.recv, sum.data(), n * e);
            break;
        case REDUCE:
            if (r == c.root_or_peer && buffer_ok(c, c.recv, n * e, "the receive buffer"))
                memcpy(c.recv, sum.data(), n * e);
            break;
        case BROADCAST:
            if (buffer_ok(c, c.recv, n * e, "the receive buffer"))
                memcpy(c.recv, in[c.root_or_peer].data(), n * e);
            break;
        case ALL_GATHER:
            if (buffer_ok(c, c.recv, n * e * R, "the receive buffer"))
                for (int k = 0; k < R; k++)
                    memcpy((char *)c.recv + k * n * e, in[k].data(), n * e);
            break;
        case REDUCE_SCATTER:
            if (buffer_ok(c, c.recv, n * e, "the receive buffer"))
                memcpy(c.recv, sum.data() + r * n * e, n * e);
            break;
        default: break;
        }
    }
}

/* Checks that a group holds every part of what it starts, and enqueues it. */
static ncclResult_t submit(std::vector<nccl_call> calls)
{
    if (calls.empty())
        return ncclSuccess;
    /* Collectives: per communicator group, each rank's list in call order. */
    std::map<clique *, std::vector<std::vector<const nccl_call *>>> lists;
    std::vector<const nccl_call *> sends, recvs;
    for (const nccl_call &c : calls) {
        if (c.kind == SEND)
            sends.push_back(&c);
        else if (c.kind == RECV)
            recvs.push_back(&c);
        else {
            auto &l = lists[c.comm->group];
            l.resize(c.comm->group->ranks);
            l[c.comm->rank].push_back(&c);
        }
    }
    std::vector<std::vector<const nccl_call *>> collectives; /* each: one call per rank */
    for (auto &entry : lists) {
        auto &l = entry.second;
        for (size_t r = 0; r < l.size(); r++)
            if (l[r].size() != l[0].size())
                return usage(format("rank %zu makes %zu collective call(s) in this group, rank 0 makes %zu: with one "
                                    "process driving every GPU, each rank's call must be in the same "
                                    "ncclGroupStart/ncclGroupEnd",
                                    r, l[r].size(), l[0].size()));
        for (size_t k = 0; k < l[0].size(); k++) {
            std::vector<const nccl_call *> one;
            for (size_t r = 0; r < l.size(); r++) {
                const nccl_call *c = l[r][k], *first = l[0][k];
                if (c->kind != first->kind || c->count != first->count || c->type != first->type ||
                    c->op != first->op || c->root_or_peer != first->root_or_peer)
                    return usage(format("call %zu of the group differs between rank 0 (%s of %zu) and rank %zu "
                                        "(%s of %zu)",
                                        k, call_names[first->kind], first->count, r, call_names[c->kind], c->count));
                one.push_back(c);
            }
            collectives.push_back(one);
        }
    }
    /* Point to point: each send meets the receive of its peer, in order. */
    std::vector<std::pair<const nccl_call *, const nccl_call *>> pairs;
    std::vector<bool> used(recvs.size());
    for (const nccl_call *s : sends) {
        size_t k = 0;
        while (k < recvs.size() && (used[k] || recvs[k]->comm->group != s->comm->group ||
                                    recvs[k]->comm->rank != s->root_or_peer || recvs[k]->root_or_peer != s->comm->rank))
            k++;
        if (k == recvs.size())
            return usage(format("ncclSend from rank %d to rank %d has no ncclRecv of rank %d from rank %d in the same "
                                "group",
                                s->comm->rank, s->root_or_peer, s->root_or_peer, s->comm->rank));
        if (recvs[k]->count != s->count || recvs[k]->type != s->type)
            return usage(format("ncclSend of %zu values from rank %d meets ncclRecv of %zu values on rank %d",
                                s->count, s->comm->rank, recvs[k]->count, recvs[k]->comm->rank));
        used[k] = true;
        pairs.emplace_back(s, recvs[k]);
    }
    for (size_t k = 0; k < recvs.size(); k++)
        if (!used[k])
            return usage(format("ncclRecv of rank %d from rank %d has no ncclSend in the same group",
                                recvs[k]->comm->rank, recvs[k]->root_or_peer));

    auto kept = std::make_shared<std::vector<nccl_call>>(std::move(calls));
    auto whole = std::make_shared<multi_op>();
    whole->run = [kept, collectives, pairs] {
        for (const auto &one : collectives)
            run_collective(one);
        std::vector<std::vector<char>> staged;
        for (const auto &p : pairs) {
            size_t bytes = p.first->count * type_bytes(p.first->type);
            if (!buffer_ok(*p.first, p.first->send, bytes, "the send buffer"))
                return;
            staged.emplace_back((const char *)p.first->send, (const char *)p.first->send + bytes);
        }
        for (size_t k = 0; k < pairs.size(); k++)
            if (buffer_ok(*pairs[k].second, pairs[k].second->recv, staged[k].size(), "the receive buffer"))
                memcpy(pairs[k].second->recv, staged[k].data(), staged[k].size());
    };
    std::vector<cudaStream_t> used_streams;
    for (const nccl_call &c : *kept)
        if (std::find(used_streams.begin(), used_streams.end(), c.stream) == used_streams.end())
            used_streams.push_back(c.stream);
    for (cudaStream_t s : used_streams) {
        op_ptr part;
        if (enqueue(s, "an NCCL group", [] {}, &part))
            return usage("a call names a stream that does not exist");
        part->multi = whole;
        whole->parts.push_back(part.get());
    }
    return ncclSuccess;
}

static ncclResult_t add(nccl_call c)
{
    if (!live_comms.count(c.comm))
        return usage(format("%s on a communicator that does not exist", call_names[c.kind]));
    stream_state *s = stream_of(c.stream);
    if (!s || device_of(s) != c.comm->device)
        return usage(format("%s of rank %d (GPU %d) on %s", call_names[c.kind], c.comm->rank, c.comm->device,
                            s ? "a stream of another GPU" : "a stream that does not exist"));
    if (c.type == ncclFloat16)
        return usage("ncclFloat16 is not emulated");
    if (group_depth > 0) {
        grouped.push_back(c);
        return ncclSuccess;
    }
    return submit({ c });
}

} // namespace kit_emu

using namespace kit_emu;

extern "C" {

ncclResult_t ncclGetVersion(int *version)
{
    *version = NCCL_VERSION_CODE;
    return ncclSuccess;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *id)
{
    memset(id, 0, sizeof *id);
    for (size_t i = 0; i < sizeof id->internal; i += 8) {
        uint64_t r = random_u64();
        memcpy(id->internal + i, &r, 8);
    }
    return ncclSuccess;
}

static kit_emu_nccl_comm *new_comm(clique *g, int rank, int device)
{
    kit_emu_nccl_comm *c = new kit_emu_nccl_comm{ g, rank, device };
    g->comms.push_back(c);
    live_comms.insert(c);
    return c;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank)
{
    (void)id;
    if (nranks != 1 || rank != 0)
        return usage(format("ncclCommInitRank(rank %d of %d): NCCL across processes is not emulated; one process "
                            "drives every emulated GPU (ncclCommInitAll)",
                            rank, nranks));
    *comm = new_comm(new clique{ 1, {} }, 0, current_device());
    return ncclSuccess;
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int ndev, const int *devlist)
{
    if (ndev < 1 || ndev > config().gpus)
        return usage(format("ncclCommInitAll of %d GPUs; %d are emulated (KIT_EMU_GPUS)", ndev, config().gpus));
    clique *g = new clique{ ndev, {} };
    for (int r = 0; r < ndev; r++) {
        int d = devlist ? devlist[r] : r;
        if (d < 0 || d >= config().gpus)
            return usage(format("ncclCommInitAll: device %d does not exist", d));
        comms[r] = new_comm(g, r, d);
    }
    return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm)
{
    if (!live_comms.erase(comm))
        return usage("ncclCommDestroy of a communicator that does not exist");
    return ncclSuccess;
}

ncclResult_t ncclCommCount(const ncclComm_t comm, int *count)
{
    *count = comm->group->ranks;
    return ncclSuccess;
}

ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int *device)
{
    *device = comm->device;
    return ncclSuccess;
}

ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank)
{
    *rank = comm->rank;
    return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t r)
{
    switch (r) {
    case ncclSuccess: return "no error";
    case ncclInvalidArgument: return "invalid argument";
    case ncclInvalidUsage: return "invalid usage (emulated NCCL: see its message above)";
    default: return "unhandled error";
    }
}

const char *ncclGetLastError(ncclComm_t comm)
{
    (void)comm;
    return last_error.c_str();
}

ncclResult_t ncclGroupStart(void)
{
    group_depth++;
    return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void)
{
    if (group_depth == 0)
        return usage("ncclGroupEnd without ncclGroupStart");
    if (--group_depth > 0)
        return ncclSuccess;
    std::vector<nccl_call> calls;
    calls.swap(grouped);
    return submit(std::move(calls));
}

ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                           ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream)
{
    return add({ ALL_REDUCE, comm, sendbuff, recvbuff, count, datatype, op, 0, stream });
}

ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype, int root,
                           ncclComm_t comm, cudaStream_t stream)
{
    return add({ BROADCAST, comm, sendbuff, recvbuff, count, datatype, ncclSum, root, stream });
}

ncclResult_t ncclReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype, ncclRedOp_t op,
                        int root, ncclComm_t comm, cudaStream_t stream)
{
    return add({ REDUCE, comm, sendbuff, recvbuff, count, datatype, op, root, stream });
}

ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, cudaStream_t stream)
{
    return add({ ALL_GATHER, comm, sendbuff, recvbuff, sendcount, datatype, ncclSum, 0, stream });
}

ncclResult_t ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount, ncclDataType_t datatype,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream)
{
    return add({ REDUCE_SCATTER, comm, sendbuff, recvbuff, recvcount, datatype, op, 0, stream });
}

ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream)
{
    return add({ SEND, comm, sendbuff, nullptr, count, datatype, ncclSum, peer, stream });
}

ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream)
{
    return add({ RECV, comm, nullptr, recvbuff, count, datatype, ncclSum, peer, stream });
}

} /* extern "C" */

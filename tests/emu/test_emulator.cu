/* The CPU emulator's own suite (built only for it, common/emu/README.md): each
 * emulated feature against a result computed here on the host, and each check a
 * GPU run cannot give against a kernel with the bug planted, by its message. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <cooperative_groups.h>
#include <cub/cub.cuh>
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <nccl.h>

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#define OK(call) cr_assert_eq((int)(call), 0, "%s failed", #call)
/* A test whose kernel must fail: the emulator's message is checked, not printed. */
#define EXPECTS_MESSAGE .init = cr_redirect_stderr

static unsigned test_hash(int i) { return (unsigned)i * 2654435761u >> 7; }
static bool reported(const char *text) { return strstr(kitEmuLastReport(), text) != nullptr; }
static std::string here(int line) { return "test_emulator.cu:" + std::to_string(line); }

template <class T>
static T *to_device(const std::vector<T> &h)
{
    T *d = nullptr;
    OK(cudaMalloc(&d, h.size() * sizeof(T) + 1));
    OK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class T>
static std::vector<T> to_host(const T *d, size_t n)
{
    std::vector<T> h(n);
    OK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

/* ---- launches and coordinates ------------------------------------------------------ */
struct offset_arg {
    int base, step;
};

__global__ void record_coordinates(int *out, offset_arg a)
{
    unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
    out[block * per_block + thread] = a.base + a.step * (int)(block * 1000 + thread);
    a.base = -1; /* each thread has its own copy of the arguments */
}

Test(emu_launch, coordinates_and_arguments_of_a_3d_launch)
{
    dim3 grid(2, 3, 2), block(4, 2, 3);
    size_t n = 12 * 24;
    int *d = nullptr;
    OK(cudaMalloc(&d, n * sizeof(int)));
    record_coordinates<<<grid, block>>>(d, offset_arg{ 7, 2 });
    OK(cudaGetLastError());
    std::vector<int> h = to_host(d, n);
    for (size_t b = 0; b < 12; b++)
        for (size_t t = 0; t < 24; t++)
            cr_assert_eq(h[b * 24 + t], 7 + 2 * (int)(b * 1000 + t), "block %zu thread %zu", b, t);
}

Test(emu_launch, a_bad_configuration_is_refused_as_cuda_does, EXPECTS_MESSAGE)
{
    int *d = nullptr;
    OK(cudaMalloc(&d, 4));
    record_coordinates<<<1, 2048>>>(d, offset_arg{ 0, 0 });
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    record_coordinates<<<0, 32>>>(d, offset_arg{ 0, 0 });
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "the error is read once");
}

/* ---- barriers --------------------------------------------------------------------- */
__global__ void block_sum(const int *in, int *out, int *counts)
{
    __shared__ int partial[256];
    const int t = threadIdx.x;
    partial[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (int s = 128; s > 0; s /= 2) {
        if (t < s)
            partial[t] += partial[t + s];
        __syncthreads();
    }
    int odd = __syncthreads_count(in[blockIdx.x * 256 + t] % 2);
    int any = __syncthreads_or(t == 77);
    int all = __syncthreads_and(t < 300);
    if (t == 0) {
        out[blockIdx.x] = partial[0];
        counts[3 * blockIdx.x] = odd;
        counts[3 * blockIdx.x + 1] = any;
        counts[3 * blockIdx.x + 2] = all;
    }
}

Test(emu_barrier, a_tree_reduction_and_the_predicate_barriers)
{
    std::vector<int> h(4 * 256);
    for (size_t i = 0; i < h.size(); i++)
        h[i] = (int)(i * 7 % 13);
    int *in = to_device(h), *out = nullptr, *counts = nullptr;
    OK(cudaMalloc(&out, 4 * sizeof(int)));
    OK(cudaMalloc(&counts, 12 * sizeof(int)));
    block_sum<<<4, 256>>>(in, out, counts);
    std::vector<int> sums = to_host(out, 4), c = to_host(counts, 12);
    for (int b = 0; b < 4; b++) {
        int sum = 0, odd = 0;
        for (int t = 0; t < 256; t++) {
            sum += h[b * 256 + t];
            odd += h[b * 256 + t] % 2;
        }
        cr_assert_eq(sums[b], sum);
        cr_assert_eq(c[3 * b], odd);
        cr_assert_eq(c[3 * b + 1], 1);
        cr_assert_eq(c[3 * b + 2], 1);
    }
}

/* ---- warp collectives ----------------------------------------------------------------- */
__global__ void warp_ops(int *out)
{
    const int lane = threadIdx.x;
    int *o = out + lane * 16;
    o[0] = __shfl_sync(0xffffffffu, lane * 10, 5);
    o[1] = __shfl_up_sync(0xffffffffu, lane * 10, 3);
    o[2] = __shfl_down_sync(0xffffffffu, lane * 10, 3, 8);
    o[3] = __shfl_xor_sync(0xffffffffu, lane * 10, 1);
    o[4] = (int)__ballot_sync(0xffffffffu, lane % 3 == 0);
    o[5] = __any_sync(0xffffffffu, lane == 31);
    o[6] = __all_sync(0xffffffffu, lane < 31);
    o[7] = (int)__match_any_sync(0xffffffffu, lane % 3);
    int pred = 0;
    o[8] = (int)__match_all_sync(0xffffffffu, 42, &pred);
    o[9] = pred;
    o[10] = __reduce_add_sync(0xffffffffu, lane);
    o[11] = __reduce_min_sync(0xffffffffu, 100 - lane);
    o[12] = (int)__reduce_max_sync(0xffffffffu, (unsigned)lane * 2);
    namespace cg = cooperative_groups;
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
    o[13] = cg::reduce(tile, lane, cg::plus<int>());
    o[14] = (int)tile.thread_rank();
    o[15] = tile.shfl(lane, 7);
}

Test(emu_warp, shuffles_votes_matches_and_reductions)
{
    int *d = nullptr;
    OK(cudaMalloc(&d, 32 * 16 * sizeof(int)));
    warp_ops<<<1, 32>>>(d);
    std::vector<int> h = to_host(d, 32 * 16);
    unsigned every_third = 0, mod3[3] = { 0, 0, 0 };
    for (int l = 0; l < 32; l++) {
        every_third |= (l % 3 == 0) << l;
        mod3[l % 3] |= 1u << l;
    }
    for (int l = 0; l < 32; l++) {
        const int *o = &h[l * 16];
        int base8 = l / 8 * 8, group = 0;
        for (int k = base8; k < base8 + 8; k++)
            group += k;
        cr_assert_eq(o[0], 50);
        cr_assert_eq(o[1], l >= 3 ? (l - 3) * 10 : l * 10);
        cr_assert_eq(o[2], l % 8 + 3 < 8 ? (l + 3) * 10 : l * 10);
        cr_assert_eq(o[3], (l ^ 1) * 10);
        cr_assert_eq((unsigned)o[4], every_third);
        cr_assert_eq(o[5], 1);
        cr_assert_eq(o[6], 0);
        cr_assert_eq((unsigned)o[7], mod3[l % 3]);
        cr_assert_eq((unsigned)o[8], 0xffffffffu);
        cr_assert_eq(o[9], 1);
        cr_assert_eq(o[10], 31 * 32 / 2);
        cr_assert_eq(o[11], 69);
        cr_assert_eq(o[12], 62);
        cr_assert_eq(o[13], group);
        cr_assert_eq(o[14], l % 8);
        cr_assert_eq(o[15], base8 + 7);
    }
}

/* Independent thread scheduling: lanes leave a loop of shrinking masks one group at
 * a time and wait in a full-warp vote for the others; that is not an error. */
__global__ void groups_leave_one_by_one(int *out)
{
    const unsigned me = 1u << threadIdx.x;
    unsigned left = 0xffffffffu;
    int key = threadIdx.x % 4, rounds = 0;
    for (;;) {
        int leader = __ffs(left) - 1;
        int leader_key = __shfl_sync(left, key, leader);
        unsigned peers = __ballot_sync(left, key == leader_key);
        rounds++;
        if (peers & me)
            break;
        left &= ~peers;
    }
    out[threadIdx.x] = __any_sync(0xffffffffu, rounds == 4) ? rounds : -1;
}

Test(emu_warp, lanes_in_different_calls_meet_later)
{
    int *d = nullptr;
    OK(cudaMalloc(&d, 32 * sizeof(int)));
    groups_leave_one_by_one<<<1, 32>>>(d);
    OK(cudaDeviceSynchronize());
    std::vector<int> h = to_host(d, 32);
    for (int l = 0; l < 32; l++)
        cr_assert_eq(h[l], l % 4 + 1);
}

/* ---- the race detector ------------------------------------------------------------------- */
enum { RACE_LINE = __LINE__ + 9 };
__global__ void tree_without_barrier(const int *in, int *out)
{
    __shared__ int partial[64];
    const int t = threadIdx.x;
    partial[t] = in[t];
    __syncthreads();
    for (int s = 32; s > 0; s /= 2) {
        if (t < s)
            partial[t] += partial[t + s];
    }
    if (t == 0)
        *out = partial[0];
}

Test(emu_race, a_missing_syncthreads_is_named_with_both_threads_and_the_line, EXPECTS_MESSAGE)
{
    std::vector<int> h(64, 1);
    int *in = to_device(h), *out = nullptr;
    OK(cudaMalloc(&out, sizeof(int)));
    tree_without_barrier<<<1, 64>>>(in, out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(reported("shared-memory race on partial["), "%s", kitEmuLastReport());
    cr_assert(reported(here(RACE_LINE).c_str()), "%s", kitEmuLastReport());
    cr_assert(reported("thread 1 of block 0") || reported("thread 0 of block 0"), "%s", kitEmuLastReport());
}

/* The warp-synchronous end of a tree: correct with __syncwarp, a race without. */
template <bool SYNC>
__global__ void last_warp_tree(const int *in, int *out)
{
    __shared__ int partial[64];
    const int t = threadIdx.x;
    partial[t] = in[t] + in[t + 32];
    if (SYNC)
        __syncwarp();
    for (int s = 16; s > 0; s /= 2) {
        int other = t < s ? partial[t + s] : 0;
        if (SYNC)
            __syncwarp();
        if (t < s)
            partial[t] += other;
        if (SYNC)
            __syncwarp();
    }
    if (t == 0)
        *out = partial[0];
}

Test(emu_race, syncwarp_orders_a_warp_and_its_absence_is_a_race, EXPECTS_MESSAGE)
{
    std::vector<int> h(64, 2);
    int *in = to_device(h), *out = nullptr;
    OK(cudaMalloc(&out, sizeof(int)));
    last_warp_tree<true><<<1, 32>>>(in, out);
    OK(cudaDeviceSynchronize());
    cr_assert_eq(to_host(out, 1)[0], 128);
    last_warp_tree<false><<<1, 32>>>(in, out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(reported("shared-memory race"), "%s", kitEmuLastReport());
}

/* Warp 0 produces a tile, the other warps consume it: ordered by a cuda::barrier. */
__global__ void produce_then_consume(int *out)
{
    __shared__ int tile[32];
    __shared__ cuda::barrier<cuda::thread_scope_block> ready;
    if (threadIdx.x == 0)
        init(&ready, blockDim.x);
    __syncthreads();
    if (threadIdx.x < 32)
        tile[threadIdx.x] = (int)threadIdx.x * 3;
    ready.arrive_and_wait();
    out[threadIdx.x] = tile[threadIdx.x % 32];
}

Test(emu_race, a_cuda_barrier_orders_producer_and_consumers)
{
    int *out = nullptr;
    OK(cudaMalloc(&out, 128 * sizeof(int)));
    produce_then_consume<<<2, 128>>>(out);
    OK(cudaDeviceSynchronize());
    std::vector<int> h = to_host(out, 128);
    for (int t = 0; t < 128; t++)
        cr_assert_eq(h[t], t % 32 * 3);
}

/* ---- bounds ----------------------------------------------------------------------------- */
__global__ void copy_one_more(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        out[i % n] = in[i];
}

Test(emu_bounds, a_read_one_past_the_end_names_the_buffer_and_the_element, EXPECTS_MESSAGE)
{
    std::vector<int> h(33, 5);
    int *in = to_device(h), *out = nullptr;
    OK(cudaMalloc(&out, 33 * sizeof(int)));
    kitEmuNameAllocation(in, "the input");
    copy_one_more<<<2, 32>>>(in, out, 33);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_assert(reported("'the input'") && reported("just past its end") && reported("element 33"), "%s",
              kitEmuLastReport());
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "an emulator check reports once");
}

__global__ void shared_past_the_array(int *out)
{
    __shared__ int tile[32];
    tile[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x + 1];
}

Test(emu_bounds, a_shared_index_past_the_array, EXPECTS_MESSAGE)
{
    int *out = nullptr;
    OK(cudaMalloc(&out, 32 * sizeof(int)));
    shared_past_the_array<<<1, 32>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_assert(reported("tile[32], past the end of tile (32 elements"), "%s", kitEmuLastReport());
}

Test(emu_bounds, a_freed_buffer, EXPECTS_MESSAGE)
{
    std::vector<int> h(32, 5);
    int *in = to_device(h), *out = nullptr;
    OK(cudaMalloc(&out, 32 * sizeof(int)));
    OK(cudaFree(in));
    copy_one_more<<<1, 32>>>(in, out, 40);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_assert(reported("which was freed"), "%s", kitEmuLastReport());
}

Test(emu_bounds, host_code_reading_device_memory_stops_the_program, .exit_code = 2, EXPECTS_MESSAGE)
{
    int *d = nullptr;
    OK(cudaMalloc(&d, sizeof(int)));
    volatile int *p = d;
    *p = 1; /* a GPU pointer used on the host */
}

__device__ int deep(volatile int *p, int d)
{
    volatile char frame[4096];
    frame[d % 4096] = (char)d;
    return d == 0 ? frame[0] : deep(p, d - 1) + frame[(d * 7) % 4096] + *p;
}

__global__ void recurse(int *out, int *p) { out[threadIdx.x] = deep(p, 1000); }

Test(emu_bounds, a_stack_overflow_names_the_thread, EXPECTS_MESSAGE)
{
    int *out = nullptr, *p = nullptr;
    OK(cudaMalloc(&out, 32 * sizeof(int)));
    OK(cudaMalloc(&p, sizeof(int)));
    OK(cudaMemset(p, 0, sizeof(int)));
    recurse<<<1, 32>>>(out, p);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_assert(reported("overflowed its stack"), "%s", kitEmuLastReport());
    recurse<<<1, 32>>>(out, p);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress, "and again: the emulator goes on after a fault");
}

/* ---- masks, divergence, deadlocks -------------------------------------------------------------- */
__global__ void shuffle_outside_the_mask(int *out)
{
    out[threadIdx.x] = __shfl_down_sync(0x0000ffffu, (int)threadIdx.x, 8);
}

__global__ void mask_names_exited_lanes(int *out)
{
    if (threadIdx.x >= 16)
        return;
    out[threadIdx.x] = (int)__ballot_sync(0xffffffffu, 1);
}

__global__ void lanes_name_each_other_differently(int *out)
{
    unsigned mask = threadIdx.x < 16 ? 0xffffffffu : 0x0000ffffu | 1u << threadIdx.x;
    out[threadIdx.x] = (int)__ballot_sync(mask, 1);
}

Test(emu_mask, a_shuffle_reading_a_lane_outside_the_mask, EXPECTS_MESSAGE)
{
    int *out = nullptr;
    OK(cudaMalloc(&out, 32 * sizeof(int)));
    shuffle_outside_the_mask<<<1, 16>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(reported("which is not in the mask 0x0000ffff"), "%s", kitEmuLastReport());
}

Test(emu_mask, a_mask_naming_lanes_that_exited, EXPECTS_MESSAGE)
{
    int *out = nullptr;
    OK(cudaMalloc(&out, 32 * sizeof(int)));
    mask_names_exited_lanes<<<1, 32>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(reported("exit") && reported("__ballot_sync"), "%s", kitEmuLastReport());
}

Test(emu_mask, lanes_that_name_each_other_with_different_masks, EXPECTS_MESSAGE)
{
    int *out = nullptr;
    OK(cudaMalloc(&out, 32 * sizeof(int)));
    lanes_name_each_other_differently<<<1, 32>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(reported("disagree"), "%s", kitEmuLastReport());
}

__global__ void two_barriers(int *out)
{
    if (threadIdx.x < 32)
        __syncthreads();
    else
        __syncthreads();
    out[threadIdx.x] = 1;
}

__global__ void barrier_against_vote(int *out)
{
    if (threadIdx.x == 0)
        __syncthreads(); /* waits for lanes 1..63, which wait for lane 0 in the vote */
    else
        out[threadIdx.x] = (int)__ballot_sync(0xffffffffu, 1);
}

__global__ void wait_for_a_flag_nobody_sets(volatile int *flag)
{
    while (*flag == 0) {
    }
}

Test(emu_deadlock, syncthreads_reached_at_two_places, EXPECTS_MESSAGE)
{
    int *out = nullptr;
    OK(cudaMalloc(&out, 64 * sizeof(int)));
    two_barriers<<<1, 64>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(reported("reached at two places"), "%s", kitEmuLastReport());
}

Test(emu_deadlock, a_barrier_and_a_vote_waiting_for_each_other, EXPECTS_MESSAGE)
{
    int *out = nullptr;
    OK(cudaMalloc(&out, 64 * sizeof(int)));
    barrier_against_vote<<<1, 64>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(reported("deadlock") && reported("__syncthreads") && reported("__ballot_sync"), "%s",
              kitEmuLastReport());
}

Test(emu_deadlock, polling_a_flag_nobody_sets, EXPECTS_MESSAGE)
{
    int *flag = nullptr;
    OK(cudaMalloc(&flag, sizeof(int)));
    OK(cudaMemset(flag, 0, sizeof(int)));
    wait_for_a_flag_nobody_sets<<<2, 32>>>(flag);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_assert(reported("no progress") && reported("polls"), "%s", kitEmuLastReport());
}

/* ---- blocks that wait for earlier blocks -------------------------------------------------------- */
__global__ void chain(unsigned *flags, unsigned *ticket)
{
    __shared__ unsigned me;
    if (threadIdx.x == 0)
        me = atomicAdd(ticket, 1u);
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned before = 0;
        if (me > 0)
            while ((before = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[me - 1])
                                 .load(cuda::memory_order_acquire)) == 0)
                __nanosleep(32);
        cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[me]).store(before + 1, cuda::memory_order_release);
    }
}

Test(emu_blocks, a_chain_of_blocks_waiting_for_their_predecessor_finishes)
{
    const unsigned blocks = 300; /* more than the emulated GPU holds at once */
    unsigned *flags = nullptr, *ticket = nullptr;
    OK(cudaMalloc(&flags, blocks * sizeof(unsigned)));
    OK(cudaMalloc(&ticket, sizeof(unsigned)));
    OK(cudaMemset(flags, 0, blocks * sizeof(unsigned)));
    OK(cudaMemset(ticket, 0, sizeof(unsigned)));
    chain<<<blocks, 64>>>(flags, ticket);
    OK(cudaDeviceSynchronize());
    std::vector<unsigned> h = to_host(flags, blocks);
    for (unsigned i = 0; i < blocks; i++)
        cr_assert_eq(h[i], i + 1);
}

/* ---- asynchronous copies -------------------------------------------------------------------------- */
template <bool WAIT>
__global__ void bulk_copy_into_shared(const int *in, int *out)
{
    __shared__ __align__(16) int tile[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> landed;
    if (threadIdx.x == 0)
        init(&landed, blockDim.x);
    __syncthreads();
    namespace cg = cooperative_groups;
    cg::thread_block block = cg::this_thread_block();
    cuda::memcpy_async(block, tile, in, cuda::aligned_size_t<16>(sizeof tile), landed);
    cuda::barrier<cuda::thread_scope_block>::arrival_token token = landed.arrive();
    if (WAIT)
        landed.wait(std::move(token));
    out[threadIdx.x] = tile[255 - threadIdx.x];
}

Test(emu_async, a_bulk_copy_lands_when_the_barrier_completes, EXPECTS_MESSAGE)
{
    std::vector<int> h(256);
    std::iota(h.begin(), h.end(), 1);
    int *in = to_device(h), *out = nullptr;
    OK(cudaMalloc(&out, 256 * sizeof(int)));
    bulk_copy_into_shared<true><<<1, 256>>>(in, out);
    OK(cudaDeviceSynchronize());
    std::vector<int> got = to_host(out, 256);
    for (int t = 0; t < 256; t++)
        cr_assert_eq(got[t], 256 - t);
    bulk_copy_into_shared<false><<<1, 256>>>(in, out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure, "reading the tile before the wait");
    cr_assert(reported("shared-memory race on tile["), "%s", kitEmuLastReport());
}

template <bool WAIT>
__global__ void pipeline_copy(const int4 *in, int *out)
{
    __shared__ int4 tile[32];
    tile[threadIdx.x] = make_int4(0, 0, 0, 0);
    __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int4));
    __pipeline_commit();
    if (WAIT)
        __pipeline_wait_prior(0);
    out[threadIdx.x] = tile[threadIdx.x].x;
}

Test(emu_async, a_pipeline_copy_lands_at_the_wait)
{
    std::vector<int4> h(32);
    for (int i = 0; i < 32; i++)
        h[i] = make_int4(i + 1, 0, 0, 0);
    int4 *in = to_device(h);
    int *out = nullptr;
    OK(cudaMalloc(&out, 32 * sizeof(int)));
    pipeline_copy<false><<<1, 32>>>(in, out);
    OK(cudaDeviceSynchronize());
    std::vector<int> early = to_host(out, 32);
    pipeline_copy<true><<<1, 32>>>(in, out);
    OK(cudaDeviceSynchronize());
    std::vector<int> waited = to_host(out, 32);
    for (int i = 0; i < 32; i++) {
        cr_assert_eq(early[i], 0, "before the wait the old bytes");
        cr_assert_eq(waited[i], i + 1);
    }
}

/* ---- streams and events ---------------------------------------------------------------------------- */
__global__ void write_value(int *p, int v) { *p = v; }
__global__ void copy_value(const int *from, int *to) { *to = *from; }

/* Stream b copies what stream a wrote, with or without an event between them; the
 * executor picks among the operations that may run at random, so without the wait
 * some rounds copy the old value. */
static int stale_copies(bool wait, int rounds)
{
    cudaStream_t a, b;
    cudaEvent_t written;
    OK(cudaStreamCreate(&a));
    OK(cudaStreamCreate(&b));
    OK(cudaEventCreateWithFlags(&written, cudaEventDisableTiming));
    int *x = nullptr, *y = nullptr, stale = 0;
    OK(cudaMalloc(&x, sizeof(int)));
    OK(cudaMalloc(&y, sizeof(int)));
    for (int r = 1; r <= rounds; r++) {
        write_value<<<1, 1, 0, a>>>(x, r);
        OK(cudaEventRecord(written, a));
        if (wait)
            OK(cudaStreamWaitEvent(b, written, 0));
        copy_value<<<1, 1, 0, b>>>(x, y);
        OK(cudaStreamSynchronize(b));
        OK(cudaStreamSynchronize(a));
        stale += to_host(y, 1)[0] != r;
    }
    return stale;
}

Test(emu_streams, operations_of_two_streams_run_in_random_legal_orders, EXPECTS_MESSAGE)
{
    cr_assert_eq(stale_copies(true, 40), 0, "with the event every copy sees the write");
    cr_assert_gt(stale_copies(false, 40), 0, "without it some copy runs first");
}

Test(emu_streams, events_time_nothing_and_fail_as_cuda_events_do)
{
    cudaEvent_t start, stop, untimed;
    OK(cudaEventCreate(&start));
    OK(cudaEventCreate(&stop));
    OK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    float ms = -1;
    cr_assert_eq(cudaEventElapsedTime(&ms, start, stop), cudaErrorInvalidResourceHandle, "never recorded");
    OK(cudaEventRecord(start, 0));
    OK(cudaEventRecord(stop, 0));
    OK(cudaEventRecord(untimed, 0));
    cudaError_t query = cudaEventQuery(stop); /* it may run some of the work */
    cr_assert(query == cudaSuccess || query == cudaErrorNotReady);
    OK(cudaEventSynchronize(stop));
    OK(cudaEventElapsedTime(&ms, start, stop));
    cr_assert_eq(ms, 0.0f, "an emulated event carries no time");
    cr_assert_eq(cudaEventElapsedTime(&ms, start, untimed), cudaErrorInvalidResourceHandle);
}

Test(emu_memcpy, a_wrong_direction_or_range_is_refused, EXPECTS_MESSAGE)
{
    int *d = nullptr, h[8] = { 0 };
    OK(cudaMalloc(&d, 8 * sizeof(int)));
    cr_assert_eq(cudaMemcpy(d, h, 9 * sizeof(int), cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_assert(reported("not all addressable"), "%s", kitEmuLastReport());
    cr_assert_eq(cudaMemcpy(h, d, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_assert(reported("the kind says host to device"), "%s", kitEmuLastReport());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDefault));
}

/* ---- several GPUs ------------------------------------------------------------------------------------ */
Test(emu_gpus, reading_another_gpu_needs_peer_access, EXPECTS_MESSAGE)
{
    setenv("KIT_EMU_GPUS", "2", 1);
    int *on1 = nullptr, *on0 = nullptr;
    OK(cudaSetDevice(1));
    OK(cudaMalloc(&on1, 4 * sizeof(int)));
    OK(cudaMemset(on1, 0, 4 * sizeof(int)));
    OK(cudaSetDevice(0));
    OK(cudaMalloc(&on0, 4 * sizeof(int)));
    copy_value<<<1, 1>>>(on1, on0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_assert(reported("without peer access"), "%s", kitEmuLastReport());
    OK(cudaDeviceEnablePeerAccess(1, 0));
    copy_value<<<1, 1>>>(on1, on0);
    OK(cudaDeviceSynchronize());
}

Test(emu_nccl, collectives_and_point_to_point_on_four_gpus)
{
    setenv("KIT_EMU_GPUS", "4", 1);
    const int G = 4, n = 5;
    ncclComm_t comms[G];
    cr_assert_eq(ncclCommInitAll(comms, G, nullptr), ncclSuccess);
    float *x[G], *all[G], *y[G], *got[G];
    cudaStream_t s[G];
    for (int g = 0; g < G; g++) {
        OK(cudaSetDevice(g));
        OK(cudaStreamCreate(&s[g]));
        std::vector<float> h(n, (float)(g + 1));
        x[g] = to_device(h);
        y[g] = to_device(std::vector<float>(n, (float)(g + 100)));
        OK(cudaMalloc(&all[g], G * n * sizeof(float)));
        OK(cudaMalloc(&got[g], n * sizeof(float)));
    }
    cr_assert_eq(ncclGroupStart(), ncclSuccess);
    for (int g = 0; g < G; g++) {
        cr_assert_eq(ncclAllGather(x[g], all[g], n, ncclFloat32, comms[g], s[g]), ncclSuccess);
        cr_assert_eq(ncclAllReduce(x[g], x[g], n, ncclFloat32, ncclSum, comms[g], s[g]), ncclSuccess);
        cr_assert_eq(ncclSend(y[g], n, ncclFloat32, (g + 1) % G, comms[g], s[g]), ncclSuccess);
        cr_assert_eq(ncclRecv(got[g], n, ncclFloat32, (g + G - 1) % G, comms[g], s[g]), ncclSuccess);
    }
    cr_assert_eq(ncclGroupEnd(), ncclSuccess);
    for (int g = 0; g < G; g++) {
        OK(cudaSetDevice(g));
        OK(cudaStreamSynchronize(s[g]));
        std::vector<float> a = to_host(all[g], G * n), r = to_host(x[g], n), p = to_host(got[g], n);
        for (int k = 0; k < G * n; k++)
            cr_assert_eq(a[k], (float)(k / n + 1));
        for (int k = 0; k < n; k++) {
            cr_assert_eq(r[k], 10.0f);
            cr_assert_eq(p[k], (float)((g + G - 1) % G + 100), "from the left neighbour");
        }
    }
}

Test(emu_nccl, a_group_without_every_rank_is_refused, EXPECTS_MESSAGE)
{
    setenv("KIT_EMU_GPUS", "2", 1);
    ncclComm_t comms[2];
    cr_assert_eq(ncclCommInitAll(comms, 2, nullptr), ncclSuccess);
    float *x = nullptr;
    OK(cudaMalloc(&x, 4 * sizeof(float)));
    cr_assert_eq(ncclAllReduce(x, x, 4, ncclFloat32, ncclSum, comms[0], 0), ncclInvalidUsage);
    cr_assert(strstr(ncclGetLastError(nullptr), "ncclGroupStart"), "%s", ncclGetLastError(nullptr));
}

/* ---- CUB ------------------------------------------------------------------------------------------------- */
template <class F>
static void cub_call(F call)
{
    size_t bytes = 0;
    OK(call(nullptr, bytes));
    void *temp = nullptr;
    OK(cudaMalloc(&temp, bytes));
    OK(call(temp, bytes));
    OK(cudaDeviceSynchronize());
    OK(cudaFree(temp));
}

Test(emu_cub, device_routines_give_cubs_results)
{
    const int n = 1000;
    std::vector<int> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (int)(test_hash(i) % 2001) - 1000;
    int *in = to_device(h), *out = nullptr;
    long long *sum = nullptr;
    unsigned *count = nullptr;
    OK(cudaMalloc(&out, 2 * n * sizeof(int)));
    OK(cudaMalloc(&sum, sizeof(long long)));
    OK(cudaMalloc(&count, sizeof(unsigned)));

    cub_call([&](void *t, size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, in, out, n); });
    std::vector<int> scan(n);
    std::exclusive_scan(h.begin(), h.end(), scan.begin(), 0);
    cr_assert(to_host(out, n) == scan, "ExclusiveSum");

    cub_call([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, in, sum, n); });
    cr_assert_eq(to_host(sum, 1)[0], std::accumulate(h.begin(), h.end(), 0ll), "Sum");

    cub_call([&](void *t, size_t &b) { return cub::DeviceHistogram::HistogramEven(t, b, in, out, 11, -1000, 1001, n); });
    std::vector<int> hist(10, 0);
    for (int v : h)
        hist[(size_t)((long long)(v + 1000) * 10 / 2001)]++;
    cr_assert(to_host(out, 10) == hist, "HistogramEven");

    cub_call([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, in, out, n); });
    std::vector<int> sorted = h;
    std::sort(sorted.begin(), sorted.end());
    cr_assert(to_host(out, n) == sorted, "SortKeys of signed keys");

    int *a = to_device(sorted);
    cub_call([&](void *t, size_t &b) {
        return cub::DeviceMerge::MergeKeys(t, b, a, n / 2, a + n / 2, n - n / 2, out, cuda::std::less<int>());
    });
    std::vector<int> merged(n);
    std::merge(sorted.begin(), sorted.begin() + n / 2, sorted.begin() + n / 2, sorted.end(), merged.begin());
    cr_assert(to_host(out, n) == merged, "MergeKeys");

    struct positive {
        bool operator()(int v) const { return v > 0; }
    };
    cub_call([&](void *t, size_t &b) { return cub::DeviceSelect::If(t, b, in, out, count, n, positive()); });
    std::vector<int> kept;
    std::copy_if(h.begin(), h.end(), std::back_inserter(kept), positive());
    cr_assert_eq(to_host(count, 1)[0], (unsigned)kept.size());
    cr_assert(to_host(out, kept.size()) == kept, "DeviceSelect::If");
}

Test(emu_cub, float_keys_sort_as_cub_sorts_them)
{
    std::vector<float> h = { 1.5f, -0.0f, 0.0f, -2.0f, 0.0f, -0.0f, 3.0f };
    float *in = to_device(h), *out = nullptr;
    OK(cudaMalloc(&out, h.size() * sizeof(float)));
    cub_call([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, in, out, (int)h.size()); });
    std::vector<float> got = to_host(out, h.size());
    const float expect[] = { -2.0f, -0.0f, 0.0f, 0.0f, -0.0f, 1.5f, 3.0f }; /* zeros equal, stable */
    for (size_t i = 0; i < h.size(); i++)
        cr_assert_eq(memcmp(&got[i], &expect[i], sizeof(float)), 0, "position %zu", i);
}

Test(emu_cub, too_little_temp_storage_is_refused, EXPECTS_MESSAGE)
{
    int *d = nullptr;
    OK(cudaMalloc(&d, 64 * sizeof(int)));
    size_t bytes = 0;
    OK(cub::DeviceScan::InclusiveSum(nullptr, bytes, d, d, 64));
    size_t less = bytes - 1;
    cr_assert_eq(cub::DeviceScan::InclusiveSum(d, less, d, d, 64), cudaErrorInvalidValue);
}

/* ---- inline PTX, as the kit's acquire/release helpers write it -------------------------------------------- */
__device__ __forceinline__ void store_release(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned long long load_acquire(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ unsigned lanes_with_odd(int v)
{
    unsigned r;
    asm("{\n\t.reg .pred odd;\n\t.reg .b32 low;\n\t"
        "and.b32 low, %1, 1;\n\t"
        "setp.eq.u32 odd, low, 1;\n\t"
        "vote.sync.ballot.b32 %0, odd, 0xffffffff;\n\t}"
        : "=r"(r)
        : "r"(v));
    return r;
}
__device__ __forceinline__ int larger(int a, int b)
{
    int r;
    asm("{ .reg .pred a_larger; setp.gt.s32 a_larger, %1, %2; selp.b32 %0, %1, %2, a_larger; }"
        : "=r"(r)
        : "r"(a), "r"(b));
    return r;
}

__global__ void ptx_helpers(unsigned long long *words, unsigned *agree)
{
    if (blockIdx.x == 1 && threadIdx.x == 0)
        store_release(&words[0], 0x1234567890ull);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned long long v;
        while ((v = load_acquire(&words[0])) == 0) {
        }
        words[1] = v + 1;
    }
    if (blockIdx.x == 0)
        agree[threadIdx.x] = lanes_with_odd((int)threadIdx.x) ^ (unsigned)larger(-(int)threadIdx.x, -5);
}

Test(emu_ptx, acquire_release_a_vote_and_predicates_written_in_ptx)
{
    unsigned long long *words = nullptr;
    unsigned *agree = nullptr;
    OK(cudaMalloc(&words, 2 * sizeof(unsigned long long)));
    OK(cudaMalloc(&agree, 32 * sizeof(unsigned)));
    OK(cudaMemset(words, 0, 2 * sizeof(unsigned long long)));
    ptx_helpers<<<2, 32>>>(words, agree);
    OK(cudaDeviceSynchronize());
    cr_assert_eq(to_host(words, 2)[1], 0x1234567891ull);
    std::vector<unsigned> got = to_host(agree, 32);
    for (unsigned l = 0; l < 32; l++)
        cr_assert_eq(got[l], 0xaaaaaaaau ^ (unsigned)(l < 5 ? -(int)l : -5), "lane %u", l);
}

/* CPU suite for the resident-blocks cache (common/resident.c), with made-up
 * queries in place of the occupancy calculator: one answer per device, one query
 * per (device, kernel, threads, smem, query), a failure not remembered, and the
 * same from many threads at once. No GPU needed. */
#include "kit_test.h"

#include <pthread.h>

/* Stand-ins for kernels: only their addresses matter. */
static const char kernel_a, kernel_b;

/* A device's answer that tells the key back: 1000 x (device + 1) + threads / 32,
 * + 1 with dynamic shared memory. Counts its calls. */
static int calls;
static int fake_query(int device, const void *kernel, int threads, size_t smem, int *blocks)
{
    (void)kernel;
    __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
    *blocks = 1000 * (device + 1) + threads / 32 + (smem > 0);
    return 0;
}
static int other_query(int device, const void *kernel, int threads, size_t smem, int *blocks)
{
    (void)device, (void)kernel, (void)threads, (void)smem;
    calls++;
    *blocks = 7;
    return 0;
}

static int blocks_of(int device, const void *kernel, int threads, size_t smem, kit_resident_query query)
{
    int blocks = -1;
    cr_assert(eq(int, kit_resident_blocks_on(device, kernel, threads, smem, query, &blocks), 0));
    return blocks;
}

Test(resident, one_answer_per_device)
{
    cr_assert(eq(int, blocks_of(0, &kernel_a, 256, 0, fake_query), 1008));
    cr_assert(eq(int, blocks_of(1, &kernel_a, 256, 0, fake_query), 2008), "device 1 is asked, not given device 0's");
    cr_assert(eq(int, calls, 2));
    for (int again = 0; again < 3; again++) {
        cr_assert(eq(int, blocks_of(1, &kernel_a, 256, 0, fake_query), 2008));
        cr_assert(eq(int, blocks_of(0, &kernel_a, 256, 0, fake_query), 1008));
    }
    cr_assert(eq(int, calls, 2), "each device asked once");
}

Test(resident, every_part_of_the_key_counts)
{
    cr_assert(eq(int, blocks_of(0, &kernel_a, 256, 0, fake_query), 1008));
    cr_assert(eq(int, blocks_of(0, &kernel_b, 256, 0, fake_query), 1008));
    cr_assert(eq(int, blocks_of(0, &kernel_a, 128, 0, fake_query), 1004));
    cr_assert(eq(int, blocks_of(0, &kernel_a, 256, 1024, fake_query), 1009));
    cr_assert(eq(int, blocks_of(0, &kernel_a, 256, 0, other_query), 7));
    cr_assert(eq(int, calls, 5));
    cr_assert(eq(int, blocks_of(0, &kernel_a, 256, 1024, fake_query), 1009));
    cr_assert(eq(int, blocks_of(0, &kernel_a, 256, 0, other_query), 7));
    cr_assert(eq(int, calls, 5));
}

/* Fails on its first call, answers 3 after. */
static int flaky_calls;
static int flaky_query(int device, const void *kernel, int threads, size_t smem, int *blocks)
{
    (void)device, (void)kernel, (void)threads, (void)smem;
    if (flaky_calls++ == 0)
        return (int)cudaErrorInvalidValue;
    *blocks = 3;
    return 0;
}

Test(resident, a_failed_query_is_asked_again)
{
    int blocks = -1;
    cr_assert(eq(int, kit_resident_blocks_on(0, &kernel_a, 32, 0, flaky_query, &blocks), (int)cudaErrorInvalidValue));
    cr_assert(eq(int, blocks, -1), "no answer on failure");
    cr_assert(eq(int, blocks_of(0, &kernel_a, 32, 0, flaky_query), 3));
    cr_assert(eq(int, blocks_of(0, &kernel_a, 32, 0, flaky_query), 3));
    cr_assert(eq(int, flaky_calls, 2));
}

/* Many threads, as lab 6 drives its GPUs, each asking for every device in turn,
 * all starting at once; a query takes a while, as a real one does, so that a
 * second thread comes while the first is still asking. */
enum { THREADS = 8, DEVICES = 4, ROUNDS = 2000 };
static int wrong_answers;
static pthread_barrier_t start_together;
static int slow_query(int device, const void *kernel, int threads, size_t smem, int *blocks)
{
    usleep(20000);
    return fake_query(device, kernel, threads, smem, blocks);
}
static void *ask_many(void *arg)
{
    int first = (int)(intptr_t)arg;
    pthread_barrier_wait(&start_together);
    for (int r = 0; r < ROUNDS; r++) {
        int device = (first + r) % DEVICES, blocks = -1;
        if (kit_resident_blocks_on(device, &kernel_b, 64, 0, slow_query, &blocks) || blocks != 1000 * (device + 1) + 2)
            __atomic_add_fetch(&wrong_answers, 1, __ATOMIC_SEQ_CST);
    }
    return NULL;
}

Test(resident, threads_at_once_ask_each_key_once)
{
    pthread_t threads[THREADS];
    pthread_barrier_init(&start_together, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        cr_assert(eq(int, pthread_create(&threads[i], NULL, ask_many, (void *)(intptr_t)i), 0));
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start_together);
    cr_assert(eq(int, wrong_answers, 0));
    cr_assert(eq(int, calls, DEVICES), "one query per device, however many threads asked");
}

/* resident.c: how many blocks of a kernel a GPU holds at once (the grid of a
 * persistent kernel), asked once per (device, kernel, threads, dynamic shared
 * memory, query) and remembered. Per device, because the answer, and the kernel
 * attributes a query may set first, belong to one GPU: after --device 1, or in
 * lab 6 where several threads drive several GPUs, a cache per kernel alone would
 * answer for the wrong one. */
#include "kit.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct {
    int device;
    const void *kernel;
    int threads;
    size_t smem;
    kit_resident_query query;
    int blocks;
} resident_entry;

/* A handful of kernels per GPU: a list searched in order. The lock is held
 * across a query, so that a key is asked once however many threads want it at
 * the same moment. */
static pthread_mutex_t resident_lock = PTHREAD_MUTEX_INITIALIZER;
static resident_entry *resident_known;
static size_t resident_count, resident_cap;

int kit_count_resident_blocks(int device, const void *kernel, int threads, size_t smem, int *blocks)
{
    int sms = 0, per_sm = 0;
    int err = KIT_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (!err)
        err = KIT_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    if (!err)
        *blocks = sms * (per_sm > 0 ? per_sm : 1);
    return err;
}

static const resident_entry *find_entry(const resident_entry *key)
{
    for (size_t i = 0; i < resident_count; i++) {
        const resident_entry *e = &resident_known[i];
        if (e->device == key->device && e->kernel == key->kernel && e->threads == key->threads &&
            e->smem == key->smem && e->query == key->query)
            return e;
    }
    return NULL;
}

static void remember(const resident_entry *answer)
{
    if (resident_count == resident_cap) {
        size_t cap = resident_cap ? 2 * resident_cap : 16;
        resident_entry *grown = realloc(resident_known, cap * sizeof *grown);
        if (!grown)
            return; /* not remembered: asked again next time */
        resident_known = grown;
        resident_cap = cap;
    }
    resident_known[resident_count++] = *answer;
}

int kit_resident_blocks_on(int device, const void *kernel, int threads, size_t smem, kit_resident_query query,
                           int *blocks)
{
    resident_entry key = { device, kernel, threads, smem, query, 0 };
    pthread_mutex_lock(&resident_lock);
    const resident_entry *known = find_entry(&key);
    int err = 0;
    if (known) {
        *blocks = known->blocks;
    } else if (!(err = query(device, kernel, threads, smem, &key.blocks))) {
        remember(&key);
        *blocks = key.blocks;
    }
    pthread_mutex_unlock(&resident_lock);
    return err;
}

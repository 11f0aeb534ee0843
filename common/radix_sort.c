/* radix_sort.c: the CPU references' stable radix sort of 32-bit words (OpenMP). */
#include "kit.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* One pass of kit_radix_sort_u32: the words (and payloads) move to word_to
 * (payload_to) in the order of their 8-bit digit at bit `shift`, stably. */
static void radix_pass_u32(const uint32_t *word, const uint32_t *payload, uint32_t *word_to, uint32_t *payload_to,
                           size_t n, int shift)
{
    int threads = omp_get_max_threads();
    size_t(*first)[256] = kit_host_alloc((size_t)threads * sizeof *first, "a radix pass's digit counts");
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), team = omp_get_num_threads();
        size_t begin = n * (size_t)t / (size_t)team, end = n * (size_t)(t + 1) / (size_t)team;
        size_t *mine = first[t];
        memset(mine, 0, sizeof first[t]);
        for (size_t i = begin; i < end; i++)
            mine[(word[i] >> shift) & 0xff]++;
#pragma omp barrier
#pragma omp single
        {
            size_t position = 0; /* digit-major, thread-minor: thread t's keys of digit d follow thread t-1's */
            for (int d = 0; d < 256; d++)
                for (int u = 0; u < team; u++) {
                    size_t count = first[u][d];
                    first[u][d] = position;
                    position += count;
                }
        } /* the implicit barrier: every first position is known */
        for (size_t i = begin; i < end; i++) {
            size_t to = mine[(word[i] >> shift) & 0xff]++;
            word_to[to] = word[i];
            if (payload)
                payload_to[to] = payload[i];
        }
    }
    free(first);
}

void kit_radix_sort_u32(uint32_t *word, uint32_t *payload, size_t n)
{
    uint32_t *word_to = kit_host_alloc(n * sizeof *word_to, "a radix sort's words");
    uint32_t *payload_to = payload ? kit_host_alloc(n * sizeof *payload_to, "a radix sort's payloads") : NULL;
    for (int shift = 0; shift < 32; shift += 16) { /* two passes a round: the result ends where it began */
        radix_pass_u32(word, payload, word_to, payload_to, n, shift);
        radix_pass_u32(word_to, payload_to, word, payload, n, shift + 8);
    }
    free(word_to);
    free(payload_to);
}

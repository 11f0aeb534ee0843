/* lab5_ref.c: the CPU reference ("gold") for lab5, written independently of the
 * kernels: every key becomes its ordered word (lab5_order) next to its original
 * index, the (word, index) pairs are sorted by four stable counting passes over
 * 8-bit digits, and the output gathers keys and values by index. Each pass is
 * split over the OpenMP threads: a histogram per thread's chunk, one exclusive
 * scan in (digit, thread) order, then each thread scatters its chunk in order,
 * so equal digits keep their input order (stable). */
#include "lab5.h"

#include <omp.h>
#include <stdlib.h>

enum { REF_BITS = 8, REF_DIGITS = 1 << REF_BITS };

/* One stable counting pass by digit `pass` from (word, index) to (word_to, index_to). */
static void counting_pass(const uint32_t *word, const uint32_t *index, uint32_t *word_to, uint32_t *index_to,
                          size_t n, int pass, size_t *hist, int max_threads)
{
#pragma omp parallel num_threads(max_threads)
    {
        int t = omp_get_thread_num(), threads = omp_get_num_threads();
        size_t begin = n * (size_t)t / (size_t)threads, end = n * (size_t)(t + 1) / (size_t)threads;
        size_t *mine = hist + (size_t)t * REF_DIGITS;
        for (int d = 0; d < REF_DIGITS; d++)
            mine[d] = 0;
        for (size_t i = begin; i < end; i++)
            mine[lab5_digit(word[i], pass, REF_BITS)]++;
#pragma omp barrier
#pragma omp single
        {
            size_t sum = 0; /* digit-major, thread-minor: thread t's keys of digit d follow thread t-1's */
            for (int d = 0; d < REF_DIGITS; d++)
                for (int u = 0; u < threads; u++) {
                    size_t c = hist[(size_t)u * REF_DIGITS + d];
                    hist[(size_t)u * REF_DIGITS + d] = sum;
                    sum += c;
                }
        }
        for (size_t i = begin; i < end; i++) {
            size_t to = mine[lab5_digit(word[i], pass, REF_BITS)]++;
            word_to[to] = word[i];
            index_to[to] = index[i];
        }
    }
}

void lab5_ref_sort(const uint32_t *keys, const uint32_t *values, size_t n, lab5_type type, uint32_t *keys_out,
                   uint32_t *values_out)
{
    if (n > UINT32_MAX)
        kit_die(KIT_EXIT_USAGE, "lab5_ref_sort: n = %zu does not fit 32-bit indices", n);
    uint32_t *word = kit_host_alloc(n * sizeof *word, "the reference's words");
    uint32_t *index = kit_host_alloc(n * sizeof *index, "the reference's indices");
    uint32_t *word_to = kit_host_alloc(n * sizeof *word, "the reference's words");
    uint32_t *index_to = kit_host_alloc(n * sizeof *index, "the reference's indices");
    int max_threads = omp_get_max_threads();
    size_t *hist = kit_host_alloc((size_t)max_threads * REF_DIGITS * sizeof *hist, "the reference's histograms");
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        word[i] = lab5_order(keys[i], type);
        index[i] = (uint32_t)i;
    }
    for (int pass = 0; pass < 32 / REF_BITS; pass++) {
        counting_pass(word, index, word_to, index_to, n, pass, hist, max_threads);
        uint32_t *w = word, *x = index;
        word = word_to, index = index_to;
        word_to = w, index_to = x;
    }
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        keys_out[i] = keys[index[i]];
        if (values)
            values_out[i] = values[index[i]];
    }
    free(word);
    free(index);
    free(word_to);
    free(index_to);
    free(hist);
}

/* lab5_ref.c: the CPU reference ("gold") for lab5, written independently of the
 * kernels: every key becomes its ordered word (lab5_order) next to its original
 * index, the (word, index) pairs are sorted by four stable counting passes over
 * 8-bit digits (kit_radix_sort_u32, common/radix_sort.c: split over the OpenMP threads
 * and stable), and the output gathers keys and values by index. */
#include "lab5.h"

#include <stdlib.h>

void lab5_ref_sort(const uint32_t *keys, const uint32_t *values, size_t n, lab5_type type, uint32_t *keys_out,
                   uint32_t *values_out)
{
    if (n > UINT32_MAX)
        kit_die(KIT_EXIT_USAGE, "lab5_ref_sort: n = %zu does not fit 32-bit indices", n);
    uint32_t *word = kit_host_alloc(n * sizeof *word, "the reference's words");
    uint32_t *index = kit_host_alloc(n * sizeof *index, "the reference's indices");
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        word[i] = lab5_order(keys[i], type);
        index[i] = (uint32_t)i;
    }
    kit_radix_sort_u32(word, index, n);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        keys_out[i] = keys[index[i]];
        if (values)
            values_out[i] = values[index[i]];
    }
    free(word);
    free(index);
}

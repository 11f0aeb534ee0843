/* lab3_ref.c: the CPU reference ("gold") for lab3. Written independently of the
 * kernels: one running sum in unsigned arithmetic (so int32 sums wrap modulo
 * 2^32 without signed-overflow undefined behaviour), one loop for compaction. */
#include "lab3.h"

#include <string.h>

void lab3_ref_scan_i32(const int32_t *in, int32_t *out, size_t n, int exclusive)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = (uint32_t)in[i]; /* read before writing: in may equal out */
        if (exclusive) {
            out[i] = (int32_t)sum;
            sum += x;
        } else {
            sum += x;
            out[i] = (int32_t)sum;
        }
    }
}

void lab3_ref_scan_i64(const int64_t *in, int64_t *out, size_t n, int exclusive)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = (uint64_t)in[i];
        if (exclusive) {
            out[i] = (int64_t)sum;
            sum += x;
        } else {
            sum += x;
            out[i] = (int64_t)sum;
        }
    }
}

size_t lab3_ref_select(const void *in, void *out, size_t n, lab3_type type, uint32_t keep_pct)
{
    size_t kept = 0;
    if (type == LAB3_I32) {
        const int32_t *a = in;
        int32_t *b = out;
        for (size_t i = 0; i < n; i++) {
            int32_t x = a[i];
            if (lab3_keep((uint32_t)x, keep_pct))
                b[kept++] = x; /* kept <= i: in place is safe */
        }
    } else {
        const int64_t *a = in;
        int64_t *b = out;
        for (size_t i = 0; i < n; i++) {
            int64_t x = a[i];
            if (lab3_keep((uint64_t)x, keep_pct))
                b[kept++] = x;
        }
    }
    return kept;
}

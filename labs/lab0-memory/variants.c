/* lab0's variant table: one row per step, in the order the sheet teaches them. */
#include "lab0.h"

const lab0_variant lab0_variants[] = {
    { { "copy", "0.0", "coalesced int4 copy: the memory-copy limit (worked example)" }, LAB0_COPY, lab0_copy },
    { { "float3-aos", "0.1", "one float3 per thread from an array of structures: 12-byte strided loads" }, LAB0_ADD_AOS, lab0_float3_aos },
    { { "float3-smem", "0.2", "stage the records through shared memory so global accesses coalesce" }, LAB0_ADD_AOS, lab0_float3_smem },
    { { "float3-soa", "0.3", "structure of arrays: every load and store coalesced by layout" }, LAB0_ADD_SOA, lab0_float3_soa },
    { { "stride", "0.4", "read every s-th float (--stride): wasted sectors" }, LAB0_STRIDED, lab0_stride },
    { { "offset", "0.5", "copy from a misaligned start (--offset)" }, LAB0_OFFSET, lab0_offset },
    { { "divergent", "0.6", "branch on threadIdx.x % 2: every warp runs both paths" }, LAB0_BRANCH_ODD, lab0_divergent },
    { { "warp-uniform", "0.7", "branch on (threadIdx.x / 32) % 2: each warp runs one path" }, LAB0_BRANCH_WARP, lab0_warp_uniform },
};
const int lab0_variant_count = sizeof lab0_variants / sizeof lab0_variants[0];

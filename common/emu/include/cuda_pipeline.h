/* cuda_pipeline.h of the kit's CPU emulator: per-thread asynchronous copies into
 * shared memory. A copy lands when __pipeline_wait_prior lets it (not before), so a
 * thread that reads its tile without waiting reads the old contents. */
#ifndef KIT_EMU_CUDA_PIPELINE_H
#define KIT_EMU_CUDA_PIPELINE_H
#include "cuda_runtime.h"
namespace kit_emu {
void pipeline_copy(void *dst, const void *src, size_t bytes, size_t zero_fill, const char *file, int line);
void pipeline_commit();
void pipeline_wait_prior(size_t keep, const char *file, int line);
}
inline void __pipeline_memcpy_async(void *dst, const void *src, size_t bytes, size_t zero_fill = 0, KIT_EMU_HERE)
{
    ::kit_emu::pipeline_copy(dst, src, bytes, zero_fill, file, line);
}
inline void __pipeline_commit() { ::kit_emu::pipeline_commit(); }
inline void __pipeline_wait_prior(size_t keep, KIT_EMU_HERE) { ::kit_emu::pipeline_wait_prior(keep, file, line); }
#endif

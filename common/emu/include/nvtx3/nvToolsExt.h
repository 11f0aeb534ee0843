/* nvToolsExt.h of the kit's CPU emulator: NVTX ranges name work for the GPU
 * profilers; there is no profiler here, so they do nothing. */
#ifndef KIT_EMU_NVTOOLSEXT_H
#define KIT_EMU_NVTOOLSEXT_H
static inline int nvtxRangePushA(const char *message) { (void)message; return 0; }
static inline int nvtxRangePop(void) { return 0; }
#endif

/* cuda_runtime.h of the kit's CPU emulator: the runtime API, and in C++ the
 * device side (kit_emu/device.h). The emulation build includes it first in every
 * .cu file, as nvcc does with NVIDIA's. */
#ifndef KIT_EMU_CUDA_RUNTIME_H
#define KIT_EMU_CUDA_RUNTIME_H
#include "cuda_runtime_api.h"
#ifdef __cplusplus
#include "kit_emu/device.h"
#endif
#endif

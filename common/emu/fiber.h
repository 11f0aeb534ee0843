/* fiber.h: the two primitives of fiber.cc. */
#ifndef KIT_EMU_FIBER_H
#define KIT_EMU_FIBER_H
/* Save the running context's stack pointer in *save and continue the one at load. */
extern "C" void kit_emu_switch(void **save, void *load);
/* A stack pointer that, switched to, calls fn(arg) on the stack ending at stack_top. */
void *kit_emu_fiber_prepare(void *stack_top, void (*fn)(void *), void *arg);
#endif

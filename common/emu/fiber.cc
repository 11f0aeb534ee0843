/* fiber.cc: switching between emulated threads. A switch saves the callee-saved
 * registers on the old stack and takes them from the new one: a few nanoseconds,
 * where swapcontext would make a system call. */
#include "fiber.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__x86_64__)
asm(R"(
    .text
    .globl kit_emu_switch
    .type kit_emu_switch, @function
kit_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size kit_emu_switch, .-kit_emu_switch
    .globl kit_emu_fiber_entry
    .type kit_emu_fiber_entry, @function
kit_emu_fiber_entry:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size kit_emu_fiber_entry, .-kit_emu_fiber_entry
)");
extern "C" void kit_emu_fiber_entry();

void *kit_emu_fiber_prepare(void *stack_top, void (*fn)(void *), void *arg)
{
    /* After the six pops and the ret, %rsp is 16-byte aligned, as a call wants. */
    uintptr_t top = (uintptr_t)stack_top & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)(top - 72);
    sp[0] = 0;                            /* r15 */
    sp[1] = 0;                            /* r14 */
    sp[2] = (uint64_t)fn;                 /* r13 */
    sp[3] = (uint64_t)arg;                /* r12 */
    sp[4] = 0;                            /* rbx */
    sp[5] = 0;                            /* rbp */
    sp[6] = (uint64_t)kit_emu_fiber_entry; /* ret */
    return sp;
}

#elif defined(__aarch64__)
asm(R"(
    .text
    .globl kit_emu_switch
    .type kit_emu_switch, %function
kit_emu_switch:
    sub sp, sp, #160
    stp x19, x20, [sp, #0]
    stp x21, x22, [sp, #16]
    stp x23, x24, [sp, #32]
    stp x25, x26, [sp, #48]
    stp x27, x28, [sp, #64]
    stp x29, x30, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    mov x2, sp
    str x2, [x0]
    mov sp, x1
    ldp x19, x20, [sp, #0]
    ldp x21, x22, [sp, #16]
    ldp x23, x24, [sp, #32]
    ldp x25, x26, [sp, #48]
    ldp x27, x28, [sp, #64]
    ldp x29, x30, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    add sp, sp, #160
    ret
    .size kit_emu_switch, .-kit_emu_switch
    .globl kit_emu_fiber_entry
    .type kit_emu_fiber_entry, %function
kit_emu_fiber_entry:
    mov x0, x19
    blr x20
    brk #0
    .size kit_emu_fiber_entry, .-kit_emu_fiber_entry
)");
extern "C" void kit_emu_fiber_entry();

void *kit_emu_fiber_prepare(void *stack_top, void (*fn)(void *), void *arg)
{
    uintptr_t top = (uintptr_t)stack_top & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)(top - 160);
    for (int i = 0; i < 20; i++)
        sp[i] = 0;
    sp[0] = (uint64_t)arg;                 /* x19 */
    sp[1] = (uint64_t)fn;                  /* x20 */
    sp[11] = (uint64_t)kit_emu_fiber_entry; /* x30 */
    return sp;
}

#else
#error "the kit emulator switches threads on x86-64 and aarch64 Linux only (common/emu/README.md)"
#endif

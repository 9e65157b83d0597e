/*
 * Cores that run ahead of their turn (the lockstep engine's run-ahead): the workers spin in loops of
 * register arithmetic and branches, and of FP operations, which they may run ahead of the others (the FP ones
 * while each core has its own FPU), or of hardware loops with a status CSR, while core 0 opens and closes a
 * region over the whole cluster and then ends the run. The region's counters and every core's counters at the
 * end must be those of per-cycle interleaving (the test compares with the reference loop).
 */
#include <stdint.h>

#include "cluster.h"
#include "hwloop.h"
#include "runtime.h"

/* Arithmetic and branches only: nothing reaches memory, the FPU or the event unit. */
static uint32_t mix(uint32_t x, unsigned rounds) {
    for (unsigned i = 0; i < rounds; i++) {
        __asm__ volatile("" : "+r"(x));
        x = (x << 3) ^ (x >> 5) ^ (x + i);
        if (x & 16) x += 7;
    }
    return x;
}

/* FP operations, which a core runs ahead while its FPU is its own (pulp-open) and which take their turns on
 * shared FPUs (vega). The fmadd after each fdiv does not use its result but waits for the div/sqrt unit. */
static float fp_mix(float x, float y, unsigned rounds) {
    const float one = 1.0f, two = 2.0f;
    float z = 0.25f, q;
    uint32_t k = 0;
    for (unsigned i = 0; i < rounds; i++) {
        __asm__ volatile("fmadd.s %0, %0, %1, %2" : "+f"(x) : "f"(y), "f"(one));
        if ((i & 3) == 0) __asm__ volatile("fdiv.s %0, %0, %1" : "+f"(x) : "f"(y));
        __asm__ volatile("fmadd.s %0, %1, %1, %0" : "+f"(z) : "f"(y));
        __asm__ volatile("fsgnjx.s %0, %0, %1" : "+f"(y) : "f"(x));
        /* An FP result to x0 holds every instruction that names x0 (lw and jal through operand c) until it
         * is back, at FPU latency 1 or more: the load takes a lockstep turn, whose inline operand check
         * leaves x0 to the full one, the jal runs ahead. */
        if ((i & 7) == 5) {
            uint32_t t;
            __asm__ volatile("fclass.s zero, %1\n lw %0, %2\n jal zero, 1f\n 1:" : "=r"(t) : "f"(x), "m"(k));
            k += t & 1;
        }
        /* 2/1 is ready 6 cycles on: its write through the ALU port meets the jal in EX, run ahead or not. */
        if ((i & 7) == 1)
            __asm__ volatile("fdiv.s %0, %2, %3\n nop\n nop\n nop\n addi %1, %1, 1\n jal zero, 1f\n 1:"
                             : "=f"(q), "+r"(k)
                             : "f"(two), "f"(one));
    }
    return x + y + z + (float)k;
}

/* A hardware loop with a status CSR (mstatus) two instructions before its end: each jump back after it is
 * a jump from ID, decided when the last instruction issues, which the core does in its turn. */
static uint32_t status_csr_loop(uint32_t x, uint32_t n) {
    uint32_t status;
    __asm__ volatile(HWLOOP_BEGIN(0, "%[n]", 1) "addi %[x], %[x], 3\n\t"
                                                "csrr %[s], mstatus\n\t"
                                                "xor %[x], %[x], %[s]\n\t"
                                                "slli %[x], %[x], 1\n\t" HWLOOP_END(1)
                     : [x] "+r"(x), [s] "=&r"(status)
                     : [n] "r"(n));
    return x;
}

static volatile uint32_t sink[16];

static void work(void* arg) {
    const unsigned id = core_id();
    if (id != 0) {
        /* Never returns: the run ends in core 0's turn, with the workers in the middle of their loops (the
         * odd ones in FP operations). */
        uint32_t x = id;
        float f = 0.5f + (float)id;
        for (;;) {
            if (id & 1)
                f = fp_mix(f, 0.75f, 1000 + 37 * id);
            else if (id & 2)
                x = status_csr_loop(mix(x, 100 + 37 * id), 200 + id);
            else
                x = mix(x, 1000 + 37 * id);
        }
    }
    sink[0] = mix(1, 500);
    region_begin("while_others_run", (uint32_t)(uintptr_t)arg);
    sink[1] = mix(2, 3000);
    region_end();
    sink[2] = mix(3, 777);
    pulpsim_ecall(PULPSIM_SYS_EXIT, 0, 0, 0);
}

int main(void) {
    team_fork(num_cores(), work, (void*)0);
    return 1;
}

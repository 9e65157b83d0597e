/*
 * Performance counters on cluster cores (counters_test.py): every core counts, with mhpmcounter3, the cycles
 * its shared FPU refused its operations (APU_CONT) over a chain of FP multiply-adds, the only FP operations
 * of the program, and prints the count. The report's fpu_contention stall of each core must equal it.
 * Before that, core 0 counts PIPE_STALL over DMA pushes into a full command queue, which stall the core on a
 * load the DMA does not answer yet (no event), and over a wait for the transfers, a cv.elw sleep (counted).
 * After it, core 0 counts APU_DEP, LD and both over an fsw waiting for an fdiv behind a lw, core 1 awake.
 */
#include <stdio.h>

#include "cluster.h"
#include "dma.h"
#include "runtime.h"

#define STEPS 64

static unsigned refused[32]; /* one per core, up to 32 */

static void multiply_add(void* unused) {
    (void)unused;
    unsigned before, after;
    __asm__ volatile("csrw mhpmevent3, %0" : : "r"(1u << 13));
    /* Every FP operation of the program, the moves included, between the two reads. */
    __asm__ volatile("csrr %[before], mhpmcounter3\n\t"
                     "fmv.w.x ft0, %[one]\n\tfmv.w.x ft1, %[half]\n\tfmv.w.x ft2, %[quarter]\n\t"
                     "fmv.w.x ft3, %[two]\n\tli t0, %[steps]\n"
                     "1:\tfmadd.s ft0, ft0, ft1, ft2\n\tfmadd.s ft1, ft1, ft2, ft3\n\t"
                     "fmadd.s ft2, ft2, ft3, ft0\n\taddi t0, t0, -1\n\tbnez t0, 1b\n\t"
                     "csrr %[after], mhpmcounter3"
                     : [before] "=&r"(before), [after] "=r"(after)
                     : [one] "r"(0x3f800000), [half] "r"(0x3f000000), [quarter] "r"(0x3e800000),
                       [two] "r"(0x40000000), [steps] "i"(STEPS)
                     : "t0", "ft0", "ft1", "ft2", "ft3");
    refused[core_id()] = after - before;
}

/* APU_DEP with LD: an fsw waits in ID for an fdiv's result behind a lw, from the lw's EX cycle on. Core 0
 * counts it with APU_DEP alone, LD alone and both: a counter selecting both counts that first cycle once.
 * Core 1 meanwhile counts down in its registers: two cores awake take lockstep turns, and no other FP
 * operation adds to the FPU contention the report gives. */
TCDM_BSS static uint32_t loaded;
TCDM_BSS static float stored;
static unsigned behind_load[3];

__attribute__((noinline)) static unsigned count_fsw_behind_load(unsigned events) {
    unsigned before, after;
    __asm__ volatile("csrw mhpmevent3, %[events]\n\t"
                     "fmv.w.x ft1, %[three]\n\tfmv.w.x ft2, %[seven]\n\t"
                     "csrr %[before], mhpmcounter3\n\t"
                     "fdiv.s ft0, ft1, ft2\n\tlw t1, 0(%[word])\n\tfsw ft0, 0(%[out])\n\t"
                     "csrr %[after], mhpmcounter3"
                     : [before] "=&r"(before), [after] "=r"(after)
                     : [events] "r"(events), [three] "r"(0x40400000), [seven] "r"(0x40e00000),
                       [word] "r"(&loaded), [out] "r"(&stored)
                     : "t1", "ft0", "ft1", "ft2", "memory");
    return after - before;
}

static void dependency_behind_load(void* unused) {
    (void)unused;
    if (core_id() != 0) {
        __asm__ volatile("li t0, 300\n1:\taddi t0, t0, -1\n\tbnez t0, 1b" : : : "t0");
        return;
    }
    const unsigned selections[3] = {1u << 14, 1u << 5, (1u << 14) | (1u << 5)};
    (void)count_fsw_behind_load(0); /* one copy of the code, in the instruction cache from here */
    for (unsigned i = 0; i < 3; i++)
        behind_load[i] = count_fsw_behind_load(selections[i]);
}

#define TRANSFERS 4 /* two more than the default queue depth */
#define TRANSFER_BYTES 2048

static char l2_source[TRANSFERS * TRANSFER_BYTES];

static unsigned read_pipe_stall(void) {
    unsigned v;
    __asm__ volatile("csrr %0, mhpmcounter3" : "=r"(v));
    return v;
}

static unsigned read_cycles(void) {
    unsigned v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

static void dma_phase(void) {
    char* l1 = l1_free_start();
    __asm__ volatile("csrw mhpmevent3, %0" : : "r"(1u << 11));
    const unsigned pipe0 = read_pipe_stall(), cycles0 = read_cycles();
    for (unsigned i = 0; i < TRANSFERS; i++)
        dma_copy_in(l1 + i * TRANSFER_BYTES, l2_source + i * TRANSFER_BYTES, TRANSFER_BYTES);
    const unsigned pipe1 = read_pipe_stall(), cycles1 = read_cycles();
    dma_wait_all();
    const unsigned pipe2 = read_pipe_stall(), cycles2 = read_cycles();
    printf("pushes: pipe_stall %u cycles %u\n", pipe1 - pipe0, cycles1 - cycles0);
    printf("wait: pipe_stall %u cycles %u\n", pipe2 - pipe1, cycles2 - cycles1);
}

int main(void) {
    dma_phase();
    team_fork(0, multiply_add, NULL);
    for (unsigned c = 0; c < num_cores(); c++)
        printf("core %u refused %u\n", c, refused[c]);
    team_fork(2, dependency_behind_load, NULL);
    printf("core 0 behind a load: apu_dep %u ld %u both %u\n", behind_load[0], behind_load[1],
           behind_load[2]);
    return 0;
}

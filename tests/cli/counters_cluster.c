/*
 * Performance counters on cluster cores (counters_test.py): every core counts, with mhpmcounter3, the cycles
 * its shared FPU refused its operations (APU_CONT) over a chain of FP multiply-adds, the only FP operations
 * of the program, and prints the count. The report's fpu_contention stall of each core must equal it.
 */
#include <stdio.h>

#include "cluster.h"
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

int main(void) {
    team_fork(0, multiply_add, NULL);
    for (unsigned c = 0; c < num_cores(); c++)
        printf("core %u refused %u\n", c, refused[c]);
    return 0;
}

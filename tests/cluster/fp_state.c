/*
 * mstatus.FS is each core's own, while the cores run the same FP code: after every core has made FS Dirty
 * running it, the odd cores set FS back to Initial and run it again (FS must become Dirty again), then set
 * FS to Off and run an FP instruction (it must trap as illegal), while the even cores keep computing.
 * Exits 0 when every check holds, otherwise the number of the first failing check.
 */
#include <stdint.h>

#include "cluster.h"
#include "runtime.h"

#define MAX_CORES 16
#define FS_MASK 0x6000u
#define FS_INITIAL 0x2000u

TCDM_BSS static volatile uint32_t fs_after_first[MAX_CORES];
TCDM_BSS static volatile uint32_t fs_after_reset[MAX_CORES];
TCDM_BSS static volatile uint32_t fs_after_second[MAX_CORES];
TCDM_BSS static volatile uint32_t off_trap_cause[MAX_CORES];
TCDM_BSS static volatile float results[MAX_CORES];

static uint32_t read_fs(void) {
    uint32_t mstatus;
    __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
    return (mstatus & FS_MASK) >> 13;
}

static void set_fs(uint32_t field) {
    __asm__ volatile("csrc mstatus, %0" ::"r"(FS_MASK));
    __asm__ volatile("csrs mstatus, %0" ::"r"(field));
}

/* Records mcause in mscratch and resumes after the trapping instruction (a 4-byte one). */
__attribute__((naked, aligned(256))) static void record_trap(void) {
    __asm__ volatile("addi sp, sp, -16\n"
                     "sw t0, 0(sp)\n"
                     "csrr t0, mepc\n"
                     "addi t0, t0, 4\n"
                     "csrw mepc, t0\n"
                     "csrr t0, mcause\n"
                     "csrw mscratch, t0\n"
                     "lw t0, 0(sp)\n"
                     "addi sp, sp, 16\n"
                     "mret\n");
}

__attribute__((noinline)) static float scale(float x, int rounds) {
    for (int i = 0; i < rounds; i++)
        x = x * 1.5f + 0.25f;
    return x;
}

/* Every FP instruction the odd cores run with FS back at Initial is here, and was run before by cores whose
 * FS was Dirty: the gate must come from the core's FS, not from who decoded the instruction first. */
__attribute__((noinline)) static void accumulate(volatile float* sum, int x, int rounds) {
    *sum += scale((float)x, rounds);
}

static void work(void* unused) {
    (void)unused;
    const unsigned id = core_id();
    const int odd = id & 1;
    accumulate(&results[id], (int)id, 40);
    accumulate(&results[id], (int)id, 40);
    fs_after_first[id] = read_fs();
    barrier();
    if (odd) {
        set_fs(FS_INITIAL);
        fs_after_reset[id] = read_fs();
    }
    accumulate(&results[id], 1, 40 + (int)id);
    fs_after_second[id] = read_fs();
    barrier();
    if (odd) {
        __asm__ volatile("csrw mscratch, zero");
        __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)record_trap));
        set_fs(0);
        __asm__ volatile(".option push\n.option norvc\nfadd.s ft0, ft1, ft2\n.option pop" ::: "memory");
        __asm__ volatile("csrr %0, mscratch" : "=r"(off_trap_cause[id]));
        set_fs(FS_INITIAL);
    } else {
        accumulate(&results[id], 2, 60);
    }
}

int main(void) {
    const unsigned n = num_cores();
    if (n < 2 || n > MAX_CORES) return 1;
    team_fork(0, work, 0);
    for (unsigned i = 0; i < n; i++) {
        const int odd = i & 1;
        if (fs_after_first[i] != 3) return 2;
        if (odd && fs_after_reset[i] != 1) return 3;
        if (fs_after_second[i] != 3) return 4;
        if (odd && off_trap_cause[i] != 2) return 5;
        if (!odd && off_trap_cause[i] != 0) return 6;
    }
    /* Every core's sum is what core 0 computes the same way. */
    for (unsigned i = 0; i < n; i++) {
        float expected = 0.0f;
        expected += scale((float)i, 40);
        expected += scale((float)i, 40);
        expected += scale(1.0f, 40 + (int)i);
        if (!(i & 1)) expected += scale(2.0f, 60);
        if (results[i] != expected) return 7;
    }
    return 0;
}

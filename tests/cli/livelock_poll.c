/*
 * Cores that poll memory (livelock_test.py). POLL_MODE selects what happens:
 *   1 every core polls a flag in the TCDM that nothing sets: a livelock;
 *   2 core 0 polls it after a fork whose workers went back to sleep: a livelock;
 *   3 cores 1..7 poll it while core 0 counts in a register for about a million cycles, then sets it: the
 *     program ends normally;
 *   4 every core polls it and counts its polls in a register: no livelock, it runs to --max-cycles;
 *   5 every core polls it until mcycle passes a deadline: it reads time, so it ends normally;
 *   6 every core points mtvec at an illegal instruction and jumps there: each trap goes to the same one, and
 *     none retires an instruction: a livelock.
 */
#include "cluster.h"
#include "runtime.h"

TCDM_BSS static volatile uint32_t flag;
TCDM_BSS static volatile uint32_t polls[16];

#if POLL_MODE == 5
static inline uint32_t cycles_now(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}
#endif

#if POLL_MODE == 6
// CV32E40P's mtvec holds a 256-byte-aligned base.
__asm__(".text\n.balign 256\ntrap_to_itself:\n.word 0\n");
#endif

#if POLL_MODE == 2
static void nothing(void* unused) {
    (void)unused;
}
#endif

static void poll(void* unused) {
    (void)unused;
#if POLL_MODE == 3
    if (core_id() == 0) {
        uint32_t n = 400000;
        __asm__ volatile("1: addi %0, %0, -1\n bnez %0, 1b" : "+r"(n));
        flag = 1;
        return;
    }
#endif
#if POLL_MODE == 6
    __asm__ volatile("la t0, trap_to_itself\n csrw mtvec, t0\n j trap_to_itself" ::: "t0", "memory");
    (void)flag; // never reached
#elif POLL_MODE == 4
    uint32_t n = 0;
    while (flag == 0)
        ++n;
    polls[core_id()] = n;
#elif POLL_MODE == 5
    while (flag == 0 && cycles_now() < 3000000u) {
    }
#else
    while (flag == 0) {
    }
#endif
}

int main(void) {
#if POLL_MODE == 2
    team_fork(0, nothing, NULL);
    poll(NULL);
#else
    team_fork(0, poll, NULL);
#endif
    return (int)polls[0] & 0;
}

/* The cluster runtime on the event unit (see cluster.h). */
#include "cluster.h"

#include "runtime.h"

static inline uint32_t eu_read(uint32_t off) {
    return *(volatile uint32_t*)(EU_BASE + off);
}
static inline void eu_write(uint32_t off, uint32_t v) {
    *(volatile uint32_t*)(EU_BASE + off) = v;
}
/* cv.elw: a load that puts the core to sleep until the event unit answers. */
static inline uint32_t eu_wait(uint32_t off) {
    uint32_t v;
    __asm__ volatile("cv.elw %0, 0(%1)" : "=r"(v) : "r"(EU_BASE + off) : "memory");
    return v;
}

unsigned num_cores(void) {
    return eu_read(EU_NUM_CORES);
}

void barrier(void) {
    (void)eu_wait(EU_BARRIER_WAIT);
}

void critical_enter(void) {
    (void)eu_wait(EU_MUTEX_LOCK);
}

void critical_exit(void) {
    eu_write(EU_MUTEX_UNLOCK, 0);
}

void team_fork(unsigned n, void (*fn)(void*), void* arg) {
    const unsigned cores = num_cores();
    if (n == 0 || n > cores) n = cores;
    eu_write(EU_TEAM_MASK, n >= 32 ? ~0u : (1u << n) - 1);
    eu_write(EU_DISPATCH_ARG, (uint32_t)arg);
    eu_write(EU_DISPATCH_FN, (uint32_t)fn);
    fn(arg);
    barrier();
}

/* Cores other than 0 live here: take a dispatch, run it, meet the team at the barrier. */
void __attribute__((noreturn)) __cluster_worker_loop(void) {
    for (;;) {
        void (*fn)(void*) = (void (*)(void*))eu_wait(EU_DISPATCH_WAIT);
        void* arg = (void*)eu_read(EU_DISPATCH_GET_ARG);
        fn(arg);
        barrier();
    }
}

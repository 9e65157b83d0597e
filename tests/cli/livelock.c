/*
 * After a parallel region, core 0 jumps to itself while the workers sleep in the runtime: nothing can ever
 * change again, and the run stops as a livelock at once instead of at --max-cycles (livelock_test.py).
 */
#include "cluster.h"
#include "runtime.h"

static void nothing(void* unused) {
    (void)unused;
}

int main(void) {
    team_fork(0, nothing, NULL);
    __asm__ volatile("1: j 1b");
    return 0;
}

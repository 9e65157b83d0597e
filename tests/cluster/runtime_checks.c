/*
 * The cluster runtime on the event unit: fork/join, barriers and critical sections, on any core count.
 * Exits 0 when every check holds, otherwise the number of the first failing check.
 */
#include <stdint.h>
#include <stdio.h>

#include "cluster.h"
#include "runtime.h"

#define MAX_CORES 16
#ifndef EXPECTED_CLUSTER_ID
#define EXPECTED_CLUSTER_ID 0
#endif

TCDM_BSS static volatile uint32_t sum;
TCDM_BSS static volatile uint32_t ran[MAX_CORES];
TCDM_BSS static volatile uint32_t phase[MAX_CORES];
TCDM_BSS static volatile uint32_t seen[MAX_CORES];

/* Every core adds id + 1 inside the critical section: the total only comes out right if the updates
 * do not interleave. */
static void add_under_mutex(void* arg) {
    const uint32_t id = core_id();
    for (int rep = 0; rep < (int)(uintptr_t)arg; rep++) {
        critical_enter();
        const uint32_t v = sum;
        for (volatile int spin = 0; spin < 3; spin++) {
        }
        sum = v + id + 1;
        critical_exit();
    }
    ran[id]++;
}

/* Phase values written before a barrier are visible to every core after it. */
static void barrier_phases(void* unused) {
    (void)unused;
    const unsigned id = core_id(), n = num_cores();
    for (uint32_t p = 1; p <= 5; p++) {
        phase[id] = p;
        barrier();
        const uint32_t other = phase[(id + 1) % n];
        if (other != p) seen[id] = 0xdead;
        barrier();
    }
}

int main(void) {
    const unsigned n = num_cores();
    if (n == 0 || n > MAX_CORES) return 1;
    if (cluster_id() != EXPECTED_CLUSTER_ID) return 6;

    sum = 0;
    team_fork(0, add_under_mutex, (void*)10);
    if (sum != 10u * n * (n + 1) / 2) return 2;
    for (unsigned i = 0; i < n; i++)
        if (ran[i] != 1) return 3;

    team_fork(0, barrier_phases, NULL);
    for (unsigned i = 0; i < n; i++)
        if (seen[i] != 0) return 4;

    /* A team smaller than the cluster: only its members run. */
    const unsigned small = n > 1 ? n - 1 : 1;
    team_fork(small, add_under_mutex, (void*)1);
    for (unsigned i = 0; i < n; i++)
        if (ran[i] != (i < small ? 2u : 1u)) return 5;

    printf("cluster runtime checks on %u cores: OK\n", n);
    return 0;
}

/*
 * The cluster runtime: team fork/join, barriers and critical sections on the event unit, and placement of
 * data in the TCDM. Link with RUNTIME cluster (crt0_cluster.S, link_cluster.ld).
 *
 *   TCDM_DATA float a[64];             // initialised data in L1
 *   TCDM_BSS  float c[64];             // zeroed data in L1
 *   team_fork(num_cores(), fn, arg);   // every core runs fn(arg); returns when all have finished
 */
#ifndef PULPSIM_CLUSTER_H
#define PULPSIM_CLUSTER_H

#include <stdint.h>

#define TCDM_DATA __attribute__((section(".tcdm")))
#define TCDM_BSS __attribute__((section(".tcdm_bss")))

/* Event unit registers (cluster peripherals at 0x1020_0000; see sim/cluster/event_unit.hpp). */
#define EU_BASE 0x10200000u
#define EU_NUM_CORES 0x004u
#define EU_TCDM_SIZE 0x008u /* bytes of TCDM the platform has (tcdm.size) */
#define EU_TCDM_BASE 0x10000000u
#define EU_TEAM_MASK 0x100u
#define EU_DISPATCH_ARG 0x104u
#define EU_DISPATCH_FN 0x108u
#define EU_DISPATCH_WAIT 0x10Cu
#define EU_DISPATCH_GET_ARG 0x110u
#define EU_BARRIER_WAIT 0x200u
#define EU_MUTEX_LOCK 0x300u
#define EU_MUTEX_UNLOCK 0x304u

/* Worker cores in the cluster (the platform's cluster.cores). */
unsigned num_cores(void);
/* Runs fn(arg) on cores 0 .. n-1 (n = 0 or too large: every core) and returns when all have finished. */
void team_fork(unsigned n, void (*fn)(void*), void* arg);
/* Waits until every core of the current team has arrived. */
void barrier(void);
/* One core at a time between critical_enter() and critical_exit(). */
void critical_enter(void);
void critical_exit(void);

/* The range [first, last) of `total` items that core `id` of `cores` takes: contiguous, sizes differ by at
 * most one, earlier cores take the larger share. */
static inline void split_range(unsigned total, unsigned id, unsigned cores, unsigned* first, unsigned* last) {
    const unsigned base = total / cores, extra = total % cores;
    *first = id * base + (id < extra ? id : extra);
    *last = *first + base + (id < extra ? 1u : 0u);
}

#endif

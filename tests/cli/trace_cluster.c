/*
 * A short cluster program for the trace test (trace_test.py): every core sums a strided slice of a TCDM
 * array inside the perf region "sums", then core 0 checks the total.
 */
#include <stdio.h>

#include "cluster.h"
#include "runtime.h"

#define ELEMENTS 256

TCDM_BSS static int values[ELEMENTS];
TCDM_BSS static int partial[32]; /* one per core, up to 32 */

static void sum_slice(void* unused) {
    (void)unused;
    const unsigned id = core_id(), cores = num_cores();
    int sum = 0;
    for (unsigned i = id; i < ELEMENTS; i += cores)
        sum += values[i];
    partial[id] = sum;
}

int main(void) {
    for (int i = 0; i < ELEMENTS; i++)
        values[i] = i;
    region_begin("sums", ELEMENTS);
    team_fork(0, sum_slice, NULL);
    region_end();
    int total = 0;
    for (unsigned c = 0; c < num_cores(); c++)
        total += partial[c];
    const int expected = ELEMENTS * (ELEMENTS - 1) / 2;
    printf("trace_cluster on %u cores: %s\n", num_cores(), total == expected ? "OK" : "FAIL");
    return total == expected ? 0 : 1;
}

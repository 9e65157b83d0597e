/* y = a * x + y over the cluster's cores, in one perf region: the smallest cluster kernel of a project of its
 * own (README.md next to it). Its result is checked against the same loop on core 0. */
#include <math.h>
#include <stdio.h>

#include "cluster.h"
#include "runtime.h"

#define N 1024

TCDM_BSS static float x[N];
TCDM_BSS static float y[N];
static float expected[N];
static const float a = 0.75f;

static void axpy(void* arg) {
    (void)arg;
    unsigned first, last;
    split_range(N, core_id(), num_cores(), &first, &last);
    for (unsigned i = first; i < last; i++)
        y[i] = fmaf(a, x[i], y[i]);
}

int main(void) {
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17) / 4.0f;
        y[i] = (float)(i % 5);
        expected[i] = fmaf(a, x[i], y[i]);
    }
    region_begin("axpy", N);
    team_fork(0, axpy, 0);
    region_end();
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += y[i] != expected[i]; // fmaf rounds once on every core: bit-exact
    printf("own_axpy %d on %u cores: %s\n", N, num_cores(), wrong ? "FAIL" : "OK");
    return wrong != 0;
}

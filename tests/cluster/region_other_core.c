/* Core 0 opens a region and core 3 closes it. A region counts the cluster from one core's region_begin to
 * that core's region_end, and the regions of all cores form one stack: pulpsim must stop with an error
 * naming the region and the core that opened it, not pair the wrong ends. */
#include "cluster.h"
#include "runtime.h"

static void close_from_core_3(void* arg) {
    (void)arg;
    if (core_id() == 3) region_end();
}

int main(void) {
    region_begin("cluster_step", 0);
    team_fork(num_cores(), close_from_core_3, 0);
    region_end();
    return 0;
}

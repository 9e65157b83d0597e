/* Core 0 takes the event unit's mutex twice: it sleeps waiting for itself while every other core waits
 * for work. pulpsim must end the run with a deadlock error instead of hanging. */
#include "cluster.h"

int main(void) {
    critical_enter();
    critical_enter();
    return 0;
}

/* One access to a cluster device at an offset where it has no register of that direction, chosen at build
 * time; pulpsim must end the run with a one-line error naming the address, the pc, the device and the
 * offset. */
#include "cluster.h"
#include "dma.h"
#include "runtime.h"

__attribute__((unused)) static uint32_t load(uint32_t addr) {
    return *(volatile uint32_t*)addr;
}
__attribute__((unused)) static void store(uint32_t addr, uint32_t v) {
    *(volatile uint32_t*)addr = v;
}

int main(void) {
#if defined(EU_READ_TEAM_MASK)
    return (int)load(EU_BASE + 0x100u); /* TEAM_MASK is write-only */
#elif defined(EU_WRITE_GAP)
    store(EU_BASE + 0x400u, 1); /* between MUTEX_UNLOCK and the window's end */
#elif defined(DMA_READ_PAST_LAST)
    return (int)load(DMA_BASE + 0x30u); /* after WAIT_ALL */
#elif defined(DMA_WRITE_PUSH)
    store(DMA_BASE + DMA_PUSH_IN, 1); /* PUSH_IN is read to queue a transfer */
#endif
    return 0;
}

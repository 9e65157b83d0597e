/* One bad DMA request, chosen at build time; pulpsim must end the run with a one-line error naming the
 * core, the pc and the offending value. */
#include "cluster.h"
#include "dma.h"
#include "runtime.h"

TCDM_BSS static uint32_t l1_words[16] __attribute__((unused));
static uint32_t l2_words[16] __attribute__((unused));

static void reg(uint32_t off, uint32_t v) {
    *(volatile uint32_t*)(DMA_BASE + off) = v;
}

int main(void) {
#if defined(BAD_L2)
    dma_wait(dma_copy_in(l1_words, (void*)0x1C7FFF00u, 512)); /* runs past the end of L2 */
#elif defined(BAD_L1)
    dma_wait(dma_copy_out(l2_words, (void*)0x10100000u, 64)); /* above any TCDM size */
#elif defined(ZERO_ROWS)
    dma_wait(dma_copy_in_2d(l1_words, l2_words, 8, 0, 16, 16));
#elif defined(NEGATIVE_ROWS)
    dma_wait(dma_copy_in_2d(l1_words, l2_words, 8, (uint32_t)-3, 16, 16));
#elif defined(ZERO_LENGTH)
    dma_wait(dma_copy_in(l1_words, l2_words, 0));
#elif defined(NEGATIVE_STRIDE)
    dma_wait(dma_copy_in_2d(l1_words, l2_words, 8, 2, (uint32_t)-16, 16));
#elif defined(GUARD_ZONE)
    static uint32_t tensor_and_gap[16 + 4];
    guard_zone(&tensor_and_gap[16], 16, "after the tensor");
    dma_wait(dma_copy_in(l1_words, tensor_and_gap, 17 * 4)); /* one word too many */
#elif defined(UNKNOWN_ID)
    reg(DMA_WAIT_ID, 77);
    dma_wait(77);
#endif
    (void)reg;
    return 0;
}

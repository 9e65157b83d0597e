/* The cluster DMA from a core (see dma.h). */
#include "dma.h"

#include "cluster.h"
#include "runtime.h"

static inline void dma_write(uint32_t off, uint32_t v) {
    *(volatile uint32_t*)(DMA_BASE + off) = v;
}
static inline uint32_t dma_read(uint32_t off) {
    return *(volatile uint32_t*)(DMA_BASE + off);
}
static inline uint32_t dma_sleep(uint32_t off) {
    uint32_t v;
    __asm__ volatile("cv.elw %0, 0(%1)" : "=r"(v) : "r"(DMA_BASE + off) : "memory");
    return v;
}

static dma_id_t push(uint32_t command, uint32_t l1, uint32_t l2, uint32_t row_bytes, uint32_t rows,
                     uint32_t l2_stride, uint32_t l1_stride) {
    dma_write(DMA_L1_ADDR, l1);
    dma_write(DMA_L2_ADDR, l2);
    dma_write(DMA_LENGTH, row_bytes);
    if (rows != 1) {
        dma_write(DMA_ROWS, rows);
        dma_write(DMA_L2_STRIDE, l2_stride);
        dma_write(DMA_L1_STRIDE, l1_stride);
    }
    /* The copies above must reach the DMA before the push; volatile accesses keep their order. */
    return dma_read(command);
}

dma_id_t dma_copy_in(void* l1, const void* l2, uint32_t bytes) {
    return push(DMA_PUSH_IN, (uint32_t)l1, (uint32_t)l2, bytes, 1, 0, 0);
}

dma_id_t dma_copy_out(void* l2, const void* l1, uint32_t bytes) {
    return push(DMA_PUSH_OUT, (uint32_t)l1, (uint32_t)l2, bytes, 1, 0, 0);
}

dma_id_t dma_copy_in_2d(void* l1, const void* l2, uint32_t row_bytes, uint32_t rows, uint32_t l2_stride,
                        uint32_t l1_stride) {
    return push(DMA_PUSH_IN, (uint32_t)l1, (uint32_t)l2, row_bytes, rows, l2_stride, l1_stride);
}

dma_id_t dma_copy_out_2d(void* l2, const void* l1, uint32_t row_bytes, uint32_t rows, uint32_t l2_stride,
                         uint32_t l1_stride) {
    return push(DMA_PUSH_OUT, (uint32_t)l1, (uint32_t)l2, row_bytes, rows, l2_stride, l1_stride);
}

void dma_wait(dma_id_t id) {
    if (id == DMA_NONE) return;
    dma_write(DMA_WAIT_ID, id);
    (void)dma_sleep(DMA_WAIT);
}

int dma_done(dma_id_t id) {
    if (id == DMA_NONE) return 1;
    dma_write(DMA_WAIT_ID, id);
    return (int)dma_read(DMA_STATUS);
}

void dma_wait_all(void) {
    (void)dma_sleep(DMA_WAIT_ALL);
}

extern char __cluster_stacks_end[];

void* l1_free_start(void) {
    return (void*)(((uint32_t)__cluster_stacks_end + 15u) & ~15u);
}

uint32_t l1_free_bytes(void) {
    const uint32_t end = EU_TCDM_BASE + *(volatile uint32_t*)(EU_BASE + EU_TCDM_SIZE);
    const uint32_t start = (uint32_t)l1_free_start();
    return end > start ? end - start : 0;
}

void dma_double_buffer(const dma_pipeline_t* p) {
    const int master = core_id() == 0;
    dma_id_t loaded[2] = {DMA_NONE, DMA_NONE};
    dma_id_t stored[2] = {DMA_NONE, DMA_NONE};
    if (master && p->tiles > 0) loaded[0] = p->load(p->ctx, 0, 0);
    for (unsigned t = 0; t < p->tiles; ++t) {
        const unsigned b = t & 1u;
        if (master) dma_wait(loaded[b]);
        barrier();
        if (master) {
            /* Buffer b ^ 1 held tile t - 1, computed before the last barrier: once that tile's copy out
             * is over it may be refilled. Waiting here lets the other cores compute meanwhile. */
            dma_wait(stored[b ^ 1u]);
            stored[b ^ 1u] = DMA_NONE;
            if (t + 1 < p->tiles) loaded[b ^ 1u] = p->load(p->ctx, t + 1, b ^ 1u);
        }
        p->compute(p->ctx, t, b);
        barrier();
        if (master && p->store) stored[b] = p->store(p->ctx, t, b);
    }
    if (master) dma_wait_all();
}

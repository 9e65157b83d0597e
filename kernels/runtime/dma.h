/*
 * The cluster DMA from a core (sim/dma/dma_unit.hpp has the registers). Transfers run asynchronously
 * between L2 and the TCDM; each returns an id to wait on. Transfers of one direction complete in the order
 * they were issued, so waiting for the last copy-in of a tile waits for all of that tile's copies in.
 *
 * Each core has a queue of dma.queue_depth outstanding transfers (2 by default): issuing into a full queue
 * stalls the core until its oldest transfer completes, as the hardware does.
 *
 *   dma_id_t id = dma_copy_in(l1_buf, l2_tensor, bytes);
 *   ...compute on the other buffer...
 *   dma_wait(id);                      // the core sleeps until the copy has landed
 */
#ifndef PULPSIM_DMA_H
#define PULPSIM_DMA_H

#include <stdint.h>

typedef uint32_t dma_id_t;
#define DMA_NONE 0xFFFFFFFFu /* an id dma_wait() returns at once for */

/* Registers of the DMA unit, one set per core (cluster peripherals + 0x1800). */
#define DMA_BASE 0x10201800u
#define DMA_L1_ADDR 0x00u
#define DMA_L2_ADDR 0x04u
#define DMA_LENGTH 0x08u    /* bytes per row */
#define DMA_ROWS 0x0Cu      /* rows of a 2-D transfer; back to 1 after every push */
#define DMA_L2_STRIDE 0x10u /* bytes between row starts in L2; 0 = contiguous; back to 0 after every push */
#define DMA_L1_STRIDE 0x14u /* same in the TCDM */
#define DMA_PUSH_IN 0x18u   /* read: queue an L2 -> L1 transfer, returns its id */
#define DMA_PUSH_OUT 0x1Cu  /* read: queue an L1 -> L2 transfer, returns its id */
#define DMA_WAIT_ID 0x20u   /* write: the transfer WAIT and STATUS refer to */
#define DMA_WAIT 0x24u      /* cv.elw: sleep until that transfer has completed */
#define DMA_STATUS 0x28u    /* read: 1 when that transfer has completed, else 0 */
#define DMA_WAIT_ALL 0x2Cu  /* cv.elw: sleep until every transfer of this core has completed */

/* 1-D copies of `bytes` bytes. */
dma_id_t dma_copy_in(void* l1, const void* l2, uint32_t bytes);
dma_id_t dma_copy_out(void* l2, const void* l1, uint32_t bytes);
/* 2-D copies: `rows` rows of `row_bytes` bytes; row r starts at base + r * stride on each side
 * (a stride of 0 packs the rows). */
dma_id_t dma_copy_in_2d(void* l1, const void* l2, uint32_t row_bytes, uint32_t rows, uint32_t l2_stride,
                        uint32_t l1_stride);
dma_id_t dma_copy_out_2d(void* l2, const void* l1, uint32_t row_bytes, uint32_t rows, uint32_t l2_stride,
                         uint32_t l1_stride);
/* Sleeps until transfer `id` has completed (DMA_NONE: returns at once). */
void dma_wait(dma_id_t id);
/* Whether transfer `id` has completed, without waiting. */
int dma_done(dma_id_t id);
/* Sleeps until every transfer this core issued has completed. */
void dma_wait_all(void);

/* The TCDM the program does not use (after its .tcdm data and the stacks): for tile buffers. */
void* l1_free_start(void);
uint32_t l1_free_bytes(void);

/*
 * Double buffering: tile k+1 is copied in while the team computes tile k. Every core of a team calls
 * dma_double_buffer() (e.g. from the function given to team_fork); core 0 drives the DMA.
 *   load(ctx, tile, buffer):    core 0 issues the copies in of `tile` into buffer 0 or 1; returns the id
 *                               of the last one (DMA_NONE if none)
 *   compute(ctx, tile, buffer): every core computes its share of `tile`
 *   store(ctx, tile, buffer):   core 0 issues the copies out of `tile`'s results; returns the id of the
 *                               last one (DMA_NONE if none); may be null
 * Core 0 issues the copies in of tile k+1 once the team has started computing tile k, into the buffer
 * that tile k-1 used, after tile k-1's copies out have completed: a store may read the buffer it is
 * given, and loads never overwrite data still being copied out.
 */
typedef struct {
    unsigned tiles;
    dma_id_t (*load)(void* ctx, unsigned tile, unsigned buffer);
    void (*compute)(void* ctx, unsigned tile, unsigned buffer);
    dma_id_t (*store)(void* ctx, unsigned tile, unsigned buffer);
    void* ctx;
} dma_pipeline_t;
void dma_double_buffer(const dma_pipeline_t* pipeline);

#endif

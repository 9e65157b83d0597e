/* The cluster DMA seen from a program: data of 1-D and 2-D transfers byte for byte against copies the core
 * makes itself, wait / status semantics, a full command queue, and timing lines for dma_test.py:
 *   "time in <bytes> <cycles>"    push + wait of one L2->L1 transfer
 *   "time both <bytes> <cycles>"  an L2->L1 and an L1->L2 transfer of <bytes> each, then wait for both
 * With MODE_HAMMER, cores 1.. load from every TCDM bank in a tight loop while core 0 times transfers. */
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "dma.h"
#include "runtime.h"

#define L2_BYTES 8192
static uint8_t l2_src[L2_BYTES] __attribute__((aligned(8)));
static uint8_t l2_dst[L2_BYTES] __attribute__((aligned(8)));
static uint8_t l2_ref[L2_BYTES] __attribute__((aligned(8)));
TCDM_BSS static uint8_t l1_buf[L2_BYTES] __attribute__((aligned(8)));
TCDM_BSS static uint8_t l1_ref[L2_BYTES] __attribute__((aligned(8)));

static int failures;

static void check(int ok, const char* what, unsigned detail) {
    if (!ok) {
        printf("FAIL %s (%u)\n", what, detail);
        ++failures;
    }
}

static void fill(uint8_t* p, unsigned n, unsigned seed) {
    for (unsigned i = 0; i < n; ++i)
        p[i] = (uint8_t)(i * 37u + seed * 101u + (i >> 8));
}

static void one_dimensional(void) {
    static const unsigned sizes[] = {1, 3, 4, 13, 64, 1000, 4096};
    static const unsigned offsets[] = {0, 1, 2, 3};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        for (unsigned o = 0; o < 4; ++o) {
            const unsigned n = sizes[s], off = offsets[o];
            fill(l2_src, L2_BYTES, s * 4 + o);
            memset(l1_buf, 0xAA, L2_BYTES);
            dma_wait(dma_copy_in(l1_buf + off, l2_src + 2 * off, n));
            check(memcmp(l1_buf + off, l2_src + 2 * off, n) == 0, "1-D in data", n);
            check(off == 0 || l1_buf[off - 1] == 0xAA, "1-D in wrote before its range", n);
            check(l1_buf[off + n] == 0xAA, "1-D in wrote past its range", n);
            memset(l2_dst, 0x55, L2_BYTES);
            dma_wait(dma_copy_out(l2_dst + off, l1_buf + off, n));
            check(memcmp(l2_dst + off, l2_src + 2 * off, n) == 0, "1-D out data", n);
            check(l2_dst[off + n] == 0x55, "1-D out wrote past its range", n);
        }
    }
}

/* The host copy of a 2-D transfer: rows of `row` bytes from src + r * src_stride to dst + r * dst_stride. */
static void copy_2d(uint8_t* dst, const uint8_t* src, unsigned row, unsigned rows, unsigned dst_stride,
                    unsigned src_stride) {
    for (unsigned r = 0; r < rows; ++r)
        memcpy(dst + r * (dst_stride ? dst_stride : row), src + r * (src_stride ? src_stride : row), row);
}

static void two_dimensional(void) {
    /* row bytes, rows, L2 stride, L1 stride: a tile of a matrix, a column of words (a transpose's
     * gather), odd rows, and strides on both sides. */
    static const unsigned cases[][4] = {
        {64, 16, 256, 0}, {4, 32, 128, 0}, {13, 7, 40, 16}, {24, 10, 0, 32}, {100, 30, 260, 104}};
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const unsigned row = cases[c][0], rows = cases[c][1], l2s = cases[c][2], l1s = cases[c][3];
        fill(l2_src, L2_BYTES, 50 + c);
        memset(l1_buf, 0xAA, L2_BYTES);
        memset(l1_ref, 0xAA, L2_BYTES);
        dma_wait(dma_copy_in_2d(l1_buf, l2_src + c, row, rows, l2s, l1s));
        copy_2d(l1_ref, l2_src + c, row, rows, l1s, l2s);
        check(memcmp(l1_buf, l1_ref, L2_BYTES) == 0, "2-D in data", c);

        memset(l2_dst, 0x55, L2_BYTES);
        memset(l2_ref, 0x55, L2_BYTES);
        dma_wait(dma_copy_out_2d(l2_dst + c, l1_buf, row, rows, l2s, l1s));
        copy_2d(l2_ref + c, l1_buf, row, rows, l2s, l1s);
        check(memcmp(l2_dst, l2_ref, L2_BYTES) == 0, "2-D out data", c);
    }
}

static void wait_and_status(void) {
    fill(l2_src, L2_BYTES, 9);
    const dma_id_t a = dma_copy_in(l1_buf, l2_src, 4096);
    check(!dma_done(a), "a 4 KiB transfer is not done right after its push", a);
    /* A full queue (depth 2 by default) stalls the third push until the first transfer completes. */
    const dma_id_t b = dma_copy_in(l1_buf + 4096, l2_src + 4096, 2048);
    const dma_id_t c = dma_copy_out(l2_dst, l1_ref, 64);
    check(dma_done(a), "the third push waited for the first transfer", a);
    check(a != b && b != c && a != c, "ids are distinct", c);
    dma_wait_all();
    check(dma_done(b) && dma_done(c), "dma_wait_all waits for every transfer of the core", b);
    check(memcmp(l1_buf, l2_src, 6144) == 0, "queued transfers' data", 6144);
}

static void timing(void) {
    static const unsigned sizes[] = {64, 1000, 4096};
    /* The first pass only warms up the instruction cache and the branch history of the loop. */
    for (unsigned pass = 0; pass < 2; ++pass) {
        for (unsigned s = 0; s < 3; ++s) {
            const unsigned n = sizes[s];
            uint32_t t0 = read_mcycle();
            dma_wait(dma_copy_in(l1_buf, l2_src, n));
            uint32_t t1 = read_mcycle();
            if (pass) printf("time in %u %u\n", n, (unsigned)(t1 - t0));
            t0 = read_mcycle();
            dma_copy_in(l1_buf, l2_src, n);
            dma_copy_out(l2_dst, l1_ref, n);
            dma_wait_all();
            t1 = read_mcycle();
            if (pass) printf("time both %u %u\n", n, (unsigned)(t1 - t0));
        }
    }
}

#ifdef MODE_HAMMER
static volatile int stop_hammer;
TCDM_BSS static volatile uint32_t hammered[64];

static void hammer(void* arg) {
    (void)arg;
    if (core_id() == 0) {
        timing();
        stop_hammer = 1;
        return;
    }
    uint32_t sum = 0;
    while (!stop_hammer)
        for (unsigned i = 0; i < 64; i += 4)
            sum += hammered[i] + hammered[i + 1] + hammered[i + 2] + hammered[i + 3];
    hammered[core_id()] = sum;
}
#endif

int main(void) {
    one_dimensional();
    two_dimensional();
    wait_and_status();
#ifdef MODE_HAMMER
    team_fork(num_cores(), hammer, 0);
#else
    timing();
#endif
    printf("dma checks: %s\n", failures ? "FAILED" : "OK");
    return failures ? 1 : 0;
}

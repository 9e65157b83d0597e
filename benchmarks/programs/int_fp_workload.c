/*
 * The bare-mode speed workload: a naive FP32 matmul (48 x 48 x 48) and a CRC-32 over its result and a
 * 16 KiB buffer, 40 times, about 60 M instructions of integer and FP work. It prints a checksum, the same
 * on pulpsim and on qemu-riscv32, which runs the same ELF to give a reference speed without timing.
 */
#include <stdint.h>
#include <stdio.h>

#define N 48
#define REPS 40

static float a[N * N], b[N * N], c[N * N];
static uint8_t buffer[16384];

static uint32_t crc32(const uint8_t* p, unsigned n, uint32_t crc) {
    crc = ~crc;
    for (unsigned i = 0; i < n; ++i) {
        crc ^= p[i];
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void matmul(void) {
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            float acc = 0.0f;
            for (int k = 0; k < N; ++k)
                acc += a[i * N + k] * b[k * N + j];
            c[i * N + j] = acc;
        }
}

int main(void) {
    uint32_t state = 12345u;
    for (int i = 0; i < N * N; ++i) {
        state = state * 1664525u + 1013904223u;
        a[i] = (float)(state >> 9) * 0x1p-23f - 1.0f;
        state = state * 1664525u + 1013904223u;
        b[i] = (float)(state >> 9) * 0x1p-23f - 1.0f;
    }
    for (unsigned i = 0; i < sizeof buffer; ++i)
        buffer[i] = (uint8_t)(i * 7u + (i >> 8));
    uint32_t crc = 0;
    for (int rep = 0; rep < REPS; ++rep) {
        matmul();
        a[rep] += 1.0f; /* every repetition multiplies other numbers */
        crc = crc32((const uint8_t*)c, sizeof c, crc);
        crc = crc32(buffer, sizeof buffer, crc);
    }
    printf("int_fp_workload checksum %08lx\n", (unsigned long)crc);
    return 0;
}

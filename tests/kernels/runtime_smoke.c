/*
 * Self-checking test of the kernel runtime: crt0 (.bss, constructors, TLS), picolibc glue (stdout,
 * errno, malloc, float printf) and the host calls. Prints "runtime smoke: OK" and returns 0.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static int failures;

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            printf("  check failed: %s (line %d)\n", #cond, __LINE__);                                       \
            failures++;                                                                                      \
        }                                                                                                    \
    } while (0)

static int ctor_value;
__attribute__((constructor)) static void set_ctor_value(void) {
    ctor_value = 42;
}

static uint32_t zeroed[1024];
static _Thread_local int tls_value = 7;
static _Thread_local int tls_zero;

int main(void) {
    CHECK(ctor_value == 42);

    uint32_t acc = 0;
    for (int i = 0; i < 1024; i++)
        acc |= zeroed[i];
    CHECK(acc == 0);

    CHECK(tls_value == 7 && tls_zero == 0);
    tls_value++;
    CHECK(tls_value == 8);

    errno = 0;
    long v = strtol("99999999999999999", NULL, 10);
    CHECK(v == 2147483647L && errno == ERANGE);

    char* p = malloc(10000);
    CHECK(p != NULL);
    if (p) {
        memset(p, 0x5a, 10000);
        CHECK(p[9999] == 0x5a);
        free(p);
    }

    char buf[64];
    snprintf(buf, sizeof buf, "%d %u %x %s %c", -12, 34u, 0xbeefu, "str", 'z');
    CHECK(strcmp(buf, "-12 34 beef str z") == 0);
    snprintf(buf, sizeof buf, "%.3f %g", 3.14159, (double)sqrtf(2.0f));
    CHECK(strcmp(buf, "3.142 1.41421") == 0);

    /* Host calls that qemu-user does not know return an error there; they must not disturb. */
    region_begin("smoke", 1);
    region_end();
    CHECK(host_write(1, "", 0) == 0);

    fputs("stdout via ", stdout);
    fputs("stderr\n", stderr);
    printf("runtime smoke: %s\n", failures ? "FAIL" : "OK");
    return failures ? 1 : 0;
}

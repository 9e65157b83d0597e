/*
 * How a kernel refuses its arguments instead of returning a silent wrong result: core 0 prints
 * "error: <who>: <msg>" and ends the program with exit status 1; the other cores wait at barriers, so they
 * do not touch the tensors while core 0 exits. Every core of a team sees the same arguments, so every core
 * calls it.
 */
#ifndef PULPSIM_KERNEL_ERROR_H
#define PULPSIM_KERNEL_ERROR_H

#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"
#include "runtime.h"

_Noreturn static inline void kernel_error(const char* who, const char* msg) {
    if (core_id() == 0) {
        printf("error: %s: %s\n", who, msg);
        exit(1);
    }
    for (;;)
        barrier();
}

/* A zero size makes no sense for any kernel: an empty loop would return uninitialised outputs. */
static inline void kernel_require_nonzero(const char* who, unsigned a, unsigned b, unsigned c) {
    if (a == 0 || b == 0 || c == 0) kernel_error(who, "zero dimension");
}

#endif

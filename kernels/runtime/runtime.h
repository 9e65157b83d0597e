/*
 * pulpsim kernel runtime: host calls, performance regions, counters and hart identity.
 *
 * Host calls are `ecall`s with the number in a7 and arguments in a0..a2; 64 (write) and 93 (exit)
 * are the Linux numbers, so a program that only uses those also runs under qemu-riscv32 user mode,
 * where the pulpsim-specific calls (0x7000..0x7003) just return -ENOSYS.
 *
 * stdout/stderr are picolibc tinystdio streams that buffer a line and send it with write(1, ...);
 * exit() and a return from main() flush them.
 */
#ifndef PULPSIM_RUNTIME_H
#define PULPSIM_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Host call numbers (a7). */
#define PULPSIM_SYS_WRITE 64            /* a0 = fd, a1 = buf, a2 = len; returns bytes written */
#define PULPSIM_SYS_EXIT 93             /* a0 = exit code; does not return */
#define PULPSIM_SYS_REGION_BEGIN 0x7000 /* a0 = NUL-terminated name, a1 = MACs in the region */
#define PULPSIM_SYS_REGION_END 0x7001   /* closes the innermost open region */
#define PULPSIM_SYS_GUARD_SET 0x7002    /* a0 = address, a1 = bytes, a2 = NUL-terminated name */
#define PULPSIM_SYS_GUARD_CLEAR 0x7003  /* a0 = address, a1 = bytes; returns the zones removed */

static inline long pulpsim_ecall(long nr, long arg0, long arg1, long arg2) {
    register long a0 __asm__("a0") = arg0;
    register long a1 __asm__("a1") = arg1;
    register long a2 __asm__("a2") = arg2;
    register long a7 __asm__("a7") = nr;
    /* "memory": the host reads buffers the program has just written. */
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

/*
 * Marks the start of a performance region. The simulator reports cycles, instructions and stalls
 * per region and divides `macs` (multiply-accumulates the kernel performs inside the region) by the
 * cycles to give MAC/cycle. Regions may nest; `name` must stay valid until region_end().
 */
static inline void region_begin(const char* name, uint32_t macs) {
    pulpsim_ecall(PULPSIM_SYS_REGION_BEGIN, (long)name, (long)macs, 0);
}

static inline void region_end(void) {
    pulpsim_ecall(PULPSIM_SYS_REGION_END, 0, 0, 0);
}

/*
 * Guard zones: any load or store touching [addr, addr + bytes) stops the run with an error that names the
 * zone ("load of 4 bytes at 0x... is in the guard zone after B ..."). Leave a gap after (and before) each
 * tensor and guard it to catch a kernel that reads or writes outside its tensors; the simulator copies the
 * name. A DMA transfer whose rows touch a zone is refused when pushed.
 */
static inline void guard_zone(const void* addr, uint32_t bytes, const char* name) {
    pulpsim_ecall(PULPSIM_SYS_GUARD_SET, (long)addr, (long)bytes, (long)name);
}

/* Removes the guard zones that [addr, addr + bytes) overlaps. */
static inline void guard_zone_clear(const void* addr, uint32_t bytes) {
    pulpsim_ecall(PULPSIM_SYS_GUARD_CLEAR, (long)addr, (long)bytes, 0);
}

/* Raw write to a host file descriptor (1 = stdout, 2 = stderr), bypassing stdio buffering. */
static inline long host_write(int fd, const void* buf, size_t len) {
    return pulpsim_ecall(PULPSIM_SYS_WRITE, fd, (long)buf, (long)len);
}

/*
 * Machine-mode CSRs. QEMU user mode raises SIGILL on these, so keep them out of code that must also
 * run there. Reading a counter costs 4 cycles on CV32E40P.
 */
static inline uint32_t read_mcycle(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

static inline uint32_t read_minstret(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, minstret" : "=r"(v));
    return v;
}

/* PULP hart ids are cluster_id << 5 | core_id. */
static inline uint32_t read_mhartid(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, mhartid" : "=r"(v));
    return v;
}

static inline uint32_t core_id(void) {
    return read_mhartid() & 0x1f;
}
static inline uint32_t cluster_id(void) {
    return (read_mhartid() >> 5) & 0x3f;
}

/* Flushes stdout; exit() and a return from main() do it too. */
void runtime_flush(void);

#ifdef __cplusplus
}
#endif

#endif /* PULPSIM_RUNTIME_H */

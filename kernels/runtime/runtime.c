/*
 * System glue between picolibc (tinystdio) and the host calls of runtime.h: write(), _exit(),
 * exit() and the stdin/stdout/stderr streams.
 */
#include "runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

ssize_t write(int fd, const void* buf, size_t len) {
    return pulpsim_ecall(PULPSIM_SYS_WRITE, fd, (long)buf, (long)len);
}

void _exit(int code) {
    for (;;) /* exit never returns; loop in case a host ignores it */
        pulpsim_ecall(PULPSIM_SYS_EXIT, code, 0, 0);
}

/* One line per host call: a write ecall is cheap for the simulator but one per character would
 * clutter instruction traces. */
#define STDOUT_BUF_SIZE 128
static char stdout_buf[STDOUT_BUF_SIZE];
static size_t stdout_len;

static int stdout_flush(FILE* f) {
    (void)f;
    size_t done = 0;
    while (done < stdout_len) {
        ssize_t n = write(1, stdout_buf + done, stdout_len - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    stdout_len = 0;
    return 0;
}

static int stdout_put(char c, FILE* f) {
    stdout_buf[stdout_len++] = c;
    if (c == '\n' || stdout_len == STDOUT_BUF_SIZE) stdout_flush(f);
    return (unsigned char)c;
}

static int stdin_get(FILE* f) {
    (void)f;
    return EOF; /* no input from the host */
}

static FILE stdout_file = FDEV_SETUP_STREAM(stdout_put, NULL, stdout_flush, _FDEV_SETUP_WRITE);
static FILE stdin_file = FDEV_SETUP_STREAM(NULL, stdin_get, NULL, _FDEV_SETUP_READ);

FILE* const stdin = &stdin_file;
FILE* const stdout = &stdout_file;
/* stderr shares the stdout buffer so the two keep their relative order. */
FILE* const stderr = &stdout_file;

void runtime_flush(void) {
    stdout_flush(stdout);
}

/* Replaces picolibc's exit(): no atexit handlers, but stdout must reach the host before the end. */
void exit(int code) {
    runtime_flush();
    _exit(code);
}

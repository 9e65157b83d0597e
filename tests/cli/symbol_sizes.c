/*
 * Variables of 1, 2 and 4 bytes side by side, for `pulpsim run --symbol`: each written value must land in its
 * own variable only. The program prints them and whether their neighbours kept their values.
 */
#include <stdint.h>
#include <stdio.h>

#include "runtime.h"

/* One section, in this order, so that each variable is followed by a neighbour. */
__attribute__((section(".data.symbol_sizes"))) volatile uint8_t byte_var = 1;
__attribute__((section(".data.symbol_sizes"))) volatile uint8_t byte_next = 42;
__attribute__((section(".data.symbol_sizes"))) volatile uint16_t half_var = 3;
__attribute__((section(".data.symbol_sizes"))) volatile uint16_t half_next = 4242;
__attribute__((section(".data.symbol_sizes"))) volatile uint32_t word_var = 5;
__attribute__((section(".data.symbol_sizes"))) volatile uint32_t word_next = 424242;

int main(void) {
    const int changed = (byte_next != 42) + (half_next != 4242) + (word_next != 424242);
    printf("byte_var %u half_var %u word_var %u, neighbours %s\n", (unsigned)byte_var, (unsigned)half_var,
           (unsigned)word_var, changed ? "overwritten" : "kept");
    return changed;
}

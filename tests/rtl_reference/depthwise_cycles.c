/* The 21 depthwise 3x3 variants (kernels/lib/depthwise_fp32.c): forward, weight and input gradients on 5 x 7
 * x 6. */
#include "cycles.h"
#include "depthwise_fp32.h"

#define C 5
#define H 7
#define W 6
static float x[C * H * W], weight[C * 9], y[C * H * W], dy[C * H * W], dw[C * 9], dx[C * H * W];

int main(void) {
    for (unsigned i = 0; i < C * H * W; ++i) {
        x[i] = (float)(i % 7) * 0.25f - 0.5f;
        dy[i] = (float)(i % 3) * 0.5f - 0.25f;
    }
    for (unsigned i = 0; i < C * 9; ++i)
        weight[i] = (float)(i % 5) * 0.5f + 0.125f;
    const dw3x3_args_t args = {
        .c = C, .h = H, .w = W, .x = x, .weight = weight, .y = y, .dy = dy, .dw = dw, .dx = dx};
    for (unsigned v = 0; v < DW3X3_VARIANTS; ++v)
        MEASURE(v, dw3x3_variants[v].fn(&args),
                hash_floats(y, C * H * W) ^ hash_floats(dw, C * 9) ^ hash_floats(dx, C * H * W));
    return 0;
}

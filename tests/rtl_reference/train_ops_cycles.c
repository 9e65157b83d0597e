/* The element-wise training steps (kernels/lib/train_ops_fp32.c) on 37 elements: activations, their
 * gradients, the losses (picolibc's expf and logf) and the SGD update. */
#include "cycles.h"
#include "train_ops_fp32.h"

#define N 37
static float x[N], y[N], dy[N], dx[N], target[N], grad[N], w[N], loss;

static uint32_t written(void) {
    return hash_floats(y, N) ^ hash_floats(dx, N) ^ hash_floats(grad, N) ^ hash_floats(w, N) ^
           hash_floats(&loss, 1);
}

int main(void) {
    for (unsigned i = 0; i < N; ++i) {
        x[i] = (float)(i % 11) * 0.37f - 1.9f;
        dy[i] = (float)(i % 3) * 0.5f - 0.25f;
        target[i] = (float)(i % 4) * 0.3f;
        w[i] = 0.1f * (float)i;
    }
    const act_args_t act = {.n = N, .x = x, .y = y, .dy = dy, .dx = dx, .alpha = 0.01f};
    const loss_args_t l = {.n = N, .x = x, .target = target, .label = 5, .y = y, .grad = grad, .loss = &loss};
    const sgd_args_t sgd = {.n = N, .w = w, .dw = dy, .lr = 0.05f};
    MEASURE(0, relu_fw(&act), written());
    MEASURE(1, relu_bw(&act), written());
    MEASURE(2, leaky_relu_fw(&act), written());
    MEASURE(3, leaky_relu_bw(&act), written());
    MEASURE(4, sigmoid_fw(&act), written());
    MEASURE(5, sigmoid_bw(&act), written());
    MEASURE(6, softmax_fw(&act), written());
    MEASURE(7, softmax_bw(&act), written());
    MEASURE(8, mse_loss(&l), written());
    MEASURE(9, ce_softmax_loss(&l), written());
    MEASURE(10, sgd_update(&sgd), written());
    return 0;
}

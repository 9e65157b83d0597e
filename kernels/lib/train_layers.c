/* PointWise and Linear training steps as tiled matmuls (see train_layers.h). */
#include "train_layers.h"

tiled_plan_t pointwise_fw(const pointwise_t* l, unsigned cores) {
    const tiled_matmul_t mm = {.m = l->cout, .n = l->hw, .k = l->cin, .a = l->w, .b = l->in, .c = l->out};
    return tiled_matmul(&mm, cores);
}

tiled_plan_t pointwise_wg(const pointwise_t* l, unsigned cores) {
    /* in is [cin][hw] = [N][K]: B transposed */
    const tiled_matmul_t mm = {
        .m = l->cout, .n = l->cin, .k = l->hw, .a = l->d_out, .b = l->in, .b_trans = 1, .c = l->d_w};
    return tiled_matmul(&mm, cores);
}

tiled_plan_t pointwise_ig(const pointwise_t* l, unsigned cores) {
    /* w is [cout][cin] = [K][M]: A transposed */
    const tiled_matmul_t mm = {
        .m = l->cin, .n = l->hw, .k = l->cout, .a = l->w, .a_trans = 1, .b = l->d_out, .c = l->d_in};
    return tiled_matmul(&mm, cores);
}

tiled_plan_t linear_fw(const linear_t* l, unsigned cores) {
    const tiled_matmul_t mm = {
        .m = l->out_features, .n = 1, .k = l->in_features, .a = l->w, .b = l->in, .c = l->out};
    return tiled_matmul(&mm, cores);
}

tiled_plan_t linear_wg(const linear_t* l, unsigned cores) {
    /* d_out as [O][1], in as [1][I] */
    const tiled_matmul_t mm = {
        .m = l->out_features, .n = l->in_features, .k = 1, .a = l->d_out, .b = l->in, .c = l->d_w};
    return tiled_matmul(&mm, cores);
}

tiled_plan_t linear_ig(const linear_t* l, unsigned cores) {
    /* w is [O][I] = [K][M]: A transposed; d_out as [O][1] */
    const tiled_matmul_t mm = {.m = l->in_features,
                               .n = 1,
                               .k = l->out_features,
                               .a = l->w,
                               .a_trans = 1,
                               .b = l->d_out,
                               .c = l->d_in};
    return tiled_matmul(&mm, cores);
}

/* FP32 tanh variants (see activations_fp32.h). */
#include "activations_fp32.h"

#include <math.h>

#include "cluster.h"
#include "runtime.h"

void tanh_libm_vec(float* v, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
        v[i] = tanhf(v[i]);
}

void tanh_fast_vec(float* v, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
        v[i] = tanh_fast(v[i]);
}

void tanh_fast_parallel(const tanh_args_t* args) {
    unsigned first, last;
    split_range(args->n, core_id(), num_cores(), &first, &last);
    tanh_fast_vec(args->v + first, last - first);
}

void tanh_fast_parallel_fn(void* arg) {
    tanh_fast_parallel((const tanh_args_t*)arg);
}

/*
 * FP32 vanilla RNN over a sequence (the RNN primitives of the RNN-on-PULP thesis), data in the TCDM:
 *
 *   forward   h[t+1] = tanh(Wx x[t] + Wh h[t] + b),              t = 0 .. T-1, h[0] given
 *   backward  g[t]   = (1 - h[t+1]^2) * dh[t+1],                 t = T-1 .. 0, dh[T] = dL/dh[T] given
 *             dh[t]  = Wh^T g[t]
 *             dWx = sum_t g[t] x[t]^T,  dWh = sum_t g[t] h[t]^T,  db = sum_t g[t],  dx[t] = Wx^T g[t]
 *
 * Shapes (row-major): x[T][X], Wx[H][X], Wh[H][H], b[H], h[T+1][H], g[T][H], dx[T][X], dWx[H][X], dWh[H][H].
 * Both run on every core of a team (inside team_fork) and split their outputs with split_range over
 * num_cores(). The recurrence is sequential in t, so only the H outputs of one step are shared out, with a
 * barrier per step; what does not depend on the recurrence is done as whole-sequence matmuls (matmul_l1):
 *
 *   forward:  h[1..T] = b + X Wx^T first (split over t), then per step h[t+1] (rows of Wh split), tanh on
 *             each core's own rows (the activation is applied in parallel), one barrier
 *   backward: per step g[t] (rows split), one barrier, dh[t] = Wh^T g[t] (columns split: a vector-matrix
 *             product, as the thesis' mm_M); then dWx = G^T X, dWh = G^T H, db, dX = G Wx with no barrier
 *
 * A core reads back, in the next step, only the elements of dh it wrote itself (rows and columns of H use
 * the same split), so the backward step needs one barrier, not two.
 *
 * Exactness: every output is one accumulator taking its terms in a fixed order with one fmadd.s each:
 * h[t+1][i] = b[i], then ascending k of Wx(i,k) x[t][k], then ascending k of Wh(i,k) h[t][k]; dh[t][j] and
 * dx[t][j] ascending i; dWx, dWh, db ascending t. Results are bit-identical to plain loops in that order
 * compiled with clang's default contraction, on any core count.
 *
 * MACs (thesis, section 2.4.1): forward T H (X + H + 1); backward T H (4 + 2X + 3H + 1). The backward here
 * performs T H (2X + 2H + 2) multiply-adds (g, db, dWx, dx, dWh, dh).
 * A zero dimension prints "error: rnn_fw / rnn_bw: zero dimension" and exits 1 (kernel_error.h).
 */
#ifndef PULPSIM_RNN_FP32_H
#define PULPSIM_RNN_FP32_H

enum { RNN_TANH_LIBM = 0, RNN_TANH_FAST = 1 };

typedef struct {
    unsigned t, x_size, h_size; /* T, X, H */
    const float* x;             /* [T][X] */
    const float* wx;            /* [H][X] */
    const float* wh;            /* [H][H] */
    const float* b;             /* [H] */
    float* h;                   /* [T+1][H]: h[0] in, h[1..T] out of the forward, in to the backward */
    unsigned act;               /* RNN_TANH_LIBM or RNN_TANH_FAST (forward) */
    /* backward only */
    float* dh;  /* [H]: dL/dh[T] in, dL/dh[0] out */
    float* g;   /* [T][H]: workspace, dL/d(pre-activation) per step */
    float* dx;  /* [T][X] */
    float* dwx; /* [H][X] */
    float* dwh; /* [H][H] */
    float* db;  /* [H] */
} rnn_args_t;

#define RNN_FW_MACS(T, X, H) ((T) * (H) * ((X) + (H) + 1))
#define RNN_BW_MACS(T, X, H) ((T) * (H) * (4 + 2 * (X) + 3 * (H) + 1))

/* On every core of the team; returns after the last step's barrier (all of h written). */
void rnn_fw(const rnn_args_t* args);
/* On every core of the team; the gradients are overwritten, not accumulated. No final barrier. */
void rnn_bw(const rnn_args_t* args);
/* team_fork entry points: arg is an rnn_args_t*. */
void rnn_fw_fn(void* arg);
void rnn_bw_fn(void* arg);

#endif

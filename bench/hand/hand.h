/* hand.h -- the benchmark kernels written by hand, the way an engineer
 * writes them without hawk: plain loops over structure-of-arrays planes
 * (component c of sample i at p[c * n + i]), the same formulas in the same
 * order of operations as the HIR in examples/, so with contraction off
 * the results are the same bytes. */
#ifndef HAWK_BENCH_HAND_H
#define HAWK_BENCH_HAND_H

#include <stddef.h>

/* examples/drag.hir: out = -rho * state * |state|. */
void drag_hand(size_t n, const double *state, double rho, double *out);

/* examples/gravity.hir: a = -mu * r / |r|^3. */
void gravity_hand(size_t n, const double *r, double mu, double *a);

/* examples/spring_damper.hir: one semi-implicit Euler step. */
void spring_damper_hand(size_t n, double *x, double *v, double m, double k,
                        double c, double dt);

/* examples/haversine.hir: great-circle distance of two (lat, lon). */
void haversine_hand(size_t n, const double *p1, const double *p2, double R,
                    double *d);

/* examples/kalman_predict.hir: x = F x, P = F P F^T + Q. */
void kalman_predict_hand(size_t n, double *x, double *P, const double *F,
                         const double Q[4]);

#endif

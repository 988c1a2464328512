/* spring_damper.c -- a damped spring step by hand
 * (examples/spring_damper.hir). */
#include "hand.h"

void spring_damper_hand(size_t n, double *x, double *v, double m, double k,
                        double c, double dt)
{
    for (size_t i = 0; i < n; i++) {
        double f = -(k * x[i]) - c * v[i];
        double acc = f / m;
        double v1 = v[i] + dt * acc;
        v[i] = v1;
        x[i] = x[i] + dt * v1;
    }
}

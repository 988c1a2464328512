/* gravity.c -- point-mass gravity by hand (examples/gravity.hir). */
#include <math.h>

#include "hand.h"

void gravity_hand(size_t n, const double *r, double mu, double *a)
{
    const double *rx = r, *ry = r + n, *rz = r + 2 * n;
    double *ax = a, *ay = a + n, *az = a + 2 * n;
    for (size_t i = 0; i < n; i++) {
        double d = sqrt(rx[i] * rx[i] + ry[i] * ry[i] + rz[i] * rz[i]);
        double k = -mu / (d * d * d);
        ax[i] = k * rx[i];
        ay[i] = k * ry[i];
        az[i] = k * rz[i];
    }
}

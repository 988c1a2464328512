/* drag.c -- quadratic drag by hand (examples/drag.hir). */
#include <math.h>

#include "hand.h"

void drag_hand(size_t n, const double *state, double rho, double *out)
{
    const double *sx = state, *sy = state + n, *sz = state + 2 * n;
    double *ox = out, *oy = out + n, *oz = out + 2 * n;
    double k = -rho;
    for (size_t i = 0; i < n; i++) {
        double speed = sqrt(sx[i] * sx[i] + sy[i] * sy[i] + sz[i] * sz[i]);
        ox[i] = k * sx[i] * speed;
        oy[i] = k * sy[i] * speed;
        oz[i] = k * sz[i] * speed;
    }
}

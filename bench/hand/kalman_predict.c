/* kalman_predict.c -- the predict step of a 2-state Kalman filter by hand
 * (examples/kalman_predict.hir). */
#include "hand.h"

void kalman_predict_hand(size_t n, double *x, double *P, const double *F,
                         const double Q[4])
{
    double *x0 = x, *x1 = x + n;
    double *p00 = P, *p01 = P + n, *p10 = P + 2 * n, *p11 = P + 3 * n;
    const double *f00 = F, *f01 = F + n, *f10 = F + 2 * n, *f11 = F + 3 * n;
    for (size_t i = 0; i < n; i++) {
        double a = f00[i], b = f01[i], c = f10[i], e = f11[i];
        double y0 = a * x0[i] + b * x1[i];
        double y1 = c * x0[i] + e * x1[i];
        /* FP = F P */
        double m00 = a * p00[i] + b * p10[i], m01 = a * p01[i] + b * p11[i];
        double m10 = c * p00[i] + e * p10[i], m11 = c * p01[i] + e * p11[i];
        /* P = FP F^T + Q */
        p00[i] = (m00 * a + m01 * b) + Q[0];
        p01[i] = (m00 * c + m01 * e) + Q[1];
        p10[i] = (m10 * a + m11 * b) + Q[2];
        p11[i] = (m10 * c + m11 * e) + Q[3];
        x0[i] = y0;
        x1[i] = y1;
    }
}

/* fd_examples.c -- drag_jvp, gravity_jvp and quat_rotate_jvp against
 * central finite differences of their primals (h = 1e-6) over 1000
 * random points and directions; exits 1 when a relative error passes
 * 1e-7 (the differences' own error is about 1e-9 here). */
#include <math.h>
#include <stdio.h>
#include "drag.h"
#include "drag_jvp.h"
#include "gravity.h"
#include "gravity_jvp.h"
#include "quat_rotate.h"
#include "quat_rotate_jvp.h"
static double rnd(unsigned *s) { *s = *s * 1103515245u + 12345u; return ((*s >> 8) & 0xffff) / 32768.0 - 1.0; }
static double rel(const double *a, const double *b, int n) {
    double m = 0, d = 0;
    for (int k = 0; k < n; k++) { m = fmax(m, fabs(b[k])); d = fmax(d, fabs(a[k] - b[k])); }
    return d / (m > 0 ? m : 1);
}
int main(void) {
    unsigned s = 1; double worst[3] = {0};
    const double h = 1e-6;
    for (int t = 0; t < 1000; t++) {
        double x[4], v[4], y[3], dx[4], dy[3], o[3], od[3], op[3], om[3], fd[3], xp[4], xm[4], yp[3], ym[3];
        for (int k = 0; k < 4; k++) { x[k] = rnd(&s) * 3; dx[k] = rnd(&s); }
        for (int k = 0; k < 3; k++) { y[k] = rnd(&s) * 3; dy[k] = rnd(&s); }
        double rho = rnd(&s) + 2, drho = rnd(&s);
        for (int k = 0; k < 4; k++) { xp[k] = x[k] + h * dx[k]; xm[k] = x[k] - h * dx[k]; }
        for (int k = 0; k < 3; k++) { yp[k] = y[k] + h * dy[k]; ym[k] = y[k] - h * dy[k]; }
        /* drag: state x[0..3), rho */
        drag_jvp_args_t j = {o, od, x, dx, rho, drho};
        drag_jvp_c(&j, 0, 1, 1);
        drag_args_t p = {op, xp, rho + h * drho}; drag_c(&p, 0, 1, 1);
        drag_args_t m = {om, xm, rho - h * drho}; drag_c(&m, 0, 1, 1);
        for (int k = 0; k < 3; k++) fd[k] = (op[k] - om[k]) / (2 * h);
        worst[0] = fmax(worst[0], rel(od, fd, 3));
        gravity_jvp_args_t gj = {o, od, x, dx, rho, drho}; gravity_jvp_c(&gj, 0, 1, 1);
        gravity_args_t gp = {op, xp, rho + h * drho}; gravity_c(&gp, 0, 1, 1);
        gravity_args_t gm = {om, xm, rho - h * drho}; gravity_c(&gm, 0, 1, 1);
        for (int k = 0; k < 3; k++) fd[k] = (op[k] - om[k]) / (2 * h);
        worst[1] = fmax(worst[1], rel(od, fd, 3));
        quat_rotate_jvp_args_t qj = {o, od, x, y, dx, dy}; quat_rotate_jvp_c(&qj, 0, 1, 1);
        quat_rotate_args_t qp = {op, xp, yp}; quat_rotate_c(&qp, 0, 1, 1);
        quat_rotate_args_t qm = {om, xm, ym}; quat_rotate_c(&qm, 0, 1, 1);
        for (int k = 0; k < 3; k++) fd[k] = (op[k] - om[k]) / (2 * h);
        worst[2] = fmax(worst[2], rel(od, fd, 3));
    }
    printf("drag %s gravity %s quat_rotate %s\n", worst[0] < 1e-7 ? "ok" : "FAIL",
           worst[1] < 1e-7 ? "ok" : "FAIL", worst[2] < 1e-7 ? "ok" : "FAIL");
    return worst[0] < 1e-7 && worst[1] < 1e-7 && worst[2] < 1e-7 ? 0 : 1;
}

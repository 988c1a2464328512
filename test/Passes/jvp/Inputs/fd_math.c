/* fd_math.c -- every math op's tangent rule (every_math_jvp, the jvp of
 * test/Emit/cwriter/Inputs/every_math.hir) against central differences of
 * the primal, h = 1e-7, over 2000 points: component 0 of x in [0.1, 0.9],
 * component 1 in [1.3, 2.1] (acosh and the logs beyond 1; asin, acos and
 * atanh are NaN there and skipped), y in [0.1, 0.9], random directions.
 * Prints one line per op, "ok" when the largest relative error is below
 * 1e-4 (the differences' own error is about 1e-5 at most here). */
#include <math.h>
#include <stdio.h>
#include "every_math.h"
#include "every_math_jvp.h"

static double rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (double)((*s >> 8) & 0xffffu) / 65536.0;
}

int main(void)
{
    unsigned s = 7;
    const double h = 1e-7;
    double worst[21] = {0};
    static const char *const names[21] = {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "expm1", "log", "log10", "log1p", "log2", "sin", "sinh", "tan", "tanh", "atan2", "hypot", "pow"};
    for (int t = 0; t < 2000; t++) {
        double x[2], y[2], dx[2], dy[2], xp[2], xm[2], yp[2], ym[2];
        for (int k = 0; k < 2; k++) {
            x[k] = 0.1 + 0.8 * rnd(&s) + (k == 1 ? 1.2 : 0.0);
            y[k] = 0.1 + 0.8 * rnd(&s);
            dx[k] = rnd(&s) - 0.5;
            dy[k] = rnd(&s) - 0.5;
            xp[k] = x[k] + h * dx[k];
            xm[k] = x[k] - h * dx[k];
            yp[k] = y[k] + h * dy[k];
            ym[k] = y[k] - h * dy[k];
        }
        double o[21][2], od[21][2], op[21][2], om[21][2];
        every_math_jvp_args_t j;
        every_math_args_t p, m;
        j.vin_x = x; j.vin_y = y; j.vin_x_dot = dx; j.vin_y_dot = dy;
        p.vin_x = xp; p.vin_y = yp; m.vin_x = xm; m.vin_y = ym;
        j.mut_o_acos = o[0]; j.mut_o_acos_dot = od[0]; p.mut_o_acos = op[0]; m.mut_o_acos = om[0];
        j.mut_o_acosh = o[1]; j.mut_o_acosh_dot = od[1]; p.mut_o_acosh = op[1]; m.mut_o_acosh = om[1];
        j.mut_o_asin = o[2]; j.mut_o_asin_dot = od[2]; p.mut_o_asin = op[2]; m.mut_o_asin = om[2];
        j.mut_o_asinh = o[3]; j.mut_o_asinh_dot = od[3]; p.mut_o_asinh = op[3]; m.mut_o_asinh = om[3];
        j.mut_o_atan = o[4]; j.mut_o_atan_dot = od[4]; p.mut_o_atan = op[4]; m.mut_o_atan = om[4];
        j.mut_o_atanh = o[5]; j.mut_o_atanh_dot = od[5]; p.mut_o_atanh = op[5]; m.mut_o_atanh = om[5];
        j.mut_o_cos = o[6]; j.mut_o_cos_dot = od[6]; p.mut_o_cos = op[6]; m.mut_o_cos = om[6];
        j.mut_o_cosh = o[7]; j.mut_o_cosh_dot = od[7]; p.mut_o_cosh = op[7]; m.mut_o_cosh = om[7];
        j.mut_o_exp = o[8]; j.mut_o_exp_dot = od[8]; p.mut_o_exp = op[8]; m.mut_o_exp = om[8];
        j.mut_o_expm1 = o[9]; j.mut_o_expm1_dot = od[9]; p.mut_o_expm1 = op[9]; m.mut_o_expm1 = om[9];
        j.mut_o_log = o[10]; j.mut_o_log_dot = od[10]; p.mut_o_log = op[10]; m.mut_o_log = om[10];
        j.mut_o_log10 = o[11]; j.mut_o_log10_dot = od[11]; p.mut_o_log10 = op[11]; m.mut_o_log10 = om[11];
        j.mut_o_log1p = o[12]; j.mut_o_log1p_dot = od[12]; p.mut_o_log1p = op[12]; m.mut_o_log1p = om[12];
        j.mut_o_log2 = o[13]; j.mut_o_log2_dot = od[13]; p.mut_o_log2 = op[13]; m.mut_o_log2 = om[13];
        j.mut_o_sin = o[14]; j.mut_o_sin_dot = od[14]; p.mut_o_sin = op[14]; m.mut_o_sin = om[14];
        j.mut_o_sinh = o[15]; j.mut_o_sinh_dot = od[15]; p.mut_o_sinh = op[15]; m.mut_o_sinh = om[15];
        j.mut_o_tan = o[16]; j.mut_o_tan_dot = od[16]; p.mut_o_tan = op[16]; m.mut_o_tan = om[16];
        j.mut_o_tanh = o[17]; j.mut_o_tanh_dot = od[17]; p.mut_o_tanh = op[17]; m.mut_o_tanh = om[17];
        j.mut_o_atan2 = o[18]; j.mut_o_atan2_dot = od[18]; p.mut_o_atan2 = op[18]; m.mut_o_atan2 = om[18];
        j.mut_o_hypot = o[19]; j.mut_o_hypot_dot = od[19]; p.mut_o_hypot = op[19]; m.mut_o_hypot = om[19];
        j.mut_o_pow = o[20]; j.mut_o_pow_dot = od[20]; p.mut_o_pow = op[20]; m.mut_o_pow = om[20];
        if (every_math_jvp_c(&j, 0, 1, 1) != HAWK_OK || every_math_c(&p, 0, 1, 1) != HAWK_OK ||
            every_math_c(&m, 0, 1, 1) != HAWK_OK)
            return 2;
        for (int f = 0; f < 21; f++)
            for (int k = 0; k < 2; k++) {
                double fd = (op[f][k] - om[f][k]) / (2.0 * h);
                if (!isfinite(fd) || !isfinite(o[f][k]))
                    continue;
                double e = fabs(fd - od[f][k]) / fmax(fabs(fd), 1e-3);
                if (!(e <= worst[f]))
                    worst[f] = e;
            }
    }
    int fails = 0;
    for (int f = 0; f < 21; f++) {
        int ok = worst[f] < 1e-4;
        fails += !ok;
        printf("%s %s\n", names[f], ok ? "ok" : "FAIL");
    }
    return fails != 0;
}

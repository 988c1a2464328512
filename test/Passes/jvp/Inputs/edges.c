/* edges.c -- jvp and vjp of edges.hir at each kink, pole and edge of
 * docs/Passes.md's table: for component k at (x, y), jvp's tangent along
 * x and along y (the other tangent 0 at run time) and vjp's cotangents of
 * x and y for the adjoint e_k must be the same two numbers in both modes
 * (NaN matching NaN) and the table's.  Prints one line per case, "ok" or
 * what was found. */
#include <math.h>
#include <stdio.h>
#include "edges_jvp.h"
#include "edges_vjp.h"

#define N 25

static int fails;

static void jvp(double x, double y, double tx, double ty, double *od)
{
    double o[N];
    edges_jvp_args_t a = {.mut_o = o, .mut_o_dot = od, .ps_x = &x,
                          .ps_y = &y, .ps_x_dot = &tx, .ps_y_dot = &ty};
    if (edges_jvp_c(&a, 0, 1, 1) != HAWK_OK)
        od[0] = -999.0;
}

static void vjp(double x, double y, int k, double *xb, double *yb)
{
    double o[N], ob[N] = {0};
    ob[k] = 1.0;
    edges_vjp_args_t a = {.mut_o = o, .mut_x_bar = xb, .mut_y_bar = yb,
                          .mut_o_bar = ob, .ps_x = &x, .ps_y = &y};
    if (edges_vjp_c(&a, 0, 1, 1) != HAWK_OK)
        *xb = -999.0;
}

/* got is want: both NaN, or equal, or (rel > 0) within rel of it */
static int is(double got, double want, double rel)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (rel > 0.0 && isfinite(want))
        return fabs(got - want) <= rel * fabs(want);
    return got == want;
}

static void expect_rel(const char *what, double x, double y, int k,
                       double dx, double dy, double rel)
{
    double cx[N], cy[N], xb, yb;
    jvp(x, y, 1.0, 0.0, cx);
    jvp(x, y, 0.0, 1.0, cy);
    vjp(x, y, k, &xb, &yb);
    double got[4] = {cx[k], cy[k], xb, yb};
    double want[4] = {dx, dy, dx, dy};
    const char *name[4] = {"jvp d/dx", "jvp d/dy", "vjp d/dx", "vjp d/dy"};
    int ok = 1;
    for (int j = 0; j < 4; j++)
        ok &= is(got[j], want[j], rel);
    printf("%s: %s", what, ok ? "ok\n" : "");
    if (ok)
        return;
    fails++;
    for (int j = 0; j < 4; j++)
        printf(" %s %.17g (want %.17g)", name[j], got[j], want[j]);
    printf("\n");
}

static void expect(const char *what, double x, double y, int k, double dx,
                   double dy)
{
    expect_rel(what, x, y, k, dx, dy, 0.0);
}

int main(void)
{
    expect("abs at 0", 0.0, 5.0, 0, 0.0, 0.0);
    expect("min at a tie", 3.0, 3.0, 1, 0.5, 0.5);
    expect("max at a tie", 3.0, 3.0, 2, 0.5, 0.5);
    expect("clip at lo", 0.5, 0.5, 3, 0.5, 0.5);
    expect("sqrt at 0", 0.0, 0.0, 4, INFINITY, 0.0);
    expect("floor at 2", 2.0, 0.0, 5, 0.0, 0.0);
    expect("norm at 0", 0.0, 0.0, 6, NAN, NAN);
    expect("log at 0", 0.0, 1.0, 7, INFINITY, 0.0);
    expect("log1p at -1", -1.0, 0.0, 8, INFINITY, 0.0);
    expect("asin at 1", 1.0, 0.0, 9, INFINITY, 0.0);
    expect("acosh at 1", 1.0, 0.0, 10, INFINITY, 0.0);
    expect("atanh at -1", -1.0, 0.0, 11, INFINITY, 0.0);
    expect("pow at (0, 0.5)", 0.0, 0.5, 12, INFINITY, 0.0);
    expect("pow at (-2, 3)", -2.0, 3.0, 12, 12.0, NAN);
    expect("pow at (0, 0)", 0.0, 0.0, 12, 0.0, 0.0);
    expect("pow at (2, 0)", 2.0, 0.0, 12, 0.0, log(2.0));
    expect("atan2 at (0, 0)", 0.0, 0.0, 13, NAN, NAN);
    expect_rel("atan2 at (1e-170, 1e-170)", 1e-170, 1e-170, 13, 5e169,
               -5e169, 1e-15);
    expect_rel("atan2 at (1e200, 1e200)", 1e200, 1e200, 13, 5e-201, -5e-201,
               1e-15);
    expect("hypot at (0, 0)", 0.0, 0.0, 14, NAN, NAN);
    expect_rel("hypot at (3e200, 4e200)", 3e200, 4e200, 14, 0.6, 0.8, 1e-15);
    expect("fdiv by 0", 1.0, 0.0, 15, INFINITY, -INFINITY);
    expect("select past log at 0", 0.0, 1.0, 16, 0.0, 0.0);
    expect("select past sqrt at 0", 0.0, 1.0, 17, 0.0, 0.0);
    expect("select past fdiv by 0", 1.0, 0.0, 18, 0.0, 0.0);
    expect_rel("asinh at 1e200", 1e200, 0.0, 19, 1e-200, 0.0, 1e-15);
    expect_rel("acosh at 1e200", 1e200, 0.0, 10, 1e-200, 0.0, 1e-15);
    expect("select past exp at 800", 800.0, 0.0, 20, 0.0, 0.0);
    expect("select past log times y at 0", 0.0, 2.0, 22, 0.0, 0.0);
    expect("rsqrt at 0", 0.0, 0.0, 23, -INFINITY, 0.0);
    expect("select past y times a constant inf", 0.0, 1.0, 24, 0.0, 0.0);
    return fails != 0;
}

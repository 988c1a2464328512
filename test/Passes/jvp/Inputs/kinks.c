/* kinks.c -- kinks_jvp at its kinks and edges, with the tangents
 * tx = 1, ty = 2: each derivative docs/Passes.md's kinks table states,
 * exactly.  Prints one line per case, "ok" or the value found. */
#include <math.h>
#include <stdio.h>
#include "kinks_jvp.h"

static int fails;

/* Runs the kernel at (x, y) and checks component k of the tangent. */
static void expect(const char *what, double x, double y, int k, double want)
{
    double o[7], od[7], tx = 1.0, ty = 2.0;
    kinks_jvp_args_t a = {o, od, &x, &y, &tx, &ty};
    if (kinks_jvp_c(&a, 0, 1, 1) != HAWK_OK) {
        printf("%s: status\n", what);
        fails++;
        return;
    }
    int same = isnan(want) ? isnan(od[k]) : od[k] == want;
    printf("%s: %s", what, same ? "ok\n" : "");
    if (!same) {
        printf("%.17g, want %.17g\n", od[k], want);
        fails++;
    }
}

int main(void)
{
    expect("abs at 0", 0.0, 5.0, 0, 0.0);
    expect("abs at -2", -2.0, 5.0, 0, -1.0);
    expect("min at a tie", 3.0, 3.0, 1, 1.5);
    expect("min below", 1.0, 3.0, 1, 1.0);
    expect("max at a tie", 3.0, 3.0, 2, 1.5);
    expect("max above", 4.0, 3.0, 2, 1.0);
    expect("clip at lo", 0.5, 0.5, 3, 1.5);
    expect("clip at hi", 1.0, 0.0, 3, 0.5);
    expect("clip inside", 0.7, 0.0, 3, 1.0);
    expect("sqrt at 0", 0.0, 0.0, 4, INFINITY);
    expect("floor at 2", 2.0, 0.0, 5, 0.0);
    expect("norm at 0", 0.0, 0.0, 6, NAN);
    return fails != 0;
}

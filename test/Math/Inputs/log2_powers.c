/* log2_powers.c -- log2 of every power of two a double holds, subnormals
 * included, through the emitted unit p2: each must be its exponent. */
#include <math.h>
#include <stdio.h>

#include "p2.h"

int main(void)
{
    static double x[2098], y[2098];
    int n = 0;
    for (int k = -1074; k <= 1023; k++)
        x[n++] = ldexp(1.0, k);
    p2_args_t a = {y, x};
    if (p2_c(&a, 0, n, n) != HAWK_OK)
        return 2;
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (y[i] != (double)(i - 1074)) {
            if (bad < 5)
                printf("log2(%a) = %a\n", x[i], y[i]);
            bad++;
        }
    printf("%d powers of two, %d not their exponent\n", n, bad);
    return bad != 0;
}

/* call_drag.c -- a C program that calls the host unit's drag_host through
 * the C target's header drag.h: the object and the header agree on the
 * args struct and the entry. */
#include <stdio.h>

#include "drag.h"

hawk_status_t drag_host(const drag_args_t *args, int64_t base, int64_t count,
                        int64_t n_samples);

int main(void)
{
    /* two samples, SoA: x components, then y, then z */
    double state[6] = {3.0, 1.0, 4.0, 2.0, 0.0, 2.0};
    double out[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    drag_args_t a;
    a.mut_out = out;
    a.vin_state = state;
    a.uni_rho = 0.5;
    int status = (int)drag_host(&a, 0, 2, 2);
    printf("status %d\n", status);
    for (int k = 0; k < 6; k++)
        printf("out[%d] = %.17g\n", k, out[k]);
    a.vin_state = NULL;
    printf("null plane %d\n", (int)drag_host(&a, 0, 2, 2));
    return 0;
}

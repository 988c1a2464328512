/* Calls three exported kernels through their entries, one sample each:
 * two float64 kernels and a float32 one. */
#include <stdio.h>

#include "complementary_filter.h"
#include "drag.h"
#include "kepler.h"

int main(void)
{
    double state[3] = {1.0, 2.0, 2.0}, out[3] = {0.0, 0.0, 0.0};
    drag_args_t d;
    d.mut_out = out;
    d.vin_state = state;
    d.uni_rho = 0.5;
    double m = 1.0, e = 0.1, pos[2] = {0.0, 0.0};
    kepler_args_t k;
    k.ps_M = &m;
    k.ps_e = &e;
    k.uni_a = 2.0;
    k.mut_pos = pos;
    float q = 0.5F, accel[3] = {0.0F, 0.0F, 1.0F}, pitch = 0.1F;
    complementary_filter_args_t c;
    c.ps_q = &q;
    c.vin_accel = accel;
    c.uni_dt = 0.01F;
    c.uni_alpha = 0.98F;
    c.mut_pitch = &pitch;
    if (drag_c(&d, 0, 1, 1) != HAWK_OK || kepler_c(&k, 0, 1, 1) != HAWK_OK ||
        complementary_filter_c(&c, 0, 1, 1) != HAWK_OK)
        return 1;
    printf("drag %.17g %.17g %.17g\n", out[0], out[1], out[2]);
    printf("kepler %.17g %.17g\n", pos[0], pos[1]);
    printf("pitch %.9g\n", (double)pitch);
    return 0;
}

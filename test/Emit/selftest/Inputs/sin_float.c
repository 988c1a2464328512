/* Another libm's sin: computed in single precision, as a float-only math
 * library would (linked before -lm, it is the unit's sin). */
#include <math.h>
double sin(double x)
{
    return (double)sinf((float)x);
}

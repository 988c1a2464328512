/* Calls one unit's self-test: -DHDR="\"<name>.h\"" -DSELFTEST=<name>_selftest.
 * Prints and returns its status. */
#include <stdio.h>
#include HDR
int main(void)
{
    int s = (int)SELFTEST();
    printf("selftest %d\n", s);
    return s;
}

/* Code -Wconversion would warn about: it builds only when hawk's own
 * warning flags stay in hawk's directory. */
int loose(double x);
int loose(double x)
{
    int i = x;
    return i;
}

/* haversine.c -- great-circle distance by hand (examples/haversine.hir). */
#include <math.h>

#include "hand.h"

void haversine_hand(size_t n, const double *p1, const double *p2, double R,
                    double *d)
{
    const double *lat1 = p1, *lon1 = p1 + n, *lat2 = p2, *lon2 = p2 + n;
    for (size_t i = 0; i < n; i++) {
        double sdlat = sin((lat2[i] - lat1[i]) * 0.5);
        double sdlon = sin((lon2[i] - lon1[i]) * 0.5);
        double a = sdlat * sdlat +
                   cos(lat1[i]) * cos(lat2[i]) * (sdlon * sdlon);
        double root = sqrt(a);
        d[i] = asin(root < 1.0 ? root : 1.0) * (2.0 * R);
    }
}

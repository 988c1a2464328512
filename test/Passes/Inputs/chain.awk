# chain.awk -v n=N: a kernel calling @f1, which calls @f2, ... @fN, which
# returns its argument: calls nested N deep below the kernel.
BEGIN {
    print "kernel @k(%a: per_sample f64, %o: mutable f64) {"
    print "  %v = load %a : f64"
    print "  %r = call @f1(%v) : f64"
    print "  store %r, %o"
    print "  ret"
    print "}"
    for (k = 1; k <= n; k++) {
        print "func @f" k "(%x: f64) -> f64 {"
        if (k < n) {
            print "  %y = call @f" k + 1 "(%x) : f64"
            print "  ret %y"
        } else {
            print "  ret %x"
        }
        print "}"
    }
}

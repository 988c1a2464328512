# layout-asserts.awk -- turns `hawk-run -print-layout` output into C11
# static assertions on the emitted header's args struct: its size and
# alignment, and every member's offset and size, as the C compiler sees
# them (test/run/layout.test).
/_args_t: size / {
    t = $1
    sub(":", "", t)
    printf "_Static_assert(sizeof(%s) == %s, \"size of %s\");\n", t, $3, t
    printf "_Static_assert(_Alignof(%s) == %s, \"alignment of %s\");\n", t, $5, t
    next
}
{
    printf "_Static_assert(offsetof(%s, %s) == %s, \"offset of %s\");\n", t, $1, $3, $1
    printf "_Static_assert(sizeof(((%s *)0)->%s) == %s, \"size of %s\");\n", t, $1, $5, $1
}

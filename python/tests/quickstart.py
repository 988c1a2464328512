import hawk
from hawk import Mutable, Param, Vector
from hawk.math import norm

@hawk.kernel
def drag(state: Vector[3], rho: Param, out: Mutable[Vector[3]]):
    out = -rho * state * norm(state)

art = hawk.embedded.export(drag, "out/")
hawk.build([drag], "out/", targets=("host", "c"))

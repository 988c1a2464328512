"""damage.py IN OUT CASE: writes the manifest IN to OUT with one thing in
it damaged (the first kernel's, or its first field's), for the tests of
what libhawk-rt's hawk_load refuses.  The cases:

  schema       the schema is hawk.manifest/2
  no-kernels   "kernels" is not an array
  no-name      the first field has no name
  offset-text  the first field's offset is a string
  offset-frac  the first field's offset is 0.5
  offset-past  the first field's offset lies past the args
  size-zero    the first field's size is 0
  plane-byte   the first field (a plane) is one byte, at the args' last
  value-size   the first value field is a byte short of its components
  no-kind      the first field's kind is one no program writes
  args-size    the args size is -8
  so-path      the host row's shared object is a path (../x.so)
  no-entry     the host row has no entry
  no-row       the kernel has no row with a shared object
"""
import json
import sys

src, dst, case = sys.argv[1:4]
with open(src) as f:
    m = json.load(f)
k = m["kernels"][0]
field = k["abi"]["fields"][0]
row = next(t for t in k["targets"] if "shared_object" in t)
if case == "schema":
    m["schema"] = "hawk.manifest/2"
elif case == "no-kernels":
    m["kernels"] = {"drag": k}
elif case == "no-name":
    del field["name"]
elif case == "offset-text":
    field["offset"] = "8"
elif case == "offset-frac":
    field["offset"] = 0.5
elif case == "offset-past":
    field["offset"] = k["abi"]["size"] + 8
elif case == "size-zero":
    field["size"] = 0
elif case == "plane-byte":
    field["size"] = 1
    field["offset"] = k["abi"]["size"] - 1
elif case == "value-size":
    value = next(f for f in k["abi"]["fields"] if f["kind"] == "value")
    value["size"] -= 1
elif case == "no-kind":
    field["kind"] = "handle"
elif case == "args-size":
    k["abi"]["size"] = -8
elif case == "so-path":
    row["shared_object"] = "../x.so"
elif case == "no-entry":
    del row["entry"]
elif case == "no-row":
    del row["shared_object"]
else:
    sys.exit("damage.py: unknown case " + case)
with open(dst, "w") as f:
    json.dump(m, f, indent=1)

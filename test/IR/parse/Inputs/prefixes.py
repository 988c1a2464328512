"""Writes every proper prefix of a file as one case of a -split-input-file
input (each cut ends with a newline; '// -----' lines separate the cases),
and prints how many cases there are."""
import sys

data = open(sys.argv[1], "rb").read()
cases = [data[:n] + b"\n" for n in range(len(data))]
with open(sys.argv[2], "wb") as out:
    out.write(b"// -----\n".join(cases))
print("cases: %d" % len(cases))

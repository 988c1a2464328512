# lit configuration for hawk's test suite.
import os
import shutil

import lit.formats

config.name = "hawk"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".hir", ".test"]
# test/capi holds both the C API programs (.c, built by CMake, never run as
# tests: .c is not a test suffix) and the .test files that drive them.
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hawk_obj_root, "test")

path = os.pathsep.join([config.hawk_tools_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path
config.environment["LC_ALL"] = "C"
# The tools' default cache: inside the build tree, never the user's home,
# and empty when the suite starts, so no test sees an earlier run's
# verdicts or builds.
config.environment["HAWK_CACHE_DIR"] = os.path.join(config.test_exec_root,
                                                    "hawk-cache")
shutil.rmtree(config.environment["HAWK_CACHE_DIR"], ignore_errors=True)
# Sanitizer builds: any report fails the test.
config.environment["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

config.substitutions.append(("%examples", os.path.join(config.hawk_src_root, "examples")))
config.substitutions.append(("%hawk_src", config.hawk_src_root))
config.substitutions.append(("%hawk_bin", config.hawk_tools_dir))
config.substitutions.append(("%cc", config.hawk_c_compiler))
# 'arm-none-eabi': the Debian Cortex-M cross compiler is installed
# (scripts/setup.sh installs it).
if shutil.which("arm-none-eabi-gcc"):
    config.available_features.add("arm-none-eabi")
# 'qemu-arm': the ARM Linux cross compiler and the user-mode emulator that
# runs its static programs, for processor-in-the-loop runs (setup.sh).
if shutil.which("arm-linux-gnueabihf-gcc") and shutil.which("qemu-arm"):
    config.available_features.add("qemu-arm")
# 'graphviz': dot, which renders print<dot>'s pictures (setup.sh).
if shutil.which("dot"):
    config.available_features.add("graphviz")

# The flags a program linking this build's libraries needs: the sanitizer
# runtime when the build is instrumented, gcov's in the coverage build.
sanitized = config.hawk_sanitize.upper() in ("ON", "1", "TRUE", "YES")
# In make coverage's build the runtime is gcov's.
covered = getattr(config, "hawk_coverage", "OFF").upper() in ("ON", "1", "TRUE", "YES")
config.substitutions.append(("%sanflags", "-fsanitize=address,undefined" if sanitized
                             else "--coverage" if covered else ""))
# 'llvm': this build has the host target (CMake HAWK_LLVM, on by default):
# hawk-llvm, hawk-build, the host row of hawk-run.  A test of any of them
# says REQUIRES: llvm; the rest of the suite runs in a build without LLVM.
if getattr(config, "hawk_llvm", "ON").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("llvm")
# Whose known answers a self-test records: the host build's, or, without
# LLVM, the HIR interpreter's (FileCheck -DKAT=...).
# The Python package (python/), built for the interpreter CMake found.
if getattr(config, "hawk_python", "OFF").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("python")
config.substitutions.append(("%hawk_python", getattr(config, "hawk_python_exe", "python3") or "python3"))
config.substitutions.append(("%kat_source", "host build" if "llvm" in config.available_features else "HIR interpreter"))
# 'sanitized': the instrumented build.  Its suite checks hawk's own code
# for memory and undefined behaviour; a test whose time goes to external
# tools (MPFR over 10^5 arguments, 400 cross builds, qemu) runs once, in
# the plain build's suite, and declares itself UNSUPPORTED here.
if sanitized:
    config.available_features.add("sanitized")
# The samples a test gives the HIR interpreter's row, the slow one: fewer
# under the sanitizers, where the point is hawk's memory and undefined
# behaviour, not the values (the plain build compares those).
config.substitutions.append(("%interp_samples", "200" if sanitized else "1000"))

# 'fma': the CPU has fused multiply-add, so a C build with contraction on
# (-ffp-contract=fast -mfma) really differs from the host build
# (test/run/catch-fma.test).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if any(line.startswith("flags") and "fma" in line.split()
               for line in cpuinfo):
            config.available_features.add("fma")
except OSError:
    pass

# The random kernels test/run/stress.test runs: 150 in the plain build,
# where the values are compared three ways; fewer under the sanitizers
# (hawk's memory and undefined behaviour over the same constructs) and
# in the build without LLVM (the C unit against the interpreter alone).
config.substitutions.append(("%stress_kernels",
    "100" if not sanitized and "llvm" in config.available_features else "30"))

# 'fuzz': the libFuzzer targets of fuzz/ are built (CMake HAWK_FUZZ, the
# sanitized clang build of make check); test/fuzz runs them briefly.
if getattr(config, "hawk_fuzz", "OFF").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("fuzz")
# 'fault': the build injects faults (CMake HAWK_FAULT, the sanitized
# build of make check); test/fault fails each allocation and write of a
# run of each tool in turn (scripts/fault.sh).
if getattr(config, "hawk_fault", "OFF").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("fault")

# A thin wrapper over CMake.  `make demo` and `make check` do all the set-up
# on a fresh Debian 12 machine (as root): missing packages, configure, build.
BUILD      ?= build/gcc
ASAN_BUILD ?= build/clang-asan
NOLLVM_BUILD ?= build/nollvm
JOBS       ?= 2
# The Python package is built for Debian's interpreter, which setup gives
# NumPy and pytest (another python3 may come first on PATH).
PYTHON     ?= /usr/bin/python3
PYTHON_FLAG = -DPython3_EXECUTABLE=$(PYTHON)

.PHONY: all setup build build-asan build-nollvm configs demo check stress fuzz coverage clean

all: build

setup:
	@scripts/setup.sh

$(BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(BUILD) -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHAWK_WERROR=ON $(PYTHON_FLAG)

$(ASAN_BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DHAWK_SANITIZE=ON -DHAWK_FUZZ=ON -DHAWK_FAULT=ON -DHAWK_WERROR=ON

build: setup $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

build-asan: setup $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# hawk without LLVM: no host target; hawk-run compares with the interpreter.
$(NOLLVM_BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(NOLLVM_BUILD) -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release -DHAWK_WERROR=ON -DHAWK_LLVM=OFF

build-nollvm: setup $(NOLLVM_BUILD)/CMakeCache.txt
	cmake --build $(NOLLVM_BUILD) -j $(JOBS)

# Every other CMake configuration, with gcc and clang, warnings as errors.
configs: setup
	@scripts/configs.sh

demo: build
	@scripts/demo.sh $(BUILD)

# The build without LLVM runs the tests whose code differs there (the
# runner's rows, the self-test's oracle, the C API); the rest of its suite
# is the same libhawk the other two builds test (all of it passes there:
# scripts/check.sh $(NOLLVM_BUILD)).
NOLLVM_TESTS = run/(nollvm|examples|check-derivatives|options|loops|stress)|Emit/selftest|capi/

check: build build-asan build-nollvm configs
	@scripts/check.sh $(BUILD) $(ASAN_BUILD) '$(NOLLVM_BUILD):$(NOLLVM_TESTS)'

# make stress N=1000 [FIRST=1]: N random kernels (hawk-gen, seeds FIRST ...)
# through the verifier, print/parse, jvp and vjp, hawk-run's three
# implementations, and hawk-emit's compilers and cppcheck (STRESS_CHECKS=0
# leaves the checks out).
N     ?= 1000
FIRST ?= 1
STRESS_CHECKS ?= 1
stress: build
	@STRESS_CHECKS=$(STRESS_CHECKS) scripts/stress.sh $(BUILD) $(N) $(FIRST)

# make fuzz [FUZZ_TIME=600]: each libFuzzer target of fuzz/ (built in the
# sanitized build) for FUZZ_TIME seconds, its corpus kept under
# build/fuzz/<target> between runs, a crash's input under
# build/fuzz/artifacts.
FUZZ_TIME ?= 600
fuzz: build-asan
	@scripts/fuzz.sh $(ASAN_BUILD) $(FUZZ_TIME)

# make coverage: the suite in a gcc build with gcov (build/coverage), then
# the line and branch coverage of lib/ per folder, checked against the
# floors of scripts/coverage-floor.txt.  Built with fault injection, so
# that test/fault runs there too and the paths that handle running out
# of memory and failed writes count as covered where they are.
COV_BUILD ?= build/coverage
$(COV_BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(COV_BUILD) -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Debug -DHAWK_COVERAGE=ON -DHAWK_FAULT=ON $(PYTHON_FLAG)
coverage: setup $(COV_BUILD)/CMakeCache.txt
	cmake --build $(COV_BUILD) -j $(JOBS)
	@scripts/coverage.sh $(COV_BUILD)

clean:
	rm -rf build

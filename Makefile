# A thin wrapper over CMake.  `make demo` and `make check` do all the set-up
# on a fresh Debian 12 machine (as root): missing packages, configure, build.
BUILD      ?= build/gcc
ASAN_BUILD ?= build/clang-asan
JOBS       ?= 2

.PHONY: all setup build build-asan configs demo check clean

all: build

setup:
	@scripts/setup.sh

$(BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(BUILD) -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHAWK_WERROR=ON

$(ASAN_BUILD)/CMakeCache.txt: | setup
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DHAWK_SANITIZE=ON -DHAWK_WERROR=ON

build: setup $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

build-asan: setup $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# Every other CMake configuration, with gcc and clang, warnings as errors.
configs: setup
	@scripts/configs.sh

demo: build
	@scripts/demo.sh $(BUILD)

check: build build-asan configs
	@scripts/check.sh $(BUILD) $(ASAN_BUILD)

clean:
	rm -rf build

#!/usr/bin/env bash
# Installs the Debian packages hawk builds and tests with, when missing.
# Run as root on a fresh Debian 12 machine (make demo / make check do).
set -euo pipefail

packages=(
  make cmake pkg-config gcc clang libclang-rt-14-dev python3
  python3-dev python3-numpy python3-pytest  # the Python package and its tests
  llvm llvm-14-dev llvm-14-tools   # llvm-config, FileCheck, lit, the C API
  libcjson-dev                     # the JSON reports
  libssl-dev                       # sha256 through libcrypto
  cppcheck                         # the MISRA addon checks
  man-db                           # the man pages' test renders them
  graphviz                         # dot renders print<dot>'s pictures
  gcc-arm-none-eabi libnewlib-arm-none-eabi  # the Cortex-M builds of the tests
  libmpfr-dev                      # the accuracy of hawk's own math
  gcovr                            # make coverage's line and branch figures
  gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user  # processor in the loop
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "setup: not root; run as root: apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"

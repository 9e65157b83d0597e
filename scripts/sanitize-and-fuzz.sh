#!/usr/bin/env bash
# The sanitizer run and a short run of every fuzz harness, in one clang-19 build that reuses the RISC-V
# programs of build/ (run after the normal build; README, "Fuzzing and sanitizer builds").
set -euo pipefail
cd "$(dirname "$0")/.."
# The normal build must be complete: this stops here when it is not (in CI, when an earlier step of the README's
# test command failed, which set -e does not catch inside its && list).
cmake --build build
CC=clang-19 CXX=clang++-19 cmake -S . -B build-san -G Ninja -DPULPSIM_SANITIZE=address,undefined -DPULPSIM_FUZZ=ON \
  -DPULPSIM_PREBUILT_PROGRAMS="$PWD/build" -DPULPSIM_BUILD_BENCHMARKS=OFF
cmake --build build-san
ctest --test-dir build-san --output-on-failure -j2 -LE "long|service"
scripts/fuzz.sh --build build-san --seeds-from build --time "${FUZZ_SECONDS:-10}"

#!/usr/bin/env bash
# Installs every Debian 12 package pulpsim needs to build, run its kernels and pass its tests.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config
  libsystemc-dev libboost-program-options-dev libspdlog-dev libfmt-dev libyaml-cpp-dev
  nlohmann-json3-dev libelf-dev libdw-dev libgtest-dev libbenchmark-dev
  clang-19 clang-format-19 lld-19 llvm-19 libclang-rt-19-dev picolibc-riscv64-unknown-elf gcc-riscv64-unknown-elf
  binutils-riscv64-unknown-elf
  qemu-user python3 python3-torch python3-yaml
  libsqlite3-dev sqlite3 libxxhash-dev python3-matplotlib python3-pandas python3-junitparser
  slurmctld slurmd slurm-client munge
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

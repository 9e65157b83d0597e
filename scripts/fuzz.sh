#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ in build-fuzz/ (clang-19) and runs each for a given time,
# seeded from the project's own files. Exit status 1 if any harness found something (see fuzz/README.md).
set -euo pipefail
usage() {
  echo "usage: scripts/fuzz.sh [--time SECONDS] [--build DIR] [--seeds-from DIR] [HARNESS...]"
  echo "  harnesses: elf_loader platform sweep_spec baseline decoder (default: all, one after the other)"
  echo "  --time        seconds per harness (default 60)"
  echo "  --build       build directory for the harnesses (default build-fuzz)"
  echo "  --seeds-from  a normal build whose ELFs seed the ELF and decoder harnesses (default build)"
}
cd "$(dirname "$0")/.."
all=(elf_loader platform sweep_spec baseline decoder)
seconds=60 build=build-fuzz main_build=build harnesses=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds="${2:?--time needs a number of seconds}"; shift 2 ;;
    --build) build="${2:?--build needs a directory}"; shift 2 ;;
    --seeds-from) main_build="${2:?--seeds-from needs a directory}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "scripts/fuzz.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) [[ " ${all[*]} " == *" $1 "* ]] || { echo "scripts/fuzz.sh: no harness '$1' (${all[*]})" >&2; exit 2; }
       harnesses+=("$1"); shift ;;
  esac
done
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "scripts/fuzz.sh: --time '$seconds' is not a number of seconds" >&2; exit 2; }
[ ${#harnesses[@]} -gt 0 ] || harnesses=("${all[@]}")

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang-19 CXX=clang++-19 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPULPSIM_FUZZ=ON \
    -DPULPSIM_BUILD_TESTS=OFF -DPULPSIM_BUILD_BENCHMARKS=OFF -DPULPSIM_BUILD_KERNELS=OFF >/dev/null
fi
cmake --build "$build" --target "${harnesses[@]/#/fuzz_}"

# Seeds: small ELFs (the mutator works best on short inputs; 64 KiB keeps the section headers of most
# test programs), the shipped YAML files, and the code of the test programs as raw instruction words.
small_elfs() { find "$main_build/tests/programs" "$main_build/kernels" -maxdepth 1 -name '*.elf' -size -64k 2>/dev/null | sort; }
seed() {
  local harness=$1 dir=$2
  case "$harness" in
    elf_loader) small_elfs | xargs -r cp -t "$dir" ;;
    platform)
      cp configs/platforms/*.yaml "$dir"
      printf 'platform:\n  name: seed\n%%%%\ncluster.cores=4\nfpu.count=4\ntcdm.size=128KiB\n' >"$dir/with-set.txt"
      printf '%%%%\nengine.lookahead=1\ndma.bandwidth_bits=16\nicache.model=perfect\n' >"$dir/only-set.txt" ;;
    sweep_spec) cp configs/sweeps/*.yaml "$dir" ;;
    baseline) cp configs/regress/*.yaml "$dir" ;;
    decoder)
      small_elfs | while read -r elf; do
        llvm-objcopy-19 -O binary --only-section=.text "$elf" "$dir/$(basename "$elf" .elf).text" 2>/dev/null || true
      done ;;
  esac
}
# The YAML harnesses get every key our files use as a dictionary entry.
yaml_dict() {
  grep -hoE '^[[:space:]]*[a-z_]+:' configs/platforms/*.yaml configs/sweeps/*.yaml configs/regress/*.yaml |
    tr -d ' :' | sort -u | sed 's/.*/"&:"/'
  platform_sections=$(grep -hoE '^[a-z_]+:' configs/platforms/pulp-open.yaml | tr -d ':')
  for section in $platform_sections; do
    awk -v s="$section" '/^[a-z_]+:/{cur=substr($1,1,length($1)-1)} /^  [a-z_]+:/ && cur==s {k=$1; sub(":","",k); print "\"" s "." k "\""}' configs/platforms/pulp-open.yaml
  done
}

status=0
summary=()
for harness in "${harnesses[@]}"; do
  dir="$build/fuzz/$harness"
  rm -rf "$dir/seeds"
  mkdir -p "$dir/seeds" "$dir/corpus" "$dir/crashes"
  seed "$harness" "$dir/seeds"
  extra=()
  case "$harness" in
    platform|sweep_spec|baseline) yaml_dict >"$dir/yaml.dict"; extra+=(-dict="$dir/yaml.dict") ;;
    elf_loader) extra+=(-max_len=65536) ;;
  esac
  echo "fuzz_$harness: ${seconds} s, $(ls "$dir/seeds" | wc -l) seeds, corpus $dir/corpus"
  rc=0
  "$build/bin/fuzz_$harness" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/crashes/" "${extra[@]}" "$dir/corpus" "$dir/seeds" >"$dir/log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$dir/log" | tail -1)
  if [ "$rc" -ne 0 ]; then
    status=1
    found=$(grep -a -m1 -E 'FUZZ FINDING|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' "$dir/log" || true)
    summary+=("fuzz_$harness: FOUND after ${runs:-?} runs: ${found:-exit $rc}; input and log in $dir/ (crashes/, log)")
  else
    summary+=("fuzz_$harness: clean, ${runs:-?} runs in ${seconds} s, ${cov:-no coverage line}")
  fi
done
printf '%s\n' "${summary[@]}"
exit $status

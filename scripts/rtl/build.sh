#!/bin/sh
# Builds the CV32E40P RTL with this folder's test bench into OUT_DIR/cv32e40p_latAO, one simulator per
# latency pair AO (A = FPU_ADDMUL_LAT, O = FPU_OTHERS_LAT, a digit each): by default 00 (the defaults)
# and 22. README.md says how to use them.
# usage: scripts/rtl/build.sh CV32E40P_DIR OUT_DIR [AO ...]
set -eu
if [ $# -lt 2 ] || [ ! -f "$1/cv32e40p_fpu_manifest.flist" ]; then
    echo "usage: $0 CV32E40P_DIR OUT_DIR [AO ...]  (CV32E40P_DIR: a checkout of openhwgroup/cv32e40p;" \
        "AO: FPU_ADDMUL_LAT and FPU_OTHERS_LAT, default 00 22)" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$1
out_dir=$2
shift 2
pairs=${*:-00 22}
for pair in $pairs; do
    case $pair in
    [0-9][0-9]) ;;
    *) echo "$0: latency pair '$pair' is not two digits (FPU_ADDMUL_LAT, FPU_OTHERS_LAT)" >&2; exit 2 ;;
    esac
done
rtl=$(cd "$source_dir" && pwd)/rtl
mkdir -p "$out_dir"
out=$(cd "$out_dir" && pwd)
# The manifest without the latch clock gate and the simulation-only tracer files.
sed -e "s#\${DESIGN_RTL_DIR}#$rtl#g" -e '/cv32e40p_sim_clock_gate.sv/d' -e '/cv32e40p_tracer_pkg.sv/d' \
    -e '/cv32e40p_tb_wrapper.sv/d' "$source_dir/cv32e40p_fpu_manifest.flist" >"$out/cv32e40p.flist"
echo "$here/clock_gate.sv" >>"$out/cv32e40p.flist"
for pair in $pairs; do
    addmul=${pair%?}
    others=${pair#?}
    name=cv32e40p_lat$pair
    verilator --cc --exe --build --no-timing -Wno-fatal -Wno-BLKANDNBLK -Wno-lint -Wno-style -Wno-MULTIDRIVEN \
        -Wno-UNOPTFLAT -O3 --x-assign fast --x-initial fast -j 2 --top-module cv32e40p_top \
        -GCOREV_PULP=1 -GCOREV_CLUSTER=0 -GFPU=1 -GFPU_ADDMUL_LAT=$addmul -GFPU_OTHERS_LAT=$others -GZFINX=0 \
        -GNUM_MHPMCOUNTERS=1 -f "$out/cv32e40p.flist" "$here/testbench.cpp" --Mdir "$out/obj_$name" -o "$name" \
        -CFLAGS -O2 >"$out/$name.log" 2>&1 || { echo "$0: verilator failed, see $out/$name.log" >&2; exit 1; }
    cp "$out/obj_$name/$name" "$out/$name"
    echo "built $out/$name"
done

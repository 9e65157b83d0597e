#!/bin/sh
# The pictures of docs/views/: the VCD (in GTKWave) and the timeline (in Perfetto's UI, and drawn by
# scripts/plot_timeline.py) of the RNN forward of the RNN-on-PULP thesis (seed 002) with libm's tanhf and with
# the fast tanh, and of the three tanh variants on a vector (libm and fast on one core, fast on the team). Fails
# when Perfetto's UI flags a warning for a timeline (scripts/timeline_in_perfetto.sh).
#
# usage: scripts/seed002_views.sh [BUILD_DIR] [OUT_DIR]      (defaults: build, docs/views)
# needs: gtkwave, xvfb, x11-apps (xwd), imagemagick, and what scripts/timeline_in_perfetto.sh needs
#        (apt-get install -y gtkwave xvfb x11-apps imagemagick chromium nodejs npm)
set -eu
build=${1:-build}
out=${2:-docs/views}
work=$(mktemp -d)
mkdir -p "$out"
sim="$build/bin/pulpsim"
elf="$build/kernels/rnn.elf"
# The thesis' 50x50x50 RNN needs a 128 KiB TCDM; its references and inputs need 1600 KiB of L2.
run() { "$sim" run -q --set tcdm.size=128KiB --set l2.size=1600KiB "$@" "$elf" > /dev/null; }
python=/usr/bin/python3

Xvfb :97 -screen 0 1600x1000x24 > /dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2> /dev/null; rm -rf "$work"' EXIT
sleep 2

shoot() { # VCD stem, picture: GTKWave opens the save file pulpsim wrote, fitted to the shown cycles
    DISPLAY=:97 gtkwave "$1.vcd.gtkw" > /dev/null 2>&1 &
    viewer=$!
    sleep 10
    DISPLAY=:97 xwd -root -silent | convert xwd:- -crop 1600x760+0+0 -colors 48 "PNG8:$2"
    kill $viewer
}
perfetto() { # timeline, picture
    scripts/timeline_in_perfetto.sh "$1:$work/perfetto.png"
    convert "$work/perfetto.png" -colors 48 "PNG8:$2"
}

for region in rnn_fw_tanhf rnn_fw tanh_fast_par; do
    run --view-region $region --vcd "$work/$region.vcd" --timeline "$work/$region.json"
    shoot "$work/$region" "$out/seed002_$region.gtkwave.png"
    $python scripts/plot_timeline.py "$work/$region.json" "$out/seed002_$region.timeline.png"
    perfetto "$work/$region.json" "$out/seed002_$region.perfetto.png"
done

# The three variants one after the other: from the start of tanh_libm to the end of tanh_fast_par.
run --timeline "$work/all.json" --view-region tanh_libm
from=$($python -c "import json,sys; print(min(e['ts'] for e in json.load(open(sys.argv[1]))['traceEvents'] if e.get('cat') == 'region'))" "$work/all.json")
run --timeline "$work/all.json" --view-region tanh_fast_par
to=$($python -c "import json,sys; print(max(e['ts'] + e['dur'] for e in json.load(open(sys.argv[1]))['traceEvents'] if e.get('cat') == 'region'))" "$work/all.json")
run --timeline "$work/tanh_variants.json" --view-window "$from:$to"
$python scripts/plot_timeline.py "$work/tanh_variants.json" "$out/seed002_tanh_variants.timeline.png" \
    --title "rnn.elf on pulp-open: tanh_libm, tanh_fast (core 0) and tanh_fast_par (8 cores) on 2500 values"
perfetto "$work/tanh_variants.json" "$out/seed002_tanh_variants.perfetto.png"
ls -l "$out"

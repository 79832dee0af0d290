// Shared helpers of the end-to-end tests: the server under test, Chromium,
// and board actions (click and drag on squares).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const outDir = path.join(here, 'output');
fs.mkdirSync(outDir, { recursive: true });

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

// Waits until the server answers `url`, the child exits, or `ms` pass.
// Returns 'up' or 'exited'; throws on the timeout.
async function waitHttp(url, child, ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) return 'exited';
    try { const r = await fetch(url); if (r.ok) return 'up'; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not answer ${url} within ${ms} ms`);
}

function tail(file, lines = 20) {
  try { return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return '(no log)'; }
}

// Starts the server under test: the real `acedrex serve` unless
// ACEDREX_E2E_BASE points at a running one, or ACEDREX_E2E_MOCK=1 asks for the
// development mock. Returns {base, stop()}. A port found free can be taken by
// another process before the server binds it: then the first start tries
// again on another port; a restart keeps its port (the page reconnects to it).
// opts.args: more flags for `acedrex serve` (e.g. a higher --max-games-per-minute).
export async function startServer(opts = {}) {
  if (process.env.ACEDREX_E2E_BASE) return { base: process.env.ACEDREX_E2E_BASE, stop: async () => {} };
  let port = await freePort();
  let child;
  let logFile;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acedrex-e2e-'));
  const base = () => `http://127.0.0.1:${port}`;
  const spawnOnce = async () => {
    logFile = path.join(outDir, `server-${port}.log`);
    const log = fs.openSync(logFile, 'a');
    if (process.env.ACEDREX_E2E_MOCK === '1') {
      child = spawn(process.execPath, [path.join(here, 'mock_server.mjs'), '--port', String(port)], { stdio: ['ignore', log, log] });
    } else {
      const bin = process.env.ACEDREX_BIN || path.join(root, 'build/release/acedrex');
      // The front end embedded in the binary, started outside the repository:
      // what a user gets from `acedrex serve` anywhere.
      child = spawn(bin, ['serve', '--port', String(port), '--db', path.join(tmp, 'e2e.db'), ...(opts.args || [])],
        { stdio: ['ignore', log, log], cwd: tmp });
    }
    fs.closeSync(log);
    try {
      return await waitHttp(`${base()}/api/variants`, child);
    } catch (e) {
      child.kill('SIGKILL');
      throw new Error(`${e.message}; server log:\n${tail(logFile)}`);
    }
  };
  const spawnServer = async (firstStart = false) => {
    for (let attempt = 1; ; ++attempt) {
      if ((await spawnOnce()) === 'up') return;
      if (!firstStart || attempt === 5) throw new Error(`server on port ${port} exited at start; log:\n${tail(logFile)}`);
      port = await freePort();
    }
  };
  const kill = (signal) => new Promise((r) => {
    if (child.exitCode !== null || child.signalCode !== null) { r(); return; }
    const t = setTimeout(() => { child.kill('SIGKILL'); }, 3000);
    child.once('exit', () => { clearTimeout(t); r(); });
    child.kill(signal);
  });
  await spawnServer(true);
  return {
    get base() { return base(); },
    get child() { return child; },
    // kill -9 and start again on the same port and database
    restart: async () => { await kill('SIGKILL'); await spawnServer(); },
    crash: () => kill('SIGKILL'),
    start: () => spawnServer(),
    stop: async () => {
      await kill('SIGTERM');
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

// Chromium from Debian, headless. Playwright starts it with --headless and a
// fresh temporary --user-data-dir of its own (it refuses one in args; a
// browser context is then a clean profile), plus our flags.
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    async newPage(opts = {}) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, ...opts });
      const page = await ctx.newPage();
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(String(e)));
      return page;
    },
    close: () => browser.close(),
  };
}

// ---- board helpers --------------------------------------------------------------
export const sq = (page, name) => page.locator(`#board [data-sq="${name}"]`);

export async function boardState(page) {
  return page.evaluate(() => {
    const b = document.getElementById('board');
    return { v: Number(b.dataset.v), toMove: b.dataset.toMove, status: b.dataset.status };
  });
}

export async function clickMove(page, from, to) {
  await sq(page, from).click();
  await page.locator(`#board [data-dest="${to}"]`).waitFor({ state: 'attached', timeout: 5000 });
  await sq(page, to).click();
}

// A square's box on the page. The board keeps its squares while its geometry
// (size, holes, view) stays the same, so a square found has a box.
async function squareBox(page, name) {
  await sq(page, name).waitFor({ state: 'visible', timeout: 5000 });
  const box = await sq(page, name).boundingBox();
  if (!box) throw new Error(`square ${name} is not on the board`);
  return box;
}

export async function dragMove(page, from, to) {
  const a = await squareBox(page, from);
  const b = await squareBox(page, to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  const steps = 8;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(a.x + a.width / 2 + ((b.x - a.x) * i) / steps, a.y + a.height / 2 + ((b.y - a.y) * i) / steps);
  }
  await page.mouse.up();
}

// Legal moves for the seat to move, as the page's state has them.
export async function fetchState(base, id, token) {
  const r = await fetch(`${base}/api/game/${id}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!r.ok) throw new Error(`state ${r.status}`);
  return r.json();
}

export async function waitFor(fn, { timeout = 30000, interval = 150, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, interval));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function shot(page, name) {
  const file = path.join(outDir, `${name}.png`);
  await page.locator('main').screenshot({ path: file });
  return file;
}

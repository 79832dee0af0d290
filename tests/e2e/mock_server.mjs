// A small stand-in for `acedrex serve`, used only while developing the front
// end: it implements the documented REST + WebSocket contract, and asks the
// real `acedrex` command (`moves`, `summary`) for legal moves and positions,
// so the states it sends are real. Bots play a random legal move.
// Usage: node mock_server.mjs --port 8099 [--acedrex ../../build/release/acedrex]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const args = Object.fromEntries(process.argv.slice(2).reduce((a, v, i, all) =>
  (v.startsWith('--') ? a.concat([[v.slice(2), all[i + 1]]]) : a), []));
const port = Number(args.port || 8099);
const acedrex = args.acedrex || path.join(root, 'build/release/acedrex');
const webDir = path.join(root, 'web');

// ---- variants, read from the variant files ---------------------------------
function readVariants() {
  const out = {};
  for (const f of fs.readdirSync(path.join(root, 'variants'))) {
    const v = { options: [], seats: [], pieces: [], blocked: [] };
    for (const raw of fs.readFileSync(path.join(root, 'variants', f), 'utf8').split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#') || line.startsWith('[')) continue;
      const [k, ...rest] = line.split('=');
      const key = k.trim(), val = rest.join('=').trim();
      if (key === 'name') v.name = val;
      else if (key === 'title') v.title = val;
      else if (key === 'board') [v.width, v.height] = val.split('x').map(Number);
      else if (key === 'seat') { const [n, , d] = val.split(/\s+/); v.seats.push(n); v[`dir_${n}`] = d; }
      else if (key === 'piece') { const [n, l] = val.split(/\s+/); v.pieces.push({ letter: l, name: n }); }
      else if (key === 'blocked') v.blockedSpec = val;
      else if (key === 'option') {
        const [spec, help] = val.split(':');
        const [name, ...values] = spec.trim().split(/\s+/);
        v.options.push({ name, values, default: values[0], help: (help || '').trim() });
      } else if (key === 'start') v.start = val;
    }
    out[v.name] = v;
  }
  return out;
}
const variants = readVariants();

// ---- position text -> pieces ------------------------------------------------
const sq = (f, r) => String.fromCharCode(97 + f) + (r + 1);
const seatOfLetter = { g: 'green', r: 'red', b: 'black', w: 'white' };
function parseFen(variant, fen) {
  const v = variants[variant];
  const pieces = [], blocked = [];
  const name = (l) => (v.pieces.find((p) => p.letter === l) || { name: '?' }).name;
  if (v.seats.length > 2) {
    const fields = fen.split('-');
    const rows = fields[5].split('/');
    rows.forEach((row, i) => {
      const r = v.height - 1 - i; let f = 0;
      for (const tok of row.split(',')) {
        if (/^\d+$/.test(tok)) { f += Number(tok); continue; }
        if (tok === 'x') { blocked.push(sq(f, r)); f++; continue; }
        const seat = seatOfLetter[tok[0]], letter = tok[1];
        const p = { square: sq(f, r), seat, letter, name: name(letter) };
        if (tok[2]) p.dir = tok[2];
        pieces.push(p); f++;
      }
    });
    return { pieces, blocked, toMove: seatOfLetter[fields[0]] };
  }
  const [board, side] = fen.split(' ');
  board.split('/').forEach((row, i) => {
    const r = v.height - 1 - i; let f = 0;
    for (const m of row.matchAll(/\d+|[a-zA-Z*]/g)) {
      const t = m[0];
      if (/^\d+$/.test(t)) { f += Number(t); continue; }
      if (t === '*') { blocked.push(sq(f, r)); f++; continue; }
      const seat = t === t.toUpperCase() ? 'white' : 'black';
      const letter = t.toUpperCase();
      const p = { square: sq(f, r), seat, letter, name: name(letter) };
      if (letter === 'P') p.dir = seat === 'white' ? 'n' : 's';
      pieces.push(p); f++;
    }
  });
  return { pieces, blocked, toMove: side === 'w' ? 'white' : 'black' };
}

// ---- games ------------------------------------------------------------------
const games = new Map();
function cli(cmd, g, extra = []) {
  const a = [cmd, '--variant', g.variant];
  for (const [k, val] of Object.entries(g.options)) a.push('--option', `${k}=${val}`);
  a.push('--moves', g.moves.map((m) => m.uci).join(' '), ...extra);
  return execFileSync(acedrex, a, { encoding: 'utf8' });
}
function refresh(g) {
  const sum = JSON.parse(cli('summary', g, ['--seed', String(g.seed)]));
  const pos = parseFen(g.variant, sum.fen);
  const legal = {};
  if (sum.status === 'ongoing' && !g.result) {
    for (const mv of cli('moves', g).split('\n').map((s) => s.trim()).filter(Boolean)) {
      const from = mv.match(/^[a-p]\d+/)[0];
      (legal[from] ||= []).push(mv);
    }
  }
  g.sum = sum; g.pos = pos; g.legal = legal;
  if (sum.status !== 'ongoing' && !g.result) g.result = { places: sum.places, reason: sum.reason || sum.status };
}
function stateOf(g) {
  const v = variants[g.variant];
  const s = g.sum;
  return {
    id: g.id, variant: g.variant, title: v.title, options: g.options,
    board: { width: v.width, height: v.height, blocked: g.pos.blocked },
    seats: g.seats.map((st) => ({
      seat: st.seat, kind: st.kind, level: st.level, in: (s.in || []).includes(st.seat) && !st.resigned,
      place: (g.result && g.result.places[st.seat]) || s.places[st.seat] || null,
      clockMs: st.clockMs ?? null, connected: st.kind === 'bot' || st.connected > 0,
    })),
    pieces: g.pos.pieces, toMove: g.result ? null : s.to_move,
    status: g.result ? 'finished' : 'ongoing', result: g.result || null,
    lastMove: g.moves.length ? g.moves[g.moves.length - 1].uci : null,
    check: [], legal: g.result ? {} : g.legal, die: s.die || null,
    dieKind: s.die ? ({ 6: 'king', 5: 'ferz', 4: 'rook', 3: 'knight', 2: 'alfil', 1: 'pawn' })[s.die] : null,
    coins: s.coins || null, moves: g.moves, fen: s.fen, v: g.v,
    drawOffer: g.drawOffer || null, you: [], clock: g.clock || null, hotSeat: !!g.hotSeat,
    clockRunning: g.clock && g.moves.length && !g.result ? s.to_move : null, startFen: g.startFen,
  };
}
function frameOf(g) {
  return { ply: g.moves.length, pieces: g.pos.pieces, toMove: g.sum.to_move, lastMove: g.moves.length ? g.moves[g.moves.length - 1].uci : null, check: [], die: g.sum.die || null, coins: g.sum.coins || null, fen: g.sum.fen, in: g.sum.in };
}
function broadcast(g, t = 'state') {
  g.v++;
  for (const ws of g.sockets) {
    if (ws.readyState !== 1) continue;
    ws.send(JSON.stringify({ t: g.result ? 'end' : t, d: { ...stateOf(g), you: ws.you }, v: g.v }));
  }
  scheduleBot(g);
}
function scheduleBot(g) {
  if (g.result) return;
  const seat = g.seats.find((s) => s.seat === g.sum.to_move);
  if (!seat || seat.kind !== 'bot' || g.botTimer) return;
  g.botTimer = setTimeout(() => {
    g.botTimer = null;
    const all = Object.values(g.legal).flat();
    const mv = all.length ? all[Math.floor(Math.random() * all.length)] : '0000';
    play(g, mv);
  }, 250);
}
function play(g, uci) {
  const seat = g.sum.to_move;
  g.moves.push({ uci, seat, die: g.sum.die || null });
  try { refresh(g); } catch (e) { g.moves.pop(); refresh(g); return false; }
  g.drawOffer = null;
  g.frames.push(frameOf(g));
  broadcast(g, 'move');
  return true;
}
function createGame(body) {
  const v = variants[body.variant];
  if (!v) throw new Error('unknown variant');
  const options = {};
  for (const o of v.options) options[o.name] = (body.options || {})[o.name] || o.default;
  const id = crypto.randomBytes(4).toString('hex');
  const plan = body.seats || [];
  const g = {
    id, variant: v.name, options, moves: [], v: 0, sockets: new Set(), seed: body.seed || 1 + Math.floor(Math.random() * 1000),
    clock: body.clock || null, hotSeat: !!(body.hotSeat || body.hotseat), frames: [],
    seats: v.seats.map((s, i) => ({
      seat: s, kind: (plan[i] || {}).kind || 'human', level: (plan[i] || {}).level || null,
      token: crypto.randomBytes(8).toString('hex'), connected: 0,
      clockMs: body.clock ? body.clock.initialMs : null,
    })),
  };
  if (g.hotSeat) { const t = crypto.randomBytes(8).toString('hex'); for (const st of g.seats) if (st.kind === 'human') st.token = t; }
  refresh(g);
  g.startFen = g.sum.fen;
  g.frames.push(frameOf(g));
  games.set(id, g);
  setTimeout(() => scheduleBot(g), 300);
  return g;
}

// ---- HTTP ----------------------------------------------------------------------
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.md': 'text/markdown', '.png': 'image/png', '.ico': 'image/x-icon' };
function send(res, code, obj) {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}
function seatOfToken(g, req) {
  const m = (req.headers.authorization || '').match(/^Bearer (.+)$/);
  return m && g.seats.find((s) => s.token === m[1]);
}
function reach(letter, from, w, h) {
  const f0 = from.charCodeAt(0) - 97, r0 = Number(from.slice(1)) - 1;
  const out = [];
  const add = (df, dr, ride) => {
    for (let k = 1; k < (ride ? 16 : 2); k++) {
      const f = f0 + df * k, r = r0 + dr * k;
      if (f < 0 || r < 0 || f >= w || r >= h) break;
      out.push(sq(f, r));
    }
  };
  const dirs8 = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];
  const leaps = (a, b) => { const s = new Set(); for (const [x, y] of [[a, b], [b, a]]) for (const sx of [1, -1]) for (const sy of [1, -1]) s.add(`${x * sx},${y * sy}`); for (const k of s) { const [x, y] = k.split(',').map(Number); add(x, y, false); } };
  if (letter === 'K') dirs8.forEach(([a, b]) => add(a, b, false));
  else if (letter === 'R') dirs8.slice(0, 4).forEach(([a, b]) => add(a, b, true));
  else if (letter === 'B' || letter === 'C') dirs8.slice(4).forEach(([a, b]) => add(a, b, true));
  else if (letter === 'Q') dirs8.forEach(([a, b]) => add(a, b, true));
  else if (letter === 'N') leaps(1, 2);
  else if (letter === 'A') leaps(2, 2);
  else if (letter === 'F') leaps(1, 1);
  else if (letter === 'E') leaps(0, 2);
  return { moves: out, captures: out, hops: [] };
}
function body(req) {
  return new Promise((resolve) => {
    let b = ''; req.on('data', (c) => { b += c; }); req.on('end', () => resolve(b));
  });
}
const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  const p = url.pathname;
  try {
    if (p === '/api/account') return send(res, 200, { signedIn: false });
    if (p === '/api/variants') {
      return send(res, 200, Object.values(variants).map((v) => ({
        name: v.name, title: v.title, seats: v.seats.map((x) => ({ seat: x, dir: v[`dir_${x}`] })), options: v.options, pieces: v.pieces,
        board: { width: v.width, height: v.height },
      })));
    }
    let m;
    if ((m = p.match(/^\/api\/variant\/([\w-]+)\/piece\/(\w)$/))) {
      const v = variants[m[1]];
      return send(res, 200, reach(m[2], url.searchParams.get('from') || 'e5', v.width, v.height));
    }
    if (p === '/api/game' && req.method === 'POST') {
      const g = createGame(JSON.parse(await body(req)));
      return send(res, 201, {
        id: g.id, url: `/game/${g.id}`,
        seats: g.seats.map((s) => (s.kind === 'human' ? {
          seat: s.seat, token: s.token, inviteUrl: `/game/${g.id}?token=${s.token}`,
        } : { seat: s.seat })),
      });
    }
    if (p === '/api/games') {
      return send(res, 200, [...games.values()].reverse().map((g) => ({ id: g.id, variant: g.variant, title: variants[g.variant].title, status: g.result ? 'finished' : 'ongoing', plies: g.moves.length, seats: g.seats.map((s) => ({ seat: s.seat, kind: s.kind, level: s.level })) })));
    }
    if ((m = p.match(/^\/api\/game\/(\w+)(\/.*)?$/))) {
      const g = games.get(m[1]);
      if (!g) return send(res, 404, { error: 'unknown game' });
      const rest = m[2] || '';
      if (!rest && req.method === 'GET') {
        const tok = ((req.headers.authorization || '').match(/^Bearer (.+)$/) || [])[1] || url.searchParams.get('token');
        return send(res, 200, { ...stateOf(g), you: g.seats.filter((s) => s.token === tok).map((s) => s.seat) });
      }
      if (rest === '/replay') return send(res, 200, { id: g.id, frames: g.frames });
      if (rest === '/pgn') { res.writeHead(200, { 'content-type': 'text/plain' }); return res.end(`[Variant "${g.variant}"]\n\n${g.moves.map((x) => x.uci).join(' ')}\n`); }
      const seat = seatOfToken(g, req);
      if (!seat) return send(res, 403, { error: 'bad token' });
      await body(req);
      if ((m = rest.match(/^\/move\/(\w+)$/))) {
        if (g.sum.to_move !== seat.seat || g.result) return send(res, 409, { error: 'not your turn' });
        const all = Object.values(g.legal).flat();
        if (!all.includes(m[1])) return send(res, 400, { error: 'illegal move' });
        play(g, m[1]);
        return send(res, 200, stateOf(g));
      }
      if (rest === '/resign') {
        seat.resigned = true;
        g.outOrder = [...(g.outOrder || g.sum.out_order || []), seat.seat];
        const left = g.seats.filter((x) => !x.resigned && (g.sum.in || []).includes(x.seat));
        if (left.length === 1) {
          const order = [...new Set([...(g.sum.out_order || []), ...g.outOrder])];
          const places = { [left[0].seat]: 1 };
          order.reverse().forEach((x, i) => { places[x] = i + 2; });
          g.result = { places, reason: 'resign', winner: left[0].seat };
        }
        broadcast(g); return send(res, 200, stateOf(g));
      }
      if ((m = rest.match(/^\/draw\/(offer|accept|decline)$/))) {
        if (m[1] === 'offer') g.drawOffer = seat.seat;
        else if (m[1] === 'accept' && g.drawOffer && g.drawOffer !== seat.seat) g.result = { places: Object.fromEntries(g.seats.map((s) => [s.seat, 1])), reason: 'agreement' };
        else g.drawOffer = null;
        broadcast(g); return send(res, 200, stateOf(g));
      }
      if (rest === '/takeback') {
        let n = 0;
        while (g.moves.length && (n === 0 || g.moves[g.moves.length - 1].seat !== seat.seat)) { g.moves.pop(); n++; }
        if (g.moves.length && g.moves[g.moves.length - 1].seat === seat.seat) g.moves.pop();
        g.result = null; refresh(g); g.frames.length = g.moves.length + 1; broadcast(g); return send(res, 200, stateOf(g));
      }
      return send(res, 404, { error: 'unknown' });
    }
    // static files
    let file = p === '/' || !path.extname(p) ? '/index.html' : p;
    const base = file.startsWith('/docs/') ? root : webDir;
    const full = path.join(base, path.normalize(file));
    if (!full.startsWith(base) || !fs.existsSync(full) || fs.statSync(full).isDirectory()) return send(res, 404, { error: 'not found' });
    res.writeHead(200, { 'content-type': types[path.extname(full)] || 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(full).pipe(res);
  } catch (e) {
    send(res, 500, { error: String(e.message || e) });
  }
});
const wss = new WebSocketServer({ noServer: true });
server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url, 'http://x');
  const m = url.pathname.match(/^\/ws\/game\/(\w+)$/);
  const g = m && games.get(m[1]);
  if (!g) { socket.destroy(); return; }
  wss.handleUpgrade(req, socket, head, (ws) => {
    const tok = url.searchParams.get('token');
    const seat = g.seats.find((s) => s.token === tok);
    ws.you = g.seats.filter((s) => s.token === tok).map((s) => s.seat);
    if (seat) seat.connected++;
    g.sockets.add(ws);
    if (seat) setTimeout(() => broadcast(g), 50);
    ws.send(JSON.stringify({ t: 'state', d: { ...stateOf(g), you: ws.you }, v: g.v }));
    ws.on('message', (data) => {
      let msg; try { msg = JSON.parse(String(data)); } catch { return; }
      if (msg.t === 'ping') ws.send(JSON.stringify({ t: 'pong' }));
      if (msg.t === 'move' && seat && g.sum.to_move === seat.seat) {
        if (Object.values(g.legal).flat().includes(msg.d.uci)) play(g, msg.d.uci);
        else ws.send(JSON.stringify({ t: 'error', d: { message: 'illegal move' } }));
      }
    });
    ws.on('close', () => { g.sockets.delete(ws); if (seat) { seat.connected--; broadcast(g); } });
  });
});
server.listen(port, '127.0.0.1', () => console.log(`mock server on http://127.0.0.1:${port}`));

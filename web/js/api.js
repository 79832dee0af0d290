// The client side of the Acedrex API (docs/api.md): REST calls with seat
// tokens, and a WebSocket that delivers the game's state and reconnects.
import { guestName } from './players.js';

export class ApiError extends Error {
  // retryAfterMs: the wait a refusal names (429, 503), else undefined
  constructor(status, message, retryAfterMs) { super(message); this.status = status; this.retryAfterMs = retryAfterMs; }
}

async function request(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!res.ok) {
    const msg = (data && (data.error || data.message)) || (typeof data === 'string' && data) || res.statusText;
    const after = (data && typeof data === 'object' && data.retryAfterMs) || Number(res.headers.get('Retry-After')) * 1000 || undefined;
    throw new ApiError(res.status, typeof msg === 'object' ? JSON.stringify(msg) : msg, after);
  }
  return data;
}

export const api = {
  variants: () => request('GET', '/api/variants'),
  games: (status = 'all') => request('GET', `/api/games?status=${status}&limit=30`),
  // A signed-in browser's games carry its account's name (the cookie); a guest's its guest name, if any.
  create: (spec) => request('POST', '/api/game', { body: guestName() && !spec.name ? { ...spec, name: guestName() } : spec }),
  // Takes a free seat of a game listed publicly (`seat` optional): {id, seat, token, url}.
  join: (id, seat) => {
    const q = new URLSearchParams();
    if (seat) q.set('seat', seat);
    if (guestName()) q.set('name', guestName());
    return request('POST', `/api/game/${encodeURIComponent(id)}/join${q.toString() ? `?${q}` : ''}`);
  },
  state: (id, ply) => request('GET', `/api/game/${encodeURIComponent(id)}${ply === undefined ? '' : `?ply=${ply}`}`),
  reach: (variant, letter, from, extra = '') =>
    request('GET', `/api/variant/${encodeURIComponent(variant)}/piece/${encodeURIComponent(letter)}?from=${from}${extra}`),
  move: (id, uci, token) => request('POST', `/api/game/${encodeURIComponent(id)}/move/${encodeURIComponent(uci)}`, { token }),
  resign: (id, token) => request('POST', `/api/game/${encodeURIComponent(id)}/resign`, { token }),
  draw: (id, action, token) => request('POST', `/api/game/${encodeURIComponent(id)}/draw/${action}`, { token }),
  takeback: (id, token) => request('POST', `/api/game/${encodeURIComponent(id)}/takeback`, { token }),
  // Between people: offer, accept or decline a takeback.
  takebackAction: (id, action, token) => request('POST', `/api/game/${encodeURIComponent(id)}/takeback/${action}`, { token }),
  pgnUrl: (id) => `/api/game/${encodeURIComponent(id)}/pgn`,
  // The bot's evaluation of a position (finished games' analysis board).
  analyse: (variant, options, fen) => request('POST', '/api/analyse', { body: { variant, options: options || {}, fen } }),
  // A position's legal moves, or the position after `move` with its own (the analysis board's side lines).
  position: (variant, options, fen, move) => request('POST', '/api/position', { body: { variant, options: options || {}, fen, ...(move ? { move } : {}) } }),
};

// A WebSocket to one game. Calls onState(state, fresh) for every state the server
// sends, onStatus('open'|'closed'|'reconnecting') on changes, and reconnects
// with a growing delay; each new connection starts with a full state, so a
// reconnection restores everything. The server sends a change as a delta
// (docs/api.md, "Deltas") when this socket holds the version before it: the
// socket keeps the last full state, applies a delta whose `from` is its
// version and hands on the new full state (a new object each time); a delta
// that does not fit asks for a full state (`sync`) and is never shown.
export class GameSocket {
  constructor(id, token, { onState, onStatus, onMessage } = {}) {
    this.id = id;
    this.token = token;
    this.onState = onState || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onMessage = onMessage || (() => {});
    this.delay = 500;
    this.closed = false;
    this.lastV = -1;
    this.state = null;  // the last full state this socket holds
    this.deltas = 0;    // deltas applied (the e2e tests read it)
    this.syncing = false;
    this.connect();
  }
  // A delta on the state held: the new full state, or null when it does not fit.
  static applyDelta(base, d) {
    if (!base || typeof base.v !== 'number' || d.from !== base.v || !Array.isArray(base.moves)) return null;
    const next = { ...base };
    for (const [k, val] of Object.entries(d)) if (k !== 'type' && k !== 'from' && k !== 'append') next[k] = val;
    next.moves = base.moves.concat(Array.isArray(d.append) ? d.append : []);
    return next;
  }
  // A delta that does not fit: ask for the full state once (a reconnection if the socket cannot).
  resync(ws) {
    if (this.syncing) return;
    this.syncing = true;
    if (!this.send('sync')) ws.close();
  }
  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    return `${proto}//${location.host}/ws/game/${encodeURIComponent(this.id)}${q}`;
  }
  connect() {
    if (this.closed) return;
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.retry(); return; }
    this.ws = ws;
    let first = true;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus('open');
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send('ping'), 20000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && (msg.t === 'state' || msg.t === 'move' || msg.t === 'end') && msg.d) {
        this.lastV = msg.v !== undefined ? msg.v : (msg.d.v !== undefined ? msg.d.v : this.lastV);
        this.state = msg.d;
        this.syncing = false;
        // the first state of a connection is the truth, even if its version is
        // lower than what the page had (a server that restarted)
        this.onState(msg.d, first);
        first = false;
      } else if (msg && msg.t === 'delta' && msg.d) {
        // one this socket already holds (a sync reply came first): nothing to do
        if (!first && this.state && typeof msg.d.v === 'number' && msg.d.v <= this.state.v) return;
        const next = first ? null : GameSocket.applyDelta(this.state, msg.d);
        if (!next) { this.resync(ws); return; }
        this.state = next;
        this.lastV = next.v;
        this.deltas++;
        this.onState(next, false);
      } else if (msg) {
        this.onMessage(msg);
      }
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws === ws) this.retry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }
  retry() {
    if (this.closed) return;
    this.onStatus('reconnecting');
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 8000);
  }
  send(t, d) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(d === undefined ? { t } : { t, d }));
      return true;
    }
    return false;
  }
  close() {
    this.closed = true;
    clearInterval(this.pinger);
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}

// Seat tokens this browser holds, per game: {seat: token}.
export const tokens = {
  load(id) {
    try { return JSON.parse(localStorage.getItem(`acedrex.tokens.${id}`)) || {}; } catch { return {}; }
  },
  save(id, map) {
    try { localStorage.setItem(`acedrex.tokens.${id}`, JSON.stringify(map)); } catch { /* private mode */ }
    if (Object.keys(map).length) myGames.add(id);
  },
  add(id, seat, token) {
    const m = tokens.load(id);
    m[seat] = token;
    tokens.save(id, m);
    return m;
  },
};

// The games this browser holds a seat in, newest first: [{id, at}] ("my games").
export const myGames = {
  list() {
    try { return JSON.parse(localStorage.getItem('acedrex.mygames')) || []; } catch { return []; }
  },
  add(id) {
    const l = myGames.list();
    if (l.some((g) => g.id === id)) return;
    l.unshift({ id, at: Date.now() });
    try { localStorage.setItem('acedrex.mygames', JSON.stringify(l.slice(0, 50))); } catch { /* private mode */ }
  },
  // Games whose tokens were kept before this list existed.
  fromTokens() {
    const out = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k && k.startsWith('acedrex.tokens.')) out.push(k.slice('acedrex.tokens.'.length));
      }
    } catch { /* private mode */ }
    return out;
  },
};

// The groups of the catalogue (the seeds' "More games" list), in the order the
// lobby and the rules page's navigation show them.
export const CATALOGUE_GROUPS = ['alfonso', 'chess', 'family', 'more-players', 'other'];
export const catalogueGroup = (v) => (CATALOGUE_GROUPS.includes(v.group) ? v.group : 'other');

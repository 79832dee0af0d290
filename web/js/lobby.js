// The lobby: choose a game, its rule options, who sits where, a clock; create
// the game; hand out the invitation links; list games to watch.
import { api, tokens } from './api.js';

const $ = (id) => document.getElementById(id);
let variants = [];
let current = null;

const seatName = (s) => (typeof s === 'string' ? s : s.seat || s.name);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== undefined && v !== null) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function describe(v) {
  const n = (v.seats || []).length;
  const b = v.board ? `${v.board.width}×${v.board.height}, ` : '';
  return `${b}${n} players`;
}

function renderVariants() {
  const box = $('variants');
  box.replaceChildren();
  for (const v of variants) {
    const input = h('input', { type: 'radio', name: 'variant', value: v.name, id: `v-${v.name}` });
    input.checked = current && current.name === v.name;
    input.addEventListener('change', () => choose(v.name));
    box.append(h('label', { for: `v-${v.name}`, class: current && current.name === v.name ? 'chosen' : '' },
      input, h('b', {}, v.title || v.name),
      h('span', { class: 'sub' }, describe(v), ' · ', h('a', { href: `/rules.html?variant=${v.name}`, target: '_blank' }, 'rules'))));
  }
}

function renderOptions() {
  const box = $('options');
  box.replaceChildren();
  const opts = current.options || [];
  if (!opts.length) box.append(h('p', { class: 'muted' }, 'This game has no rule options.'));
  for (const o of opts) {
    const sel = h('select', { name: `opt-${o.name}`, id: `opt-${o.name}`, 'data-option': o.name });
    for (const val of o.values) sel.append(h('option', { value: val, selected: val === o.default }, val + (val === o.default ? ' (default)' : '')));
    box.append(h('div', { class: 'opt' }, h('label', { for: `opt-${o.name}` }, h('b', {}, o.name)), sel, h('div', { class: 'help' }, o.help || '')));
  }
}

function renderSeats() {
  const box = $('seatplan');
  box.replaceChildren();
  (current.seats || []).forEach((s, i) => {
    const name = seatName(s);
    const kind = h('select', { 'data-seat-kind': name, id: `seat-${name}` },
      h('option', { value: 'human', selected: i === 0 }, 'Human'),
      h('option', { value: 'bot', selected: i !== 0 }, 'Bot'));
    const level = h('select', { 'data-seat-level': name, id: `level-${name}` });
    for (let l = 1; l <= 9; l++) level.append(h('option', { value: l, selected: l === 3 }, `level ${l}`));
    const sync = () => { level.disabled = kind.value !== 'bot'; level.style.visibility = kind.value === 'bot' ? 'visible' : 'hidden'; };
    kind.addEventListener('change', sync);
    sync();
    box.append(h('div', { class: `seat seat-${name}` }, h('span', { class: 'chip' }), h('span', { class: 'name' }, name), kind, level));
  });
}

function choose(name) {
  current = variants.find((v) => v.name === name) || variants[0];
  renderVariants();
  renderOptions();
  renderSeats();
  const url = new URL(location.href);
  url.searchParams.set('variant', current.name);
  history.replaceState(null, '', url);
}

function gameUrl(id, seat, token) {
  const q = new URLSearchParams({ id });
  if (seat) q.set('seat', seat);
  if (token) q.set('token', token);
  return `${location.origin}/game.html?${q}`;
}

async function create(ev) {
  ev.preventDefault();
  $('create-error').textContent = '';
  const options = {};
  for (const sel of document.querySelectorAll('[data-option]')) options[sel.dataset.option] = sel.value;
  const seats = (current.seats || []).map((s) => {
    const name = seatName(s);
    const kind = document.querySelector(`[data-seat-kind="${name}"]`).value;
    const level = Number(document.querySelector(`[data-seat-level="${name}"]`).value);
    return kind === 'bot' ? { seat: name, kind, level } : { seat: name, kind };
  });
  const spec = { variant: current.name, options, seats };
  // `/?seed=N` seeds the game's die and its bots' noise, so a game can be played again throw for throw.
  // The server checks it: a malformed seed is refused with its error, shown below the button.
  const seed = new URLSearchParams(location.search).get('seed');
  if (seed !== null) spec.seed = seed;
  if ($('clock-on').checked) {
    spec.clock = { initialMs: Math.round(Number($('clock-min').value) * 60000), incrementMs: Math.round(Number($('clock-inc').value) * 1000) };
  }
  const hotseat = $('hotseat').checked;
  if (hotseat) spec.hotSeat = true;
  $('create-btn').disabled = true;
  let res;
  try {
    res = await api.create(spec);
  } catch (e) {
    $('create-error').textContent = `Could not create the game: ${e.message}`;
    $('create-btn').disabled = false;
    return;
  }
  $('create-btn').disabled = false;
  const humans = (res.seats || []).filter((s) => s.token);
  if (!humans.length) {           // bots only: watch
    location.href = gameUrl(res.id);
    return;
  }
  if (hotseat || humans.length === 1) {
    const map = {};
    for (const s of hotseat ? humans : humans.slice(0, 1)) map[s.seat] = s.token;
    tokens.save(res.id, map);
    location.href = gameUrl(res.id, humans[0].seat, humans[0].token);
    return;
  }
  // Several people: the creator sits in the first human seat, the others get links.
  tokens.save(res.id, { [humans[0].seat]: humans[0].token });
  const list = $('invite-list');
  list.replaceChildren();
  humans.forEach((s, i) => {
    const url = gameUrl(res.id, s.seat, s.token);
    const input = h('input', { type: 'text', readonly: true, value: url, 'data-invite': s.seat });
    const copy = h('button', { type: 'button', onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(url).catch(() => {}); } }, 'Copy');
    list.append(h('div', { class: `invite seat-${s.seat}` }, h('span', { class: 'chip' }), h('b', { style: 'width:60px;text-transform:capitalize' }, s.seat),
      input, copy, i === 0 ? h('a', { class: 'button primary', href: url, 'data-play': s.seat }, 'Play this seat') : null));
  });
  list.append(h('p', {}, 'Watch: ', h('a', { href: gameUrl(res.id), 'data-watch': res.id }, gameUrl(res.id))));
  $('invites').hidden = false;
  $('invites').scrollIntoView({ behavior: 'smooth' });
  loadGames();
}

async function loadGames() {
  const box = $('games');
  let games;
  try { games = await api.games('all'); } catch { return; }
  const list = Array.isArray(games) ? games : (games && games.games) || [];
  if (!list.length) return;
  box.replaceChildren();
  const ongoing = list.filter((g) => g.status !== 'finished');
  const finished = list.filter((g) => g.status === 'finished');
  for (const [label, gs] of [['Being played', ongoing], ['Finished (replay)', finished]]) {
    if (!gs.length) continue;
    box.append(h('div', { class: 'muted' }, label));
    for (const g of gs.slice(0, 15)) {
      const plies = g.plies ?? (Array.isArray(g.moves) ? g.moves.length : g.moves);
      const who = (g.seats || []).map((x) => (x.kind === 'bot' ? `bot ${x.level}` : 'human')).join(' · ');
      box.append(h('a', { href: gameUrl(g.id), 'data-game': g.id }, `${g.title || g.variant}${plies !== undefined ? ` · ${plies} plies` : ''}`,
        who ? h('span', { class: 'muted' }, ` (${who})`) : null));
    }
  }
}

async function main() {
  $('create').addEventListener('submit', create);
  $('watch').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = $('watch-id').value.trim();
    if (id) location.href = gameUrl(id);
  });
  try {
    variants = await api.variants();
    if (!Array.isArray(variants)) variants = variants.variants || [];
  } catch (e) {
    $('variants').replaceChildren(h('span', { class: 'error' }, `Cannot reach the server: ${e.message}`));
    return;
  }
  const want = new URLSearchParams(location.search).get('variant');
  choose(want && variants.some((v) => v.name === want) ? want : variants[0].name);
  loadGames();
  setInterval(loadGames, 15000);
  document.body.dataset.ready = '1';
}
main();

// The lobby: choose a game, its rule options, who sits where, a clock; create
// the game; hand out the invitation links; list games to watch.
import { api, tokens, myGames } from './api.js';
import { t, seatName, translatePage, languageSwitch, lang, optionName, optionValue, optionHelp } from './i18n.js';
import './prefs.js';

const $ = (id) => document.getElementById(id);
let variants = [];
let current = null;

const seatKey = (s) => (typeof s === 'string' ? s : s.seat || s.name);
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
  return `${b}${t('lobby.players', { n })}`;
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
      h('span', { class: 'sub' }, describe(v), ' · ', h('a', { href: `/rules.html?variant=${v.name}`, target: '_blank' }, t('lobby.rulesLink')))));
  }
}

function renderOptions() {
  const box = $('options');
  box.replaceChildren();
  const opts = current.options || [];
  if (!opts.length) box.append(h('p', { class: 'muted' }, t('lobby.noOptions')));
  for (const o of opts) {
    const sel = h('select', { name: `opt-${o.name}`, id: `opt-${o.name}`, 'data-option': o.name });
    for (const val of o.values) sel.append(h('option', { value: val, selected: val === o.default }, optionValue(val) + (val === o.default ? ` ${t('lobby.default')}` : '')));
    box.append(h('div', { class: 'opt' }, h('label', { for: `opt-${o.name}` }, h('b', {}, optionName(o.name))), sel, h('div', { class: 'help' }, optionHelp(current.name, o))));
  }
}

function renderSeats() {
  const box = $('seatplan');
  box.replaceChildren();
  (current.seats || []).forEach((s, i) => {
    const name = seatKey(s);
    const kind = h('select', { 'data-seat-kind': name, id: `seat-${name}` },
      h('option', { value: 'human', selected: i === 0 }, t('lobby.human')),
      h('option', { value: 'bot', selected: i !== 0 }, t('lobby.bot')));
    const level = h('select', { 'data-seat-level': name, id: `level-${name}` });
    for (let l = 1; l <= 9; l++) level.append(h('option', { value: l, selected: l === 3 }, t('lobby.level', { n: l })));
    const sync = () => { level.disabled = kind.value !== 'bot'; level.style.visibility = kind.value === 'bot' ? 'visible' : 'hidden'; };
    kind.addEventListener('change', sync);
    sync();
    box.append(h('div', { class: `seat seat-${name}` }, h('span', { class: 'chip' }), h('span', { class: 'name' }, seatName(name)), kind, level));
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
    const name = seatKey(s);
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
    $('create-error').textContent = t('lobby.createFailed', { error: e.message });
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
    const copy = h('button', { type: 'button', onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(url).catch(() => {}); } }, t('lobby.copy'));
    list.append(h('div', { class: `invite seat-${s.seat}` }, h('span', { class: 'chip' }), h('b', { style: 'width:60px' }, seatName(s.seat)),
      input, copy, i === 0 ? h('a', { class: 'button primary', href: url, 'data-play': s.seat }, t('lobby.playSeat')) : null));
  });
  list.append(h('p', {}, `${t('lobby.watch')}: `, h('a', { href: gameUrl(res.id), 'data-watch': res.id }, gameUrl(res.id))));
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
  for (const [label, gs] of [[t('lobby.beingPlayed'), ongoing], [t('lobby.finished'), finished]]) {
    if (!gs.length) continue;
    box.append(h('div', { class: 'muted' }, label));
    for (const g of gs.slice(0, 15)) {
      const plies = g.plies ?? (Array.isArray(g.moves) ? g.moves.length : g.moves);
      const who = (g.seats || []).map((x) => (x.kind === 'bot' ? t('lobby.botN', { n: x.level }) : t('lobby.humanShort'))).join(' · ');
      box.append(h('a', { href: gameUrl(g.id), 'data-game': g.id, 'data-plies': plies ?? '' }, `${g.title || g.variant}${plies !== undefined && plies !== null ? ` · ${t('lobby.plies', { n: plies })}` : ''}`,
        who ? h('span', { class: 'muted' }, ` (${who})`) : null));
    }
  }
}

// One click against the computer: the first seat human, bots of level 3, default rules.
async function quickPlay(v) {
  const seats = (v.seats || []).map((s, i) => (i === 0 ? { seat: seatKey(s), kind: 'human' } : { seat: seatKey(s), kind: 'bot', level: 3 }));
  const spec = { variant: v.name, seats };
  const seed = new URLSearchParams(location.search).get('seed');
  if (seed !== null) spec.seed = seed;
  let res;
  try { res = await api.create(spec); } catch (e) { $('quick-error').textContent = t('lobby.createFailed', { error: e.message }); return; }
  const me = (res.seats || []).find((s) => s.token);
  tokens.save(res.id, { [me.seat]: me.token });
  location.href = `/game.html?id=${encodeURIComponent(res.id)}`;
}

function renderQuick() {
  const box = $('quick-list');
  box.replaceChildren(...variants.map((v) => h('button', { type: 'button', class: 'primary', 'data-quick': v.name, onclick: () => quickPlay(v) }, v.title || v.name)),
    h('span', { id: 'quick-error', class: 'error' }));
}

// The games this browser holds a seat in, with their dates.
async function loadMyGames() {
  const list = myGames.list();
  for (const gid of myGames.fromTokens()) if (!list.some((g) => g.id === gid)) list.push({ id: gid, at: null });
  if (!list.length) return;
  const box = $('my-games');
  const rows = await Promise.all(list.slice(0, 20).map(async (g) => {
    try { return { ...g, s: await api.state(g.id) }; } catch { return null; }
  }));
  const fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  box.replaceChildren();
  for (const r of rows) {
    if (!r) continue;
    const held = Object.keys(tokens.load(r.id));
    const status = r.s.status === 'finished' ? t('lobby.finishedShort') : t('lobby.ongoingShort');
    box.append(h('a', { href: gameUrl(r.id), 'data-my-game': r.id },
      `${r.s.title || r.s.variant} · ${held.map(seatName).join(', ')} · ${status} · ${t('lobby.plies', { n: r.s.moves.length })}`,
      r.at ? h('span', { class: 'muted' }, ` · ${fmt.format(new Date(r.at))}`) : null));
  }
  $('mine-card').hidden = !box.children.length;
}

async function main() {
  translatePage();
  $('lang-slot').append(languageSwitch());
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
    $('variants').replaceChildren(h('span', { class: 'error' }, t('lobby.noServer', { error: e.message })));
    return;
  }
  const want = new URLSearchParams(location.search).get('variant');
  choose(want && variants.some((v) => v.name === want) ? want : variants[0].name);
  renderQuick();
  loadMyGames();
  loadGames();
  setInterval(loadGames, 15000);
  document.body.dataset.ready = '1';
}
main();

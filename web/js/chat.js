// The game page's chat (docs/api.md, "Chat"): the players' room for the
// holders of a seat, the watchers' room for everyone else (written by
// signed-in accounts). Lines are shown with textContent only, never as HTML.
// The player may hide it (remembered in this browser). Polls for new lines.
import { h } from './dom.js';
import { t } from './i18n.js';
import { tokens } from './api.js';
import { account } from './account.js';

const HIDE_KEY = 'acedrex.chatHidden';
const POLL_MS = 2000;
const MAX = 140;

const id = new URLSearchParams(location.search).get('id');
const card = document.getElementById('chat-card');

function hidden() { try { return localStorage.getItem(HIDE_KEY) === '1'; } catch { return false; } }
function setHidden(v) { try { localStorage.setItem(HIDE_KEY, v ? '1' : '0'); } catch { /* private mode */ } }

async function start() {
  if (!card || !id) return;
  // The first token this browser holds for the game; the server says whether it still holds a seat.
  let token = Object.values(tokens.load(id))[0] || '';
  let room = token ? 'players' : 'watchers';
  let last = 0;
  const me = await account();
  const list = h('div', { class: 'chat-lines', id: 'chat-lines', role: 'log', 'aria-live': 'polite' });
  const input = h('input', { type: 'text', id: 'chat-input', maxlength: String(MAX), autocomplete: 'off',
    placeholder: t('chat.placeholder') });
  const error = h('p', { class: 'error', id: 'chat-error' });
  const title = h('h2', { style: 'margin-top:0' });
  const toggle = h('button', { type: 'button', id: 'chat-toggle', class: 'linklike' });
  const body = h('div', { id: 'chat-body' }, list,
    h('form', { class: 'chat-form', id: 'chat-form', onsubmit: send }, input,
      h('button', { type: 'submit', id: 'chat-send' }, t('chat.send'))), error);
  const headers = () => (room === 'players' && token ? { Authorization: `Bearer ${token}` } : {});

  function show() {
    const off = hidden();
    body.hidden = off;
    toggle.textContent = off ? t('chat.show') : t('chat.hide');
    title.textContent = room === 'players' ? t('chat.players') : t('chat.watchers');
    const canWrite = room === 'players' || me.signedIn;
    input.disabled = !canWrite;
    input.placeholder = canWrite ? t('chat.placeholder') : t('chat.signInToTalk');
  }
  toggle.addEventListener('click', () => { setHidden(!hidden()); show(); });

  function append(lines) {
    for (const l of lines) {
      last = Math.max(last, l.n);
      const author = h('b', { class: l.seat ? `seat-${l.seat}` : '' });
      author.textContent = l.author;
      const text = h('span', { class: 'chat-text' });
      text.textContent = l.text;   // text only: never parsed as HTML
      list.append(h('div', { class: 'chat-line', 'data-n': String(l.n) }, author, ': ', text));
    }
    if (lines.length) list.scrollTop = list.scrollHeight;
  }

  async function poll() {
    const held = Object.values(tokens.load(id))[0] || '';
    if (held && held !== token) {  // the game page confirmed (or was given) a seat's token meanwhile
      token = held;
      room = 'players';
      last = 0;
      list.replaceChildren();
      show();
    }
    try {
      const r = await fetch(`/api/game/${encodeURIComponent(id)}/chat/${room}?after=${last}`, { headers: headers() });
      if ((r.status === 401 || r.status === 403) && room === 'players') {  // the token no longer holds a seat
        room = 'watchers';
        show();
        return;
      }
      if (r.ok) append((await r.json()).lines || []);
    } catch { /* the next poll tries again */ }
  }

  async function send(ev) {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    error.textContent = '';
    try {
      const r = await fetch(`/api/game/${encodeURIComponent(id)}/chat/${room}`, {
        method: 'POST', headers: { ...headers(), 'Content-Type': 'application/json' }, body: JSON.stringify({ text }),
      });
      const data = await r.json().catch(() => ({}));
      if (!r.ok) { error.textContent = r.status === 429 ? t('chat.tooFast') : data.error || r.statusText; return; }
      input.value = '';
      await poll();
    } catch (e) {
      error.textContent = e.message;
    }
  }

  card.replaceChildren(h('div', { class: 'chat-head' }, title, toggle), body);
  card.hidden = false;
  show();
  await poll();
  setInterval(poll, POLL_MS);
}

start();

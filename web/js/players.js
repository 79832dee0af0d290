// Who plays: the names and ratings the server gives each seat (docs/api.md,
// "Players"), and this browser's guest name (kept in localStorage) for the
// games it creates or joins without an account.
import { h } from './dom.js';

const GUEST_KEY = 'acedrex.guestName';
export const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{1,19}$/;

export function guestName() {
  try { const n = localStorage.getItem(GUEST_KEY) || ''; return NAME_RE.test(n) ? n : ''; } catch { return ''; }
}
export function setGuestName(name) {
  try {
    if (name) localStorage.setItem(GUEST_KEY, name);
    else localStorage.removeItem(GUEST_KEY);
  } catch { /* private mode */ }
}

// "1512" or "1500?" (provisional), "" without a rating.
export const ratingText = (s) => (s && s.rating ? `${s.rating}${s.provisional ? '?' : ''}` : '');

// A seat's player as text: "Alice (1512)", "Guest_1", or "" when unnamed.
export function playerText(s) {
  if (!s || !s.name) return '';
  const r = ratingText(s);
  return r ? `${s.name} (${r})` : s.name;
}

// A seat's player as elements: an account's name links to its page; the rating beside it.
export function playerNode(s) {
  if (!s || !s.name) return null;
  const name = s.account
    ? h('a', { class: 'player', href: `/player.html?name=${encodeURIComponent(s.name)}`, 'data-player': s.name }, s.name)
    : h('span', { class: 'player guest', 'data-player': s.name }, s.name);
  const r = ratingText(s);
  return h('span', { class: 'player-line' }, name, r ? h('span', { class: 'rating muted', 'data-rating': s.name }, ` (${r})`) : null);
}

// Names the seats this browser holds that have no name yet (an invitation's
// holder): the signed-in account's name, else the guest name, if any.
export async function nameHeldSeats(id, state, held) {
  const unnamed = (state && state.seats ? state.seats : []).filter((s) => held[s.seat] && s.kind === 'human' && !s.name && !s.rated);
  if (!unnamed.length) return;
  let signedIn = false;
  try { signedIn = (await (await fetch('/api/account')).json()).signedIn === true; } catch { signedIn = false; }
  const name = guestName();
  if (!signedIn && !name) return;
  const token = held[unnamed[0].seat];
  try {
    await fetch(`/api/game/${encodeURIComponent(id)}/name`, {
      method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(signedIn ? {} : { name }),
    });
  } catch { /* the seat stays unnamed */ }
}

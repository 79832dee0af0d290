// A player's page (player.html?name=NAME): the account's ratings per game and
// its recent games with their results (GET /api/player/{name}).
import { h } from './dom.js';
import { t, gameTitle, seatName, translatePage, languageSwitch } from './i18n.js';
import { playerText } from './players.js';

const $ = (id) => document.getElementById(id);
const name = new URLSearchParams(location.search).get('name') || '';

function outcome(g, seat) {
  if (g.status !== 'finished' || !g.result) return t('player.ongoing');
  if (g.result.reason === 'aborted') return t('player.aborted');
  const place = g.result.places ? g.result.places[seat.seat] : undefined;
  const firsts = Object.values(g.result.places || {}).filter((p) => p === 1).length;
  if (place === 1 && firsts > 1) return t('player.draw');
  if (place === 1) return t('player.won');
  return t('player.lost');
}

function render(p) {
  document.title = `${p.name} · Acedrex`;
  $('player-name').textContent = p.name;
  $('player-since').textContent = t('player.since', { date: new Date(p.createdMs).toLocaleDateString() });
  const table = $('player-ratings');
  table.replaceChildren();
  if (!p.ratings.length) table.append(h('tr', {}, h('td', { class: 'muted' }, t('player.noRatings'))));
  for (const r of p.ratings) {
    table.append(h('tr', { 'data-rating-variant': r.variant },
      h('td', {}, gameTitle(r.variant, r.variant)),
      h('td', { class: 'rating', 'data-rating': String(r.rating) }, `${r.rating}${r.provisional ? '?' : ''}`),
      h('td', { class: 'muted' }, `± ${r.deviation}`),
      h('td', { class: 'muted' }, t('player.nGames', { n: r.games }))));
  }
  const games = $('player-games');
  games.replaceChildren();
  if (!p.games.length) games.append(h('span', { class: 'muted' }, t('player.noGames')));
  for (const g of p.games) {
    const me = g.seats.find((s) => s.account && s.name === p.name) || g.seats[0];
    const others = g.seats.filter((s) => s !== me)
      .map((s) => (s.kind === 'bot' ? t('lobby.botN', { n: s.level }) : playerText(s) || t('lobby.humanShort')));
    games.append(h('div', { class: 'player-game', 'data-game': g.id },
      h('a', { href: `/game/${encodeURIComponent(g.id)}` }, gameTitle(g.variant, g.title)),
      ' · ', seatName(me.seat), ' ', t('player.against'), ' ', others.join(', '),
      g.seats.some((s) => s.rated) ? ` · ${t('lobby.rated')}` : '',
      ' · ', h('b', { 'data-outcome': '' }, outcome(g, me))));
  }
}

async function load() {
  translatePage();
  $('lang-slot').append(languageSwitch());
  const res = await fetch(`/api/player/${encodeURIComponent(name)}`);
  if (!res.ok) {
    $('player-name').textContent = name;
    $('player-error').textContent = t('player.unknown');
    return;
  }
  render(await res.json());
}

load();

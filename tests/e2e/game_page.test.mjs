// The game page as a new user meets it (issue 24, "Seen on today's pages"):
// the board fits the window, one-click play against the computer, links with
// bad tokens, the move list's notation, draws against bots, take back only
// when it applies, every seat's last move in four-player games, lost turns,
// the result panel and a rematch, hot seat turning, colour-blind shapes, the
// phone layout, and the rules pages' diagrams.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, clickMove, fetchState, waitFor, outDir } from './lib.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.stop(); });

async function create(spec) {
  const r = await fetch(`${server.base}/api/game`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(spec) });
  assert.ok(r.ok, await r.clone().text());
  return r.json();
}
const heldTokens = (page, id) => page.evaluate((gid) => JSON.parse(localStorage.getItem(`acedrex.tokens.${gid}`) || '{}'), id);
const banner = (page) => page.locator('#banner').textContent();
// The lobby's one-click game against the computer; the page is then on the game.
async function quickPlay(page, variant) {
  await page.goto(`${server.base}/`);
  await page.waitForSelector('body[data-ready="1"]');
  await Promise.all([page.waitForURL(/game/), page.locator(`[data-quick="${variant}"]`).click()]);
  await page.waitForSelector('body[data-ready="1"]');
}

test('one click against the computer; the board fits 1280x800; notation, draw, take back, my games', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await quickPlay(page, 'grant-acedrex');
  const url = new URL(page.url());
  const id = url.searchParams.get('id');
  assert.equal(url.searchParams.get('token'), null, 'no token in the address bar');
  const held = await heldTokens(page, id);
  assert.deepEqual(Object.keys(held), ['white']);
  const s0 = await fetchState(server.base, id, held.white);
  assert.equal(s0.seats[1].kind, 'bot');
  assert.equal(s0.seats[1].level, 3);
  // Grant Acedrex's 12x12 board: its first rank, its file letters and the turn cue are on screen.
  const svg = await page.locator('#board svg').boundingBox();
  assert.ok(svg.y + svg.height <= 800, `the board ends at ${svg.y + svg.height}`);
  const a1 = await page.locator('#board [data-sq="a1"]').boundingBox();
  assert.ok(a1.y + a1.height < 800 - 20, 'the first rank and the file letters below it are visible');
  const status = await page.locator('#status').boundingBox();
  assert.ok(status.y >= 0 && status.y + status.height <= 800);
  assert.match(await page.locator('#status').textContent(), /Your move/);
  await page.screenshot({ path: `${outDir}/grant-1280x800.png` });
  // nothing to take back yet; a bot declines a draw and says so
  assert.equal(await page.locator('#takeback').count(), 0, 'no take back before a move');
  await page.locator('#draw-offer').click();
  await page.waitForFunction(() => /declines the draw/.test(document.getElementById('banner').textContent));
  // a move: SAN in the list by default, coordinates on request, remembered
  await clickMove(page, 'e4', 'e5');
  await waitFor(async () => (await fetchState(server.base, id)).moves.length >= 2, { what: 'the bot to answer' });
  await page.waitForSelector('#moves td[data-ply="2"]');
  assert.equal((await page.locator('#moves td[data-ply="1"]').textContent()).trim(), 'e5');
  await page.waitForSelector('#takeback');
  await page.locator('#settings summary').click();
  await page.locator('#pref-notation').selectOption('coord');
  assert.equal((await page.locator('#moves td[data-ply="1"]').textContent()).trim(), 'e4-e5');
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal((await page.locator('#moves td[data-ply="1"]').textContent()).trim(), 'e4-e5');
  assert.equal(await page.locator('.seat[data-seat="white"]').getAttribute('data-mine'), 'true', 'the reload keeps the seat');
  // the lobby lists the game under "my games"
  await page.goto(`${server.base}/`);
  await page.waitForSelector(`#my-games [data-my-game="${id}"]`);
  assert.match(await page.locator(`#my-games [data-my-game="${id}"]`).textContent(), /Grant Acedrex · White/);
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});

test('links: a bogus token watches with a notice; a seat the token does not hold is not "you"', async () => {
  const g = await create({ variant: 'shako', seats: [{ seat: 'white', kind: 'human' }, { seat: 'black', kind: 'human' }] });
  const page = await browser.newPage();
  await page.goto(`${server.base}/game/${g.id}?token=bogus0000000000000000000`);
  await page.waitForSelector('body[data-ready="1"]');
  assert.match(await banner(page), /link is not valid/);
  assert.equal(await page.locator('[data-mine="true"]').count(), 0);
  assert.equal(await page.locator('#resign').count(), 0);
  await page.waitForSelector('#board[data-socket="open"]');
  assert.match(await banner(page), /not valid/, 'the notice stays; no "reconnecting"');
  assert.equal(new URL(page.url()).searchParams.get('token'), null);
  await page.context().close();

  const white = g.seats.find((s) => s.seat === 'white').token;
  const p2 = await browser.newPage();
  await p2.goto(`${server.base}/game.html?id=${g.id}&seat=black&token=${white}`);
  await p2.waitForSelector('body[data-ready="1"]');
  assert.equal(await p2.locator('.seat[data-seat="black"]').getAttribute('data-mine'), 'false');
  assert.equal(await p2.locator('.seat[data-seat="white"]').getAttribute('data-mine'), 'true');
  assert.match(await banner(p2), /does not hold Black/);
  assert.equal(p2.errors.length, 0, p2.errors.join('; '));
  await p2.context().close();
});

test('four players: every seat\'s last move in its colour, lost turns named; a clock in seconds', async () => {
  const g = await create({ variant: 'four-seasons', options: { die: 'on' }, seed: '12345',
    seats: ['green', 'red', 'black', 'white'].map((seat) => ({ seat, kind: 'bot', level: 1 })) });
  const s = await waitFor(async () => {
    const st = await fetchState(server.base, g.id);
    const movers = new Set(st.moves.filter((m) => /^[a-h]/.test(m.uci)).map((m) => m.seat));
    return (movers.size === 4 && st.moves.some((m) => m.uci === '0000')) || st.status === 'finished' ? st : null;
  }, { timeout: 60000, what: 'every seat to move and a lost turn' });
  const page = await browser.newPage();
  await page.goto(`${server.base}/game.html?id=${g.id}`);
  await page.waitForSelector('body[data-ready="1"]');
  const seats = await page.locator('#board [data-hl-seat]').evaluateAll((els) => [...new Set(els.map((e) => e.dataset.hlSeat))]);
  assert.equal(seats.length, 4, `every seat's last move is marked: ${seats}`);
  const lost = page.locator('#moves td[title*="could move"]');
  assert.ok(await lost.count() >= 1, 'a lost turn says which piece could not move');
  assert.match(await lost.first().getAttribute('title'), /threw \d: no [a-z ]+ could move/);
  await page.screenshot({ path: `${outDir}/four-seasons-seat-moves.png` });
  // replay: the move list follows the ply shown, and the die keeps its piece kind
  await page.locator('#moves td[data-ply="2"]').click();
  await page.waitForFunction(() => document.getElementById('rp-label').textContent.startsWith('ply 2'));
  const inView = await page.evaluate(() => {
    const box = document.getElementById('moves'), cur = box.querySelector('td.cur');
    return cur.offsetTop >= box.scrollTop && cur.offsetTop + cur.offsetHeight <= box.scrollTop + box.clientHeight;
  });
  assert.ok(inView, 'the ply shown is in view in the move list');
  assert.equal(await page.locator('#die [data-die-kind]').textContent(), s.moves[2].dieKind.replace('-', ' '), 'the die names the piece kind of the throw for the next move');
  await page.context().close();
  assert.ok(s);

  const c = await create({ variant: 'shako', clock: { initialMs: 8000, incrementMs: 0 }, seats: [{ seat: 'white', kind: 'human' }, { seat: 'black', kind: 'human' }] });
  const p2 = await browser.newPage();
  await p2.goto(`${server.base}/game.html?id=${c.id}`);
  await p2.waitForSelector('body[data-ready="1"]');
  assert.match(await p2.locator('#options-line').textContent(), /clock 8 s \+ 0 s/);
  assert.equal(await p2.locator('[data-mini-clock]').count(), 2, 'the clocks next to the board');
  await p2.context().close();
});

test('the view\'s rules: the mated king glows, take back, seat moves, clock text', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.base}/rules.html`);
  await page.waitForSelector('body[data-ready="1"]');
  const r = await page.evaluate(async () => {
    const v = await import('/js/view.js');
    const state = { status: 'finished', result: { reason: 'checkmate', winner: 'white' }, seats: [{ seat: 'white' }, { seat: 'black' }] };
    const four = { status: 'finished', result: { reason: 'checkmate', winner: 'red' }, seats: [{ seat: 'green', outReason: 'checkmate' }, { seat: 'red' }, { seat: 'black', outReason: 'resign' }, { seat: 'white', outReason: 'resign' }] };
    const moves = [{ uci: 'e3e4', seat: 'white' }, { uci: 'e8e7', seat: 'black' }, { uci: '0000', seat: 'white' }];
    return {
      glowEnd: v.glowingSeats(state, { check: [] }, true),
      glowBefore: v.glowingSeats(state, { check: [] }, false),
      glowFour: v.glowingSeats(four, { check: [] }, true),
      tb: v.takebackSeat(moves, ['white']),
      tbNone: v.takebackSeat([{ uci: '0000', seat: 'white' }], ['white']),
      tbResign: v.takebackSeat([...moves, { uci: 'resign', seat: 'black' }], ['white']),
      sm: v.seatMoves([{ uci: 'a2a3', seat: 'red' }, { uci: 'b7b6', seat: 'green' }, { uci: 'a3a4', seat: 'red' }], 3).map((m) => `${m.seat}:${m.from}${m.to}`),
      clock: [v.clockText({ initialMs: 8000, incrementMs: 0 }), v.clockText({ initialMs: 600000, incrementMs: 5000 }), v.clockText({ initialMs: 90000, incrementMs: 500 })],
      labels: [v.moveLabel({ uci: 'e3e4', san: 'e4' }, 'san'), v.moveLabel({ uci: 'e3e4', san: 'e4' }, 'coord'), v.moveLabel({ uci: 'a9a10q' }, 'san')],
      typed: (() => {
        const legal = { e3: ['e3e4', 'e3e5'], c2: ['c2d4', 'c2b4'], h2: ['h2g4'], a9: ['a9a10q', 'a9a10r'], f4: ['f4e5'] };
        const pieces = [{ square: 'e3', letter: 'P', name: 'pawn' }, { square: 'c2', letter: 'N', name: 'knight' }, { square: 'h2', letter: 'N', name: 'knight' },
          { square: 'a9', letter: 'P', name: 'pawn' }, { square: 'f4', letter: 'P', name: 'pawn' }];
        return ['e4', 'e3-e5', 'Nd4', 'Ng4+', 'fxe5', 'a10=R', 'a9a10', 'a9a10q', 'a9a1', 'Ne4', 'xyz'].map((m) => v.matchTyped(m, legal, pieces).join('|'));
      })(),
    };
  });
  assert.deepEqual(r.glowEnd, ['black'], 'the mated king keeps its glow at the end');
  assert.deepEqual(r.glowBefore, []);
  assert.deepEqual(r.glowFour, ['green']);
  assert.equal(r.tb, 'white');
  assert.equal(r.tbNone, null, 'a lost turn is nothing to take back');
  assert.equal(r.tbResign, null);
  assert.deepEqual(r.sm, ['green:b7b6', 'red:a3a4']);
  assert.deepEqual(r.clock, ['clock 8 s + 0 s', 'clock 10 min + 5 s', 'clock 1.5 min + 0.5 s']);
  assert.deepEqual(r.labels, ['e4', 'e3-e4', 'a9-a10=Q']);
  assert.deepEqual(r.typed, ['e3e4', 'e3e5', 'c2d4', 'h2g4', 'f4e5', 'a9a10r', 'a9a10q|a9a10r', 'a9a10q', '', '', ''], 'typed moves');
  await page.context().close();
});

test('the result panel is on screen, a rematch keeps the settings; the result reads well', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await quickPlay(page, 'shako');
  const id = new URL(page.url()).searchParams.get('id');
  await page.locator('#resign').click();
  await page.locator('#resign').click();
  await page.waitForSelector('#result:not([hidden])');
  const box = await page.locator('#result').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 800, `the result panel is on screen: ${JSON.stringify(box)}`);
  assert.match(await page.locator('#result h2').textContent(), /Black wins/);
  assert.equal(await page.locator('#result [data-reason]').textContent(), 'By resignation.');
  const bar = await page.locator('#replay').boundingBox();
  assert.ok(bar.y + bar.height <= 800, 'the replay buttons fit below the board');
  await page.screenshot({ path: `${outDir}/result-panel.png` });
  await Promise.all([page.waitForURL((u) => !u.href.includes(id)), page.locator('#rematch').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  const id2 = new URL(page.url()).searchParams.get('id');
  assert.notEqual(id2, id);
  const held = await heldTokens(page, id2);
  const s = await fetchState(server.base, id2, held.white);
  assert.equal(s.variant, 'shako');
  assert.deepEqual(s.you, ['white']);
  assert.equal(s.seats[1].kind, 'bot');
  assert.equal(s.seats[1].level, 3);
  await page.context().close();
});

test('hot seat turns the board to the side to move; colour-blind shapes; the phone layout', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.base}/?variant=shako`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.locator('[data-seat-kind="black"]').selectOption('human');
  await page.locator('#hotseat').check();
  await Promise.all([page.waitForURL(/game/), page.locator('#create-btn').click()]);
  await page.waitForSelector('body[data-ready="1"]');
  await page.locator('#settings summary').click();
  await page.locator('#pref-hotSeatTurn').check();
  assert.equal(await page.locator('#board svg').getAttribute('data-rotation'), '0');
  await clickMove(page, 'e3', 'e4');
  await page.waitForFunction(() => document.querySelector('#board svg').dataset.rotation === '2');
  await clickMove(page, 'e8', 'e7');
  await page.waitForFunction(() => document.querySelector('#board svg').dataset.rotation === '0');
  await page.context().close();

  const g = await create({ variant: 'four-seasons', seats: ['green', 'red', 'black', 'white'].map((seat) => ({ seat, kind: 'human' })) });
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await phone.goto(`${server.base}/game.html?id=${g.id}`);
  await phone.waitForSelector('body[data-ready="1"]');
  const meta = await phone.locator('meta[name="viewport"]').getAttribute('content');
  assert.doesNotMatch(meta, /user-scalable=no|maximum-scale=1/, 'zoom is allowed');
  const w = (await phone.locator('#board svg').boundingBox()).width;
  assert.ok(w >= 370, `the board uses the width of the phone: ${w}px`);
  assert.equal(await phone.locator('#board .piece[data-seat="red"] .cb-mark').first().isVisible(), false);
  await phone.locator('#settings summary').click();
  await phone.locator('#pref-colourBlind').check();
  assert.equal(await phone.locator('#board .piece[data-seat="red"] .cb-mark').first().isVisible(), true, 'shapes on the red army');
  assert.equal(await phone.locator('#board .piece[data-seat="green"] .cb-mark').first().isVisible(), true);
  await phone.screenshot({ path: `${outDir}/phone-four-seasons-colour-blind.png`, fullPage: true });
  await phone.context().close();
});

test('rules pages: /rules/shako, the cannon\'s screen, the legend\'s marks, Joko\'s diagrams, readable coordinates', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.base}/rules/shako`);
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.locator('h1').textContent(), 'Shako');
  const cannon = page.locator('.piece-card[data-piece="C"] .diagram');
  assert.ok(await cannon.getAttribute('data-screen'), 'a screen stands in front of the cannon');
  assert.ok(await cannon.locator('[data-kind="hop"]').count() >= 1, 'its captures over the screen are drawn');
  assert.equal(await page.locator('.legend svg').count(), 4, 'every mark of the diagrams is in the legend');
  const pawnMarks = await page.locator('.piece-card[data-piece="P"] [data-mark]').evaluateAll((els) => els.map((e) => e.dataset.kind));
  assert.ok(pawnMarks.includes('capture') && page.locator('.legend .c svg'), 'the pawn\'s capture mark is the legend\'s');
  const coord = await page.locator('.piece-card .coord').first().boundingBox();
  assert.ok(coord.height >= 9, `coordinates are readable: ${coord.height}px`);
  await page.locator('.piece-card[data-piece="C"]').screenshot({ path: `${outDir}/rules-shako-cannon.png` });
  await page.goto(`${server.base}/rules/joko-urtaroak`);
  await page.waitForSelector('body[data-ready="1"]');
  const rook = Number(await page.locator('.piece-card[data-piece="R"] .diagram').getAttribute('data-count'));
  assert.ok(rook >= 14, `the rook's diagram shows its lines, not the blocked centre (${rook} squares)`);
  await page.locator('.piece-card[data-piece="R"]').screenshot({ path: `${outDir}/rules-joko-rook.png` });
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});

test('a draw offer is said to the other player, and a decline to the one who offered', async () => {
  const g = await create({ variant: 'shako', seats: [{ seat: 'white', kind: 'human' }, { seat: 'black', kind: 'human' }] });
  const tok = Object.fromEntries(g.seats.map((s) => [s.seat, s.token]));
  const alice = await browser.newPage();
  const bob = await browser.newPage();
  await alice.goto(`${server.base}/game.html?id=${g.id}&token=${tok.white}`);
  await bob.goto(`${server.base}/game.html?id=${g.id}&token=${tok.black}`);
  await alice.waitForSelector('body[data-ready="1"]');
  await bob.waitForSelector('body[data-ready="1"]');
  await alice.locator('#draw-offer').click();
  await bob.waitForSelector('[data-draw-offer="white"]');
  assert.equal(await bob.locator('[data-draw-offer]').textContent(), 'White offers a draw.');
  assert.match(await bob.locator('#status').textContent(), /White offers a draw/);
  await bob.locator('#draw-decline').click();
  await alice.waitForFunction(() => /Black declines the draw/.test(document.getElementById('banner').textContent));
  await alice.context().close();
  await bob.context().close();
});

test('bot moves are paced so a player can follow them', async () => {
  const g = await create({ variant: 'four-seasons', seed: '3',
    seats: [...['green', 'red', 'black'].map((seat) => ({ seat, kind: 'bot', level: 1 })), { seat: 'white', kind: 'human' }] });
  const white = g.seats.find((s) => s.seat === 'white').token;
  const s = await waitFor(async () => { const st = await fetchState(server.base, g.id, white); return st.toMove === 'white' ? st : null; }, { what: 'White to move' });
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('acedrex.pref.botPaceMs', '1000'));
  await page.goto(`${server.base}/game.html?id=${g.id}&token=${white}`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.evaluate(() => {
    window.shownAt = [];
    new MutationObserver(() => { window.shownAt[document.querySelectorAll('#moves td[data-ply]').length] ??= performance.now(); })
      .observe(document.getElementById('moves'), { childList: true, subtree: true });
  });
  const [from, list] = Object.entries(s.legal)[0];
  await fetch(`${server.base}/api/game/${g.id}/move/${list[0]}`, { method: 'POST', headers: { Authorization: `Bearer ${white}` } });
  const n = s.moves.length;
  await page.waitForFunction((k) => document.querySelectorAll('#moves td[data-ply]').length >= k, n + 4, { timeout: 15000 });
  const at = await page.evaluate(() => window.shownAt);
  for (let k = n + 2; k <= n + 4; k++) assert.ok(at[k] - at[k - 1] >= 900, `bot ply ${k} shown ${Math.round(at[k] - at[k - 1])} ms after the one before`);
  assert.ok(from);
  await page.context().close();
});

test('dark theme, move sounds with a mute switch, stepping through the moves with the keyboard', async () => {
  const page = await browser.newPage();
  await quickPlay(page, 'shako');
  await page.locator('#settings summary').click();
  await page.locator('#pref-theme').selectOption('dark');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(29, 27, 25)', 'the page turns dark');
  // a move and the bot's answer sound; muted, the next ones do not
  await clickMove(page, 'e3', 'e4');
  await page.waitForSelector('#moves td[data-ply="2"]');
  const heard = await page.evaluate(() => window.acedrexSounds.played.length);
  assert.ok(heard >= 1, 'moves are heard');
  await page.locator('#pref-sound').uncheck();
  await clickMove(page, 'd3', 'd4');
  await page.waitForSelector('#moves td[data-ply="4"]');
  assert.equal(await page.evaluate(() => window.acedrexSounds.played.length), heard, 'muted');
  await page.screenshot({ path: `${outDir}/shako-dark.png` });
  // the keyboard steps through the moves, and back to the game
  await page.locator('#moves').focus();
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.getElementById('rp-label').textContent.startsWith('ply 3'));
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.getElementById('rp-label').textContent.startsWith('ply 0'));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('rp-label').textContent.startsWith('ply 1'));
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.getElementById('replay').hidden);
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', 'the theme is remembered');
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});

test('the board is played from the keyboard, and a move can be typed', async () => {
  const page = await browser.newPage();
  await quickPlay(page, 'shako');
  const id = new URL(page.url()).searchParams.get('id');
  // typed: SAN
  await page.locator('#type-move').fill('Kf5');
  await page.locator('#type-move').press('Enter');
  await page.waitForFunction(() => /not a legal move/.test(document.getElementById('banner').textContent));
  await page.locator('#type-move').fill('e4');
  await page.locator('#type-move').press('Enter');
  await waitFor(async () => (await fetchState(server.base, id)).moves.length >= 2, { what: 'the bot to answer' });
  assert.equal((await fetchState(server.base, id)).moves[0].uci, 'e3e4');
  await page.waitForFunction(() => !document.getElementById('type-move').disabled);
  // keyboard: the cursor to d3, Enter, up to d4, Enter
  await page.locator('#board svg').focus();
  const where = async () => (await page.locator('#board-sr').textContent()).split(':')[0];
  const go = async (target) => {
    for (let i = 0; i < 30; i++) {
      const at = await where();
      if (at === target) return;
      const [f, r] = [at.charCodeAt(0), Number(at.slice(1))];
      const [tf, tr] = [target.charCodeAt(0), Number(target.slice(1))];
      await page.keyboard.press(f < tf ? 'ArrowRight' : f > tf ? 'ArrowLeft' : r < tr ? 'ArrowUp' : 'ArrowDown');
    }
    throw new Error(`the cursor did not reach ${target}`);
  };
  await go('d3');
  assert.match(await page.locator('#board-sr').textContent(), /^d3: White pawn, can move$/);
  await page.keyboard.press('Enter');
  assert.match(await page.locator('#board-sr').textContent(), /selected/);
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.locator('#board-sr').textContent(), 'd4: empty, it can go here');
  assert.equal(await page.locator('#replay').isHidden(), true, 'arrows on the board do not step the replay');
  await page.keyboard.press('Enter');
  await waitFor(async () => (await fetchState(server.base, id)).moves.length >= 3, { what: 'the keyboard move' });
  assert.equal((await fetchState(server.base, id)).moves[2].uci, 'd3d4');
  assert.equal(page.errors.length, 0, page.errors.join('; '));
  await page.context().close();
});

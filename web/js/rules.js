// Rules pages: each game's rules in our words, its options, and a diagram of
// every piece's moves. The diagrams are not drawn from this text: the squares
// come from the server (/api/variant/NAME/piece/LETTER), which reads them from
// the engine's own move tables, so they always match what the engine plays.
import { api } from './api.js';
import { Board } from './board.js';
import { pieceIcon, PIECE_NAMES } from './pieces.js';
import { t, pieceName, translatePage, languageSwitch, lang, optionName, optionValue, optionHelp } from './i18n.js';
import { prefs } from './prefs.js';
import { boardLook, familyOf } from './sets.js';

const $ = (id) => document.getElementById(id);
function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'html') e.innerHTML = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== undefined && v !== null) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// ---- the pieces, in our words ---------------------------------------------------
const PIECE_TEXT = {
  king: 'Steps one square in any of the eight directions.',
  queen: 'Slides any distance along a rank, a file or a diagonal.',
  rook: 'Slides any distance along a rank or a file.',
  bishop: 'Slides any distance along a diagonal.',
  knight: 'Jumps to the far corner of a 2×3 rectangle (one square straight, one diagonal), over anything in between.',
  alfil: 'The old elephant: jumps exactly two squares diagonally, over whatever stands between. It only ever visits a quarter of the board.',
  ferz: 'The old counsellor: steps one square diagonally. Pawns become ferzes at the end of their way.',
  'war-engine': 'Jumps exactly two squares along a rank or a file, over anything in between, onto any square that is not blocked.',
  gryphon: 'Takes one diagonal step (which may capture); from an empty square there it may go on outward, straight along either of the two lines that lead further away, as far as the way is free, perhaps ending with a capture. It never jumps.',
  aanca: 'Alfonso\'s great bird moves like the gryphon: one diagonal step, then, if that square was empty, on outward along a rank or a file as far as it likes.',
  rhinoceros: 'Jumps like a knight; if that square is empty it may go on along the diagonal that leads further away, any number of free squares.',
  lion: 'Jumps three squares: straight ahead, back or sideways, or to the squares beside those (the option decides which).',
  crocodile: 'Slides any distance along a diagonal, like a bishop.',
  giraffe: 'A long leap: three squares one way and two the other (or four and one, under Murray\'s reading), over anything.',
  elephant: 'Steps one square diagonally, or jumps two squares diagonally over anything in between.',
  cannon: 'Moves like a rook when it does not capture; to capture it must jump over exactly one piece (of either side) on its line, and takes the first piece beyond it.',
  pawn: 'Steps one square forward and captures one square diagonally forward.',
};

// ---- the games, in our words ----------------------------------------------------
const GAMES = {
  'four-seasons': {
    intro: 'Alfonso X\'s chess for four, from his Book of Games (1283). Four armies start in the corners of an ordinary 8×8 board and each plays for itself; the last king standing wins. The four colours are the four seasons.',
    sections: [
      ['Seats and setup', `<p>Green (spring) starts in the a8 corner, Red (summer) in a1, Black (autumn) in h1 and White (winter) in h8, and they move in that order. Each army has a king in its corner, a rook and a knight beside it, an alfil diagonally in front of the king, and four pawns: two along each of its edges.</p>
        <p>Every pawn has its own direction, along its edge towards a neighbouring army, and keeps it for life, even when its army changes colour. On the board a small arrow shows the way each pawn goes.</p>`],
      ['Moving and capturing', `<p>Anyone may capture anyone. No move may leave your own king attacked by a seat that is still in the game. Pawns step one square forward (never two) and capture one square diagonally forward; at the end of their way they become ferzes.</p>
        <p>Because three others move between two of your turns, a king can be left attacked by someone else's move. If your king stands attacked when your turn comes and you can get out, you must; a king that is still attacked when an enemy's turn comes may simply be captured, which counts as a mate.</p>`],
      ['Mate, the takeover and going out', `<p>Mate and stalemate are only looked at when a seat's turn comes. A mated seat is out: its king leaves the board, and with the <b>takeover</b> option (the default, Murray's reading) the rest of its army changes colour and belongs to the seat that gave the mate. The mate belongs to the seat whose check on that king started most recently. With <code>takeover=no</code> (Alfonso's text) the mated army simply leaves the board.</p>
        <p>A seat that is stalemated, resigns or runs out of time is out too, and its pieces leave the board.</p>`],
      ['The end', `<p>The last seat left in wins, and the others are placed in the reverse order of going out. The seats still in share a draw after the same position three times, after fifty full rounds without a capture or a pawn move, or when only kings are left.</p>`],
      ['Coins', `<p>The game was played for money, and the page keeps the old count, which does not decide the places. Whoever captures a piece gets a coin from its owner; whoever starts a check on a king gets a coin from that king's owner; a mated seat pays its mater a coin for every piece it still had, its king included. When someone wins, the second seat to go out pays its winnings (if positive) and a coin per piece it had into a pot, the third pays the winner a coin per piece it had, and the winner takes the pot. The coins always add up to zero.</p>`],
      ['The die', `<p>With <code>die=on</code>, a six-sided die is thrown at every turn: 6 king, 5 ferz, 4 rook, 3 knight, 2 alfil, 1 pawn. Only a piece of that kind may move; if none can, the turn is lost (written <code>0000</code>, and the server plays it at once). A seat in check whose throw cannot answer the check loses its turn, and its king may then be taken. Whether a seat is mated or stalemated never depends on the die.</p>`],
    ],
  },
  'joko-urtaroak': {
    intro: 'Glenn Overby\'s great-chess version of the Four Seasons (2002): four armies on a 10×10 board whose sixteen central squares cannot be entered, with the bishop, the war engine and the gryphon added.',
    sections: [
      ['Seats and setup', `<p>Green starts in the a1 corner, Red in j1, Black in j10 and White in a10; they move in that order. Each army has a king, a rook, a knight, a bishop, two war engines, a gryphon and four pawns, two going one way along an edge and two the other.</p>
        <p>The squares d4 to g7 are blocked: nothing may stand there, sliders stop in front of them, and jumping pieces may leap over them but never land on them.</p>`],
      ['Pieces', `<p>King, rook, knight and bishop move as in chess, without castling. Pawns step one square forward, never two, capture diagonally forward, and at the end of their way become a gryphon, a knight or a rook, as their owner chooses. There is no en passant.</p>`],
      ['Mate and the end', `<p>Checks, mates and king captures work as in the Four Seasons. The first seat to mate another (at the mated seat's turn) or to capture a king wins at once: it is first and the other three share second place. If a seat is stalemated, it is last and the other three share a draw. Threefold repetition and fifty rounds without a capture or a pawn move draw for all four.</p>`],
    ],
  },
  'grant-acedrex': {
    intro: 'Alfonso X\'s great chess on a 12×12 board, with strange birds and beasts: the aanca, the rhinoceros, the lion, the crocodile and the giraffe. Two players, White moving first.',
    sections: [
      ['Setup', `<p>White's first rank holds, from a to l: rook, lion, rhinoceros, giraffe, crocodile, aanca, king, crocodile, giraffe, rhinoceros, lion, rook, with twelve pawns on the fourth rank. Black mirrors this on ranks 12 and 9.</p>`],
      ['The king and the pawns', `<p>The king steps one square any way. While it has never moved it may also leap two squares in any direction to an empty square, not capturing, not while in check, and not over an attacked square (option <code>king-leap</code>).</p>
        <p>Pawns step one square forward and capture diagonally forward. From their starting rank they may step two squares if both are free (no en passant); option <code>pawn-double</code> says whether a side keeps that right after one of its pawns has captured. On the last rank a pawn becomes the piece that started on that file: rook on a and l, lion on b and k, rhinoceros on c and j, giraffe on d and i, crocodile on e and h, aanca on f and g.</p>`],
      ['The end', `<p>Checkmate wins. A stalemated side draws, or loses with <code>stalemate=loss</code>. Threefold repetition and fifty moves each without a capture or a pawn move are draws.</p>`],
      ['The die', `<p>Alfonso had eight-sided dice made to speed the game up. With <code>die=on</code> each turn throws one: 8 king, 7 aanca, 6 rhinoceros, 5 rook, 4 lion, 3 crocodile, 2 giraffe, 1 pawn. If no piece of that kind can move the turn is lost, and a king left in check that way may be captured, which wins.</p>`],
    ],
  },
  shako: {
    intro: 'Jean-Louis Cazaux\'s Shako: chess on a 10×10 board with two more pieces, the elephant from the old game and the cannon from Chinese chess, arranged so that chess openings still work. Played exactly as Fairy-Stockfish plays it.',
    sections: [
      ['Setup', `<p>The cannons stand in the corners of the first rank; the second rank holds elephant, rook, knight, bishop, queen, king, bishop, knight, rook, elephant; the pawns stand on the third rank. Black mirrors White.</p>`],
      ['Rules', `<p>Everything is as in chess: pawns step two squares from their starting rank and may be taken en passant, and promote on the last rank to a queen, rook, bishop, knight, elephant or cannon. Castling is on the second rank: the king goes from f2 to h2 (the rook from i2 to g2) or to d2 (the rook from b2 to e2), not out of, through or into check. Checkmate wins; stalemate, threefold repetition and the fifty-move rule draw.</p>`],
    ],
  },
};

const OPTION_TEXT = {
  takeover: 'Whether a mated army joins its mater (yes) or leaves the board (no).',
  'bare-king': 'Whether a seat left with only its king plays on (plays) or goes out at once as if stalemated (loses).',
  die: 'Play with a die that chooses the kind of piece to move each turn.',
  'king-leap': 'The king\'s two-square leap while it has never moved.',
  'pawn-double': 'When pawns may take their two-square first step.',
  giraffe: 'Which leap the giraffe makes.',
  rhino: 'Whether the rhinoceros may slide on in every outward direction or only forwards.',
  lion: 'Which squares the lion jumps to.',
  stalemate: 'What a stalemate means for the stalemated side.',
};

// The square to show a piece on: near the centre, but on a board with holes
// (Joko's blocked centre) the one with the longest free lines, so the diagram
// shows as much of the piece's moves as the board allows.
function diagramSquare(b) {
  const blocked = new Set(b.blocked || []);
  if (!blocked.size) return centre(b);
  const free = (f, r) => f >= 0 && r >= 0 && f < b.width && r < b.height && !blocked.has(String.fromCharCode(97 + f) + (r + 1));
  let best = null;
  for (let f = 0; f < b.width; f++) for (let r = 0; r < b.height; r++) {
    if (!free(f, r)) continue;
    let score = 0;
    for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
      let n = 0;
      while (free(f + df * (n + 1), r + dr * (n + 1))) n++;
      score += n;
    }
    const d = Math.abs(f - (b.width - 1) / 2) + Math.abs(r - (b.height - 1) / 2);
    if (!best || score > best.score || (score === best.score && d < best.d)) best = { name: String.fromCharCode(97 + f) + (r + 1), score, d };
  }
  return best.name;
}

function centre(b) {
  const blocked = new Set(b.blocked || []);
  const cands = [];
  for (let f = 0; f < b.width; f++) for (let r = 0; r < b.height; r++) {
    const name = String.fromCharCode(97 + f) + (r + 1);
    if (blocked.has(name)) continue;
    cands.push({ name, d: Math.abs(f - (b.width - 1) / 2) + Math.abs(r - (b.height - 1) / 2) + (f < b.width / 2 ? 0 : 0.01) + (r < b.height / 2 ? 0 : 0.02) });
  }
  cands.sort((a, b2) => a.d - b2.d);
  return cands[0].name;
}

// The marks of a diagram. A piece that captures by jumping a screen (the
// cannon) is shown with a screen two squares ahead: beyond it, along that
// line, it cannot move but captures the first piece (every square it could be
// on is marked), and the line stops there for plain moves.
function marksOf(reach, at, board) {
  const moves = new Set(reach.moves || []), caps = new Set(reach.captures || []), hops = new Set(reach.hops || []);
  let screen = null;
  const beyond = new Set();
  if (hops.size && at) {
    const f = at.charCodeAt(0) - 97, r = Number(at.slice(1)) - 1;
    for (const [df, dr] of [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, -1]]) {
      const sq = (k) => String.fromCharCode(97 + f + df * k) + (r + dr * k + 1);
      const line = [];
      for (let k = 2; f + df * k >= 0 && f + df * k < board.width && r + dr * k >= 0 && r + dr * k < board.height; k++) line.push(sq(k));
      if (line.length >= 3 && hops.has(line[1])) {
        screen = line[0];
        for (const s of line.slice(1)) if (hops.has(s)) beyond.add(s);
        break;
      }
    }
  }
  const out = [];
  for (const s of new Set([...moves, ...caps])) {
    if (s === screen || beyond.has(s)) continue;
    out.push({ square: s, kind: moves.has(s) && caps.has(s) ? 'both' : moves.has(s) ? 'move' : 'capture' });
  }
  for (const s of beyond) out.push({ square: s, kind: 'hop' });
  if (!screen) for (const s of hops) if (!moves.has(s) && !caps.has(s)) out.push({ square: s, kind: 'hop' });
  return { marks: out, screen };
}

// The legend's marks, drawn as the diagrams draw them.
function legendMark(kind) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 60 60');
  const add = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); svg.append(e); };
  const c = 30;
  if (kind === 'move') add('circle', { cx: c, cy: c, r: 20, fill: '#2f6d5a' });
  else if (kind === 'capture') add('path', { d: `M${c - 20} ${c - 20} L${c + 20} ${c + 20} M${c + 20} ${c - 20} L${c - 20} ${c + 20}`, stroke: '#b8322a', 'stroke-width': 11, 'stroke-linecap': 'round' });
  else if (kind === 'hop') add('circle', { cx: c, cy: c, r: 20, fill: 'none', stroke: '#d68a1c', 'stroke-width': 9 });
  else {
    add('path', { d: `M${c} ${c - 22} A22 22 0 0 0 ${c} ${c + 22} Z`, fill: '#2f6d5a' });
    add('path', { d: `M${c} ${c - 22} A22 22 0 0 1 ${c} ${c + 22} Z`, fill: '#b8322a' });
  }
  return svg;
}

async function drawDiagrams(v, box, optionValues) {
  box.replaceChildren();
  const board = v.board || { width: 8, height: 8, blocked: [] };
  const seat = (v.seats && (v.seats[0].seat || v.seats[0])) || 'white';
  // points, palaces and river, plain squares, the chosen piece set: as on the game page
  const fam = familyOf(v);
  const look = boardLook(v, fam ? prefs.get(`pieceSet.${fam}`) : null, (v.seats || []).map((x) => x.seat || x));
  const extra = Object.entries(optionValues).map(([k, val]) => `&${encodeURIComponent(k)}=${encodeURIComponent(val)}`).join('');
  for (const p of v.pieces || []) {
    const card = h('div', { class: 'card piece-card', 'data-piece': p.letter });
    const diagram = h('div', { class: 'diagram' });
    card.append(h('h3', {}, h('span', { class: `seat-${seat}` }, pieceIcon(p.name, seat, 34)), `${cap(pieceName(p.name))} (${p.letter})`),
      h('p', { style: 'font-size:14px;margin:4px 0 8px' }, PIECE_TEXT[p.name] || ''), diagram);
    box.append(card);
    const from = diagramSquare(board);
    let reach;
    try {
      reach = await api.reach(v.name, p.letter, from, `&dir=n${extra}`);
    } catch (e) {
      diagram.append(h('p', { class: 'error' }, t('rules.noDiagram', { error: e.message })));
      continue;
    }
    const at = reach.from || from;
    const b = new Board(diagram, { coordSize: 46 });
    const { marks, screen } = marksOf(reach, at, board);
    const other = (v.seats || []).map((x) => x.seat || x).find((x) => x !== seat) || 'black';
    const pieces = [{ square: at, seat, letter: p.letter, name: p.name, dir: 'n' }];
    const pawn = (v.pieces || []).find((x) => x.letter === 'P' || x.name === 'soldier') || { letter: 'P', name: 'pawn' };
    if (screen) pieces.push({ square: screen, seat: other, letter: pawn.letter, name: pawn.name, dir: 's' });
    b.update({
      width: board.width, height: board.height, blocked: board.blocked || [],
      style: look.style, palaces: look.palaces, river: look.river, glyph: look.glyph, promoted: look.promoted,
      pieces, marks, arrows: p.name === 'pawn', interactive: false, animate: false,
      labels: { seat: (x) => x, piece: pieceName, board: t('rules.diagramOf', { piece: pieceName(p.name) }) },
    });
    if (screen) diagram.dataset.screen = screen;
    diagram.dataset.from = at;
    diagram.dataset.count = String(new Set([...(reach.moves || []), ...(reach.captures || [])]).size);
  }
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

async function gallery(root) {
  root.replaceChildren(h('h1', {}, t('rules.galleryTitle')),
    h('p', {}, t('rules.galleryIntro'), ' ',
      h('a', { href: '?variant=four-seasons' }, 'Four Seasons'), ', ', h('a', { href: '?variant=joko-urtaroak' }, 'Joko Urtaroak'), ', ',
      h('a', { href: '?variant=grant-acedrex' }, 'Grant Acedrex'), ', ', h('a', { href: '?variant=shako' }, 'Shako'), '.'));
  for (const seat of ['white', 'black', 'green', 'red']) {
    const g = h('div', { class: 'gallery card' });
    for (const name of PIECE_NAMES) {
      g.append(h('figure', { 'data-glyph': name }, h('span', { class: `seat-${seat}` }, pieceIcon(name, seat, 80)), h('figcaption', {}, pieceName(name))));
    }
    root.append(g);
  }
}

async function main() {
  translatePage();
  document.querySelector('header.top').append(h('span', { class: 'lang-slot' }, languageSwitch()));
  const root = $('rules');
  // /rules/NAME is served this page directly: the game is in the path.
  const name = new URLSearchParams(location.search).get('variant') || (location.pathname.match(/^\/rules\/([a-z0-9-]+)\/?$/) || [])[1];
  if (!name) { await gallery(root); document.body.dataset.ready = '1'; return; }
  let variants;
  try { variants = await api.variants(); } catch (e) { root.replaceChildren(h('p', { class: 'error' }, e.message)); return; }
  const v = variants.find((x) => x.name === name);
  if (!v) { root.replaceChildren(h('p', { class: 'error' }, t('rules.noGame', { name }))); return; }
  document.title = `${t('rules.titleOf', { title: v.title })} · Acedrex`;
  const text = GAMES[v.name] || { intro: '', sections: [] };
  root.replaceChildren(...[h('h1', {}, v.title), lang !== 'en' ? h('p', { class: 'muted', 'data-prose-note': '' }, t('rules.proseInEnglish')) : null, h('p', {}, text.intro),
    h('p', {}, h('a', { class: 'button primary', href: `/?variant=${v.name}` }, t('rules.play', { title: v.title })))].filter(Boolean));
  for (const [title, html] of text.sections) root.append(h('div', { class: 'card' }, h('h2', { style: 'margin-top:0' }, title), h('div', { html })));

  const optionValues = {};
  const diagrams = h('div', { class: 'pieces', id: 'diagrams' });
  if ((v.options || []).length) {
    const table = h('table', { class: 'opts' }, h('tr', {}, h('th', {}, t('rules.option')), h('th', {}, t('rules.values')), h('th', {}, t('rules.whatItDoes'))));
    for (const o of v.options) {
      const sel = h('select', { 'data-option': o.name });
      for (const val of o.values) sel.append(h('option', { value: val, selected: val === o.default }, optionValue(val) + (val === o.default ? ` ${t('lobby.default')}` : '')));
      sel.addEventListener('change', () => { optionValues[o.name] = sel.value; drawDiagrams(v, diagrams, optionValues); });
      table.append(h('tr', {}, h('td', {}, optionName(o.name), ' ', h('code', { class: 'muted' }, o.name)), h('td', {}, sel),
        h('td', {}, lang === 'en' && OPTION_TEXT[o.name] ? h('div', {}, OPTION_TEXT[o.name]) : null, h('div', { class: 'muted' }, optionHelp(v.name, o)))));
    }
    root.append(h('div', { class: 'card' }, h('h2', { style: 'margin-top:0' }, t('rules.options')),
      h('p', { class: 'muted' }, t('rules.optionsHelp')), table));
  }
  const hasScreen = (v.pieces || []).some((p) => p.name === 'cannon');
  root.append(h('h2', {}, t('rules.pieces')),
    h('p', { class: 'muted' }, t('rules.piecesHelp'), hasScreen ? ` ${t('rules.screenHelp')}` : ''),
    h('div', { class: 'legend' }, h('span', { class: 'b' }, legendMark('both'), t('rules.legendBoth')), h('span', { class: 'm' }, legendMark('move'), t('rules.legendMove')),
      h('span', { class: 'c' }, legendMark('capture'), t('rules.legendCapture')), hasScreen ? h('span', { class: 'h' }, legendMark('hop'), t('rules.legendHop')) : null),
    diagrams);
  await drawDiagrams(v, diagrams, optionValues);
  document.body.dataset.ready = '1';
}
main();

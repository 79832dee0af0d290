// Our own piece glyphs, drawn for Acedrex on a 100x100 canvas.
// Every glyph stands on the same plinth; "body" parts are filled with the
// seat's colour (CSS variable --pf) and outlined (--ps), "detail" parts are
// lines or marks in a contrasting colour (--pd) so they read on any fill.
// Glyphs are looked up by the piece's name, never by its letter, because
// letters are reused between games (A: alfil or aanca, E: war engine or
// elephant, C: crocodile or cannon, G: gryphon or giraffe).

const SVGNS = 'http://www.w3.org/2000/svg';

const PLINTH = 'M22 91 H78 Q84 91 84 85 Q84 79 78 79 H22 Q16 79 16 85 Q16 91 22 91 Z';

// name -> {body: [path d...], detail: [path d...], dots: [[cx, cy, r]...], marks: [path d filled with --pd]}
const GLYPHS = {
  king: {
    body: [
      'M31 79 L36 52 H64 L69 79 Z',
      'M30 52 L25 32 L38 41 L50 27 L62 41 L75 32 L70 52 Z',
      'M46 5 H54 V11 H60 V19 H54 V28 H46 V19 H40 V11 H46 Z',
    ],
    detail: ['M34 46 H66', 'M36 65 H64'],
  },
  queen: {
    body: [
      'M31 79 L36 54 H64 L69 79 Z',
      'M30 54 L21 26 L36 41 L42 20 L50 39 L58 20 L64 41 L79 26 L70 54 Z',
    ],
    circles: [[21, 23, 4.5], [42, 17, 4.5], [58, 17, 4.5], [79, 23, 4.5], [50, 34, 0]],
    detail: ['M33 48 H67', 'M36 66 H64'],
  },
  rook: {
    body: [
      'M29 79 L33 42 H67 L71 79 Z',
      'M26 42 V18 H35 V26 H44 V18 H56 V26 H65 V18 H74 V42 Z',
    ],
    detail: ['M32 54 H68', 'M31 66 H69', 'M50 42 V54', 'M41 54 V66', 'M59 54 V66', 'M50 66 V79'],
  },
  knight: {
    body: [
      'M30 79 C30 66 36 58 45 50 C39 51 33 54 28 55 C22 56 18 50 21 45 ' +
        'C26 37 34 28 40 22 L38 9 L47 16 C52 14 56 14 60 16 C72 21 79 33 79 48 ' +
        'C79 60 73 70 72 79 Z',
    ],
    detail: ['M56 18 C66 24 72 36 72 50', 'M24 49 L28 48'],
    marks: [],
    dots: [[44, 31, 3.2]],
  },
  bishop: {
    body: [
      'M32 79 C33 70 38 64 41 60 H59 C62 64 67 70 68 79 Z',
      'M41 60 C30 54 30 40 38 30 C42 25 46 20 50 16 C54 20 58 25 62 30 C70 40 70 54 59 60 Z',
    ],
    circles: [[50, 11, 5]],
    detail: ['M56 28 L45 42', 'M38 66 H62'],
  },
  ferz: {
    // The counsellor: a round head with a diagonal (diamond) emblem.
    body: [
      'M32 79 C34 68 40 62 43 58 H57 C60 62 66 68 68 79 Z',
      'M50 22 A19 19 0 1 1 49.9 22 Z',
      'M44 20 Q50 8 56 20 Z',
    ],
    marks: ['M50 30 L60 41 L50 52 L40 41 Z'],
    detail: ['M38 68 H62'],
  },
  alfil: {
    // The old elephant, seen from the front: broad ears, tusks, a hanging trunk.
    body: [
      'M36 79 C36 72 40 68 43 66 H57 C60 68 64 72 64 79 Z',
      'M38 30 C26 18 10 24 12 40 C13 52 24 58 36 52 Z',
      'M62 30 C74 18 90 24 88 40 C87 52 76 58 64 52 Z',
      'M50 20 C62 20 67 30 66 42 C65 50 60 54 56 56 C56 64 58 70 62 74 L57 77 ' +
        'C50 72 46 64 45 56 C40 54 35 50 34 42 C33 30 38 20 50 20 Z',
    ],
    detail: ['M42 52 Q38 60 32 62', 'M60 51 Q64 58 70 60'],
    dots: [[43, 36, 2.8], [58, 36, 2.8]],
  },
  elephant: {
    // Shako's elephant: a whole elephant from the side, carrying a small tower.
    body: [
      'M30 79 V66 C24 62 22 54 24 46 C26 38 34 33 44 33 H64 C74 33 80 42 80 52 ' +
        'V79 H71 V66 H62 V79 H53 V66 H40 V79 Z',
      'M30 42 C24 40 18 44 16 52 C14 60 15 70 19 76 L24 74 C21 68 21 60 25 54 Z',
      'M46 33 V20 H50 V24 H55 V20 H60 V24 H65 V20 H69 V33 Z',
    ],
    detail: ['M36 42 C40 46 40 54 34 58', 'M24 50 L18 56'],
    dots: [[30, 45, 2.4]],
  },
  'war-engine': {
    // A siege engine on wheels: frame, throwing arm and sling.
    body: [
      'M20 66 H80 V72 H20 Z',
      'M33 66 L47 28 H53 L67 66 H58 L50 42 L42 66 Z',
      'M26 54 L72 16 L77 21 L31 59 Z',
      'M79 11 A7 7 0 1 1 78.9 11 Z',
    ],
    circles: [[32, 76, 9], [68, 76, 9]],
    detail: ['M32 70 V82', 'M26 76 H38', 'M68 70 V82', 'M62 76 H74'],
    noPlinth: true,
  },
  cannon: {
    body: [
      'M18 50 L72 30 C80 27 86 38 79 42 L25 64 C17 67 13 53 18 50 Z',
      'M36 79 L44 58 H58 L66 79 Z',
    ],
    circles: [[51, 66, 13]],
    detail: ['M51 55 V77', 'M40 66 H62', 'M30 50 L34 58', 'M62 38 L66 46'],
    dots: [[82, 36, 2.5]],
  },
  gryphon: {
    // Eagle head with a hooked beak and ear tufts, a feathered wing raised behind.
    body: [
      'M56 56 C60 40 70 22 90 9 C93 30 89 48 77 60 C72 64 62 63 56 56 Z',
      'M30 79 C31 68 35 60 40 54 C35 50 32 46 31 42 L22 43 C19 44 17 46 16 49 ' +
        'C12 40 17 30 27 26 C32 20 38 17 43 17 L46 5 L52 17 C61 21 65 30 64 42 ' +
        'C66 56 70 68 70 79 Z',
    ],
    detail: ['M65 47 L81 22', 'M71 53 L87 30', 'M24 39 L31 38', 'M40 68 C46 64 54 64 60 68'],
    dots: [[39, 29, 3.4]],
  },
  aanca: {
    // The great bird with spread wings and a spiked crown.
    body: [
      'M44 50 C36 34 24 24 8 22 C12 34 18 48 34 60 Z',
      'M56 50 C64 34 76 24 92 22 C88 34 82 48 66 60 Z',
      'M50 36 C60 36 64 48 63 60 C62 70 58 76 56 79 H44 C42 76 38 70 37 60 C36 48 40 36 50 36 Z',
      'M50 20 A9 9 0 1 1 49.9 20 Z',
      'M42 20 L43 10 L47 16 L50 8 L53 16 L57 10 L58 20 Z',
    ],
    marks: ['M47 31 L53 31 L50 37 Z'],
    detail: ['M14 28 L34 48', 'M86 28 L66 48', 'M45 52 Q50 58 55 52'],
    dots: [[46, 27, 1.8], [54, 27, 1.8]],
  },
  rhinoceros: {
    // A heavy head in profile: a great curved horn on the nose, a small one behind.
    body: [
      'M30 79 L34 70 C32 66 28 66 22 64 C15 62 15 54 20 50 C22 42 20 32 14 19 ' +
        'C22 27 27 35 32 42 L37 41 L40 29 L45 39 C52 36 58 34 62 34 L64 23 L70 35 ' +
        'C78 40 82 54 80 64 C80 70 79 75 78 79 Z',
    ],
    detail: ['M56 44 C61 54 61 64 56 74', 'M21 60 L28 61', 'M66 46 C70 52 71 60 69 66'],
    dots: [[44, 50, 3.2], [22, 55, 1.8]],
  },
  lion: {
    // A lion's face in its mane.
    body: [
      'M50 8 L56 17 L66 11 L67 22 L78 20 L74 30 L85 34 L76 41 L84 50 L73 53 L77 64 ' +
        'L66 62 L64 73 L56 66 L50 76 L44 66 L36 73 L34 62 L23 64 L27 53 L16 50 L24 41 ' +
        'L15 34 L26 30 L22 20 L33 22 L34 11 L44 17 Z',
      'M50 26 C61 26 66 34 66 43 C66 54 58 62 50 62 C42 62 34 54 34 43 C34 34 39 26 50 26 Z',
      'M40 79 L43 68 H57 L60 79 Z',
    ],
    marks: ['M45 47 H55 L50 53 Z'],
    detail: ['M50 53 V57', 'M44 58 Q50 62 56 58'],
    dots: [[43, 40, 2.6], [57, 40, 2.6]],
  },
  crocodile: {
    // Long and low: jaws with teeth, an eye on top, a curling tail.
    body: [
      'M8 62 C12 56 24 54 36 52 C40 46 46 45 50 50 C62 50 76 52 84 58 C90 62 94 68 88 72 ' +
        'C82 76 74 74 66 72 L60 79 H52 L50 72 H36 L33 79 H25 L24 70 C16 70 8 68 8 62 Z',
    ],
    detail: ['M10 63 H36', 'M14 63 L16 59 L18 63 L20 59 L22 63 L24 59 L26 63 L28 59 L30 63',
      'M58 58 L62 62 L66 58 L70 62 L74 58', 'M84 64 C90 66 92 70 88 72'],
    dots: [[44, 51, 2.6]],
  },
  giraffe: {
    // Long neck, small head with two horns, spotted.
    body: [
      'M30 79 L31 62 C31 55 37 51 45 51 L55 25 C53 21 53 16 57 14 L58 6 L62 13 L65 7 ' +
        'L67 14 C72 15 79 19 81 24 L73 28 C69 28 66 28 64 31 L58 52 C64 55 68 61 68 79 H59 ' +
        'V66 H40 V79 Z',
    ],
    marks: ['M50 56 h6 v5 h-6 z', 'M38 58 h6 v5 h-6 z', 'M56 36 l5 1 l-1 5 l-5 -1 z', 'M60 66 h5 v5 h-5 z', 'M42 66 h6 v5 h-6 z'],
    dots: [[64, 19, 2.2]],
  },
  duck: {
    // Duck chess's duck: a round body, a raised head and a flat beak.
    body: [
      'M18 62 C18 48 30 42 44 44 C50 45 56 48 60 52 C66 46 76 46 82 40 C84 54 80 72 62 78 C48 82 22 80 18 62 Z',
      'M40 44 C34 38 34 24 44 18 C54 13 64 20 63 31 C62 38 58 42 54 46 Z',
      'M61 26 C68 24 77 25 82 29 C77 33 68 34 61 33 Z',
    ],
    detail: ['M30 60 C40 66 52 66 60 60'],
    dots: [[52, 27, 2.8]],
  },
  pawn: {
    body: [
      'M35 79 C35 68 40 60 45 55 H55 C60 60 65 68 65 79 Z',
      'M40 55 C38 51 40 47 44 46 H56 C60 47 62 51 60 55 Z',
      'M50 21 A13 13 0 1 1 49.9 21 Z',
    ],
    detail: ['M40 70 H60'],
  },
};

const ALIASES = {
  'war engine': 'war-engine', warengine: 'war-engine', engine: 'war-engine', dabbaba: 'war-engine',
  griffin: 'gryphon', griffon: 'gryphon', rhino: 'rhinoceros', unicorn: 'rhinoceros',
  fers: 'ferz', met: 'ferz', counsellor: 'ferz', horse: 'knight',
  'stuck-pawn': 'pawn',  // three-player chess: a pawn that changed hands and only captures
};

export function glyphName(name) {
  const n = String(name || '').toLowerCase().replace(/_/g, '-').trim();
  if (GLYPHS[n]) return n;
  if (ALIASES[n]) return ALIASES[n];
  const dashed = n.replace(/\s+/g, '-');
  if (GLYPHS[dashed]) return dashed;
  return null;
}

export const PIECE_NAMES = Object.keys(GLYPHS);

function el(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// Builds a <g> drawing the named piece in a 100x100 box. `letter` is shown
// in a badge when the name has no glyph, so an unknown piece still reads.
export function pieceGlyph(name, letter) {
  // four-player chess's 1-point queen: the queen with a "1" on a disc
  if (glyphName(name) === null && String(name || '').toLowerCase() === 'dame') {
    const g = pieceGlyph('queen', letter);
    g.append(el('circle', { cx: 50, cy: 66, r: 11, fill: 'var(--pd)', stroke: 'var(--ps)', 'stroke-width': '2' }));
    const t = el('text', { x: 50, y: 72.5, 'text-anchor': 'middle', 'font-size': 17, 'font-weight': 700, fill: 'var(--ps)', 'font-family': 'sans-serif' });
    t.textContent = '1';
    g.append(t);
    g.setAttribute('data-glyph', 'dame');
    return g;
  }
  const g = el('g', { class: 'glyph' });
  const key = glyphName(name);
  const spec = GLYPHS[key];
  const bodyAttrs = { fill: 'var(--pf)', stroke: 'var(--ps)', 'stroke-width': '3', 'stroke-linejoin': 'round' };
  if (!spec) {
    g.append(el('path', { d: PLINTH, ...bodyAttrs }));
    g.append(el('circle', { cx: 50, cy: 46, r: 28, ...bodyAttrs }));
    const t = el('text', { x: 50, y: 57, 'text-anchor': 'middle', 'font-size': 34, 'font-weight': 700, fill: 'var(--pd)', 'font-family': 'sans-serif' });
    t.textContent = (letter || '?').toUpperCase();
    g.append(t);
    return g;
  }
  if (!spec.noPlinth) g.append(el('path', { d: PLINTH, ...bodyAttrs }));
  for (const d of spec.body) g.append(el('path', { d, ...bodyAttrs }));
  for (const [cx, cy, r] of spec.circles || []) if (r > 0) g.append(el('circle', { cx, cy, r, ...bodyAttrs }));
  for (const d of spec.marks || []) g.append(el('path', { d, fill: 'var(--pd)', stroke: 'none' }));
  for (const d of spec.detail || []) {
    g.append(el('path', { d, fill: 'none', stroke: 'var(--pd)', 'stroke-width': '2.6', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }));
  }
  for (const [cx, cy, r] of spec.dots || []) g.append(el('circle', { cx, cy, r, fill: 'var(--pd)' }));
  return g;
}

// A standalone <svg> of a piece, for side panels, the die and the rules pages.
export function pieceIcon(name, seat, size = 36, letter) {
  const svg = el('svg', { viewBox: '0 0 100 100', width: size, height: size, class: `piece-icon seat-${seat || 'white'}`, role: 'img' });
  const title = el('title', {});
  title.textContent = name || letter || '';
  svg.append(title, pieceGlyph(name, letter));
  return svg;
}

// The "tokens" set, a second set of our own for the chess-like games: each
// piece a disc in the seat's colour carrying the sign of its move, drawn in
// the detail colour: the rook's cross, the bishop's saltire, both for the
// queen, the king's short star in a ring, the knight's L, the pawn's dot, the
// ferz's diamond, the alfil's and the war engine's leaps as four dots, the
// cannon's cross broken round its screen. A piece without a sign shows its
// letter.
const LINE = { fill: 'none', stroke: 'var(--pd)', 'stroke-width': '8', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
const ROOK_SIGN = 'M50 19 V81 M19 50 H81';
const BISHOP_SIGN = 'M29 29 L71 71 M71 29 L29 71';
const TOKEN_SIGNS = {
  king: { lines: ['M50 33 V67 M33 50 H67 M38 38 L62 62 M62 38 L38 62'], rings: [[50, 50, 29]] },
  queen: { lines: [ROOK_SIGN, BISHOP_SIGN] },
  rook: { lines: [ROOK_SIGN] },
  bishop: { lines: [BISHOP_SIGN] },
  knight: { lines: ['M37 74 V30 H61'], dots: [[63, 30, 8]] },
  pawn: { dots: [[50, 50, 13]] },
  ferz: { lines: ['M50 27 L73 50 L50 73 L27 50 Z'] },
  alfil: { dots: [[30, 30, 7], [70, 30, 7], [30, 70, 7], [70, 70, 7]] },
  'war-engine': { dots: [[50, 22, 7], [78, 50, 7], [50, 78, 7], [22, 50, 7]] },
  elephant: { lines: ['M50 36 L64 50 L50 64 L36 50 Z'], dots: [[28, 28, 6], [72, 28, 6], [28, 72, 6], [72, 72, 6]] },
  khon: { lines: ['M50 36 L64 50 L50 64 L36 50 Z'], dots: [[50, 21, 7]] },
  cannon: { lines: ['M50 18 V38 M50 62 V82 M18 50 H38 M62 50 H82'], rings: [[50, 50, 9]] },
};

const TOKEN_ALIAS = { advisor: 'ferz', general: 'king', soldier: 'pawn', boat: 'alfil' };

export function tokenGlyph(name, letter, angle = 0) {
  const plain = String(name || '').toLowerCase();
  const key = glyphName(name) || TOKEN_ALIAS[plain] || plain;
  const sign = TOKEN_SIGNS[key === 'dame' ? 'queen' : key];
  const g = el('g', { class: 'glyph token', 'data-set': 'tokens', 'data-token': sign ? key : 'letter' });
  g.append(el('circle', { cx: 50, cy: 50, r: 41, fill: 'var(--pf)', stroke: 'var(--ps)', 'stroke-width': '3.5', class: 'token-body' }));
  if (!sign) {
    const t = el('text', { x: 50, y: 64, 'text-anchor': 'middle', 'font-size': 40, 'font-weight': 700, fill: 'var(--pd)', 'font-family': 'sans-serif' });
    t.textContent = (letter || '?').toUpperCase();
    g.append(t);
    return g;
  }
  // the sign turned as the piece faces (the khon's step and the knight's L point at the opponent)
  const turned = el('g', { transform: `rotate(${angle} 50 50)` });
  g.append(turned);
  for (const d of sign.lines || []) turned.append(el('path', { d, ...LINE }));
  for (const [cx, cy, r] of sign.rings || []) turned.append(el('circle', { cx, cy, r, fill: 'none', stroke: 'var(--pd)', 'stroke-width': '4' }));
  for (const [cx, cy, r] of sign.dots || []) turned.append(el('circle', { cx, cy, r, fill: 'var(--pd)' }));
  if (key === 'dame') {
    // four-player chess's 1-point queen: the queen's sign with a "1"
    g.append(el('circle', { cx: 50, cy: 50, r: 13, fill: 'var(--pf)', stroke: 'var(--pd)', 'stroke-width': '3' }));
    const t = el('text', { x: 50, y: 57, 'text-anchor': 'middle', 'font-size': 20, 'font-weight': 700, fill: 'var(--pd)', 'font-family': 'sans-serif' });
    t.textContent = '1';
    g.append(t);
  }
  return g;
}

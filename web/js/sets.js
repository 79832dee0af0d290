// Piece sets beyond our own glyphs (pieces.js): the traditional pieces of
// xiangqi and janggi (characters in coloured discs and octagons) and of shogi
// (kanji on wedge-shaped pieces pointing at the opponent), each drawn as SVG
// shapes and text in the system's fonts (no font is downloaded), and the
// international sets of the same games (our glyphs, a promoted piece marked).
//
// A game's family comes from what the API says of it (api.md, "Variants"):
// palaces make a xiangqi-like game (janggi by its name), promoted types and
// drops a shogi-like one.

import { pieceGlyph, glyphName, tokenGlyph } from './pieces.js';

const SVGNS = 'http://www.w3.org/2000/svg';
function el(tag, attrs = {}, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

// The families and their sets; the first set is the default. 'chess' stands
// for every other game (chess, its variants, Shako, the Alfonso games, the
// many-seat games): our glyphs (pieces.js) or our tokens (a disc with the
// sign of the piece's move).
export const SETS = {
  xiangqi: ['traditional', 'international'],
  janggi: ['traditional', 'international'],
  shogi: ['kanji', 'international'],
  chess: ['acedrex', 'tokens'],
};
// The family whose sets a game offers: its own, else the chess-like one.
export const setFamily = (variant) => familyOf(variant) || 'chess';

export function familyOf(variant) {
  if (!variant) return null;
  if (variant.name === 'janggi' || /^janggi/.test(variant.name || '')) return 'janggi';
  if ((variant.palaces || []).length) return 'xiangqi';
  const pieces = variant.pieces || [];
  if (variant.drops && pieces.some((p) => p.base) && pieces.some((p) => p.name === 'gold' || p.name === 'silver')) return 'shogi';
  return null;
}

// Characters by piece name: [first seat, second seat].
const XIANGQI = {
  king: ['帥', '將'], advisor: ['仕', '士'], elephant: ['相', '象'], horse: ['傌', '馬'],
  rook: ['俥', '車'], cannon: ['炮', '砲'], soldier: ['兵', '卒'],
};
const JANGGI = {
  king: ['楚', '漢'], guard: ['士', '士'], advisor: ['士', '士'], elephant: ['象', '象'], horse: ['馬', '馬'],
  rook: ['車', '車'], cannon: ['包', '包'], soldier: ['卒', '兵'],
};
const SHOGI = {
  king: ['玉', '王'], gold: ['金'], silver: ['銀'], knight: ['桂'], lance: ['香'], pawn: ['歩'],
  rook: ['飛'], bishop: ['角'], tokin: ['と'], 'promoted-lance': ['杏'], 'promoted-knight': ['圭'],
  'promoted-silver': ['全'], dragon: ['龍'], horse: ['馬'],
};
const CJK_FONT = "'Noto Serif CJK SC', 'Noto Sans CJK SC', 'Source Han Serif', 'WenQuanYi Micro Hei', 'Songti SC', 'SimSun', 'MS Mincho', 'Hiragino Mincho ProN', serif";

// Janggi's pieces come in three sizes: the king, the soldiers and guards, the rest.
const JANGGI_SIZE = { king: 44, guard: 30, advisor: 30, soldier: 30 };

function discPiece(ch, seatIndex, family, name) {
  const g = el('g', { class: `trad trad-${family}`, 'data-set': 'traditional' });
  const ink = family === 'janggi' ? (seatIndex === 0 ? '#1d5aa6' : '#c0261d') : (seatIndex === 0 ? '#c0261d' : '#1b1b1b');
  if (family === 'janggi') {
    const r = JANGGI_SIZE[name] || 38;
    const k = r * 0.414;
    const pts = [[-k, -r], [k, -r], [r, -k], [r, k], [k, r], [-k, r], [-r, k], [-r, -k]].map(([x, y]) => `${50 + x},${50 + y}`).join(' ');
    el('polygon', { points: pts, fill: '#f7ecd2', stroke: ink, 'stroke-width': 3.5, class: 'trad-body' }, g);
    const t = el('text', { x: 50, y: 50, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': r * 1.15, fill: ink, 'font-family': CJK_FONT, 'font-weight': 700 }, g);
    t.textContent = ch;
  } else {
    el('circle', { cx: 50, cy: 50, r: 42, fill: '#f4e2bc', stroke: '#6b4a24', 'stroke-width': 3, class: 'trad-body' }, g);
    el('circle', { cx: 50, cy: 50, r: 35, fill: 'none', stroke: ink, 'stroke-width': 2.5 }, g);
    const t = el('text', { x: 50, y: 51, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 44, fill: ink, 'font-family': CJK_FONT, 'font-weight': 700 }, g);
    t.textContent = ch;
  }
  return g;
}

function shogiPiece(chars, promoted, angle) {
  const g = el('g', { class: 'trad trad-shogi', 'data-set': 'kanji', transform: `rotate(${angle} 50 50)` });
  el('path', { d: 'M50 8 L74 18 L84 92 H16 L26 18 Z', fill: '#f1d495', stroke: '#5e4320', 'stroke-width': 3, 'stroke-linejoin': 'round', class: 'trad-body' }, g);
  const ink = promoted ? '#c0261d' : '#1b1b1b';
  const size = chars.length > 1 ? 30 : 42;
  chars.split('').forEach((ch, i) => {
    const y = chars.length > 1 ? 42 + i * 30 : 58;
    const t = el('text', { x: 50, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': size, fill: ink, 'font-family': CJK_FONT, 'font-weight': 700 }, g);
    t.textContent = ch;
  });
  return g;
}

// Our glyphs for the other games' names (the shogi horse and dragon go by their base).
const INTERNATIONAL_ALIAS = { advisor: 'ferz', guard: 'ferz', soldier: 'pawn', horse: 'knight', general: 'king' };

function internationalPiece(pc, base) {
  const name = base || pc.name;
  const key = glyphName(name) ? name : INTERNATIONAL_ALIAS[name] || name;
  const g = el('g', { 'data-set': 'international' });
  const letter = (pc.letter || '?').toUpperCase();
  g.append(pieceGlyph(key, letter));
  if (base) {
    // promoted: a red badge with a plus
    el('circle', { cx: 82, cy: 18, r: 14, fill: '#c0261d', stroke: '#fff', 'stroke-width': 3, class: 'promoted-mark' }, g);
    el('path', { d: 'M82 10 V26 M74 18 H90', stroke: '#fff', 'stroke-width': 4.5, 'stroke-linecap': 'round' }, g);
  }
  return g;
}

// Builds the glyph of a piece for a family and a set, in a 100x100 box, or
// null when our own glyph (pieces.js) is the one to draw.
//   pc: {name, letter, seat}; seatIndex: 0 for the first seat; angle: where
//   the piece points on screen (0 up, 180 down); bases: name -> base name.
export function setGlyph(family, set, pc, seatIndex, angle = 0, bases = {}) {
  if (!family) return null;
  const base = bases[pc.name] || null;
  if (set === 'international') return internationalPiece(pc, base);
  if (family === 'shogi') {
    const chars = SHOGI[pc.name];
    if (!chars) return null;
    return shogiPiece(chars[Math.min(seatIndex, chars.length - 1)], !!base, angle);
  }
  const table = family === 'janggi' ? JANGGI : XIANGQI;
  const chars = table[pc.name];
  if (!chars) return null;
  return discPiece(chars[seatIndex ? 1 : 0], seatIndex, family, pc.name);
}

// What a board draws for a game beyond its squares, from its /api/variants
// entry (the game page, the rules diagrams and the lobby's miniatures agree):
// pieces on points with palaces and river for a game with palaces, plain
// squares for the shogis, and the glyph of the set chosen (default: the
// family's first). seatOrder: the seats in turn order (the glyph's seat index).
export function boardLook(variant, set = null, seatOrder = ['white', 'black']) {
  const fam = familyOf(variant);
  const pieces = (variant && variant.pieces) || [];
  const bases = {}, promoted = {};
  for (const p of pieces) if (p.base) { bases[p.name] = p.base; promoted[p.base] = p.name; }
  const sets = SETS[fam || 'chess'];
  const chosen = sets.includes(set) ? set : sets[0];
  return {
    family: fam,
    geometry: (variant && variant.geometry) || 'rect',
    style: (variant && (variant.palaces || []).length) ? 'intersections' : fam === 'shogi' ? 'plain' : undefined,
    palaces: (variant && variant.palaces) || [],
    river: !!(variant && variant.river),
    // the coordinates as the records name squares: shogi's numbers (files
    // 9..1 from the left, ranks 1..9 from the top, as Sente sees the board)
    coords: variant && variant.notation === 'shogi' ? 'shogi' : undefined,
    glyph: fam ? (pc, angle) => setGlyph(fam, chosen, pc, Math.max(0, seatOrder.indexOf(pc.seat)), angle, bases)
      : chosen === 'tokens' ? (pc, angle) => tokenGlyph(pc.name, pc.letter, angle) : null,
    // what the glyph function draws depends on: the board keeps a piece's
    // element while this stays the same (a new function with the same key)
    glyphKey: `${fam || ''}|${chosen}|${seatOrder.join(',')}|${JSON.stringify(bases)}`,
    promoted,
  };
}

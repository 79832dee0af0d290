// The Acedrex board: an SVG component for any rectangular board up to 16x16
// with blocked squares, pieces of up to four seats, a view turned by quarter
// turns, click-to-move and drag-and-drop, highlights and a promotion chooser.
//
//   const board = new Board(element, { onMove: (uci) => ... });
//   board.update({ width, height, blocked, pieces, legal, lastMove, check,
//                  rotation, toMove, arrows, interactive, pieceNames,
//                  style, palaces, river, glyph, promoted, visible, geometry });
// geometry 'hex3' (three-player chess, js/hexboard.js): the playable squares
// are drawn as the cells of the six-sided board (<polygon data-sq>), the
// holes not at all, and `rotation` counts third turns (the half at the bottom).
// visible (fog of war): the squares the viewer sees; the others are drawn as
// fog (a dark hatch, data-fog="e7"). null or absent: everything is seen.
//
// Move texts (the state's `legal`): "e2e4", "a9a10q", "b2h8+" (a promotion
// letter or "+"), "e5e5f" (a promotion in place: the piece is clicked twice),
// "P@e4" (a drop: a piece picked from a hand, see selectDrop and
// startHandDrag), and turns of two parts "e2e4,e4d5" (duck chess: the move,
// then the square the duck is put on, asked for as a second click). A move
// whose from- and to-square are the same without a letter is a pass (janggi):
// the board leaves it to a button of the page.
// style 'intersections' draws the pieces on the points of the lines (xiangqi,
// janggi) with the palaces' diagonals and the river; 'plain' squares of one
// colour with lines between them (shogi).
//
// Squares are named as in the notation: files a, b, ... from the left and
// ranks 1, 2, ... from the bottom, ranks above 9 with two digits.
// Every square is a <rect data-sq="e4">; pieces are drawn above the squares
// with pointer-events off, so clicks always land on a square.

import { pieceGlyph } from './pieces.js';
import { hexLayout, hexHit, hexNeighbour, insetCorners, polygonPoints } from './hexboard.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const S = 100;       // square size in SVG units
const MARGIN = 40;   // room for the coordinates, left and bottom
const PAD = 14;      // top and right

export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}
export function parseSquare(name) {
  const m = /^([a-p])(\d{1,2})$/.exec(name || '');
  return m ? { file: m[1].charCodeAt(0) - 97, rank: Number(m[2]) - 1 } : null;
}
// "a9a10q" -> {from: "a9", to: "a10", suffix: "q"}; a turn's first part only
// ("e2e4,e4d5" -> e2, e4, "").
export function parseMove(uci) {
  const m = /^([a-p]\d{1,2})([a-p]\d{1,2})([^,]*)/.exec(uci || '');
  return m ? { from: m[1], to: m[2], suffix: m[3] } : null;
}
// "P@e4" -> {letter: "P", to: "e4"} (a drop; a turn's first part only)
export function parseDrop(text) {
  const m = /^([A-Za-z+~]{1,3})@([a-p]\d{1,2})(?:,|$)/.exec(text || '');
  return m ? { letter: m[1], to: m[2] } : null;
}
// The square a turn's second part puts the duck on: "e2e4,e4d5" -> "d5".
export function duckSquare(text) {
  const i = String(text || '').indexOf(',');
  if (i < 0) return null;
  const m = /([a-p]\d{1,2})$/.exec(text.slice(i + 1));
  return m ? m[1] : null;
}
// A pass: the same square twice and nothing else ("e2e2"), or "0000".
export function isPass(text) {
  const mv = parseMove(text);
  return text === '0000' || (!!mv && mv.from === mv.to && !mv.suffix && !String(text).includes(','));
}

function el(tag, attrs = {}, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

const DIR_ANGLE = { n: 0, e: 90, s: 180, w: 270 };
const BLAST_MS = 900;

export class Board {
  constructor(container, opts = {}) {
    this.container = container;
    this.onMove = opts.onMove || (() => {});
    // Rules diagrams are drawn small: they ask for larger coordinates (and room for them).
    this.coordSize = opts.coordSize || 22;
    this.M = opts.coordSize ? Math.round(opts.coordSize * 1.9) : MARGIN;
    this.cfg = { width: 8, height: 8, blocked: [], pieces: [], legal: {}, rotation: 0 };
    this.selected = null;
    this.drag = null;
    this.promo = null;
    this.duck = null;       // {head, options: Map(square -> full text)} while the duck's square is asked for
    this.dropSel = null;    // the hand piece (letter) picked for a drop
    this.blasts = [];       // atomic: explosions being shown {squares, t0}
    this.localMove = null;
    // Premoves (cfg.premoveSeat: the seat whose pieces may be queued while it
    // is not its turn): a click on one of its pieces, then a click on any
    // square; the page plays it when the turn comes if it is legal then.
    // A click elsewhere or a right click cancels it.
    this.premove = null;    // {from, to}
    this.preSel = null;     // the piece picked for a premove
    this.svg = el('svg', { class: 'acedrex-board', role: 'img', 'aria-label': 'board' });
    this.focused = false;
    // The keyboard's cursor is drawn only while the keyboard is in use (as
    // :focus-visible): focus by Tab or a key pressed shows it, a pointer hides it.
    this.keyboardUsed = false;
    container.append(this.svg);
    this.initLayers();
    this.svg.addEventListener('pointerdown', (e) => { this.keyboardUsed = false; this.pointerDown(e); });
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.svg.addEventListener('contextmenu', (e) => {
      e.preventDefault();
      if (this.premove || this.preSel) { this.premove = null; this.preSel = null; this.render(); }
    });
    // Keyboard play (the game page): the board takes the focus; arrows move a
    // cursor over the squares as they are seen, Enter or Space picks up a piece
    // and puts it down, Escape lets it go. onAnnounce(text) gets what a screen
    // reader should hear (the square, its piece, what the key did).
    this.onAnnounce = opts.onAnnounce || null;
    this.onStage = opts.onStage || null;     // 'duck' while the duck's square is asked for, then null
    this.onRendered = opts.onRendered || null;   // after every drawing (the hands follow the picked piece)
    // A press on a board that takes no move and queues no premove (another
    // seat to move, the moves before still being shown): the page says why.
    this.onIdlePress = opts.onIdlePress || null;
    this.cursor = null;
    if (opts.keyboard) {
      this.svg.setAttribute('tabindex', '0');
      this.svg.setAttribute('role', 'application');
      this.svg.addEventListener('keydown', (e) => this.keyDown(e));
      this.svg.addEventListener('focus', () => {
        this.focused = true;
        this.keyboardUsed = this.svg.matches(':focus-visible');
        if (!this.cursor) this.cursor = this.selected || Object.keys(this.cfg.legal || {}).find((q) => this.movesFrom(q).length) || squareName(0, 0);
        this.render();
        this.announce();
      });
      this.svg.addEventListener('blur', () => { this.focused = false; this.render(); });
    }
  }

  describe(sq) {
    const L = this.cfg.labels || {};
    const pc = this.pieceAt(sq);
    const hidden = !pc && Array.isArray(this.cfg.visible) && !this.cfg.visible.includes(sq);
    const what = pc ? this.pieceText(pc) : hidden ? (L.hidden || 'hidden') : (L.empty || 'empty');
    const notes = [];
    if (this.selected === sq) notes.push(L.selected || 'selected');
    else if (this.selected && this.destinations(this.selected).has(sq)) notes.push(L.destination || 'a move goes here');
    else if (!this.selected && this.movesFrom(sq).length) notes.push(L.movable || 'can move');
    return `${this.squareLabel(sq)}: ${what}${notes.length ? `, ${notes.join(', ')}` : ''}`;
  }
  // The coordinates as the records name squares: chess's letters and
  // numbers, or (cfg.coords 'shogi') shogi's numbers, files counted from the
  // right and ranks from the top as Sente sees the board ("76" is c4).
  fileLabel(file) { return this.cfg.coords === 'shogi' ? String(this.cfg.width - file) : String.fromCharCode(97 + file); }
  rankLabel(rank) { return this.cfg.coords === 'shogi' ? String(this.cfg.height - rank) : String(rank + 1); }
  squareLabel(sq) {
    const p = parseSquare(sq);
    return p && this.cfg.coords === 'shogi' ? this.fileLabel(p.file) + this.rankLabel(p.rank) : sq;
  }
  // "White pawn", "duck" (a blocker of no seat: the state's seat is null).
  pieceText(pc) {
    const L = this.cfg.labels || {};
    const name = L.piece ? L.piece(pc.name || pc.letter) : pc.name || pc.letter;
    return pc.seat ? `${L.seat ? L.seat(pc.seat) : pc.seat} ${name}` : name;
  }
  announce() {
    if (this.onAnnounce && this.cursor) this.onAnnounce(this.describe(this.cursor));
  }

  keyDown(e) {
    if (!this.keyboardUsed) { this.keyboardUsed = true; this.render(); }
    if (this.promo) {
      if (e.key === 'Escape') { this.promo = null; this.selected = null; this.render(); e.preventDefault(); e.stopPropagation(); }
      else if (/^[a-z+=]$/i.test(e.key)) {
        const m = this.promo.moves.find((x) => (parseMove(x.split(',').pop()).suffix || '=').toLowerCase() === e.key.toLowerCase());
        if (m) { this.promo = null; this.selected = null; this.choose(m); e.preventDefault(); e.stopPropagation(); }
      }
      return;
    }
    const delta = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (delta && this.hex) {
      this.cursor = hexNeighbour(this.layout, this.cursor, delta[0], delta[1]);
    } else if (delta) {
      const p = parseSquare(this.cursor) || { file: 0, rank: 0 };
      const d = this.toDisplay(p.file, p.rank);
      const c = Math.min(this.cols - 1, Math.max(0, d.c + delta[0])), r = Math.min(this.rows - 1, Math.max(0, d.r + delta[1]));
      this.cursor = this.fromDisplay(c, r);
    } else if (e.key === 'Enter' || e.key === ' ') {
      if (this.cursor) this.activate(this.cursor);
    } else if (e.key === 'Escape') {
      this.selected = null;
      this.dropSel = null;
      this.setDuck(null);
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    this.render();
    this.announce();
  }

  // A click (or Enter) on a square: move the selected piece there, or select
  // the piece standing there, or let the selection go.
  activate(sq) {
    if (this.duck) { this.placeDuck(sq); return; }
    if (this.dropSel) {
      if (this.dropTargets(this.dropSel).has(sq)) { this.tryDrop(sq); return; }
      this.dropSel = null;
    }
    if (this.selected && this.destinations(this.selected).has(sq)) {
      this.tryMove(this.selected, sq);
      return;
    }
    this.selected = this.movesFrom(sq).length && this.selected !== sq ? sq : null;
    this.render();
  }

  // ---- geometry -----------------------------------------------------------
  get rot() { return this.hex ? 0 : ((this.cfg.rotation || 0) % 4 + 4) % 4; }
  get hex() { return this.cfg.geometry === 'hex3'; }
  // the hex board's layout for the view's third turn (kept until the turn changes)
  get layout() {
    const turn = ((this.cfg.rotation || 0) % 3 + 3) % 3;
    if (!this.hexLay || this.hexLay.turn !== turn) this.hexLay = { turn, lay: { ...hexLayout(turn), turn } };
    return this.hexLay.lay;
  }
  // the board's drawing area (SVG units): the squares without the coordinates
  area() {
    if (this.hex) { const m = 40; return { x: m, y: m, w: this.layout.width - 2 * m, h: this.layout.height - 2 * m }; }
    return { x: this.M, y: PAD, w: this.cols * S, h: this.rows * S };
  }
  // A square's shape (a rect, or the hex cell's quadrilateral), inset by `inset`.
  cellShape(parent, sq, attrs, inset = 0, rx = 0) {
    const spec = this.cellSpec(sq, attrs, inset, rx);
    return spec ? el(spec.tag, spec.attrs, parent) : null;
  }
  get cols() { return this.rot % 2 ? this.cfg.height : this.cfg.width; }
  get rows() { return this.rot % 2 ? this.cfg.width : this.cfg.height; }

  // board (file, rank) -> display (col, row), row 0 at the top
  toDisplay(file, rank) {
    let c = file, r = this.cfg.height - 1 - rank, w = this.cfg.width, h = this.cfg.height;
    for (let i = 0; i < this.rot; i++) {   // a quarter turn clockwise
      [c, r] = [h - 1 - r, c];
      [w, h] = [h, w];
    }
    return { c, r };
  }
  fromDisplay(c, r) {
    for (let f = 0; f < this.cfg.width; f++) {
      for (let k = 0; k < this.cfg.height; k++) {
        const d = this.toDisplay(f, k);
        if (d.c === c && d.r === r) return squareName(f, k);
      }
    }
    return null;
  }
  squareXY(name) {
    if (this.hex) {
      const c = this.layout.cells.get(name);
      return c ? { x: c.cx - S / 2, y: c.cy - S / 2 } : { x: -1000, y: -1000 };
    }
    const p = parseSquare(name);
    const d = this.toDisplay(p.file, p.rank);
    return { x: this.M + d.c * S, y: PAD + d.r * S };
  }
  pointToSquare(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = pt.matrixTransform(ctm.inverse());
    if (this.hex) return { sq: hexHit(this.layout, p.x, p.y), x: p.x, y: p.y };
    const c = Math.floor((p.x - this.M) / S), r = Math.floor((p.y - PAD) / S);
    if (c < 0 || r < 0 || c >= this.cols || r >= this.rows) return { sq: null, x: p.x, y: p.y };
    return { sq: this.fromDisplay(c, r), x: p.x, y: p.y };
  }

  // ---- state --------------------------------------------------------------
  update(cfg) {
    const prevLast = this.cfg.lastMove;
    this.cfg = { ...this.cfg, ...cfg };
    this.indexMoves();
    if (this.selected && !this.movesFrom(this.selected).length) this.selected = null;
    if (this.promo && !this.movesFrom(this.promo.from).length && !this.promo.drop) this.promo = null;
    if (this.dropSel && !this.dropTargets(this.dropSel).size) this.dropSel = null;
    if (this.duck && !this.cfg.interactive) this.duck = null;
    if (!this.cfg.premoveSeat) {
      // The turn came while a piece was picked for a premove: it stays picked
      // (now as the selection) if it can move, so the next click plays it.
      if (this.preSel && this.cfg.interactive && !this.selected && this.movesFrom(this.preSel).length) this.selected = this.preSel;
      this.preSel = null;
    }
    if (!this.cfg.premoveSeat && !this.cfg.interactive) this.premove = null;
    const animate = cfg.lastMove && cfg.lastMove !== prevLast && cfg.lastMove !== this.localMove && cfg.animate !== false;
    this.render(animate ? parseMove(cfg.lastMove) : null);
  }

  // The legal move texts sorted for the board: board moves by from-square
  // (passes left out), drops by the hand piece's letter.
  indexMoves() {
    this.byFrom = new Map();
    this.byDrop = new Map();
    this.allMoves = [];
    if (!this.cfg.interactive || !this.cfg.legal) return;
    for (const text of Object.values(this.cfg.legal).flat()) {
      this.allMoves.push(text);
      const d = parseDrop(text);
      if (d) {
        if (!this.byDrop.has(d.letter)) this.byDrop.set(d.letter, []);
        this.byDrop.get(d.letter).push(text);
        continue;
      }
      const mv = parseMove(text);
      if (!mv || isPass(text)) continue;
      if (!this.byFrom.has(mv.from)) this.byFrom.set(mv.from, []);
      this.byFrom.get(mv.from).push(text);
    }
  }
  movesFrom(sq) {
    return (this.byFrom && this.byFrom.get(sq)) || [];
  }
  // to-square -> the distinct first parts of the turns going there
  // ("b2h8+" and "b2h8": a promotion choice). Chess960: a king castling onto
  // its rook may also be put two squares aside (g or c file) where no other
  // move of it goes.
  destinations(sq) {
    const out = new Map();
    const add = (to, head) => {
      if (!out.has(to)) out.set(to, []);
      if (!out.get(to).includes(head)) out.get(to).push(head);
    };
    const castles = [];
    const mover = this.pieceAt(sq);
    for (const m of this.movesFrom(sq)) {
      const mv = parseMove(m);
      const head = m.split(',')[0];
      add(mv.to, head);
      const target = this.pieceAt(mv.to);
      if (mover && target && target.seat === mover.seat && (mover.name === 'king' || mover.letter === 'K')) castles.push(mv);
    }
    for (const mv of castles) {
      const f = parseSquare(mv.from), r = parseSquare(mv.to);
      if (f.rank !== r.rank) continue;
      const alias = squareName(r.file > f.file ? this.cfg.width - 2 : 2, f.rank);
      if (alias !== mv.from && !out.has(alias)) add(alias, `${mv.from}${mv.to}${mv.suffix}`);
    }
    return out;
  }
  // The squares a hand piece may be dropped on: square -> the drop texts' first parts.
  dropTargets(letter) {
    const out = new Map();
    for (const m of (this.byDrop && this.byDrop.get(letter)) || []) {
      const d = parseDrop(m);
      const head = m.split(',')[0];
      if (!out.has(d.to)) out.set(d.to, []);
      if (!out.get(d.to).includes(head)) out.get(d.to).push(head);
    }
    return out;
  }
  // Hand pieces: picked by a click (then a click on a square) ...
  selectDrop(letter) {
    this.selected = null;
    this.duck = null;
    this.dropSel = this.dropSel === letter || !this.dropTargets(letter).size ? null : letter;
    this.render();
    return this.dropSel;
  }
  pieceAt(sq) { return (this.cfg.pieces || []).find((p) => p.square === sq); }
  // The pieces as drawn: while the duck's square is asked for, the move is shown made.
  shownPieces() {
    const pieces = this.cfg.pieces || [];
    if (!this.duck) return pieces;
    const d = parseDrop(this.duck.head);
    if (d) return [...pieces, { square: d.to, seat: this.duck.seat, letter: d.letter, name: (this.cfg.pieceNames || {})[d.letter.toUpperCase()] || '' }];
    const mv = parseMove(this.duck.head);
    return pieces.filter((p) => p.square !== mv.to).map((p) => (p.square === mv.from ? { ...p, square: mv.to } : p));
  }

  // ---- drawing ------------------------------------------------------------
  // The SVG is built once as a stack of layers (initLayers). render() redraws
  // a layer only when what it shows has changed: the squares, the lines and
  // the coordinates when the board's geometry or view changes, the turn band
  // when the seat to move does, each group of highlights when its marks do;
  // the pieces are keyed by square and moved, added or removed one by one.
  initLayers() {
    const svg = this.svg;
    const defs = el('defs', {}, svg);
    const pat = el('pattern', { id: 'blocked-hatch', width: 16, height: 16, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
    el('rect', { width: 16, height: 16, fill: '#4a4440' }, pat);
    el('line', { x1: 0, y1: 0, x2: 0, y2: 16, stroke: '#5d5651', 'stroke-width': 7 }, pat);
    const chk = el('radialGradient', { id: 'check-glow' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#ff2a1a', 'stop-opacity': 0.95 }, chk);
    el('stop', { offset: '45%', 'stop-color': '#e0301f', 'stop-opacity': 0.7 }, chk);
    el('stop', { offset: '100%', 'stop-color': '#a01010', 'stop-opacity': 0 }, chk);
    const blast = el('radialGradient', { id: 'blast-glow' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#fff3b0', 'stop-opacity': 1 }, blast);
    el('stop', { offset: '45%', 'stop-color': '#ff9a1a', 'stop-opacity': 0.95 }, blast);
    el('stop', { offset: '100%', 'stop-color': '#d2300a', 'stop-opacity': 0.2 }, blast);
    // fog of war: hidden squares dark slate with a dense cross-hatch, told apart
    // from empty squares by lightness and texture, not by hue
    const fogPat = el('pattern', { id: 'fog-hatch', width: 20, height: 20, patternUnits: 'userSpaceOnUse' }, defs);
    el('rect', { width: 20, height: 20, fill: '#2b2f36' }, fogPat);
    el('path', { d: 'M0 20 L20 0 M-5 5 L5 -5 M15 25 L25 15 M0 0 L20 20', stroke: '#474d57', 'stroke-width': 3 }, fogPat);
    const layer = (name, parent = svg) => el('g', { 'data-layer': name }, parent);
    this.layers = { bands: layer('bands'), lines: layer('lines'), squares: layer('squares'), fog: layer('fog') };
    const hl = el('g', { class: 'highlights', 'pointer-events': 'none' }, svg);
    for (const name of ['last', 'check', 'marks', 'moves', 'blasts', 'cursor']) this.layers[name] = layer(name, hl);
    this.layers.coords = el('g', { class: 'coords', 'pointer-events': 'none' }, svg);
    this.layers.pieces = el('g', { class: 'pieces', 'pointer-events': 'none' }, svg);
    this.layers.hint = layer('hint');
    this.layers.drag = el('g', { class: 'drag-layer', 'pointer-events': 'none' }, svg);
    this.layers.promo = layer('promo');
    this.dragLayer = this.layers.drag;
    this.keys = {};               // layer -> the key of what it shows
    this.pieceEls = new Map();    // square -> the piece's element
  }
  // Redraws one layer when its key differs from the one it was drawn with.
  layer(name, key, draw) {
    if (this.keys[name] === key) return;
    this.keys[name] = key;
    this.layers[name].replaceChildren();
    draw(this.layers[name]);
  }
  // A layer drawn from a list of element descriptions {tag, attrs, kids,
  // delay}: the list is its key, so it is redrawn exactly when it changes.
  specLayer(name, specs) {
    this.layer(name, JSON.stringify(specs), (parent) => {
      const build = (p, list) => {
        for (const s of list) {
          if (!s) continue;
          const e = el(s.tag, s.attrs, p);
          if (s.delay !== undefined) e.style.animationDelay = `${-(performance.now() - s.delay)}ms`;
          if (s.kids) build(e, s.kids);
        }
      };
      build(parent, specs);
    });
  }
  // A square's shape (a rect, or the hex cell's quadrilateral) as a description.
  cellSpec(sq, attrs, inset = 0, rx = 0) {
    if (this.hex) {
      const c = this.layout.cells.get(sq);
      if (!c) return null;
      return { tag: 'polygon', attrs: { points: polygonPoints(inset ? insetCorners(c, inset) : c.corners), 'stroke-linejoin': 'round', ...attrs } };
    }
    const { x, y } = this.squareXY(sq);
    return { tag: 'rect', attrs: { x: x + inset, y: y + inset, width: S - 2 * inset, height: S - 2 * inset, ...(rx ? { rx } : {}), ...attrs } };
  }
  // Everything that places the squares on the screen.
  geometryKey() {
    const { cfg } = this;
    return JSON.stringify([cfg.width, cfg.height, cfg.blocked || [], this.rot, this.hex ? this.layout.turn : -1, cfg.style || '', !!cfg.river, cfg.palaces || [], cfg.coords || '', this.coordSize, this.M]);
  }
  // Draws the whole board again (a new piece set: the glyphs changed).
  redraw() {
    this.keys = {};
    this.render();
  }

  render(anim) {
    const { cfg } = this;
    const svg = this.svg;
    const W = this.cols * S, H = this.rows * S;
    svg.setAttribute('viewBox', this.hex ? `0 0 ${this.layout.width} ${this.layout.height}` : `0 0 ${this.M + W + PAD} ${PAD + H + this.M}`);
    svg.classList.toggle('hex3', this.hex);
    svg.setAttribute('data-rotation', String(this.hex ? this.layout.turn : this.rot));
    if (cfg.labels && cfg.labels.board) svg.setAttribute('aria-label', cfg.labels.board);
    const points = cfg.style === 'intersections';
    svg.classList.toggle('points', points);
    const geo = this.geometryKey();
    const blocked = new Set(cfg.blocked || []);

    // the static layers: the frame with the turn band, the lines, the squares, the coordinates
    this.layer('bands', `${geo}|${cfg.toMove || ''}`, (parent) => {
      // Holes reached from the board's edge (four-player chess's corners) are
      // drawn as nothing: the frame and the turn band follow the playing area.
      // Holes inside the board (Joko's centre) stay hatched squares.
      const outside = this.outsideHoles(blocked);
      const band = (cls, m, attrs) => {
        if (this.hex) { el('polygon', { class: cls, points: polygonPoints(this.layout.hexagon(m)), 'stroke-linejoin': 'round', ...attrs }, parent); return; }
        if (!outside.size) { el('rect', { class: cls, x: this.M - m, y: PAD - m, width: W + 2 * m, height: H + 2 * m, rx: m > 6 ? m - 4 : 3, ...attrs }, parent); return; }
        const g = el('g', { class: cls, ...attrs }, parent);
        for (const [r, c0, c1] of this.rowRuns(outside)) el('rect', { x: this.M + c0 * S - m, y: PAD + r * S - m, width: (c1 - c0) * S + 2 * m, height: S + 2 * m, rx: 3 }, g);
      };
      if (cfg.toMove) {
        // the seat to move: a band of its colour around the board, with a thin dark edge
        band('turn-edge', 13, { fill: '#3b3028' });
        band(`turn-frame seat-${cfg.toMove}`, 11, { 'data-turn': cfg.toMove });
      }
      band('frame', 5, {});
    });
    this.layer('lines', geo, (parent) => { if (points) this.drawLines(parent); });
    this.layer('squares', geo, (parent) => this.drawSquares(parent, blocked, points));
    this.layer('coords', geo, (parent) => this.drawCoords(parent));
    // fog of war: `visible` lists the squares the viewer sees; every other one is fogged
    this.layer('fog', `${geo}|${JSON.stringify(cfg.visible || null)}`, (parent) => {
      if (!Array.isArray(cfg.visible)) return;
      const seen = new Set(cfg.visible);
      const fog = el('g', { class: 'fog', 'pointer-events': 'none' }, parent);
      for (let f = 0; f < cfg.width; f++) {
        for (let r = 0; r < cfg.height; r++) {
          const name = squareName(f, r);
          if (seen.has(name) || blocked.has(name)) continue;
          this.cellShape(fog, name, { class: 'fog-sq', fill: 'url(#fog-hatch)', 'data-fog': name }, points ? 8 : 0, points ? 14 : 0);
        }
      }
    });

    this.renderHighlights();
    this.renderPieces(anim, geo);

    // the analysis' best move: an arrow over the pieces
    const hint = cfg.hint ? parseMove(cfg.hint) : null;
    const arrow = [];
    if (hint && parseSquare(hint.from) && parseSquare(hint.to) && hint.from !== hint.to) {
      const a = this.squareXY(hint.from), b = this.squareXY(hint.to);
      const x1 = a.x + S / 2, y1 = a.y + S / 2, x2 = b.x + S / 2, y2 = b.y + S / 2;
      const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      const tipX = x2 - ux * 18, tipY = y2 - uy * 18, baseX = tipX - ux * 34, baseY = tipY - uy * 34;
      arrow.push({
        tag: 'g', attrs: { class: 'hint-arrow', 'pointer-events': 'none', 'data-hint': `${hint.from}${hint.to}` },
        kids: [
          { tag: 'line', attrs: { x1: x1 + ux * 20, y1: y1 + uy * 20, x2: baseX, y2: baseY, 'stroke-width': 16, 'stroke-linecap': 'round' } },
          { tag: 'path', attrs: { d: `M${tipX} ${tipY} L${baseX - uy * 22} ${baseY + ux * 22} L${baseX + uy * 22} ${baseY - ux * 22} Z` } },
        ],
      });
    }
    this.specLayer('hint', arrow);
    // what is dragged lives in its own layer while the drag lasts
    if (!(this.drag && this.drag.active) && !this.handDrag) this.dragLayer.replaceChildren();
    if (this.promo !== this.shownPromo || this.keys.promo !== geo) {
      this.shownPromo = this.promo;
      this.keys.promo = geo;
      this.layers.promo.replaceChildren();
      if (this.promo) this.drawPromo(this.layers.promo);
    }
    if (this.onRendered) this.onRendered();
  }

  drawSquares(parent, blocked, points) {
    const { cfg } = this;
    const outside = this.outsideHoles(blocked);
    const squares = el('g', { class: 'squares' }, parent);
    if (this.hex) {
      for (const [name, c] of this.layout.cells) this.cellShape(squares, name, { class: `sq ${c.dark ? 'dark' : 'light'}`, 'data-sq': name });
      return;
    }
    for (let f = 0; f < cfg.width; f++) {
      for (let r = 0; r < cfg.height; r++) {
        const name = squareName(f, r);
        const { x, y } = this.squareXY(name);
        const isBlocked = blocked.has(name);
        if (outside.has(name)) { el('rect', { class: 'sq hole', x, y, width: S, height: S, 'data-sq': name, 'data-hole': '' }, squares); continue; }
        const cls = points ? 'sq point' : cfg.style === 'plain' && !isBlocked ? 'sq plain' : isBlocked ? 'sq blocked' : (f + r) % 2 === 0 ? 'sq dark' : 'sq light';
        const rect = el('rect', { class: cls, x, y, width: S, height: S, 'data-sq': name }, squares);
        if (isBlocked && !points) rect.setAttribute('fill', 'url(#blocked-hatch)');
      }
    }
  }

  // coordinates: the bottom row and the left column of the view
  drawCoords(coords) {
    const H = this.rows * S;
    if (this.hex) {
      for (const lb of this.layout.labels) {
        const t = el('text', { class: 'coord', x: lb.x, y: lb.y + this.coordSize * 0.36, 'text-anchor': 'middle', 'font-size': this.coordSize * 1.2 }, coords);
        t.textContent = lb.text;
      }
      return;
    }
    for (let c = 0; c < this.cols; c++) {
      const p = parseSquare(this.fromDisplay(c, this.rows - 1));
      const t = el('text', { class: 'coord', x: this.M + c * S + S / 2, y: PAD + H + this.coordSize * 1.6, 'text-anchor': 'middle', 'font-size': this.coordSize }, coords);
      t.textContent = this.rot % 2 ? this.rankLabel(p.rank) : this.fileLabel(p.file);
    }
    for (let r = 0; r < this.rows; r++) {
      const p = parseSquare(this.fromDisplay(0, r));
      const t = el('text', { class: 'coord', x: this.M / 2 - 6, y: PAD + r * S + S / 2 + this.coordSize * 0.36, 'text-anchor': 'middle', 'font-size': this.coordSize }, coords);
      t.textContent = this.rot % 2 ? this.fileLabel(p.file) : this.rankLabel(p.rank);
    }
  }

  // The highlights, each group redrawn only when its marks change: the last
  // move, check, diagram marks, the moves of the picked piece (with premoves
  // and the duck's squares), atomic blasts, the keyboard's cursor.
  renderHighlights() {
    const { cfg } = this;
    const at = (sq) => { const p = this.squareXY(sq); return { cx: p.x + S / 2, cy: p.y + S / 2 }; };
    // the last move: its two squares, a drop's square, a duck turn's squares and the duck's
    const last = [];
    const lastDrop = parseDrop(cfg.lastMove);
    const lm = cfg.seatMoves ? null : lastDrop ? { from: null, to: lastDrop.to } : parseMove(cfg.lastMove);
    if (lm && duckSquare(cfg.lastMove)) lm.duck = duckSquare(cfg.lastMove);
    // four players: every seat's last move in its colour, the latest strongest
    (cfg.seatMoves || []).forEach((mv, i, all) => {
      for (const sq of [mv.from, mv.to]) {
        if (!parseSquare(sq)) continue;
        last.push(this.cellSpec(sq, { class: `hl-seat seat-${mv.seat}${i === all.length - 1 ? ' latest' : ''}`, 'data-hl': i === all.length - 1 ? 'last' : 'seat-last', 'data-hl-seat': mv.seat }, 4, 6));
      }
    });
    if (lm) {
      for (const sq of [lm.from, lm.to, lm.duck]) if (parseSquare(sq)) last.push(this.cellSpec(sq, { class: 'hl-last', 'data-hl': 'last' }));
    }
    this.specLayer('last', last);
    this.specLayer('check', (cfg.check || []).filter((sq) => parseSquare(sq)).map((sq) => (
      { tag: 'circle', attrs: { ...at(sq), r: S * 0.56, fill: 'url(#check-glow)', 'data-hl': 'check', 'data-sq-check': sq } })));
    // diagram marks: {square, kind: 'move'|'capture'|'both'|'hop'}
    this.specLayer('marks', (cfg.marks || []).filter((mk) => parseSquare(mk.square)).map((mk) => {
      const { cx, cy } = at(mk.square);
      const kids = mk.kind === 'move' ? [{ tag: 'circle', attrs: { cx, cy, r: 20, fill: '#2f6d5a' } }]
        : mk.kind === 'capture' ? [{ tag: 'path', attrs: { d: `M${cx - 22} ${cy - 22} L${cx + 22} ${cy + 22} M${cx + 22} ${cy - 22} L${cx - 22} ${cy + 22}`, stroke: '#b8322a', 'stroke-width': 12, 'stroke-linecap': 'round' } }]
          : mk.kind === 'hop' ? [{ tag: 'circle', attrs: { cx, cy, r: 22, fill: 'none', stroke: '#d68a1c', 'stroke-width': 10 } }]
            : [{ tag: 'path', attrs: { d: `M${cx} ${cy - 22} A22 22 0 0 0 ${cx} ${cy + 22} Z`, fill: '#2f6d5a' } },
              { tag: 'path', attrs: { d: `M${cx} ${cy - 22} A22 22 0 0 1 ${cx} ${cy + 22} Z`, fill: '#b8322a' } }];
      return { tag: 'g', attrs: { class: `mark mark-${mk.kind}`, 'data-mark': mk.square, 'data-kind': mk.kind }, kids };
    }));
    const moves = [];
    const dots = (targets) => {
      for (const to of targets) {
        const c = at(to);
        if (this.pieceAt(to) || to === this.selected) moves.push({ tag: 'circle', attrs: { class: 'hl-cap', ...c, r: S / 2 - 6, 'data-dest': to } });
        else moves.push({ tag: 'circle', attrs: { class: 'hl-dest', ...c, r: S * 0.15, 'data-dest': to } });
      }
    };
    if (this.selected) {
      moves.push(this.cellSpec(this.selected, { class: 'hl-sel', 'data-hl': 'selected' }));
      dots(this.destinations(this.selected).keys());
    }
    if (this.dropSel) dots(this.dropTargets(this.dropSel).keys());
    // a queued premove, and the piece picked for one
    for (const [sq, kind] of [[this.premove && this.premove.from, 'premove'], [this.premove && this.premove.to, 'premove'], [this.preSel, 'premove-sel']]) {
      if (parseSquare(sq)) moves.push(this.cellSpec(sq, { class: `hl-premove${kind === 'premove-sel' ? ' sel' : ''}`, 'data-hl': kind, 'data-premove': sq }));
    }
    if (this.duck) {
      if (cfg.stepKind === 'chain' && this.duck.at && parseSquare(this.duck.at)) moves.push(this.cellSpec(this.duck.at, { class: 'hl-sel', 'data-hl': 'chain-from' }));
      for (const to of this.duck.options.keys()) moves.push({ tag: 'circle', attrs: { class: 'hl-duck', ...at(to), r: S * 0.17, 'data-duck': to, 'data-step': to } });
    }
    this.specLayer('moves', moves);
    // atomic: the blast of a capture, shown for a moment
    const now = performance.now();
    this.blasts = this.blasts.filter((b) => now - b.t0 < BLAST_MS);
    const blasts = [];
    for (const b of this.blasts) {
      for (const sq of b.squares) {
        if (parseSquare(sq)) blasts.push({ tag: 'circle', attrs: { class: `blast${sq === b.center ? ' center' : ''}`, ...at(sq), r: S * 0.62, fill: 'url(#blast-glow)', 'data-blast': sq }, delay: b.t0 });
      }
    }
    this.specLayer('blasts', blasts);
    const cursor = this.focused && this.keyboardUsed && this.cursor && parseSquare(this.cursor);
    this.specLayer('cursor', cursor ? [this.cellSpec(this.cursor, { class: 'hl-cursor', 'data-hl': 'cursor', 'data-cursor': this.cursor }, 3, 4)] : []);
  }

  // What a piece's element shows besides its place: a piece drawn with the
  // same key looks the same, so its element can stay or move.
  pieceKey(pc) {
    const { cfg } = this;
    const u = pc.union ? [pc.union.seat, pc.union.name, pc.union.letter] : null;
    return JSON.stringify([pc.seat || '', pc.letter || '', pc.name || '', pc.dir || '', u, !!pc.dead, !!cfg.arrows,
      cfg.glyphKey !== undefined ? cfg.glyphKey : this.glyphId(cfg.glyph), this.hex ? pc.square : '']);
  }
  glyphId(fn) {
    if (!fn) return 0;
    if (!this.glyphIds) { this.glyphIds = new WeakMap(); this.glyphCount = 0; }
    if (!this.glyphIds.has(fn)) this.glyphIds.set(fn, ++this.glyphCount);
    return this.glyphIds.get(fn);
  }
  // The pieces, keyed by square (chessground's way): a piece that stays keeps
  // its element; the one the last move moved slides from its square; another
  // that moved (a castling rook) takes an element of its own kind that is
  // free; what is left over is drawn new or removed.
  renderPieces(anim, geo) {
    const layer = this.layers.pieces;
    if (this.keys.pieces !== geo) { layer.replaceChildren(); this.pieceEls = new Map(); this.keys.pieces = geo; }
    const free = new Map(this.pieceEls);
    const items = this.shownPieces().filter((pc) => parseSquare(pc.square)).map((pc) => ({ pc, key: this.pieceKey(pc), g: null }));
    const slideFrom = anim && parseSquare(anim.from) ? anim.from : null;
    const fresh = (it) => { it.g = this.drawPiece(it.pc, layer); it.g.pieceKey = it.key; it.g.classList.add('no-anim'); };
    for (const it of items) {
      if (slideFrom && it.pc.square === anim.to) continue;
      const g = free.get(it.pc.square);
      if (g && g.pieceKey === it.key) { it.g = g; free.delete(it.pc.square); }
    }
    for (const it of items) {
      if (it.g || !slideFrom || it.pc.square !== anim.to) continue;
      const g = free.get(slideFrom);
      if (g && g.pieceKey === it.key) { it.g = g; free.delete(slideFrom); } else fresh(it);
      it.slide = slideFrom;
    }
    for (const it of items) {
      if (it.g) continue;
      for (const [sq, g] of free) if (g.pieceKey === it.key) { it.g = g; free.delete(sq); break; }
      if (!it.g) fresh(it);
      it.jump = true;
    }
    for (const g of free.values()) g.remove();
    this.pieceEls = new Map();
    for (const it of items) {
      const { g, pc } = it;
      const sq = pc.square;
      const { x, y } = this.squareXY(sq);
      if (g.getAttribute('data-square') !== sq) g.setAttribute('data-square', sq);
      const title = this.pieceTitle(pc);
      if (g.firstChild && g.firstChild.textContent !== title) g.firstChild.textContent = title;
      if (it.slide) {
        const s = this.squareXY(it.slide);
        g.setAttribute('transform', `translate(${x} ${y})`);
        g.style.transform = `translate(${s.x}px, ${s.y}px)`;
        g.classList.remove('no-anim');
        requestAnimationFrame(() => requestAnimationFrame(() => { g.style.transform = `translate(${x}px, ${y}px)`; }));
      } else if (it.jump) {
        g.classList.add('no-anim');
        g.setAttribute('transform', `translate(${x} ${y})`);
        g.style.transform = `translate(${x}px, ${y}px)`;
      }
      g.classList.toggle('movable', this.movesFrom(sq).length > 0);
      g.classList.toggle('dragging', !!(this.drag && this.drag.active && this.drag.from === sq));
      this.pieceEls.set(sq, g);
    }
  }

  // The blocked squares joined to the board's edge through blocked squares
  // (drawn as nothing, not as hatched holes).
  outsideHoles(blocked) {
    const out = new Set();
    if (!blocked.size || this.cfg.style === 'intersections') return out;
    const { width: w, height: h } = this.cfg;
    const todo = [];
    for (const name of blocked) {
      const p = parseSquare(name);
      if (p && (p.file === 0 || p.rank === 0 || p.file === w - 1 || p.rank === h - 1)) { out.add(name); todo.push(p); }
    }
    while (todo.length) {
      const p = todo.pop();
      for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const f = p.file + df, r = p.rank + dr;
        if (f < 0 || r < 0 || f >= w || r >= h) continue;
        const n = squareName(f, r);
        if (blocked.has(n) && !out.has(n)) { out.add(n); todo.push({ file: f, rank: r }); }
      }
    }
    return out;
  }
  // Each display row's runs of drawn squares: [row, first column, column after the last].
  rowRuns(outside) {
    const runs = [];
    for (let r = 0; r < this.rows; r++) {
      let start = -1;
      for (let c = 0; c <= this.cols; c++) {
        const on = c < this.cols && !outside.has(this.fromDisplay(c, r));
        if (on && start < 0) start = c;
        if (!on && start >= 0) { runs.push([r, start, c]); start = -1; }
      }
    }
    return runs;
  }

  // Xiangqi and janggi: the lines through the points, the palaces' diagonals
  // and the river (the inner files stop at it).
  drawLines(svg) {
    const { cfg } = this;
    const g = el('g', { class: 'lines', 'pointer-events': 'none' }, svg);
    const W = this.cols * S, H = this.rows * S;
    el('rect', { class: 'points-bg', x: this.M, y: PAD, width: W, height: H }, g);
    const c = (name) => { const p = this.squareXY(name); return [p.x + S / 2, p.y + S / 2]; };
    const line = (a, b, cls = 'line') => {
      const [x1, y1] = c(a), [x2, y2] = c(b);
      el('line', { class: cls, x1, y1, x2, y2 }, g);
    };
    const w = cfg.width, h = cfg.height, mid = h / 2 - 1;
    if (cfg.river) {
      const [x1, y1] = c(squareName(0, mid)), [x2, y2] = c(squareName(w - 1, mid + 1));
      el('rect', { class: 'river', x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1), 'data-river': '1' }, g);
    }
    for (let r = 0; r < h; r++) line(squareName(0, r), squareName(w - 1, r));
    for (let f = 0; f < w; f++) {
      if (cfg.river && f > 0 && f < w - 1) {
        line(squareName(f, 0), squareName(f, mid));
        line(squareName(f, mid + 1), squareName(f, h - 1));
      } else {
        line(squareName(f, 0), squareName(f, h - 1));
      }
    }
    for (const [a, b] of cfg.palaces || []) {
      const p = parseSquare(a), q = parseSquare(b);
      if (!p || !q) continue;
      line(a, b, 'line palace');
      line(squareName(p.file, q.rank), squareName(q.file, p.rank), 'line palace');
    }
    const [ox1, oy1] = c(squareName(0, 0)), [ox2, oy2] = c(squareName(w - 1, h - 1));
    el('rect', { class: 'outline', x: Math.min(ox1, ox2) - 8, y: Math.min(oy1, oy2) - 8, width: Math.abs(ox2 - ox1) + 16, height: Math.abs(oy2 - oy1) + 16 }, g);
  }

  drawPiece(pc, parent) {
    const g = el('g', {
      class: `piece ${pc.seat ? `seat-${pc.seat}` : 'neutral'}`, 'data-square': pc.square, 'data-seat': pc.seat || '',
      'data-letter': pc.letter || '', 'data-name': pc.name || '',
    }, parent);
    const title = el('title', {}, g);
    title.textContent = this.pieceTitle(pc);
    const angle = (DIR_ANGLE[pc.dir] || 0) + this.rot * 90;
    const custom = this.cfg.glyph ? this.cfg.glyph(pc, angle) : null;
    if (pc.union) {
      // a union (friendly chess): both pieces share the square, the white one
      // in front on the left, the black one behind on the right
      const u = pc.union;
      g.classList.add('union');
      g.setAttribute('data-union', `${pc.seat === 'white' ? pc.name : u.name}+${pc.seat === 'white' ? u.name : pc.name}`);
      const [front, back] = pc.seat === 'white' ? [pc, u] : [u, pc];
      const b = el('g', { class: `union-back seat-${back.seat}`, transform: 'translate(34 2) scale(0.64)', 'data-union-seat': back.seat }, g);
      b.append((this.cfg.glyph && this.cfg.glyph(back, angle)) || pieceGlyph(back.name, back.letter));
      const f = el('g', { class: `union-front seat-${front.seat}`, transform: 'translate(2 34) scale(0.64)', 'data-union-seat': front.seat }, g);
      f.append((this.cfg.glyph && this.cfg.glyph(front, angle)) || pieceGlyph(front.name, front.letter));
      return g;
    }
    const inner = el('g', { transform: custom ? 'translate(2 2) scale(0.96)' : 'translate(7 6) scale(0.86)' }, g);
    inner.append(custom || pieceGlyph(pc.name, pc.letter));
    if (pc.name === 'duck') g.classList.add('duck');
    // an army whose seat is out but whose pieces stay (four-player chess): grey
    if (pc.dead) { g.classList.add('dead'); g.setAttribute('data-dead', ''); }
    // colour-blind option (CSS shows it): a shape on the army colour, a square
    // on red, a cross on green, a ring on blue and a diamond on yellow (the
    // pawns' arrows are triangles)
    if (pc.seat === 'red') el('rect', { class: 'cb-mark', x: 74, y: 6, width: 20, height: 20, rx: 2 }, g);
    else if (pc.seat === 'green') el('path', { class: 'cb-mark', d: 'M80 4 H88 V12 H96 V20 H88 V28 H80 V20 H72 V12 H80 Z' }, g);
    else if (pc.seat === 'blue') el('circle', { class: 'cb-mark cb-ring', cx: 84, cy: 16, r: 9 }, g);
    else if (pc.seat === 'yellow') el('path', { class: 'cb-mark', d: 'M84 3 L97 16 L84 29 L71 16 Z' }, g);
    if (pc.dir && this.cfg.arrows && (pc.name === 'pawn' || (!pc.name && pc.letter === 'P')) && DIR_ANGLE[pc.dir] !== undefined) {
      const angle = this.hex ? this.hexForward(pc) : DIR_ANGLE[pc.dir] + this.rot * 90;
      el('path', {
        class: 'pawn-arrow', d: 'M50 1 L61 13 L39 13 Z', fill: 'var(--pf)', stroke: 'var(--ps)',
        transform: `rotate(${angle} 50 50)`, 'data-dir': pc.dir,
      }, g);
    }
    return g;
  }

  // The piece's tooltip: "White pawn e4", with a pawn's way and a union's other piece.
  pieceTitle(pc) {
    const L = this.cfg.labels || {};
    let text = `${this.pieceText(pc)} ${this.squareLabel(pc.square)}${pc.dir && this.cfg.arrows ? ` (${{ n: '↑', s: '↓', e: '→', w: '←' }[pc.dir] || pc.dir})` : ''}`;
    const u = pc.union;
    if (u) text += ` + ${L.seat ? L.seat(u.seat) : u.seat} ${L.piece ? L.piece(u.name || u.letter) : u.name || u.letter}`;
    return text;
  }

  // The hex board: where a pawn heads on screen (degrees, 0 up): up its file
  // towards the centre in its own half (the seat's half: dir n, e, s), down
  // the file towards that half's back rank in another.
  hexForward(pc) {
    const c = this.layout.cells.get(pc.square);
    if (!c) return 0;
    const [p0, p1, p2, p3] = c.corners;
    const up = [(p2[0] + p3[0] - p0[0] - p1[0]) / 2, (p2[1] + p3[1] - p0[1] - p1[1]) / 2];
    const own = { n: 0, e: 1, s: 2 }[pc.dir] === c.half;
    const [vx, vy] = own ? up : [-up[0], -up[1]];
    return (Math.atan2(vx, -vy) * 180) / Math.PI;
  }

  drawPromo(parent) {
    const { from, to, moves } = this.promo;
    const { x: ax, y: ay, w: W, h: H } = this.area();
    const layer = el('g', { class: 'promo' }, parent);
    const bg = el('rect', { class: 'promo-bg', x: ax, y: ay, width: W, height: H }, layer);
    bg.addEventListener('pointerdown', (e) => { e.stopPropagation(); this.promo = null; this.selected = null; this.render(); });
    const mover = this.pieceAt(from);
    const seat = mover ? mover.seat : 'white';
    const n = moves.length;
    const size = Math.min(S * 1.3, (W - 20) / n);
    const x0 = ax + W / 2 - (n * size) / 2, y0 = ay + H / 2 - size / 2;
    moves.forEach((m, i) => {
      const suffix = parseMove(m.split(',').pop()).suffix;
      const { name, letter } = this.promoPiece(mover, suffix);
      const g = el('g', { class: `promo-choice seat-${seat}`, 'data-promo': suffix || '=', 'data-uci': m, transform: `translate(${x0 + i * size} ${y0})` }, layer);
      el('rect', { x: 4, y: 4, width: size - 8, height: size - 8, rx: 10 }, g);
      const inner = el('g', { transform: `translate(${size * 0.1} ${size * 0.06}) scale(${(size * 0.8) / 100})` }, g);
      const pc = { name, letter, seat, dir: mover && mover.dir };
      inner.append((this.cfg.glyph && this.cfg.glyph(pc, (DIR_ANGLE[pc.dir] || 0) + this.rot * 90)) || pieceGlyph(name, letter));
      const t = el('title', {}, g);
      t.textContent = this.cfg.labels && this.cfg.labels.promoteTo ? this.cfg.labels.promoteTo(name) : `promote to ${name}`;
      g.addEventListener('pointerdown', (e) => {
        e.stopPropagation();
        this.promo = null;
        this.selected = null;
        this.choose(m);
      });
    });
    const label = el('text', { x: ax + W / 2, y: y0 - 14, 'text-anchor': 'middle', 'font-size': 30, fill: '#fff', 'font-weight': 700 }, layer);
    label.textContent = this.cfg.labels && this.cfg.labels.promote ? this.cfg.labels.promote(to) : `Promote on ${to}`;
  }

  // ---- interaction ----------------------------------------------------------
  commit(uci) {
    this.localMove = uci;
    this.selected = null;
    this.render();
    this.onMove(uci);
  }

  // The piece a promotion choice shows: "+" the promoted form of the mover
  // (cfg.promoted: name -> promoted name), a letter that piece, none the mover.
  promoPiece(mover, suffix) {
    if (!suffix) return { name: mover && mover.name, letter: mover && mover.letter };
    if (suffix === '+') {
      const name = mover && (this.cfg.promoted || {})[mover.name];
      return { name: name || (mover && mover.name), letter: mover && mover.letter.toLowerCase() };
    }
    const letter = suffix.toUpperCase();
    return { name: (this.cfg.pieceNames || {})[letter] || letter, letter };
  }

  tryMove(from, to) {
    const moves = this.destinations(from).get(to);
    if (!moves || !moves.length) return false;
    if (moves.length === 1) { this.choose(moves[0]); return true; }
    this.promo = { from, to, moves };
    this.render();
    return true;
  }
  tryDrop(to) {
    const heads = this.dropTargets(this.dropSel).get(to);
    this.dropSel = null;
    if (!heads || !heads.length) { this.render(); return false; }
    this.choose(heads[0]);
    return true;
  }
  // A turn's first steps are chosen (`head`, "e2e4" or "d1d5,d5e7"): play the
  // turn when it ends there, else ask for its next step, one square at a time
  // (duck chess: the duck's square; friendly chess: where the piece freed in
  // a chain goes, step after step). cfg.stepKind names the stage ('duck' or
  // 'chain') for the page's status line.
  choose(head) {
    const turns = (this.allMoves || []).filter((m) => m === head || m.startsWith(`${head},`));
    if (!turns.length || turns.includes(head)) { this.commit(head); return; }
    const options = new Map();       // the next step's square -> the turns' heads one step longer
    for (const m of turns) {
      const step = m.slice(head.length + 1).split(',')[0];
      const sq = (/([a-p]\d{1,2})[^a-p\d]*$/.exec(step) || [])[1];
      if (!sq) continue;
      const next = `${head},${step}`;
      if (!options.has(sq)) options.set(sq, []);
      if (!options.get(sq).includes(next)) options.get(sq).push(next);
    }
    const first = head.split(',')[0];
    const d = parseDrop(first);
    const mover = d ? null : this.pieceAt(parseMove(first).from);
    const at = (parseMove(head.split(',').pop()) || {}).to || null;
    this.selected = null;
    this.setDuck({ head, options, at, seat: mover ? mover.seat : (this.cfg.toMove || 'white') });
    this.render();
  }
  setDuck(duck) {
    this.duck = duck;
    if (this.onStage) this.onStage(duck ? (this.cfg.stepKind || 'duck') : null);
  }
  placeDuck(sq) {
    const heads = this.duck && this.duck.options.get(sq);
    const from = this.duck && this.duck.at;
    this.setDuck(null);
    if (!heads) { this.render(); return; }
    if (heads.length === 1) { this.choose(heads[0]); return; }
    // several steps to one square (a promotion on the way): the chooser
    this.promo = { from: from || sq, to: sq, moves: heads };
    this.render();
  }

  // ... or dragged from the hand onto the board: the hand's pointerdown hands
  // the event over, and the board follows the pointer until it is let go.
  startHandDrag(letter, seat, evt, name) {
    if (!this.dropTargets(letter).size) return;
    this.selected = null;
    this.setDuck(null);
    this.dropSel = letter;
    this.render();
    const x0 = evt.clientX, y0 = evt.clientY;
    let active = false, floating = null, hover = null;
    const move = (e) => {
      const hit = this.pointToSquare(e);
      if (!hit) return;
      if (!active) {
        if (Math.hypot(e.clientX - x0, e.clientY - y0) < 6) return;
        active = true;
        this.handDrag = true;
        floating = this.drawPiece({ square: '', seat, letter, name }, this.dragLayer);
        floating.classList.add('floating', 'no-anim');
        hover = this.hoverShape();
      }
      floating.style.transform = `translate(${hit.x - S / 2}px, ${hit.y - S / 2}px) scale(1.08)`;
      this.placeHover(hover, hit.sq && this.dropTargets(letter).has(hit.sq) ? hit.sq : null);
    };
    const up = (e) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      if (!active) return;           // a click: the piece stays picked
      this.handDrag = false;
      const hit = e.type === 'pointerup' ? this.pointToSquare(e) : null;
      if (hit && hit.sq && this.dropTargets(letter).has(hit.sq)) this.tryDrop(hit.sq);
      else { this.dropSel = null; this.render(); }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }

  // atomic: shows the blast of a capture on `center` and the squares around it.
  explode(center) {
    const c = parseSquare(center);
    if (!c) return;
    const squares = [];
    for (let df = -1; df <= 1; df++) {
      for (let dr = -1; dr <= 1; dr++) {
        const f = c.file + df, r = c.rank + dr;
        if (f >= 0 && r >= 0 && f < this.cfg.width && r < this.cfg.height) squares.push(squareName(f, r));
      }
    }
    this.blasts.push({ center, squares, t0: performance.now() });
    this.render();
    setTimeout(() => this.render(), BLAST_MS + 20);
  }

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    if (this.promo) return;
    const hit = this.pointToSquare(e);
    if (!this.cfg.interactive && !this.cfg.premoveSeat) {
      if (this.onIdlePress && hit && hit.sq) this.onIdlePress(hit.sq);
      return;
    }
    if (!this.cfg.interactive && this.cfg.premoveSeat) {
      // a piece of the seat's own may also be dragged to queue its premove
      // (not the square a picked piece is to go to: that click queues it)
      const sq = hit && hit.sq;
      const pc = sq ? this.pieceAt(sq) : null;
      if (pc && pc.seat === this.cfg.premoveSeat && !pc.dead && !(this.preSel && this.preSel !== sq)) {
        this.drag = { from: sq, x: hit.x, y: hit.y, active: false, premove: true, pointerId: e.pointerId };
        try { this.svg.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
        e.preventDefault();
      }
      this.premoveClick(sq);
      return;
    }
    if (this.duck) { if (hit && hit.sq) this.placeDuck(hit.sq); else { this.setDuck(null); this.render(); } return; }
    if (this.dropSel) {
      if (hit && hit.sq && this.dropTargets(this.dropSel).has(hit.sq)) { this.tryDrop(hit.sq); return; }
      this.dropSel = null;
    }
    if (!hit || !hit.sq) { this.selected = null; this.render(); return; }
    const sq = hit.sq;
    if (this.selected && sq !== this.selected && this.destinations(this.selected).has(sq)) {
      this.tryMove(this.selected, sq);
      return;
    }
    if (this.movesFrom(sq).length) {
      const wasSelected = this.selected === sq;
      this.selected = sq;
      this.drag = { from: sq, x: hit.x, y: hit.y, active: false, wasSelected, pointerId: e.pointerId };
      try { this.svg.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
      this.render();
      e.preventDefault();
      return;
    }
    this.selected = null;
    this.render();
  }

  // A click while the seat waits for its turn: pick one of its pieces, then
  // any other square queues the premove; any other click cancels.
  premoveClick(sq) {
    const pc = sq ? this.pieceAt(sq) : null;
    const own = pc && pc.seat === this.cfg.premoveSeat && !pc.dead;
    if (this.preSel && sq && sq !== this.preSel) {
      this.premove = { from: this.preSel, to: sq };
      this.preSel = null;
    } else if (own && !this.premove && this.preSel !== sq) {
      this.preSel = sq;
    } else {
      this.premove = null;
      this.preSel = own && this.preSel !== sq ? sq : null;
    }
    this.render();
  }
  // The page took the premove (played or dropped).
  takePremove() {
    const pm = this.premove;
    this.premove = null;
    this.preSel = null;
    return pm;
  }

  pointerMove(e) {
    if (!this.drag) return;
    const hit = this.pointToSquare(e);
    if (!hit) return;
    if (!this.drag.active) {
      if (Math.hypot(hit.x - this.drag.x, hit.y - this.drag.y) < 8) return;
      this.drag.active = true;
      const pc = this.pieceAt(this.drag.from);
      const orig = this.pieceEls.get(this.drag.from);
      if (orig) orig.classList.add('dragging');
      this.dragLayer.replaceChildren();
      if (pc) {
        this.floating = this.drawPiece(pc, this.dragLayer);
        this.floating.classList.add('floating', 'no-anim');
        this.floating.classList.remove('dragging');
      }
      this.hover = this.hoverShape();
    }
    if (this.floating) {
      const t = `translate(${hit.x - S / 2}px, ${hit.y - S / 2}px) scale(1.08)`;
      this.floating.style.transform = t;
    }
    const target = hit.sq && (this.drag.premove ? hit.sq !== this.drag.from : this.destinations(this.drag.from).has(hit.sq));
    if (this.hover) this.placeHover(this.hover, target ? hit.sq : null);
  }

  // The mark under a dragged piece: a square's rect, or a hex cell's polygon.
  hoverShape() {
    return this.hex ? el('polygon', { class: 'hl-hover', points: '' }, this.dragLayer)
      : el('rect', { class: 'hl-hover', width: S, height: S, x: -1000, y: -1000 }, this.dragLayer);
  }
  placeHover(hover, sq) {
    if (this.hex) {
      const c = sq && this.layout.cells.get(sq);
      hover.setAttribute('points', c ? polygonPoints(c.corners) : '');
      return;
    }
    const p = sq ? this.squareXY(sq) : { x: -1000, y: -1000 };
    hover.setAttribute('x', p.x); hover.setAttribute('y', p.y);
  }

  pointerUp(e) {
    const drag = this.drag;
    this.drag = null;
    this.floating = null;
    this.hover = null;
    if (!drag) return;
    const hit = this.pointToSquare(e);
    const sq = hit && hit.sq;
    if (drag.premove && drag.active && this.cfg.interactive) {
      // the turn came while the piece was being dragged: a move, not a premove
      this.preSel = null;
      if (sq && sq !== drag.from && this.tryMove(drag.from, sq)) return;
      this.render();
      return;
    }
    if (drag.premove) {
      // dropped on another square: the premove is queued as by two clicks
      if (drag.active) {
        if (sq && sq !== drag.from) this.premove = { from: drag.from, to: sq };
        this.preSel = null;
      }
      this.render();
      return;
    }
    if (drag.active) {
      if (sq && sq !== drag.from && this.tryMove(drag.from, sq)) return;
      if (sq !== drag.from) this.selected = null;
      this.render();
      return;
    }
    // a click: a second click on the selected piece promotes it in place
    // where it may (sittuyin), else lets it go
    if (drag.wasSelected && sq === drag.from) {
      if (this.destinations(sq).has(sq)) { this.tryMove(sq, sq); return; }
      this.selected = null;
      this.render();
    }
  }

  cancelDrag() {
    this.drag = null;
    this.floating = null;
    this.render();
  }

  // Chooses the quarter turns that bring a seat's corner or edge (the square
  // given, usually its king) to the bottom of the view, turning as little as
  // possible: the bottom must be the square's nearest edge (ties allowed, so
  // a corner king turns less), e.g. four-player chess's Blue king on a7.
  static rotationFor(width, height, square, seats = 2) {
    const p = parseSquare(square);
    if (!p) return 0;
    const candidates = seats > 2 ? [0, 1, 3, 2] : [0, 2];
    const probe = new Board.Probe(width, height);
    for (const k of candidates) {
      const d = probe.display(p.file, p.rank, k);
      const w = k % 2 ? height : width, h = k % 2 ? width : height;
      const bottom = h - 1 - d.r;
      if (seats > 2 ? bottom <= Math.min(d.r, d.c, w - 1 - d.c) : d.r >= h / 2) return k;
    }
    return 0;
  }
}

Board.Probe = class {
  constructor(w, h) { this.w = w; this.h = h; }
  display(file, rank, k) {
    let c = file, r = this.h - 1 - rank, w = this.w, h = this.h;
    for (let i = 0; i < k; i++) { [c, r] = [h - 1 - r, c]; [w, h] = [h, w]; }
    return { c, r };
  }
};

// The Acedrex board: an SVG component for any rectangular board up to 16x16
// with blocked squares, pieces of up to four seats, a view turned by quarter
// turns, click-to-move and drag-and-drop, highlights and a promotion chooser.
//
//   const board = new Board(element, { onMove: (uci) => ... });
//   board.update({ width, height, blocked, pieces, legal, lastMove, check,
//                  rotation, toMove, arrows, interactive, pieceNames });
//
// Squares are named as in the notation: files a, b, ... from the left and
// ranks 1, 2, ... from the bottom, ranks above 9 with two digits.
// Every square is a <rect data-sq="e4">; pieces are drawn above the squares
// with pointer-events off, so clicks always land on a square.

import { pieceGlyph } from './pieces.js';

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
// "a9a10q" -> {from: "a9", to: "a10", suffix: "q"}
export function parseMove(uci) {
  const m = /^([a-p]\d{1,2})([a-p]\d{1,2})(.*)$/.exec(uci || '');
  return m ? { from: m[1], to: m[2], suffix: m[3] } : null;
}

function el(tag, attrs = {}, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

const DIR_ANGLE = { n: 0, e: 90, s: 180, w: 270 };

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
    this.localMove = null;
    this.svg = el('svg', { class: 'acedrex-board', role: 'img', 'aria-label': 'board' });
    this.focused = false;
    container.append(this.svg);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.svg.addEventListener('contextmenu', (e) => e.preventDefault());
    // Keyboard play (the game page): the board takes the focus; arrows move a
    // cursor over the squares as they are seen, Enter or Space picks up a piece
    // and puts it down, Escape lets it go. onAnnounce(text) gets what a screen
    // reader should hear (the square, its piece, what the key did).
    this.onAnnounce = opts.onAnnounce || null;
    this.cursor = null;
    if (opts.keyboard) {
      this.svg.setAttribute('tabindex', '0');
      this.svg.setAttribute('role', 'application');
      this.svg.addEventListener('keydown', (e) => this.keyDown(e));
      this.svg.addEventListener('focus', () => {
        this.focused = true;
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
    const what = pc ? `${L.seat ? L.seat(pc.seat) : pc.seat} ${L.piece ? L.piece(pc.name || pc.letter) : pc.name || pc.letter}` : (L.empty || 'empty');
    const notes = [];
    if (this.selected === sq) notes.push(L.selected || 'selected');
    else if (this.selected && this.destinations(this.selected).has(sq)) notes.push(L.destination || 'a move goes here');
    else if (!this.selected && this.movesFrom(sq).length) notes.push(L.movable || 'can move');
    return `${sq}: ${what}${notes.length ? `, ${notes.join(', ')}` : ''}`;
  }
  announce() {
    if (this.onAnnounce && this.cursor) this.onAnnounce(this.describe(this.cursor));
  }

  keyDown(e) {
    if (this.promo) {
      if (e.key === 'Escape') { this.promo = null; this.selected = null; this.render(); e.preventDefault(); e.stopPropagation(); }
      else if (/^[a-z]$/i.test(e.key)) {
        const m = this.promo.moves.find((x) => (parseMove(x).suffix || '').toLowerCase() === e.key.toLowerCase());
        if (m) { this.promo = null; this.selected = null; this.commit(m); e.preventDefault(); e.stopPropagation(); }
      }
      return;
    }
    const delta = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (delta) {
      const p = parseSquare(this.cursor) || { file: 0, rank: 0 };
      const d = this.toDisplay(p.file, p.rank);
      const c = Math.min(this.cols - 1, Math.max(0, d.c + delta[0])), r = Math.min(this.rows - 1, Math.max(0, d.r + delta[1]));
      this.cursor = this.fromDisplay(c, r);
    } else if (e.key === 'Enter' || e.key === ' ') {
      if (this.cursor) this.activate(this.cursor);
    } else if (e.key === 'Escape') {
      this.selected = null;
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
    if (this.selected && sq !== this.selected && this.destinations(this.selected).has(sq)) {
      this.tryMove(this.selected, sq);
      return;
    }
    this.selected = this.movesFrom(sq).length && this.selected !== sq ? sq : null;
    this.render();
  }

  // ---- geometry -----------------------------------------------------------
  get rot() { return ((this.cfg.rotation || 0) % 4 + 4) % 4; }
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
    const c = Math.floor((p.x - this.M) / S), r = Math.floor((p.y - PAD) / S);
    if (c < 0 || r < 0 || c >= this.cols || r >= this.rows) return { sq: null, x: p.x, y: p.y };
    return { sq: this.fromDisplay(c, r), x: p.x, y: p.y };
  }

  // ---- state --------------------------------------------------------------
  update(cfg) {
    const prevLast = this.cfg.lastMove;
    this.cfg = { ...this.cfg, ...cfg };
    if (this.selected && !(this.cfg.interactive && this.cfg.legal && this.cfg.legal[this.selected])) this.selected = null;
    if (this.promo && !(this.cfg.interactive && this.cfg.legal && this.cfg.legal[this.promo.from])) this.promo = null;
    const animate = cfg.lastMove && cfg.lastMove !== prevLast && cfg.lastMove !== this.localMove && cfg.animate !== false;
    this.render(animate ? parseMove(cfg.lastMove) : null);
  }

  movesFrom(sq) {
    return (this.cfg.interactive && this.cfg.legal && this.cfg.legal[sq]) || [];
  }
  destinations(sq) {
    const out = new Map();
    for (const m of this.movesFrom(sq)) {
      const mv = parseMove(m);
      if (!mv) continue;
      if (!out.has(mv.to)) out.set(mv.to, []);
      out.get(mv.to).push(m);
    }
    return out;
  }
  pieceAt(sq) { return (this.cfg.pieces || []).find((p) => p.square === sq); }

  // ---- drawing ------------------------------------------------------------
  render(anim) {
    const { cfg } = this;
    const svg = this.svg;
    const W = this.cols * S, H = this.rows * S;
    svg.setAttribute('viewBox', `0 0 ${this.M + W + PAD} ${PAD + H + this.M}`);
    svg.setAttribute('data-rotation', String(this.rot));
    if (cfg.labels && cfg.labels.board) svg.setAttribute('aria-label', cfg.labels.board);
    svg.replaceChildren();
    const defs = el('defs', {}, svg);
    const pat = el('pattern', { id: 'blocked-hatch', width: 16, height: 16, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
    el('rect', { width: 16, height: 16, fill: '#4a4440' }, pat);
    el('line', { x1: 0, y1: 0, x2: 0, y2: 16, stroke: '#5d5651', 'stroke-width': 7 }, pat);
    const chk = el('radialGradient', { id: 'check-glow' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#ff2a1a', 'stop-opacity': 0.95 }, chk);
    el('stop', { offset: '45%', 'stop-color': '#e0301f', 'stop-opacity': 0.7 }, chk);
    el('stop', { offset: '100%', 'stop-color': '#a01010', 'stop-opacity': 0 }, chk);

    if (cfg.toMove) {
      // the seat to move: a band of its colour around the board, with a thin dark edge
      el('rect', { class: 'turn-edge', x: this.M - 13, y: PAD - 13, width: W + 26, height: H + 26, rx: 8, fill: '#3b3028' }, svg);
      el('rect', { class: `turn-frame seat-${cfg.toMove}`, x: this.M - 11, y: PAD - 11, width: W + 22, height: H + 22, rx: 7, 'data-turn': cfg.toMove }, svg);
    }
    el('rect', { class: 'frame', x: this.M - 5, y: PAD - 5, width: W + 10, height: H + 10, rx: 3 }, svg);
    const blocked = new Set(cfg.blocked || []);
    const squares = el('g', { class: 'squares' }, svg);
    for (let f = 0; f < cfg.width; f++) {
      for (let r = 0; r < cfg.height; r++) {
        const name = squareName(f, r);
        const { x, y } = this.squareXY(name);
        const isBlocked = blocked.has(name);
        const cls = isBlocked ? 'sq blocked' : (f + r) % 2 === 0 ? 'sq dark' : 'sq light';
        const rect = el('rect', { class: cls, x, y, width: S, height: S, 'data-sq': name }, squares);
        if (isBlocked) rect.setAttribute('fill', 'url(#blocked-hatch)');
      }
    }

    // highlights
    const hl = el('g', { class: 'highlights', 'pointer-events': 'none' }, svg);
    const last = cfg.seatMoves ? null : parseMove(cfg.lastMove);
    // four players: every seat's last move in its colour, the latest strongest
    (cfg.seatMoves || []).forEach((mv, i, all) => {
      for (const sq of [mv.from, mv.to]) {
        if (!parseSquare(sq)) continue;
        const { x, y } = this.squareXY(sq);
        el('rect', { class: `hl-seat seat-${mv.seat}${i === all.length - 1 ? ' latest' : ''}`, x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 6, 'data-hl': i === all.length - 1 ? 'last' : 'seat-last', 'data-hl-seat': mv.seat }, hl);
      }
    });
    if (last) {
      for (const sq of [last.from, last.to]) {
        if (!parseSquare(sq)) continue;
        const { x, y } = this.squareXY(sq);
        el('rect', { class: 'hl-last', x, y, width: S, height: S, 'data-hl': 'last' }, hl);
      }
    }
    for (const sq of cfg.check || []) {
      if (!parseSquare(sq)) continue;
      const { x, y } = this.squareXY(sq);
      el('circle', { cx: x + S / 2, cy: y + S / 2, r: S * 0.56, fill: 'url(#check-glow)', 'data-hl': 'check', 'data-sq-check': sq }, hl);
    }
    // diagram marks: {square, kind: 'move'|'capture'|'both'|'hop'}
    for (const mk of cfg.marks || []) {
      if (!parseSquare(mk.square)) continue;
      const { x, y } = this.squareXY(mk.square);
      const cx = x + S / 2, cy = y + S / 2;
      const g = el('g', { class: `mark mark-${mk.kind}`, 'data-mark': mk.square, 'data-kind': mk.kind }, hl);
      if (mk.kind === 'move') el('circle', { cx, cy, r: 20, fill: '#2f6d5a' }, g);
      else if (mk.kind === 'capture') el('path', { d: `M${cx - 22} ${cy - 22} L${cx + 22} ${cy + 22} M${cx + 22} ${cy - 22} L${cx - 22} ${cy + 22}`, stroke: '#b8322a', 'stroke-width': 12, 'stroke-linecap': 'round' }, g);
      else if (mk.kind === 'hop') el('circle', { cx, cy, r: 22, fill: 'none', stroke: '#d68a1c', 'stroke-width': 10 }, g);
      else {
        el('path', { d: `M${cx} ${cy - 22} A22 22 0 0 0 ${cx} ${cy + 22} Z`, fill: '#2f6d5a' }, g);
        el('path', { d: `M${cx} ${cy - 22} A22 22 0 0 1 ${cx} ${cy + 22} Z`, fill: '#b8322a' }, g);
      }
    }
    if (this.selected) {
      const { x, y } = this.squareXY(this.selected);
      el('rect', { class: 'hl-sel', x, y, width: S, height: S, 'data-hl': 'selected' }, hl);
      for (const to of this.destinations(this.selected).keys()) {
        const p = this.squareXY(to);
        if (this.pieceAt(to)) {
          el('circle', { class: 'hl-cap', cx: p.x + S / 2, cy: p.y + S / 2, r: S / 2 - 6, 'data-dest': to }, hl);
        } else {
          el('circle', { class: 'hl-dest', cx: p.x + S / 2, cy: p.y + S / 2, r: S * 0.15, 'data-dest': to }, hl);
        }
      }
    }

    if (this.focused && this.cursor && parseSquare(this.cursor)) {
      const { x, y } = this.squareXY(this.cursor);
      el('rect', { class: 'hl-cursor', x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 4, 'data-hl': 'cursor', 'data-cursor': this.cursor }, hl);
    }

    // coordinates: the bottom row and the left column of the view
    const coords = el('g', { class: 'coords', 'pointer-events': 'none' }, svg);
    for (let c = 0; c < this.cols; c++) {
      const name = this.fromDisplay(c, this.rows - 1);
      const p = parseSquare(name);
      const label = this.rot % 2 ? String(p.rank + 1) : String.fromCharCode(97 + p.file);
      const t = el('text', { class: 'coord', x: this.M + c * S + S / 2, y: PAD + H + this.coordSize * 1.6, 'text-anchor': 'middle', 'font-size': this.coordSize }, coords);
      t.textContent = label;
    }
    for (let r = 0; r < this.rows; r++) {
      const name = this.fromDisplay(0, r);
      const p = parseSquare(name);
      const label = this.rot % 2 ? String.fromCharCode(97 + p.file) : String(p.rank + 1);
      const t = el('text', { class: 'coord', x: this.M / 2 - 6, y: PAD + r * S + S / 2 + this.coordSize * 0.36, 'text-anchor': 'middle', 'font-size': this.coordSize }, coords);
      t.textContent = label;
    }

    // pieces
    const layer = el('g', { class: 'pieces', 'pointer-events': 'none' }, svg);
    this.pieceEls = new Map();
    for (const pc of cfg.pieces || []) {
      if (!parseSquare(pc.square)) continue;
      const g = this.drawPiece(pc, layer);
      const { x, y } = this.squareXY(pc.square);
      let start = { x, y };
      if (anim && anim.to === pc.square && parseSquare(anim.from)) start = this.squareXY(anim.from);
      g.setAttribute('transform', `translate(${start.x} ${start.y})`);
      g.style.transform = `translate(${start.x}px, ${start.y}px)`;
      if (start.x !== x || start.y !== y) {
        requestAnimationFrame(() => requestAnimationFrame(() => { g.style.transform = `translate(${x}px, ${y}px)`; }));
      } else {
        g.classList.add('no-anim');
      }
      if (this.movesFrom(pc.square).length) g.classList.add('movable');
      if (this.drag && this.drag.active && this.drag.from === pc.square) g.classList.add('dragging');
      this.pieceEls.set(pc.square, g);
    }
    this.dragLayer = el('g', { class: 'drag-layer', 'pointer-events': 'none' }, svg);
    if (this.promo) this.drawPromo();
  }

  drawPiece(pc, parent) {
    const g = el('g', {
      class: `piece seat-${pc.seat}`, 'data-square': pc.square, 'data-seat': pc.seat,
      'data-letter': pc.letter || '', 'data-name': pc.name || '',
    }, parent);
    const title = el('title', {}, g);
    const L = this.cfg.labels || {};
    title.textContent = `${L.seat ? L.seat(pc.seat) : pc.seat} ${L.piece ? L.piece(pc.name || pc.letter) : pc.name || pc.letter} ${pc.square}${pc.dir && this.cfg.arrows ? ` (${{ n: '↑', s: '↓', e: '→', w: '←' }[pc.dir] || pc.dir})` : ''}`;
    const inner = el('g', { transform: 'translate(7 6) scale(0.86)' }, g);
    inner.append(pieceGlyph(pc.name, pc.letter));
    // colour-blind option (CSS shows it): a shape on the army colour, a square
    // on red and a cross on green (the pawns' arrows are triangles)
    if (pc.seat === 'red') el('rect', { class: 'cb-mark', x: 74, y: 6, width: 20, height: 20, rx: 2 }, g);
    else if (pc.seat === 'green') el('path', { class: 'cb-mark', d: 'M80 4 H88 V12 H96 V20 H88 V28 H80 V20 H72 V12 H80 Z' }, g);
    if (pc.dir && this.cfg.arrows && (pc.name === 'pawn' || (!pc.name && pc.letter === 'P')) && DIR_ANGLE[pc.dir] !== undefined) {
      const angle = DIR_ANGLE[pc.dir] + this.rot * 90;
      el('path', {
        class: 'pawn-arrow', d: 'M50 1 L61 13 L39 13 Z', fill: 'var(--pf)', stroke: 'var(--ps)',
        transform: `rotate(${angle} 50 50)`, 'data-dir': pc.dir,
      }, g);
    }
    return g;
  }

  drawPromo() {
    const { from, to, moves } = this.promo;
    const W = this.cols * S, H = this.rows * S;
    const layer = el('g', { class: 'promo' }, this.svg);
    const bg = el('rect', { class: 'promo-bg', x: this.M, y: PAD, width: W, height: H }, layer);
    bg.addEventListener('pointerdown', (e) => { e.stopPropagation(); this.promo = null; this.selected = null; this.render(); });
    const mover = this.pieceAt(from);
    const seat = mover ? mover.seat : 'white';
    const n = moves.length;
    const size = Math.min(S * 1.3, (W - 20) / n);
    const x0 = this.M + W / 2 - (n * size) / 2, y0 = PAD + H / 2 - size / 2;
    moves.forEach((m, i) => {
      const suffix = parseMove(m).suffix;
      const letter = suffix ? suffix.toUpperCase() : (mover && mover.letter);
      const name = suffix ? ((this.cfg.pieceNames || {})[letter] || letter) : (mover && mover.name);
      const g = el('g', { class: `promo-choice seat-${seat}`, 'data-promo': suffix || '=', 'data-uci': m, transform: `translate(${x0 + i * size} ${y0})` }, layer);
      el('rect', { x: 4, y: 4, width: size - 8, height: size - 8, rx: 10 }, g);
      const inner = el('g', { transform: `translate(${size * 0.1} ${size * 0.06}) scale(${(size * 0.8) / 100})` }, g);
      inner.append(pieceGlyph(name, letter));
      const t = el('title', {}, g);
      t.textContent = this.cfg.labels && this.cfg.labels.promoteTo ? this.cfg.labels.promoteTo(name) : `promote to ${name}`;
      g.addEventListener('pointerdown', (e) => {
        e.stopPropagation();
        this.promo = null;
        this.selected = null;
        this.commit(m);
      });
    });
    const label = el('text', { x: this.M + W / 2, y: y0 - 14, 'text-anchor': 'middle', 'font-size': 30, fill: '#fff', 'font-weight': 700 }, layer);
    label.textContent = this.cfg.labels && this.cfg.labels.promote ? this.cfg.labels.promote(to) : `Promote on ${to}`;
  }

  // ---- interaction ----------------------------------------------------------
  commit(uci) {
    this.localMove = uci;
    this.selected = null;
    this.render();
    this.onMove(uci);
  }

  tryMove(from, to) {
    const moves = this.destinations(from).get(to);
    if (!moves || !moves.length) return false;
    if (moves.length === 1) { this.commit(moves[0]); return true; }
    this.promo = { from, to, moves };
    this.render();
    return true;
  }

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    if (this.promo) return;
    const hit = this.pointToSquare(e);
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
      this.hover = el('rect', { class: 'hl-hover', width: S, height: S, x: -1000, y: -1000 }, this.dragLayer);
    }
    if (this.floating) {
      const t = `translate(${hit.x - S / 2}px, ${hit.y - S / 2}px) scale(1.08)`;
      this.floating.style.transform = t;
    }
    if (this.hover) {
      if (hit.sq && this.destinations(this.drag.from).has(hit.sq)) {
        const p = this.squareXY(hit.sq);
        this.hover.setAttribute('x', p.x); this.hover.setAttribute('y', p.y);
      } else {
        this.hover.setAttribute('x', -1000);
      }
    }
  }

  pointerUp(e) {
    const drag = this.drag;
    this.drag = null;
    this.floating = null;
    this.hover = null;
    if (!drag) return;
    const hit = this.pointToSquare(e);
    const sq = hit && hit.sq;
    if (drag.active) {
      if (sq && sq !== drag.from && this.tryMove(drag.from, sq)) return;
      if (sq !== drag.from) this.selected = null;
      this.render();
      return;
    }
    // a click: a second click on the selected piece lets it go
    if (drag.wasSelected && sq === drag.from) { this.selected = null; this.render(); }
  }

  cancelDrag() {
    this.drag = null;
    this.floating = null;
    this.render();
  }

  // Chooses the quarter turns that bring a seat's corner (the square given,
  // usually its king) to the bottom of the view, turning as little as possible.
  static rotationFor(width, height, square, seats = 2) {
    const p = parseSquare(square);
    if (!p) return 0;
    const candidates = seats > 2 ? [0, 1, 3, 2] : [0, 2];
    const probe = new Board.Probe(width, height);
    for (const k of candidates) {
      const d = probe.display(p.file, p.rank, k);
      const h = k % 2 ? width : height;
      if (d.r >= h / 2) return k;
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

// A hand: the pieces a seat holds off the board (shogi, crazyhouse, the
// setup phase of sittuyin), each with its count. A hand piece is dropped by
// a click on it and a click on a square, or dragged onto the square (the
// board does the rest: Board.selectDrop, Board.startHandDrag).
//
//   const hand = new Hand(element, board);
//   hand.update({ seat, pieces: [{letter, name, count}], active, glyph, label });

const SVGNS = 'http://www.w3.org/2000/svg';

export class Hand {
  constructor(container, board) {
    this.container = container;
    this.board = board;
    this.cfg = { seat: null, pieces: [], active: false };
  }

  update(cfg) {
    this.cfg = { ...this.cfg, ...cfg };
    this.render();
  }

  render() {
    const { seat, pieces, active, glyph, label, emptyText } = this.cfg;
    const box = this.container;
    box.replaceChildren();
    box.dataset.handSeat = seat || '';
    box.className = `hand seat-${seat}${active ? ' active' : ''}`;
    if (label) box.setAttribute('aria-label', label);
    const held = pieces.filter((p) => p.count > 0);
    if (!held.length) {
      const empty = document.createElement('span');
      empty.className = 'hand-empty muted';
      empty.textContent = emptyText || '';
      box.append(empty);
      return;
    }
    for (const p of held) {
      const canDrop = active && this.board.dropTargets(p.letter).size > 0;
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `hand-piece seat-${seat}${canDrop ? ' can-drop' : ''}${this.board.dropSel === p.letter && active ? ' picked' : ''}`;
      b.dataset.handLetter = p.letter;
      b.dataset.count = String(p.count);
      b.title = `${p.title || p.name || p.letter} × ${p.count}`;
      b.disabled = !canDrop;
      const svg = document.createElementNS(SVGNS, 'svg');
      svg.setAttribute('viewBox', '0 0 100 100');
      svg.setAttribute('class', `piece-icon seat-${seat}`);
      const g = glyph({ name: p.name, letter: p.letter, seat, dir: p.dir });
      if (g) svg.append(g);
      b.append(svg);
      if (p.count > 1) {
        const n = document.createElement('span');
        n.className = 'hand-count';
        n.textContent = String(p.count);
        b.append(n);
      }
      if (canDrop) {
        b.addEventListener('pointerdown', (e) => {
          if (e.button !== undefined && e.button !== 0) return;
          e.preventDefault();
          if (this.board.dropSel === p.letter) { this.board.selectDrop(null); this.render(); return; }
          this.board.startHandDrag(p.letter, seat, e, p.name);
          this.render();
        });
        b.addEventListener('keydown', (e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          this.board.selectDrop(p.letter);
          this.render();
          this.board.svg.focus();
        });
      }
      box.append(b);
    }
  }
}

// The hex3 board (three-player chess, docs/rules/three-player-chess.md): the
// engine's 96 cells, named by squares of a 12x12 grid (the other squares are
// holes), drawn as the real six-sided board. Each seat's half is an 8x4 board
// bent in the middle: two 4x4 quadrilaterals (kites) between the centre, the
// middle of the seat's edge of the hexagon, a corner and the middle of the
// next edge. The seats sit on every other edge; the three other edges are the
// outer files where two halves meet.
//
// The grid square <-> cell mapping is the engine's (src/core/hex3.cpp,
// hex3Cell): half h (the seat whose army starts there), x 0..7 from that
// seat's left, y 0..3 from its back rank. A view turned by `turn` (0..2) puts
// half `turn` at the bottom.
//
//   const lay = hexLayout(turn, size);   // cells: name -> {corners, cx, cy, x, y, half}
//   hexHit(lay, x, y) -> the cell's name or null

const GRID = 12;
const SIN60 = Math.sqrt(3) / 2;

export function hexCellOf(name) {
  const m = /^([a-l])(\d{1,2})$/.exec(name || '');
  if (!m) return null;
  const file = m[1].charCodeAt(0) - 97, rank = Number(m[2]) - 1;
  if (rank < 0 || rank >= GRID) return null;
  const band = Math.floor(file / 4), row = Math.floor(rank / 4);
  const playable = (row === 0 && band !== 2) || (row === 1 && band !== 1) || (row === 2 && band !== 0);
  if (!playable) return null;
  if (rank < 4) return { half: 0, x: file, y: rank };
  if (rank < 8) return { half: 1, x: file >= 8 ? 11 - file : 7 - file, y: 7 - rank };
  return { half: 2, x: file < 8 ? 7 - file : file - 4, y: 11 - rank };
}

export function hexSquareOf({ half, x, y }) {
  let file, rank;
  if (half === 0) { file = x; rank = y; }
  else if (half === 1) { rank = 7 - y; file = x < 4 ? 11 - x : 7 - x; }
  else { rank = 11 - y; file = x < 4 ? 7 - x : x + 4; }
  return String.fromCharCode(97 + file) + String(rank + 1);
}

// The view that puts a seat's half at the bottom: the half of its king's square.
export function hexTurnFor(square) {
  const c = hexCellOf(square);
  return c ? c.half : 0;
}

// The layout of the board for a view. apothem: the distance from the centre
// to an edge (SVG units); margin: room round the hexagon for the coordinates.
// Returns {cells, width, height, hexagon(grow) -> points, labels, centre}.
export function hexLayout(turn = 0, apothem = 720, margin = 70) {
  const a = apothem, R = a / SIN60;
  const ox = R + margin, oy = a + margin;
  // half 0 with the centre at the origin, y downwards, its edge at the bottom
  const V0 = [-R / 2, a], M = [0, a], V1 = [R / 2, a], mL = [-a * SIN60, a / 2], mR = [a * SIN60, a / 2], O = [0, 0];
  const lerp = (p, q, t) => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t];
  // u 0..8 along the back rank from the seat's left, v 0..4 towards the centre
  const local = (u, v) => {
    const [p00, p10, p01, p11] = u <= 4 ? [V0, M, mL, O] : [M, V1, O, mR];
    const s = u <= 4 ? u / 4 : (u - 4) / 4, t = v / 4;
    return lerp(lerp(p00, p10, s), lerp(p01, p11, s), t);
  };
  const rotate = (p, deg) => {
    const r = (deg * Math.PI) / 180, c = Math.cos(r), s = Math.sin(r);
    return [p[0] * c - p[1] * s + ox, p[0] * s + p[1] * c + oy];
  };
  const angleOf = (half) => 120 * (((half - turn) % 3 + 3) % 3);
  const point = (half, u, v) => rotate(local(u, v), angleOf(half));
  const cells = new Map();
  for (let half = 0; half < 3; half++) {
    for (let x = 0; x < 8; x++) {
      for (let y = 0; y < 4; y++) {
        const corners = [point(half, x, y), point(half, x + 1, y), point(half, x + 1, y + 1), point(half, x, y + 1)];
        const [cx, cy] = point(half, x + 0.5, y + 0.5);
        cells.set(hexSquareOf({ half, x, y }), { half, x, y, corners, cx, cy, dark: (x + y) % 2 === 0 });
      }
    }
  }
  // the coordinates: a back rank's file letters below it, an outer file's
  // row numbers beside it, pushed out from the hexagon's edge
  const labels = [];
  const out = (p, q, text) => {
    const mx = (p[0] + q[0]) / 2 - ox, my = (p[1] + q[1]) / 2 - oy;
    const len = Math.hypot(mx, my), push = margin * 0.5;
    labels.push({ x: ox + mx + (mx / len) * push, y: oy + my + (my / len) * push, text });
  };
  for (const [name, c] of cells) {
    const [p0, p1, p2, p3] = c.corners;
    if (c.y === 0) out(p0, p1, name[0]);
    if (c.x === 0) out(p0, p3, name.slice(1));
    if (c.x === 7) out(p1, p2, name.slice(1));
  }
  const hexagon = (grow = 0) => {
    const r = (a + grow) / SIN60;
    return Array.from({ length: 6 }, (_, i) => {
      const ang = (Math.PI / 3) * i;
      return [ox + r * Math.cos(ang), oy + r * Math.sin(ang)];
    });
  };
  return { cells, labels, hexagon, width: 2 * ox, height: 2 * oy, centre: [ox, oy], apothem: a };
}

export const polygonPoints = (pts) => pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');

// Shrinks a cell's corners towards its centre by `inset` units (highlights inside the cell).
export function insetCorners(cell, inset) {
  return cell.corners.map(([x, y]) => {
    const dx = cell.cx - x, dy = cell.cy - y, d = Math.hypot(dx, dy) || 1;
    const k = Math.min(inset, d * 0.45) / d;
    return [x + dx * k, y + dy * k];
  });
}

function inside(pts, x, y) {
  let sign = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x1, y1] = pts[i], [x2, y2] = pts[(i + 1) % pts.length];
    const cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

// The cell under an SVG point, or null.
export function hexHit(layout, x, y) {
  for (const [name, c] of layout.cells) if (inside(c.corners, x, y)) return name;
  return null;
}

// The keyboard's next cell from `name` in a screen direction (dx, dy): the
// nearest cell whose centre lies within 60 degrees of that direction.
export function hexNeighbour(layout, name, dx, dy) {
  const from = layout.cells.get(name);
  if (!from) return name;
  let best = name, bestScore = Infinity;
  for (const [n, c] of layout.cells) {
    if (n === name) continue;
    const vx = c.cx - from.cx, vy = c.cy - from.cy, d = Math.hypot(vx, vy);
    const cos = (vx * dx + vy * dy) / d;
    if (cos < 0.5) continue;
    const score = d * (2 - cos);
    if (score < bestScore) { bestScore = score; best = n; }
  }
  return best;
}

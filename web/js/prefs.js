// The player's choices, kept in this browser (localStorage), and the page-wide
// ones applied at load: the colour-blind shapes, the theme and the board's colours.
const DEFAULTS = {
  notation: 'san',       // 'san' (as the record) or 'coord' (e3-e4)
  botPaceMs: 500,        // the least time a bot's move stays on screen before the next
  colourBlind: false,    // shapes on the army colours
  hotSeatTurn: false,    // hot seat: the board turns to the side to move
  theme: 'light',        // 'light' or 'dark'
  boardTheme: 'wood',    // the chequered boards' colours: one of BOARD_THEMES
  sound: true,           // move sounds
  premoves: true,        // a move queued while it is not the player's turn
};

// The board themes (css/style.css, :root[data-board=NAME]); the first is the default.
export const BOARD_THEMES = ['wood', 'green', 'blue', 'marble'];

export const prefs = {
  get(k) {
    try {
      const v = localStorage.getItem(`acedrex.pref.${k}`);
      return v === null ? DEFAULTS[k] : JSON.parse(v);
    } catch {
      return DEFAULTS[k];
    }
  },
  set(k, v) {
    try { localStorage.setItem(`acedrex.pref.${k}`, JSON.stringify(v)); } catch { /* private mode */ }
    applyPrefs();
  },
};

export function applyPrefs() {
  document.documentElement.classList.toggle('cb', !!prefs.get('colourBlind'));
  document.documentElement.dataset.theme = prefs.get('theme') === 'dark' ? 'dark' : 'light';
  const board = prefs.get('boardTheme');
  document.documentElement.dataset.board = BOARD_THEMES.includes(board) ? board : BOARD_THEMES[0];
}
applyPrefs();

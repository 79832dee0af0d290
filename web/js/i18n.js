// The page's language: message catalogues in web/i18n/<lang>.json, the
// language taken from the browser and switchable (remembered in localStorage).
//
//   import { t, lang } from './i18n.js';
//   t('status.yourMove')                    -> "Your move."
//   t('die.lostTurn', { seat: 'Green', n: 4, kind: 'rook' })
//
// A key missing from a catalogue falls back to English, then to the key.
// Elements with data-i18n="key" get their text from the catalogue
// (data-i18n-title, data-i18n-placeholder and data-i18n-aria for attributes).

export const LANGUAGES = { en: 'English', es: 'Español', de: 'Deutsch', fr: 'Français' };
const KEY = 'acedrex.lang';

function choose() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && LANGUAGES[saved]) return saved;
  } catch { /* private mode */ }
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().split('-')[0];
    if (LANGUAGES[base]) return base;
  }
  return 'en';
}

async function load(l) {
  try {
    const r = await fetch(`/i18n/${l}.json`);
    return r.ok ? await r.json() : {};
  } catch {
    return {};
  }
}

export const lang = choose();
const [catalogue, english] = await Promise.all([load(lang), lang === 'en' ? Promise.resolve(null) : load('en')]);
const fallback = english || catalogue;
document.documentElement.lang = lang;

export function t(key, params = {}) {
  let s = catalogue[key] ?? fallback[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined && params[k] !== null ? String(params[k]) : m));
}
// t() for a key that may be missing (names the server sends): the fallback when absent.
export function tOr(key, otherwise, params) {
  return catalogue[key] !== undefined || fallback[key] !== undefined ? t(key, params) : otherwise;
}
export const seatName = (seat) => tOr(`seat.${seat}`, seat ? seat.charAt(0).toUpperCase() + seat.slice(1) : '');
// A game's title in the page's language (catalogue.name.NAME), else the server's English title.
export const gameTitle = (name, title) => tOr(`catalogue.name.${name}`, title || name || '');
export const pieceName = (name) => tOr(`piece.${name}`, String(name || '').replace(/-/g, ' '));

// A variant's rule options: the name, a value and the help the server sends
// (in English) through the catalogues when they have them.
export const optionName = (name) => tOr(`option.${name}`, name);
export const optionValue = (value) => tOr(`optval.${value}`, value);
export const optionHelp = (variant, o) => tOr(`opthelp.${variant}.${o.name}`, o.help || '');

export function setLang(l) {
  try { localStorage.setItem(KEY, l); } catch { /* private mode */ }
  location.reload();
}

// Fills the static text of a page.
export function translatePage(root = document) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-title]')) e.title = t(e.dataset.i18nTitle);
  for (const e of root.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of root.querySelectorAll('[data-i18n-aria]')) e.setAttribute('aria-label', t(e.dataset.i18nAria));
}

// A language chooser for the page header.
export function languageSwitch() {
  const sel = document.createElement('select');
  sel.id = 'lang';
  sel.className = 'lang';
  sel.setAttribute('aria-label', t('nav.language'));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const o = document.createElement('option');
    o.value = code;
    o.textContent = name;
    o.selected = code === lang;
    sel.append(o);
  }
  sel.addEventListener('change', () => setLang(sel.value));
  return sel;
}

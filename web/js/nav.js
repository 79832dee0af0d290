// The top navigation of the lobby and the rules pages: every game the server
// plays (GET /api/variants), a menu per group of the lobby's catalogue, each
// game linked to its rules page under its title in the page's language. The
// links marked data-nav-keep stay after the menus ("All pieces").
import { CATALOGUE_GROUPS, catalogueGroup } from './api.js';
import { h } from './dom.js';
import { t, gameTitle } from './i18n.js';

export function fillNav(games, current) {
  const nav = document.querySelector('header.top nav');
  if (!nav || !games.length) return;
  const keep = [...nav.querySelectorAll('[data-nav-keep]')];
  const menus = [];
  for (const g of CATALOGUE_GROUPS) {
    const list = games.filter((v) => catalogueGroup(v) === g);
    if (!list.length) continue;
    const menu = h('details', { class: 'nav-group', 'data-group': g },
      h('summary', {}, t(`catalogue.group.${g}`)),
      h('div', { class: 'nav-menu' }, ...list.map((v) => h('a', { href: `/rules/${v.name}`, 'data-game': v.name,
        'aria-current': v.name === current ? 'page' : null }, gameTitle(v.name, v.title)))));
    menu.addEventListener('toggle', () => {  // one menu open at a time
      if (menu.open) for (const other of nav.querySelectorAll('details.nav-group')) if (other !== menu) other.open = false;
    });
    menus.push(menu);
  }
  nav.replaceChildren(...menus, ...keep);
}

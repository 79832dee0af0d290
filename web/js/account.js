// The player: an account (docs/api.md, "Accounts") or a guest. Mounts the
// header's account menu into #account-slot on every page that has one:
// signed out, a form to sign in or create an account and the guest's name;
// signed in, the account's name (a link to its page) and "Sign out".
// Elements marked data-needs-account are shown only when signed in. The
// session is an HttpOnly cookie that the browser sends by itself; this
// module never sees its token.
import { h } from './dom.js';
import { t } from './i18n.js';
import { guestName, setGuestName, NAME_RE } from './players.js';

async function post(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error) || res.statusText);
    err.code = data && data.code;
    throw err;
  }
  return data;
}

let current = null;
// {signedIn, name?, createdMs?}: who this browser is (one request per page).
export function account() {
  if (!current) {
    current = fetch('/api/account', { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : { signedIn: false }))
      .catch(() => ({ signedIn: false }));
  }
  return current;
}

function signInForm() {
  const name = h('input', { type: 'text', id: 'account-name', name: 'username', autocomplete: 'username',
    maxlength: '20', required: true, placeholder: t('account.name') });
  const password = h('input', { type: 'password', id: 'account-password', name: 'password',
    autocomplete: 'current-password', maxlength: '256', required: true, placeholder: t('account.password') });
  const error = h('p', { class: 'error', id: 'account-error', role: 'alert' });
  const go = (what) => async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    if (!name.value || !password.value) { error.textContent = t('account.fillBoth'); return; }
    try {
      await post(`/api/account/${what}`, { name: name.value, password: password.value });
      location.reload();
    } catch (e) {
      error.textContent = e.code === 'bad-credentials' ? t('account.badCredentials')
        : e.code === 'name-taken' ? t('account.nameTaken')
          : e.code === 'bad-name' ? t('account.nameRule')
            : e.code === 'bad-password' ? t('account.passwordRule')
              : e.code === 'rate-limited' ? t('account.tooMany') : e.message;
    }
  };
  const form = h('form', { class: 'account-form', id: 'account-form', onsubmit: go('signin') },
    h('label', {}, t('account.name'), name),
    h('label', {}, t('account.password'), password),
    h('div', { class: 'row' },
      h('button', { type: 'submit', class: 'primary', id: 'account-signin' }, t('account.signIn')),
      h('button', { type: 'button', id: 'account-signup', onclick: go('signup') }, t('account.signUp'))),
    h('p', { class: 'muted' }, t('account.rules')),
    error);
  const guest = h('input', { type: 'text', id: 'guest-name', maxlength: '20', value: guestName(),
    placeholder: t('account.guestPlaceholder'), pattern: NAME_RE.source });
  const guestNote = h('p', { class: 'muted', id: 'guest-note' });
  guest.addEventListener('change', () => {
    const v = guest.value.trim();
    if (v && !NAME_RE.test(v)) { guestNote.textContent = t('account.nameRule'); return; }
    setGuestName(v);
    guestNote.textContent = v ? t('account.guestSaved', { name: v }) : '';
  });
  form.append(h('hr'), h('label', {}, t('account.guestName'), guest), guestNote);
  return h('details', { class: 'account-menu', id: 'account-menu' },
    h('summary', { id: 'account-open' }, guestName() ? t('account.guestAs', { name: guestName() }) : t('account.signIn')), form);
}

function signedInMenu(me) {
  const out = h('button', { type: 'button', id: 'account-signout', class: 'linklike', onclick: async () => {
    try { await post('/api/account/signout'); } catch { /* the cookie is cleared below all the same */ }
    location.reload();
  } }, t('account.signOut'));
  return h('span', { class: 'account-menu' },
    h('a', { class: 'account-me', id: 'account-me', href: `/player.html?name=${encodeURIComponent(me.name)}` }, me.name), out);
}

export async function mountAccount(slot = document.getElementById('account-slot')) {
  if (!slot) return;
  const me = await account();
  slot.replaceChildren(me.signedIn ? signedInMenu(me) : signInForm());
  for (const el of document.querySelectorAll('[data-needs-account]')) el.hidden = !me.signedIn;
}

mountAccount();

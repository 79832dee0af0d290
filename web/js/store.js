// A page's state in one place, with subscribers.
//
//   const store = createStore({ state: null, viewPly: null });
//   const S = store.state;                 // read and write it as an object
//   store.subscribe(['state', 'viewPly'], (changed) => draw());
//   S.viewPly = 3;                         // the subscribers hear of it once,
//   S.state = next;                        // after the code that changed it
//   store.touch('view');                   // a change the store cannot see
//                                          // (a nested object changed in place)
//
// A write that changes a key's value (by ===) marks the key changed. The
// subscribers run in a microtask, so several writes in one go (a state and
// the ply shown with it) reach them together, as one consistent state, and a
// subscriber runs once however many of its keys changed. A subscriber that
// writes keys again is called again in the next microtask.

export function createStore(initial) {
  const data = { ...initial };
  const subscribers = [];
  let changed = new Set();
  let scheduled = false;

  function flush() {
    scheduled = false;
    const keys = changed;
    changed = new Set();
    for (const sub of subscribers.slice()) {
      if (!sub.keys || sub.keys.some((k) => keys.has(k))) sub.fn(keys);
    }
  }
  function touch(...keys) {
    for (const k of keys) changed.add(k);
    if (!scheduled && changed.size) { scheduled = true; queueMicrotask(flush); }
  }

  const state = new Proxy(data, {
    set(target, key, value) {
      if (!(key in target)) throw new Error(`store: unknown key ${String(key)}`);
      if (target[key] !== value) { target[key] = value; touch(key); }
      return true;
    },
  });

  return {
    state,
    touch,
    // fn(changedKeys) after any of `keys` changed (null: any key); returns the unsubscribe.
    subscribe(keys, fn) {
      const sub = { keys, fn };
      subscribers.push(sub);
      return () => { const i = subscribers.indexOf(sub); if (i >= 0) subscribers.splice(i, 1); };
    },
  };
}

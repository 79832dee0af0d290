// Building the pages' HTML: h(tag, attrs, ...children), one helper for every
// page. attrs: `class`, `html` (innerHTML, for the rules' own prose), `onX`
// (an event listener), else attributes (true: present and empty; false, null
// or undefined: absent). Children: nodes or text; arrays are flattened, and
// null, undefined and false are left out.
export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'html') e.innerHTML = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== undefined && v !== null) e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

// A tiny element builder: h("button", {class: "x", onclick: f}, "text", child, [more]).

/** @typedef {import("./types").Child} Child */
/**
 * @template {Element} E
 * @typedef {import("./types").Props<E>} Props
 */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props<HTMLElementTagNameMap[K]> | null} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2).toLowerCase(), /** @type {EventListener} */ (value));
    else if (key === "value") /** @type {HTMLInputElement} */ (el).value = /** @type {string} */ (value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Static, trusted SVG markup only (the card glyphs): never player input.
/**
 * @param {string} markup
 * @returns {Element}
 */
export function fromMarkup(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return /** @type {Element} */ (template.content.firstElementChild);
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * @param {string} message
 * @param {string} [kind]
 */
export function toast(message, kind = "error") {
  const box = byId("toast");
  box.textContent = message;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

export function hideToast() {
  byId("toast").hidden = true;
}

// An element of index.html, which the page always has.
/**
 * @template {HTMLElement} [E=HTMLElement]
 * @param {string} id
 * @returns {E}
 */
export function byId(id) {
  return /** @type {E} */ (document.getElementById(id));
}

// Read (`value` left out), write, or remove (`value` null) a stored preference.
/**
 * @param {Storage} area
 * @param {string} key
 * @param {string | null} [value]
 * @returns {string | null}
 */
export function store(area, key, value) {
  try {
    if (value === undefined) return area.getItem(key);
    if (value === null) area.removeItem(key);
    else area.setItem(key, value);
  } catch (e) {
    // Storage can be disabled (private browsing): the page still works, it just forgets.
  }
  return null;
}

// A failure's message: an Error's, or the thing itself in words.
/**
 * @param {unknown} error
 * @returns {string}
 */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

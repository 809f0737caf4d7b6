// One tooltip for the whole page. `tip(element, text)` gives an element a short
// explanation: it shows on hover (a mouse), on keyboard focus and on a long press (touch),
// and screen readers hear it as the element's description (`aria-describedby` names a
// hidden copy of the text inside the element). Escape, the pointer or the focus leaving,
// or a touch elsewhere hides it; so does the element leaving the page (the table is drawn
// anew on each change). A scroll moves it along with its element.

import { h } from "./dom.js";

const LONG_PRESS_MS = 450;
const PRESS_SLOP_PX = 10;
const GAP_PX = 8;

let installed = false;
let count = 0;
/** @type {HTMLElement | null} */
let bubble = null;
/** @type {HTMLElement | null} */
let shownFor = null;
/** @type {MutationObserver | null} */
let watcher = null;
/** @type {{ target: HTMLElement, x: number, y: number, timer: ReturnType<typeof setTimeout> } | null} */
let press = null;
/** @type {HTMLElement | null} */
let swallowClick = null;

// Give `element` the explanation `text` (nothing if `text` is empty); returns `element`.
// An element a keyboard cannot reach yet becomes reachable (tabindex 0).
/**
 * @template {HTMLElement} E
 * @param {E} element
 * @param {string} text
 * @returns {E}
 */
export function tip(element, text) {
  if (!text) return element;
  install();
  count += 1;
  const id = `tip-${count}`;
  element.append(h("span", { id, class: "tip-text", hidden: true }, text));
  const described = element.getAttribute("aria-describedby");
  element.setAttribute("aria-describedby", described ? `${described} ${id}` : id);
  element.dataset.tip = id;
  element.removeAttribute("title");
  if (element.tabIndex < 0 && !element.hasAttribute("disabled")) element.tabIndex = 0;
  return element;
}

// The explanation `element` was given, or "" if none.
/**
 * @param {HTMLElement | null} element
 * @returns {string}
 */
export function tipText(element) {
  const text = element && element.dataset.tip ? document.getElementById(element.dataset.tip) : null;
  return text ? text.textContent : "";
}

/**
 * @param {EventTarget | null} node
 * @returns {HTMLElement | null}
 */
function targetOf(node) {
  return node instanceof Element ? node.closest("[data-tip]") : null;
}

/** @param {HTMLElement} target */
function show(target) {
  const text = tipText(target);
  if (!text) return;
  if (!bubble) {
    // The description already reaches screen readers: the bubble is for the eyes only.
    bubble = h("div", { id: "tooltip", class: "tooltip", "aria-hidden": "true" });
    document.body.append(bubble);
  }
  bubble.textContent = text;
  bubble.hidden = false;
  shownFor = target;
  place(bubble, target);
  if (!watcher) {
    watcher = new MutationObserver(() => { if (shownFor && !shownFor.isConnected) hide(); });
    watcher.observe(document.body, { childList: true, subtree: true });
  }
}

// Below the element if it fits, else above; always inside the window.
/**
 * @param {HTMLElement} bubble
 * @param {HTMLElement} target
 */
function place(bubble, target) {
  const box = target.getBoundingClientRect();
  bubble.style.left = "0px";
  bubble.style.top = "0px";
  const own = bubble.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const height = document.documentElement.clientHeight;
  const left = Math.max(GAP_PX, Math.min(box.left + box.width / 2 - own.width / 2, width - own.width - GAP_PX));
  const below = box.bottom + GAP_PX;
  const top = below + own.height <= height || box.top - GAP_PX - own.height < 0 ? below : box.top - GAP_PX - own.height;
  bubble.style.left = `${Math.round(left)}px`;
  bubble.style.top = `${Math.round(top)}px`;
  bubble.dataset.side = top === below ? "below" : "above";
}

// The page scrolled or changed size: the bubble stays by its element.
function follow() {
  if (shownFor && bubble && !bubble.hidden) place(bubble, shownFor);
}

function hide() {
  if (bubble) bubble.hidden = true;
  shownFor = null;
  if (watcher) {
    watcher.disconnect();
    watcher = null;
  }
}

function cancelPress() {
  if (press) clearTimeout(press.timer);
  press = null;
}

// -- the events: one listener of each kind for the whole page ----------------------------

/** @param {PointerEvent} event */
function onPointerOver(event) {
  if (event.pointerType !== "mouse") return;
  const target = targetOf(event.target);
  if (target && target !== shownFor) show(target);
}

/** @param {PointerEvent} event */
function onPointerOut(event) {
  if (event.pointerType !== "mouse" || !shownFor) return;
  const to = event.relatedTarget;
  if (!(to instanceof Node) || !shownFor.contains(to)) hide();
}

/** @param {FocusEvent} event */
function onFocusIn(event) {
  const target = targetOf(event.target);
  if (target && target === event.target && target.matches(":focus-visible")) show(target);
  else if (shownFor && !shownFor.contains(/** @type {Node | null} */ (event.target))) hide();
}

/** @param {FocusEvent} event */
function onFocusOut(event) {
  if (shownFor && event.target === shownFor) hide();
}

// A touch (or a pen) hides what a long press showed, and may start another long press.
/** @param {PointerEvent} event */
function onPointerDown(event) {
  cancelPress();
  swallowClick = null;
  if (event.pointerType === "mouse") return;
  hide();
  const target = targetOf(event.target);
  if (!target) return;
  press = {
    target,
    x: event.clientX,
    y: event.clientY,
    timer: setTimeout(() => {
      swallowClick = target;
      show(target);
      press = null;
    }, LONG_PRESS_MS),
  };
}

/** @param {PointerEvent} event */
function onPointerMove(event) {
  if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > PRESS_SLOP_PX) cancelPress();
}

// A long press shows the explanation: it neither presses the button nor opens a menu.
/** @param {MouseEvent} event */
function onClick(event) {
  if (!swallowClick) return;
  if (swallowClick.contains(/** @type {Node | null} */ (event.target))) {
    event.preventDefault();
    event.stopPropagation();
  }
  swallowClick = null;
}

/** @param {MouseEvent} event */
function onContextMenu(event) {
  if (swallowClick || press) event.preventDefault();
}

/** @param {KeyboardEvent} event */
function onKeyDown(event) {
  if (event.key === "Escape" && shownFor) hide();
}

function install() {
  if (installed) return;
  installed = true;
  document.addEventListener("pointerover", onPointerOver);
  document.addEventListener("pointerout", onPointerOut);
  document.addEventListener("focusin", onFocusIn);
  document.addEventListener("focusout", onFocusOut);
  document.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", () => { cancelPress(); });
  document.addEventListener("pointercancel", () => { cancelPress(); });
  document.addEventListener("click", onClick, true);
  document.addEventListener("contextmenu", onContextMenu);
  document.addEventListener("keydown", onKeyDown);
  window.addEventListener("scroll", follow, { passive: true });
  window.addEventListener("resize", follow);
}

// Who plays: a guest (a nickname) or an account (a name and a password). The session is
// an HttpOnly cookie the page never sees; the page knows who is signed in and the
// session's CSRF token, which net.js sends with every request that changes something.
// The top bar's button opens a dialog: sign in, create an account or play as a guest;
// once signed in, My games, the player's page, a guest's upgrade to an account, and
// Sign out.

import { h, messageOf, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api, setCsrfToken } from "./net.js";

/** @typedef {import("./messages").MeBody} MeBody */
/** @typedef {import("./messages").Player} Player */
/** @typedef {"signin" | "register" | "guest"} Mode */

const NAME_LENGTH = [3, 20];
const PASSWORD_MIN = 8;

/** @type {Player | null} */
let me = null; // { id, name, kind } while signed in
/** @type {(url: string) => void} */
let navigateTo = (url) => { location.assign(url); };
/** @type {((player: Player | null) => void)[]} */
const listeners = [];

/** @returns {Player | null} */
export function currentPlayer() {
  return me;
}

// Called with the player (or null) whenever someone signs in or out.
/** @param {(player: Player | null) => void} listener */
export function onPlayerChange(listener) {
  listeners.push(listener);
}

// "Ann", or "Hana (guest)": how a player is named on the page.
/** @param {{ kind: string, name: string }} player */
export function playerLabel(player) {
  return player.kind === "guest" ? t("account_guest_name", { name: player.name }) : player.name;
}

/** @param {{ navigate: (url: string) => void }} options */
export async function initAccount({ navigate }) {
  navigateTo = navigate;
  try {
    remember(await api("/api/me"));
  } catch (error) {
    remember({ player: null });
  }
}

/** @param {MeBody} body */
function remember(body) {
  me = body.player || null;
  setCsrfToken("csrf" in body ? body.csrf : null);
  renderAccountButton();
}

/** @param {MeBody} body */
function changed(body) {
  remember(body);
  for (const listener of listeners) listener(me);
}

// The top bar's button: who is signed in, or "Sign in".
export function renderAccountButton() {
  const slot = document.getElementById("account");
  if (!slot) return;
  slot.replaceChildren(h("button", {
    type: "button",
    id: "account-button",
    class: "account-button",
    dataset: { kind: me ? me.kind : "none" },
    "aria-haspopup": "dialog",
    onclick: () => openAccount(),
  }, me ? playerLabel(me) : t("account_sign_in")));
}

// A seat opened by its link while signed in becomes the player's, unless someone holds
// it or the player holds the other seat (then it stays as it is: nothing to say).
/**
 * @param {string} gameId
 * @param {string | null} token
 */
export async function claimSeat(gameId, token) {
  if (!me || !token) return;
  try {
    await api(`/api/games/${encodeURIComponent(gameId)}/claim`, { method: "POST", token });
  } catch (error) {
    // err_seat_taken, err_claim_both: the seat stays anonymous for this player.
  }
}

/**
 * @param {{ mode?: Mode }} [options]
 * @returns {HTMLDialogElement}
 */
export function openAccount({ mode = "signin" } = {}) {
  for (const old of document.querySelectorAll("dialog.account-panel")) old.remove();
  /** @type {HTMLDialogElement} */
  const dialog = h("dialog", { class: "account-panel", "aria-labelledby": "account-title", onclose: () => dialog.remove() });
  const close = h("button", { type: "button", class: "account-close", id: "account-close", "aria-label": t("account_close"), onclick: () => dialog.close() }, "✕");
  const body = h("div", { class: "account-body" });
  dialog.append(h("div", { class: "account-bar" }, close), body);
  /** @param {Mode} next */
  const show = (next) => {
    body.replaceChildren(...(me ? signedInView(dialog, me) : signedOutView(dialog, next, show)).filter((part) => part !== null));
    const tab = /** @type {HTMLElement | null} */ (body.querySelector("[aria-selected=true]"));
    if (tab) tab.focus();
  };
  show(mode);
  document.body.append(dialog);
  dialog.showModal();
  const field = dialog.querySelector("input");
  (field || close).focus();
  return dialog;
}

/**
 * @param {HTMLDialogElement} dialog
 * @param {Mode} mode
 * @param {(mode: Mode) => void} show
 * @returns {HTMLElement[]}
 */
function signedOutView(dialog, mode, show) {
  /**
   * @param {Mode} name
   * @param {string} label
   */
  const tab = (name, label) => h("button", {
    type: "button", role: "tab", id: `account-tab-${name}`, "aria-selected": String(mode === name),
    class: mode === name ? "tab selected" : "tab", onclick: () => show(name),
  }, label);
  const titles = { signin: t("account_sign_in"), register: t("account_register"), guest: t("account_guest") };
  return [
    h("h2", { id: "account-title" }, titles[mode]),
    h("div", { class: "tabs", role: "tablist" },
      tab("signin", t("account_sign_in")), tab("register", t("account_register")), tab("guest", t("account_guest"))),
    accountForm(dialog, mode),
  ];
}

/**
 * @param {HTMLDialogElement} dialog
 * @param {Player} me
 * @returns {(HTMLElement | null)[]}
 */
function signedInView(dialog, me) {
  /** @param {string} url */
  const go = (url) => /** @param {Event} event */ (event) => {
    event.preventDefault();
    dialog.close();
    navigateTo(url);
  };
  const links = [h("a", { href: "/me", id: "account-my-games", class: "button", onclick: go("/me") }, t("my_games"))];
  if (me.kind === "account") {
    const page = `/@/${encodeURIComponent(me.name)}`;
    links.push(h("a", { href: page, id: "account-page", class: "button", onclick: go(page) }, me.name));
    links.push(h("a", { href: "/friends", id: "account-friends", class: "button", onclick: go("/friends") }, t("friends_title")));
  }
  const signOut = h("button", { type: "button", id: "account-sign-out", onclick: () => logOut(dialog) }, t("account_sign_out"));
  return [
    h("h2", { id: "account-title" }, t("account_menu", { name: playerLabel(me) })),
    h("div", { class: "buttons" }, links, signOut),
    me.kind === "guest" ? h("p", { class: "hint" }, t("account_upgrade_hint")) : null,
    me.kind === "guest" ? accountForm(dialog, "register") : null,
  ];
}

/**
 * @param {HTMLDialogElement} dialog
 * @param {Mode} mode
 */
function accountForm(dialog, mode) {
  const error = h("p", { class: "account-error", id: "account-error", role: "alert" });
  const fields = mode === "guest"
    ? [field("account-nickname", "text", t("account_nickname"), "nickname", t("account_guest_hint"))]
    : [
      field("account-name", "text", t("account_name"), "username",
        mode === "register" ? t("account_name_hint", { min: NAME_LENGTH[0], max: NAME_LENGTH[1] }) : null),
      field("account-password", "password", t("account_password"), mode === "register" ? "new-password" : "current-password",
        mode === "register" ? t("account_password_hint", { min: PASSWORD_MIN }) : null),
    ];
  const submit = h("button", { type: "submit", class: "primary", id: "account-submit" },
    { signin: t("account_sign_in"), register: t("account_register"), guest: t("account_guest") }[mode]);
  const form = h("form", { class: "account-form", onsubmit: async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    try {
      changed(await api(ROUTES[mode], { method: "POST", body: values(form, mode) }));
      dialog.close();
    } catch (failure) {
      error.textContent = messageOf(failure);
      submit.disabled = false;
    }
  } }, fields, error, submit);
  return form;
}

const ROUTES = { signin: "/api/me/login", register: "/api/me/register", guest: "/api/me/guest" };

/**
 * @param {HTMLFormElement} form
 * @param {Mode} mode
 */
function values(form, mode) {
  /** @param {string} id */
  const value = (id) => /** @type {HTMLInputElement} */ (form.querySelector(`#${id}`)).value;
  if (mode === "guest") return { nickname: value("account-nickname") };
  return { name: value("account-name"), password: value("account-password") };
}

/**
 * @param {string} id
 * @param {string} type
 * @param {string} label
 * @param {string} autocomplete
 * @param {string | null} hint
 */
function field(id, type, label, autocomplete, hint) {
  const hintId = hint ? `${id}-hint` : null;
  return h("div", { class: "field" },
    h("label", { for: id }, label),
    h("input", { id, type, name: id, autocomplete, required: true, "aria-describedby": hintId }),
    hint ? h("small", { id: hintId, class: "hint" }, hint) : null);
}

/** @param {HTMLDialogElement} dialog */
async function logOut(dialog) {
  /** @type {MeBody} */
  let body;
  try {
    body = await api("/api/me/logout", { method: "POST" });
  } catch (error) {
    // The page's token is out of date: say so, and show who the server says is signed in.
    toast(messageOf(error));
    /** @type {Promise<MeBody>} */
    const signedIn = api("/api/me");
    body = await signedIn.catch(() => ({ player: null }));
  }
  changed(body);
  dialog.close();
}

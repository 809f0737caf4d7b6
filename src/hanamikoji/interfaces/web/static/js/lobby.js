// The lobby (/lobby): open seeks that others accept, a quick-pairing queue, and the
// games anyone may watch. One WebSocket (/lobby/ws) carries every change as it happens;
// once paired, the page goes to its seat of the new game.

import { h, toast } from "./dom.js";
import { currentLang, t, variantName } from "./i18n.js";
import { openAccount } from "./account.js";
import { renderWatchList } from "./watch.js";

/** @typedef {import("./wire").LobbyServerMessage} LobbyMessage */
/** @typedef {import("./messages").LobbyRequest} LobbyRequest */
/** @typedef {import("./messages").LobbySettings} LobbySettings */
/** @typedef {import("./wire").LobbyPlayerInfo} LobbyYou */
/** @typedef {import("./wire").PublicSeek} Seek */
/** @typedef {{ variant: string, time_control: string, rated: boolean, low: string, high: string }} SeekChoice */

const VARIANTS = ["classic", "three-rounds", "french"];
const TIME_CONTROLS = ["none", "3+2", "5+5", "10+0", "1d", "3d"];
const RETRY_MS = 2000;

/** @param {string} name */
function timeName(name) {
  return name === "none" ? t("lobby_time_none") : name;
}

class LobbyView {
  /**
   * @param {HTMLElement} root
   * @param {{ navigate: (url: string) => void }} options
   */
  constructor(root, { navigate }) {
    this.root = root;
    this.navigate = navigate;
    this.state = null;
    /** @type {LobbyYou | null} */
    this.you = null;
    /** @type {Map<string, Seek>} */
    this.seeks = new Map();
    this.queued = false;
    this.stopped = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {HTMLElement | null} */
    this.watchList = null;
    /** @type {SeekChoice} */
    this.choice = { variant: "classic", time_control: "none", rated: false, low: "", high: "" };
  }

  async start() {
    this.connect();
    this.watchList = await renderWatchList({ navigate: this.navigate });
    this.render();
  }

  connect() {
    if (this.stopped) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/lobby/ws?lang=${encodeURIComponent(currentLang())}`);
    this.ws = ws;
    ws.onmessage = (event) => this.onMessage(JSON.parse(event.data));
    ws.onclose = () => {
      if (this.ws !== ws || this.stopped) return;
      setTimeout(() => this.connect(), RETRY_MS);
    };
  }

  /** @param {LobbyRequest} message */
  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** @param {LobbyMessage} message */
  onMessage(message) {
    if (message.type === "lobby") {
      this.you = message.you;
      this.queued = message.queued;
      this.seeks = new Map(message.seeks.map((seek) => [seek.id, seek]));
    } else if (message.type === "seek") {
      this.seeks.set(message.seek.id, message.seek);
    } else if (message.type === "unseek") {
      this.seeks.delete(message.seek);
    } else if (message.type === "queued") {
      this.queued = message.queued;
    } else if (message.type === "paired") {
      // Without a token (the game was made on another server) the session opens the seat.
      this.navigate(message.token ? `/g/${message.game}#t=${message.token}` : `/g/${message.game}`);
      return;
    } else if (message.type === "error") {
      toast(message.message);
      return;
    } else {
      return;
    }
    this.render();
  }

  /** @param {string} lang */
  setLang(lang) {
    this.send({ type: "lang", lang });
    this.render();
  }

  stop() {
    this.stopped = true;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }

  render() {
    this.root.replaceChildren(h("section", { class: "lobby", "data-testid": "lobby" },
      h("h1", {}, t("lobby_title")),
      this.renderYou(),
      this.you ? this.renderSeekForm(this.you) : null,
      this.you ? this.renderQuick() : null,
      this.renderSeeks(),
      this.watchList));
  }

  renderYou() {
    if (!this.you) {
      return h("p", { class: "lobby-you" }, t("lobby_sign_in"), " ",
        h("button", { type: "button", onclick: () => openAccount() }, t("account_sign_in")));
    }
    // The rating in the variant chosen in the seek form: ratings are per variant.
    const mine = this.you.ratings[this.choice.variant];
    const rating = `${mine.rating}${mine.provisional ? "?" : ""}`;
    return h("p", { class: "lobby-you", "data-testid": "lobby-you" }, t("lobby_you", { name: this.you.name, rating }));
  }

  // The settings chosen in the seek form (kept here: the page is drawn again at every
  // change in the lobby); quick pairing looks for a game of them too.
  /** @returns {LobbySettings} */
  settings() {
    const { variant, time_control, rated } = this.choice;
    return { variant, time_control, rated };
  }

  /** @param {LobbyYou} you */
  renderSeekForm(you) {
    const choice = this.choice;
    /**
     * @template {keyof SeekChoice} N
     * @param {N} name
     * @param {SeekChoice[N]} value
     */
    const set = (name, value) => { choice[name] = value; };
    /**
     * @param {"variant" | "time_control"} name
     * @param {string[][]} values
     * @param {string} label
     */
    const select = (name, values, label) => h("label", { class: "field" }, h("span", { class: "label" }, label),
      h("select", { name, onchange: (e) => { set(name, e.currentTarget.value); this.render(); } },
        values.map(([value, text]) => h("option", { value, selected: value === choice[name] }, text))));
    /**
     * @param {"low" | "high"} name
     * @param {string} label
     */
    const number = (name, label) => h("label", { class: "field" }, h("span", { class: "label" }, label),
      h("input", { type: "number", name, min: 0, max: 4000, step: 50, inputmode: "numeric", value: choice[name], oninput: (e) => set(name, e.currentTarget.value) }));
    const form = h("form", { class: "seek-form", "data-testid": "seek-form", onsubmit: (event) => {
      event.preventDefault();
      const range = choice.low !== "" && choice.high !== "" ? [Number(choice.low), Number(choice.high)] : null;
      this.send({ type: "seek", ...this.settings(), range });
    } },
      select("variant", VARIANTS.map((name) => [name, variantName(name)]), t("variant_label")),
      select("time_control", TIME_CONTROLS.map((name) => [name, timeName(name)]), t("lobby_time_label")),
      h("label", { class: "choice" },
        h("input", { type: "checkbox", name: "rated", checked: choice.rated, disabled: !you.account, onchange: (e) => set("rated", e.currentTarget.checked) }),
        h("span", {}, t("lobby_rated"))),
      h("fieldset", {}, h("legend", {}, t("lobby_range_label")), number("low", t("lobby_range_low")), number("high", t("lobby_range_high"))),
      h("button", { type: "submit", class: "primary", id: "post-seek" }, t("lobby_post")));
    return h("section", { class: "lobby-post", "aria-labelledby": "post-title" }, h("h2", { id: "post-title" }, t("lobby_post_title")), form);
  }

  renderQuick() {
    const action = this.queued
      ? h("button", { type: "button", id: "quick-stop", onclick: () => this.send({ type: "unqueue" }) }, t("lobby_quick_stop"))
      : h("button", { type: "button", id: "quick", onclick: () => this.send({ type: "quick", ...this.settings() }) }, t("lobby_quick"));
    return h("section", { class: "lobby-quick", "aria-labelledby": "quick-title" },
      h("h2", { id: "quick-title" }, t("lobby_quick_title")),
      this.queued ? h("p", { role: "status" }, t("lobby_searching")) : null,
      action);
  }

  renderSeeks() {
    const seeks = [...this.seeks.values()];
    /** @param {Seek} seek */
    const line = (seek) => t("lobby_seek_line", {
      player: seek.player.name,
      rating: `${seek.player.rating}${seek.player.provisional ? "?" : ""}`,
      variant: variantName(seek.variant),
      time: timeName(seek.time_control),
      kind: seek.rated ? t("lobby_rated") : t("lobby_casual"),
    });
    return h("section", { class: "seeks", "aria-labelledby": "seeks-title", "data-testid": "seeks" },
      h("h2", { id: "seeks-title" }, t("lobby_seeks_title")),
      seeks.length
        ? h("ul", { class: "game-list" }, seeks.map((seek) => h("li", { class: "game-entry", "data-seek": seek.id },
          h("span", { class: "entry-title" }, line(seek)), " ",
          seek.mine
            ? h("button", { type: "button", class: "cancel-seek", onclick: () => this.send({ type: "cancel", seek: seek.id }) }, t("lobby_cancel"))
            : h("button", { type: "button", class: "primary accept-seek", disabled: !this.you, onclick: () => this.send({ type: "accept", seek: seek.id }) }, t("lobby_accept")))))
        : h("p", { class: "empty" }, t("lobby_no_seeks")));
  }
}

/**
 * @param {HTMLElement} root
 * @param {{ navigate: (url: string) => void }} options
 */
export function renderLobby(root, options) {
  const view = new LobbyView(root, options);
  view.start();
  return view;
}

// The chat panel beside the table (web/chat/ on the server): a seat's page shows the
// players' room, a spectator's the spectators' room. Preset phrases are buttons (each
// line holds the phrase's key, said here in this page's language); an account writes its
// own words in the field. Every line is put in the page as text (text nodes, never
// HTML). The chat can be muted, remembered by this browser per room; each line of
// someone else can be reported.

import { currentPlayer } from "./account.js";
import { h, store } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";

/** @typedef {import("./wire").ChatLineInfo} ChatLine */
/** @typedef {import("./wire").ChatRoomState} ChatRoomState */
/** @typedef {import("./wire").ChatServerMessage} ChatServerMessage */
/** @typedef {import("./messages").GameRequest} GameRequest */

const MUTE_KEY = "hanamikoji.chat.muted.";

export class ChatPanel {
  /** @param {(message: GameRequest) => boolean} send */
  constructor(send) {
    this.send = send;
    /** @type {ChatRoomState | null} */
    this.room = null;
    /** @type {ChatLine[]} */
    this.lines = [];
    // Kept across the table's redraws (table_board.js puts it back each time).
    this.element = h("section", { class: "chat", "data-testid": "chat", hidden: true });
    this.draft = "";
  }

  // The muted state of this room kind, remembered by the browser.
  /** @returns {boolean} */
  muted() {
    return this.room !== null && store(localStorage, MUTE_KEY + this.room.room) === "yes";
  }

  /** @param {ChatServerMessage} message */
  onMessage(message) {
    if (message.type === "chat") {
      this.room = message;
      this.lines = [...message.lines];
    } else if (message.type === "chat_line") {
      if (!this.room || message.line.room !== this.room.room) return;
      if (this.lines.some((line) => line.id === message.line.id)) return;
      this.lines.push(message.line);
      this.lines = this.lines.slice(-200);
    } else {
      return;
    }
    this.render();
  }

  // Who said a line: the author's name, else the seat's, else a spectator.
  /**
   * @param {ChatLine} line
   * @returns {string}
   */
  authorOf(line) {
    if (line.author) return line.author;
    if (line.seat !== null) return t("player", { number: line.seat + 1 });
    return t("chat_spectator");
  }

  render() {
    const room = this.room;
    const panel = this.element;
    if (!room) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const input = /** @type {HTMLInputElement | null} */ (panel.querySelector("input.chat-text"));
    if (input) this.draft = input.value;
    const hadFocus = input !== null && document.activeElement === input;
    const muted = this.muted();
    const titleId = `chat-title-${room.room}`;
    panel.setAttribute("aria-labelledby", titleId);
    const writing = muted ? null : this.renderWriting(room);
    panel.replaceChildren(
      h("h2", { id: titleId }, t(room.room === "player" ? "chat_title_player" : "chat_title_spectator")),
      h("label", { class: "chat-mute" },
        h("input", {
          type: "checkbox",
          checked: muted,
          "data-testid": "chat-mute",
          onchange: (event) => {
            store(localStorage, MUTE_KEY + room.room, event.currentTarget.checked ? "yes" : null);
            this.render();
          },
        }),
        " ", t("chat_mute")),
      muted ? h("p", { class: "chat-muted" }, t("chat_muted")) : this.renderLines(),
      ...(writing ? [writing] : []),
    );
    const list = panel.querySelector("ol");
    if (list) list.scrollTop = list.scrollHeight;
    if (hadFocus) {
      const again = /** @type {HTMLInputElement | null} */ (panel.querySelector("input.chat-text"));
      if (again) again.focus();
    }
  }

  renderLines() {
    if (!this.lines.length) return h("p", { class: "empty" }, t("chat_empty"));
    const me = currentPlayer();
    return h("ol", { class: "chat-lines", "aria-live": "polite", "data-testid": "chat-lines" },
      this.lines.map((line) => {
        const author = this.authorOf(line);
        // Free text goes in as a text node: `<b>` stays the four characters it is.
        const words = line.preset !== null ? t(line.preset) : line.text || "";
        const mine = me !== null && line.author === me.name;
        return h("li", { class: "chat-line", dataset: { line: String(line.id) } },
          h("span", { class: "chat-author" }, author), ": ",
          h("span", { class: "chat-words" }, words),
          mine || !me ? null : h("button", {
            type: "button",
            class: "chat-report link",
            "aria-label": t("chat_report_line", { name: author }),
            title: t("chat_report_line", { name: author }),
            onclick: () => this.send({ type: "chat_report", line: line.id }),
          }, t("chat_report")));
      }));
  }

  /** @param {ChatRoomState} room */
  renderWriting(room) {
    const presets = h("div", { class: "chat-presets", role: "group", "aria-label": t("chat_presets") },
      room.presets.map((key) => h("button", {
        type: "button",
        class: "chat-preset",
        dataset: { preset: key },
        onclick: () => this.send({ type: "chat", room: room.room, preset: key }),
      }, t(key))));
    if (!room.free_text) return h("div", { class: "chat-write" }, presets, h("p", { class: "chat-note" }, t("chat_account_only")));
    const label = t("chat_text_label", { limit: room.max_chars });
    const input = h("input", {
      type: "text",
      class: "chat-text",
      maxlength: room.max_chars,
      "aria-label": label,
      placeholder: label,
      autocomplete: "off",
      "data-testid": "chat-text",
      value: this.draft,
    });
    const form = h("form", {
      class: "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if (this.send({ type: "chat", room: room.room, text })) {
          input.value = "";
          this.draft = "";
        }
      },
    }, input, h("button", { type: "submit" }, t("chat_send")));
    return h("div", { class: "chat-write" }, presets, form);
  }
}

// The players' chat of a finished game, for its replay (the two seats only: the server
// answers nobody else): the lines said up to the position shown.
/**
 * @param {string} gameId
 * @param {string} token
 * @returns {Promise<ChatLine[]>}
 */
export async function playersChat(gameId, token) {
  try {
    /** @type {import("./wire").ChatHistory} */
    const history = await api(`/api/games/${encodeURIComponent(gameId)}/chat`, { token });
    return history.lines;
  } catch (error) {
    return [];
  }
}

/**
 * @param {ChatLine[]} lines
 * @param {number} ply the position shown: lines said at it or before
 * @returns {HTMLElement | null}
 */
export function replayChat(lines, ply) {
  const shown = lines.filter((line) => line.ply <= ply);
  if (!lines.length) return null;
  const panel = new ChatPanel(() => false);
  return h("section", { class: "chat replay-chat", "data-testid": "replay-chat" },
    h("h3", {}, t("chat_replay_title")),
    shown.length ? h("ol", { class: "chat-lines" }, shown.map((line) => h("li", { class: "chat-line" },
      h("span", { class: "chat-author" }, panel.authorOf(line)), ": ",
      h("span", { class: "chat-words" }, line.preset !== null ? t(line.preset) : line.text || "")))) : h("p", { class: "empty" }, t("chat_empty")));
}

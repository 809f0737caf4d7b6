// Your turn, wherever you are: while it is this seat's decision the tab's title says so
// ("(1) Your turn · Hanamikoji", the count being the player's games waiting for them when
// the page knows it) and the favicon carries a mark; when the turn comes (not on load), a
// short sound and, in a hidden tab, a notification that says the opponent's decision in
// words. Both are off by default: the top bar's "On your turn" preference turns them on,
// remembered in this browser, and choosing a notification is the moment the browser's
// permission is asked for (never on load).
//
// Only the seat's own state is read (its log says the opponent's decision as this seat
// saw it: a Secret or a Trade-off face down), so a notice holds nothing the seat may not know.

import { currentPlayer } from "./account.js";
import { byId, store, toast } from "./dom.js";
import { describeMove, seatName, t } from "./i18n.js";
import { api } from "./net.js";

/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").MyGames} MyGames */
/** @typedef {"title" | "sound" | "notify" | "both"} TurnPreference */

const PREFERENCE_KEY = "hanamikoji.turn";
export const TURN_PREFERENCES = ["title", "sound", "notify", "both"];
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";

/** @returns {TurnPreference} */
export function turnPreference() {
  const saved = store(localStorage, PREFERENCE_KEY);
  return saved !== null && TURN_PREFERENCES.includes(saved) ? /** @type {TurnPreference} */ (saved) : "title";
}

function notifying() {
  const chosen = turnPreference();
  return (chosen === "notify" || chosen === "both") && "Notification" in window;
}

function sounding() {
  const chosen = turnPreference();
  return chosen === "sound" || chosen === "both";
}

/** @type {AudioContext | null} */
let audio = null;

// The Web Audio context, made (or resumed) in answer to the player's own gesture, since
// browsers keep a page silent until one.
function wakeAudio() {
  if (!("AudioContext" in window)) return;
  audio = audio || new AudioContext();
  if (audio.state === "suspended") audio.resume().catch(() => {});
}

// Two soft notes, a fifth apart, a quarter of a second in all.
function chime() {
  if (!audio) wakeAudio();
  if (!audio) return;
  const start = audio.currentTime;
  [660, 990].forEach((frequency, index) => {
    const context = /** @type {AudioContext} */ (audio);
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    const at = start + index * 0.12;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
    tone.connect(gain).connect(context.destination);
    tone.start(at);
    tone.stop(at + 0.13);
  });
}

// The top bar's preference (main.js calls it once): a notification chosen asks for the
// browser's permission there and then; refused, the choice falls back to the sound's.
/** @param {HTMLSelectElement} select */
export function initTurnPreference(select) {
  if (!("Notification" in window)) {
    for (const option of [...select.options]) if (option.value === "notify" || option.value === "both") option.remove();
  }
  select.value = turnPreference();
  select.addEventListener("change", async () => {
    let chosen = select.value;
    store(localStorage, PREFERENCE_KEY, chosen);
    if (chosen === "sound" || chosen === "both") wakeAudio();
    if ((chosen === "notify" || chosen === "both") && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        chosen = chosen === "both" ? "sound" : "title";
        select.value = chosen;
        store(localStorage, PREFERENCE_KEY, chosen);
        toast(t("turn_notify_denied"));
      }
    }
  });
}

/** @param {HTMLSelectElement} select */
export function translateTurnPreference(select) {
  // The bar shows a bell; the words are the control's name and the bell's explanation.
  select.setAttribute("aria-label", t("turn_pref_label"));
  byId("turn-pref").title = t("turn_pref_label");
  for (const option of select.options) option.textContent = t(`turn_pref_${option.value}`);
}

/** @param {string} href */
function setIcon(href) {
  /** @type {HTMLLinkElement | null} */
  const link = document.querySelector("link[rel=icon]");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

// The notices of one seat's page: told of every state (TableController.onMessage), put
// back as they were when the page leaves the table.
export class TurnNotices {
  /** @param {string} gameId */
  constructor(gameId) {
    this.gameId = gameId;
    /** @type {boolean | null} */
    this.mine = null;
    this.waiting = 1;
    /** @type {string | null} */
    this.title = null;
    /** @type {Notification | null} */
    this.shown = null;
  }

  // A state has arrived: `mine` whether it is now this page's decision.
  /**
   * @param {GameState} state
   * @param {boolean} mine
   */
  update(state, mine) {
    const came = mine && this.mine === false;
    if (mine && !this.mine) {
      this.title = document.title;
      this.waiting = 1;
      this.countWaiting();
    }
    if (!mine && this.mine) this.restore();
    this.mine = mine;
    if (mine) this.show();
    if (!came) return;
    if (sounding()) chime();
    if (document.visibilityState === "hidden" && notifying()) this.notify(state);
  }

  show() {
    document.title = t("turn_title", { count: this.waiting });
    setIcon(TURN_ICON);
  }

  restore() {
    if (this.title !== null) document.title = this.title;
    this.title = null;
    setIcon(ICON);
    if (this.shown) this.shown.close();
    this.shown = null;
  }

  // The page leaves the table.
  stop() {
    if (this.mine) this.restore();
    this.mine = null;
  }

  // A signed-in player's games waiting for them (this one among them), from My games.
  async countWaiting() {
    if (!currentPlayer()) return;
    try {
      /** @type {MyGames} */
      const games = await api("/api/me/games");
      const waiting = games.ongoing.filter((game) => game.your_turn).length;
      if (this.mine) {
        this.waiting = Math.max(1, waiting);
        this.show();
      }
    } catch (error) {
      // The count stays 1: the title still says it is the player's turn.
    }
  }

  // The browser's notification: the opponent's latest decision in words, as the seat's
  // own log says it; clicking it brings the tab forward.
  /** @param {GameState} state */
  notify(state) {
    if (Notification.permission !== "granted") return;
    const last = state.log[state.log.length - 1];
    const body = last && last.seat !== state.seat
      ? t("log_move", { player: seatName(state, last.seat), move: describeMove(last) })
      : t("turn_notify_body");
    try {
      const shown = new Notification(t("turn_notify_title"), { body, tag: `hanamikoji-${this.gameId}` });
      shown.onclick = () => {
        window.focus();
        shown.close();
      };
      this.shown = shown;
    } catch (error) {
      // Some browsers only notify from a service worker: the title and the sound remain.
    }
  }
}

// Hints in a game against a bot, off unless "Show hints" is ticked (remembered for the
// game in sessionStorage). Then, at this seat's decision, the Hint button asks the server
// (POST /api/games/ID/hint) for the strongest level's analysis of the decision, from this
// seat's view only, and shows the suggestion with a line saying why. Friend games and
// rated games (the state's `rated`) never offer it (the server refuses it there too).

import { h, messageOf, store, toast } from "./dom.js";
import { currentLang, describeMove, t, tCount } from "./i18n.js";
import { api } from "./net.js";

// Per game: the ply the hint is for and the hint (null while the server thinks). The
// table is drawn again on every state, so what was asked lives here, not in the DOM.
/** @typedef {import("./wire").Hint} Hint */
/** @typedef {import("./table.js").TableController} TableController */

/** @type {Map<string, { ply: number, hint: Hint | null }>} */
const asked = new Map();

/**
 * @param {TableController} table
 * @returns {HTMLElement | null}
 */
export function hintPanel(table) {
  const s = table.state;
  if (!s || s.outcome || s.rated || s.players[1 - Number(s.seat)] !== "bot") return null;
  const key = `hanamikoji.hints.${table.gameId}`;
  const on = store(sessionStorage, key) === "on";
  const toggle = h("label", { class: "toggle" },
    h("input", { type: "checkbox", id: "hint-toggle", checked: on, onchange: (event) => {
      store(sessionStorage, key, event.currentTarget.checked ? "on" : null);
      table.render();
    } }),
    " ", t("hint_toggle"));
  if (!on) return h("section", { class: "hints" }, toggle);
  const known = asked.get(table.gameId);
  const current = known && known.ply === s.ply ? known : null;
  const button = table.myTurn()
    ? h("button", { type: "button", id: "hint-button", disabled: current !== null, onclick: () => ask(table) }, t("hint_button"))
    : null;
  return h("section", { class: "hints", "data-testid": "hints" },
    h("div", { class: "hints-head" }, toggle, button),
    h("div", { "aria-live": "polite" }, current ? renderHint(current.hint) : null));
}

/** @param {TableController} table */
async function ask(table) {
  const { gameId } = table;
  const ply = table.current().ply;
  asked.set(gameId, { ply, hint: null });
  table.render();
  /** @type {Hint | null} */
  let hint = null;
  try {
    hint = await api(`/api/games/${gameId}/hint`, { method: "POST", token: table.token });
  } catch (error) {
    toast(messageOf(error));
  }
  const known = asked.get(gameId);
  if (!known || known.ply !== ply) return;
  if (hint && hint.ply === ply) asked.set(gameId, { ply, hint });
  else asked.delete(gameId);
  // The table may have been left (another game, the start page) while the server thought.
  if (!table.closed() && table.current().ply === ply) table.render();
}

/** @param {Hint | null} hint */
function renderHint(hint) {
  if (hint === null) return h("p", { class: "hint-thinking" }, t("hint_thinking"));
  const suggestion = h("p", { class: "hint-move", "data-move": hint.move.text },
    t("hint_suggestion", { move: describeMove(hint.move) }));
  return h("div", { class: "hint-result" }, suggestion, h("p", { class: "hint-why" }, reason(hint)));
}

/** @param {Hint} hint */
function reason(hint) {
  if (hint.method === "forced") return t("hint_only");
  const deals = tCount(hint.method === "exact" ? "hint_possible" : "hint_sampled", Number(hint.worlds));
  const value = percent(Number(hint.value));
  if (!hint.next) return t("hint_reason_alone", { value, deals });
  return t("hint_reason", { value, deals, next: describeMove(hint.next), next_value: percent(Number(hint.next_value)) });
}

/** @param {number} value */
function percent(value) {
  const lang = currentLang() === "en-2018" ? "en" : currentLang();
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(value);
}

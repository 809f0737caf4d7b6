// The game table as a whole (table.js holds what it shows): the status line and the
// invitation above, the two sides and the geisha row (table_sides.js, table_row.js), the
// decision bar or the end (table_choosing.js, table_end.js), the log and the tracker
// beside them; and the pages shown instead of a table (no seat, the seat taken back).

import { h, store } from "./dom.js";
import { tile } from "./cards.js";
import { actionName, cardLabel, charmOf, describeMove, itemName, seatName, t, tCount, variantName } from "./i18n.js";
import { ROW } from "./game_rules.js";
import { clockBar } from "./clock.js";
import { hintPanel } from "./hint.js";
import { lastMoveMarks } from "./lastmove.js";
import { renderSide } from "./table_sides.js";
import { renderRow } from "./table_row.js";
import { renderComposer } from "./table_choosing.js";
import { renderEnd } from "./table_end.js";
import { concedeButtons, seatNames } from "./people.js";

/** @typedef {import("./table.js").TableController} TableController */
/** @typedef {import("./messages").ActionKind} ActionKind */

/** @param {TableController} table */
export function drawTable(table) {
  const s = table.current();
  const active = document.activeElement;
  const focused = active instanceof HTMLElement || active instanceof SVGElement ? active.dataset.fkey : null;
  const me = table.viewer();
  const opponent = 1 - me;
  table.marks = lastMoveMarks(s, table.freshFrom);
  table.root.replaceChildren(
    h("section", {
      class: "game",
      "aria-label": "Hanamikoji",
      dataset: { ply: s.ply, phase: s.phase, mine: table.myTurn() ? "yes" : "no", busy: table.busy ? "yes" : "no" },
    },
      renderInvite(table),
      renderStatus(table),
      clockBar(table),
      h("div", { class: "layout" },
        h("div", { class: "board" },
          renderSide(table, opponent),
          renderRow(table),
          renderSide(table, me),
          s.outcome ? renderEnd(table) : (table.watching() ? null : renderComposer(table)),
          table.watching() ? null : hintPanel(table)),
        h("aside", { class: "panel" }, renderLog(table), table.chat.element, renderTracker(table)))),
  );
  const log = table.root.querySelector(".log ol");
  if (log) log.scrollTop = log.scrollHeight;
  if (focused) {
    const again = /** @type {HTMLElement | null} */ (table.root.querySelector(`[data-fkey="${CSS.escape(focused)}"]`));
    if (again) again.focus();
  }
}

// Newer pages took this seat: say so, and offer to take it back here.
/** @param {TableController} table */
export function drawReplaced(table) {
  table.root.replaceChildren(h("section", { class: "no-seat", "data-testid": "seat-replaced" },
    h("p", {}, t("err_replaced")),
    h("p", {}, h("button", { type: "button", class: "primary", onclick: () => { if (table.socket.reopen) table.socket.reopen(); } }, t("seat_reopen")))));
}

/** @param {TableController} table */
export function drawNoSeat(table) {
  table.root.replaceChildren(h("section", { class: "no-seat" },
    h("p", {}, t("no_seat")),
    h("p", {}, h("a", { href: "/", class: "button primary" }, t("new_game")))));
}

/** @param {TableController} table */
export function renderInvite(table) {
  const s = table.current();
  const key = `hanamikoji.invite.${table.gameId}`;
  const friendToken = store(sessionStorage, key);
  if (!friendToken || s.seat !== 0 || s.players[1] !== "human") return null;
  if (s.connected[1]) {
    store(sessionStorage, key, null);
    return null;
  }
  const link = `${location.origin}/g/${table.gameId}#t=${friendToken}`;
  const input = h("input", { type: "text", readonly: true, value: link, id: "invite-link", "aria-labelledby": "invite-title", onfocus: (e) => e.currentTarget.select() });
  const copy = h("button", { type: "button", onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch (e) {
      input.select();
      document.execCommand("copy");
    }
    copy.textContent = t("copied");
  } }, t("copy"));
  return h("div", { class: "invite" },
    h("h2", { id: "invite-title" }, t("invite_title")),
    h("p", {}, t("invite_text")),
    h("div", { class: "invite-row" }, input, copy));
}

/** @param {TableController} table */
export function statusText(table) {
  const s = table.current();
  const opponent = table.opponent();
  const name = seatName(s, opponent);
  if (s.outcome) return t("status_over");
  if (table.lessonStatus()) return table.lessonStatus();
  if (table.watching()) return t("watch_status", { player: seatName(s, s.to_move) });
  if (s.to_move === s.seat) {
    if (s.phase === "gift-response") return t("status_answer_gift", { player: name, action: actionName("gift") });
    if (s.phase === "competition-response") return t("status_answer_competition", { player: name, action: actionName("competition") });
    return t("status_your_turn");
  }
  // An offer is a Gift or a Competition (wire.d.ts types its kind as any decision's).
  if (s.pending) return t("status_waiting_answer", { player: name, action: actionName(/** @type {ActionKind} */ (s.pending.kind)) });
  return t("status_waiting", { player: name });
}

/** @param {TableController} table */
export function renderStatus(table) {
  const s = table.current();
  const round = s.max_rounds ? t("round_of_max", { round: s.round, max: s.max_rounds }) : t("round_of", { round: s.round });
  const away = !table.watching() && s.players[table.opponent()] === "human" && !s.connected[table.opponent()] && !s.outcome;
  return h("div", { class: "status" },
    h("div", { class: "facts" },
      h("span", {}, round),
      h("span", { "data-testid": "variant" }, variantName(s.variant)),
      h("span", { class: "deck", "data-testid": "deck" }, tCount("deck_cards", s.deck)),
      h("span", {}, table.watching() ? t("watch_title") : t("you_are", { player: t("player", { number: table.viewer() + 1 }) }))),
    seatNames(s),
    h("p", { class: `turn${table.myTurn() ? " mine" : ""}`, role: "status", "aria-live": "polite", id: "status-text" }, statusText(table)),
    away ? h("p", { class: "away" }, t("opponent_away")) : null,
    concedeButtons(table));
}

/** @param {TableController} table */
export function renderLog(table) {
  const s = table.current();
  const items = [];
  let round = 0;
  for (const entry of s.log) {
    if (entry.round !== round) {
      round = entry.round;
      items.push(h("li", { class: "round-heading" }, t("round_of", { round })));
    }
    items.push(h("li", { class: entry.seat === s.seat ? "mine" : "theirs" },
      t("log_move", { player: seatName(s, entry.seat), move: describeMove(entry) })));
  }
  return h("section", { class: "log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("log_title")),
    items.length ? h("ol", { "data-testid": "log" }, items) : h("p", { class: "empty" }, t("log_empty")));
}

/** @param {TableController} table */
export function renderTracker(table) {
  const s = table.current();
  const shown = store(localStorage, "hanamikoji.tracker") !== "off";
  const toggle = h("label", { class: "toggle" },
    h("input", { type: "checkbox", checked: shown, id: "tracker-toggle", onchange: (e) => {
      store(localStorage, "hanamikoji.tracker", e.currentTarget.checked ? "on" : "off");
      table.render();
    } }),
    " ", t("tracker_toggle"));
  if (s.outcome) return null;
  if (!shown) return h("section", { class: "tracker" }, toggle);
  return h("section", { class: "tracker", "aria-labelledby": "tracker-title" },
    h("h2", { id: "tracker-title" }, t("tracker_title")),
    toggle,
    // What "not seen" means depends on who reads it: a player, or a spectator.
    h("p", { class: "hint", "data-testid": "tracker-hint" }, table.watching()
      ? t("tracker_hint_watch", { secret: actionName("secret"), tradeoff: actionName("trade-off") })
      : t("tracker_hint")),
    h("ul", { class: "tracker-list" }, ROW.map((card) => h("li", { class: s.unseen[card] ? "" : "none", "aria-label": `${cardLabel(card)}: ${s.unseen[card]}` },
      tile(card), h("span", { class: "name", "aria-hidden": "true" }, itemName(card)), h("b", { "aria-hidden": "true" }, `${s.unseen[card]}/${charmOf(card)}`)))));
}

// People at the table: who sits at each seat (the state's `people`: a name with its
// rating, an account's linked to its page at /@/NAME), and a seat's Resign and Abort,
// each asked again in a dialog (Escape or "Keep playing" closes it, nothing sent).

import { h } from "./dom.js";
import { personName, seatName, t } from "./i18n.js";
import { ratingBadge } from "./ratings.js";

/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").SeatPlayer} SeatPlayer */
/** @typedef {import("./table.js").TableController} TableController */

// One seat's player: the name (an account's a link to its page, opened beside the game)
// and its rating where it has one.
/**
 * @param {SeatPlayer} person
 * @param {number} seat
 */
export function personTag(person, seat) {
  const name = personName(person, seat);
  const shown = person.kind === "account" && person.name
    ? h("a", { href: `/@/${encodeURIComponent(person.name)}`, target: "_blank", rel: "noopener" }, name)
    : name;
  const rating = person.rating === null || person.rating === undefined ? null : { rating: person.rating, provisional: person.provisional };
  return h("span", { class: `seat-name ${person.kind}`, "data-seat": seat }, shown, rating ? " " : null, ratingBadge(rating));
}

// Both seats' players, Player 1's first: above the table.
/** @param {GameState} s */
export function seatNames(s) {
  if (!s.people) return null;
  return h("p", { class: "seat-names", "data-testid": "seat-names", "aria-label": t("seat_players") },
    personTag(s.people[0], 0), " · ", personTag(s.people[1], 1));
}

// Who has decided so far (an abort is open until each side has).
/** @param {GameState} s */
function bothDecided(s) {
  return new Set(s.log.map((line) => line.seat)).size === 2;
}

// Resign (any time in play) and Abort (before each side has decided), for a seat.
/** @param {TableController} table */
export function concedeButtons(table) {
  const s = table.current();
  if (table.watching() || s.outcome || table.lesson) return null;
  const opponent = seatName(s, table.opponent(), { you: false });
  return h("div", { class: "concede buttons" },
    bothDecided(s) ? null : h("button", {
      type: "button", id: "abort",
      onclick: () => confirmThen(t("abort_confirm"), t("abort_button"), () => table.socket.send({ type: "abort" })),
    }, t("abort_button")),
    h("button", {
      type: "button", id: "resign",
      onclick: () => confirmThen(t("resign_confirm", { opponent }), t("resign_button"), () => table.socket.send({ type: "resign" })),
    }, t("resign_button")));
}

// A modal dialog that asks once more; the safe answer has the focus.
/**
 * @param {string} question
 * @param {string} yes
 * @param {() => void} action
 */
function confirmThen(question, yes, action) {
  for (const old of document.querySelectorAll("dialog.concede-confirm")) old.remove();
  const close = () => { dialog.close(); dialog.remove(); };
  const cancel = h("button", { type: "button", class: "primary", onclick: close }, t("concede_cancel"));
  const confirm = h("button", { type: "button", class: "danger", "data-testid": "concede-yes", onclick: () => { close(); action(); } }, yes);
  const dialog = h("dialog", { class: "concede-confirm", "aria-labelledby": "concede-title" },
    h("p", { id: "concede-title" }, question),
    h("div", { class: "buttons" }, cancel, confirm));
  dialog.addEventListener("close", () => dialog.remove());  // Escape, too
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
}

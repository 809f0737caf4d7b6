// A side of the table: whose it is and their score, their action markers (the page's
// own are the buttons that choose an action), their last decisions in words, the hand
// (the page's own cards, or the opponent's backs) and the face-down Secret and Trade-off.

import { h } from "./dom.js";
import { actionFace, cardBack, itemCard } from "./cards.js";
import { CARDS_PER_ACTION, KINDS } from "./game_rules.js";
import { actionName, describeMove, seatName, t, tCount, term } from "./i18n.js";
import { scoreText } from "./summary.js";
import { tip } from "./tooltip.js";
import { cardTip, joinTips, lastClass, lastTip } from "./table_marks.js";

/** @typedef {import("./table.js").TableController} TableController */
/** @typedef {import("./messages").ActionKind} ActionKind */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {import("./lastmove.js").Mark} Mark */

// The key of each action: its number, the same in every language (1 Secret .. 4 Competition).
/** @param {ActionKind} kind */
function actionKey(kind) {
  return String(KINDS.indexOf(kind) + 1);
}

/**
 * @param {TableController} table
 * @param {Seat} seat
 */
export function renderLastDecision(table, seat) {
  const run = table.marks.runs[seat];
  if (!run.length) return null;
  const mine = seat === table.current().seat;
  return h("p", { class: `last-move last-${mine ? "mine" : "theirs"}`, "data-testid": mine ? "my-last" : "their-last" },
    t("last_decision", { moves: run.map(({ entry }) => describeMove(entry)).join(" · ") }));
}

/**
 * @param {TableController} table
 * @param {ActionKind} kind
 * @param {boolean} used
 * @param {Mark | undefined} mark
 * @param {Seat} seat
 */
export function markerTip(table, kind, used, mark, seat) {
  return joinTips(
    t(`tip_action_${kind.replace("-", "_")}`, { action: actionName(kind) }),
    used ? t("tip_action_used") : t("tip_action_free"),
    lastTip(table, mark, seat));
}

/**
 * @param {TableController} table
 * @param {Seat} seat
 */
export function renderMarkers(table, seat) {
  const s = table.current();
  const mine = seat === s.seat;
  return h("div", { class: "markers", role: mine ? "group" : null, "aria-label": t("actions_title") },
    KINDS.map((kind) => {
      const used = s.used[seat].includes(kind);
      const mark = table.marks.markers[seat][kind];
      const label = `${actionName(kind)} (${CARDS_PER_ACTION[kind]}) · ${used ? t("action_used") : t("action_free")}`;
      const choosable = mine && table.choosingAction() && !used;
      const content = [
        actionFace(kind),
        h("span", { class: "marker-name" }, actionName(kind)),
        h("span", { class: "marker-count", "aria-hidden": "true" }, "●".repeat(CARDS_PER_ACTION[kind])),
        choosable && !table.action ? h("kbd", { "aria-hidden": "true" }, actionKey(kind)) : null,
        used ? h("span", { class: "used-mark" }, t("action_used")) : null,
      ];
      // The action being chosen is the page's own: the other seat's marker of the same
      // kind is never marked with it.
      const selected = mine && table.action === kind;
      const classes = `action-marker${used ? " used" : ""}${selected ? " selected" : ""}${lastClass(mark)}`;
      const marker = choosable
        ? h("button", {
          type: "button",
          class: classes,
          dataset: { kind, fkey: `action-${kind}` },
          "aria-pressed": selected ? "true" : "false",
          "aria-keyshortcuts": actionKey(kind),
          "aria-label": label,
          onclick: () => table.chooseAction(kind),
        }, content)
        : h("span", { class: classes, role: "img", dataset: { kind, fkey: `marker-${seat}-${kind}` }, "aria-label": label }, content);
      return tip(marker, markerTip(table, kind, used, mark, seat));
    }));
}

/** @param {TableController} table */
export function renderHand(table) {
  const s = table.current();
  const drawnAt = s.drawn === null ? -1 : s.hand.lastIndexOf(s.drawn);
  const choosing = table.choosingAction();
  return h("div", { class: "hand", role: "group", "aria-label": t("your_hand") },
    s.hand.map((card, index) => tip(itemCard(card, {
      key: choosing && table.action && index < 9 ? String(index + 1) : null,
      selected: table.picked.includes(index),
      badge: index === drawnAt ? t("drawn_card") : null,
      fkey: `hand-${index}`,
      disabled: choosing && table.busy,
      onclick: choosing ? () => table.toggleCard(index) : undefined,
    }), cardTip(card, t("tip_in_hand")))));
}

/**
 * @param {TableController} table
 * @param {Seat} seat
 */
export function renderTheirHand(table, seat) {
  const s = table.current();
  const cards = tCount("n_cards_in_hand", s.hand_sizes[seat]);
  return tip(h("div", { class: "hand backs", role: "img", "aria-label": cards, dataset: { fkey: `hand-${seat}` } },
    Array.from({ length: s.hand_sizes[seat] }, () => h("span", { class: "mini-back", "aria-hidden": "true" })),
    h("span", { class: "count", "aria-hidden": "true" }, cards)),
  t("tip_their_hand", { player: seatName(s, seat), cards: tCount("n_cards", s.hand_sizes[seat]) }));
}

// The face-down cards of a side: the page's own shown to it, the opponent's as backs.
/**
 * @param {TableController} table
 * @param {Seat} seat
 */
export function renderFaceDown(table, seat) {
  const s = table.current();
  const mine = seat === s.seat;
  const marks = table.marks.facedown[seat];
  const player = seatName(s, seat);
  /**
   * @param {"secret" | "trade-off"} kind
   * @param {Card | null} card
   */
  const one = (kind, card) => {
    const mark = marks[kind];
    const action = actionName(kind);
    const about = t(`tip_${mine ? "my" : "their"}_${kind.replace("-", "_")}`, { action, player });
    // A card is shown on the page's own side only (the opponent's are backs).
    const shown = mine ? itemCard(Number(card), { small: true, badge: action }) : cardBack(action);
    if (mark) shown.className += lastClass(mark);
    return tip(shown, mine ? cardTip(Number(card), about, lastTip(table, mark, seat)) : joinTips(about, lastTip(table, mark, seat)));
  };
  const cards = [];
  if (mine) {
    if (s.secret !== null) cards.push(one("secret", s.secret));
    for (const card of s.tradeoff) cards.push(one("trade-off", card));
  } else if (!s.outcome) {
    if (s.used[seat].includes("secret")) cards.push(one("secret", null));
    if (s.used[seat].includes("trade-off")) cards.push(one("trade-off", null), one("trade-off", null));
  }
  if (!cards.length) return null;
  const title = mine ? t("your_hidden") : t("their_hidden");
  return h("div", { class: "facedown", "aria-label": title }, h("span", { class: "label" }, title), cards);
}

/**
 * @param {TableController} table
 * @param {Seat} seat
 */
export function renderScore(table, seat) {
  const s = table.current();
  const text = scoreText(s.charm[seat], s.geishas[seat]);
  return tip(h("span", { class: "score", dataset: { fkey: `score-${seat}` } }, text),
    joinTips(t("tip_score", { player: seatName(s, seat), score: text }), t("tip_goal", { charm_term: term("charm") }),
      t(`variant_${s.variant.replace("-", "_")}`)));
}

/**
 * @param {TableController} table
 * @param {Seat} seat
 */
export function renderSide(table, seat) {
  const s = table.current();
  const mine = seat === s.seat;
  const playing = !s.outcome;
  return h("div", { class: `side ${mine ? "me" : "them"}`, "data-testid": mine ? "my-side" : "their-side" },
    h("div", { class: "side-head" },
      h("h2", {}, seatName(s, seat, { you: false }), mine ? ` · ${t("you")}` : ""),
      renderScore(table, seat)),
    playing ? renderMarkers(table, seat) : null,
    playing ? renderLastDecision(table, seat) : null,
    mine && playing ? renderHand(table) : null,
    renderFaceDown(table, seat),
    !mine && playing ? renderTheirHand(table, seat) : null);
}

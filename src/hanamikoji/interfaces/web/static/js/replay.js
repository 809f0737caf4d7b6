// The replay of a finished game: every position of the record with every card shown,
// removed cards included. The server gives it only once the game is over.

import { h, messageOf, toast } from "./dom.js";
import { favorText, geishaCard, tile } from "./cards.js";
import { playersChat, replayChat } from "./chat.js";
import { actionName, cardLabel, cardsInWords, describeMove, seatName, t } from "./i18n.js";
import { ROW } from "./game_rules.js";
import { api } from "./net.js";
import { renderSummary } from "./summary.js";

/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").Replay} ReplayBody */
/** @typedef {import("./wire").ReplayFrame} ReplayFrame */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {import("./analysis.js").AnalysisView} AnalysisView */
/** @typedef {import("./analysis.js").AnalysisOptions} AnalysisOptions */

// Every position of a finished game, fetched once per game and page.
/** @type {Map<string, Promise<ReplayFrame[]>>} */
const framesOf = new Map();

/**
 * @param {string} gameId
 * @param {string} token
 * @returns {Promise<ReplayFrame[]>}
 */
export function replayFrames(gameId, token) {
  let frames = framesOf.get(gameId);
  if (!frames) {
    /** @type {Promise<ReplayBody>} */
    const body = api(`/api/games/${gameId}/replay`, { token });
    frames = body.then((answer) => answer.frames);
    frames.catch(() => framesOf.delete(gameId));
    framesOf.set(gameId, frames);
  }
  return frames;
}

/**
 * @param {string} gameId
 * @param {string} token
 * @param {GameState} state
 * @param {{ analysis?: (options: AnalysisOptions) => AnalysisView }} [options]
 */
export async function openReplay(gameId, token, state, { analysis } = {}) {
  /** @type {ReplayFrame[]} */
  let frames;
  // The players' chat, beside the positions (a game between people's seats only).
  const chatLines = state.players.every((kind) => kind === "human") ? playersChat(gameId, token) : Promise.resolve([]);
  try {
    frames = await replayFrames(gameId, token);
  } catch (error) {
    toast(messageOf(error));
    return;
  }
  const said = await chatLines;
  for (const old of document.querySelectorAll("dialog.replay")) old.remove();
  let index = 0;
  const body = h("div", { class: "replay-body" });
  const position = h("p", { class: "position", "aria-live": "polite", id: "replay-position" });
  /** @param {number} next */
  const go = (next) => {
    index = Math.max(0, Math.min(frames.length - 1, next));
    draw();
  };
  /**
   * @param {string} key
   * @param {string} label
   * @param {() => number} target
   * @param {string} id
   */
  const button = (key, label, target, id) => h("button", { type: "button", id, "aria-label": label, onclick: () => go(target()) }, key);
  const controls = h("div", { class: "replay-controls" },
    button("«", t("replay_first"), () => 0, "replay-first"),
    button("◀", t("replay_prev"), () => index - 1, "replay-prev"),
    position,
    button("▶", t("replay_next"), () => index + 1, "replay-next"),
    button("»", t("replay_last"), () => frames.length - 1, "replay-last"));
  const close = h("button", { type: "button", class: "primary", onclick: () => { dialog.close(); dialog.remove(); } }, t("replay_close"));
  // The analysis of the game, its decisions opening their position in the replay.
  const analysed = analysis ? analysis({ onDecision: (decision) => go(decision.ply - 1) }) : null;
  /** @type {HTMLDialogElement} */
  const dialog = h("dialog", { class: "replay", "aria-labelledby": "replay-title", onkeydown: (event) => {
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: frames.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  } },
    h("h2", { id: "replay-title" }, t("replay_title")), controls, body,
    analysed ? analysed.element : null,
    h("div", { class: "buttons" }, close));

  function draw() {
    const frame = frames[index];
    position.textContent = index === 0 ? t("replay_deal", { round: 1 }) : t("replay_position", { ply: index, total: frames.length - 1 });
    const parts = [
      frame.move ? h("p", { class: "replay-move", "data-testid": "replay-move" }, `${seatName(state, frame.seat)}: ${describeMove(frame.move)}`) : null,
      frame.scored ? h("div", { class: "replay-scored" }, renderSummary(state, frame.scored, scoredBefore(frames, index))) : null,
      frame.outcome ? null : renderFullTable(state, frame),
      replayChat(said, index),
    ];
    body.replaceChildren(...parts.filter((part) => part !== null));
  }

  document.body.append(dialog);
  dialog.showModal();
  draw();
  /** @type {HTMLElement} */ (dialog.querySelector("#replay-next")).focus();
}

// The favor markers before the scoring shown in frame `index`.
/**
 * @param {ReplayFrame[]} frames
 * @param {number} index
 * @returns {(Seat | null)[]}
 */
function scoredBefore(frames, index) {
  for (let i = index - 1; i >= 0; i -= 1) {
    const scored = frames[i].scored;
    if (scored) return scored.favor;
  }
  return ROW.map(() => null);
}

// Tiles of `list` and their names, those of `marked` (a multiset of cards) starred: the
// best decision's.
/**
 * @param {Card[]} list
 * @param {Card[]} [marked]
 */
function cards(list, marked = []) {
  const left = [...marked];
  const drawn = list.map((card) => {
    const one = tile(card);
    const at = left.indexOf(card);
    if (at >= 0) {
      left.splice(at, 1);
      one.classList.add("best");
      one.dataset.best = "yes";
    }
    return one;
  });
  return list.length ? h("span", { class: "tiles" }, drawn, h("span", { class: "words" }, ` ${cardsInWords(list)}`)) : "—";
}

// A position with every card shown, `bottom`'s side below (the page's seat unless said),
// the cards of `best` starred in that seat's hand, or the answer `bestOption` (its text)
// starred among those of the offer.
/**
 * @param {GameState} state
 * @param {ReplayFrame} frame
 * @param {{ bottom?: Seat, best?: Card[], bestOption?: string | null }} [options]
 */
export function renderFullTable(state, frame, { bottom = state.seat ?? 0, best = [], bestOption = null } = {}) {
  const me = state.seat ?? 0;
  const seats = [1 - bottom, bottom];
  /** @param {Seat} seat */
  const sideOf = (seat) => h("div", { class: "replay-side", dataset: { seat } },
    h("h3", {}, seatName(state, seat)),
    h("dl", {},
      h("dt", {}, seat === me ? t("your_hand") : t("replay_hand", { player: seatName(state, seat) })), h("dd", {}, cards(frame.hands[seat], seat === bottom ? best : [])),
      h("dt", {}, actionName("secret")), h("dd", {}, cards(frame.secrets[seat] === null ? [] : [frame.secrets[seat]])),
      h("dt", {}, actionName("trade-off")), h("dd", {}, cards(frame.tradeoffs[seat]))));
  return h("div", { class: "replay-table" },
    sideOf(seats[0]),
    h("div", { class: "row small", role: "list" }, ROW.map((card) => h("div", { class: "column", role: "listitem", "aria-label": `${cardLabel(card)}: ${favorText(frame.favor[card], me)}` },
      h("div", { class: "placed them" }, Array.from({ length: frame.placed[seats[0]][card] }, () => tile(card))),
      h("div", { class: "slot them" }, frame.favor[card] === seats[0] ? h("span", { class: "marker" }, "◆") : null),
      geishaCard(card, frame.favor[card], bottom),
      h("div", { class: "slot me" }, frame.favor[card] === bottom ? h("span", { class: "marker" }, "◆") : null),
      h("div", { class: "placed me" }, Array.from({ length: frame.placed[bottom][card] }, () => tile(card)))))),
    sideOf(seats[1]),
    h("dl", { class: "replay-hidden" },
      frame.pending ? [h("dt", {}, t("offer_title")), h("dd", { "data-testid": "replay-offer" }, describeMove(frame.pending),
        bestOption ? h("span", { class: "offer-options" }, frame.pending.options.map((option) => cards(option.cards, option.text === bestOption ? option.cards : []))) : null)] : null,
      h("dt", {}, t("replay_removed")), h("dd", { "data-testid": "replay-removed" }, frame.removed === null ? "—" : cards([frame.removed])),
      h("dt", {}, t("replay_deck")), h("dd", {}, cards(frame.deck))));
}

// The last decisions on the board: what each player's latest decisions of this round moved,
// worked out from the seat's own log (nothing the seat may not know: the opponent's Secret
// and Trade-off are only "face down" there).
//
// A player's latest decisions are the run of log entries at the end of the round's log made
// by one seat (an offer's answer counts for the player who answered), and the run of the
// other seat just before it. Each run's marks stay until that player decides again.

import { ROW } from "./game_rules.js";

/** @typedef {import("./messages").ActionKind} ActionKind */
/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").LogLine} LogEntry */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {"mine" | "theirs"} By */
/** @typedef {{ by: By, fresh: boolean }} Mark */
/** @typedef {{ count: number, fresh: boolean }} Moved */
/** @typedef {{ mine?: Moved, theirs?: Moved }} Pile */
/** @typedef {{ entry: LogEntry, index: number }} Run */
/**
 * @typedef {object} Marks
 * @property {Partial<Record<ActionKind, Mark>>[]} markers
 * @property {Partial<Record<ActionKind, Mark>>[]} facedown
 * @property {(Pile | null)[][]} placed
 * @property {Mark | null} offer
 * @property {Run[][]} runs
 */


// Which entries of the current round each seat decided last: [seat 0's, seat 1's], each a
// list of { entry, index } (index: the entry's place in the whole log).
/**
 * @param {GameState} state
 * @returns {Run[][]}
 */
export function latestRuns(state) {
  const entries = state.log.map((entry, index) => ({ entry, index })).filter(({ entry }) => entry.round === state.round);
  /** @type {Run[][]} */
  const runs = [[], []];
  let at = entries.length - 1;
  for (let found = 0; found < 2 && at >= 0; found += 1) {
    const seat = entries[at].entry.seat;
    while (at >= 0 && entries[at].entry.seat === seat) {
      runs[seat].unshift(entries[at]);
      at -= 1;
    }
  }
  return runs;
}

// "theirs" (the opponent's decision) outranks "mine" (the page's own, drawn lighter).
/**
 * @param {By | undefined} a
 * @param {By | undefined} b
 * @returns {By | null}
 */
function stronger(a, b) {
  return a === "theirs" || b === "theirs" ? "theirs" : a || b || null;
}

/**
 * @param {Card[]} cards
 * @param {Card[]} taken
 */
function without(cards, taken) {
  const rest = [...cards];
  for (const card of taken) {
    const at = rest.indexOf(card);
    if (at >= 0) rest.splice(at, 1);
  }
  return rest;
}

/** @returns {(Pile | null)[][]} */
function emptyPiles() {
  return [0, 1].map(() => ROW.map(() => null));
}

// Nothing marked (before a state arrives).
/** @returns {Marks} */
export function noMarks() {
  return { markers: [{}, {}], facedown: [{}, {}], placed: emptyPiles(), offer: null, runs: [[], []] };
}

// Everything the latest decisions marked, for the page of `state.seat`:
//  - markers[seat][kind]: who decided it ("theirs" or "mine"), with `fresh`;
//  - facedown[seat][kind]: the same for the face-down cards of a Secret or Trade-off;
//  - placed[seat][card]: { theirs, mine }, each { count, fresh } or absent: how many cards
//    of that pile each player's latest decisions put there;
//  - offer: { by, fresh } while an offer of the latest decisions waits for its answer;
//  - runs: the entries themselves, for the words.
// `freshFrom`: log entries from this index on arrived with the latest state (they animate).
/**
 * @param {GameState} state
 * @param {number} [freshFrom]
 * @returns {Marks}
 */
export function lastMoveMarks(state, freshFrom = Infinity) {
  const marks = noMarks();
  const runs = latestRuns(state);
  marks.runs = runs;
  if (state.outcome) return marks;
  /** @type {Map<number, By>} */
  const byIndex = new Map();
  for (const run of runs) {
    for (const { entry, index } of run) byIndex.set(index, entry.seat === state.seat ? "mine" : "theirs");
  }
  for (const run of runs) {
    for (const { entry, index } of run) {
      const by = /** @type {By} */ (byIndex.get(index));
      const fresh = index >= freshFrom;
      if (entry.kind === "secret" || entry.kind === "trade-off") {
        marks.markers[entry.seat][entry.kind] = { by, fresh };
        marks.facedown[entry.seat][entry.kind] = { by, fresh };
      } else if (entry.kind === "gift" || entry.kind === "competition") {
        marks.markers[entry.seat][entry.kind] = { by, fresh };
        if (index === state.log.length - 1 && state.pending) marks.offer = { by, fresh };
      }
    }
  }
  markPlacements(state, byIndex, freshFrom, marks.placed);
  return marks;
}

// The cards an answered offer put on both sides, marked if the offer or its answer is
// among the latest decisions (the answer's player took `cards`, the offerer kept the rest).
/**
 * @param {GameState} state
 * @param {Map<number, By>} byIndex
 * @param {number} freshFrom
 * @param {(Pile | null)[][]} placed
 */
function markPlacements(state, byIndex, freshFrom, placed) {
  state.log.forEach((answer, index) => {
    if (answer.kind !== "gift-response" && answer.kind !== "competition-response") return;
    const by = stronger(byIndex.get(index), byIndex.get(index - 1));
    if (!by || answer.round !== state.round) return;
    const offer = state.log[index - 1];
    const fresh = index >= freshFrom;
    /**
     * @param {Seat} seat
     * @param {Card[]} cards
     */
    const add = (seat, cards) => {
      for (const card of cards) {
        const pile = placed[seat][card] || {};
        const moved = pile[by] || { count: 0, fresh: false };
        pile[by] = { count: moved.count + 1, fresh: moved.fresh || fresh };
        placed[seat][card] = pile;
      }
    };
    add(answer.seat, answer.cards);
    add(offer.seat, without(offer.cards, answer.cards));
  });
}

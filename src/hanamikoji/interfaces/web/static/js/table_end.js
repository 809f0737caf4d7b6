// The end of a game: who won and why, the totals, Rematch, Replay and the records, the
// ratings' changes and the analysis, every hidden card revealed; and the dialog of each
// round's scoring as it happens.

import { h, messageOf, store, toast } from "./dom.js";
import { tile } from "./cards.js";
import { actionName, cardLabel, cardsInWords, outcomeSentence, seatName, t } from "./i18n.js";
import { withSeatLabels } from "./people.js";
import { ROW } from "./game_rules.js";
import { api } from "./net.js";
import { AnalysisView } from "./analysis.js";
import { openReplay } from "./replay.js";
import { EndRatings } from "./ratings.js";
import { renderSummary, scoreText, showDialog } from "./summary.js";

/** @typedef {import("./table.js").TableController} TableController */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").GameState} GameState */

/** @param {TableController} table */
export function showNewScoring(table) {
  const s = table.current();
  if (table.watching()) return;
  const key = `hanamikoji.scored.${table.gameId}`;
  const seen = store(sessionStorage, key);
  store(sessionStorage, key, String(s.rounds.length));
  if (seen === null || Number(seen) >= s.rounds.length) return;
  const summary = s.rounds[s.rounds.length - 1];
  const previous = s.rounds.length > 1 ? s.rounds[s.rounds.length - 2].favor : ROW.map(() => null);
  showDialog(renderSummary(s, summary, previous), "summary");
}

/** @param {TableController} table */
export function renderEnd(table) {
  const s = table.current();
  const outcome = /** @type {import("./wire").GameOutcome} */ (s.outcome);
  const headline = outcome.winner === null
    ? (outcome.termination === "shared-win" ? t("shared_win") : t("nobody_wins"))
    : (table.watching() ? outcomeLine(s) : (outcome.winner === s.seat ? t("you_win") : t("you_lose")));
  const me = table.viewer();
  const totals = table.watching()
    ? withSeatLabels(s, (player1, player2) => t("watch_totals", {
      player1, score1: scoreText(outcome.charm[0], outcome.geishas[0]),
      player2, score2: scoreText(outcome.charm[1], outcome.geishas[1]),
    }))
    : t("summary_totals", {
      mine: scoreText(outcome.charm[me], outcome.geishas[me]),
      theirs: scoreText(outcome.charm[1 - me], outcome.geishas[1 - me]),
    });
  /** @param {"text" | "json"} format */
  const download = (format) => async () => {
    try {
      /** @type {string} */
      const body = await api(`/api/games/${table.gameId}/record?format=${format}`, { token: table.token });
      const blob = new Blob([body], { type: format === "json" ? "application/json" : "text/plain" });
      const link = h("a", { href: URL.createObjectURL(blob), download: `hanamikoji-${table.gameId}.${format === "json" ? "json" : "hkr"}` });
      document.body.append(link);
      link.click();
      link.remove();
    } catch (error) {
      toast(messageOf(error));
    }
  };
  return h("section", { class: "end", "aria-labelledby": "end-title", "data-testid": "end" },
    h("h2", { id: "end-title" }, headline),
    // Who won and how, in words (the record's "1-0" is for programs).
    h("p", { class: "why" }, outcomeSentence(s)),
    h("p", {}, totals, " · ", t("rounds_played", { rounds: outcome.rounds })),
    s.rematch && s.players[table.opponent()] === "human" ? h("p", { class: "rematch-ready", role: "status" }, t("rematch_ready")) : null,
    table.watching() ? h("div", { class: "buttons" }, h("a", { href: "/", class: "button" }, t("new_game"))) : h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", id: "rematch", onclick: () => rematch(table) }, t("rematch")),
      h("button", { type: "button", id: "replay", onclick: () => replay(table) }, t("replay")),
      h("button", { type: "button", id: "download-text", onclick: download("text") }, t("download_text")),
      h("button", { type: "button", id: "download-json", onclick: download("json") }, t("download_json")),
      h("a", { href: "/", class: "button" }, t("new_game"))),
    endRatings(table).element,
    table.watching() ? null : endAnalysis(table).element,
    renderReveal(s));
}

// A rated game's rating changes (ratings.js): fetched once, kept across redrawings.
/** @param {TableController} table */
export function endRatings(table) {
  if (!table.ratings) table.ratings = new EndRatings(table.gameId, table.current(), (seat) => seatName(table.current(), seat));
  return table.ratings;
}

// The analysis on the end screen: one for the page, kept across redrawings.
/** @param {TableController} table */
export function endAnalysis(table) {
  if (!table.analysis) table.analysis = new AnalysisView(table.gameId, table.token, table.current());
  table.analysis.refresh();
  return table.analysis;
}

/** @param {TableController} table */
export function replay(table) {
  /** @param {import("./analysis.js").AnalysisOptions} options */
  const analysis = (options) => new AnalysisView(table.gameId, table.token, table.current(), options);
  openReplay(table.gameId, table.token, table.current(), { analysis });
}

/** @param {TableController} table */
export async function rematch(table) {
  try {
    /** @type {import("./wire").Rematch} */
    const { id } = await api(`/api/games/${table.gameId}/rematch`, { method: "POST", token: table.token });
    table.navigate(`/g/${id}#t=${table.token}`);
  } catch (error) {
    toast(messageOf(error));
  }
}

/** @param {Card[]} cards */
function cardsLine(cards) {
  return cards.length ? h("span", { class: "tiles" }, cards.map((card) => tile(card)), h("span", { class: "words" }, ` ${cardsInWords(cards)}`)) : "—";
}

/** @param {GameState} s */
function renderReveal(s) {
  if (!s.reveal) return null;
  return h("section", { class: "reveal", "aria-labelledby": "reveal-title" },
    h("h3", { id: "reveal-title" }, t("reveal_title")),
    s.reveal.rounds.map((rnd) => h("div", { class: "reveal-round" },
      h("h4", {}, t("reveal_round", { round: rnd.round, removed: cardLabel(rnd.removed) })),
      h("dl", {},
        [0, 1].map((seat) => [
          h("dt", {}, `${seatName(s, seat)} · ${t("reveal_dealt")}`), h("dd", {}, cardsLine(rnd.hands[seat])),
          h("dt", {}, `${seatName(s, seat)} · ${actionName("secret")} / ${actionName("trade-off")}`),
          h("dd", {}, cardsLine(rnd.secrets[seat] === null ? [] : [rnd.secrets[seat]]), " / ", cardsLine(rnd.tradeoffs[seat])),
        ]),
        h("dt", {}, t("replay_deck")), h("dd", {}, cardsLine(rnd.deck))))));
}

// The outcome sentence a spectator reads, each seat's name with its BOT badge.
/**
 * @param {GameState} s
 * @returns {(string | HTMLElement)[]}
 */
function outcomeLine(s) {
  const outcome = /** @type {import("./wire").GameOutcome} */ (s.outcome);
  const winner = Number(outcome.winner);
  return withSeatLabels(s, (first, second) => {
    const names = [first, second];
    return outcomeSentence(s, { winner: names[winner], loser: names[1 - winner] });
  });
}

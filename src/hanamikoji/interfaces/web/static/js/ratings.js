// Ratings (ratings.py): a rating beside a name ("1623", or "1500?" while provisional),
// the Rated choice on the start page, each side's change on a rated game's end screen,
// the leaderboard at /leaderboard, and a player's rating history (an SVG chart drawn
// here, with a table for screen readers).

import { h, messageOf, toast } from "./dom.js";
import { currentLang, t, tCount, variantName } from "./i18n.js";
import { api } from "./net.js";
import { currentPlayer } from "./account.js";

/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").GameRatings} GameRatings */
/** @typedef {import("./wire").Leaderboard} Leaderboard */
/** @typedef {import("./wire").LeaderboardRow} LeaderRow */
/** @typedef {import("./messages").PlayerPage} PlayerPage */
/** @typedef {import("./wire").ShownRating} RatingJson */
/** @typedef {import("./wire").RatingPoint} RatingPoint */
/** @typedef {import("./messages").Seat} Seat */

const SVG = "http://www.w3.org/2000/svg";
export const VARIANTS = ["classic", "three-rounds", "french"];

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attributes]
 * @param {...Node} children
 * @returns {SVGElement}
 */
function svg(tag, attributes = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  for (const child of children) el.append(child);
  return el;
}

// "1623" or "1500?": a provisional rating carries a question mark, explained on hover
// and to screen readers.
/** @param {RatingJson} rating */
export function ratingText(rating) {
  return `${rating.rating}${rating.provisional ? "?" : ""}`;
}

/** @param {RatingJson | null | undefined} rating */
export function ratingBadge(rating) {
  if (!rating) return null;
  return h("span", {
    class: rating.provisional ? "rating provisional" : "rating",
    title: rating.provisional ? t("rating_provisional_hint") : null,
    "data-testid": "rating",
  }, ratingText(rating));
}

/** @param {number} delta */
function signed(delta) {
  return delta > 0 ? `+${delta}` : delta < 0 ? `\u2212${-delta}` : "\u00b10";
}

// The start page's Rated box: only an account may play rated.
/** @param {{ rated: boolean }} choice */
export function ratedChoice(choice) {
  const player = currentPlayer();
  if (!player || player.kind !== "account") {
    choice.rated = false;
    return null;
  }
  return h("label", { class: "choice" },
    h("input", { type: "checkbox", id: "rated", checked: choice.rated, onchange: (e) => { choice.rated = e.currentTarget.checked; } }),
    h("span", {}, t("rated_label"), " ", h("span", { class: "muted" }, t("rated_hint"))));
}

// A rated game's end screen: each side's new rating and its change, fetched once the
// game is over (the server rates it before it announces the end).
export class EndRatings {
  /**
   * @param {string} gameId
   * @param {GameState} state
   * @param {(seat: Seat) => string} names
   */
  constructor(gameId, state, names) {
    this.element = h("div", { class: "end-ratings", "data-testid": "end-ratings", hidden: true });
    this.names = names;
    this.tries = 0;
    this.load(gameId, state);
  }

  /**
   * @param {string} gameId
   * @param {GameState} state
   */
  async load(gameId, state) {
    /** @type {GameRatings} */
    let body;
    try {
      body = await api(`/api/games/${encodeURIComponent(gameId)}/ratings`);
    } catch {
      return;
    }
    if (!body.rated) return;
    if (!body.changes) {
      // Not rated (yet): an aborted game never is; otherwise look once more.
      if (state.outcome && state.outcome.winner === null && state.outcome.termination === "unstarted") return;
      if (this.tries++ < 3) setTimeout(() => this.load(gameId, state), 1000);
      return;
    }
    this.element.replaceChildren(
      h("h3", {}, t("rated_change_title")),
      h("ul", {}, body.changes.map((change) => h("li", { "data-seat": change.seat },
        this.names(change.seat), ": ",
        h("b", {}, ratingText({ rating: change.after, provisional: change.provisional })),
        change.bot ? ` (${t("rated_bot_fixed")})` : h("span", { class: change.delta >= 0 ? "delta up" : "delta down", "data-testid": "rating-delta" }, ` ${signed(change.delta)}`)))));
    this.element.hidden = false;
  }
}

// -- the leaderboard -------------------------------------------------------------------

/** @param {HTMLElement} root */
export async function renderLeaderboard(root) {
  const params = new URLSearchParams(location.search);
  const asked = params.get("variant");
  const variant = asked !== null && VARIANTS.includes(asked) ? asked : "classic";
  /** @type {Leaderboard} */
  let body;
  try {
    body = await api(`/api/leaderboard?variant=${encodeURIComponent(variant)}`);
  } catch (error) {
    toast(messageOf(error));
    return;
  }
  const select = h("select", { id: "leaderboard-variant", onchange: (event) => {
    history.replaceState(null, "", `/leaderboard?variant=${encodeURIComponent(event.currentTarget.value)}`);
    renderLeaderboard(root);
  } }, VARIANTS.map((name) => h("option", { value: name, selected: name === variant }, variantName(name))));
  root.replaceChildren(h("section", { class: "leaderboard", "data-testid": "leaderboard" },
    h("h1", {}, t("leaderboard_title")),
    h("div", { class: "field" }, h("label", { for: "leaderboard-variant" }, t("variant_label")), select),
    h("p", { class: "muted" }, t("leaderboard_about", { bound: Math.round(body.bound) })),
    h("p", {}, h("a", { href: "/ladder", id: "ladder-link" }, t("ladder_title"))),
    leaderTable(body.players, "leaderboard-established"),
    h("h2", {}, t("leaderboard_provisional")),
    h("p", { class: "muted" }, t("rating_provisional_hint")),
    leaderTable(body.provisional, "leaderboard-provisional")));
}

/**
 * @param {LeaderRow[]} rows
 * @param {string} testid
 */
function leaderTable(rows, testid) {
  if (!rows.length) return h("p", { class: "muted", "data-testid": testid }, t("leaderboard_none"));
  return h("table", { class: "leader-table", "data-testid": testid },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "#"),
      h("th", { scope: "col" }, t("leaderboard_player")),
      h("th", { scope: "col" }, t("leaderboard_rating")),
      h("th", { scope: "col" }, t("leaderboard_games")))),
    h("tbody", {}, rows.map((row, index) => h("tr", {},
      h("td", {}, index + 1),
      h("td", {}, h("a", { href: `/@/${encodeURIComponent(row.name)}` }, row.name)),
      h("td", {}, ratingBadge(row)),
      h("td", {}, row.games)))));
}

// -- a player's ratings and history -----------------------------------------------------

/** @param {PlayerPage} body */
export function ratingSection(body) {
  if (!body.ratings || !body.ratings.length) return h("p", { class: "muted" }, t("rating_none"));
  return h("div", { class: "player-ratings", "data-testid": "player-ratings" },
    body.ratings.map((rating) => {
      const points = body.history.filter((point) => point.variant === rating.variant);
      return h("section", { class: "rating-variant" },
        h("h3", {}, variantName(rating.variant), " · ", ratingBadge(rating), " · ", tCount("rating_games", rating.games)),
        historyChart(points, rating.variant),
        historyTable(points, rating.variant));
    }));
}

const WIDTH = 480;
const HEIGHT = 160;
const PAD = { left: 44, right: 10, top: 10, bottom: 20 };

/**
 * @param {RatingPoint[]} points
 * @param {string} variant
 */
function historyChart(points, variant) {
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "rating-chart", "aria-hidden": "true", "data-testid": "rating-chart" });
  if (!points.length) return chart;
  // The line starts from the rating before the first rated game (the first point's
  // rating less its change), which has no dot of its own.
  const start = points[0].rating - points[0].delta;
  const values = [start, ...points.map((point) => point.rating)];
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 50) {
    low -= 25;
    high += 25;
  }
  /** @param {number} index */
  const x = (index) => PAD.left + index * (WIDTH - PAD.left - PAD.right) / points.length;
  /** @param {number} value */
  const y = (value) => PAD.top + (high - value) * (HEIGHT - PAD.top - PAD.bottom) / (high - low);
  for (const level of [low, (low + high) / 2, high]) {
    chart.append(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(level), y2: y(level), class: "grid" }));
    const tick = svg("text", { x: PAD.left - 6, y: y(level) + 4, "text-anchor": "end", class: "tick" });
    tick.textContent = String(Math.round(level));
    chart.append(tick);
  }
  chart.append(svg("polyline", { points: values.map((value, index) => `${x(index)},${y(value)}`).join(" "), class: "line" }));
  points.forEach((point, index) => chart.append(svg("circle", { cx: x(index + 1), cy: y(point.rating), r: 3, class: point.provisional ? "point provisional" : "point" })));
  chart.dataset.variant = variant;
  return chart;
}

/**
 * @param {RatingPoint[]} points
 * @param {string} variant
 */
function historyTable(points, variant) {
  const locale = currentLang() === "en-2018" ? "en" : currentLang();
  return h("table", { class: "visually-hidden rating-history", "data-testid": "rating-history", "data-variant": variant },
    h("caption", {}, t("rating_history_caption", { variant: variantName(variant) })),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("rating_history_date")),
      h("th", { scope: "col" }, t("leaderboard_rating")),
      h("th", { scope: "col" }, t("rating_history_change")))),
    h("tbody", {}, points.map((point) => h("tr", {},
      h("td", {}, new Date(point.at).toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" })),
      h("td", {}, ratingText(point)),
      h("td", {}, signed(point.delta))))));
}

/** @param {number | null | undefined} delta */
export function ratingDelta(delta) {
  if (delta === undefined || delta === null) return null;
  return h("span", { class: delta >= 0 ? "delta up" : "delta down", "data-testid": "game-rating-delta" }, signed(delta));
}

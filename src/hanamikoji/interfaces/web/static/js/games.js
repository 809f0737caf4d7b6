// The game browser (/games): finished public games searched by player, variant, result,
// rated and date, newest first, a page at a time ("More games" follows the server's
// cursor); each game opens on its spectator's page (/w/ID), which shows the whole deal once
// the game is over. And a player's statistics on their page (/@/NAME), with the links to
// their games and their export.

import { h, messageOf, toast } from "./dom.js";
import { currentLang, t, variantName } from "./i18n.js";
import { api } from "./net.js";
import { VARIANTS } from "./ratings.js";
import { botBadge } from "./people.js";

/** @typedef {import("./wire").BrowsedGame} BrowsedGame */
/** @typedef {import("./wire").GameSearch} GameSearch */
/** @typedef {import("./wire").Opponent} Seat */
/** @typedef {import("./wire").PlayerStatistics} PlayerStatistics */
/** @typedef {import("./wire").Tally} Tally */

const FILTERS = ["player", "variant", "result", "rated", "since", "until"];
const RESULTS = [["1-0", "browser_result_first"], ["0-1", "browser_result_second"], ["draw", "browser_result_draw"], ["aborted", "browser_result_aborted"], ["won", "browser_result_won"], ["lost", "browser_result_lost"]];
const SHOWN_RESULT = { "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "\u00bd-\u00bd", "*": "*" };

/**
 * @param {HTMLElement} root
 * @param {{ navigate: (url: string) => void }} options
 */
export function renderGames(root, { navigate }) {
  const asked = new URLSearchParams(location.search);
  const list = h("ul", { class: "game-list browser-list", "data-testid": "browser-list" });
  const status = h("p", { class: "muted", "data-testid": "browser-status" });
  const more = h("button", { type: "button", class: "browser-more", "data-testid": "browser-more", hidden: true }, t("browser_more"));
  /** @type {string | null} */
  let next = null;

  /** @param {string} name @param {HTMLInputElement | HTMLSelectElement} control */
  const field = (name, control) => h("div", { class: "field" }, h("label", { for: `browser-${name}` }, t(`browser_${name}`)), control);
  /** @param {string} name @param {[string, string][]} choices */
  const select = (name, choices) => h("select", { id: `browser-${name}`, name },
    h("option", { value: "" }, t("browser_any")),
    choices.map(([value, label]) => h("option", { value, selected: asked.get(name) === value }, label)));
  const form = h("form", { class: "browser-filters", "data-testid": "browser-filters", onsubmit: (/** @type {Event} */ event) => {
    event.preventDefault();
    search(false);
  } },
    field("player", h("input", { id: "browser-player", name: "player", type: "text", maxlength: 40, pattern: "[A-Za-z0-9_\\-]+", value: asked.get("player") || "", autocomplete: "off" })),
    h("div", { class: "field" }, h("label", { for: "browser-variant" }, t("variant_label")),
      select("variant", VARIANTS.map((name) => [name, variantName(name)]))),
    field("result", select("result", RESULTS.map(([value, key]) => [value, t(key)]))),
    h("div", { class: "field" }, h("label", { for: "browser-rated" }, t("rated_label")),
      select("rated", [["true", t("browser_rated_yes")], ["false", t("browser_rated_no")]])),
    field("since", h("input", { id: "browser-since", name: "since", type: "date", value: asked.get("since") || "" })),
    field("until", h("input", { id: "browser-until", name: "until", type: "date", value: asked.get("until") || "" })),
    h("button", { type: "submit", class: "primary", "data-testid": "browser-search" }, t("browser_search")));

  /** The filters the form holds, as the search's query. */
  const query = () => {
    const params = new URLSearchParams();
    const data = new FormData(form);
    for (const name of FILTERS) {
      const value = String(data.get(name) || "").trim();
      if (value) params.set(name, value);
    }
    return params;
  };

  /** @param {boolean} following the next page, or a new search */
  async function search(following) {
    const params = query();
    if (!following) history.replaceState(null, "", params.toString() ? `/games?${params}` : "/games");
    if (following && next) params.set("cursor", next);
    /** @type {GameSearch} */
    let page;
    try {
      page = await api(`/api/games/search?${params}`);
    } catch (error) {
      toast(messageOf(error));
      return;
    }
    if (!following) list.replaceChildren();
    list.append(...page.games.map((game) => gameEntry(game, navigate)));
    next = page.next;
    more.hidden = next === null;
    status.textContent = list.childElementCount ? "" : t("browser_none");
  }

  more.addEventListener("click", () => search(true));
  root.replaceChildren(h("section", { class: "browser", "data-testid": "browser" },
    h("h1", {}, t("browser_title")),
    h("p", { class: "muted" }, t("browser_about")),
    form, status, list, more));
  search(false);
}

/**
 * @param {BrowsedGame} game
 * @param {(url: string) => void} navigate
 */
function gameEntry(game, navigate) {
  const locale = currentLang() === "en-2018" ? "en" : currentLang();
  const date = new Date(game.created).toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
  return h("li", { class: "game-entry", dataset: { game: game.id } },
    h("span", { class: "entry-title" }, withNames(game.players), " · ", variantName(game.variant)),
    h("span", { class: "muted" }, date),
    h("span", { class: "game-result", "data-testid": "game-result" }, SHOWN_RESULT[game.result]),
    game.outcome ? h("span", { class: `game-badge ${game.outcome}` }, t(`result_${game.outcome}`)) : null,
    game.rated ? h("span", { class: "game-badge rated" }, t("rated_label")) : null,
    h("a", { href: `/w/${game.id}`, class: "button", onclick: (/** @type {Event} */ event) => {
      event.preventDefault();
      navigate(`/w/${game.id}`);
    } }, t("browser_view")));
}

// "{first} against {second}", each account's name a link to its page: the sentence is
// translated with markers where the names go, then split at them.
/** @param {Seat[]} players */
function withNames(players) {
  const text = t("browser_entry", { first: "\u0001", second: "\u0002" });
  /** @type {(string | Node)[]} */
  const parts = [];
  for (const piece of text.split(/([\u0001\u0002])/)) {
    if (piece === "\u0001") parts.push(seatName(players[0]));
    else if (piece === "\u0002") parts.push(seatName(players[1]));
    else if (piece) parts.push(piece);
  }
  return parts;
}

/**
 * @param {Seat} seat
 * @returns {string | Node}
 */
function seatName(seat) {
  if (seat.kind === "bot") return t("bot_name", { level: seat.level });
  if (seat.kind === "guest") return t("account_guest_name", { name: seat.name });
  if (seat.kind === "account") return h("span", {}, h("a", { href: `/@/${encodeURIComponent(String(seat.name))}`, class: "player-link" }, String(seat.name)), botBadge(seat));
  return t("anonymous_player");
}

// -- a player's statistics, on their page -------------------------------------------------

/** @param {string} name the account's name */
export function playerStatistics(name) {
  const section = h("section", { class: "player-statistics", "data-testid": "player-statistics" },
    h("h2", {}, t("stats_title")));
  const encoded = encodeURIComponent(name);
  const links = h("p", { class: "player-games-links" },
    h("a", { href: `/games?player=${encoded}`, "data-testid": "player-all-games" }, t("browser_all_games", { name })),
    " · ", t("browser_export"), " ",
    h("a", { href: `/api/games/export/${encoded}?format=text`, download: "" }, t("browser_export_text")), ", ",
    h("a", { href: `/api/games/export/${encoded}?format=json`, download: "" }, t("browser_export_json")));
  fillStatistics(section, name, links);
  return section;
}

/**
 * @param {HTMLElement} section
 * @param {string} name
 * @param {HTMLElement} links
 */
async function fillStatistics(section, name, links) {
  /** @type {PlayerStatistics} */
  let stats;
  try {
    stats = await api(`/api/players/${encodeURIComponent(name)}/statistics`);
  } catch (error) {
    section.append(h("p", {}, messageOf(error)));
    return;
  }
  const played = (/** @type {Tally} */ tally) => tally.won + tally.lost + tally.drawn + tally.aborted;
  if (!played(stats.total)) {
    section.append(h("p", { class: "muted" }, t("stats_none")), links);
    return;
  }
  /** @type {[string, Tally][]} */
  const rows = [
    [t("stats_total"), stats.total],
    ...stats.variants.map((tally) => /** @type {[string, Tally]} */ ([variantName(tally.variant), tally])),
    [t("stats_first"), stats.first],
    [t("stats_second"), stats.second],
    ...stats.bots.map((tally) => /** @type {[string, Tally]} */ ([t("stats_bot", { level: tally.level }), tally])),
  ];
  section.append(h("table", { class: "stats-table", "data-testid": "stats-table" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, ""),
      h("th", { scope: "col" }, t("stats_games")),
      ["won", "lost", "drawn", "aborted"].map((outcome) => h("th", { scope: "col" }, t(`result_${outcome}`))))),
    h("tbody", {}, rows.filter(([, tally]) => played(tally)).map(([label, tally]) => h("tr", {},
      h("th", { scope: "row" }, label),
      h("td", {}, played(tally)),
      h("td", {}, tally.won), h("td", {}, tally.lost), h("td", {}, tally.drawn), h("td", {}, tally.aborted))))),
    links);
}

// "My games" (/me): the signed-in player's ongoing games, those waiting for them first,
// and their finished ones, each with a link back into it (/g/ID: the seat opens by the
// session, no token needed). A player's page (/@/NAME): since when they play, and their
// recent games.

import { h, messageOf, toast } from "./dom.js";
import { currentLang, t, variantName } from "./i18n.js";
import { api } from "./net.js";
import { currentPlayer, openAccount } from "./account.js";
import { formatClock } from "./clock.js";
import { emailSection } from "./email.js";
import { ratingBadge, ratingDelta, ratingSection } from "./ratings.js";
import { playerStatistics } from "./games.js";
import { playerActions } from "./social.js";
import { botSection, tokensSection } from "./tokens.js";
import { botBadge } from "./people.js";

/** @typedef {import("./messages").GameEntry} GameEntry */
/** @typedef {import("./messages").MyGames} MyGames */
/** @typedef {import("./messages").Opponent} Opponent */
/** @typedef {import("./messages").PlayerPage} PlayerPage */
/** @typedef {import("./messages").VariantRating} VariantRating */
/** @typedef {import("./types").Child} Child */

/**
 * @param {HTMLElement} root
 * @param {{ navigate: (url: string) => void }} options
 */
export async function renderMyGames(root, { navigate }) {
  if (!currentPlayer()) {
    root.replaceChildren(h("section", { class: "my-games", "data-testid": "my-games-signed-out" },
      h("h1", {}, t("my_games")),
      h("p", {}, t("my_games_signed_out")),
      h("p", {}, h("button", { type: "button", class: "primary", onclick: () => openAccount() }, t("account_sign_in")))));
    return;
  }
  /** @type {MyGames} */
  let body;
  try {
    body = await api("/api/me/games");
  } catch (error) {
    toast(messageOf(error));
    return;
  }
  /** @param {string} id */
  const open = (id) => /** @param {Event} event */ (event) => {
    event.preventDefault();
    navigate(`/g/${id}`);
  };
  root.replaceChildren(h("section", { class: "my-games", "data-testid": "my-games" },
    h("h1", {}, t("my_games")),
    myRatings(body.ratings),
    h("h2", {}, t("my_games_ongoing")),
    gameList(body.ongoing, (entry) => [
      h("span", { class: entry.your_turn ? "game-badge turn" : "game-badge" }, t(entry.your_turn ? "my_games_your_turn" : "my_games_their_turn")),
      // A timed game waiting for this player: the time left on their clock.
      entry.clock && entry.your_turn ? h("span", { class: "game-clock", "data-testid": "game-clock" }, formatClock(entry.clock.remaining[entry.seat], entry.clock.kind)) : null,
      h("a", { href: `/g/${entry.id}`, class: "button", "data-game": entry.id, onclick: open(entry.id) }, t("my_games_open")),
    ]),
    h("h2", {}, t("my_games_finished")),
    gameList(body.finished, (entry) => [
      h("span", { class: `game-badge ${entry.outcome}` }, t(`result_${entry.outcome}`)),
      ratingDelta(entry.rating_delta),
      h("a", { href: `/g/${entry.id}`, class: "button", "data-game": entry.id, onclick: open(entry.id) }, t("my_games_open")),
    ]),
    body.player.kind === "account" ? emailSection() : null,
    body.player.kind === "account" ? tokensSection() : null,
    body.player.kind === "account" ? botSection(body.player, () => renderMyGames(root, { navigate })) : null));
}

/**
 * @param {HTMLElement} root
 * @param {string} name
 */
export async function renderPlayer(root, name) {
  /** @type {PlayerPage} */
  let body;
  try {
    body = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    root.replaceChildren(h("section", { class: "player-page" }, h("p", {}, messageOf(error))));
    return;
  }
  document.title = `Hanamikoji · ${body.player.name}`;
  root.replaceChildren(h("section", { class: "player-page", "data-testid": "player-page" },
    h("h1", {}, body.player.name, botBadge(body.player)),
    playerActions(body.player.name),
    h("p", { class: "muted" }, t("player_since", { date: shownDate(body.since) })),
    h("h2", {}, t("rating_title")),
    ratingSection(body),
    playerStatistics(body.player.name),
    h("h2", {}, t("player_recent")),
    gameList(body.games, (entry) => [h("span", { class: `game-badge ${entry.outcome}` }, t(`result_${entry.outcome}`)), ratingDelta(entry.rating_delta)])));
}

/**
 * @template {GameEntry} E
 * @param {E[]} entries
 * @param {(entry: E) => Child} extra
 */
function gameList(entries, extra) {
  if (!entries.length) return h("p", { class: "muted" }, t("my_games_none"));
  return h("ul", { class: "game-list" }, entries.map((entry) =>
    h("li", { class: "game-entry", dataset: { yourTurn: "your_turn" in entry && entry.your_turn ? "yes" : "no" } },
      h("span", { class: "entry-title" }, t("my_games_entry", { variant: variantName(entry.variant), opponent: opponentName(entry.opponent) }), botBadge(entry.opponent), " ", ratingBadge(entry.opponent.rating)),
      h("span", { class: "muted" }, t("my_games_started", { date: shownDate(entry.created) })),
      extra(entry))));
}

/**
 * @param {Opponent} opponent
 * @returns {string}
 */
function opponentName(opponent) {
  if (opponent.kind === "bot") return t("bot_name", { level: opponent.level });
  if (opponent.kind === "guest") return t("account_guest_name", { name: opponent.name });
  if (opponent.kind === "account") return String(opponent.name);
  return t("anonymous_player");
}

// The player's own ratings, one per variant they are rated in.
/** @param {VariantRating[] | null | undefined} ratings */
function myRatings(ratings) {
  if (!ratings || !ratings.length) return null;
  return h("p", { class: "my-ratings", "data-testid": "my-ratings" }, t("rating_title"), ": ",
    ratings.map((rating, index) => [index ? " · " : "", variantName(rating.variant), " ", ratingBadge(rating)]));
}

/** @param {string} iso */
function shownDate(iso) {
  const locale = currentLang() === "en-2018" ? "en" : currentLang();
  return new Date(iso).toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
}

// Watching a game (/w/ID): the spectator's socket, which needs no token and carries only
// the public state (table.js draws it read-only), and the list of games anyone may watch.

import { h, messageOf, toast } from "./dom.js";
import { t, variantName } from "./i18n.js";
import { personTag } from "./people.js";
import { GameSocket, api } from "./net.js";

/** @typedef {import("./net.js").SocketHandlers} SocketHandlers */

// The game's spectator socket: the same reconnection and pings as a seat's, another path.
export class WatchSocket extends GameSocket {
  path() {
    return `/ws/${encodeURIComponent(this.gameId)}/watch`;
  }
}

/** @param {string} gameId */
export function watchTransport(gameId) {
  /** @param {SocketHandlers} handlers */
  return (handlers) => new WatchSocket(gameId, "", handlers);
}

// The newest ongoing public games, each with a link to watch it.
/**
 * @param {{ navigate: (url: string) => void }} options
 * @returns {Promise<HTMLElement>}
 */
export async function renderWatchList({ navigate }) {
  const section = h("section", { class: "watch-list", "aria-labelledby": "watch-list-title", "data-testid": "watch-list" },
    h("h2", { id: "watch-list-title" }, t("watch_list_title")),
    // The finished games: the game browser (/games).
    h("p", { class: "watch-more" }, h("a", {
      href: "/games",
      id: "games-link",
      onclick: /** @param {Event} event */ (event) => { event.preventDefault(); navigate("/games"); },
    }, t("browser_title"), " →")));
  /** @type {import("./wire").WatchList} */
  let body;
  try {
    body = await api("/api/games?watch=1");
  } catch (error) {
    toast(messageOf(error));
    return section;
  }
  if (!body.games.length) {
    section.append(h("p", { class: "empty" }, t("watch_list_empty")));
    return section;
  }
  section.append(h("ul", { class: "game-list" }, body.games.map((game) => h("li", { class: "game-entry" },
    h("span", { class: "entry-title" }, variantName(game.variant)),
    " ",
    h("span", { class: "entry-players", "data-testid": "watch-players" }, personTag(game.players[0], 0), " · ", personTag(game.players[1], 1)),
    " ",
    h("a", {
      href: `/w/${game.id}`,
      class: "button",
      "data-watch": game.id,
      onclick: (event) => { event.preventDefault(); navigate(`/w/${game.id}`); },
    }, t("watch_button"))))));
  return section;
}

// The page: a start screen at "/", the lesson at "/learn", a game table at "/g/ID#t=TOKEN". The seat token stays
// in the address's fragment, which browsers never send to a server, so a reload (or a
// bookmark) opens the same seat. A signed-in player's own seats open without a token
// ("/g/ID", from My games at "/me"); a player's page is at "/@/NAME", the friends list
// at "/friends", a challenge's link at "/challenge/ID", the tournaments at "/tournaments",
// one at "/tournament/ID", and the bot ladder at "/ladder".

import { claimSeat, currentPlayer, initAccount, onPlayerChange, renderAccountButton } from "./account.js";
import { byId, h, messageOf, store, toast } from "./dom.js";
import { preferredDeck, setDeck } from "./cards.js";
import { languages, loadCatalog, preferredLang, t } from "./i18n.js";
import { initMenu, translateMenu } from "./menu.js";
import { renderMyGames, renderPlayer } from "./mygames.js";
import { TurnNotices, initTurnPreference, translateTurnPreference } from "./notices.js";
import { openRules } from "./rules.js";
import { renderStart } from "./start.js";
import { TableController } from "./table.js";
import { TutorialView } from "./tutorial.js";
import { renderLobby } from "./lobby.js";
import { renderLeaderboard } from "./ratings.js";
import { LadderPage } from "./ladder.js";
import { renderGames } from "./games.js";
import { PuzzlePage } from "./puzzles.js";
import { renderChallenge, renderFriends, startSocial } from "./social.js";
import { renderTournament, renderTournaments } from "./tournaments.js";
import { watchTransport } from "./watch.js";

/**
 * What the page shows that lives on until the next address: a game's table, the
 * lesson, the lobby.
 * @typedef {object} Screen
 * @property {() => void} stop
 * @property {(lang: string) => void} setLang
 * @property {{ variant: string } | null} state the game shown, if any
 */

/** @type {Screen | null} */
let table = null;
let lang = preferredLang();
/** @type {boolean | null} */
let connection = null;

/** @param {string} url */
function navigate(url) {
  history.pushState(null, "", url);
  route();
}

function route() {
  if (table) {
    table.stop();
    table = null;
  }
  const root = byId("app");
  const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]{1,32})\/?$/);
  setConnection(null);
  if (/^\/learn\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("learn_button")}`;
    const lesson = new TutorialView(root, { navigate });
    table = lesson;
    lesson.start();
    return;
  }
  if (/^\/me\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("my_games")}`;
    renderMyGames(root, { navigate });
    return;
  }
  const watched = location.pathname.match(/^\/w\/([A-Za-z0-9_-]{1,32})\/?$/);
  if (watched) {
    document.title = `Hanamikoji · ${t("watch_title")}`;
    const watching = new TableController(root, { gameId: watched[1], token: "", navigate, setConnection, transport: watchTransport(watched[1]) });
    table = watching;
    watching.start();
    return;
  }
  if (/^\/lobby\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("lobby_title")}`;
    table = renderLobby(root, { navigate });
    return;
  }
  if (/^\/puzzles(\/[A-Za-z0-9_-]{1,64})?\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("puzzles_title")}`;
    const puzzles = new PuzzlePage(root, { navigate, path: location.pathname });
    table = puzzles;
    puzzles.start();
    return;
  }
  if (/^\/leaderboard\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("leaderboard_title")}`;
    renderLeaderboard(root);
    return;
  }
  if (/^\/ladder\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("ladder_title")}`;
    const ladder = new LadderPage(root);
    table = ladder;
    ladder.start();
    return;
  }
  if (/^\/games\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("browser_title")}`;
    renderGames(root, { navigate });
    return;
  }
  if (/^\/friends\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("friends_title")}`;
    renderFriends(root, { navigate });
    return;
  }
  if (/^\/tournaments\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("tour_title")}`;
    renderTournaments(root, { navigate });
    return;
  }
  const tournament = location.pathname.match(/^\/tournament\/([A-Za-z0-9_-]{1,16})\/?$/);
  if (tournament) {
    document.title = `Hanamikoji · ${t("tour_title")}`;
    table = renderTournament(root, tournament[1], { navigate });
    return;
  }
  const challenge = location.pathname.match(/^\/challenge\/([A-Za-z0-9_-]{1,16})\/?$/);
  if (challenge) {
    document.title = `Hanamikoji · ${t("social_challenge")}`;
    renderChallenge(root, challenge[1]);
    return;
  }
  const player = location.pathname.match(/^\/@\/([A-Za-z0-9_-]{1,40})\/?$/);
  if (player) {
    document.title = "Hanamikoji";
    renderPlayer(root, player[1]);
    return;
  }
  if (!match) {
    document.title = "Hanamikoji";
    renderStart(root, { navigate, langControl: () => languageSelect("start-lang") });
    return;
  }
  const gameId = match[1];
  const token = new URLSearchParams(location.hash.slice(1)).get("t");
  document.title = `Hanamikoji · ${gameId}`;
  const notices = new TurnNotices(gameId);
  const seat = new TableController(root, { gameId, token: token || "", navigate, setConnection, notices });
  table = seat;
  if (!token && !currentPlayer()) {
    seat.renderNoSeat();
    table = null;
    return;
  }
  // Without a token the server opens the seat the session's player holds, if any.
  seat.start();
  claimSeat(gameId, token);
}

// Someone signed in or out: pages that show the player's games are drawn again, and a
// seat opened by its link becomes the player's.
function playerChanged() {
  startSocial({ navigate });
  if (table instanceof TableController && table.token) claimSeat(table.gameId, table.token);
  else if (/^\/($|me\/?$|@\/|g\/|lobby|friends|challenge\/|tournament)/.test(location.pathname)) route();
}

/** @param {boolean | null} online */
function setConnection(online) {
  connection = online;
  const badge = byId("conn");
  if (online === null) {
    badge.hidden = true;
    return;
  }
  badge.hidden = false;
  badge.dataset.online = online ? "yes" : "no";
  badge.textContent = online ? t("conn_online") : t("conn_offline");
}

/** @param {string} id */
function languageSelect(id) {
  const select = h("select", { id, "aria-label": t("lang_label"), onchange: (event) => changeLanguage(event.currentTarget.value) },
    Object.entries(languages()).map(([code, name]) => h("option", { value: code, selected: code === lang }, name)));
  return select;
}

/** @param {string} next */
async function changeLanguage(next) {
  try {
    await loadCatalog(next);
  } catch (error) {
    toast(messageOf(error));
    return;
  }
  lang = next;
  translateChrome();
  if (table) table.setLang(next);
  else route();
}

function translateChrome() {
  byId("lang-label").textContent = t("lang_label");
  byId("theme-label").textContent = t("theme_label");
  byId("lobby-link").textContent = t("lobby_title");
  byId("leaderboard-link").textContent = t("leaderboard_title");
  byId("puzzles-link").textContent = t("puzzles_title");
  byId("tournaments-link").textContent = t("tour_title");
  byId("rules-button").textContent = t("rules_button");
  const headerLang = byId("lang-select");
  headerLang.replaceChildren(...Object.entries(languages()).map(([code, name]) => h("option", { value: code, selected: code === lang }, name)));
  /** @type {HTMLSelectElement} */
  const theme = byId("theme-select");
  for (const option of theme.options) option.textContent = t(`theme_${option.value}`);
  byId("deck-label").textContent = t("deck_label");
  /** @type {HTMLSelectElement} */
  const deck = byId("deck-select");
  for (const option of deck.options) {
    option.textContent = t(`deck_${option.value.replace("-", "_")}`);
  }
  translateTurnPreference(byId("turn-select"));
  if (connection !== null) setConnection(connection);
  translateMenu();
  renderAccountButton();
}

async function boot() {
  initMenu();
  try {
    await loadCatalog(lang);
  } catch (error) {
    lang = "en";
    await loadCatalog(lang);
  }
  await initAccount({ navigate });
  onPlayerChange(playerChanged);
  // The site socket: online while a page is open, and challenges live on every page.
  startSocial({ navigate });
  /** @type {HTMLSelectElement} */
  const langSelect = byId("lang-select");
  langSelect.addEventListener("change", () => changeLanguage(langSelect.value));
  /** @type {HTMLSelectElement} */
  const theme = byId("theme-select");
  theme.value = document.documentElement.dataset.theme || "auto";
  theme.addEventListener("change", () => {
    window.hanamikojiSetTheme(theme.value);
    store(localStorage, "hanamikoji.theme", theme.value);
  });
  // The card-table deck's faces beside the usual names, or not (cards.js).
  /** @type {HTMLSelectElement} */
  const deck = byId("deck-select");
  deck.value = preferredDeck();
  setDeck(deck.value);
  deck.addEventListener("change", () => setDeck(deck.value));
  // What tells the player their turn came besides the title: a sound, a notification.
  initTurnPreference(byId("turn-select"));
  // The rules, open at their top: from a game, its variant's end is marked (the note at
  // the top links to it); from the start page, the variant chosen there.
  byId("rules-button").addEventListener("click", () => {
    /** @type {HTMLInputElement | null} */
    const chosen = document.querySelector(".start-form input[name=variant]:checked");
    openRules(table ? { variant: table.state && table.state.variant } : { variant: chosen ? chosen.value : undefined });
  });
  translateChrome();
  window.addEventListener("popstate", route);
  route();
}

boot();

// The page: a start screen at "/", the lesson at "/learn", a game table at "/g/ID#t=TOKEN". The seat token stays
// in the address's fragment, which browsers never send to a server, so a reload (or a
// bookmark) opens the same seat. A signed-in player's own seats open without a token
// ("/g/ID", from My games at "/me"); a player's page is at "/@/NAME".

import { claimSeat, currentPlayer, initAccount, onPlayerChange, renderAccountButton } from "./account.js";
import { h, store, toast } from "./dom.js";
import { preferredDeck, setDeck } from "./cards.js";
import { languages, loadCatalog, preferredLang, t } from "./i18n.js";
import { initMenu, translateMenu } from "./menu.js";
import { renderMyGames, renderPlayer } from "./mygames.js";
import { openRules } from "./rules.js";
import { renderStart } from "./start.js";
import { TableView } from "./table.js";
import { TutorialView } from "./tutorial.js";
import { renderLobby } from "./lobby.js";
import { renderLeaderboard } from "./ratings.js";
import { watchTransport } from "./watch.js";

let table = null;
let lang = preferredLang();
let connection = null;

function navigate(url) {
  history.pushState(null, "", url);
  route();
}

function route() {
  if (table) {
    table.stop();
    table = null;
  }
  const root = document.getElementById("app");
  const match = location.pathname.match(/^\/g\/([A-Za-z0-9_-]{1,32})\/?$/);
  setConnection(null);
  if (/^\/learn\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("learn_button")}`;
    table = new TutorialView(root, { navigate });
    table.start();
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
    table = new TableView(root, { gameId: watched[1], token: "", navigate, setConnection, transport: watchTransport(watched[1]) });
    table.start();
    return;
  }
  if (/^\/lobby\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("lobby_title")}`;
    table = renderLobby(root, { navigate });
    return;
  }
  if (/^\/leaderboard\/?$/.test(location.pathname)) {
    document.title = `Hanamikoji · ${t("leaderboard_title")}`;
    renderLeaderboard(root);
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
  table = new TableView(root, { gameId, token: token || "", navigate, setConnection });
  if (!token && !currentPlayer()) {
    table.renderNoSeat();
    table = null;
    return;
  }
  // Without a token the server opens the seat the session's player holds, if any.
  table.start();
  claimSeat(gameId, token);
}

// Someone signed in or out: pages that show the player's games are drawn again, and a
// seat opened by its link becomes the player's.
function playerChanged() {
  if (table && table.token) claimSeat(table.gameId, table.token);
  else if (/^\/($|me\/?$|@\/|g\/|lobby)/.test(location.pathname)) route();
}

function setConnection(online) {
  connection = online;
  const badge = document.getElementById("conn");
  if (online === null) {
    badge.hidden = true;
    return;
  }
  badge.hidden = false;
  badge.dataset.online = online ? "yes" : "no";
  badge.textContent = online ? t("conn_online") : t("conn_offline");
}

function languageSelect(id) {
  const select = h("select", { id, "aria-label": t("lang_label"), onchange: (event) => changeLanguage(event.target.value) },
    Object.entries(languages()).map(([code, name]) => h("option", { value: code, selected: code === lang }, name)));
  return select;
}

async function changeLanguage(next) {
  try {
    await loadCatalog(next);
  } catch (error) {
    toast(error.message);
    return;
  }
  lang = next;
  translateChrome();
  if (table) table.setLang(next);
  else route();
}

function translateChrome() {
  document.getElementById("lang-label").textContent = t("lang_label");
  document.getElementById("theme-label").textContent = t("theme_label");
  document.getElementById("lobby-link").textContent = t("lobby_title");
  document.getElementById("leaderboard-link").textContent = t("leaderboard_title");
  document.getElementById("rules-button").textContent = t("rules_button");
  const headerLang = document.getElementById("lang-select");
  headerLang.replaceChildren(...Object.entries(languages()).map(([code, name]) => h("option", { value: code, selected: code === lang }, name)));
  const theme = document.getElementById("theme-select");
  for (const option of theme.options) option.textContent = t(`theme_${option.value}`);
  document.getElementById("deck-label").textContent = t("deck_label");
  for (const option of document.getElementById("deck-select").options) {
    option.textContent = t(`deck_${option.value.replace("-", "_")}`);
  }
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
  document.getElementById("lang-select").addEventListener("change", (event) => changeLanguage(event.target.value));
  const theme = document.getElementById("theme-select");
  theme.value = document.documentElement.dataset.theme || "auto";
  theme.addEventListener("change", () => {
    window.hanamikojiSetTheme(theme.value);
    store(localStorage, "hanamikoji.theme", theme.value);
  });
  // The card-table deck's faces beside the usual names, or not (cards.js).
  const deck = document.getElementById("deck-select");
  deck.value = preferredDeck();
  setDeck(deck.value);
  deck.addEventListener("change", () => setDeck(deck.value));
  // The rules, open at their top: from a game, its variant's end is marked (the note at
  // the top links to it); from the start page, the variant chosen there.
  document.getElementById("rules-button").addEventListener("click", () => openRules(table
    ? { variant: table.state && table.state.variant }
    : { variant: (document.querySelector(".start-form input[name=variant]:checked") || {}).value }));
  translateChrome();
  window.addEventListener("popstate", route);
  route();
}

boot();

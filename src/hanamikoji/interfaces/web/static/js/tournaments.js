// Tournaments: the list at "/tournaments" (upcoming, running, finished) with the form an
// account creates one with, and a tournament's page at "/tournament/ID" (its standings,
// its pairings with a link to watch each game, the player's own game, a countdown, Join
// and Withdraw), sent again by the server at each change on its socket.

import { h, messageOf, toast } from "./dom.js";
import { levels, t, variantName } from "./i18n.js";
import { api } from "./net.js";
import { currentPlayer, openAccount } from "./account.js";

/** @typedef {import("./wire").TournamentList} TournamentList */
/** @typedef {import("./wire").TournamentCard} TournamentCard */
/** @typedef {import("./wire").TournamentView} TournamentView */
/** @typedef {import("./wire").TournamentLine} TournamentLine */
/** @typedef {import("./wire").TournamentBoard} TournamentBoard */
/** @typedef {import("./wire").TournamentCreated} TournamentCreated */
/** @typedef {{ navigate: (url: string) => void }} Navigation */

const VARIANTS = ["classic", "three-rounds", "french"];
const TIME_CONTROLS = ["3+2", "5+5", "10+0", "none", "1d", "3d"];
const RETRY_MS = 3000;

/** @param {string} name */
function timeName(name) {
  return name === "none" ? t("lobby_time_none") : name;
}

/** @param {TournamentCard} card */
function kindLine(card) {
  const kind = card.kind === "swiss" ? t("tour_swiss_rounds", { rounds: card.rounds ?? 0 }) : t("tour_arena_minutes", { minutes: card.minutes ?? 0 });
  return `${kind} · ${variantName(card.variant)} · ${timeName(card.time_control)} · ${card.rated ? t("lobby_rated") : t("lobby_casual")}`;
}

/** @param {number} ms */
function duration(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/**
 * @param {string} url
 * @param {Navigation} nav
 * @param {string} text
 */
function link(url, nav, text) {
  return h("a", { href: url, onclick: (event) => { event.preventDefault(); nav.navigate(url); } }, text);
}

// -- the list -----------------------------------------------------------------------------

/**
 * @param {HTMLElement} root
 * @param {Navigation} nav
 */
export async function renderTournaments(root, nav) {
  /** @type {TournamentList} */
  let list;
  try {
    list = await api("/api/tournaments");
  } catch (error) {
    toast(messageOf(error));
    return;
  }
  /**
   * @param {string} title
   * @param {readonly TournamentCard[]} cards
   * @param {string} testid
   */
  const group = (title, cards, testid) => h("section", { "data-testid": testid },
    h("h2", {}, title),
    cards.length
      ? h("ul", { class: "game-list" }, cards.map((card) => h("li", { class: "game-entry", "data-tournament": card.id },
        link(`/tournament/${card.id}`, nav, card.name), " ",
        h("span", { class: "muted" }, `${kindLine(card)} · ${t("tour_players", { count: card.entrants })} · ${t("tour_by", { name: card.creator })}`))))
      : h("p", { class: "muted" }, t("tour_none")));
  root.replaceChildren(h("section", { class: "tournaments", "data-testid": "tournaments" },
    h("h1", {}, t("tour_title")),
    createForm(nav),
    group(t("tour_upcoming"), list.upcoming, "upcoming"),
    group(t("tour_running"), list.running, "running"),
    group(t("tour_finished"), list.finished, "finished")));
}

/**
 * @param {string} name
 * @param {string[]} values
 * @param {(value: string) => string} label
 * @param {string} [chosen]
 */
function select(name, values, label, chosen) {
  return h("select", { name, id: `tour-${name}` }, values.map((value) => h("option", { value, selected: value === chosen }, label(value))));
}

/**
 * @param {string} text
 * @param {HTMLElement} control
 */
function field(text, control) {
  return h("label", { class: "tour-field" }, text, " ", control);
}

/** @param {Navigation} nav */
function createForm(nav) {
  const me = currentPlayer();
  if (!me || me.kind !== "account") {
    return h("p", {}, t("tour_create_accounts"), " ", h("button", { type: "button", onclick: () => openAccount() }, t("account_sign_in")));
  }
  /** @type {HTMLFormElement} */
  const form = h("form", { id: "tour-create", onsubmit: (event) => { event.preventDefault(); create(form, nav); } },
    h("h2", {}, t("tour_create")),
    field(t("tour_name"), h("input", { name: "name", id: "tour-name", required: true, maxlength: 60 })),
    field(t("variant_label"), select("variant", VARIANTS, variantName)),
    field(t("clock_label"), select("time_control", TIME_CONTROLS, timeName)),
    field(t("lobby_rated"), h("input", { type: "checkbox", name: "rated", id: "tour-rated" })),
    field(t("tour_swiss"), select("kind", ["swiss", "arena"], (kind) => t(`tour_${kind}`))),
    field(t("tour_rounds"), h("input", { type: "number", name: "rounds", id: "tour-rounds", min: 1, max: 15, value: "5" })),
    field(t("tour_minutes"), h("input", { type: "number", name: "minutes", id: "tour-minutes", min: 1, max: 720, value: "60" })),
    field(t("tour_starts_in"), h("input", { type: "number", name: "starts_in", id: "tour-starts-in", min: 0, max: 10080, value: "5" })),
    field(t("tour_entry"), select("entry", ["both", "people", "bots"], (entry) => t(`tour_entry_${entry}`))),
    field(t("tour_invitation"), h("input", { type: "checkbox", name: "invitation", id: "tour-invitation" })),
    h("button", { type: "submit", class: "primary", id: "tour-submit" }, t("tour_create")));
  return form;
}

/**
 * @param {HTMLFormElement} form
 * @param {Navigation} nav
 */
async function create(form, nav) {
  const data = new FormData(form);
  const kind = String(data.get("kind"));
  const body = {
    name: String(data.get("name") || ""),
    variant: String(data.get("variant")),
    time_control: String(data.get("time_control")),
    rated: data.get("rated") !== null,
    kind,
    rounds: Number(data.get("rounds")),
    minutes: Number(data.get("minutes")),
    starts_in: Number(data.get("starts_in")),
    entry: String(data.get("entry")),
    invitation: data.get("invitation") !== null,
  };
  try {
    /** @type {TournamentCreated} */
    const made = await api("/api/tournaments", { method: "POST", body });
    nav.navigate(`/tournament/${made.id}${made.invite_code ? `?code=${encodeURIComponent(made.invite_code)}` : ""}`);
  } catch (error) {
    toast(messageOf(error));
  }
}

// -- a tournament's page -------------------------------------------------------------------

/**
 * The page of one tournament; `stop` closes its socket and its countdown.
 * @param {HTMLElement} root
 * @param {string} id
 * @param {Navigation} nav
 * @returns {{ stop: () => void, setLang: (lang: string) => void, state: null }}
 */
export function renderTournament(root, id, nav) {
  const code = new URLSearchParams(location.search).get("code");
  const query = code ? `?code=${encodeURIComponent(code)}` : "";
  /** @type {TournamentView | null} */
  let view = null;
  let offset = 0;
  let stopped = false;
  /** @type {WebSocket | null} */
  let socket = null;
  const timer = setInterval(() => { if (view) countdown(root, view, offset); }, 1000);

  /** @param {TournamentView} next */
  const show = (next) => {
    view = next;
    offset = next.now - Date.now();
    draw(root, next, { nav, query, id, offset, show });
  };
  const connect = () => {
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/tournaments/${encodeURIComponent(id)}/ws${query}`);
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      if (message.type === "error") toast(message.message);
      else show(/** @type {TournamentView} */ (message));
    };
    socket.onclose = () => { if (!stopped) setTimeout(connect, RETRY_MS); };
  };
  connect();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
      if (socket) socket.close();
    },
    setLang: () => { if (view) show(view); },
    state: null,
  };
}

/**
 * @typedef {object} PageContext
 * @property {Navigation} nav
 * @property {string} query
 * @property {string} id
 * @property {number} offset
 * @property {(view: TournamentView) => void} show
 */

/**
 * @param {HTMLElement} root
 * @param {TournamentView} view
 * @param {number} offset
 */
function countdown(root, view, offset) {
  const box = root.querySelector("[data-testid='tour-countdown']");
  if (!box) return;
  const now = Date.now() + offset;
  const card = view.card;
  if (card.status === "created") box.textContent = t("tour_starts", { time: duration(card.starts - now) });
  else if (card.status === "started" && card.ends !== null) box.textContent = t("tour_ends", { time: duration(card.ends - now) });
  else if (card.status === "started") box.textContent = t("tour_round", { round: view.round, rounds: card.rounds ?? 0 });
  else box.textContent = t("tour_over");
}

/**
 * @param {HTMLElement} root
 * @param {TournamentView} view
 * @param {PageContext} context
 */
function draw(root, view, context) {
  const card = view.card;
  root.replaceChildren(h("section", { class: "tournament", "data-testid": "tournament", "data-status": card.status },
    h("h1", {}, card.name),
    h("p", { class: "muted" }, `${kindLine(card)} · ${t("tour_by", { name: card.creator })}`),
    h("p", { "data-testid": "tour-countdown" }),
    actions(view, context),
    mine(view, context.nav),
    view.invite_code ? h("p", {}, `${t("tour_invite_link")}: `, h("code", {}, `${location.origin}/tournament/${card.id}?code=${view.invite_code}`)) : null,
    h("h2", {}, t("tour_standings")),
    standings(view),
    h("h2", {}, t("tour_pairings")),
    pairings(view, context.nav),
    card.status === "finished" ? h("p", {}, h("a", { href: `/api/tournaments/${card.id}/records${context.query}`, download: `tournament-${card.id}.hkr` }, t("tour_download"))) : null));
  countdown(root, view, context.offset);
}

/**
 * @param {TournamentView} view
 * @param {PageContext} context
 */
function actions(view, context) {
  const me = currentPlayer();
  const base = `/api/tournaments/${encodeURIComponent(context.id)}`;
  /** @param {string} path @param {unknown} [body] */
  const post = async (path, body) => {
    try {
      context.show(await api(`${base}${path}`, { method: "POST", body }));
    } catch (error) {
      toast(messageOf(error));
    }
  };
  if (view.card.status === "finished") return null;
  if (!me || me.kind !== "account") return h("p", {}, h("button", { type: "button", onclick: () => openAccount() }, t("account_sign_in")));
  const joined = view.mine.entered && view.mine.active;
  /** @type {import("./types").Child[]} */
  const buttons = [
    !joined && view.can_join ? h("button", { type: "button", class: "primary", id: "tour-join", onclick: () => post(`/join${context.query}`) }, t("tour_join")) : null,
    joined ? h("button", { type: "button", id: "tour-withdraw", onclick: () => post("/withdraw") }, t("tour_withdraw")) : null,
  ];
  if (view.creator && view.can_join) {
    const levelSelect = h("select", { id: "tour-level" }, levels().numbers.map((n) => h("option", { value: String(n) }, t("tour_level_name", { level: n }))));
    buttons.push(levelSelect, h("button", { type: "button", id: "tour-add-level", onclick: () => post("/level", { level: Number(levelSelect.value) }) }, t("tour_add_level")));
  }
  return h("p", { class: "tour-actions" }, buttons);
}

/**
 * @param {TournamentView} view
 * @param {Navigation} nav
 */
function mine(view, nav) {
  const own = view.mine;
  if (!own.entered || view.card.status !== "started") return null;
  if (own.game) {
    return h("p", { class: "tour-mine", "data-testid": "tour-mine" }, t("tour_your_game", { name: own.opponent ?? "" }), " ", link(`/g/${own.game}`, nav, t("tour_open_game")));
  }
  return own.active ? h("p", { class: "tour-mine muted", "data-testid": "tour-mine" }, t("tour_waiting")) : null;
}

/** @param {TournamentLine} line */
function lineName(line) {
  const name = line.level !== null ? t("tour_level_name", { level: line.level }) : line.name;
  return [name, line.bot ? h("span", { class: "bot-badge" }, " BOT") : null, line.active ? null : h("span", { class: "muted" }, ` (${t("tour_withdrawn")})`)];
}

/** @param {TournamentView} view */
function standings(view) {
  const swiss = view.card.kind === "swiss";
  const head = swiss
    ? ["#", t("tour_player"), t("tour_rating"), t("tour_score"), t("tour_buchholz"), t("tour_sb")]
    : ["#", t("tour_player"), t("tour_rating"), t("tour_points"), ""];
  return h("table", { class: "tour-standings", "data-testid": "tour-standings" },
    h("thead", {}, h("tr", {}, head.map((text) => h("th", {}, text)))),
    h("tbody", {}, view.standings.map((line) => h("tr", { "data-player": line.name },
      h("td", {}, line.rank),
      h("td", {}, lineName(line)),
      h("td", {}, line.rating),
      swiss
        ? [h("td", { class: "tour-score" }, line.score), h("td", {}, line.buchholz), h("td", {}, line.sonneborn_berger)]
        : [h("td", { class: "tour-score" }, line.score, line.fire ? h("span", { title: t("tour_fire"), class: "tour-fire" }, " 🔥") : null),
          h("td", { class: "muted" }, line.sheet.join(" "))]))));
}

/**
 * @param {TournamentView} view
 * @param {Navigation} nav
 */
function pairings(view, nav) {
  /** @type {Map<number, TournamentBoard[]>} */
  const rounds = new Map();
  for (const board of view.boards) {
    const list = rounds.get(board.round) || [];
    list.push(board);
    rounds.set(board.round, list);
  }
  const swiss = view.card.kind === "swiss";
  return h("div", { "data-testid": "tour-pairings" },
    swiss && view.byes.length ? h("p", { class: "muted" }, t("tour_bye", { name: view.byes.join(", ") })) : null,
    [...rounds.entries()].map(([number, boards]) => h("section", { "data-round": number },
      swiss ? h("h3", {}, t("tour_round_number", { n: number })) : null,
      h("ul", { class: "game-list" }, boards.map((board) => h("li", { class: "game-entry" },
        `${board.first} – ${board.second} `,
        h("strong", {}, board.result ?? t("tour_on")), " ",
        board.game ? link(`/w/${board.game}`, nav, t("tour_watch")) : null))))));
}

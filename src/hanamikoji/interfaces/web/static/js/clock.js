// A timed game's two clocks. The server keeps them: each state carries both sides'
// remaining ms at the moment it was made and whose clock runs; the page counts the running
// one down from the moment the state arrived (every 200 ms), and starts again from the
// server's numbers with each new state. Under LOW_MS of real time the clock turns red and
// the page says so once (aria-live). Correspondence games are remembered in this browser
// (game, seat token) for the start page's "waiting for you" list.

import { h, store } from "./dom.js";
import { seatName, t, tCount } from "./i18n.js";
import { api } from "./net.js";
import { seatLabel } from "./people.js";

/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").ClockState} ClockState */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {import("./table.js").TableController} TableController */
/** @typedef {GameState & { clock: ClockState }} TimedState */
/** @typedef {{ id: string, token: string }} Remembered */

const LOW_MS = 20_000;
const TICK_MS = 200;
const MINE = "hanamikoji.correspondence";

/** @type {WeakMap<GameState, number>} */
const arrived = new WeakMap(); // state -> performance.now() when it arrived
/** @type {Set<string>} */
const warned = new Set(); // games whose low-time warning was said
/** @type {ReturnType<typeof setInterval> | undefined} */
let ticker;

// The time left of a clock shown from a state: the running one counts down since arrival.
/**
 * @param {TimedState} state
 * @param {Seat} seat
 * @returns {number}
 */
function remainingNow(state, seat) {
  const clock = state.clock;
  const base = clock.remaining[seat];
  if (clock.running !== seat) return base;
  return Math.max(0, base - (performance.now() - Number(arrived.get(state))));
}

// 2:59, 0:09.4 under ten seconds; correspondence 71:59:59 (hours, any number of them).
/**
 * @param {number} ms
 * @param {string} kind
 * @returns {string}
 */
export function formatClock(ms, kind) {
  const total = Math.ceil(ms / 1000);
  /** @param {number} n */
  const pad = (n) => String(n).padStart(2, "0");
  if (kind === "correspondence") {
    return `${Math.floor(total / 3600)}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
  }
  if (ms < 10_000) return `0:${pad(Math.floor(ms / 1000))}.${Math.floor(ms / 100) % 10}`;
  return `${Math.floor(total / 60)}:${pad(total % 60)}`;
}

/**
 * @param {HTMLElement} root
 * @param {TimedState} state
 */
function paint(root, state) {
  for (const face of root.querySelectorAll(".clock")) {
    if (!(face instanceof HTMLElement)) continue;
    const seat = Number(face.dataset.seat);
    const left = remainingNow(state, seat);
    /** @type {HTMLElement} */ (face.querySelector(".time")).textContent = formatClock(left, state.clock.kind);
    const low = state.clock.kind === "realtime" && left < LOW_MS;
    face.classList.toggle("low", low);
    if (low && face.dataset.mine === "yes" && state.clock.running === seat && !warned.has(state.game)) {
      warned.add(state.game);
      /** @type {HTMLElement} */ (root.querySelector(".clock-alert")).textContent = t("clock_low");
    }
  }
}

// The clocks of the table's state (the opponent's first, as on the board), or null for
// an untimed game. Called on every drawing; only a new state resets the count.
/**
 * @param {TableController} view
 * @returns {HTMLElement | null}
 */
export function clockBar(view) {
  const shown = view.current();
  if (!shown.clock) return null;
  const state = /** @type {TimedState} */ (shown);
  if (!arrived.has(state)) arrived.set(state, performance.now());
  rememberCorrespondence(view, state);
  const me = view.viewer();
  /** @param {Seat} seat */
  const face = (seat) => h("div", {
    class: `clock${state.clock.running === seat ? " running" : ""}`,
    dataset: { seat, mine: seat === state.seat && !view.watching() ? "yes" : "no", testid: `clock-${seat}` },
    role: "timer",
    "aria-label": t("clock_of", { player: seatName(state, seat) }),
  }, h("span", { class: "who" }, seatLabel(state, seat)), " ", h("span", { class: "time" }));
  const root = h("div", { class: "clocks", "data-testid": "clocks", "data-control": state.clock.control },
    face(1 - me), face(me),
    h("p", { class: "clock-alert visually-hidden", "aria-live": "assertive" }));
  paint(root, state);
  clearInterval(ticker);
  ticker = state.clock.running === null ? undefined : setInterval(() => {
    if (!root.isConnected) {
      clearInterval(ticker);
      return;
    }
    paint(root, state);
  }, TICK_MS);
  return root;
}

// -- correspondence games waiting for this browser's seats ---------------------------------

/** @returns {Remembered[]} */
function remembered() {
  try {
    return JSON.parse(store(localStorage, MINE) || "[]");
  } catch (e) {
    return [];
  }
}

/**
 * @param {TableController} view
 * @param {TimedState} state
 */
function rememberCorrespondence(view, state) {
  if (state.clock.kind !== "correspondence" || view.watching() || !view.token) return;
  const games = remembered().filter((game) => game.id !== view.gameId);
  if (!state.outcome) games.push({ id: view.gameId, token: view.token });
  store(localStorage, MINE, JSON.stringify(games.slice(-50)));
}

// The start page's list: this browser's correspondence games where its seat is to decide,
// asked of the server (each game's state, by its seat token); finished ones are forgotten.
/**
 * @param {(url: string) => void} navigate
 * @returns {Promise<HTMLElement | null>}
 */
export async function waitingList(navigate) {
  const games = remembered();
  if (!games.length) return null;
  const states = await Promise.all(games.map(async (game) => {
    try {
      /** @type {TimedState} */
      const state = await api(`/api/games/${game.id}`, { token: game.token });
      return { game, state };
    } catch (error) {
      return { game, state: null };
    }
  }));
  store(localStorage, MINE, JSON.stringify(states.filter(({ state }) => state && !state.outcome).map(({ game }) => game)));
  const waiting = states.flatMap(({ game, state }) => (state && !state.outcome && state.to_move === state.seat ? [{ game, state }] : []));
  if (!waiting.length) return null;
  return h("section", { class: "waiting", "aria-labelledby": "waiting-title", "data-testid": "waiting" },
    h("h2", { id: "waiting-title" }, t("waiting_title")),
    h("ul", {}, waiting.map(({ game, state }) => h("li", {},
      h("a", { href: `/g/${game.id}#t=${game.token}`, onclick: (event) => { event.preventDefault(); navigate(`/g/${game.id}#t=${game.token}`); } },
        t("waiting_item", { opponent: seatName(state, 1 - Number(state.seat)), time: formatClock(state.clock.remaining[Number(state.seat)], "correspondence") }))))));
}

// -- the start page's time control ---------------------------------------------------------

const PRESETS = ["none", "3+2", "5+5", "10+0", "1d", "3d"];

/** @param {string} preset */
function presetName(preset) {
  if (preset === "none") return t("clock_none");
  if (preset.endsWith("d")) return tCount("clock_days", Number(preset.slice(0, -1)));
  const [minutes, seconds] = preset.split("+").map(Number);
  return t("clock_realtime", { minutes, seconds });
}

// The time control field of the new-game form; it sets choice.clock.
/** @param {{ clock: string }} choice */
export function clockChoice(choice) {
  if (!PRESETS.includes(choice.clock)) choice.clock = "none";
  const select = h("select", { id: "clock", name: "clock", onchange: (e) => { choice.clock = e.currentTarget.value; } },
    PRESETS.map((preset) => h("option", { value: preset, selected: preset === choice.clock }, presetName(preset))));
  return h("div", { class: "field" }, h("label", { for: "clock" }, t("clock_label")), select);
}

// The puzzle page (/puzzles: the next puzzle near the solver's rating, by theme;
// /puzzles/daily; /puzzles/streak; /puzzles/ID). The position is drawn by the game's own
// table (table.js), from the solver's seat, with the opponent's last decisions in its
// log: the table is driven by this page instead of a socket, as the lesson drives it. A
// decision played on the table, or chosen from the list of the legal ones, is the answer
// (POST /api/puzzles/ID/answer); the reveal follows (puzzle_reveal.js). Before the answer
// the page holds the question only: the solver's view, never a hidden card.
//
// An account is rated by the server (its first answer to a puzzle); a guest's rating is
// kept in this browser (localStorage), sent with each answer and kept again as the server
// moves it, with the puzzles it saw lately (so the next ones are new). An account's
// streak is kept on the server too (it follows the player to another browser: the page
// reads it back and shows what the server counted); a guest's is this page's, its best
// in localStorage.

import { currentPlayer } from "./account.js";
import { h, messageOf, store, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";
import { decisionWords, renderReveal, themeName } from "./puzzle_reveal.js";
import { TableController } from "./table.js";

/** @typedef {import("./wire").PuzzleQuestion} PuzzleQuestion */
/** @typedef {import("./wire").PuzzleResult} PuzzleResult */
/** @typedef {import("./wire").PuzzleRatingInfo} PuzzleRatingInfo */
/** @typedef {import("./wire").PuzzleStreakRun} PuzzleStreakRun */
/** @typedef {import("./wire").PuzzleThemes} PuzzleThemes */
/** @typedef {import("./net.js").SocketHandlers} SocketHandlers */
/** @typedef {import("./table.js").Transport} Transport */
/** @typedef {"next" | "daily" | "streak" | "one"} Mode */

export const GUEST_RATING_KEY = "hanamikoji.puzzles.rating";
const SEEN_KEY = "hanamikoji.puzzles.seen";
const THEME_KEY = "hanamikoji.puzzles.theme";
const SEEN_KEPT = 100;
const STREAK_BEST_KEY = "hanamikoji.puzzles.streak_best";

/**
 * A streak as the page shows it: the puzzle shown (`at`), the one to answer next
 * (`next`), how many solved, whether a miss ended it (`over`) or every puzzle is behind
 * it (`done`), the best streak, and whether the server keeps it (an account's).
 * @typedef {{ ids: string[], at: number, next: number, solved: number, over: boolean,
 *   done: boolean, best: number, kept: boolean }} PageStreak
 */

/**
 * @param {PuzzleStreakRun} run
 * @returns {PageStreak}
 */
function streakOf(run) {
  const done = run.at >= run.ids.length;
  const best = run.kept ? run.best : Number(store(localStorage, STREAK_BEST_KEY)) || 0;
  return {
    ids: [...run.ids], at: Math.max(0, Math.min(run.at, run.ids.length - 1)), next: run.at,
    solved: run.solved, over: run.over && !done, done, best, kept: run.kept,
  };
}

// The guest's rating as kept in this browser (a new solver's without one).
/** @returns {PuzzleRatingInfo} */
function guestRating() {
  const fresh = { rating: 1500, deviation: 350, volatility: 0.06, provisional: true, attempts: 0, solved: 0 };
  try {
    const kept = JSON.parse(store(localStorage, GUEST_RATING_KEY) || "null");
    return kept && typeof kept.rating === "number" ? { ...fresh, ...kept } : fresh;
  } catch (error) {
    return fresh;
  }
}

/** @returns {string[]} */
function seenIds() {
  return (store(localStorage, SEEN_KEY) || "").split(",").filter(Boolean);
}

/** @param {string} id */
function keepSeen(id) {
  store(localStorage, SEEN_KEY, [id, ...seenIds().filter((seen) => seen !== id)].slice(0, SEEN_KEPT).join(","));
}

function isAccount() {
  const player = currentPlayer();
  return player !== null && player.kind === "account";
}

// Which puzzles an address asks for.
/**
 * @param {string} path
 * @returns {{ mode: Mode, id: string }}
 */
export function puzzleMode(path) {
  const match = path.match(/^\/puzzles(?:\/([A-Za-z0-9_-]{1,64}))?\/?$/);
  const part = match && match[1] ? match[1] : "";
  if (part === "daily" || part === "streak") return { mode: part, id: "" };
  return part ? { mode: "one", id: part } : { mode: "next", id: "" };
}

export class PuzzlePage {
  /**
   * @param {HTMLElement} root
   * @param {{ navigate: (url: string) => void, path: string }} options
   */
  constructor(root, { navigate, path }) {
    this.root = root;
    this.navigate = navigate;
    const { mode, id } = puzzleMode(path);
    /** @type {Mode} */
    this.mode = mode;
    this.askedId = id;
    this.run = 0;
    /** @type {PuzzleQuestion | null} */
    this.question = null;
    /** @type {PuzzleResult | null} */
    this.result = null;
    /** @type {PuzzleRatingInfo | null} */
    this.sent = null;
    /** @type {string[]} */
    this.themes = [];
    this.theme = store(localStorage, THEME_KEY) || "";
    /** @type {PageStreak | null} */
    this.streak = null;
    /** @type {TableController | null} */
    this.table = null;
    /** @type {SocketHandlers | null} */
    this.handlers = null;
    this.panel = h("section", { class: "puzzle-panel", "data-testid": "puzzle-panel", "aria-labelledby": "puzzle-title" });
    this.tableRoot = h("div", { class: "puzzle-table" });
  }

  // The state on the table (the page's Rules button marks its variant).
  get state() {
    return this.table ? this.table.state : null;
  }

  start() {
    this.root.replaceChildren(h("div", { class: "puzzles" }, this.panel, this.tableRoot));
    this.loadThemes();
    if (this.mode === "streak") this.openStreak();
    else this.load();
  }

  stop() {
    this.run += 1;
    if (this.table) this.table.stop();
    this.table = null;
  }

  /** @param {string} lang */
  setLang(lang) {
    if (this.table) this.table.setLang(lang);
    this.renderPanel();
  }

  async loadThemes() {
    try {
      /** @type {PuzzleThemes} */
      const themes = await api("/api/puzzles/themes");
      this.themes = [...themes.themes];
      this.renderPanel();
    } catch (error) {
      toast(messageOf(error));
    }
  }

  // The address of the puzzle asked for: the next one, today's, a streak's, or one by id.
  questionPath() {
    if (this.mode === "daily") return "/api/puzzles/daily";
    if (this.mode === "one") return `/api/puzzles/${encodeURIComponent(this.askedId)}`;
    if (this.mode === "streak" && this.streak) return `/api/puzzles/${encodeURIComponent(this.streak.ids[this.streak.at])}`;
    const params = new URLSearchParams();
    if (this.theme) params.set("theme", this.theme);
    if (!isAccount()) {
      params.set("rating", String(Math.round(guestRating().rating)));
      params.set("seen", seenIds().join(","));
    }
    return `/api/puzzles/next?${params}`;
  }

  // An account's streak kept on the server, where it was left (in this browser or
  // another); a new one if it has none (a guest's: always a new one).
  async openStreak() {
    if (!isAccount()) return this.newStreak();
    const run = ++this.run;
    try {
      /** @type {PuzzleStreakRun} */
      const streak = await api("/api/puzzles/streak");
      if (run !== this.run) return;
      if (!streak.kept) return this.newStreak();
      this.streak = streakOf(streak);
      await this.load();
    } catch (error) {
      toast(messageOf(error));
    }
  }

  async newStreak() {
    const run = ++this.run;
    try {
      /** @type {PuzzleStreakRun} */
      const streak = await api("/api/puzzles/streak", { method: "POST" });
      if (run !== this.run) return;
      this.streak = streakOf(streak);
      await this.load();
    } catch (error) {
      toast(messageOf(error));
    }
  }

  // The streak after this answer: the server's count for a kept one (only the answer to
  // the puzzle it is at moves it), else this page's.
  /** @param {PuzzleResult} result */
  countStreak(result) {
    const streak = this.streak;
    if (!streak || !this.question || streak.ids[streak.at] !== this.question.id) return;
    if (result.streak) {
      this.streak = { ...streakOf(result.streak), at: streak.at };
    } else if (!streak.kept && !streak.over && !streak.done) {
      if (result.correct) {
        streak.solved += 1;
        streak.next = streak.at + 1;
        streak.done = streak.next >= streak.ids.length;
        streak.best = Math.max(streak.best, streak.solved);
        store(localStorage, STREAK_BEST_KEY, String(streak.best));
      } else {
        streak.over = true;
      }
    }
  }

  async load() {
    const run = ++this.run;
    /** @type {PuzzleQuestion} */
    let question;
    try {
      question = await api(this.questionPath());
    } catch (error) {
      if (run === this.run) toast(messageOf(error));
      return;
    }
    if (run !== this.run) return;
    this.question = question;
    this.result = null;
    this.sent = null;
    if (this.table) this.table.stop();
    this.table = new TableController(this.tableRoot, {
      gameId: question.id,
      token: "",
      navigate: this.navigate,
      setConnection: () => {},
      transport: (handlers) => this.transport(handlers),
      lesson: {
        status: () => (this.result ? t("puzzle_status_done") : null),
        guide: () => (this.result ? null : t("puzzle_find")),
      },
    });
    this.table.start();
    if (this.handlers) this.handlers.onMessage(question.state);
    this.renderPanel();
  }

  // What the table sends its decision through: this page, always "online".
  /**
   * @param {SocketHandlers} handlers
   * @returns {Transport}
   */
  transport(handlers) {
    this.handlers = handlers;
    return {
      connect: () => handlers.onStatus(true),
      close: () => {},
      send: (message) => {
        // The table marks itself busy once send returns: answer after that.
        if (message.type === "move") setTimeout(() => this.answer(message.move), 0);
        return true;
      },
    };
  }

  // A decision from the list: played as the table plays one.
  /** @param {string} text */
  choose(text) {
    if (this.table && !this.result && !this.closedToMe()) this.table.send(text);
  }

  // An account's puzzle answered before (another page, a reload): the server would
  // refuse another answer, so the page takes none.
  closedToMe() {
    return this.question !== null && this.question.answered && isAccount();
  }

  /** @param {string} text */
  async answer(text) {
    const question = this.question;
    if (!question || this.result) return;
    if (this.closedToMe()) {
      if (this.handlers) this.handlers.onMessage({ type: "error", code: "puzzle", message: t("puzzle_answered_before") });
      return;
    }
    const run = this.run;
    const guest = isAccount() ? null : guestRating();
    /** @type {{ answer: string, guest?: { rating: number, deviation: number, volatility: number } }} */
    const body = { answer: text };
    if (guest) body.guest = { rating: guest.rating, deviation: guest.deviation, volatility: guest.volatility };
    /** @type {PuzzleResult} */
    let result;
    try {
      result = await api(`/api/puzzles/${encodeURIComponent(question.id)}/answer`, { method: "POST", body });
    } catch (error) {
      if (run === this.run && this.handlers) this.handlers.onMessage({ type: "error", code: "puzzle", message: messageOf(error) });
      return;
    }
    if (run !== this.run) return;
    this.result = result;
    this.sent = guest;
    if (guest && result.guest) {
      const moved = { ...result.guest, attempts: guest.attempts + 1, solved: guest.solved + (result.correct ? 1 : 0) };
      store(localStorage, GUEST_RATING_KEY, JSON.stringify(moved));
    }
    if (!isAccount()) keepSeen(question.id);
    this.countStreak(result);
    if (this.table) this.table.render();
    this.renderPanel();
  }

  // The next puzzle: of the streak while it lasts; else near the rating.
  next() {
    const streak = this.streak;
    if (streak && !streak.over && !streak.done && streak.next < streak.ids.length) {
      streak.at = streak.next;
      this.load();
    } else if (this.mode === "next") {
      this.load();
    } else {
      this.navigate("/puzzles");
    }
  }

  /** @param {string} theme */
  chooseTheme(theme) {
    this.theme = theme;
    store(localStorage, THEME_KEY, theme || null);
    if (this.mode === "next") this.load();
    else this.navigate("/puzzles");
  }

  renderPanel() {
    const q = this.question;
    const mine = q && q.mine ? q.mine : isAccount() ? null : guestRating();
    const themeSelect = h("select", {
      id: "puzzle-theme", "aria-labelledby": "puzzle-theme-label",
      onchange: (event) => this.chooseTheme(event.currentTarget.value),
    }, h("option", { value: "", selected: !this.theme }, t("puzzle_theme_any")),
    this.themes.map((theme) => h("option", { value: theme, selected: theme === this.theme }, themeName(theme))));
    const streak = this.streak;
    const parts = [
      h("h2", { id: "puzzle-title" }, this.mode === "daily" ? t("puzzle_daily") : this.mode === "streak" ? t("puzzle_streak") : t("puzzles_title")),
      h("nav", { class: "puzzle-modes buttons" },
        h("button", { type: "button", id: "puzzle-next", class: this.result ? "primary" : "", onclick: () => this.next() }, t("puzzle_next")),
        h("a", { href: "/puzzles/daily", class: "button", id: "puzzle-daily-link", onclick: (event) => this.go(event, "/puzzles/daily") }, t("puzzle_daily")),
        h("a", { href: "/puzzles/streak", class: "button", id: "puzzle-streak-link", onclick: (event) => this.go(event, "/puzzles/streak") }, t("puzzle_streak")),
        h("label", {}, h("span", { id: "puzzle-theme-label" }, t("puzzle_theme_label")), " ", themeSelect)),
      mine ? h("p", { class: "puzzle-mine", "data-testid": "puzzle-mine" }, t("puzzle_rating_mine", { rating: Math.round(mine.rating) })) : null,
      streak ? h("p", { class: "puzzle-streak", "data-testid": "puzzle-streak", dataset: { solved: streak.solved, over: streak.over ? "yes" : "no", best: streak.best, kept: streak.kept ? "yes" : "no" } },
        t("puzzle_streak_count", { n: streak.solved }),
        streak.best ? [" · ", h("span", { class: "puzzle-streak-best" }, t("puzzle_streak_best", { n: streak.best }))] : null,
        streak.over ? [" ", t("puzzle_streak_over")] : null,
        streak.done ? [" ", t("puzzle_streak_done")] : null,
        streak.over || streak.done ? [" ", h("button", { type: "button", id: "puzzle-streak-new", onclick: () => this.newStreak() }, t("puzzle_streak_new"))] : null) : null,
      q ? this.renderQuestion(q) : null,
      this.result ? renderReveal(this.result, this.sent) : null,
    ];
    this.panel.replaceChildren(...parts.filter((part) => part !== null));
  }

  /**
   * @param {MouseEvent} event
   * @param {string} url
   */
  go(event, url) {
    event.preventDefault();
    this.navigate(url);
  }

  /** @param {PuzzleQuestion} q */
  renderQuestion(q) {
    const done = this.result !== null;
    return h("div", { class: "puzzle-question", dataset: { puzzle: q.id, answered: done ? "yes" : "no" } },
      h("p", { class: "puzzle-info" }, t("puzzle_info", { rating: q.rating, level: q.level }), " · ",
        h("a", { href: `/puzzles/${q.id}`, id: "puzzle-link" }, t("puzzle_share"))),
      q.themes.length ? h("p", { class: "puzzle-themes" }, t("puzzle_themes", { themes: q.themes.map(themeName).join(" · ") })) : null,
      q.answered && !done ? h("p", { class: "hint" }, t("puzzle_answered_before")) : null,
      h("h3", {}, t("puzzle_choices")),
      h("ul", { class: "puzzle-choices" }, q.decisions.map((text) => h("li", {},
        h("button", { type: "button", class: "puzzle-choice", dataset: { move: text }, disabled: done || this.closedToMe(), onclick: () => this.choose(text) }, decisionWords(text))))));
  }
}

// Learn to play (/learn): a scripted first round on the table the real game uses. The
// server sends one step at a time (GET /api/tutorial?step=N): the learner's states since
// the step before, the decision expected and the step's sentences. The table is driven by
// this script instead of a socket: a decision is checked against the step's, anything
// else is refused with the step's hint, and the right one plays the states that follow.
// The address keeps the step (/learn?step=N, N as the lesson counts them), so a reload
// resumes it; while a step is only read, the table's status line says what the lesson
// says (press Next) and offers no action.

import { h, messageOf, toast } from "./dom.js";
import { api } from "./net.js";
import { TableController } from "./table.js";

/** @typedef {import("./wire").GameCreated} CreatedGame */
/** @typedef {import("./messages").TutorialStep} TutorialStep */
/** @typedef {import("./net.js").SocketHandlers} SocketHandlers */
/** @typedef {import("./table.js").Transport} Transport */

const PAUSE_MS = 700;

/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// A decision's text with the letters of each part in order and a Competition's pairs in
// order, so that "C:GB/EG" and "C:BG/EG" are one decision, as the engine reads them.
/**
 * @param {string} text
 * @returns {string}
 */
export function canonical(text) {
  const match = /^([A-Za-z])([:>])([A-Za-z/]*)$/.exec(text.trim());
  if (!match) return text;
  const parts = match[3].toUpperCase().split("/").map((part) => [...part].sort().join(""));
  return `${match[1].toUpperCase()}${match[2]}${parts.sort().join("/")}`;
}

// The step the address asks for (/learn?step=N, N from 1), as the server counts (from 0).
function requestedStep() {
  const asked = new URLSearchParams(location.search).get("step");
  return asked && /^[1-9][0-9]{0,2}$/.test(asked) ? Number(asked) - 1 : 0;
}

// The address of the step shown, replaced (not pushed): Back leaves the lesson, a reload
// comes back to this step.
/** @param {TutorialStep} step */
function keepStep(step) {
  if (!/^\/learn\/?$/.test(location.pathname)) return;
  history.replaceState(history.state, "", step.step > 0 ? `/learn?step=${step.step + 1}` : "/learn");
}

export class TutorialView {
  /**
   * @param {HTMLElement} root
   * @param {{ navigate: (url: string) => void }} options
   */
  constructor(root, { navigate }) {
    this.root = root;
    this.navigate = navigate;
    this.run = 0; // raised by each (re)start and by stop: older fetches and pauses then do nothing
    /** @type {TutorialStep | null} */
    this.step = null;
    /** @type {TableController | null} */
    this.table = null;
    /** @type {SocketHandlers | null} */
    this.handlers = null;
    this.moving = false;
    this.hintShown = false;
    this.panel = h("section", { class: "lesson", "aria-labelledby": "lesson-title", "data-testid": "lesson" });
  }

  start() {
    this.restart(requestedStep());
  }

  // The state on the table, as a game's page has it (the page's Rules marks its variant).
  get state() {
    return this.table ? this.table.state : null;
  }

  // Leaves nothing behind: no table, no panel whose buttons could still be pressed.
  stop() {
    this.run += 1;
    if (this.table) this.table.stop();
    this.table = null;
    this.root.replaceChildren();
  }

  /** @param {string} lang */
  async setLang(lang) {
    if (!this.step) return;
    const run = this.run;
    const step = await this.load(this.step.step, run);
    if (!step) return;
    this.step = step;
    this.renderPanel();
    if (this.table) this.table.setLang(lang);
  }

  // The lesson from step `index` (0: its start); a step the server does not know (an
  // address edited by hand) starts it from the beginning.
  /** @param {number} [index] */
  async restart(index = 0) {
    this.stop();
    const run = this.run;
    this.step = null;
    this.moving = false;
    this.panel = h("section", { class: "lesson", "aria-labelledby": "lesson-title", "data-testid": "lesson" });
    const tableRoot = h("div", { class: "lesson-table" });
    this.root.replaceChildren(h("div", { class: "learn" }, this.panel, tableRoot));
    let first = await this.load(index, run, { quiet: index > 0 });
    if (!first && index > 0 && run === this.run) first = await this.load(0, run);
    if (!first) return;
    this.table = new TableController(tableRoot, {
      gameId: "tutorial",
      token: "",
      navigate: this.navigate,
      setConnection: () => {},
      transport: (handlers) => this.transport(handlers),
      lesson: { status: () => this.status(), guide: () => this.guide() },
    });
    this.table.start();
    await this.show(first, run, { resume: first.step > 0 });
  }

  // What the table's status line says instead of its own while a step is only read (the
  // step's hint: press Next, or the lesson is over); null on a step that asks a decision.
  status() {
    return this.step && !this.step.move ? this.step.hint : null;
  }

  // What the decision bar says a step that asks a decision asks for (its hint); else null.
  guide() {
    return this.step && this.step.move ? this.step.hint : null;
  }

  // What the table sends decisions through: this script, always "online".
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
        if (message.type === "move") setTimeout(() => this.decide(message.move), 0);
        return true;
      },
    };
  }

  /**
   * @param {number} index
   * @param {number} run
   * @param {{ quiet?: boolean }} [options]
   * @returns {Promise<TutorialStep | null>}
   */
  async load(index, run, { quiet = false } = {}) {
    try {
      /** @type {TutorialStep} */
      const step = await api(`/api/tutorial?step=${index}`);
      return run === this.run ? step : null;
    } catch (error) {
      if (run === this.run && !quiet) toast(messageOf(error));
      return null;
    }
  }

  // The step's states, one decision at a time, then its sentences; resumed (a reload, an
  // address with its step), the step's own state at once. The first step shown is the
  // step of its states: the table's status line speaks for it from the start.
  /**
   * @param {TutorialStep} step
   * @param {number} run
   * @param {{ resume?: boolean }} [options]
   */
  async show(step, run, { resume = false } = {}) {
    if (!this.step) this.step = step;
    const frames = resume ? [step.state] : step.frames;
    for (const [index, state] of frames.entries()) {
      if (index > 0) await pause(PAUSE_MS);
      if (run !== this.run || !this.handlers) return;
      this.handlers.onMessage(state);
    }
    if (run !== this.run) return;
    this.step = step;
    this.hintShown = false;
    this.moving = false;
    keepStep(step);
    if (this.table && this.table.state) this.table.render();
    this.renderPanel();
    // The new step's words, wherever the last decision left the page scrolled.
    if (step.step > 0) this.panel.scrollIntoView({ block: "nearest" });
  }

  /** @param {string} text */
  decide(text) {
    const step = this.step;
    if (this.moving || !step) return;
    if (!step.move || canonical(text) !== canonical(step.move.text)) {
      this.hintShown = true;
      this.renderPanel();
      if (this.handlers) this.handlers.onMessage({ type: "error", code: "tutorial_hint", message: step.hint });
      return;
    }
    this.next();
  }

  async next() {
    if (this.moving || !this.step || this.step.last) return;
    const run = this.run;
    this.moving = true;
    this.renderPanel();
    const step = await this.load(this.step.step + 1, run);
    if (!step) {
      if (run === this.run) this.moving = false;
      return;
    }
    await this.show(step, run);
  }

  async playForReal() {
    try {
      /** @type {CreatedGame} */
      const created = await api("/api/games", {
        method: "POST",
        body: { opponent: "bot", level: 1, variant: "classic", first: "me" },
      });
      this.navigate(`/g/${created.id}#t=${created.token}`);
    } catch (error) {
      toast(messageOf(error));
    }
  }

  renderPanel() {
    const step = this.step;
    if (!step) return;
    const labels = step.labels;
    const forward = step.last
      ? h("button", { type: "button", class: "primary", id: "lesson-play", onclick: () => this.playForReal() }, labels.play)
      : step.move
        ? null
        : h("button", { type: "button", class: "primary", id: "lesson-next", disabled: this.moving, onclick: () => this.next() }, labels.next);
    this.panel.dataset.step = String(step.step);
    this.panel.dataset.moving = this.moving ? "yes" : "no";
    const parts = [
      h("p", { class: "lesson-progress" }, step.progress),
      h("h2", { id: "lesson-title" }, step.title),
      h("p", { class: "lesson-do", "aria-live": "polite" }, step.do),
      h("p", { class: "lesson-why" }, step.why),
      this.hintShown ? h("p", { class: "lesson-hint", role: "alert", "data-testid": "lesson-hint" }, step.hint) : null,
      h("div", { class: "buttons" },
        forward,
        h("button", { type: "button", id: "lesson-restart", onclick: () => this.restart() }, labels.restart),
        h("button", { type: "button", id: "lesson-leave", onclick: () => this.navigate("/") }, labels.leave)),
    ];
    this.panel.replaceChildren(...parts.filter((part) => part !== null));
  }
}

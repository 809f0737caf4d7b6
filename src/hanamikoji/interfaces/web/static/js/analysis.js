// The analysis of a finished game (the server's /api/games/ID/analysis): an "Analyse"
// button, a progress bar while the server works, then each decision's win chance on a
// graph for both players, its label (inaccuracy, mistake, blunder: each its own shape as
// well as its own colour), a list of the decisions, and, for the one chosen, its position
// from the side of the player who made it with the best decision's cards starred.

import { currentPlayer } from "./account.js";
import { h, messageOf, toast } from "./dom.js";
import { currentLang, describeMove, seatName, t, tCount } from "./i18n.js";
import { api } from "./net.js";
import { renderFullTable, replayFrames } from "./replay.js";

/** @typedef {import("./messages").AnalysedDecision} Decision */
/** @typedef {import("./messages").AnalysisBody} AnalysisBody */
/** @typedef {import("./messages").AnalysisDone} AnalysisDone */
/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").ReplayFrame} ReplayFrame */
/** @typedef {{ onDecision?: (decision: Decision) => void }} AnalysisOptions */

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1000;
const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 30 };
const LABELS = ["inaccuracy", "mistake", "blunder"];
let views = 0;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attributes]
 * @param {...(Node | null)} children
 * @returns {SVGElement}
 */
function svg(tag, attributes = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  for (const child of children) if (child) el.append(child);
  return el;
}

/** @param {number} value */
function percent(value) {
  return Math.round(value * 100);
}

// A marker's shape, centred on (x, y): a dot for a decision without a label, a triangle
// for an inaccuracy, a square for a mistake, a cross for a blunder.
/**
 * @param {string | null} label
 * @param {number} x
 * @param {number} y
 */
function markerShape(label, x, y) {
  if (label === "inaccuracy") return svg("polygon", { points: `${x},${y - 6} ${x + 6},${y + 5} ${x - 6},${y + 5}` });
  if (label === "mistake") return svg("rect", { x: x - 5, y: y - 5, width: 10, height: 10 });
  if (label === "blunder") return svg("path", { d: `M${x - 6},${y - 6}L${x + 6},${y + 6}M${x + 6},${y - 6}L${x - 6},${y + 6}` });
  return svg("circle", { cx: x, cy: y, r: 3.5 });
}

export class AnalysisView {
  // `state`: the page's seat state (for the players' names); `onDecision`: also called
  // with a decision when it is chosen (the replay steps to it).
  /**
   * @param {string} gameId
   * @param {string} token
   * @param {GameState} state
   * @param {AnalysisOptions} [options]
   */
  constructor(gameId, token, state, { onDecision } = {}) {
    this.gameId = gameId;
    this.token = token;
    this.state = state;
    this.onDecision = onDecision;
    /** @type {{ done: number, total: number } | null} */
    this.progress = null;
    /** @type {AnalysisDone | null} */
    this.analysis = null;
    /** @type {number | null} */
    this.chosen = null;
    this.polling = false;
    this.lang = currentLang();
    views += 1;
    this.titleId = `analysis-title-${views}`;
    this.element = h("section", { class: "analysis", "aria-labelledby": this.titleId, "data-testid": "analysis" });
    this.render();
  }

  // Drawn again in the page's language if it changed since.
  refresh() {
    if (this.lang === currentLang()) return;
    this.lang = currentLang();
    this.render();
    const chosen = this.analysis && this.analysis.decisions.find((d) => d.ply === this.chosen);
    if (chosen) this.choose(chosen);
  }

  render() {
    const title = h("h3", { id: this.titleId }, t("analysis_title"));
    if (this.analysis) {
      this.element.replaceChildren(title, ...this.renderAnalysis(this.analysis));
      return;
    }
    const busy = this.progress !== null;
    const button = h("button", { type: "button", class: "analyse", disabled: busy, onclick: () => this.start() }, t("analyse"));
    this.element.replaceChildren(title, button, ...(busy ? [this.renderProgress()] : []));
  }

  renderProgress() {
    const { done, total } = this.progress || { done: 0, total: 0 };
    const label = t("analysis_progress", { done, total });
    return h("div", { class: "analysis-progress" },
      h("progress", { max: Math.max(total, 1), value: done, "aria-label": label }),
      h("span", { role: "status", "aria-live": "polite" }, label));
  }

  async start() {
    this.progress = { done: 0, total: 0 };
    this.render();
    try {
      this.receive(await api(`/api/games/${this.gameId}/analysis`, { method: "POST", token: this.token }));
    } catch (error) {
      this.progress = null;
      this.render();
      toast(messageOf(error));
    }
  }

  /** @param {AnalysisBody} answer */
  receive(answer) {
    if (answer.status === "done") {
      this.progress = null;
      this.analysis = answer;
    } else if (answer.status === "running") {
      this.progress = answer;
      this.poll();
    } else {
      this.progress = null;
      toast(t("analysis_failed"));
    }
    this.render();
  }

  poll() {
    if (this.polling) return;
    this.polling = true;
    setTimeout(async () => {
      this.polling = false;
      if (!this.element.isConnected) return;
      try {
        this.receive(await api(`/api/games/${this.gameId}/analysis`, { token: this.token }));
      } catch (error) {
        this.progress = null;
        this.render();
        toast(messageOf(error));
      }
    }, POLL_MS);
  }

  // -- the analysis -----------------------------------------------------------------------

  /** @param {AnalysisDone} analysis */
  renderAnalysis(analysis) {
    const judged = analysis.decisions.filter((d) => !d.forced);
    const summary = h("ul", { class: "analysis-summary" }, analysis.summary.map((s) => h("li", {}, t("analysis_summary", {
      player: seatName(this.state, s.seat - 1), decisions: tCount("n_decisions", s.decisions), cost: percent(s.mean_cost),
      inaccuracies: tCount("n_inaccuracies", s.inaccuracies), mistakes: tCount("n_mistakes", s.mistakes),
      blunders: tCount("n_blunders", s.blunders),
    }))));
    return [
      h("p", { class: "hint" }, t("analysis_reading")),
      summary,
      this.renderGraph(analysis, judged),
      this.renderLegend(),
      h("ol", { class: "analysis-list", "data-testid": "analysis-list" }, this.renderRows(analysis)),
      h("div", { class: "analysis-detail", "data-testid": "analysis-detail", "aria-live": "polite" }),
    ];
  }

  // "R1 T3 You: Gift: flute (Ayane), ... — mistake (−12%) · best Competition: ...": the
  // decisions in words, as the table and its log say them.
  /** @param {Decision} d */
  describe(d) {
    const head = t("analysis_decision", { round: d.round, turn: d.turn, player: seatName(this.state, d.seat - 1), move: describeMove(d.played_move) });
    if (d.forced) return `${head} — ${t("analysis_forced")}`;
    const chance = t("analysis_chance", { chance: percent(d.played_value) });
    if (!d.label) return `${head} — ${chance}`;
    const cost = t("analysis_cost", { label: t(`label_${d.label}`), cost: percent(d.cost) });
    return `${head} — ${cost} · ${t("analysis_best", { move: describeMove(d.best_move) })}`;
  }

  // The decisions, each round under its heading (as the table's log has them).
  /** @param {AnalysisDone} analysis */
  renderRows(analysis) {
    const rows = [];
    let round = 0;
    for (const d of analysis.decisions) {
      if (d.round !== round) {
        round = d.round;
        rows.push(h("li", { class: "round-heading" }, t("round_of", { round })));
      }
      rows.push(this.renderRow(d));
    }
    return rows;
  }

  /** @param {Decision} d */
  renderRow(d) {
    return h("li", { class: d.label ? `labelled ${d.label}` : "" },
      h("button", {
        type: "button",
        class: "analysis-row",
        dataset: { ply: d.ply, label: d.label || "none" },
        "aria-pressed": this.chosen === d.ply ? "true" : "false",
        onclick: () => this.choose(d),
      }, this.describe(d)));
  }

  /**
   * @param {AnalysisDone} analysis
   * @param {Decision[]} judged
   */
  renderGraph(analysis, judged) {
    const decisions = analysis.decisions.length;
    const innerW = WIDTH - PAD.left - PAD.right;
    const innerH = HEIGHT - PAD.top - PAD.bottom;
    /** @param {number} ply */
    const x = (ply) => PAD.left + (decisions > 1 ? ((ply - 1) / (decisions - 1)) * innerW : innerW / 2);
    /** @param {number} value */
    const y = (value) => PAD.top + (1 - value) * innerH;
    const graph = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "analysis-graph", role: "group", "aria-label": t("analysis_graph"), "data-testid": "analysis-graph" });
    for (const level of [0, 0.25, 0.5, 0.75, 1]) {
      graph.append(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(level), y2: y(level), class: level === 0.5 ? "grid middle" : "grid" }));
      const tick = svg("text", { x: PAD.left - 6, y: y(level) + 4, "text-anchor": "end", class: "tick" });
      tick.textContent = `${percent(level)}%`;
      graph.append(tick);
    }
    const axis = svg("text", { x: PAD.left + innerW / 2, y: HEIGHT - 6, "text-anchor": "middle", class: "tick" });
    axis.textContent = `${t("analysis_axis_x")} → · ↑ ${t("analysis_axis_y")}`;
    graph.append(axis);
    for (const seat of [1, 2]) {
      const own = judged.filter((d) => d.seat === seat);
      if (own.length > 1) {
        const points = own.map((d) => `${x(d.ply)},${y(d.played_value)}`).join(" ");
        graph.append(svg("polyline", { points, class: `line seat${seat}` }));
      }
    }
    this.renderRounds(analysis, graph, x, innerH);
    for (const d of judged) graph.append(this.renderPoint(d, x(d.ply), y(d.played_value)));
    return h("div", { class: "analysis-graph-box" }, graph);
  }

  // Where each round after the first begins: a line between its first decision and the
  // last of the round before, named at the top ("Round 2").
  /**
   * @param {AnalysisDone} analysis
   * @param {SVGElement} graph
   * @param {(ply: number) => number} x
   * @param {number} innerH
   */
  renderRounds(analysis, graph, x, innerH) {
    const decisions = analysis.decisions;
    decisions.forEach((d, index) => {
      if (index === 0 || d.round === decisions[index - 1].round) return;
      const at = (x(decisions[index - 1].ply) + x(d.ply)) / 2;
      const label = t("round_of", { round: d.round });
      const name = svg("text", { x: at + 3, y: PAD.top + 9, class: "round-label" });
      name.textContent = label;
      graph.append(svg("g", { class: "round-marker", "data-round": d.round, role: "img", "aria-label": label },
        svg("line", { x1: at, x2: at, y1: PAD.top, y2: PAD.top + innerH }), name));
    });
  }

  /**
   * @param {Decision} d
   * @param {number} px
   * @param {number} py
   */
  renderPoint(d, px, py) {
    const name = this.describe(d);
    const point = svg("g", {
      class: `point seat${d.seat} ${d.label || "none"}${this.chosen === d.ply ? " chosen" : ""}`,
      tabindex: 0,
      role: "button",
      "aria-label": name,
      "data-ply": d.ply,
      "data-label": d.label || "none",
    }, svg("circle", { cx: px, cy: py, r: 9, class: "hit" }), markerShape(d.label, px, py), svg("title", {}));
    /** @type {ChildNode} */ (point.lastChild).textContent = name;
    point.addEventListener("click", () => this.choose(d));
    point.addEventListener("keydown", /** @param {KeyboardEvent} event */ (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        this.choose(d);
      }
    });
    return point;
  }

  renderLegend() {
    /**
     * @param {string} label
     * @param {string} text
     */
    const entry = (label, text) => h("li", {},
      svg("svg", { viewBox: "0 0 16 16", class: `legend-mark ${label}`, "aria-hidden": "true" }, markerShape(label, 8, 8)),
      ` ${text}`);
    return h("ul", { class: "analysis-legend" },
      entry("none", t("analysis_good")),
      LABELS.map((label) => entry(label, t(`label_${label}`))),
      [1, 2].map((seat) => h("li", {},
        svg("svg", { viewBox: "0 0 24 8", class: "legend-line", "aria-hidden": "true" }, svg("line", { x1: 0, x2: 24, y1: 4, y2: 4, class: `line seat${seat}` })),
        ` ${seatName(this.state, seat - 1)}`)));
  }

  // -- one decision ----------------------------------------------------------------------

  /** @param {Decision} d */
  async choose(d) {
    this.chosen = d.ply;
    for (const el of /** @type {NodeListOf<HTMLElement | SVGElement>} */ (this.element.querySelectorAll("[data-ply]"))) {
      const on = Number(el.dataset.ply) === d.ply;
      if (el.tagName === "BUTTON") el.setAttribute("aria-pressed", on ? "true" : "false");
      else el.classList.toggle("chosen", on);
    }
    if (this.onDecision) this.onDecision(d);
    let frames;
    try {
      frames = await replayFrames(this.gameId, this.token);
    } catch (error) {
      toast(messageOf(error));
      return;
    }
    const detail = this.element.querySelector(".analysis-detail");
    if (detail && this.chosen === d.ply) detail.replaceChildren(...this.renderDecision(d, frames[d.ply - 1]).filter((part) => part !== null));
  }

  /**
   * @param {Decision} d
   * @param {ReplayFrame} frame
   */
  renderDecision(d, frame) {
    const mover = d.seat - 1;
    /**
     * @param {string} name
     * @param {import("./wire").MoveInfo} move
     * @param {number | null} value
     */
    const line = (name, move, value) => [
      h("dt", {}, name),
      h("dd", {}, describeMove(move), value === null ? "" : ` · ${t("analysis_chance", { chance: percent(value) })}`),
    ];
    const better = !d.forced && d.best !== d.played;
    const answer = d.best_move.kind.endsWith("response");
    const best = better && !answer ? d.best_move.cards : [];
    return [
      h("h4", {}, t("analysis_view", { ply: d.ply, player: seatName(this.state, mover, { you: false }) })),
      h("p", { class: "analysis-verdict" }, this.describe(d)),
      h("dl", { class: "analysis-moves" },
        line(t("analysis_played"), d.played_move, d.played_value),
        d.forced ? null : line(t("analysis_best_move"), d.best_move, d.best_value),
        better ? [h("dt", { class: "best-cards" }, "★"), h("dd", {}, t("analysis_best_cards"))] : null),
      this.makePuzzleButton(d),
      renderFullTable(this.state, frame, { bottom: mover, best, bestOption: better && answer ? d.best : null }),
    ];
  }

  // "Make this a puzzle" beside a decision of one's own (a signed-in player's seat):
  // the server judges it exactly and opens it as a puzzle, or says why it is none.
  /** @param {Decision} d */
  makePuzzleButton(d) {
    if (d.forced || currentPlayer() === null || d.seat - 1 !== this.state.seat) return null;
    return h("p", {}, h("button", { type: "button", class: "make-puzzle", "data-puzzle-ply": d.ply, onclick: async (/** @type {MouseEvent} */ event) => {
      const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
      button.disabled = true;
      try {
        /** @type {import("./wire").PuzzleMade} */
        const made = await api("/api/puzzles/make", { method: "POST", body: { game: this.gameId, ply: d.ply } });
        location.assign(`/puzzles/${made.id}`);
      } catch (error) {
        button.disabled = false;
        toast(messageOf(error));
      }
    } }, t("puzzle_make")));
  }
}

// The game table. It draws only what the server's state message holds for this seat,
// and sends decisions in the notation (S:D, T:AG, G:DDG, C:AB/FG, G>D, C>FG); the server
// checks every one.

import { h, hideToast, messageOf, store, toast } from "./dom.js";
import { actionFace, cardBack, favorText, geishaCard, itemCard, tile } from "./cards.js";
import {
  CARDS_PER_ACTION, KINDS, KIND_LETTERS, actionName, cardLabel, cardsInWords, charmOf, describeMove,
  geishaName, itemName, letterOf, outcomeSentence, seatName, t, tCount, term, variantName,
} from "./i18n.js";
import { GameSocket, REPLACED, api } from "./net.js";
import { AnalysisView } from "./analysis.js";
import { clockBar } from "./clock.js";
import { hintPanel } from "./hint.js";
import { lastMoveMarks, noMarks } from "./lastmove.js";
import { openReplay } from "./replay.js";
import { EndRatings } from "./ratings.js";
import { renderSummary, scoreText, showDialog } from "./summary.js";
import { tip } from "./tooltip.js";

/** @typedef {import("./messages").ActionKind} ActionKind */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").GameMessage} GameMessage */
/** @typedef {import("./messages").GameRequest} GameRequest */
/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./messages").Move} Move */
/** @typedef {import("./messages").Pending} Pending */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {import("./lastmove.js").Mark} Mark */
/** @typedef {import("./lastmove.js").Marks} Marks */
/** @typedef {import("./net.js").SocketHandlers} SocketHandlers */

/**
 * What carries the table's decisions: the game's socket, a spectator's, or the lesson's
 * script. `reopen` (a socket's) connects again after a fatal close.
 * @typedef {object} Transport
 * @property {() => void} connect
 * @property {() => void} close
 * @property {(message: GameRequest) => boolean} send
 * @property {() => void} [reopen]
 * @property {boolean} [closed]
 */

/**
 * What the lesson tells the table: its status line while a step is only read, and what
 * a step asks for (null: nothing).
 * @typedef {{ status: () => string | null, guide: () => string | null }} Lesson
 */

/**
 * @typedef {object} TableOptions
 * @property {string} gameId
 * @property {string} token
 * @property {(url: string) => void} navigate
 * @property {(online: boolean | null) => void} setConnection
 * @property {(handlers: SocketHandlers) => Transport} [transport]
 * @property {Lesson | null} [lesson]
 */

const ROW = [0, 1, 2, 3, 4, 5, 6];
// The three ways to split four cards (by their place in the choice) into two pairs.
const SPLITS = [[[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0, 3], [1, 2]]];

// The key of each action: its number, the same in every language (1 Secret .. 4 Competition).
/** @param {ActionKind} kind */
function actionKey(kind) {
  return String(KINDS.indexOf(kind) + 1);
}

export class TableView {
  // transport(handlers) makes what carries decisions: the game's WebSocket unless given
  // (the lesson at /learn passes its script, which answers with states and errors, and
  // `lesson`, whose status() says what the status line says while a step is only read,
  // and guide() what a step asks for, said again in the decision bar).
  /**
   * @param {HTMLElement} root
   * @param {TableOptions} options
   */
  constructor(root, { gameId, token, navigate, setConnection, transport, lesson = null }) {
    this.root = root;
    this.lesson = lesson;
    this.gameId = gameId;
    this.token = token;
    this.navigate = navigate;
    this.setConnection = setConnection;
    /** @type {GameState | null} */
    this.state = null;
    this.busy = false;
    this.online = false;
    // Log entries from this index on arrived with the latest state: their marks animate once.
    this.freshFrom = Infinity;
    /** @type {ActionKind | null} */
    this.action = null;
    /** @type {number[]} */
    this.picked = [];
    this.pairing = 0;
    /** @type {number | null} */
    this.option = null;
    this.resetSelection();
    /** @type {Marks} */
    this.marks = noMarks();
    /** @type {EndRatings | null} */
    this.ratings = null;
    /** @type {AnalysisView | null} */
    this.analysis = null;
    this.onKey = this.onKey.bind(this);
    /** @type {(handlers: SocketHandlers) => Transport} */
    const connect = transport || ((handlers) => new GameSocket(gameId, token, handlers));
    this.socket = connect({
      onMessage: (message) => this.onMessage(message),
      onStatus: (online) => {
        this.online = online;
        // A move in flight when the connection dropped was recorded (the state after the
        // reconnection shows it) or lost: either way the table waits for it no longer.
        if (!online) this.busy = false;
        this.setConnection(online);
        if (this.state) this.render();
      },
      onFatal: (code) => (code === REPLACED ? this.renderReplaced() : this.renderNoSeat()),
    });
  }

  start() {
    document.addEventListener("keydown", this.onKey);
    this.socket.connect();
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
    this.socket.close();
    for (const dialog of document.querySelectorAll("dialog")) dialog.remove();
  }

  // The state drawn: the table draws nothing before one arrives.
  /** @returns {GameState} */
  current() {
    if (!this.state) throw new Error("no state yet");
    return this.state;
  }

  // The seat drawn at the bottom: the page's own, Player 1's on a spectator's page.
  /** @returns {Seat} */
  viewer() {
    return this.current().seat ?? 0;
  }

  // The other seat than the page's own (Player 2's on a spectator's page).
  /** @returns {Seat} */
  opponent() {
    return 1 - this.viewer();
  }

  // Whether the transport was closed for good (the page left the table).
  closed() {
    return this.socket.closed === true;
  }

  /** @param {string} lang */
  setLang(lang) {
    this.socket.send({ type: "lang", lang });
    if (this.state) this.render();
  }

  resetSelection() {
    this.action = null;
    this.picked = [];
    this.pairing = 0;
    this.option = null;
  }

  // -- messages ------------------------------------------------------------------------

  /** @param {GameMessage} message */
  onMessage(message) {
    if (message.type === "error") {
      toast(message.message);
      this.busy = false;
      if (this.state) this.render();
      return;
    }
    if (message.type !== "state") return;
    const previous = this.state;
    if (previous && message.ply < previous.ply) return;
    if (!previous || message.ply !== previous.ply) {
      this.resetSelection();
      this.busy = false;
      hideToast();
    }
    this.freshFrom = previous && message.ply !== previous.ply ? previous.log.length : Infinity;
    this.state = message;
    this.render();
    this.freshFrom = Infinity;
    // The table opens at its top (the status line), wherever the page before was scrolled.
    if (!previous) window.scrollTo(0, 0);
    this.showNewScoring();
  }

  /** @param {string} move */
  send(move) {
    if (this.busy || !this.online) return;
    if (this.socket.send({ type: "move", move, ply: this.current().ply })) {
      this.busy = true;
      this.render();
    }
  }

  // -- what is being chosen ------------------------------------------------------------

  /** @returns {boolean} */
  myTurn() {
    const s = this.state;
    return s !== null && !s.outcome && !this.watching() && s.to_move === s.seat && !this.lessonStatus();
  }

  // The lesson's own status line (a step that is only read), or null.
  lessonStatus() {
    return this.lesson ? this.lesson.status() : null;
  }

  // A spectator's page (/w/ID): the state has no seat, no hand and no controls; the table
  // is drawn from Player 1's side, both hands as backs, read-only.
  watching() {
    return this.state !== null && this.state.seat === null;
  }

  choosingAction() {
    return this.myTurn() && this.current().phase === "turn";
  }

  answering() {
    return this.myTurn() && (this.current().phase === "gift-response" || this.current().phase === "competition-response");
  }

  /** @param {ActionKind} kind */
  available(kind) {
    return !this.current().used[this.viewer()].includes(kind);
  }

  pickedCards() {
    return this.picked.map((index) => this.current().hand[index]);
  }

  // The decision the current choice makes, or null while it is incomplete.
  /** @returns {Move | null} */
  composedMove() {
    if (this.answering()) {
      return this.option === null ? null : this.pending().options[this.option];
    }
    if (!this.choosingAction() || !this.action) return null;
    const cards = this.pickedCards();
    if (cards.length !== CARDS_PER_ACTION[this.action]) return null;
    if (this.action === "competition") return competitionMove(this.pairings()[this.pairing]);
    return {
      text: `${KIND_LETTERS[this.action]}:${letters([...cards].sort())}`,
      kind: this.action,
      cards: [...cards].sort(),
      pairs: [],
      hidden: false,
    };
  }

  // The different pairings of the four cards chosen for a Competition, the first pair
  // chosen first. Splits of the same cards are one decision, offered once (as the
  // terminal does): fan, fan, scroll, scroll pairs as fans / scrolls or fan + scroll twice.
  /** @returns {Card[][][]} */
  pairings() {
    const cards = this.pickedCards();
    if (cards.length !== 4) return [];
    /** @type {Map<string, Card[][]>} */
    const found = new Map();
    for (const split of SPLITS) {
      const pairs = split.map((pair) => pair.map((i) => cards[i]));
      const key = pairs.map((pair) => [...pair].sort((a, b) => a - b).join("")).sort().join("/");
      if (!found.has(key)) found.set(key, pairs);
    }
    return [...found.values()];
  }

  // The offer on the table (there is one while an answer is chosen or awaited).
  /** @returns {Pending} */
  pending() {
    const pending = this.current().pending;
    if (!pending) throw new Error("no offer on the table");
    return pending;
  }

  /** @param {ActionKind} kind */
  chooseAction(kind) {
    if (!this.choosingAction() || !this.available(kind)) return;
    this.action = this.action === kind ? null : kind;
    if (this.action) this.picked = this.picked.slice(0, CARDS_PER_ACTION[this.action]);
    this.pairing = 0;
    this.render();
  }

  /** @param {number} index */
  toggleCard(index) {
    if (!this.choosingAction() || index >= this.current().hand.length) return;
    const at = this.picked.indexOf(index);
    if (at >= 0) {
      this.picked.splice(at, 1);
    } else {
      const limit = this.action ? CARDS_PER_ACTION[this.action] : 4;
      if (this.picked.length >= limit) return;
      this.picked.push(index);
    }
    this.pairing = 0;
    this.render();
  }

  /** @param {number} index */
  chooseOption(index) {
    if (!this.answering() || index >= this.pending().options.length) return;
    this.option = this.option === index ? null : index;
    this.render();
  }

  confirm() {
    const move = this.composedMove();
    if (move) this.send(move.text);
  }

  clear() {
    this.resetSelection();
    this.render();
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target instanceof Element && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (!this.myTurn()) return;
    const key = event.key.toLowerCase();
    if (key === "escape") {
      this.clear();
    } else if (key === "enter") {
      if (this.composedMove()) {
        event.preventDefault();
        this.confirm();
      }
    } else if (/^[1-9]$/.test(key)) {
      this.numberKey(Number(key));
    } else if (this.choosingAction() && key === "p" && this.action === "competition" && this.picked.length === 4) {
      this.pairing = (this.pairing + 1) % this.pairings().length;
      this.render();
    } else {
      return;
    }
    event.preventDefault();
  }

  // The number keys: an answer to an offer; else an action (1-4) until one is chosen, then
  // the cards of the hand (1-9).
  /** @param {number} number */
  numberKey(number) {
    if (this.answering()) this.chooseOption(number - 1);
    else if (this.action) this.toggleCard(number - 1);
    else if (number <= KINDS.length) this.chooseAction(KINDS[number - 1]);
  }

  // -- drawing -------------------------------------------------------------------------

  render() {
    const s = this.current();
    const active = document.activeElement;
    const focused = active instanceof HTMLElement || active instanceof SVGElement ? active.dataset.fkey : null;
    const me = this.viewer();
    const opponent = 1 - me;
    this.marks = lastMoveMarks(s, this.freshFrom);
    this.root.replaceChildren(
      h("section", {
        class: "game",
        "aria-label": "Hanamikoji",
        dataset: { ply: s.ply, phase: s.phase, mine: this.myTurn() ? "yes" : "no", busy: this.busy ? "yes" : "no" },
      },
        this.renderInvite(),
        this.renderStatus(),
        clockBar(this),
        h("div", { class: "layout" },
          h("div", { class: "board" },
            this.renderSide(opponent),
            this.renderRow(),
            this.renderSide(me),
            s.outcome ? this.renderEnd() : (this.watching() ? null : this.renderComposer()),
            this.watching() ? null : hintPanel(this)),
          h("aside", { class: "panel" }, this.renderLog(), this.renderTracker()))),
    );
    const log = this.root.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
    if (focused) {
      const again = /** @type {HTMLElement | null} */ (this.root.querySelector(`[data-fkey="${CSS.escape(focused)}"]`));
      if (again) again.focus();
    }
  }

  // Newer pages took this seat: say so, and offer to take it back here.
  renderReplaced() {
    this.root.replaceChildren(h("section", { class: "no-seat", "data-testid": "seat-replaced" },
      h("p", {}, t("err_replaced")),
      h("p", {}, h("button", { type: "button", class: "primary", onclick: () => { if (this.socket.reopen) this.socket.reopen(); } }, t("seat_reopen")))));
  }

  renderNoSeat() {
    this.root.replaceChildren(h("section", { class: "no-seat" },
      h("p", {}, t("no_seat")),
      h("p", {}, h("a", { href: "/", class: "button primary" }, t("new_game")))));
  }

  renderInvite() {
    const s = this.current();
    const key = `hanamikoji.invite.${this.gameId}`;
    const friendToken = store(sessionStorage, key);
    if (!friendToken || s.seat !== 0 || s.players[1] !== "human") return null;
    if (s.connected[1]) {
      store(sessionStorage, key, null);
      return null;
    }
    const link = `${location.origin}/g/${this.gameId}#t=${friendToken}`;
    const input = h("input", { type: "text", readonly: true, value: link, id: "invite-link", "aria-labelledby": "invite-title", onfocus: (e) => e.currentTarget.select() });
    const copy = h("button", { type: "button", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
      } catch (e) {
        input.select();
        document.execCommand("copy");
      }
      copy.textContent = t("copied");
    } }, t("copy"));
    return h("div", { class: "invite" },
      h("h2", { id: "invite-title" }, t("invite_title")),
      h("p", {}, t("invite_text")),
      h("div", { class: "invite-row" }, input, copy));
  }

  statusText() {
    const s = this.current();
    const opponent = this.opponent();
    const name = seatName(s, opponent);
    if (s.outcome) return t("status_over");
    if (this.lessonStatus()) return this.lessonStatus();
    if (this.watching()) return t("watch_status", { player: seatName(s, s.to_move) });
    if (s.to_move === s.seat) {
      if (s.phase === "gift-response") return t("status_answer_gift", { player: name, action: actionName("gift") });
      if (s.phase === "competition-response") return t("status_answer_competition", { player: name, action: actionName("competition") });
      return t("status_your_turn");
    }
    if (s.pending) return t("status_waiting_answer", { player: name, action: actionName(s.pending.kind) });
    return t("status_waiting", { player: name });
  }

  renderStatus() {
    const s = this.current();
    const round = s.max_rounds ? t("round_of_max", { round: s.round, max: s.max_rounds }) : t("round_of", { round: s.round });
    const away = !this.watching() && s.players[this.opponent()] === "human" && !s.connected[this.opponent()] && !s.outcome;
    return h("div", { class: "status" },
      h("div", { class: "facts" },
        h("span", {}, round),
        h("span", { "data-testid": "variant" }, variantName(s.variant)),
        h("span", { class: "deck", "data-testid": "deck" }, tCount("deck_cards", s.deck)),
        h("span", {}, this.watching() ? t("watch_title") : t("you_are", { player: t("player", { number: this.viewer() + 1 }) }))),
      h("p", { class: `turn${this.myTurn() ? " mine" : ""}`, role: "status", "aria-live": "polite", id: "status-text" }, this.statusText()),
      away ? h("p", { class: "away" }, t("opponent_away")) : null);
  }

  // -- the last decisions ----------------------------------------------------------------

  // The sentence a marked element's explanation ends with: whose last decision moved it
  // (`seat`, when the element says; a spectator's page names that player, or none).
  /**
   * @param {Mark | null | undefined} mark
   * @param {Seat | null} [seat]
   * @returns {string}
   */
  lastTip(mark, seat = null) {
    if (!mark) return "";
    if (this.watching()) return seat === null ? t("tip_last_watch") : t("tip_last_theirs", { player: seatName(this.current(), seat) });
    return mark.by === "theirs" ? t("tip_last_theirs", { player: seatName(this.current(), this.opponent()) }) : t("tip_last_mine");
  }

  // Classes of an element the latest decisions marked (the animation only as they arrive).
  /**
   * @param {Mark | null | undefined} mark
   * @returns {string}
   */
  lastClass(mark) {
    if (!mark) return "";
    return ` last last-${mark.by}${mark.fresh ? " arrive" : ""}`;
  }

  /** @param {Seat} seat */
  renderLastDecision(seat) {
    const run = this.marks.runs[seat];
    if (!run.length) return null;
    const mine = seat === this.current().seat;
    return h("p", { class: `last-move last-${mine ? "mine" : "theirs"}`, "data-testid": mine ? "my-last" : "their-last" },
      t("last_decision", { moves: run.map(({ entry }) => describeMove(entry)).join(" · ") }));
  }

  // -- the sides ---------------------------------------------------------------------------

  /**
   * @param {ActionKind} kind
   * @param {boolean} used
   * @param {Mark | undefined} mark
   * @param {Seat} seat
   */
  markerTip(kind, used, mark, seat) {
    return joinTips(
      t(`tip_action_${kind.replace("-", "_")}`, { action: actionName(kind) }),
      used ? t("tip_action_used") : t("tip_action_free"),
      this.lastTip(mark, seat));
  }

  /** @param {Seat} seat */
  renderMarkers(seat) {
    const s = this.current();
    const mine = seat === s.seat;
    return h("div", { class: "markers", role: mine ? "group" : null, "aria-label": t("actions_title") },
      KINDS.map((kind) => {
        const used = s.used[seat].includes(kind);
        const mark = this.marks.markers[seat][kind];
        const label = `${actionName(kind)} (${CARDS_PER_ACTION[kind]}) · ${used ? t("action_used") : t("action_free")}`;
        const choosable = mine && this.choosingAction() && !used;
        const content = [
          actionFace(kind),
          h("span", { class: "marker-name" }, actionName(kind)),
          h("span", { class: "marker-count", "aria-hidden": "true" }, "●".repeat(CARDS_PER_ACTION[kind])),
          choosable && !this.action ? h("kbd", { "aria-hidden": "true" }, actionKey(kind)) : null,
          used ? h("span", { class: "used-mark" }, t("action_used")) : null,
        ];
        // The action being chosen is the page's own: the other seat's marker of the same
        // kind is never marked with it.
        const selected = mine && this.action === kind;
        const classes = `action-marker${used ? " used" : ""}${selected ? " selected" : ""}${this.lastClass(mark)}`;
        const marker = choosable
          ? h("button", {
            type: "button",
            class: classes,
            dataset: { kind, fkey: `action-${kind}` },
            "aria-pressed": selected ? "true" : "false",
            "aria-keyshortcuts": actionKey(kind),
            "aria-label": label,
            onclick: () => this.chooseAction(kind),
          }, content)
          : h("span", { class: classes, role: "img", dataset: { kind, fkey: `marker-${seat}-${kind}` }, "aria-label": label }, content);
        return tip(marker, this.markerTip(kind, used, mark, seat));
      }));
  }

  /**
   * @param {Card} card
   * @param {...string} more
   * @returns {string}
   */
  cardTip(card, ...more) {
    return joinTips(
      t("tip_card", { item: itemName(card), geisha: geishaName(card), charm: charmOf(card), charm_term: term("charm") }),
      ...more);
  }

  renderHand() {
    const s = this.current();
    const drawnAt = s.drawn === null ? -1 : s.hand.lastIndexOf(s.drawn);
    const choosing = this.choosingAction();
    return h("div", { class: "hand", role: "group", "aria-label": t("your_hand") },
      s.hand.map((card, index) => tip(itemCard(card, {
        key: choosing && this.action && index < 9 ? String(index + 1) : null,
        selected: this.picked.includes(index),
        badge: index === drawnAt ? t("drawn_card") : null,
        fkey: `hand-${index}`,
        disabled: choosing && this.busy,
        onclick: choosing ? () => this.toggleCard(index) : undefined,
      }), this.cardTip(card, t("tip_in_hand")))));
  }

  /** @param {Seat} seat */
  renderTheirHand(seat) {
    const s = this.current();
    const cards = tCount("n_cards_in_hand", s.hand_sizes[seat]);
    return tip(h("div", { class: "hand backs", role: "img", "aria-label": cards, dataset: { fkey: `hand-${seat}` } },
      Array.from({ length: s.hand_sizes[seat] }, () => h("span", { class: "mini-back", "aria-hidden": "true" })),
      h("span", { class: "count", "aria-hidden": "true" }, cards)),
    t("tip_their_hand", { player: seatName(s, seat), cards: tCount("n_cards", s.hand_sizes[seat]) }));
  }

  // The face-down cards of a side: the page's own shown to it, the opponent's as backs.
  /** @param {Seat} seat */
  renderFaceDown(seat) {
    const s = this.current();
    const mine = seat === s.seat;
    const marks = this.marks.facedown[seat];
    const player = seatName(s, seat);
    /**
     * @param {"secret" | "trade-off"} kind
     * @param {Card | null} card
     */
    const one = (kind, card) => {
      const mark = marks[kind];
      const action = actionName(kind);
      const about = t(`tip_${mine ? "my" : "their"}_${kind.replace("-", "_")}`, { action, player });
      // A card is shown on the page's own side only (the opponent's are backs).
      const shown = mine ? itemCard(Number(card), { small: true, badge: action }) : cardBack(action);
      if (mark) shown.className += this.lastClass(mark);
      return tip(shown, mine ? this.cardTip(Number(card), about, this.lastTip(mark, seat)) : joinTips(about, this.lastTip(mark, seat)));
    };
    const cards = [];
    if (mine) {
      if (s.secret !== null) cards.push(one("secret", s.secret));
      for (const card of s.tradeoff) cards.push(one("trade-off", card));
    } else if (!s.outcome) {
      if (s.used[seat].includes("secret")) cards.push(one("secret", null));
      if (s.used[seat].includes("trade-off")) cards.push(one("trade-off", null), one("trade-off", null));
    }
    if (!cards.length) return null;
    const title = mine ? t("your_hidden") : t("their_hidden");
    return h("div", { class: "facedown", "aria-label": title }, h("span", { class: "label" }, title), cards);
  }

  /** @param {Seat} seat */
  renderScore(seat) {
    const s = this.current();
    const text = scoreText(s.charm[seat], s.geishas[seat]);
    return tip(h("span", { class: "score", dataset: { fkey: `score-${seat}` } }, text),
      joinTips(t("tip_score", { player: seatName(s, seat), score: text }), t("tip_goal", { charm_term: term("charm") }),
        t(`variant_${s.variant.replace("-", "_")}`)));
  }

  /** @param {Seat} seat */
  renderSide(seat) {
    const s = this.current();
    const mine = seat === s.seat;
    const playing = !s.outcome;
    return h("div", { class: `side ${mine ? "me" : "them"}`, "data-testid": mine ? "my-side" : "their-side" },
      h("div", { class: "side-head" },
        h("h2", {}, seatName(s, seat, { you: false }), mine ? ` · ${t("you")}` : ""),
        this.renderScore(seat)),
      playing ? this.renderMarkers(seat) : null,
      playing ? this.renderLastDecision(seat) : null,
      mine && playing ? this.renderHand() : null,
      this.renderFaceDown(seat),
      !mine && playing ? this.renderTheirHand(seat) : null);
  }

  // -- the geisha row ----------------------------------------------------------------------

  // Where a geisha's favor marker is, from the page's side: the whole sentence.
  /**
   * @param {Card} card
   * @param {Seat | null} favor
   * @returns {string}
   */
  favorTip(card, favor) {
    const s = this.current();
    const fields = { marker: term("marker"), player: seatName(s, this.opponent()), geisha: geishaName(card) };
    if (favor === null) return t("tip_favor_neutral", fields);
    // A spectator's page has no "you": it names who holds her and who could take her.
    if (this.watching()) return t("tip_favor_watch", { ...fields, player: seatName(s, favor), other: seatName(s, 1 - favor) });
    return favor === s.seat ? t("tip_favor_you", fields) : t("tip_favor_them", fields);
  }

  // The cards of one side under a geisha, the ones the latest decisions put there marked:
  // the opponent's last, the page's own before them.
  /**
   * @param {Seat} seat
   * @param {Card} card
   * @param {number} count
   */
  renderPile(seat, card, count) {
    const s = this.current();
    /** @type {import("./lastmove.js").Pile} */
    const pile = this.marks.placed[seat][card] || {};
    const { mine, theirs } = pile;
    /** @type {Mark[]} */
    const moved = [
      ...Array.from({ length: mine ? mine.count : 0 }, () => ({ by: /** @type {const} */ ("mine"), fresh: Boolean(mine && mine.fresh) })),
      ...Array.from({ length: theirs ? theirs.count : 0 }, () => ({ by: /** @type {const} */ ("theirs"), fresh: Boolean(theirs && theirs.fresh) })),
    ];
    const marks = moved.slice(Math.max(0, moved.length - count));
    const where = seat === s.seat
      ? t("tip_on_my_side", { geisha: geishaName(card) })
      : t("tip_on_their_side", { geisha: geishaName(card), player: seatName(s, seat) });
    const side = seat === s.seat ? "me" : "them";
    return h("div", { class: `placed ${side}`, "data-count": count },
      Array.from({ length: count }, (_, index) => {
        const last = marks[index - (count - marks.length)] || null;
        const one = tile(card);
        one.className += this.lastClass(last);
        one.setAttribute("role", "img");
        one.setAttribute("aria-label", cardLabel(card));
        one.dataset.fkey = `pile-${seat}-${card}-${index}`;
        return tip(one, this.cardTip(card, where, this.lastTip(last)));
      }));
  }

  renderRow() {
    const s = this.current();
    const me = this.viewer();
    const opponent = 1 - me;
    // Once the game is over the table shows the last scoring, Secrets included.
    const placed = s.outcome && s.rounds.length ? s.rounds[s.rounds.length - 1].sides : s.placed;
    return h("div", { class: "row", role: "list", "aria-label": term("marker") },
      ROW.map((card) => {
        const favor = s.favor[card];
        const mine = placed[me][card];
        const theirs = placed[opponent][card];
        const label = t("geisha_label", {
          geisha: geishaName(card), charm: charmOf(card), charm_term: term("charm"), item: itemName(card),
          favor: favorText(favor, me), mine, theirs,
        });
        /** @param {"me" | "them"} side */
        const marker = (side) => (favor !== null && (favor === me) === (side === "me")
          ? tip(h("span", { class: "marker", role: "img", "aria-label": term("marker"), dataset: { fkey: `favor-${card}` } }, "◆"), this.favorTip(card, favor))
          : null);
        const geisha = geishaCard(card, favor, me);
        geisha.dataset.fkey = `geisha-${card}`;
        return h("div", { class: "column", role: "listitem", "aria-label": label, dataset: { card: letterOf(card) } },
          this.renderPile(opponent, card, theirs),
          h("div", { class: "slot them" }, marker("them")),
          tip(geisha, joinTips(
            t("tip_geisha", { geisha: geishaName(card), charm: charmOf(card), charm_term: term("charm"), item: itemName(card) }),
            this.favorTip(card, favor))),
          h("div", { class: "slot me" }, marker("me")),
          this.renderPile(me, card, mine));
      }));
  }

  // -- choosing ----------------------------------------------------------------------------

  renderComposer() {
    const s = this.current();
    if (this.answering()) return this.renderAnswer();
    if (!this.choosingAction()) {
      if (s.pending && s.pending.by === s.seat) {
        return h("div", { class: "composer waiting" },
          h("p", {}, describeMove(s.pending)),
          this.renderOffer(s.pending, false));
      }
      return null;
    }
    const move = this.composedMove();
    let prompt;
    if (!this.action) {
      prompt = t("choose_action");
    } else if (!move || this.picked.length < CARDS_PER_ACTION[this.action]) {
      prompt = t("choose_cards_n", {
        action: actionName(this.action), cards: tCount("n_cards", CARDS_PER_ACTION[this.action]),
        chosen: this.picked.length, count: CARDS_PER_ACTION[this.action],
      });
    } else {
      prompt = t("ready_to_play", { move: describeMove(move) });
    }
    const pairing = this.action === "competition" && this.picked.length === 4 ? this.renderPairings() : null;
    return h("div", { class: "composer" },
      this.renderGuide(),
      h("p", { class: "prompt", "aria-live": "polite", id: "prompt" }, prompt),
      pairing,
      this.renderButtons(move),
      h("p", { class: "keys" }, t("keys_help")));
  }

  // What the lesson asks for at this step, kept in the decision bar (/learn only).
  renderGuide() {
    const text = this.lesson ? this.lesson.guide() : null;
    return text ? h("p", { class: "guide", "data-testid": "guide" }, text) : null;
  }

  renderPairings() {
    return h("div", { class: "pairings", role: "radiogroup", "aria-label": t("choose_split", { action: actionName("competition") }) },
      h("span", { class: "label" }, t("choose_split", { action: actionName("competition") }), " ", h("kbd", {}, "P")),
      this.pairings().map((pairs, index) => h("button", {
        type: "button",
        role: "radio",
        class: `pairing${index === this.pairing ? " selected" : ""}`,
        "aria-checked": index === this.pairing ? "true" : "false",
        dataset: { fkey: `pairing-${index}`, move: competitionMove(pairs).text },
        onclick: () => { this.pairing = index; this.render(); },
      }, pairs.map((pair, n) => h("span", { class: "pair", "aria-label": `${t("pair_n", { n: n + 1 })}: ${pair.map(cardLabel).join(" + ")}` },
        pair.map((card) => tile(card)))))));
  }

  /** @param {Move | null} move */
  renderButtons(move) {
    return h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", id: "confirm", disabled: !move || this.busy || !this.online, onclick: () => this.confirm() }, t("confirm"), " ", h("kbd", {}, "Enter")),
      h("button", { type: "button", id: "clear", onclick: () => this.clear() }, t("clear"), " ", h("kbd", {}, "Esc")));
  }

  // The cards on offer: choosable (the page answers) or shown (the page waits for the
  // answer). Each card or pair says where it goes if taken.
  /**
   * @param {Pending} pending
   * @param {boolean} choosable
   */
  renderOffer(pending, choosable) {
    const s = this.current();
    const player = seatName(s, this.opponent());
    const where = choosable ? t("tip_offer_take", { player }) : t("tip_offer_wait", { player });
    const mark = this.marks.offer;
    return h("div", { class: `offer${this.lastClass(mark)}`, role: choosable ? "radiogroup" : null, "aria-label": t("offer_title") },
      pending.options.map((option, index) => {
        const selected = this.option === index;
        const content = option.kind === "gift-response"
          ? itemCard(option.cards[0], { small: true })
          : h("span", { class: "pair" }, option.cards.map((card) => itemCard(card, { small: true })));
        const about = joinTips(...[...new Set(option.cards)].map((card) => this.cardTip(card)), where, this.lastTip(mark, pending.by));
        if (!choosable) return tip(h("div", { class: "option", role: "img", "aria-label": describeMove(option), dataset: { fkey: `option-${index}` } }, content), about);
        return tip(h("button", {
          type: "button",
          role: "radio",
          class: `option${selected ? " selected" : ""}`,
          "aria-checked": selected ? "true" : "false",
          "aria-label": `${index + 1}: ${describeMove(option)}`,
          dataset: { fkey: `option-${index}`, move: option.text },
          disabled: this.busy,
          onclick: () => this.chooseOption(index),
        }, h("kbd", { "aria-hidden": "true" }, String(index + 1)), content), about);
      }));
  }

  renderAnswer() {
    const pending = this.pending();
    const move = this.composedMove();
    return h("div", { class: "composer answer" },
      this.renderGuide(),
      h("p", { class: "prompt", id: "prompt" }, describeMove(pending)),
      move ? h("p", { class: "prompt" }, t("ready_to_play", { move: describeMove(move) })) : null,
      this.renderOffer(pending, true),
      this.renderButtons(move),
      h("p", { class: "keys" }, t("keys_help")));
  }

  renderLog() {
    const s = this.current();
    const items = [];
    let round = 0;
    for (const entry of s.log) {
      if (entry.round !== round) {
        round = entry.round;
        items.push(h("li", { class: "round-heading" }, t("round_of", { round })));
      }
      items.push(h("li", { class: entry.seat === s.seat ? "mine" : "theirs" },
        t("log_move", { player: seatName(s, entry.seat), move: describeMove(entry) })));
    }
    return h("section", { class: "log", "aria-labelledby": "log-title" },
      h("h2", { id: "log-title" }, t("log_title")),
      items.length ? h("ol", { "data-testid": "log" }, items) : h("p", { class: "empty" }, t("log_empty")));
  }

  renderTracker() {
    const s = this.current();
    const shown = store(localStorage, "hanamikoji.tracker") !== "off";
    const toggle = h("label", { class: "toggle" },
      h("input", { type: "checkbox", checked: shown, id: "tracker-toggle", onchange: (e) => {
        store(localStorage, "hanamikoji.tracker", e.currentTarget.checked ? "on" : "off");
        this.render();
      } }),
      " ", t("tracker_toggle"));
    if (s.outcome) return null;
    if (!shown) return h("section", { class: "tracker" }, toggle);
    return h("section", { class: "tracker", "aria-labelledby": "tracker-title" },
      h("h2", { id: "tracker-title" }, t("tracker_title")),
      toggle,
      // What "not seen" means depends on who reads it: a player, or a spectator.
      h("p", { class: "hint", "data-testid": "tracker-hint" }, this.watching()
        ? t("tracker_hint_watch", { secret: actionName("secret"), tradeoff: actionName("trade-off") })
        : t("tracker_hint")),
      h("ul", { class: "tracker-list" }, ROW.map((card) => h("li", { class: s.unseen[card] ? "" : "none", "aria-label": `${cardLabel(card)}: ${s.unseen[card]}` },
        tile(card), h("span", { class: "name", "aria-hidden": "true" }, itemName(card)), h("b", { "aria-hidden": "true" }, `${s.unseen[card]}/${charmOf(card)}`)))));
  }

  // -- scoring and the end -------------------------------------------------------------

  showNewScoring() {
    const s = this.current();
    if (this.watching()) return;
    const key = `hanamikoji.scored.${this.gameId}`;
    const seen = store(sessionStorage, key);
    store(sessionStorage, key, String(s.rounds.length));
    if (seen === null || Number(seen) >= s.rounds.length) return;
    const summary = s.rounds[s.rounds.length - 1];
    const previous = s.rounds.length > 1 ? s.rounds[s.rounds.length - 2].favor : ROW.map(() => null);
    showDialog(renderSummary(s, summary, previous), "summary");
  }

  renderEnd() {
    const s = this.current();
    const outcome = /** @type {import("./messages").Outcome} */ (s.outcome);
    const headline = outcome.winner === null
      ? (outcome.termination === "shared-win" ? t("shared_win") : t("nobody_wins"))
      : (this.watching() ? outcomeSentence(s) : (outcome.winner === s.seat ? t("you_win") : t("you_lose")));
    const me = this.viewer();
    const totals = this.watching()
      ? t("watch_totals", {
        player1: seatName(s, 0), score1: scoreText(outcome.charm[0], outcome.geishas[0]),
        player2: seatName(s, 1), score2: scoreText(outcome.charm[1], outcome.geishas[1]),
      })
      : t("summary_totals", {
        mine: scoreText(outcome.charm[me], outcome.geishas[me]),
        theirs: scoreText(outcome.charm[1 - me], outcome.geishas[1 - me]),
      });
    /** @param {"text" | "json"} format */
    const download = (format) => async () => {
      try {
        /** @type {string} */
        const body = await api(`/api/games/${this.gameId}/record?format=${format}`, { token: this.token });
        const blob = new Blob([body], { type: format === "json" ? "application/json" : "text/plain" });
        const link = h("a", { href: URL.createObjectURL(blob), download: `hanamikoji-${this.gameId}.${format === "json" ? "json" : "hkr"}` });
        document.body.append(link);
        link.click();
        link.remove();
      } catch (error) {
        toast(messageOf(error));
      }
    };
    return h("section", { class: "end", "aria-labelledby": "end-title", "data-testid": "end" },
      h("h2", { id: "end-title" }, headline),
      // Who won and how, in words (the record's "1-0" is for programs).
      h("p", { class: "why" }, outcomeSentence(s)),
      h("p", {}, totals, " · ", t("rounds_played", { rounds: outcome.rounds })),
      s.rematch && s.players[this.opponent()] === "human" ? h("p", { class: "rematch-ready", role: "status" }, t("rematch_ready")) : null,
      this.watching() ? h("div", { class: "buttons" }, h("a", { href: "/", class: "button" }, t("new_game"))) : h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", id: "rematch", onclick: () => this.rematch() }, t("rematch")),
        h("button", { type: "button", id: "replay", onclick: () => this.replay() }, t("replay")),
        h("button", { type: "button", id: "download-text", onclick: download("text") }, t("download_text")),
        h("button", { type: "button", id: "download-json", onclick: download("json") }, t("download_json")),
        h("a", { href: "/", class: "button" }, t("new_game"))),
      this.endRatings().element,
      this.watching() ? null : this.endAnalysis().element,
      renderReveal(s));
  }

  // A rated game's rating changes (ratings.js): fetched once, kept across redrawings.
  endRatings() {
    if (!this.ratings) this.ratings = new EndRatings(this.gameId, this.current(), (seat) => seatName(this.current(), seat));
    return this.ratings;
  }

  // The analysis on the end screen: one for the page, kept across redrawings.
  endAnalysis() {
    if (!this.analysis) this.analysis = new AnalysisView(this.gameId, this.token, this.current());
    this.analysis.refresh();
    return this.analysis;
  }

  replay() {
    /** @param {import("./analysis.js").AnalysisOptions} options */
    const analysis = (options) => new AnalysisView(this.gameId, this.token, this.current(), options);
    openReplay(this.gameId, this.token, this.current(), { analysis });
  }

  async rematch() {
    try {
      /** @type {import("./messages").Rematch} */
      const { id } = await api(`/api/games/${this.gameId}/rematch`, { method: "POST", token: this.token });
      this.navigate(`/g/${id}#t=${this.token}`);
    } catch (error) {
      toast(messageOf(error));
    }
  }
}

// The letters of cards, in the order given.
/** @param {Card[]} cards */
function letters(cards) {
  return cards.map(letterOf).join("");
}

// A Competition offering the two pairs given (each a list of two cards), as composedMove
// describes a decision.
/**
 * @param {Card[][]} pairs
 * @returns {Move}
 */
function competitionMove([first, second]) {
  return {
    text: `C:${letters(first)}/${letters(second)}`,
    kind: "competition",
    cards: [...first, ...second].sort(),
    pairs: [first, second],
    hidden: false,
  };
}

// Explanations said one after the other (empty ones left out).
/**
 * @param {...string} parts
 * @returns {string}
 */
function joinTips(...parts) {
  return parts.filter(Boolean).join(" ");
}

/** @param {Card[]} cards */
function cardsLine(cards) {
  return cards.length ? h("span", { class: "tiles" }, cards.map((card) => tile(card)), h("span", { class: "words" }, ` ${cardsInWords(cards)}`)) : "—";
}

/** @param {GameState} s */
function renderReveal(s) {
  if (!s.reveal) return null;
  return h("section", { class: "reveal", "aria-labelledby": "reveal-title" },
    h("h3", { id: "reveal-title" }, t("reveal_title")),
    s.reveal.rounds.map((rnd) => h("div", { class: "reveal-round" },
      h("h4", {}, t("reveal_round", { round: rnd.round, removed: cardLabel(rnd.removed) })),
      h("dl", {},
        [0, 1].map((seat) => [
          h("dt", {}, `${seatName(s, seat)} · ${t("reveal_dealt")}`), h("dd", {}, cardsLine(rnd.hands[seat])),
          h("dt", {}, `${seatName(s, seat)} · ${actionName("secret")} / ${actionName("trade-off")}`),
          h("dd", {}, cardsLine(rnd.secrets[seat] === null ? [] : [rnd.secrets[seat]]), " / ", cardsLine(rnd.tradeoffs[seat])),
        ]),
        h("dt", {}, t("replay_deck")), h("dd", {}, cardsLine(rnd.deck))))));
}

// The game table's controller: the state the server sent, what the page is choosing
// (an action, cards, a Competition's pairs, an answer), the socket and the keyboard. It
// draws only what the server's state message holds for this seat (table_board.js and the
// views it calls), and sends decisions in the notation (S:D, T:AG, G:DDG, C:AB/FG, G>D,
// C>FG); the server checks every one.

import { ChatPanel } from "./chat.js";
import { hideToast, toast } from "./dom.js";
import { t } from "./i18n.js";
import { CARDS_PER_ACTION, KINDS, KIND_LETTERS } from "./game_rules.js";
import { GameSocket, REPLACED } from "./net.js";
import { noMarks } from "./lastmove.js";
import { drawNoSeat, drawReplaced, drawTable } from "./table_board.js";
import { showNewScoring } from "./table_end.js";
import { competitionMove, letters } from "./table_moves.js";

/** @typedef {import("./messages").ActionKind} ActionKind */
/** @typedef {import("./messages").Card} Card */
/** @typedef {import("./messages").GameMessage} GameMessage */
/** @typedef {import("./messages").GameRequest} GameRequest */
/** @typedef {import("./messages").GameState} GameState */
/** @typedef {import("./wire").MoveInfo} Move */
/** @typedef {import("./wire").PendingOffer} Pending */
/** @typedef {import("./messages").Seat} Seat */
/** @typedef {import("./lastmove.js").Marks} Marks */
/** @typedef {import("./analysis.js").AnalysisView} AnalysisView */
/** @typedef {import("./ratings.js").EndRatings} EndRatings */
/** @typedef {import("./net.js").SocketHandlers} SocketHandlers */
/** @typedef {import("./notices.js").TurnNotices} TurnNotices */

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
 * @property {TurnNotices | null} [notices] what tells the player their turn came (a seat's page)
 */

// The three ways to split four cards (by their place in the choice) into two pairs.
const SPLITS = [[[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0, 3], [1, 2]]];

export class TableController {
  // transport(handlers) makes what carries decisions: the game's WebSocket unless given
  // (the lesson at /learn passes its script, which answers with states and errors, and
  // `lesson`, whose status() says what the status line says while a step is only read,
  // and guide() what a step asks for, said again in the decision bar).
  /**
   * @param {HTMLElement} root
   * @param {TableOptions} options
   */
  constructor(root, { gameId, token, navigate, setConnection, transport, lesson = null, notices = null }) {
    this.root = root;
    this.notices = notices;
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
    // The chat beside the table (a game between people's seats and spectators only:
    // the server sends its room, or nothing).
    this.chat = new ChatPanel((message) => this.socket.send(message));
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
    if (this.notices) this.notices.stop();
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
    if (this.state && this.notices) this.notices.update(this.state, this.myTurn());
    this.chat.render();
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
    if (message.type === "chat" || message.type === "chat_line") {
      this.chat.onMessage(message);
      return;
    }
    if (message.type === "chat_reported") {
      toast(t("chat_reported"));
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
    if (this.notices) this.notices.update(message, this.myTurn());
    // The table opens at its top (the status line), wherever the page before was scrolled.
    if (!previous) window.scrollTo(0, 0);
    showNewScoring(this);
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
  choosePairing(index) {
    this.pairing = index;
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
    if (target instanceof Element && target.closest(".chat")) return; // the chat's own keys
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

  // The table drawn again from the state and the choice (table_board.js).
  render() {
    drawTable(this);
  }

  // Newer pages took this seat: say so, and offer to take it back here.
  renderReplaced() {
    drawReplaced(this);
  }

  renderNoSeat() {
    drawNoSeat(this);
  }
}

// What the page receives from the server and sends to it, as the page reads them: the
// game's socket and state (payload.py), the lobby's socket (lobby.py) and the bodies of
// the HTTP routes. Only TypeScript reads this file (the check in scripts/test); the
// modules import its names with `/** @typedef {import("./messages").X} X */`.
//
// Written by hand until the server's outgoing messages have their generated declarations
// (static/js/wire.d.ts, from the msgspec Structs): then the names below that it declares
// come from there, and this file keeps only what it does not.

/** A card: its item's index in the row, 0 (Ayane's flute) .. 6 (Ruri's flower). */
export type Card = number;
/** A seat: 0 (Player 1) or 1 (Player 2). */
export type Seat = number;

export type ActionKind = "secret" | "trade-off" | "gift" | "competition";
export type ResponseKind = "gift-response" | "competition-response";
export type MoveKind = ActionKind | ResponseKind;
export type Phase = "turn" | "gift-response" | "competition-response" | "awaiting-deal" | "over";

/** A decision in the notation, with its cards (none for a hidden Secret or Trade-off). */
export interface Move {
  text: string;
  kind: MoveKind;
  cards: Card[];
  pairs: Card[][];
  hidden: boolean;
}

export interface LogEntry extends Move {
  round: number;
  turn: number;
  seat: Seat;
}

/** An offer waiting for its answer: who offered it and the answers it allows. */
export interface Pending extends Move {
  kind: "gift" | "competition";
  by: Seat | null;
  options: Move[];
}

export interface RoundSummary {
  round: number;
  starter: Seat;
  /** Each seat's Secret, -1 for none. */
  secrets: number[];
  sides: number[][];
  favor: (Seat | null)[];
  charm: number[];
  geishas: number[];
}

export interface Outcome {
  winner: Seat | null;
  termination: string;
  /** The key of the sentence that says who won and why. */
  reason: string;
  charm: number[];
  geishas: number[];
  rounds: number;
  result: string;
}

export interface RevealRound {
  round: number;
  removed: Card;
  hands: Card[][];
  deck: Card[];
  secrets: (Card | null)[];
  tradeoffs: Card[][];
}

export interface Reveal {
  rounds: RevealRound[];
}

export interface ClockState {
  control: string;
  kind: "realtime" | "correspondence";
  /** Each seat's time left (ms) when the state was made. */
  remaining: number[];
  running: Seat | null;
}

/** The state of a game, as a seat sees it (`seat`: that seat) or a spectator (`seat`: null). */
export interface GameState {
  type: "state";
  game: string;
  seat: Seat | null;
  ply: number;
  players: ("human" | "bot")[];
  levels: (number | null)[];
  connected: boolean[];
  rematch: string | null;
  variant: string;
  max_rounds: number | null;
  round: number;
  round_starter: Seat;
  to_move: Seat | null;
  phase: Phase;
  favor: (Seat | null)[];
  charm: number[];
  geishas: number[];
  hand: Card[];
  drawn: Card | null;
  secret: Card | null;
  tradeoff: Card[];
  placed: number[][];
  used: ActionKind[][];
  hand_sizes: number[];
  deck: number;
  pending: Pending | null;
  unseen: number[];
  log: LogEntry[];
  rounds: RoundSummary[];
  outcome: Outcome | null;
  reveal: Reveal | null;
  clock: ClockState | null;
  rated: boolean;
}

/** A refusal, over a socket or as an HTTP body. */
export interface ErrorMessage {
  type: "error";
  code: string;
  message: string;
}

export interface Pong {
  type: "pong";
}

/** What the game's socket (a seat's or a spectator's) sends. */
export type GameMessage = GameState | ErrorMessage | Pong;

/** What the page sends on the game's socket. */
export type GameRequest =
  | { type: "hello"; token?: string; lang: string }
  | { type: "move"; move: string; ply: number }
  | { type: "lang"; lang: string }
  | { type: "ping" };

// -- the lobby's socket --------------------------------------------------------------------

export interface RatingJson {
  rating: number;
  provisional: boolean;
}

export interface LobbyYou {
  name: string;
  account: boolean;
  ratings: Record<string, RatingJson>;
}

export interface SeekPlayer extends RatingJson {
  name: string;
  account: boolean;
}

export interface Seek {
  id: string;
  variant: string;
  time_control: string;
  rated: boolean;
  range: number[] | null;
  player: SeekPlayer;
  mine: boolean;
}

export type LobbyMessage =
  | { type: "lobby"; you: LobbyYou | null; seeks: Seek[]; queued: boolean }
  | { type: "seek"; seek: Seek }
  | { type: "unseek"; seek: string }
  | { type: "queued"; queued: boolean }
  | { type: "paired"; game: string; seat: Seat; token?: string }
  | ErrorMessage
  | Pong;

export interface LobbySettings {
  variant: string;
  time_control: string;
  rated: boolean;
}

export type LobbyRequest =
  | ({ type: "seek"; range: number[] | null } & LobbySettings)
  | ({ type: "quick" } & LobbySettings)
  | { type: "unqueue" }
  | { type: "cancel"; seek: string }
  | { type: "accept"; seek: string }
  | { type: "lang"; lang: string };

// -- the page's catalog (/api/i18n/LANG) ---------------------------------------------------

export interface CardTableFaces {
  actions: string[];
  items: string[];
  geishas: string[];
}

export interface Catalog {
  lang: string;
  languages: Record<string, string>;
  /** A sentence, or a counted sentence's forms in the order of the plural rule. */
  ui: Record<string, string | string[]>;
  plural: string;
  levels: number[];
  default_level: number;
  actions: string[];
  items: string[];
  geishas: string[];
  charms: number[];
  colours: string[];
  letters: string[];
  deck: CardTableFaces;
  terms: Record<string, string>;
}

// -- HTTP bodies ---------------------------------------------------------------------------

export interface Player {
  id: string;
  name: string;
  kind: "guest" | "account";
}

/** /api/me and the sign-in routes: who is signed in and the session's CSRF token. */
export interface MeBody {
  player: Player | null;
  csrf?: string;
}

/** POST /api/games: the new game and the seat tokens. */
export interface CreatedGame {
  id: string;
  token: string;
  seat: Seat;
  friend_token: string | null;
}

export interface Rematch {
  id: string;
}

export interface Hint {
  ply: number;
  method: "forced" | "exact" | "sampled" | string;
  worlds?: number;
  move: Move;
  value?: number;
  next?: Move | null;
  next_value?: number | null;
}

export type DecisionLabel = "inaccuracy" | "mistake" | "blunder";

export interface AnalysedDecision {
  ply: number;
  round: number;
  turn: number;
  /** The player who decided, from 1. */
  seat: number;
  forced: boolean;
  label: DecisionLabel | null;
  cost: number;
  played: string;
  best: string;
  played_value: number;
  best_value: number;
  played_move: Move;
  best_move: Move;
}

export interface AnalysisSummary {
  seat: number;
  decisions: number;
  mean_cost: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

export interface AnalysisRunning {
  status: "running";
  done: number;
  total: number;
}

export interface AnalysisDone {
  status: "done";
  done: number;
  total: number;
  version: string;
  budget: unknown;
  decisions: AnalysedDecision[];
  summary: AnalysisSummary[];
}

export type AnalysisBody = AnalysisRunning | AnalysisDone | { status: "failed" };

/** One position of a finished game's replay, every card shown. */
export interface ReplayFrame {
  ply: number;
  round: number;
  move: Move | null;
  seat: Seat | null;
  to_move: Seat | null;
  favor: (Seat | null)[];
  hands: Card[][];
  secrets: (Card | null)[];
  tradeoffs: Card[][];
  placed: number[][];
  pending: Pending | null;
  removed: Card | null;
  deck: Card[];
  scored: RoundSummary | null;
  outcome: Outcome | null;
}

export interface ReplayBody {
  frames: ReplayFrame[];
}

export interface TutorialStep {
  step: number;
  steps: number;
  last: boolean;
  frames: GameState[];
  state: GameState;
  move: Move | null;
  title: string;
  do: string;
  why: string;
  hint: string;
  progress: string;
  labels: Record<"next" | "restart" | "leave" | "play", string>;
}

export interface RatingChange {
  seat: Seat;
  after: number;
  delta: number;
  provisional: boolean;
  bot: boolean;
}

export interface GameRatings {
  rated: boolean;
  changes: RatingChange[] | null;
}

export interface LeaderRow extends RatingJson {
  name: string;
  games: number;
}

export interface Leaderboard {
  bound: number;
  players: LeaderRow[];
  provisional: LeaderRow[];
}

export interface VariantRating extends RatingJson {
  variant: string;
  games: number;
}

export interface RatingPoint extends RatingJson {
  variant: string;
  at: string;
  delta: number;
}

export interface Opponent {
  kind: "bot" | "guest" | "account" | "anonymous";
  name?: string;
  level?: number;
  rating?: RatingJson | null;
}

export interface GameEntry {
  id: string;
  variant: string;
  created: string;
  opponent: Opponent;
  seat: Seat;
  your_turn?: boolean;
  clock?: ClockState | null;
  outcome?: string;
  rating_delta?: number | null;
}

export interface MyGames {
  ongoing: GameEntry[];
  finished: GameEntry[];
  ratings: VariantRating[];
}

export interface PlayerPage {
  player: { name: string };
  since: string;
  games: GameEntry[];
  ratings: VariantRating[];
  history: RatingPoint[];
}

export interface WatchList {
  games: { id: string; variant: string }[];
}

// The page's side of the messages: what the server sends is declared in wire.d.ts,
// generated from the server's msgspec Structs (the modules import its names with
// `/** @typedef {import("./wire").X} Y */`). Here is only what it does not declare: what
// the page sends back, the unions the page reads (a seat's or a spectator's state),
// narrower types the page relies on, the page's names for wire's types, and the answers
// of the routes that have no Struct yet (the catalog). TypeScript reads this
// file only.

import type * as wire from "./wire";

/** A card: its item's index in the row, 0 (Ayane's flute) .. 6 (Ruri's flower). */
export type Card = number;
/** A seat: 0 (Player 1) or 1 (Player 2). */
export type Seat = number;

/** The four actions (the first four of wire's MoveKindName). */
export type ActionKind = "secret" | "trade-off" | "gift" | "competition";

/** The state the table draws: a seat's, or a spectator's (`seat` null). */
export type GameState = wire.SeatState | wire.SpectatorState;

/** What a game's socket (a seat's or a spectator's) sends. */
export type GameMessage = wire.SeatMessage | wire.WatchMessage;

/** What the page sends on the game's socket. */
export type GameRequest =
  | { type: "hello"; token?: string; lang: string }
  | { type: "move"; move: string; ply: number }
  | { type: "lang"; lang: string }
  | { type: "ping" }
  | { type: "resign" }
  | { type: "abort" }
  | { type: "chat"; room: "player" | "spectator"; preset: string }
  | { type: "chat"; room: "player" | "spectator"; text: string }
  | { type: "chat_report"; line: number };

// -- the lobby's socket --------------------------------------------------------------------

export interface LobbySettings {
  variant: string;
  time_control: string;
  rated: boolean;
}

/** What the page sends on the lobby's socket. */
export type LobbyRequest =
  | ({ type: "seek"; range: number[] | null } & LobbySettings)
  | ({ type: "quick" } & LobbySettings)
  | { type: "unqueue" }
  | { type: "cancel"; seek: string }
  | { type: "accept"; seek: string }
  | { type: "lang"; lang: string };

// -- the analysis: wire.d.ts has its decisions as plain objects ------------------

export type DecisionLabel = "inaccuracy" | "mistake" | "blunder";

/** One decision of an analysis (bots/analysis.py's JSON form, with its moves). */
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
  played_move: wire.MoveInfo;
  best_move: wire.MoveInfo;
}

export type AnalysisDone = Omit<wire.AnalysisDone, "decisions"> & {
  decisions: AnalysedDecision[];
};

export type AnalysisBody = wire.AnalysisRunning | AnalysisDone | wire.AnalysisNone;

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

// -- players: the players' routes' answers (wire.d.ts) -------------------------------------

export type Player = wire.PlayerInfo;

/** /api/me and the sign-in routes: who is signed in and the session's CSRF token. */
export type MeBody = wire.SignedIn | wire.SignedOut;

export type VariantRating = wire.VariantRating;

export type Opponent = wire.Opponent;

/** A line of My games (in play or finished) or of a player's page. */
export type GameEntry = wire.OngoingGame | wire.FinishedGame | wire.PlayerPageGame;

export type MyGames = wire.MyGames;

export type PlayerPage = wire.PlayerPage;

// -- the lesson ----------------------------------------------------------------------------

/** /api/tutorial?step=N: one step of the lesson. */
export type TutorialStep = wire.TutorialStep;

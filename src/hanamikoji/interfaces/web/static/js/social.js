// Friends and challenges: the site socket (/social/ws) every page of a signed-in player
// keeps open (it makes them online, and brings their challenges live wherever they
// are), the box of challenges received, the Follow/Block/Challenge buttons of a
// player's page, the friends page (/friends) and a challenge's page (/challenge/ID).

import { h, messageOf, toast } from "./dom.js";
import { currentLang, t, variantName } from "./i18n.js";
import { api } from "./net.js";
import { botBadge } from "./people.js";
import { currentPlayer, openAccount } from "./account.js";

/** @typedef {import("./wire").SocialServerMessage} SocialMessage */
/** @typedef {import("./wire").ChallengeInfo} Challenge */
/** @typedef {import("./wire").ChallengeView} ChallengeView */
/** @typedef {import("./wire").ChallengeAccepted} ChallengeAccepted */
/** @typedef {import("./wire").RelationState} RelationState */
/** @typedef {import("./wire").Friends} Friends */
/** @typedef {{ navigate: (url: string) => void }} Navigation */

const VARIANTS = ["classic", "three-rounds", "french"];
const TIME_CONTROLS = ["none", "3+2", "5+5", "10+0", "1d", "3d"];
const RETRY_MS = 3000;
const SIGNED_OUT = 4401;

/** @type {WebSocket | null} */
let socket = null;
/** @type {Map<string, Challenge>} */
const incoming = new Map();
/** @type {Map<string, Challenge>} */
const outgoing = new Map();
let navigateTo = /** @param {string} url */ (url) => { location.assign(url); };

/** @param {string} name */
function timeName(name) {
  return name === "none" ? t("lobby_time_none") : name;
}

/** @param {Challenge} challenge */
function settingsLine(challenge) {
  return t("challenge_settings", {
    variant: variantName(challenge.variant),
    time: timeName(challenge.time_control),
    kind: challenge.rated ? t("lobby_rated") : t("lobby_casual"),
  });
}

/** @param {Challenge} challenge */
function ratingOf(challenge) {
  return `${challenge.challenger.rating}${challenge.challenger.provisional ? "?" : ""}`;
}

// Who starts, said to the one who did not send it.
/** @param {Challenge} challenge */
function startLine(challenge) {
  if (challenge.first === "random") return t("challenge_drawn_start");
  return challenge.first === "me" ? t("challenge_they_start", { name: challenge.challenger.name }) : t("challenge_you_start");
}

// -- the site socket ------------------------------------------------------------------------

/**
 * Open (or reopen, after the player changed) the site socket of the signed-in player;
 * close it when nobody is signed in.
 * @param {Navigation} options
 */
export function startSocial({ navigate }) {
  navigateTo = navigate;
  stopSocial();
  if (currentPlayer()) connect(0);
}

function stopSocial() {
  const open = socket;
  socket = null;
  if (open) open.close();
  incoming.clear();
  outgoing.clear();
  renderIncoming();
}

/** @param {number} attempt */
function connect(attempt) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/social/ws?lang=${encodeURIComponent(currentLang())}`);
  socket = ws;
  ws.onmessage = (event) => {
    if (socket === ws) onMessage(JSON.parse(event.data));
  };
  ws.onclose = (event) => {
    if (socket !== ws || event.code === SIGNED_OUT) return;
    setTimeout(() => { if (socket === ws) connect(attempt + 1); }, Math.min(RETRY_MS * 2 ** attempt, 60_000));
  };
}

/** @param {SocialMessage} message */
function onMessage(message) {
  if (message.type === "social") {
    incoming.clear();
    outgoing.clear();
    for (const challenge of message.incoming) incoming.set(challenge.id, challenge);
    for (const challenge of message.outgoing) outgoing.set(challenge.id, challenge);
  } else if (message.type === "challenge") {
    incoming.set(message.challenge.id, message.challenge);
  } else if (message.type === "challenge_gone") {
    if (outgoing.delete(message.id) || document.querySelector(`[data-challenge-page='${message.id}']`)) toast(t(`challenge_${message.reason}`), "info");
    incoming.delete(message.id);
    refreshChallengePage(message.id);
  } else if (message.type === "challenge_game") {
    incoming.delete(message.id);
    outgoing.delete(message.id);
    renderIncoming();
    navigateTo(`/g/${message.game}`);
    return;
  } else {
    return;
  }
  renderIncoming();
}

// -- challenges received, on whatever page is open ------------------------------------------

function renderIncoming() {
  let box = document.getElementById("challenges");
  if (!incoming.size) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = h("aside", { id: "challenges", class: "challenges", "aria-live": "polite", "aria-labelledby": "challenges-title" });
    document.body.append(box);
  }
  box.replaceChildren(h("h2", { id: "challenges-title" }, t("challenge_incoming_title")),
    ...[...incoming.values()].map((challenge) => h("div", { class: "challenge", "data-challenge": challenge.id },
      h("p", { class: "challenge-from" }, ...badged(t("challenge_from", { name: challenge.challenger.name, rating: ratingOf(challenge) }), challenge.challenger)),
      h("p", { class: "muted" }, settingsLine(challenge), " · ", startLine(challenge)),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary accept-challenge", onclick: () => accept(challenge.id) }, t("challenge_accept")),
        h("button", { type: "button", class: "decline-challenge", onclick: () => decline(challenge.id) }, t("challenge_decline"))))));
}

/** @param {string} id */
async function accept(id) {
  try {
    /** @type {ChallengeAccepted} */
    const accepted = await api(`/api/challenges/${encodeURIComponent(id)}/accept`, { method: "POST" });
    incoming.delete(id);
    renderIncoming();
    navigateTo(`/g/${accepted.game}`);
  } catch (error) {
    incoming.delete(id);
    renderIncoming();
    toast(messageOf(error));
  }
}

/** @param {string} id */
async function decline(id) {
  incoming.delete(id);
  renderIncoming();
  try {
    await api(`/api/challenges/${encodeURIComponent(id)}/decline`, { method: "POST" });
  } catch (error) {
    toast(messageOf(error));
  }
}

// -- sending a challenge --------------------------------------------------------------------

/**
 * A line about a player with their BOT badge after it, when a bot account.
 * @param {string} text
 * @param {{ bot?: boolean | null }} person
 * @returns {(string | HTMLElement)[]}
 */
function badged(text, person) {
  const badge = botBadge(person);
  return badge ? [text, " ", badge] : [text];
}

/**
 * The dialog that sends a challenge to `name` (null: an open challenge, for whoever opens
 * its link); sent, the page goes to the challenge's page. `bot`: `name` is a bot account.
 * @param {string | null} name
 * @param {boolean} [bot]
 */
export function openChallenge(name, bot = false) {
  const you = currentPlayer();
  if (!you) {
    openAccount();
    return;
  }
  const dialog = h("dialog", { class: "challenge-dialog", "aria-labelledby": "challenge-dialog-title" });
  /**
   * @param {string} field
   * @param {string[][]} values
   * @param {string} label
   */
  const select = (field, values, label) => h("label", { class: "field" }, h("span", { class: "label" }, label),
    h("select", { name: field }, values.map(([value, text]) => h("option", { value }, text))));
  const form = h("form", { method: "dialog", class: "challenge-form", onsubmit: async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = {
      opponent: name,
      variant: String(data.get("variant")),
      time_control: String(data.get("time_control")),
      rated: data.get("rated") === "on",
      first: String(data.get("first")),
    };
    try {
      /** @type {Challenge} */
      const made = await api("/api/challenges", { method: "POST", body });
      outgoing.set(made.id, made);
      dialog.close();
      navigateTo(`/challenge/${made.id}`);
    } catch (error) {
      toast(messageOf(error));
    }
  } },
  select("variant", VARIANTS.map((variant) => [variant, variantName(variant)]), t("variant_label")),
  select("time_control", TIME_CONTROLS.map((control) => [control, timeName(control)]), t("lobby_time_label")),
  select("first", [["random", t("first_random")], ["me", t("first_me")], ["them", t("first_opponent")]], t("first_label")),
  h("label", { class: "choice" }, h("input", { type: "checkbox", name: "rated", disabled: you.kind !== "account" }), h("span", {}, t("lobby_rated"))),
  h("div", { class: "buttons" },
    h("button", { type: "submit", class: "primary", id: "challenge-send" }, t("challenge_send")),
    h("button", { type: "button", onclick: () => dialog.close() }, t("account_close"))));
  dialog.append(h("h2", { id: "challenge-dialog-title" }, ...(name ? badged(t("challenge_title", { name }), { bot }) : [t("challenge_open_title")])), form);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// -- a player's page: Follow, Block, Challenge ---------------------------------------------------

/**
 * The online dot and the buttons of an account's page (none on one's own).
 * @param {string} name
 */
export function playerActions(name) {
  const box = h("div", { class: "player-actions", "data-testid": "player-actions" });
  fillActions(box, name);
  return box;
}

/**
 * @param {HTMLElement} box
 * @param {string} name
 */
async function fillActions(box, name) {
  /** @type {RelationState} */
  let relation;
  try {
    relation = await api(`/api/players/${encodeURIComponent(name)}/relation`);
  } catch (error) {
    return;
  }
  const me = currentPlayer();
  const own = me !== null && me.kind === "account" && me.name.toLowerCase() === relation.name.toLowerCase();
  /** @param {string} action */
  const act = (action) => async () => {
    try {
      await api(`/api/players/${encodeURIComponent(name)}/${action}`, { method: "POST" });
      fillActions(box, name);
    } catch (error) {
      toast(messageOf(error));
    }
  };
  const account = me !== null && me.kind === "account";
  const buttons = [
    own || !account ? null : h("button", { type: "button", id: "follow-button", onclick: act(relation.following ? "unfollow" : "follow") }, t(relation.following ? "social_unfollow" : "social_follow")),
    own || relation.blocking ? null : h("button", { type: "button", class: "primary", id: "challenge-button", onclick: () => openChallenge(relation.name, relation.bot) }, t("social_challenge")),
    own || !account ? null : h("button", { type: "button", id: "block-button", onclick: act(relation.blocking ? "unblock" : "block") }, t(relation.blocking ? "social_unblock" : "social_block")),
  ];
  box.replaceChildren(onlineDot(relation.online), h("span", { class: "buttons" }, buttons));
}

/** @param {boolean} online */
function onlineDot(online) {
  return h("span", { class: online ? "online-dot online" : "online-dot", dataset: { online: online ? "yes" : "no" } }, t(online ? "social_online" : "social_offline"));
}

// -- the friends page -----------------------------------------------------------------------------

/**
 * @param {HTMLElement} root
 * @param {Navigation} options
 */
export async function renderFriends(root, { navigate }) {
  const me = currentPlayer();
  if (!me || me.kind !== "account") {
    root.replaceChildren(h("section", { class: "friends" }, h("h1", {}, t("friends_title")), h("p", {}, t("friends_accounts")),
      h("p", {}, h("button", { type: "button", class: "primary", onclick: () => openAccount() }, t("account_sign_in")))));
    return;
  }
  /** @type {Friends} */
  let friends;
  try {
    friends = await api("/api/me/friends");
  } catch (error) {
    toast(messageOf(error));
    return;
  }
  /** @param {string} name */
  const page = (name) => `/@/${encodeURIComponent(name)}`;
  root.replaceChildren(h("section", { class: "friends", "data-testid": "friends" },
    h("h1", {}, t("friends_title")),
    h("p", {}, h("button", { type: "button", id: "open-challenge", onclick: () => openChallenge(null) }, t("challenge_open_title"))),
    friends.following.length
      ? h("ul", { class: "game-list" }, friends.following.map((friend) => h("li", { class: "game-entry", "data-friend": friend.name },
        h("a", { href: page(friend.name), onclick: (event) => { event.preventDefault(); navigate(page(friend.name)); } }, friend.name),
        botBadge(friend),
        onlineDot(friend.online),
        h("button", { type: "button", class: "primary challenge-friend", onclick: () => openChallenge(friend.name, friend.bot) }, t("social_challenge")))))
      : h("p", { class: "muted" }, t("friends_none")),
    friends.blocked.length ? [h("h2", {}, t("friends_blocked")), h("ul", {}, friends.blocked.map((name) => h("li", {}, h("a", { href: page(name) }, name))))] : null));
}

// -- a challenge's page (its link) ----------------------------------------------------------------

/** @type {{ root: HTMLElement, id: string } | null} */
let challengePage = null;

/** @param {string} id */
function refreshChallengePage(id) {
  if (challengePage && challengePage.id === id && challengePage.root.querySelector(`[data-challenge-page='${id}']`)) renderChallenge(challengePage.root, id);
}

/**
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function renderChallenge(root, id) {
  challengePage = { root, id };
  /** @type {ChallengeView} */
  let view;
  try {
    view = await api(`/api/challenges/${encodeURIComponent(id)}`);
  } catch (error) {
    root.replaceChildren(h("section", { class: "challenge-page" }, h("p", {}, messageOf(error))));
    return;
  }
  const challenge = view.challenge;
  const open = challenge.status === "open";
  const link = `${location.origin}/challenge/${challenge.id}`;
  /** @type {import("./types").Child[]} */
  const parts = [];
  if (view.yours) {
    parts.push(h("h1", {}, ...(challenge.opponent ? badged(t("challenge_to", { name: challenge.opponent }), { bot: challenge.opponent_bot }) : [t("challenge_to_anyone")])),
      h("p", { class: "muted" }, settingsLine(challenge)));
    if (open) {
      const field = h("input", { type: "text", readonly: true, value: link, id: "challenge-link", "aria-label": t("challenge_link") });
      parts.push(h("p", {}, t("challenge_link_hint")),
        h("div", { class: "invite-link" }, field, h("button", { type: "button", onclick: () => navigator.clipboard.writeText(link).then(() => toast(t("copied"), "info")) }, t("copy"))),
        h("p", { role: "status" }, t("challenge_waiting")),
        h("button", { type: "button", id: "cancel-challenge", onclick: async () => {
          try {
            await api(`/api/challenges/${encodeURIComponent(id)}/cancel`, { method: "POST" });
          } catch (error) {
            toast(messageOf(error));
          }
          renderChallenge(root, id);
        } }, t("challenge_cancel")));
    }
  } else {
    parts.push(h("h1", {}, ...badged(t("challenge_by", { name: challenge.challenger.name, rating: ratingOf(challenge) }), challenge.challenger)),
      h("p", { class: "muted" }, settingsLine(challenge), " · ", startLine(challenge)));
    if (open && !currentPlayer()) {
      parts.push(h("p", {}, t("challenge_sign_in")), h("button", { type: "button", class: "primary", onclick: () => openAccount() }, t("account_sign_in")));
    } else if (view.for_you) {
      parts.push(h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", id: "accept-challenge", onclick: () => accept(id) }, t("challenge_accept")),
        challenge.opponent ? h("button", { type: "button", id: "decline-challenge", onclick: async () => { await decline(id); renderChallenge(root, id); } }, t("challenge_decline")) : null));
    }
  }
  if (!open) parts.push(h("p", { role: "status" }, t("challenge_not_open")));
  if (challenge.game) parts.push(h("p", {}, h("a", { href: `/g/${challenge.game}`, class: "button" }, t("my_games_open"))));
  root.replaceChildren(h("section", { class: "challenge-page", "data-challenge-page": challenge.id }, parts));
}

// The bot API's sections of My games (/me), for accounts: the personal API tokens
// (create one with a name and its scopes, shown once with a copy button; the list with
// each token's scopes, creation and last use; revoke one) and the upgrade to a bot
// account, irreversible and refused once the account has played (docs/bot-api.md).

import { h, messageOf, toast } from "./dom.js";
import { currentLang, t } from "./i18n.js";
import { api } from "./net.js";
import { botBadge } from "./people.js";

/** @typedef {import("./wire").PlayerInfo} PlayerInfo */
/** @typedef {import("./wire").TokenCreated} TokenCreated */
/** @typedef {import("./wire").TokenInfo} TokenInfo */
/** @typedef {import("./wire").TokenList} TokenList */

const SCOPES = [["bot:play", "tokens_scope_play"], ["read", "tokens_scope_read"]];

/** @param {number} ms */
function when(ms) {
  return new Date(ms).toLocaleString(currentLang(), { dateStyle: "medium", timeStyle: "short" });
}

// The tokens' section, filled in once the server has listed them.
/** @returns {HTMLElement} */
export function tokensSection() {
  const section = h("section", { class: "api-tokens", "data-testid": "api-tokens" });
  const list = h("ul", { class: "token-list", id: "token-list" });
  const shown = h("div", { class: "token-shown", id: "token-shown", hidden: true });
  const refresh = async () => {
    try {
      /** @type {TokenList} */
      const body = await api("/api/tokens");
      drawList(list, body.tokens, refresh);
    } catch (error) {
      toast(messageOf(error));
    }
  };
  section.append(
    h("h2", {}, t("tokens_title")),
    h("p", { class: "muted" }, t("tokens_intro")),
    createForm(shown, refresh),
    shown,
    list);
  refresh();
  return section;
}

/**
 * @param {HTMLElement} shown
 * @param {() => Promise<void>} refresh
 * @returns {HTMLFormElement}
 */
function createForm(shown, refresh) {
  const name = h("input", { id: "token-name", name: "token-name", type: "text", maxlength: 40, required: true, autocomplete: "off" });
  const boxes = SCOPES.map(([scope, label]) => h("label", { class: "token-scope" },
    h("input", { type: "checkbox", name: "token-scope", value: scope, checked: scope === "bot:play" }), ` ${t(label)}`));
  const submit = h("button", { type: "submit", id: "token-create" }, t("tokens_create"));
  /** @type {HTMLFormElement} */
  const form = h("form", { class: "token-form", onsubmit: async (/** @type {Event} */ event) => {
    event.preventDefault();
    const scopes = [...form.querySelectorAll("input[name=token-scope]")]
      .filter((box) => /** @type {HTMLInputElement} */ (box).checked)
      .map((box) => /** @type {HTMLInputElement} */ (box).value);
    if (!scopes.length) {
      toast(t("tokens_no_scope"));
      return;
    }
    submit.disabled = true;
    try {
      /** @type {TokenCreated} */
      const made = await api("/api/tokens", { method: "POST", body: { name: name.value.trim(), scopes } });
      showOnce(shown, made);
      name.value = "";
      await refresh();
    } catch (error) {
      toast(messageOf(error));
    } finally {
      submit.disabled = false;
    }
  } },
  h("label", { for: "token-name" }, t("tokens_name")), name,
  h("fieldset", { class: "token-scopes" }, h("legend", {}, t("tokens_scopes")), boxes),
  submit);
  return form;
}

// The new token's text, the only time the page sees it, with a copy button.
/**
 * @param {HTMLElement} shown
 * @param {TokenCreated} made
 */
function showOnce(shown, made) {
  const text = h("code", { id: "token-text", "data-testid": "token-text" }, made.token);
  const copy = h("button", { type: "button", id: "token-copy", onclick: async () => {
    try {
      await navigator.clipboard.writeText(made.token);
      toast(t("tokens_copied"), "info");
    } catch (error) {
      // No clipboard (an insecure page): the text stays selected for the player to copy.
      const range = document.createRange();
      range.selectNodeContents(text);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
    }
  } }, t("tokens_copy"));
  shown.replaceChildren(h("p", { class: "hint", role: "status" }, t("tokens_shown_once")), text, " ", copy);
  shown.hidden = false;
}

/**
 * @param {HTMLElement} list
 * @param {TokenInfo[]} tokens
 * @param {() => Promise<void>} refresh
 */
function drawList(list, tokens, refresh) {
  if (!tokens.length) {
    list.replaceChildren(h("li", { class: "muted" }, t("tokens_none")));
    return;
  }
  list.replaceChildren(...tokens.map((token) => h("li", { class: "token", "data-token": token.id },
    h("strong", { class: "token-name" }, token.name), " ",
    h("span", { class: "token-scopes" }, token.scopes.join(", ")), " · ",
    h("span", {}, t("tokens_created", { when: when(token.created) })), " · ",
    h("span", { class: "token-used" }, token.last_used === null ? t("tokens_never_used") : t("tokens_last_used", { when: when(token.last_used) })), " ",
    h("button", { type: "button", class: "link-button token-revoke", onclick: async () => {
      try {
        await api(`/api/tokens/${encodeURIComponent(token.id)}`, { method: "DELETE" });
        toast(t("tokens_revoked"), "info");
      } catch (error) {
        toast(messageOf(error));
      }
      await refresh();
    } }, t("tokens_revoke")))));
}

// The upgrade to a bot account: a confirm that says it cannot be undone; the server
// refuses it (err_has_games) once the account has played.
/**
 * @param {PlayerInfo} player
 * @param {() => void} upgraded
 * @returns {HTMLElement}
 */
export function botSection(player, upgraded) {
  const section = h("section", { class: "bot-account", "data-testid": "bot-account" }, h("h2", {}, t("bot_title")));
  if (player.bot) {
    section.append(h("p", { id: "bot-is" }, botBadge(), " ", t("bot_is")));
    return section;
  }
  const button = h("button", { type: "button", id: "bot-upgrade", onclick: async () => {
    if (!confirm(t("bot_upgrade_confirm", { name: player.name }))) return;
    button.disabled = true;
    try {
      await api("/api/me/bot", { method: "POST" });
      upgraded();
    } catch (error) {
      toast(messageOf(error));
      button.disabled = false;
    }
  } }, t("bot_upgrade"));
  section.append(h("p", { class: "muted" }, t("bot_intro")), button);
  return section;
}

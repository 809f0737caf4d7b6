// The e-mail section of My games (/me), for accounts on a server that sends e-mail: the
// address (shown to the account only), its verification link sent again, the opt-in to
// e-mails when it is the player's turn in a correspondence game (once the address is
// verified), and removing the address. The e-mails themselves are the server's
// (notices/); their links open pages of their own (/email/verify, /email/unsubscribe).

import { h, messageOf, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";

/** @typedef {import("./wire").EmailSettings} EmailSettings */

// The section, filled in once the server has said what the account has (nothing at all
// on a server without e-mail).
/** @returns {HTMLElement} */
export function emailSection() {
  const section = h("section", { class: "email-settings", "data-testid": "email-settings", hidden: true });
  api("/api/me/email")
    .then((settings) => draw(section, /** @type {EmailSettings} */ (settings)))
    .catch(() => {});
  return section;
}

/**
 * @param {HTMLElement} section
 * @param {EmailSettings} settings
 */
function draw(section, settings) {
  section.hidden = !settings.enabled;
  if (!settings.enabled) return;
  /**
   * @param {string} path
   * @param {unknown} [body]
   * @param {string | null} [done]
   */
  const change = async (path, body, done = null) => {
    try {
      /** @type {EmailSettings} */
      const next = await api(path, { method: "POST", body });
      draw(section, next);
      if (done) toast(done, "info");
    } catch (error) {
      toast(messageOf(error));
      draw(section, settings);
    }
  };
  const input = h("input", { type: "email", id: "email-address", name: "email", autocomplete: "email", maxlength: 254, required: true, value: settings.address || "" });
  const form = h("form", {
    class: "email-form",
    onsubmit: (/** @type {Event} */ event) => {
      event.preventDefault();
      const address = input.value.trim();
      change("/api/me/email", { address }, t("email_link_sent", { address }));
    },
  },
  h("label", { for: "email-address" }, t("email_address_label")),
  input,
  h("button", { type: "submit", id: "email-send" }, t("email_send_link")));
  const status = settings.address === null ? null
    : h("p", { class: "email-status", id: "email-status" },
      t(settings.verified ? "email_verified" : "email_unverified", { address: settings.address }));
  const notify = settings.verified
    ? h("label", { class: "email-notify" },
      h("input", {
        type: "checkbox",
        id: "email-notify",
        checked: settings.notify,
        onchange: (/** @type {Event} */ event) => change("/api/me/email/notify", { on: /** @type {HTMLInputElement} */ (event.currentTarget).checked }),
      }),
      t("email_notify_label"))
    : null;
  const remove = settings.address === null ? null
    : h("button", { type: "button", class: "link-button", id: "email-remove", onclick: () => change("/api/me/email/remove") }, t("email_remove"));
  section.replaceChildren(
    h("h2", {}, t("email_title")),
    h("p", { class: "muted" }, t("email_about")),
    ...[status, notify, form, remove].filter((part) => part !== null));
}

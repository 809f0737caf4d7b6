// The bot ladder at /ladder (docs/bot-api.md, "The bot ladder"): the standings of the bots
// that play each other all the time, per variant (a tab each, the variant in the address
// as ?variant=), read from GET /api/ladder and read again every few seconds while shown.

import { h, messageOf, toast } from "./dom.js";
import { t, variantName } from "./i18n.js";
import { api } from "./net.js";
import { botBadge } from "./people.js";
import { ratingBadge } from "./ratings.js";

/** @typedef {import("./wire").LadderStandings} LadderStandings */
/** @typedef {import("./wire").LadderLine} LadderLine */

const REFRESH_MS = 5000;

export class LadderPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    const asked = new URLSearchParams(location.search).get("variant");
    this.variant = asked || "classic";
    /** @type {LadderStandings | null} */
    this.body = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.stopped = false;
    /** No game is shown here (main.js's Screen). */
    this.state = null;
  }

  start() {
    this.load();
  }

  stop() {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** @param {string} _lang */
  setLang(_lang) {
    this.render();
  }

  async load() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const variant = this.variant;
    try {
      /** @type {LadderStandings} */
      const body = await api(`/api/ladder?variant=${encodeURIComponent(variant)}`);
      if (this.stopped || variant !== this.variant) return;
      this.body = body;
      this.render();
    } catch (error) {
      if (this.stopped) return;
      if (!this.body) {
        toast(messageOf(error));
        if (variant !== "classic") this.show("classic");
        return;
      }
    }
    if (!this.stopped) this.timer = setTimeout(() => this.load(), REFRESH_MS);
  }

  /** @param {string} variant */
  show(variant) {
    this.variant = variant;
    history.replaceState(null, "", `/ladder?variant=${encodeURIComponent(variant)}`);
    this.load();
  }

  render() {
    const body = this.body;
    if (!body) return;
    /** @param {string} name */
    const tab = (name) => h("button", {
      type: "button", role: "tab", "aria-selected": String(name === body.variant), "data-variant": name,
      class: name === body.variant ? "tab selected" : "tab", onclick: () => this.show(name),
    }, variantName(name));
    this.root.replaceChildren(h("section", { class: "leaderboard ladder", "data-testid": "ladder" },
      h("h1", {}, t("ladder_title")),
      h("p", { class: "muted" }, t("ladder_intro")),
      h("div", { class: "tabs", role: "tablist", "aria-label": t("ladder_variant") }, body.variants.map(tab)),
      standingsTable(body.bots)));
  }
}

/** @param {LadderLine[]} bots */
function standingsTable(bots) {
  if (!bots.length) return h("p", { class: "muted", "data-testid": "ladder-empty" }, t("ladder_empty"));
  return h("table", { class: "leader-table ladder-table", "data-testid": "ladder-standings" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "#"),
      h("th", { scope: "col" }, t("ladder_bot")),
      h("th", { scope: "col" }, t("ladder_rating")),
      h("th", { scope: "col" }, t("ladder_games")),
      h("th", { scope: "col" }, t("ladder_record")),
      h("th", { scope: "col" }, t("ladder_online")))),
    h("tbody", {}, bots.map((bot, index) => h("tr", { "data-name": bot.name },
      h("td", {}, index + 1),
      h("td", {},
        h("a", { href: `/@/${encodeURIComponent(bot.name)}` }, bot.name), " ",
        botBadge()),
      h("td", {}, ratingBadge(bot)),
      h("td", {}, bot.games),
      h("td", {}, `${bot.won}/${bot.lost}/${bot.drawn}`),
      h("td", { "data-online": bot.online ? "yes" : "no" },
        bot.online ? h("span", { class: "ladder-online", role: "img", "aria-label": t("ladder_online") }, "\u25cf") : "")))));
}

// The start page: against a bot (level, rules, who starts) or with a friend (a link).

import { h, messageOf, store, toast } from "./dom.js";
import { glyph } from "./cards.js";
import { levels, t, variantName } from "./i18n.js";
import { ROW } from "./game_rules.js";
import { api } from "./net.js";
import { clockChoice, waitingList } from "./clock.js";
import { ratedChoice } from "./ratings.js";
import { openRules } from "./rules.js";

const VARIANTS = [
  ["classic", "variant_classic"],
  ["three-rounds", "variant_three_rounds"],
  ["french", "variant_french"],
];

/** @typedef {import("./wire").GameCreated} CreatedGame */
/**
 * The new game's settings (remembered in this browser for the next one).
 * @typedef {object} StartChoice
 * @property {string} opponent
 * @property {number} level
 * @property {string} variant
 * @property {string} first
 * @property {string} clock
 * @property {boolean} private
 * @property {boolean} rated
 */

/**
 * @param {HTMLElement} root
 * @param {{ navigate: (url: string) => void, langControl: () => HTMLElement }} options
 */
export function renderStart(root, { navigate, langControl }) {
  /** @type {Partial<StartChoice>} */
  const saved = JSON.parse(store(localStorage, "hanamikoji.start") || "{}");
  /** @type {StartChoice} */
  const choice = {
    opponent: saved.opponent || "bot",
    level: saved.level !== undefined && levels().numbers.includes(saved.level) ? saved.level : levels().default,
    variant: saved.variant || "classic",
    first: saved.first || "random",
    clock: saved.clock || "none",
    private: Boolean(saved.private),
    rated: Boolean(saved.rated),
  };

  /**
   * @param {"opponent" | "first"} name
   * @param {string} value
   * @param {string} label
   * @param {boolean} checked
   */
  const radio = (name, value, label, checked) =>
    h("label", { class: "choice" },
      h("input", { type: "radio", name, value, checked, onchange: () => { choice[name] = value; update(); } }),
      h("span", {}, label));

  const levelSelect = h("select", { id: "level", name: "level", onchange: (e) => { choice.level = Number(e.currentTarget.value); } },
    levels().numbers.map((n) => h("option", { value: n, selected: n === choice.level }, t(`level_${n}`))));
  const levelField = h("div", { class: "field" }, h("label", { for: "level" }, t("level_label")), levelSelect);

  const form = h("form", { class: "start-form", onsubmit: async (event) => {
    event.preventDefault();
    button.disabled = true;
    store(localStorage, "hanamikoji.start", JSON.stringify(choice));
    try {
      /** @type {CreatedGame} */
      const created = await api("/api/games", {
        method: "POST",
        body: { opponent: choice.opponent, level: choice.level, variant: choice.variant, first: choice.first, clock: choice.clock, private: choice.private, rated: choice.rated },
      });
      if (created.friend_token) store(sessionStorage, `hanamikoji.invite.${created.id}`, created.friend_token);
      navigate(`/g/${created.id}#t=${created.token}`);
    } catch (error) {
      toast(messageOf(error));
      button.disabled = false;
    }
  } },
    h("fieldset", {},
      h("legend", {}, t("opponent_label")),
      radio("opponent", "bot", t("opponent_bot"), choice.opponent === "bot"),
      radio("opponent", "friend", t("opponent_friend"), choice.opponent === "friend")),
    levelField,
    clockChoice(choice),
    h("fieldset", {},
      h("legend", {}, t("variant_label")),
      VARIANTS.map(([name, key]) =>
        h("label", { class: "choice variant" },
          h("input", { type: "radio", name: "variant", value: name, checked: choice.variant === name, onchange: () => { choice.variant = name; } }),
          h("span", {}, h("b", {}, variantName(name)), " · ", t(key)))),
      h("button", { type: "button", class: "link", id: "start-rules", onclick: () => openRules({ variant: choice.variant }) }, t("rules_button"))),
    h("fieldset", {},
      h("legend", {}, t("first_label")),
      radio("first", "me", t("first_me"), choice.first === "me"),
      radio("first", "opponent", t("first_opponent"), choice.first === "opponent"),
      radio("first", "random", t("first_random"), choice.first === "random")),
    h("label", { class: "choice" },
      h("input", { type: "checkbox", id: "private", checked: choice.private, onchange: (e) => { choice.private = e.currentTarget.checked; } }),
      h("span", {}, t("private_label"))),
    ratedChoice(choice),
    h("div", { class: "field" }, h("span", { class: "label" }, t("lang_label")), langControl()),
  );
  const button = h("button", { type: "submit", class: "primary", id: "start-button" }, t("start_button"));
  form.append(button);

  function update() {
    levelField.hidden = choice.opponent !== "bot";
  }
  update();

  root.replaceChildren(
    h("section", { class: "start" },
      h("div", { class: "hero" },
        h("div", { class: "hero-glyphs", "aria-hidden": "true" }, ROW.map((card) => h("span", { class: `tile c${card}` }, glyph(card)))),
        h("h1", {}, "Hanamikoji"),
        h("p", {}, t("tagline")),
        h("a", { href: "/learn", class: "button", id: "learn-button", onclick: (event) => { event.preventDefault(); navigate("/learn"); } }, t("learn_button")),
        " ",
        h("a", { href: "/lobby", class: "button", id: "lobby-button", onclick: (event) => { event.preventDefault(); navigate("/lobby"); } }, t("lobby_button"))),
      h("h2", {}, t("new_game")),
      form),
  );
  // This browser's correspondence games where it is to decide, above the new game.
  waitingList(navigate).then((list) => {
    const heading = root.querySelector(".start > h2");
    if (list && heading) heading.before(list);
  });
}

// The lobby (/lobby): the games anyone may watch.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { renderWatchList } from "./watch.js";

class LobbyView {
  constructor(root, { navigate }) {
    this.root = root;
    this.navigate = navigate;
    this.state = null;
  }

  async start() {
    const list = await renderWatchList({ navigate: this.navigate });
    this.root.replaceChildren(h("section", { class: "lobby", "data-testid": "lobby" },
      h("h1", {}, t("lobby_title")), list));
  }

  setLang() {
    this.start();
  }

  stop() {}
}

export function renderLobby(root, options) {
  const view = new LobbyView(root, options);
  view.start();
  return view;
}

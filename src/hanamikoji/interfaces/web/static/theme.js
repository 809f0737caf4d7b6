// Runs before the page is drawn, so a dark theme never flashes light. data-theme keeps
// the player's choice ("auto", "light" or "dark"); data-scheme the palette in use, with
// "auto" resolved from the system's setting and followed when that changes, so the
// style sheet holds each palette once.
(function () {
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function resolve() {
    var chosen = root.dataset.theme;
    root.dataset.scheme = chosen === "auto" ? (system && system.matches ? "dark" : "light") : chosen;
  }
  var theme = "auto";
  try { theme = localStorage.getItem("hanamikoji.theme") || "auto"; } catch (e) { /* private mode */ }
  root.dataset.theme = theme;
  resolve();
  if (system && system.addEventListener) system.addEventListener("change", resolve);
  /** @param {string} chosen */
  window.hanamikojiSetTheme = function (chosen) {
    root.dataset.theme = chosen;
    resolve();
  };
})();

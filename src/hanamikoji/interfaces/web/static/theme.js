// Runs before the page is drawn, so a dark theme never flashes light.
(function () {
  var theme = "auto";
  try { theme = localStorage.getItem("hanamikoji.theme") || "auto"; } catch (e) { /* private mode */ }
  document.documentElement.dataset.theme = theme;
})();

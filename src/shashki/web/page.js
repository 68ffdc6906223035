// shashki serve's page: the terminal connects back to this very page's server (the
// address in the browser's bar, ws: or wss: as the page came), once the font is loaded
// (xterm.js measures a cell with it); "Restart" loads the page again.
(() => {
  "use strict";
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const socket = scheme + "//" + window.location.host + "/ws";
  const start = window.onload; // textual.js's, set as it loaded
  window.onload = null;
  window.addEventListener("load", (event) => {
    for (const terminal of document.querySelectorAll(".textual-terminal")) {
      terminal.dataset.sessionWebsocketUrl = socket;
    }
    for (const button of document.querySelectorAll("button.restart")) {
      button.addEventListener("click", () => {
        window.location.href = window.location.pathname;
      });
    }
    const font = document.fonts ? document.fonts.load('16px "Roboto Mono"') : Promise.resolve();
    font.catch(() => undefined).then(() => {
      if (typeof start === "function") start.call(window, event);
    });
  });
})();

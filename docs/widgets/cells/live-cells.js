// Entry point of the live cells, loaded as an async module script on the pages that have a
// cell (docs/overrides/main.html).
//
// It imports the session code statically (a few KB, cached after the first page, shared
// with the figures' entry): Python can then start (see start-policy.js) without waiting
// for a chain of chunks, while the editor (the big chunk) is still on its way.
import { startPageSession } from "../boot/session-start.js";

const roots = [...document.querySelectorAll("[data-live-cell]")];
if (roots.length) {
  startPageSession(roots);
  import("./live-cells-page.js").then(({ mountLiveCells }) => {
    // Tests and the console reach the session and the cells here (figure-entry.js adds the figures).
    window.attentionPy = { ...window.attentionPy, ...mountLiveCells(roots) };
    performance.mark("live-cells:mounted");
  });
}

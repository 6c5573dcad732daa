// Entry point of the live cells, loaded as a module script on every page of the site.
// Pages without a live cell pay for these few lines only: the editor, the session and the
// rest arrive as a separate chunk, and only where there is a cell to mount.
const roots = [...document.querySelectorAll("[data-live-cell]")];
if (roots.length) {
  import("./live-cells-page.js").then(({ mountLiveCells }) => {
    // Tests and later widgets (the figure host) reach the session here too.
    window.attentionPy = { ...window.attentionPy, ...mountLiveCells(roots) };
  });
}

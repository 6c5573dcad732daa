// Entry point of the figure host (bundled as assets/widgets/figures.js), loaded as a module
// script on every page of the site. Pages without a figure pay for these few lines only:
// the host, the morph and the Python session arrive as separate chunks, and only where a
// prerendered `.apy-fig[data-figure]` is there to bring to life.
const roots = [...document.querySelectorAll(".apy-fig[data-figure]")];
if (roots.length) {
  import("./figure-page.js").then(({ mountFigures }) => {
    const figures = mountFigures(roots);
    // Tests and the latency benchmark reach the hosts here; the session is the page's one.
    window.attentionPy = { ...window.attentionPy, figures, session: figures.session };
  });
}

// Entry point of the figure host (bundled as assets/widgets/figures.js), loaded as an async
// module script on the pages that have a figure (docs/overrides/main.html). Python starts by
// the same policy as for live cells (start-policy.js) straight from here, while the host
// itself (figure-page.js and the morph) arrives as a chunk.
//
// When Python starts, and why: at once when the reader points at, touches or focuses a
// figure, so the first drag is answered as early as possible; otherwise as soon as a figure
// is on screen or half a screen away, because a reader with a figure in view is likely to
// try it, and the figure is already complete to read while Python loads. With Data Saver on,
// only the reader's own gesture starts it. Input made before Python is ready is queued.
import { startPageSession } from "../boot/session-start.js";

const roots = [...document.querySelectorAll(".apy-fig[data-figure]")];
if (roots.length) {
  startPageSession(roots);
  import("./figure-page.js").then(({ mountFigures }) => {
    const figures = mountFigures(roots);
    // Tests and the latency benchmark reach the hosts here; the session is the page's one.
    window.attentionPy = { ...window.attentionPy, figures, session: figures.session };
  });
}

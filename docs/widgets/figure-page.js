// Everything a page with figures needs, loaded only on such pages (see figure-entry.js):
// one FigureHost per prerendered figure, all on the page's one Python session (shared with
// the live cells, so Python loads once per page), and the start policy.
//
// When Python starts: the same policy as the live cells (start-policy.js). At once when the
// reader points at, touches or focuses a figure, so the first drag is answered as early as
// possible; otherwise once the page has loaded and the browser is idle, if a figure is on
// or near the screen, because a reader who has a figure in view is likely to try it, and
// loading then costs no first paint and no reading time. With Data Saver on, only the
// reader's own gesture starts it. Until Python is ready the prerendered figure is complete
// to read; input is queued (merged) and applied when Python is ready.
import { pageSession } from "./python-session.js";
import { pageStrings } from "./strings.js";
import { startWhenUseful } from "./start-policy.js";
import { FigureHost } from "./figure-host.js";

const STYLE = `
.apy-fig-status { margin: 0.3em 0 1em; font-size: 0.8em; color: var(--md-default-fg-color--light, #555); }
.apy-fig-status[hidden] { display: none; }
`;

export function mountFigures(roots) {
  const session = pageSession();
  const uiStrings = pageStrings();
  addStyle();
  const hosts = roots.map((root) => new FigureHost(root, { session, uiStrings }));
  let warmed = 0; // the session generation whose Python has imported the figures
  const onState = () => {
    if (session.state === "ready" && warmed !== session.generation) {
      warmed = session.generation;
      if (!hosts.some((host) => host.pending)) warmUp(session, roots[0]); // input would warm it anyway
    }
    for (const host of hosts) {
      if (session.state === "ready") host.onSessionReady();
      else host.showStatus();
    }
  };
  session.addEventListener("state", onState);
  session.addEventListener("progress", () => hosts.forEach((host) => host.showStatus()));
  // A restart (a live cell stopped without cross-origin isolation, or the Restart button):
  // the figures keep their drawing; input waits for the fresh Python like at first start.
  session.addEventListener("restart", () => hosts.forEach((host) => host.showStatus()));
  if (session.state === "ready") onState(); // the live cells started it already
  startWhenUseful(session, roots);
  return { session, hosts, byId: (id) => hosts.find((host) => host.root.id === id) };
}

/**
 * The first call in a fresh Python imports attention_py.figures (about 0.1 s in Pyodide).
 * Pay that as soon as Python is ready, not on the reader's first input: one throwaway call
 * (no changes) for the first figure. Input arriving meanwhile simply queues behind it.
 */
function warmUp(session, root) {
  const args = [root.dataset.figure, root.dataset.state, "{}", root.lang, root.dataset.strings, root.id || null];
  session.call("attention_py.figures.host_update", args).catch(() => {}); // a failure shows on real input
}

function addStyle() {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {
    const style = document.head.appendChild(document.createElement("style"));
    style.textContent = STYLE;
  }
}

// Everything a page with figures needs, loaded only on such pages (see figure-entry.js,
// which has already started Python by the shared start policy): one FigureHost per
// prerendered figure, all on the page's one Python session (shared with the live cells, so
// Python loads once per page), the status they show, and a warm-up call once Python is ready.
import { pageSession } from "../runtime/python-session.js";
import { pageStrings } from "../shared/strings.js";
import { FigureHost } from "./figure-host.js";
import { morphFigure } from "./figure-morph.js";

const STYLE = `
.apy-fig-status { margin: 0.3em 0 1em; font-size: 0.8em; color: var(--md-default-fg-color--light, #555); }
.apy-fig-status[hidden] { display: none; }
.apy-fig-address { margin: 0.3em 0 1em; font-size: 0.8em; }
`;

export function mountFigures(roots) {
  const session = pageSession();
  const uiStrings = pageStrings();
  addStyle();
  const hosts = roots.map((root) => new FigureHost(root, { session, uiStrings, morph: morphFigure }));
  let warmed = 0; // the session generation whose Python has imported the figures
  const warming = { timedOut: false }; // after a warm-up that timed out, no more warm-ups
  const onState = () => {
    if (session.state === "ready" && warmed !== session.generation) {
      warmed = session.generation;
      const idle = !hosts.some((host) => host.pending); // input would warm it anyway
      if (idle && !warming.timedOut) warmUp(session, warmUpHosts(hosts), warming);
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
  onState(); // Python may be loading already, or even ready
  return { session, hosts, byId: (id) => hosts.find((host) => host.root.id === id) };
}

/**
 * The first call in a fresh Python imports attention_py.figures (about 0.1 s in Pyodide).
 * Pay that as soon as Python is ready, not on the reader's first input: throwaway calls
 * (no changes) for the figures of warmUpHosts. Input arriving meanwhile simply queues behind.
 */
function warmUp(session, hosts, warming) {
  for (const host of hosts) {
    // Reading a data file on a slow connection can take longer than a figure call may: the
    // warm-up has its own, longer limit (the worker's read gives up first, at 45 s), so a
    // slow file never gets the worker replaced, and a replaced worker is not warmed again
    // and again (issue 19). A failure shows on real input.
    host.warmUp({ timeoutMs: WARM_UP_TIMEOUT_MS }).catch((error) => {
      if (error?.reply?.status === "timeout") warming.timedOut = true;
    });
  }
}
const WARM_UP_TIMEOUT_MS = 60_000;

/**
 * The figures whose throwaway call pays the start-up costs: the first figure, and the first
 * figure of each data file (data-resource), whose first drawing makes Python read
 * assets/<key>.json (about 250 KB for a trained model) before the reader's first input.
 */
function warmUpHosts(hosts) {
  const chosen = [hosts[0]];
  const keys = new Set(hosts[0].resource ? [hosts[0].resource] : []);
  for (const host of hosts) {
    if (host.resource && !keys.has(host.resource)) {
      keys.add(host.resource);
      chosen.push(host);
    }
  }
  return chosen;
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

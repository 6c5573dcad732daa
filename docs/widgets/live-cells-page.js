// Everything a page with live cells needs, loaded only on such pages (see live-cells.js):
// the page's Python session, one LiveCell per prerendered cell, the start policy, and one
// announcer that tells screen-reader users when Python is ready, restarted or failed.
import { pageSession } from "./python-session.js";
import { pageStrings } from "./strings.js";
import { LiveCell } from "./live-cell.js";
import { startWhenUseful } from "./start-policy.js";

export function mountLiveCells(roots) {
  const strings = pageStrings();
  const session = pageSession();
  const cells = roots.map((root) => new LiveCell(root, { session, strings }));
  announceSessionChanges(session, strings);
  startWhenUseful(session, roots);
  return { session, cells };
}

function announceSessionChanges(session, strings) {
  const region = document.body.appendChild(document.createElement("div"));
  region.className = "live-cell__announcer";
  region.setAttribute("role", "status");
  session.addEventListener("state", ({ detail: state }) => {
    if (state === "ready") region.textContent = strings.ready;
    else if (state === "failed") region.textContent = strings.failed(session.error || "");
  });
}

// The cells of a page, loaded only on pages that have some (see live-cells.js): one
// LiveCell per prerendered cell on the page's Python session (started by session-start.js),
// and one announcer that tells screen-reader users when Python is ready or failed.
import { pageSession } from "../runtime/python-session.js";
import { pageStrings } from "../shared/strings.js";
import { LiveCell } from "./live-cell.js";

export function mountLiveCells(roots) {
  const strings = pageStrings();
  const session = pageSession();
  const cells = roots.map((root) => new LiveCell(root, { session, strings }));
  announceSessionChanges(session, strings);
  return { session, cells };
}

function announceSessionChanges(session, strings) {
  const region = document.body.appendChild(document.createElement("div"));
  region.className = "live-cell__announcer";
  region.setAttribute("role", "status");
  session.addEventListener("state", ({ detail: state }) => {
    if (state === "ready") region.textContent = strings.ready;
    else if (state === "failed") region.textContent = strings.failed({ message: session.error || "" });
  });
}

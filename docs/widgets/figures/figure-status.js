// The line beside a figure that says why it is not following the reader's input, when it is
// not: Python is starting (and how far its download is), restarting, restoring the state
// saved before a reload, waiting for a running code cell, or unavailable. Beside the root,
// not inside it: the root's children are Python's (morphed on every update).

export class FigureStatus {
  constructor(root, ui) {
    this.ui = ui;
    const status = (this.element = document.createElement("p"));
    status.className = "apy-fig-status";
    status.setAttribute("role", "status");
    status.lang = root.lang;
    status.dir = root.dir;
    status.hidden = true;
    root.after(status);
  }

  /**
   * Shows what `session` (the page's Python) means for the figure: `waiting` (it has input
   * not yet drawn), `inFlight` (a call is out), `restoring` (the waiting input is a saved
   * state), `used` (the reader has given input), `updated` (the figure has been redrawn).
   */
  show(session, { waiting, inFlight, restoring, used, updated }) {
    const { ui } = this;
    const { state } = session;
    let text = "";
    if (state === "failed" && (waiting || used)) text = ui.figure_unavailable;
    else if (state === "ready" && inFlight && session.busyWithCode) text = ui.figure_waiting_for_code;
    else if (state !== "ready" && waiting) {
      if (restoring) text = ui.figure_restoring;
      else text = session.generation > 1 && updated ? ui.figure_restarting : ui.figure_starting;
      const progress = session.progress;
      if (progress?.phase === "download" && progress.total && progress.loaded < progress.total) {
        const mb = (bytes) => ui.number(bytes / 1e6, 1);
        text += ` (${ui.downloading({ loaded: mb(progress.loaded), total: mb(progress.total) })})`;
      }
    }
    const status = this.element;
    if (status.textContent !== text) status.textContent = text;
    status.hidden = !text;
  }
}

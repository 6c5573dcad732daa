// The session's state as each cell shows it: a progress bar with words while Python loads
// ("Loading Python: 4.1 of 12.2 MB", "Installing attention_py…"), "Python is ready" after,
// and the Restart button. The bar is role=progressbar with aria-valuetext; state changes are
// announced once per page by the announcer (see live-cells-page.js), not by every cell.
// When Python could not start on a page the site's service worker serves, a link beside
// Restart repairs the site on this device (`?apy-repair`: the worker drops every kept copy
// and loads the page afresh), in case a kept file is what went wrong.
import { repairAddress } from "../offline/offline-files.js";

// Share of the bar each loading phase fills: the download dominates a cold start.
const DOWNLOAD_SHARE = 85;
const STARTING_AT = 88;
const INSTALLING_AT = 95;

export class SessionStatusView {
  constructor(container, { session, strings }) {
    this.session = session;
    this.strings = strings;
    container.classList.add("live-cell__session");

    this.bar = container.appendChild(document.createElement("span"));
    this.bar.className = "live-cell__progress";
    this.bar.setAttribute("role", "progressbar");
    this.bar.setAttribute("aria-label", strings.progress_label);
    this.bar.setAttribute("aria-valuemin", "0");
    this.bar.setAttribute("aria-valuemax", "100");
    this.fill = this.bar.appendChild(document.createElement("span"));
    this.fill.className = "live-cell__progress-fill";

    this.label = container.appendChild(document.createElement("span"));
    this.label.className = "live-cell__session-label";

    this.restartButton = container.appendChild(document.createElement("button"));
    this.restartButton.type = "button";
    this.restartButton.className = "live-cell__button live-cell__restart";
    this.restartButton.textContent = strings.restart;
    this.restartButton.title = strings.restart_title;
    this.restartButton.addEventListener("click", () => session.restart());

    this.repairLink = container.appendChild(document.createElement("a"));
    this.repairLink.className = "live-cell__repair";
    this.repairLink.textContent = strings.repair_link;
    this.repairLink.title = strings.repair_link_title;
    this.repairLink.hidden = true;

    const update = () => this.update();
    session.addEventListener("state", update);
    session.addEventListener("progress", update);
    this.update();
  }

  update() {
    const { state, progress, error } = this.session;
    const { strings } = this;
    const loading = state === "loading";
    this.bar.hidden = !loading;
    this.restartButton.hidden = !(state === "ready" || state === "failed");
    this.repairLink.hidden = !(state === "failed" && globalThis.navigator?.serviceWorker?.controller);
    if (!this.repairLink.hidden) this.repairLink.href = repairAddress(globalThis.location.href);
    this.label.dataset.state = state;
    if (!loading) {
      this.label.textContent = state === "ready" ? strings.ready : state === "failed" ? strings.unavailable : "";
      this.label.title = state === "failed" ? error || "" : "";
      return;
    }
    let text;
    let value;
    if (progress.phase === "download" && progress.total && progress.loaded < progress.total) {
      const mb = (bytes) => strings.number(bytes / 1e6, 1);
      text = strings.downloading({ loaded: mb(progress.loaded), total: mb(progress.total) });
      value = (DOWNLOAD_SHARE * progress.loaded) / progress.total;
    } else if (progress.phase === "install") {
      text = strings.installing;
      value = INSTALLING_AT;
    } else {
      text = strings.starting;
      value = progress.phase === "download" && progress.loaded ? STARTING_AT : 0;
    }
    this.label.textContent = text;
    this.bar.setAttribute("aria-valuenow", String(Math.round(value)));
    this.bar.setAttribute("aria-valuetext", text);
    this.fill.style.inlineSize = `${value}%`;
  }
}

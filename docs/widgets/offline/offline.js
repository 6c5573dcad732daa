// Offline reading, the page's side: registers the site's service worker (service-worker.js,
// published as sw.js at the site root), tells it what this visit fetched so that the page
// works offline next time, and draws the control that keeps the rest of the site, or one
// language, ahead, shows what is kept and removes it ([data-offline-control], on each home
// page and on the offline page). Module entry, on every page (mkdocs.yml extra_javascript).
//
// A page the reader leaves before the worker kept it (the page they landed on, which was
// loaded before the worker controlled anything, is the usual one) leaves its list in the
// tab's sessionStorage, and the next page sends it along: every visited page is kept.
import { REPAIR, repairAddress } from "./offline-files.js";
import { WORKER_SILENT_MS, askWorker } from "./offline-request.js";
import { pageStrings } from "../shared/strings.js";

const CONFIG_ID = "apy-offline-config"; // {"worker": <sw.js>, "search": <this language's search index>} (main.html)
const MB = 1e6;
const LEFT_UNKEPT = "apy-offline-left"; // sessionStorage: {urls, python} of pages left before they were kept
const MAX_LEFT = 2000; // addresses remembered at most (a page fetches about 60)

function config() {
  try {
    return JSON.parse(document.getElementById(CONFIG_ID)?.textContent || "null");
  } catch {
    return null;
  }
}

/** The site's worker registration, or the reason there is none. One already active is used
 * at once (the browser looks for a new sw.js on every navigation by itself; offline, a new
 * registration would first wait for the network to fail). */
async function register(found) {
  if (!found) return { reason: "no configuration" };
  if (!("serviceWorker" in navigator)) return { reason: "no service workers" };
  const worker = new URL(found.worker, location.href);
  try {
    const existing = await navigator.serviceWorker.getRegistration(new URL("./", worker).href);
    if (existing?.active && existing.active.scriptURL === worker.href) return { registration: existing };
    const registration = await navigator.serviceWorker.register(worker.href, {
      scope: new URL("./", worker).href,
      updateViaCache: "none",
    });
    return { registration };
  } catch (error) {
    return { reason: String(error?.message || error) };
  }
}

/** Posts `message` to the registration's active worker; resolves with its status answer, or
 * null when it was silent too long (offline-request.js). */
function ask(registration, message, onProgress) {
  return askWorker(navigator.serviceWorker, registration.active, message, { onProgress });
}

/** What pages of this tab left before the worker kept them: {urls, python}. */
function leftUnkept() {
  try {
    const found = JSON.parse(sessionStorage.getItem(LEFT_UNKEPT) || "null");
    return { urls: Array.isArray(found?.urls) ? found.urls.map(String) : [], python: Boolean(found?.python) };
  } catch {
    return { urls: [], python: false };
  }
}

function rememberUnkept(urls, python) {
  const earlier = leftUnkept();
  const all = [...new Set([...earlier.urls, ...urls])].slice(-MAX_LEFT);
  try {
    sessionStorage.setItem(LEFT_UNKEPT, JSON.stringify({ urls: all, python: python || earlier.python }));
  } catch {
    // no sessionStorage (or full): that page is kept only if the reader comes back to it
  }
}

function forgetUnkept() {
  try {
    sessionStorage.removeItem(LEFT_UNKEPT);
  } catch {
    // nothing to forget
  }
}

/** What this visit fetched, for the worker to keep: the page, its resources, the data files
 * its figures read (data-resource, "training/en": assets/training/en.json), which Python's
 * worker fetches itself, and its language's search index, which a page with Python asks for
 * only once Python is ready (search-hold.js). */
function visited(root) {
  const data = [...document.querySelectorAll("[data-resource]")].map(
    (element) => new URL(`assets/${element.dataset.resource}.json`, root).href,
  );
  const search = config()?.search;
  const index = search ? [new URL(search, location.href).href] : [];
  return [location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name), ...data, ...index];
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

// The reader removed what was kept, from this page: the page then keeps nothing of its own
// visit (not even Python's files, which may arrive after the click).
let removedHere = false;

/** The control in `root`: what is kept, the two choices with their sizes, Remove. */
class OfflineControl {
  constructor(root, registration, reason) {
    this.root = root;
    this.registration = registration;
    this.strings = pageStrings();
    this.running = false; // a keep or a remove of the reader's is under way (see show)
    this.root.classList.add("apy-offline");
    this.line = el("p", { class: "apy-offline__status", role: "status" });
    this.buttons = el("p", { class: "apy-offline__buttons" });
    this.pages = el("ul", { class: "apy-offline__pages" });
    this.root.replaceChildren(this.line, this.buttons, this.pages, this.repairHint());
    this.last = null; // the worker's last status answer
    this.failure = null; // why the reader's last keep stopped, said until the next keep or remove
    this.progress = { done: 0, total: 0 }; // of the reader's keep under way
    // The offline page, reached from a page that was not kept: a way back to it.
    const from = new URLSearchParams(location.search).get("from");
    if (from && new URL(from, location.href).origin === location.origin) {
      this.root.append(el("p", {}, el("a", { href: new URL(from, location.href).href }, this.strings.offline_retry)));
    }
    if (!registration) this.say(this.strings.offline_unavailable({ reason }));
  }

  /** How to repair the site on this device without any of its scripts: the address, and a
   * link to it (the worker answers it itself: service-worker.js, `repair`). */
  repairHint() {
    const mark = "\u{E000}"; // where the address goes, as code
    const [before, after = ""] = this.strings.offline_repair_hint({ address: mark }).split(mark);
    return el(
      "p",
      { class: "apy-offline__repair" },
      before,
      el("code", { dir: "ltr" }, `?${REPAIR}`),
      after,
      " ",
      el("a", { href: repairAddress(location.href) }, this.strings.offline_repair),
    );
  }

  mb(bytes) {
    return this.strings.number(bytes / MB, bytes < 10 * MB ? 1 : 0);
  }

  say(text) {
    this.line.textContent = text;
  }

  /** Draws `status`; `settled`: the answer to this visit, a keep or a remove (data-kept).
   * While the reader's keep or remove runs, the control shows its progress only: the
   * visit's own answer arriving then would say "kept" before it is. */
  show(status, settled = true, ours = false) {
    if (this.running && !ours) return;
    if (!status) return this.say(this.strings.offline_unavailable({ reason: "no active worker" }));
    this.last = status;
    const strings = this.strings;
    const { kept, sizes, storage } = status;
    if (settled) this.root.dataset.kept = String(kept.files);
    if (ours && status.job?.failed) this.failure = { job: status.job, reason: this.reason(status.job.failed) };
    if (storage !== "ok") this.say(storage === "full" ? strings.offline_full : strings.offline_refused);
    else if (this.failure) this.stopped(this.failure.job, this.failure.reason);
    else if (!kept.files) this.say(strings.offline_nothing);
    else {
      const count = Object.values(kept.pages).reduce((n, list) => n + list.length, 0);
      this.say(strings.offline_kept({ size: this.mb(kept.bytes), pages: strings.number(count) }));
    }
    const button = (text, action) => {
      const b = el("button", { type: "button", class: "md-button" }, text);
      b.addEventListener("click", action);
      return b;
    };
    this.buttons.replaceChildren(
      button(strings.offline_keep_all({ size: this.mb(sizes.all) }), () => this.keep("all")),
      button(strings.offline_keep_language({ size: this.mb(sizes[strings.lang] ?? sizes.all) }), () => this.keep(strings.lang)),
      ...(kept.files ? [button(strings.offline_remove, () => this.run({ type: "remove" }))] : []),
    );
    const own = kept.pages[strings.lang] || [];
    this.pages.replaceChildren(...own.map((page) => el("li", {}, el("a", { href: page.address }, page.title))));
  }

  /** Why the worker's keep stopped, in words (`failed`: its {reason, status}). */
  reason(failed) {
    const strings = this.strings;
    if (failed.reason === "status") return strings.offline_reason_status({ status: String(failed.status) });
    if (failed.reason === "timeout") return strings.offline_reason_timeout({ seconds: strings.number(failed.seconds) });
    return strings.offline_reason_unreachable;
  }

  stopped({ done, total }, reason) {
    this.say(this.strings.offline_stopped({ done: this.mb(done), total: this.mb(total), reason }));
  }

  async keep(choice) {
    this.progress = { done: 0, total: 0 };
    this.say(this.strings.offline_downloading({ done: this.mb(0), total: "…" }));
    await this.run({ type: "keep", choice }, ({ done, total }) => {
      this.progress = { done, total };
      this.say(this.strings.offline_downloading({ done: this.mb(done), total: this.mb(total) }));
    });
  }

  async run(message, onProgress) {
    if (message.type === "remove") removedHere = true;
    this.failure = null;
    for (const button of this.buttons.querySelectorAll("button")) button.disabled = true;
    delete this.root.dataset.kept; // until the worker answers
    this.running = true;
    let status;
    try {
      status = await ask(this.registration, message, onProgress);
    } finally {
      this.running = false;
    }
    if (status || !this.last) return this.show(status, true, true);
    // The worker went silent: the buttons come back with what was last known, and Keep again
    // goes on where it stopped (the worker keeps what it has, and skips it next time).
    const seconds = this.strings.number(WORKER_SILENT_MS / 1000);
    this.failure = { job: this.progress, reason: this.strings.offline_reason_worker({ seconds }) };
    this.show(this.last, true, true);
  }
}

async function start() {
  const found = config();
  const python = Boolean(document.getElementById("apy-boot-config"));
  const root = document.documentElement;
  // Left before the worker kept what this page fetched (on a first visit the worker is not
  // even active yet): the next page of this tab sends it.
  let unkept = Boolean(found && "serviceWorker" in navigator);
  addEventListener("pagehide", () => {
    if (!unkept || removedHere) return;
    const site = new URL("./", new URL(found.worker, location.href)).href;
    rememberUnkept(visited(site), root.dataset.apyPython === "ready");
  });
  const { registration, reason } = await register(found);
  const controls = [...document.querySelectorAll("[data-offline-control]")].map(
    (element) => new OfflineControl(element, registration, reason),
  );
  if (!registration) {
    unkept = false;
    return;
  }
  await navigator.serviceWorker.ready;
  if (controls.length) {
    const status = await ask(registration, { type: "status" });
    for (const control of controls) control.show(status, false);
  }
  const visit = async (withPython) => {
    if (removedHere) return;
    const left = leftUnkept();
    const urls = [...visited(registration.scope), ...left.urls];
    const status = await ask(registration, {
      type: "visit",
      page: location.href,
      urls,
      python: withPython || left.python,
    });
    if (status && !status.job?.failed) {
      forgetUnkept();
      unkept = python && !withPython; // its Python's files are still to come
    }
    for (const control of controls) control.show(status);
  };
  // What the page fetched once it has loaded; Python's files once Python has started (the
  // worker fetched them before this worker controlled the page, on a first visit).
  if (document.readyState !== "complete") {
    await new Promise((resolve) => {
      addEventListener("load", resolve, { once: true });
    });
  }
  await visit(false);
  if (!python) return;
  if (root.dataset.apyPython === "ready") return visit(true);
  new MutationObserver((_, observer) => {
    if (root.dataset.apyPython !== "ready") return;
    observer.disconnect();
    visit(true);
  }).observe(root, { attributes: true, attributeFilter: ["data-apy-python"] });
}

start();

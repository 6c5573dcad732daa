// Offline reading, the page's side: registers the site's service worker (service-worker.js,
// published as sw.js at the site root), tells it what this visit fetched so that the page
// works offline next time, and draws the control that keeps the rest of the site, or one
// language, ahead, shows what is kept and removes it ([data-offline-control], on each home
// page and on the offline page). Module entry, on every page (mkdocs.yml extra_javascript).
import { pageStrings } from "./strings.js";

const CONFIG_ID = "apy-offline-config"; // {"worker": <sw.js>, "page": <this page's address>} (main.html)
const MB = 1e6;

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

let asked = 0;

/** Posts `message` to the active worker; resolves with its status answer (or null). */
function ask(registration, message, onProgress = () => {}) {
  const id = ++asked;
  return new Promise((resolve) => {
    const worker = registration.active;
    if (!worker) {
      resolve(null);
      return;
    }
    const listen = (event) => {
      const data = event.data || {};
      if (data.id !== id) return;
      if (data.type === "apy-offline-progress") onProgress(data);
      if (data.type === "apy-offline-status") {
        navigator.serviceWorker.removeEventListener("message", listen);
        resolve(data);
      }
    };
    navigator.serviceWorker.addEventListener("message", listen);
    worker.postMessage({ ...message, id });
  });
}

/** What this visit fetched, for the worker to keep: the page, its resources, and the data
 * files its figures read (data-resource, "training/en": assets/training/en.json), which
 * Python's worker fetches itself. */
function visited(root) {
  const data = [...document.querySelectorAll("[data-resource]")].map(
    (element) => new URL(`assets/${element.dataset.resource}.json`, root).href,
  );
  return [location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name), ...data];
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

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
    this.root.replaceChildren(this.line, this.buttons, this.pages);
    // The offline page, reached from a page that was not kept: a way back to it.
    const from = new URLSearchParams(location.search).get("from");
    if (from && new URL(from, location.href).origin === location.origin) {
      this.root.append(el("p", {}, el("a", { href: new URL(from, location.href).href }, this.strings.offline_retry)));
    }
    if (!registration) this.say(this.strings.offline_unavailable({ reason }));
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
    const strings = this.strings;
    const { kept, sizes, storage } = status;
    if (settled) this.root.dataset.kept = String(kept.files);
    if (storage !== "ok") this.say(storage === "full" ? strings.offline_full : strings.offline_refused);
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

  async keep(choice) {
    this.say(this.strings.offline_downloading({ done: this.mb(0), total: "…" }));
    await this.run({ type: "keep", choice }, ({ done, total }) =>
      this.say(this.strings.offline_downloading({ done: this.mb(done), total: this.mb(total) })),
    );
  }

  async run(message, onProgress) {
    for (const button of this.buttons.querySelectorAll("button")) button.disabled = true;
    delete this.root.dataset.kept; // until the worker answers
    this.running = true;
    let status;
    try {
      status = await ask(this.registration, message, onProgress);
    } finally {
      this.running = false;
    }
    this.show(status, true, true);
  }
}

async function start() {
  const found = config();
  const { registration, reason } = await register(found);
  const controls = [...document.querySelectorAll("[data-offline-control]")].map(
    (root) => new OfflineControl(root, registration, reason),
  );
  if (!registration) return;
  await navigator.serviceWorker.ready;
  if (controls.length) {
    const status = await ask(registration, { type: "status" });
    for (const control of controls) control.show(status, false);
  }
  const python = Boolean(document.getElementById("apy-boot-config"));
  const visit = async (withPython) => {
    const urls = visited(registration.scope);
    const status = await ask(registration, { type: "visit", page: location.href, urls, python: withPython });
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
  const root = document.documentElement;
  if (root.dataset.apyPython === "ready") return visit(true);
  new MutationObserver((_, observer) => {
    if (root.dataset.apyPython !== "ready") return;
    observer.disconnect();
    visit(true);
  }).observe(root, { attributes: true, attributeFilter: ["data-apy-python"] });
}

start();

// A shareable figure in the page's address (attention_py/figures/README.md, "Addresses").
//
// A figure that declares shareable keys (data-share: each key and its default) is opened by a
// link to `#<its id>?key=value&...` (on arrival, and on a hashchange when the article links to
// it): those values, the other shareable keys at their defaults, go to Python as text, like a
// control's, and Python refuses what it cannot use. A key the figure does not share, a
// repeated key or an overlong address is refused here, before Python. Python writes the
// address of what the figure shows on its root (data-address); it is shown as a link under
// the figure and, after the reader changes the figure, put in the address bar
// (history.replaceState), so the address bar always holds a link to what the reader sees.

// An address longer than this, or a value longer than that, is refused as is.
const ADDRESS_MAX_CHARS = 1000;
const ADDRESS_VALUE_MAX_CHARS = 40;
// What a figure's own address looks like (attention_py/figures/_figure.py, Figure.address).
const ADDRESS = /^#[a-z][a-z0-9-]*(\?[\w.~%=&+-]*)?$/;

// A refused setting is quoted in the page's sentence: at most this many of its characters.
const EXCERPT_MAX_CHARS = 32;
// Controls and invisible formatting (bidi overrides and isolates, zero-width spaces) that a
// crafted link could use to reorder or hide the page's own words; the joiners Persian words
// need stay.
const HIDDEN = /[\p{Cc}\p{Cf}]/gu;
const JOINERS = new Set(["\u200c", "\u200d"]);

/**
 * What a page's sentence may quote of `text`, an address's setting: its start, without
 * controls or invisible formatting, cut with "…" past EXCERPT_MAX_CHARS, and isolated
 * (U+2068 … U+2069) so that neither its direction nor the sentence's reorders the other.
 */
export function excerpt(text) {
  const visible = Array.from(String(text).replace(HIDDEN, (c) => (JOINERS.has(c) ? c : "")));
  const cut = visible.length > EXCERPT_MAX_CHARS ? `${visible.slice(0, EXCERPT_MAX_CHARS).join("")}…` : visible.join("");
  return `\u2068${cut}\u2069`;
}

export class FigureAddress {
  /** The address of `root` (with its id `instance`); `ui` gives the link's words. */
  constructor(root, instance, ui) {
    this.root = root;
    this.instance = instance;
    this.share = root.dataset.share ? JSON.parse(root.dataset.share) : null; // shareable key -> default
    this.link = this.share && instance ? this.createLink(ui) : null;
  }

  /**
   * What the page's address asks of this figure: null when it does not name the figure with
   * settings; `{change}` (every shareable key: the address's value as text, else its default);
   * or `{refused: "key=value"}` for what this figure does not share.
   */
  asked(hash) {
    if (!this.share || !this.instance || !this.isOwn(hash) || !hash.includes("?")) return null;
    const query = hash.slice(hash.indexOf("?") + 1);
    if (query.length > ADDRESS_MAX_CHARS) return { refused: `${query.slice(0, ADDRESS_VALUE_MAX_CHARS)}…` };
    const change = { ...this.share };
    const seen = new Set();
    for (const [key, value] of new URLSearchParams(query)) {
      if (!Object.hasOwn(this.share, key) || seen.has(key) || value.length > ADDRESS_VALUE_MAX_CHARS) {
        return { refused: `${key}=${value}`.slice(0, 2 * ADDRESS_VALUE_MAX_CHARS) };
      }
      seen.add(key);
      change[key] = value;
    }
    return { change };
  }

  /** Whether `hash` is this figure's address: `#<id>`, with or without `?settings`. */
  isOwn(hash) {
    const own = `#${this.instance}`;
    return hash === own || hash.startsWith(`${own}?`);
  }

  /** The address of the settings the figure shows, as Python wrote it (data-address), if it is one. */
  drawn() {
    const address = this.root.dataset.address;
    return address && ADDRESS.test(address) && this.isOwn(address) ? address : null;
  }

  /** The link under the figure follows its settings; with `toBar`, the address bar too. */
  show(toBar) {
    const hash = this.drawn();
    if (!hash) return;
    this.link?.setAttribute("href", hash);
    if (!toBar || location.hash === hash) return;
    // at its defaults: the address the reader came by stays, unless it was this figure's
    if (hash === `#${this.instance}` && !this.isOwn(location.hash)) return;
    try {
      history.replaceState(history.state, "", hash);
    } catch {
      // a sandboxed page: the link in the figure still holds the settings
    }
  }

  /** A link to the figure's settings, beside the root (its children are Python's). */
  createLink(ui) {
    const paragraph = document.createElement("p");
    paragraph.className = "apy-fig-address";
    paragraph.lang = this.root.lang;
    paragraph.dir = this.root.dir;
    const link = document.createElement("a");
    link.textContent = ui.figure_share;
    link.title = ui.figure_share_title;
    link.setAttribute("href", this.drawn() ?? `#${this.instance}`);
    paragraph.append(link);
    this.root.after(paragraph);
    return link;
  }
}

/** Whether the page was opened by following a link (not a reload or a step back in history). */
export function arrivedByLink() {
  const navigation = performance.getEntriesByType?.("navigation")?.[0];
  return !navigation || navigation.type === "navigate";
}

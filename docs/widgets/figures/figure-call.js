// One figure's call to Python: attention_py.figures.update through the session runtime's
// update_figure (docs/widgets/session_runtime.py), which keeps each figure's strings, so
// that they cross to the worker once per figure and language and not with every call (a
// training figure is called every few milliseconds while it trains; its strings are 4 KB).
//
// The strings go with a call unless this page's Python has answered a call that carried
// them (per session generation: a fresh Python after a crash, a replacement or a reload
// knows nothing). They are kept there under a digest of the text itself, so a Python never
// draws with another text's strings; and a Python that does not have them answers
// STRINGS_MISSING instead of drawing, and the call goes again with them. So a figure is
// never drawn with missing or stale strings, whichever worker answers.

export const UPDATE = "_session_runtime.update_figure";

// Which figures' strings each session's current Python has: session -> key -> generation.
const known = new WeakMap();

export class FigureCall {
  /** The call of the figure `root` (its name, language and id) on `session`. */
  constructor(root, session) {
    this.session = session;
    this.name = root.dataset.figure;
    this.lang = root.lang;
    this.instance = root.id || null;
    this.text = root.dataset.strings; // the figure's own strings, the same for every call
    this.key = `${this.name}\n${this.lang}\n${digest(this.text)}`;
    this.strings = null; // parsed once, when first sent
  }

  /**
   * Asks Python for the figure at `state` with `changes` applied; resolves with the answer
   * ({ok, html, state} or {ok: false, error, key}), rejects as session.call does.
   */
  async send(state, changes, options = {}) {
    const sent = this.knows() ? null : this.parsedStrings();
    let result = await this.post(state, changes, sent, options);
    if (sent === null && isStringsMissing(result)) result = await this.post(state, changes, this.parsedStrings(), options);
    if (!isStringsMissing(result)) this.learned();
    return result;
  }

  post(state, changes, strings, { timeoutMs } = {}) {
    const args = [this.name, state, changes, this.lang, strings, this.instance, this.key];
    return this.session.call(UPDATE, args, {}, timeoutMs === undefined ? undefined : { timeoutMs });
  }

  parsedStrings() {
    this.strings ??= JSON.parse(this.text);
    return this.strings;
  }

  knows() {
    return known.get(this.session)?.get(this.key) === this.session.generation;
  }

  /** This Python answered with the strings at hand (the answer came from the current worker). */
  learned() {
    if (!known.has(this.session)) known.set(this.session, new Map());
    known.get(this.session).set(this.key, this.session.generation);
  }
}

/** Python's answer when it was sent no strings and has none under the key (session_runtime.py, STRINGS_MISSING). */
function isStringsMissing(result) {
  return result?.ok === false && result.strings === "missing";
}

/** A short digest of a text (FNV-1a, 32 bits, with the length): names the strings, not a secret. */
export function digest(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length.toString(36)}-${(hash >>> 0).toString(36)}`;
}

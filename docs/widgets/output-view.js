// The output area of a live cell. Everything shown here is text (textContent / Text nodes),
// never HTML: a program that prints "<script>" shows those characters.
//
// The worker already caps each run's output; the cap is applied here again because writes
// that bypass sys.stdout (C-level, os.write) reach the page without passing that cap.
// Output arrives line by line; it is put on the page once per animation frame, so a chatty
// program costs one layout per frame, not one per line.
export const MAX_LINES = 2000;
export const MAX_CHARS = 200_000;

export class OutputView {
  constructor(container, strings) {
    this.container = container;
    this.strings = strings;
    this.pre = container.appendChild(document.createElement("pre"));
    this.clear();
  }

  clear() {
    cancelAnimationFrame(this.frame);
    this.frame = null;
    this.queue = [];
    this.pre.replaceChildren();
    this.container.querySelectorAll(".live-cell__note").forEach((note) => note.remove());
    this.truncatedNoted = false;
    this.container.hidden = true; // until there is something to show
    this.last = null; // {kind, text: Text node} of the newest piece, for appending
    this.lines = 0;
    this.chars = 0;
    this.truncated = false;
  }

  /** Streamed text: kind is "stdout" or "stderr". */
  write(kind, text) {
    text = this.fit(text);
    if (!text) return;
    this.queue.push([kind, text]);
    this.frame ??= requestAnimationFrame(() => this.render());
  }

  /** Puts queued output on the page now (the run's end calls it, not only the next frame). */
  render() {
    cancelAnimationFrame(this.frame);
    this.frame = null;
    if (!this.queue.length) return;
    const queue = this.queue;
    this.queue = [];
    this.container.hidden = false;
    // Like a terminal: while the reader is at the bottom, new output keeps them there.
    const { pre } = this;
    const atBottom = pre.scrollHeight - pre.scrollTop - pre.clientHeight < 8;
    for (const [kind, text] of queue) this.append(kind, text);
    if (atBottom) pre.scrollTop = pre.scrollHeight;
  }

  append(kind, text) {
    if (this.last?.kind === kind) {
      this.last.text.appendData(text);
      return;
    }
    const span = this.pre.appendChild(document.createElement("span"));
    span.className = `live-cell__${kind}`;
    this.last = { kind, text: span.appendChild(document.createTextNode(text)) };
  }

  /** A block on its own line: "value" (the last expression's repr), "error" (a traceback). */
  block(kind, text) {
    this.render();
    this.endLine();
    this.write(kind, text.endsWith("\n") ? text : `${text}\n`);
    this.render();
  }

  /** A message from the page itself (stopped, truncated ...), set apart from program output. */
  note(text, kind = "note") {
    this.render();
    const p = this.container.appendChild(document.createElement("p"));
    p.className = `live-cell__note live-cell__note--${kind}`;
    p.dir = this.strings.dir; // a sentence of the page, not program output
    p.textContent = text;
    this.container.hidden = false;
  }

  markTruncated() {
    if (this.truncatedNoted) return;
    this.truncatedNoted = true;
    this.note(this.strings.truncated({ lines: this.strings.number(MAX_LINES), kilobytes: this.strings.number(MAX_CHARS / 1000) }), "warning");
  }

  endLine() {
    const text = this.last?.text.data;
    if (text && !text.endsWith("\n")) this.append(this.last.kind, "\n");
  }

  fit(text) {
    if (this.truncated || !text) return "";
    if (this.lines >= MAX_LINES) {
      // The cap's last line is complete: anything more is over it (lines often come one per write).
      this.truncated = true;
      return "";
    }
    const room = MAX_CHARS - this.chars;
    if (text.length > room) {
      text = text.slice(0, room);
      this.truncated = true;
    }
    let newlines = 0;
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
      newlines += 1;
      if (this.lines + newlines >= MAX_LINES) {
        if (at + 1 < text.length) this.truncated = true;
        text = text.slice(0, at + 1);
        break;
      }
    }
    this.lines += newlines;
    this.chars += text.length;
    return text;
  }
}

// The output area of a live cell. Everything shown here is text (textContent / Text nodes),
// never HTML: a program that prints "<script>" shows those characters.
//
// The worker already caps each run's output, on every path (python-worker.js); the cap is
// applied here again so that this view never depends on the worker for it.
// Output is put on the page once per animation frame, so a chatty program costs one layout
// per frame, not one per line; and at most FRAME_CHARS characters per frame, in blocks of
// about CHUNK_CHARS (whole lines), so that a frame lays out only the newest block: 200 KB at
// once in one text node took a quarter of a second of the page's thread on a slow machine.
// A line is at most MAX_LINE_CHARS long (output-cap.js), for the same reason.
import { MAX_CHARS, MAX_LINES, cutLongLines, fitUnderCap } from "../runtime/output-cap.js";
const CHUNK_CHARS = 4_000;
const FRAME_CHARS = 16_000;

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
    this.chunk = null; // the block the newest lines go to
    this.chunkChars = 0;
    this.chunkEndsLine = false;
    this.lastChar = ""; // of everything written (queued or shown)
    this.lines = 0;
    this.chars = 0;
    this.truncated = false;
    this.lineChars = 0; // the current line's, for MAX_LINE_CHARS
    this.lineCut = false;
  }

  /** Streamed text: kind is "stdout" or "stderr". */
  write(kind, text) {
    text = this.fit(text);
    if (!text) return;
    this.lastChar = text.at(-1);
    this.queue.push([kind, text]);
    this.frame ??= requestAnimationFrame(() => this.render());
  }

  /**
   * Puts queued output on the page, up to FRAME_CHARS now (the run's end calls it, not only
   * the next frame); what is left follows in the next frames.
   */
  render() {
    cancelAnimationFrame(this.frame);
    this.frame = null;
    if (!this.queue.length) return;
    this.container.hidden = false;
    // Like a terminal: while the reader is at the bottom, new output keeps them there.
    const { pre } = this;
    const atBottom = pre.scrollHeight - pre.scrollTop - pre.clientHeight < 8;
    let budget = FRAME_CHARS;
    while (this.queue.length && budget > 0) {
      const [kind, text] = this.queue[0];
      if (text.length > budget) {
        this.queue[0][1] = text.slice(budget);
        this.append(kind, text.slice(0, budget));
        budget = 0;
      } else {
        this.queue.shift();
        this.append(kind, text);
        budget -= text.length;
      }
    }
    if (atBottom) pre.scrollTop = pre.scrollHeight;
    if (this.queue.length) this.frame = requestAnimationFrame(() => this.render());
  }

  /** Appends text; a new block starts at a line's start once the current one is full. */
  append(kind, text) {
    while (text) {
      if (!this.chunk || (this.chunkChars >= CHUNK_CHARS && this.chunkEndsLine)) {
        this.chunk = this.pre.appendChild(document.createElement("div"));
        this.chunk.className = "live-cell__chunk";
        this.chunkChars = 0;
        this.last = null;
      }
      // Up to the end of the line that fills the block (all of it if it has no more lines).
      const end = text.indexOf("\n", Math.max(0, CHUNK_CHARS - this.chunkChars - 1));
      const piece = end < 0 ? text : text.slice(0, end + 1);
      text = text.slice(piece.length);
      this.chunkChars += piece.length;
      this.chunkEndsLine = piece.endsWith("\n");
      if (this.last?.kind === kind) {
        this.last.text.appendData(piece);
      } else {
        const span = this.chunk.appendChild(document.createElement("span"));
        span.className = `live-cell__${kind}`;
        this.last = { kind, text: span.appendChild(document.createTextNode(piece)) };
      }
    }
  }

  /** A block on its own line: "value" (the last expression's repr), "error" (a traceback). */
  block(kind, text) {
    this.render();
    this.endLine();
    text = cutLongLines(text);
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
    if (this.lastChar && this.lastChar !== "\n") {
      this.queue.push([this.queue.at(-1)?.[0] ?? this.last?.kind ?? "stdout", "\n"]);
      this.lastChar = "\n";
    }
    this.lineChars = 0;
    this.lineCut = false;
  }

  fit(text) {
    if (this.truncated || !text) return "";
    return fitUnderCap(this, text);
  }
}

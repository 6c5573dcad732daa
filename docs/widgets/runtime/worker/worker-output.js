// One request's output on its way to the page: the one place where it is capped (output-cap.js:
// 2,000 lines or 200 KB; the rest is dropped and the page told once), and where it is batched.
// Every path Python writes by arrives here: sys.stdout/sys.stderr through session_runtime.py
// (which only line-buffers them), and writes that bypass them (os.write, sys.__stdout__, C
// code) through Pyodide's own streams (worker-boot.js). Python blocks the worker while it
// runs, so no timer can flush: batching is decided at each write.
import { MAX_CHARS, fitUnderCap } from "../output-cap.js";
import { RESULT, STDERR, STDOUT, TRUNCATED } from "../messages.js";

// Output batching: up to BURST_POSTS messages go out at once in any BATCH_MS window (a
// program that prints a few lines and then hangs still shows them); beyond that, output
// waits for the next write after the window, or for the request's end.
const BATCH_MS = 50;
const BURST_POSTS = 50;
// The only streams there are. Code that finds the runtime's `emit` (in a frame's locals) and
// calls it with another name ("result") must not post a message of that type to the page.
const STREAMS = new Set([STDOUT, STDERR]);

export class RequestOutput {
  /** `post` is the worker's private channel to the page (python-worker.js). */
  constructor(id, post) {
    this.id = id;
    this.post = post;
    this.lines = 0;
    this.chars = 0;
    this.truncated = false;
    this.lineChars = 0; // the current line's, for MAX_LINE_CHARS (output-cap.js)
    this.lineCut = false;
    this.muted = false;
    this.pending = []; // [stream, text] not yet posted
    this.windowStart = -Infinity;
    this.windowPosts = 0;
  }

  /** True once this request takes no more output (the cap is reached, or Python died). */
  get closed() {
    return this.truncated || this.muted;
  }

  /**
   * Takes `text` written to `stream`. Returns `closed`: session_runtime.py stops sending once
   * it is true, so that a runaway loop's output past the cap does not even leave Python.
   */
  write(stream, text) {
    if (this.closed || !text || typeof text !== "string" || !STREAMS.has(stream)) return this.closed;
    text = fitUnderCap(this, text);
    if (text) {
      const last = this.pending.at(-1);
      if (last && last[0] === stream) last[1] += text;
      else this.pending.push([stream, text]);
    }
    if (this.truncated) {
      // Said at once: the worker may not live to send the result (a runaway cell's is terminated).
      this.flush();
      this.post({ id: this.id, type: TRUNCATED });
      return true;
    }
    const now = performance.now();
    if (now - this.windowStart >= BATCH_MS) {
      this.windowStart = now;
      this.windowPosts = 0;
    }
    if (this.windowPosts < BURST_POSTS) this.flush();
    return false;
  }

  /**
   * A run's value (the `repr` of its last expression): it travels in the result, not as a
   * write, and is cut to MAX_CHARS on its own (the output view counts it with the rest).
   */
  fitValue(value) {
    if (typeof value !== "string" || value.length <= MAX_CHARS) return value;
    this.truncated = true;
    return value.slice(0, MAX_CHARS);
  }

  /** Drops what is not posted yet, and everything after. */
  mute() {
    this.muted = true;
    this.pending = [];
  }

  flush() {
    for (const [stream, text] of this.pending) {
      this.post({ id: this.id, type: stream, text });
      this.windowPosts += 1;
    }
    this.pending = [];
  }

  /** The request's end: what is still pending, then its result (`truncated` if anything was cut). */
  end(reply) {
    this.flush();
    this.post({ id: this.id, type: RESULT, ...reply, truncated: this.truncated });
  }
}

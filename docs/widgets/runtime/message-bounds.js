// Bounds on what one answer of Python's may carry to the page, one per kind, defined once.
// Reader code can make any of them as long as it likes (a figure function that answers with
// a 20 MB error, an exception with a 300 MB message); the page's thread would then spend
// seconds receiving and laying it out. The worker cuts or refuses before posting
// (python-worker.js), the page cuts a figure's error again before showing it (figure-host.js),
// and what is cut says so. Output has its own cap (output-cap.js), markup its own check
// (figure-sanitise.js, MAX_MARKUP), which a call's whole answer must leave room for.

/** A figure call's whole answer (its markup, state and any message), as JSON characters. */
export const MAX_CALL_ANSWER = 500_000;
/** A run's or a call's error, traceback included: its start and its end are kept. */
export const MAX_ERROR = 20_000;
/** A figure's own error, shown in the figure: a sentence or two. */
export const MAX_FIGURE_ERROR = 1_000;

/**
 * `text` if it has at most `max` characters; else its first and last parts around a note that
 * says how many characters were left out (a traceback's frames and its final message both
 * stay). The note is on a line of its own, or with `apart` " " inside the line.
 */
export function cutMiddle(text, max, apart = "\n") {
  if (typeof text !== "string" || text.length <= max) return text;
  const cut = text.length - max;
  const head = Math.ceil(max / 2);
  return `${text.slice(0, head)}${apart}[... ${cut.toLocaleString("en")} characters cut ...]${apart}${text.slice(text.length - (max - head))}`;
}

/**
 * The start of `text` if it has more than `max` characters, then `note(count)`, which says how
 * many were left out; `text` itself otherwise.
 */
export function cutEnd(text, max, note) {
  if (typeof text !== "string" || text.length <= max) return text;
  return `${text.slice(0, max)}… ${note(text.length - max)}`;
}

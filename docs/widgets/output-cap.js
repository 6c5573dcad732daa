// The cap on one run's output, defined once. The worker enforces it, where every path Python
// writes by meets (worker-output.js; session_runtime.py only buffers); the output view applies
// it again to what it shows (output-view.js), so the view never depends on the worker for it,
// and its "Output truncated" note states these numbers.
export const MAX_LINES = 2000;
export const MAX_CHARS = 200_000;

/**
 * The part of `text` that fits under the cap, counted on `counter` ({lines, chars,
 * truncated}, updated here); marks it truncated past the cap.
 */
export function fitUnderCap(counter, text) {
  if (counter.lines >= MAX_LINES) {
    counter.truncated = true; // the cap's last line is complete: anything more is over it
    return "";
  }
  const room = MAX_CHARS - counter.chars;
  if (text.length > room) {
    text = text.slice(0, room);
    counter.truncated = true;
  }
  let newlines = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    newlines += 1;
    if (counter.lines + newlines >= MAX_LINES) {
      if (at + 1 < text.length) counter.truncated = true;
      text = text.slice(0, at + 1);
      break;
    }
  }
  counter.lines += newlines;
  counter.chars += text.length;
  return text;
}

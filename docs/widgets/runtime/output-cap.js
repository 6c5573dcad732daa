// The cap on one run's output, defined once. The worker enforces it, where every path Python
// writes by meets (worker-output.js; session_runtime.py only buffers); the output view applies
// it again to what it shows (output-view.js), so the view never depends on the worker for it,
// and its "Output truncated" note states these numbers.
import { cutMiddle } from "./message-bounds.js";

export const MAX_LINES = 2000;
export const MAX_CHARS = 200_000;
// One line's length: the browser lays out a line as one piece, and a line of 200,000
// characters stalled the page's thread for half a second. Streamed output keeps a long line's
// start and says the rest is cut (it cannot know the end yet); a block that arrives whole
// (a value, a traceback) keeps each long line's start and end.
export const MAX_LINE_CHARS = 10_000;
export const LINE_CUT = ` [... the rest of this line is cut: a line shows at most ${MAX_LINE_CHARS.toLocaleString("en")} characters ...]`;

/**
 * The part of `text` that fits under the cap, counted on `counter` ({lines, chars, truncated,
 * lineChars, lineCut}, updated here); marks it truncated past the cap. A line longer than
 * MAX_LINE_CHARS keeps its start and LINE_CUT; the cut does not end the output.
 */
export function fitUnderCap(counter, text) {
  if (counter.lines >= MAX_LINES) {
    counter.truncated = true; // the cap's last line is complete: anything more is over it
    return "";
  }
  text = cutLongLine(counter, text);
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

/**
 * `text`, a stream's next piece, with what goes past MAX_LINE_CHARS in any line dropped and
 * LINE_CUT where the drop starts; the line's state carries over on `counter` from piece to piece
 * (the same output cut in different pieces comes out the same).
 */
function cutLongLine(counter, text) {
  let kept = "";
  let from = 0;
  while (from < text.length) {
    const newline = text.indexOf("\n", from);
    const end = newline < 0 ? text.length : newline;
    if (!counter.lineCut) {
      const room = MAX_LINE_CHARS - counter.lineChars;
      if (end - from > room) {
        kept += text.slice(from, from + room) + LINE_CUT;
        counter.lineCut = true;
      } else {
        kept += text.slice(from, end);
        counter.lineChars += end - from;
      }
    }
    if (newline < 0) break;
    kept += "\n";
    counter.lineChars = 0;
    counter.lineCut = false;
    from = newline + 1;
  }
  return kept;
}

/** `text` arrived whole: each line over MAX_LINE_CHARS keeps its start and end around a count of what was cut. */
export function cutLongLines(text) {
  if (text.length <= MAX_LINE_CHARS) return text;
  const keep = MAX_LINE_CHARS - 100; // room for the note, so the line fits once cut
  return text
    .split("\n")
    .map((line) => (line.length <= MAX_LINE_CHARS ? line : cutMiddle(line, keep, " ")))
    .join("\n");
}

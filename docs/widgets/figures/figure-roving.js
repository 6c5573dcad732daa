// A figure's groups of choices are one Tab stop each (the WAI-ARIA toolbar pattern, with a
// roving tabindex). Python writes the markup already right (attention_py/figures/_controls.py,
// `segmented`): in each `[role="toolbar"]` the pressed button, or the first, has tabindex 0
// and the others -1. Here, in the page, the arrow keys, Home and End move focus between the
// buttons WITHOUT pressing: a press changes the figure (and a running figure's recipe
// restarts its run), so selection does not follow focus; Enter and Space press, as buttons do.
//
// While focus is inside a group its focused button is the group's Tab stop (so Shift+Tab and
// Tab leave the group from where the reader is); when focus leaves, the stop goes back to
// Python's rule, so coming back always lands on the choice in force.

const GROUP = '[role="toolbar"]';
const BUTTON = "button.apy-seg__button";

/**
 * Where a key moves focus in a row of `count` buttons from `index`, or null for a key that
 * does not move it. `rtl`: the row runs right to left on screen, so Left is "next" and
 * Right "previous" (Up and Down do not mirror). Moves wrap around the ends, as in a radio
 * group, so one key reaches every button.
 */
export function rovingTarget(key, index, count, rtl) {
  if (count < 1) return null;
  const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 1, ArrowUp: -1 }[key];
  if (step !== undefined) return (index + step + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

/** The group of choices `el` is a button of, with its enabled buttons; null when it is none. */
export function groupOf(el) {
  const button = typeof el?.closest === "function" ? el.closest(BUTTON) : null;
  const group = button?.closest(GROUP);
  if (!group) return null;
  const buttons = [...group.querySelectorAll(BUTTON)].filter((b) => !b.disabled);
  return { group, button, buttons };
}

/** Makes `stop` the one button of `buttons` that Tab reaches. */
export function makeStop(buttons, stop) {
  for (const b of buttons) {
    const value = b === stop ? "0" : "-1";
    if (b.getAttribute("tabindex") !== value) b.setAttribute("tabindex", value);
  }
}

/** Python's Tab stop of a group: the pressed button, or the first. */
export function restingStop(buttons) {
  return buttons.find((b) => b.getAttribute("aria-pressed") === "true") ?? buttons[0];
}

/**
 * Handles a key pressed on a button of a group: moves focus and the Tab stop, and answers
 * true (the caller then prevents the key's default, the page's scrolling); false for any
 * other key or element. The direction is the buttons' own, as laid out (a group may be
 * `dir="ltr"` inside a right-to-left page).
 */
export function rovingKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  const found = groupOf(event.target);
  if (!found) return false;
  const { button, buttons } = found;
  const rtl = getComputedStyle(button).direction === "rtl";
  const target = rovingTarget(event.key, buttons.indexOf(button), buttons.length, rtl);
  if (target === null) return false;
  makeStop(buttons, buttons[target]);
  buttons[target].focus();
  return true;
}

/** Focus arrived on a button of a group (by arrow, click or script): it is the Tab stop. */
export function focusArrived(event) {
  const found = groupOf(event.target);
  if (found) makeStop(found.buttons, found.button);
}

/** Focus left a group for somewhere outside it: the stop goes back to Python's rule. */
export function focusLeft(event) {
  const found = groupOf(event.target);
  if (!found || (event.relatedTarget instanceof Node && found.group.contains(event.relatedTarget))) return;
  makeStop(found.buttons, restingStop(found.buttons));
}

/**
 * After a morph (Python's markup puts the stop back on the pressed button): the button the
 * reader is on stays the Tab stop of its group.
 */
export function keepStop(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return;
  const found = groupOf(active);
  if (found) makeStop(found.buttons, found.button);
}

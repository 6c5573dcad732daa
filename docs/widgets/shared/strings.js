// What the page's scripts say (live cells, Python's loading progress, the figure host), in
// the page's language. The words live in docs/figure-strings/<lang>.yml, section `page`;
// the build embeds that section in every page as JSON (<script id="apy-page-strings">), so
// a translator edits one YAML file and never this one. Numbers are written as the same file
// says the language writes a number in a sentence (common.digits and common.decimal, which
// the build embeds as <script id="apy-page-numbers">): "0.05", "0,05", "۰٫۰۵", the very text
// attention_py's NumberFormat writes (tests/page/test_page_strings.py compares the two).

const LATIN_DIGITS = "0123456789";
const MINUS = "\u2212";

const cache = new WeakMap(); // document -> its strings

/**
 * The page's strings: `strings.run` is a text; a text with {placeholders} becomes a
 * function of an object, `strings.done({ seconds: "0.12" })`. Also `number(x, digits)`
 * written as the page's language writes a number in a sentence (`writeNumber`), `lang`, and
 * `dir`, the page's direction (Material puts dir="rtl" on <body>, not on <html>).
 */
export function pageStrings(doc = document) {
  // One reading per document: the live cells and the figures both ask, at page load.
  if (!cache.has(doc)) cache.set(doc, readPageStrings(doc));
  return cache.get(doc);
}

function readPageStrings(doc) {
  const lang = (doc.documentElement.lang || "en").toLowerCase().split("-")[0];
  const strings = {};
  for (const [key, text] of Object.entries(embedded(doc, "apy-page-strings"))) {
    strings[key] = text.includes("{") ? (values = {}) => fill(text, values) : text;
  }
  const format = embedded(doc, "apy-page-numbers");
  const number = (value, digits = 0) => writeNumber(value, digits, format);
  const dir = doc.body ? getComputedStyle(doc.body).direction : "ltr";
  return { ...strings, lang, dir, number };
}

/**
 * `value` with `digits` decimals, written with the `digits` and `decimal` of `format` (the
 * language's, as the build embedded them; Latin digits and "." where absent): U+2212 as
 * minus, no negative zero, no thousands separator. attention_py's NumberFormat.num writes the
 * same text from the same keys (exact binary ties aside: 0.125 rounds up here, to even there).
 */
export function writeNumber(value, digits = 0, format = {}) {
  let text = Number(value).toFixed(digits);
  if (text.startsWith("-")) text = Number(text) === 0 ? text.slice(1) : MINUS + text.slice(1);
  if (typeof format.decimal === "string" && format.decimal) text = text.replace(".", format.decimal);
  const glyphs = typeof format.digits === "string" ? Array.from(format.digits) : [];
  if (glyphs.length === 10 && format.digits !== LATIN_DIGITS) text = text.replace(/[0-9]/g, (d) => glyphs[Number(d)]);
  return text;
}

/** The JSON the build put in <script id=...> ({} if absent): the page section of the
 * language's strings file ("apy-page-strings"), its number format ("apy-page-numbers"). */
function embedded(doc, id) {
  const element = doc.getElementById(id);
  try {
    return (element && JSON.parse(element.textContent)) || {};
  } catch {
    return {};
  }
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

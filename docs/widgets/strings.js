// What the page's scripts say (live cells, Python's loading progress, the figure host), in
// the page's language. The words live in docs/figure-strings/<lang>.yml, section `page`;
// the build embeds that section in every page as JSON (<script id="apy-page-strings">), so
// a translator edits one YAML file and never this one. Numbers go through Intl, so that
// Persian pages show Persian digits.

const cache = new WeakMap(); // document -> its strings

/**
 * The page's strings: `strings.run` is a text; a text with {placeholders} becomes a
 * function of an object, `strings.done({ seconds: "0.12" })`. Also `number(x, digits)`
 * formatted for the page's language, `lang`, and `dir`, the page's direction (Material puts
 * dir="rtl" on <body>, not on <html>).
 */
export function pageStrings(doc = document) {
  // One reading per document: the live cells and the figures both ask, at page load.
  if (!cache.has(doc)) cache.set(doc, readPageStrings(doc));
  return cache.get(doc);
}

function readPageStrings(doc) {
  const lang = (doc.documentElement.lang || "en").toLowerCase().split("-")[0];
  const strings = {};
  for (const [key, text] of Object.entries(embeddedTexts(doc))) {
    strings[key] = text.includes("{") ? (values = {}) => fill(text, values) : text;
  }
  const formats = new Map();
  const number = (value, digits = 0) => {
    if (!formats.has(digits)) {
      formats.set(digits, new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }));
    }
    return formats.get(digits).format(value);
  };
  const dir = doc.body ? getComputedStyle(doc.body).direction : "ltr";
  return { ...strings, lang, dir, number };
}

/** The page section of the language's strings file, as the build embedded it ({} if absent). */
function embeddedTexts(doc) {
  const element = doc.getElementById("apy-page-strings");
  try {
    return (element && JSON.parse(element.textContent)) || {};
  } catch {
    return {};
  }
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

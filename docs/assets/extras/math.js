/* Typesets the page's math (pymdownx.arithmatex, generic mode: `\( \)` in a span, `\[ \]`
   in a div; notebooks too) with the self-hosted KaTeX in assets/katex/. KaTeX is fetched
   only by pages that have math, so the others stay light. */
const nodes = [...document.querySelectorAll(".arithmatex")];

const DELIMITERS = [["\\(", "\\)"], ["\\[", "\\]"], ["$$", "$$"], ["$", "$"]];

function stripDelimiters(tex) {
  const text = tex.trim();
  for (const [open, close] of DELIMITERS) {
    if (text.startsWith(open) && text.endsWith(close) && text.length >= open.length + close.length) {
      return text.slice(open.length, text.length - close.length);
    }
  }
  return text;
}

function load(element, attributes) {
  return new Promise((resolve, reject) => {
    const node = Object.assign(document.createElement(element), attributes);
    node.addEventListener("load", resolve, { once: true });
    node.addEventListener("error", () => reject(new Error(`could not load ${attributes.src || attributes.href}`)), { once: true });
    document.head.append(node);
  });
}

if (nodes.length) {
  const katexDir = new URL("../katex/", import.meta.url);
  await Promise.all([
    load("link", { rel: "stylesheet", href: new URL("katex.min.css", katexDir).href }),
    load("script", { src: new URL("katex.min.js", katexDir).href }),
  ]);
  for (const node of nodes) {
    window.katex.render(stripDelimiters(node.textContent), node, {
      displayMode: node.tagName !== "SPAN",
      throwOnError: false,
    });
  }
}

// Typesets formulas with the pinned KaTeX, for site_hooks/content/formulas.py.
// stdin: a JSON list of [tex, display] pairs; stdout: a JSON list of the HTML KaTeX makes for
// each (its MathML for screen readers and its HTML for the eye), in the same order.
// A formula KaTeX cannot read ends the run with exit code 1 and the formula named on stderr.
import { readFileSync } from "node:fs";
import katex from "katex";

const formulas = JSON.parse(readFileSync(0, "utf8"));
const rendered = [];
for (const [tex, display] of formulas) {
  try {
    rendered.push(katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "ignore" }));
  } catch (error) {
    process.stderr.write(`${error.message}\n  in: ${tex}\n`);
    process.exit(1);
  }
}
process.stdout.write(JSON.stringify(rendered));

// ESLint for the project's JavaScript (`npm run lint`, or `npx eslint [files]`): the browser
// widgets (docs/widgets/), the build and dev scripts and the JavaScript tests. ESLint's
// recommended rules plus a few that catch real bugs; style is left to the code's authors.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    // What is not ours to lint: generated output, installed packages, and a script that is
    // not a module of this kind: site_hooks/i18n/search_text.js is a template (the build
    // fills in /*RULES*/) run by lunr in Material's search worker.
    ignores: [".venv/", ".cache/", "site/", "build/", "dist/", "site_hooks/i18n/search_text.js", "docs/assets/"],
  },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module" },
    rules: {
      // `==` only where it means something: `x == null` is "null or undefined", on purpose.
      eqeqeq: ["error", "always", { null: "ignore" }],
      // A name meant to be unused says so with a leading underscore (`const { type: _, ...rest }`).
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
      "prefer-const": "error",
      "no-var": "error",
      // A promise executor's return value is lost; an async one hides its own rejections.
      "no-promise-executor-return": "error",
      // `a = b` where a comparison was meant.
      "no-cond-assign": ["error", "always"],
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-constructor-return": "error",
      // A name used before its `const`/`let`/`class` in the same scope (a TDZ error when it
      // runs). Uses inside functions declared earlier are fine: they run later.
      "no-use-before-define": ["error", { functions: false, classes: false, variables: false }],
    },
  },
  {
    // The page's scripts: bundled by scripts/build-widgets.mjs, run in the browser.
    files: ["docs/widgets/**/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    // The early boot carries the frame's script, which the bundler defines.
    files: ["docs/widgets/boot/page-boot.js"],
    languageOptions: { globals: { ...globals.browser, __PYTHON_FRAME__: "readonly" } },
  },
  {
    // The Python worker and its modules: a Web Worker of the sandboxed frame, with the progress
    // bar's total set by the bundler.
    files: ["docs/widgets/runtime/worker/*.js"],
    languageOptions: {
      globals: { ...globals.worker, __PYODIDE_DOWNLOAD_BYTES__: "readonly" },
    },
  },
  {
    // Build, dev tools and tests: Node.js.
    files: ["scripts/*.mjs", "devtools/*.mjs", "site_hooks/**/*.mjs", "tests/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { globals: globals.node },
  },
];

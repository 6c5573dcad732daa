// Entry point of the page's early boot (page-boot.js), bundled by scripts/build-widgets.mjs as
// a classic script that docs/overrides/main.html writes inline in <head>.
import { bootPage } from "./page-boot.js";

bootPage(window);

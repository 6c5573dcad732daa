// Placeholder: bundles docs/widgets/ into the folder given as --outdir (replaced by the live-cells work).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const i = process.argv.indexOf("--outdir");
const outdir = i > 0 ? process.argv[i + 1] : "build/widgets";
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, "live-cells.js"), "// placeholder\n");
writeFileSync(join(outdir, "live-cells.css"), "/* placeholder */\n");

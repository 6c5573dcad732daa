// The inflated memory image kept for the next visit, as the worker sees it: the page's files
// worker keeps it (image-cache.js: the frame the worker runs in has no Cache Storage), checks
// it against the build's manifest both ways, and hands it over (runtime-files.js, over the
// files port). "The page" below is that worker, on the page's side of the frame.
import { askFiles } from "./worker-network.js";

/** The kept image for `url` (checked by the page), or null. */
export async function keptImage(url, expected) {
  try {
    const bytes = await askFiles("read", url);
    return bytes?.byteLength === expected ? bytes : null; // a Uint8Array, transferred by the page
  } catch {
    return null; // storage refused or broken: the network copy will do
  }
}

/** True: the page decides whether it can keep an image (and checks it when it is read back). */
export const canKeepImages = true;

/** Hands the image just restored from the network to the page to keep; true once it is stored. */
export async function keepImage(url, bytes) {
  return Boolean(await askFiles("keep", url, bytes));
}

/** Has the page forget a kept image Pyodide refused, or whose Python failed. */
export async function forgetImage(url) {
  await askFiles("forget", url);
}

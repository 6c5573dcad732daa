// The page's Python: Pyodide in a Web Worker of the sandboxed frame (python-frame.js), so
// that neither loading nor running Python ever blocks the page, and the code a reader runs
// reaches nothing of the site (README.md, "Where reader code runs"). The message protocol is
// described in README.md. This module is the worker's message loop; esbuild bundles it with
// the modules it imports into one file, assets/widgets/python-worker.js, which the page hands
// to the frame as text:
//   worker-boot.js         Python's start (the plain boot, and what both boots do after)
//   worker-snapshot.js     the snapshot boot: the build's memory image, inflated or kept
//   worker-image-cache.js  the inflated image kept by the page for the next visit
//   worker-network.js      this site only, its files asked of the page's files worker; the
//                          runtime's files watched while they load
//   worker-progress.js     the progress bar's numbers
//   worker-output.js       a request's output: capped and batched on its way to the page
//
// Reliability rules kept here (README.md, "What is guaranteed"):
// - every request gets exactly one answer: a result, or "fatal" when Pyodide died under it;
//   nothing a request does can stop later messages from being handled;
// - a request's output is capped and batched (worker-output.js), whichever way it was
//   written (sys.stdout, sys.__stdout__, os.write): the page never receives more than the
//   cap, nor a flood of messages it would spend its time on;
// - a call's answer and an error are bounded (message-bounds.js) before the page sees them;
// - code may request files of this site only (guardNetwork);
// - the channel to the page is the runtime's alone: a MessagePort kept in this module's
//   scope (connect), which no reader code can reach; the worker's own postMessage talks to
//   the frame, which does not listen, and is hidden too (hideChannel).
import { boot } from "./worker-boot.js";
import { describe } from "./worker-describe.js";
import { forgetImage } from "./worker-image-cache.js";
import { MAX_CALL_ANSWER, MAX_ERROR, cutMiddle } from "../message-bounds.js";
import { guardNetwork, linkToFiles } from "./worker-network.js";
import { locateSite } from "./worker-urls.js";
import { RequestOutput } from "./worker-output.js";
import { CALL, CLOSING, FAILED, FATAL, KEPT, READY, RESULT, RUN, START, STARTED } from "../messages.js";

// Arguments of a call nested deeper than this are refused: Python's json parser recurses
// in C and a few thousand levels crash Pyodide (a figure state is a few levels deep).
const MAX_ARGUMENT_DEPTH = 64;

guardNetwork(); // before Pyodide or anything else can take a reference to fetch

// The runtime's own channel to the page, set by connect before any reader code runs. Every
// module that talks to the page is given `post`.
let postToPage = null;
/** @type {(message: import("../messages.js").WorkerMessage, transfer?: Transferable[]) => void} */
const post = (message, transfer) => postToPage?.(message, transfer);
let interrupts = null; // the frame's interrupt byte (a Uint8Array on shared memory), or null

// All the loop keeps between messages:
let python = null; // promise of boot()'s answer ({pyodide, runtime, ...}), from "start" on
let output = null; // the RequestOutput of the running request (Pyodide's own streams write there)
let fatal = null; // message of the fatal error Pyodide suffered, once it has

// Code that closes this worker (`import js; js.close()`) would leave the page waiting for
// answers that never come: say so first, so the page replaces the worker at once.
const closeWorker = self.close.bind(self);
self.close = () => {
  post({ type: CLOSING });
  closeWorker();
};

// Pyodide reports a fatal error on the console first, then dumps the Python stack to the
// streams: that dump is runtime plumbing, not the reader's output.
const consoleError = console.error.bind(console);
console.error = (...args) => {
  if (String(args[0]).startsWith("Pyodide has suffered a fatal error")) output?.mute();
  consoleError(...args);
};

// The runtime reads and writes its replies with the JSON functions as they were when the
// worker started: code in the page's Python can reach the worker's globals (through `js`),
// and a replaced JSON.parse would otherwise rewrite every later reply.
const parseJSON = JSON.parse;
const toJSON = JSON.stringify;

let chain = Promise.resolve();

/**
 * The frame's one message, passed on by its bootstrap (python-frame.js), once: `port` is the
 * page's end of the session's channel, `files` the page's files worker's (worker-network.js
 * asks it for the site's files), `site` the site's root URL, `interruptBuffer` the frame's
 * interrupt byte and `fileState`/`fileBytes` the memory of synchronous reads (null when the
 * frame is not cross-origin isolated). Messages that arrive on the port wait in the chain
 * while Python loads, and requests run strictly one after another; the catch keeps the chain
 * alive whatever one message does. Both ports are kept in module scope, so reader code can
 * neither post on them nor listen to them; events dispatched from inside the worker are never
 * trusted, as the browser's delivery of the page's messages is.
 */
export function connect({ port, files, site, interruptBuffer, fileState, fileBytes }) {
  if (postToPage) return;
  locateSite(site);
  postToPage = port.postMessage.bind(port);
  interrupts = interruptBuffer || null;
  linkToFiles(files, fileState || null, fileBytes || null);
  port.addEventListener("message", (event) => {
    if (!event.isTrusted) return;
    event.stopImmediatePropagation();
    const message = event.data;
    chain = chain.then(() => handle(message)).catch((error) => reportFault(message, error));
  });
  port.start();
}

/** One request of the page's (messages.js). @param {import("../messages.js").PageMessage} message */
async function handle(message) {
  const { id, type } = message;
  if (type === START) {
    if (python) return; // one Python per worker: the page starts it once
    await start(message);
    return;
  }
  let booted;
  try {
    booted = await python; // null only before a "start": the request then fails as on a dead Python
  } catch {
    return; // the "failed" reply has told the page already
  }
  if (fatal) {
    post({ id, type: FATAL, error: fatal });
    return;
  }
  // The page times a job from here: code an earlier request left running (a timer, an
  // asyncio task) may have kept the worker from reaching this message until now.
  post({ id, type: STARTED });
  const out = (output = new RequestOutput(id, post));
  let reply;
  let thrown = null;
  try {
    reply = parseJSON(answerWithinBounds(message, execute(booted?.runtime, message, out)));
  } catch (error) {
    // Only a fault of the runtime itself lands here; user errors come back as replies.
    thrown = error;
    reply = { status: "error", error: describe(error) };
  }
  output = null;
  if (diedFrom(booted?.pyodide, thrown)) {
    out.mute(); // whatever Pyodide dumped while dying
    forgetKeptImage(booted);
    post({ id, type: FATAL, error: fatal });
    return;
  }
  if (message.type === RUN && typeof reply.value === "string") reply.value = out.fitValue(reply.value);
  reply.error = cutMiddle(reply.error, MAX_ERROR);
  out.end(reply);
}

/**
 * "start": Python starts; the page hears "ready" (with boot()'s `info`) or "failed". The
 * interrupt byte is the frame's (connect), used when the page asks for interrupts.
 */
async function start({ id, interrupts: wanted, snapshotUnwanted }) {
  python = startPython(wanted ? interrupts : null, snapshotUnwanted || "");
  let booted = null;
  try {
    booted = await python;
    post({ id, type: READY, value: booted.info });
  } catch (error) {
    post({ id, type: FAILED, error: describe(error) });
  }
  // Housekeeping that must not delay "ready" (keeping the image for the next visit).
  booted?.keepImage?.()
    .then((kept) => kept && post({ type: KEPT }))
    .catch((error) => console.info(`attention_py: the Python memory image was not kept (${describe(error)})`));
}

async function startPython(interruptBuffer, snapshotUnwanted) {
  const writeOutput = (stream, text) => output?.write(stream, text);
  const booted = await boot({ post, interruptBuffer, snapshotUnwanted, writeOutput });
  try {
    hideChannel(); // last: Pyodide and the runtime are loaded, no reader code has run yet
  } catch (error) {
    forgetKeptImage(booted);
    throw error;
  }
  return booted;
}

/** A Python restored from the kept image failed or died: the next start inflates the build's copy again. */
function forgetKeptImage(booted) {
  if (booted?.restoredFromKept) forgetImage(booted.restoredFromKept).catch(() => {});
}

/**
 * Runs one request; returns the runtime's reply, a JSON string. The runtime's `emit` says
 * whether the request still takes output (RequestOutput.write).
 */
function execute(runtime, message, out) {
  const emit = (stream, text) => out.write(stream, text);
  if (message.type === RUN) {
    return runtime.run_cell(message.code, message.filename || "<cell>", emit, typeof message.lang === "string" ? message.lang : null);
  }
  if (message.type === CALL) {
    const args = toJSON(message.args || []);
    const kwargs = toJSON(message.kwargs || {});
    const depth = Math.max(nesting(args), nesting(kwargs));
    if (depth > MAX_ARGUMENT_DEPTH) {
      return toJSON({ status: "error", error: `the arguments of ${message.name} are nested ${depth} levels deep; at most ${MAX_ARGUMENT_DEPTH} are accepted` });
    }
    return runtime.call(message.name, args, kwargs, emit);
  }
  return toJSON({ status: "error", error: `unknown request type: ${message.type}` });
}

/**
 * The runtime's `reply` (JSON) to `message`, or a refusal in its place when a call's answer is
 * longer than MAX_CALL_ANSWER: it is not even parsed, and the page never receives it.
 */
function answerWithinBounds(message, reply) {
  if (message.type !== CALL || typeof reply !== "string" || reply.length <= MAX_CALL_ANSWER) return reply;
  const length = reply.length.toLocaleString("en");
  const max = MAX_CALL_ANSWER.toLocaleString("en");
  return toJSON({ status: "error", error: `the answer of ${message.name} is ${length} characters long; at most ${max} are accepted` });
}

/**
 * True when Pyodide has suffered a fatal error (it cannot be used any more). Pyodide marks
 * the error it throws, and from then on every public property of the API throws; a second
 * fatal error in the same Pyodide is not even thrown (the call returns undefined), which the
 * property check still catches.
 */
function diedFrom(pyodide, error) {
  if (fatal) return true;
  let dead = Boolean(error && error.pyodide_fatal_error);
  if (!dead) {
    try {
      void pyodide.globals;
    } catch {
      dead = true;
    }
  }
  if (dead) fatal = describe(error || "Pyodide stopped working");
  return dead;
}

/**
 * Removes postMessage from the worker's global object and its prototype chain (it lives on
 * DedicatedWorkerGlobalScope.prototype), so that neither `globalThis`, `self`, the prototype
 * chain, `eval` nor `Function` reaches the page's channel; the runtime keeps `postToPage`.
 * (A nested worker's postMessage talks to this worker, not to the page.)
 */
function hideChannel() {
  // (The worker's postMessage reaches only the frame, which does not listen: hidden anyway.)
  for (let scope = self; scope && scope !== Object.prototype; scope = Object.getPrototypeOf(scope)) {
    if (Object.prototype.hasOwnProperty.call(scope, "postMessage")) delete scope.postMessage;
  }
  if (typeof self.postMessage === "function") throw new Error("the worker's channel to the page could not be hidden");
}

/** A message that escaped handle(): the request still gets an answer. */
function reportFault(message, error) {
  output = null;
  if (message && message.id !== undefined && message.type !== START) {
    post({ id: message.id, type: RESULT, status: "error", error: describe(error) });
  }
}

/** How deep a JSON text nests its arrays and objects (brackets inside strings do not count). */
function nesting(json) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) deepest = Math.max(deepest, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

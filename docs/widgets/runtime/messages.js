// The messages between the page's Python session and the Python worker, declared once: each
// kind's name as a constant, each message's shape as a JSDoc type. The page's side is
// PythonSession (python-session.js), and the early boot for the first "start"
// (boot/page-boot.js); the worker's side is its message loop (worker/python-worker.js) and
// the modules that post for it (worker/worker-output.js, worker/worker-progress.js). What each
// message means: README.md, "The worker protocol". The frame's own messages
// (python-frame.js) and those about files (runtime-files.js) travel on other channels and are
// declared there.
//
// The output streams' names are also the Python runtime's (runtime/python/session_runtime.py
// emits "stdout" and "stderr"), so they are plain strings on that side.

// Page to worker.
/** Load Pyodide and the wheel, once per worker. */
export const START = "start";
/** Run code in the page's namespace. */
export const RUN = "run";
/** Call a Python function by dotted name. */
export const CALL = "call";

// Worker to page.
/** Loading: bytes of Python's files so far, then installing. */
export const PROGRESS = "progress";
/** Python is up. */
export const READY = "ready";
/** Python could not start. */
export const FAILED = "failed";
/** The memory image this Python was restored from is now kept for the next visit. */
export const KEPT = "kept";
/** The worker took a request up. */
export const STARTED = "started";
/** Output of the running request, on standard output. */
export const STDOUT = "stdout";
/** Output of the running request, on standard error. */
export const STDERR = "stderr";
/** The running request's output reached the cap; the rest is dropped. */
export const TRUNCATED = "truncated";
/** A request's end. */
export const RESULT = "result";
/** Instead of a result: Pyodide died under the request and cannot be used again. */
export const FATAL = "fatal";
/** Reader code closed the worker; it ends after the running request's result. */
export const CLOSING = "closing";

/**
 * @typedef {object} StartMessage
 * @property {number} id
 * @property {typeof START} type
 * @property {boolean} [interrupts] Stop by interrupt wanted (set by FrameWorker, which holds the byte)
 * @property {null} [interruptBuffer] the page's side of it: always null once it reaches the worker
 * @property {string} snapshotUnwanted why the memory snapshot is not to be used ("": use it)
 *
 * @typedef {object} RunMessage
 * @property {number} id
 * @property {typeof RUN} type
 * @property {string} code
 * @property {string} [filename] names the code in tracebacks ("<cell 2>")
 * @property {string} [lang] the page's language
 *
 * @typedef {object} CallMessage
 * @property {number} id
 * @property {typeof CALL} type
 * @property {string} name a dotted name ("attention_py.softmax")
 * @property {unknown[]} [args] JSON, nested at most 64 levels
 * @property {Record<string, unknown>} [kwargs] JSON, nested at most 64 levels
 *
 * @typedef {StartMessage | RunMessage | CallMessage} PageMessage
 */

/**
 * @typedef {object} ProgressMessage
 * @property {typeof PROGRESS} type
 * @property {"download" | "install"} phase
 * @property {number} loaded bytes so far
 * @property {number} total bytes expected
 *
 * @typedef {object} ReadyMessage
 * @property {number} id
 * @property {typeof READY} type
 * @property {{python: string, interrupts: boolean, boot: "snapshot" | "plain", fallback: string | null, image: "network" | "cache" | null, timings: Record<string, number>}} value
 *
 * @typedef {object} FailedMessage
 * @property {number} id
 * @property {typeof FAILED} type
 * @property {string} error for the reader
 *
 * @typedef {object} KeptMessage
 * @property {typeof KEPT} type
 *
 * @typedef {object} StartedMessage
 * @property {number} id
 * @property {typeof STARTED} type
 *
 * @typedef {object} OutputMessage
 * @property {number} id
 * @property {typeof STDOUT | typeof STDERR} type
 * @property {string} text complete lines, batched
 *
 * @typedef {object} TruncatedMessage
 * @property {number} id
 * @property {typeof TRUNCATED} type
 *
 * @typedef {object} ResultMessage
 * @property {number} id
 * @property {typeof RESULT} type
 * @property {"ok" | "error" | "interrupted"} status
 * @property {unknown} [value] a run's last expression (its repr) or a call's answer
 * @property {string} [error] a traceback from the reader's first frame, or what went wrong
 * @property {boolean} truncated some output, or the value, was cut
 *
 * @typedef {object} FatalMessage
 * @property {number} id
 * @property {typeof FATAL} type
 * @property {string} error
 *
 * @typedef {object} ClosingMessage
 * @property {typeof CLOSING} type
 *
 * @typedef {ProgressMessage | ReadyMessage | FailedMessage | KeptMessage | StartedMessage | OutputMessage
 *   | TruncatedMessage | ResultMessage | FatalMessage | ClosingMessage} WorkerMessage
 */

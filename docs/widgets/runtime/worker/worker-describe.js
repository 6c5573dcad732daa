/** An error as one line, for the page and the console: "TypeError: message", or the value itself. */
export function describe(error) {
  return String(error && error.message ? `${error.name || "Error"}: ${error.message}` : error);
}

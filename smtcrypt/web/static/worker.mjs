// The solver of the page without a server (`smtcrypt page`): smtcrypt in Pyodide, in this Web Worker.
// The page sends {boot: {pyodide, wheels, timeout}} first, then requests {id, path, query, body} as it
// would send them to the server; smtcrypt.web.browser answers each with the server's JSON, as messages.
// A request runs to its end: the page ends a search it no longer wants by ending this worker.
"use strict";

let handle = null;
const queue = [];

async function boot({ pyodide, wheels, timeout }) {
  const started = performance.now();
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodide).href);
  const python = await loadPyodide({ indexURL: pyodide });
  await python.loadPackage(wheels, { messageCallback: () => {} });
  const browser = python.pyimport("smtcrypt.web.browser");
  handle = (request) => browser.handle(JSON.stringify(request), (text) => postMessage(text), timeout);
  postMessage(JSON.stringify({ ready: true, seconds: (performance.now() - started) / 1000 }));
  while (queue.length) handle(queue.shift());
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.boot) {
    boot(message.boot).catch((error) => postMessage(JSON.stringify({ failed: String(error && error.message || error) })));
  } else if (handle) {
    handle(message);
  } else {
    queue.push(message);
  }
};

// The smtcrypt page: check the formula as it is typed, stream solutions, stop, share, hint, play, worksheets.
// Every answer comes from smtcrypt itself (the same parser and solver as the command line): from the server
// (`smtcrypt serve`), or from Web Workers running it in Pyodide (`smtcrypt page`); this file only shows it.
"use strict";

const $ = (id) => document.getElementById(id);
const RULES = ["mode", "digits", "assign", "base", "distinct", "allow_leading_zeros", "nonzero_single_letters"];
const DEFAULTS = { mode: "all", digits: "", assign: "", base: "10", distinct: true, allow_leading_zeros: false,
                   nonzero_single_letters: false };
const NOTATIONS = ["smtcrypt", "layout", "cryptator", "enigma"];  // the `syntax` a puzzle is read in
const SENSES = ["maximize", "minimize"];  // a best value asked for: maximize=EXPR or minimize=EXPR
const STOP_GRACE_MS = 3000;  // after Stop, the server's last word is awaited this long before the request is dropped

const GRACE_MS = 1000;  // in the browser: a search's time past its limit to send its verdict, before its worker ends

let current = null;  // the running search: {controller, id, started, timeout, found, shown}
let hints = null;    // the explanation of the last solved puzzle, revealed one step at a time

function ruleValue(name) {
  const element = $(name);
  return element.type === "checkbox" ? element.checked : element.value.trim();
}

// The puzzle and its non-default rules as query parameters: the page's address and the API's.
function puzzleParams() {
  const params = new URLSearchParams();
  params.set("formula", $("formula").value);
  if ($("notation").value !== "smtcrypt") params.set("syntax", $("notation").value);
  for (const name of RULES) {
    const value = ruleValue(name);
    if (value !== DEFAULTS[name]) params.set(name, String(value));
  }
  if ($("sense").value && $("objective").value.trim()) params.set($("sense").value, $("objective").value.trim());
  return params;
}

function puzzleLink() {
  return location.origin + location.pathname + "?" + puzzleParams();
}

function followLink() {  // a link shown belongs to the puzzle on the page, not to one solved or shared before
  if (!$("link").hidden) $("link").value = puzzleLink();
  $("share").textContent = "Copy link";
}

function ruleParams() {  // what the checker needs: the formula and the rules, not the mode
  const params = puzzleParams();
  for (const name of ["mode", ...SENSES]) params.delete(name);
  return params;
}

function loadFromAddress() {
  const params = new URLSearchParams(location.search);
  if (!params.has("formula")) return false;
  $("formula").value = params.getAll("formula").join("\n");
  $("notation").value = NOTATIONS.includes(params.get("syntax")) ? params.get("syntax") : "smtcrypt";
  const sense = SENSES.find((name) => params.has(name));
  $("sense").value = sense || "";
  $("objective").value = sense ? params.get(sense) : "";
  for (const name of RULES) {
    if (!params.has(name)) continue;
    const element = $(name), value = params.get(name);
    if (element.type === "checkbox") element.checked = ["1", "true", "yes", "on"].includes(value.toLowerCase());
    else element.value = value;
  }
  return true;
}

function shownLetter(letter) {  // a combining mark alone (the virama of उन्नीस) on a dotted circle
  return /^\p{M}$/u.test(letter) ? "\u25cc" + letter : letter;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- the way to smtcrypt: the server's API, or Web Workers (the page without a server) -------------------

// A request answers {ok, status, body}; a stream calls `line` with each of its lines (start, solution...,
// progress..., done) and resolves when it ends. Both ways answer alike: the workers run the server's code.
const solver = document.body.dataset.pyodide ? workerSolver(document.body.dataset) : serverSolver();

function serverSolver() {
  async function request(path, params, body) {
    const options = body === undefined ? {} :  // a POST says it is JSON: the server takes no other
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    const response = await fetch(path + (params ? "?" + params : ""), options);
    return { ok: response.ok, status: response.status, body: await response.json() };
  }
  async function stream(params, line, run) {
    const response = await fetch("/api/stream?" + params, { signal: run.controller.signal });
    if (!response.ok) return { ok: false, status: response.status, body: await response.json() };
    const reader = response.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (text.trim()) line(JSON.parse(text));
      }
    }
    return { ok: true };
  }
  async function stop(run) {
    if (run.id) {
      try {
        await request("/api/stop", "id=" + encodeURIComponent(run.id), {});
      } catch (error) { /* dropped below */ }
    }
    // the stream ends with the server's verdict (unknown, interrupted); if it does not come, drop the request
    setTimeout(() => { if (!run.done) run.controller.abort(); }, run.id ? STOP_GRACE_MS : 0);
  }
  return { request, stream, stop, health: () => request("/api/health") };
}

// Two workers: searches in one (ended, and started afresh, to stop one), the checks, hints, moves and
// worksheets in the other, so that what is typed is checked while a search runs. Each request within the
// page's time limit (plus GRACE_MS), or its worker ends.
function workerSolver(config) {
  const timeout = Number(config.timeout);
  const boot = { pyodide: new URL(config.pyodide, location.href).href, timeout,
                 wheels: config.wheels.split(" ").map((name) => new URL(name, location.href).href) };

  function worker() {
    const self = { waiting: new Map(), next: 0 };
    self.start = () => {
      self.worker = new Worker(new URL("static/worker.mjs", location.href), { type: "module" });
      self.ready = new Promise((resolve, reject) => { self.booted = resolve; self.failed = reject; });
      self.ready.catch(() => null);
      self.worker.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.ready) self.booted();
        else if (message.failed) self.failed(new Error(message.failed));
        else if (self.waiting.has(message.id)) self.waiting.get(message.id)(message);
      };
      self.worker.onerror = (event) => self.failed(new Error(event.message || "the worker failed to start"));
      self.worker.postMessage({ boot });
    };
    // a request's messages go to `answer` until its end; its clock starts once the worker is ready
    self.send = async (path, params, body, answer, late) => {
      await self.ready;
      const id = ++self.next;
      const timer = setTimeout(() => late(self), timeout * 1000 + GRACE_MS);
      self.waiting.set(id, (message) => {
        if (message.end || message.killed) { clearTimeout(timer); self.waiting.delete(id); }
        answer(message);
      });
      self.worker.postMessage({ id, path, query: params ? [...params] : [], body });
    };
    self.restart = (why) => {  // its work ends now: each request waiting hears why
      self.worker.terminate();
      const waiting = [...self.waiting.values()];
      self.waiting.clear();
      for (const answer of waiting) answer({ killed: why });
      self.start();
    };
    self.start();
    return self;
  }
  const searches = worker();
  // the other worker starts once the searches' is ready (or has failed), so that the first answer comes sooner
  searches.ready.then(() => performance.mark("smtcrypt-ready"), () => null);  // (benchmarks/page.py reads it)
  const helper = searches.ready.then(worker, worker);

  function request(path, params, body) {
    return new Promise((resolve, reject) => {
      let answered = null;
      helper.then((each) => each.send(path, params, body, (message) => {
        if (message.killed) resolve({ ok: false, status: 422, body: { error: message.killed } });
        else if (message.status !== undefined) answered = message;
        else if (message.end) resolve({ ...answered, ok: answered.status === 200 });
      }, (each) => each.restart(`the work did not end within the page's time limit (${timeout} s)`))).catch(reject);
    });
  }
  function stream(params, line, run) {
    return new Promise((resolve, reject) => {
      let refused = null;
      run.kill = (why) => searches.restart(why);
      searches.send("/api/stream", params, undefined, (message) => {
        if (message.killed) {  // ended from here: the verdict is what was found by then
          const seconds = (performance.now() - run.started) / 1000;
          line({ event: "done", shown: run.shown, verdict: { status: "unknown", count: run.found, reason: message.killed, seconds } });
          resolve({ ok: true });
        } else if (message.line) {
          line(message.line);
        } else if (message.status !== undefined) {
          refused = { ok: false, status: message.status, body: message.body };
        } else if (message.end) {
          resolve(refused || { ok: true });
        }
      }, () => run.kill("time limit")).catch(reject);
    });
  }
  async function stop(run) { if (run.kill) run.kill("interrupted"); }
  async function worksheet(params) {  // the sheet as a page of its own, made here
    const answer = await request("/worksheet", params);
    if (!answer.ok) return answer;
    return { ok: true, url: URL.createObjectURL(new Blob([answer.html], { type: "text/html" })) };
  }
  const health = async () => ({ ok: true, status: 200, body: { version: config.version, searches: 0, timeout } });
  return { request, stream, stop, worksheet, health };
}

// ---- checking as you type -------------------------------------------------------------------

let checkTimer = null, checkSeq = 0;

function showSyntax(error) {
  const box = $("syntax");
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    $("formula").removeAttribute("aria-invalid");
    return;
  }
  const where = error.line ? ` at line ${error.line}, column ${error.column}` : "";
  box.textContent = error.error + where + (error.snippet ? "\n" + error.snippet : "");
  box.hidden = false;
  $("formula").setAttribute("aria-invalid", "true");
}

async function checkNow() {
  const seq = ++checkSeq;
  if (!$("formula").value.trim()) {
    showSyntax(null);
    $("letters").textContent = "";
    return;
  }
  try {
    const { ok, body } = await solver.request("/api/check", ruleParams());
    if (seq !== checkSeq) return;  // a later keystroke has been checked already
    if (ok) {
      showSyntax(null);
      const names = body.letters.concat(body.unknowns);
      const parts = [];
      if (body.letters.length) parts.push(`${body.letters.length} letter${body.letters.length === 1 ? "" : "s"}: ${body.letters.map(shownLetter).join(" ")}`);
      if (body.unknowns.length) parts.push(`integer unknowns: ${body.unknowns.join(" ")}`);
      $("letters").textContent = parts.join("; ");
      $("letters").dataset.count = names.length;
    } else {
      showSyntax(body);
      $("letters").textContent = "";
    }
  } catch (error) {
    if (seq === checkSeq) $("letters").textContent = `smtcrypt cannot be reached (${error.message})`;
  }
}

function checkSoon() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkNow, 150);
}

// ---- solving --------------------------------------------------------------------------------

function setStatus(kind, text, how) {
  const status = $("status");
  status.replaceChildren(el("span", "verdict " + kind, kind), document.createTextNode(text));
  status.dataset.status = kind;
  if (how) status.append(el("span", "how", how));
}

// The verdict in words, for every status: `count` is null for infinitely many (`shown` says how many are listed)
function describe(verdict, shown) {
  const n = verdict.count, plural = (k) => `${(k ?? 0).toLocaleString("en")} solution${k === 1 ? "" : "s"}`;
  const seconds = verdict.seconds < 0.1 ? `${(verdict.seconds * 1000).toFixed(1)} ms` : `${verdict.seconds.toFixed(2)} s`;
  const proof = verdict.proof ? `proved: ${verdict.proof}` : "";
  const how = [verdict.strategy ? `strategy: ${verdict.strategy}` : "", proof, seconds].filter(Boolean).join(" · ");
  const texts = {
    unique: `${plural(n)}, and no other: the puzzle is unique`,
    none: "no solution",
    multiple: verdict.complete ? `${plural(n)}, and no other` : `${plural(n)}: not unique (stopped after two)`,
    found: `${plural(n)} (stopped as asked; more may exist)`,
    infinite: `${plural(verdict.shown ?? shown)} shown; ${verdict.reason}`,
    unknown: `${plural(n)} found; search incomplete (${verdict.reason}), so more may exist`,
  };
  const best = verdict.sense === "maximize" ? "maximum" : "minimum";
  const attained = { unique: "; attained by one solution only, proved", multiple: "; attained by more than one solution" };
  texts.optimal = `${best} ${verdict.objective} = ${verdict.optimum}: optimal` + (attained[verdict.attained] || "");
  if (verdict.status === "unknown" && verdict.bound !== undefined) {
    texts.unknown = `${best} ${verdict.objective} ${verdict.sense === "maximize" ? "at least" : "at most"} ` +
      `${verdict.bound}, the best found; search incomplete (${verdict.reason}), so it is not proved optimal`;
  }
  if (verdict.status === "infinite" && verdict.objective !== undefined) texts.infinite = `no ${best}: ${verdict.reason}, proved`;
  let text = texts[verdict.status] || verdict.status;
  if (n !== null && shown < n && verdict.status !== "unknown" && $("mode").value !== "count") text += `; the first ${shown} shown`;
  return [text, how];
}

function addSolution(event) {
  const item = el("li");
  item.append(el("div", "line", event.text));
  if (event.long_hand) item.append(el("pre", "long-hand", event.long_hand));
  const mapping = Object.entries(event.mapping).map(([name, value]) => `${shownLetter(name)}=${value}`).join(" ");
  item.append(el("div", "mapping", mapping));
  $("solutions").append(item);
}

function showProgress() {
  if (!current) return;
  const seconds = (performance.now() - current.started) / 1000;
  $("progress").value = current.timeout ? Math.min(1, seconds / current.timeout) : 0;
  $("progress-text").textContent =
    `${current.found.toLocaleString("en")} found · ${seconds.toFixed(1)} s` + (current.timeout ? ` of at most ${current.timeout} s` : "");
}

function finish() {
  if (current) clearInterval(current.ticker);
  current = null;
  $("busy").hidden = true;
  $("stop").disabled = true;
  $("solve").disabled = false;
}

function handle(event, run) {
  if (current !== run) return;  // a stream replaced by a newer search
  if (event.event === "start") {
    run.id = event.id;
    run.timeout = event.timeout;
  } else if (event.event === "solution") {
    run.found = Math.max(run.found, event.index);
    run.shown += 1;
    addSolution(event);
  } else if (event.event === "progress") {
    run.found = event.found;
    showProgress();
  } else if (event.event === "done") {
    const [text, how] = describe(event.verdict, event.shown);
    setStatus(event.verdict.status, text, how);
    if (event.verdict.count > 0) offerHints();
  } else if (event.event === "error") {
    setStatus("error", event.error);
  }
}

async function solve() {
  if (current) {  // a new search replaces the running one
    const previous = current;
    stop();
    previous.controller.abort();
    finish();
  }
  history.replaceState(null, "", location.pathname + "?" + puzzleParams());
  followLink();
  clearTimeout(checkTimer);  // the letters line and any error belong to the formula being solved
  checkNow();
  $("result").hidden = false;
  $("solutions").replaceChildren();
  $("hints").hidden = true;
  hints = null;
  setStatus("searching", "solutions appear as they are found");
  const controller = new AbortController();
  const run = current = { controller, id: null, started: performance.now(), timeout: null, found: 0, shown: 0, done: false };
  run.ticker = setInterval(showProgress, 200);
  $("busy").hidden = false;
  $("stop").disabled = false;
  $("solve").disabled = true;
  try {
    const answer = await solver.stream(puzzleParams(), (line) => handle(line, run), run);
    if (!answer.ok) {
      if (current !== run) return;
      const body = answer.body;
      if (body.line !== undefined) showSyntax(body);
      setStatus("error", body.error + (body.line ? ` at line ${body.line}, column ${body.column}` : ""));
      return;
    }
    run.done = true;
  } catch (error) {
    if (current !== run) return;
    if (error.name === "AbortError") {
      setStatus("unknown", `${run.found} found; search stopped, so more may exist`);
    } else {
      setStatus("error", `smtcrypt cannot be reached (${error.message})`);
    }
  } finally {
    if (current === run) finish();
  }
}

async function stop() {
  const run = current;
  if (!run) return;
  $("stop").disabled = true;
  await solver.stop(run);
}

// ---- hints ----------------------------------------------------------------------------------

function offerHints() {
  $("hints").hidden = false;
  $("steps").replaceChildren();
  $("legend").replaceChildren();
  $("difficulty").textContent = "";
  $("next-hint").disabled = false;
  $("next-hint").textContent = "Next hint";
}

async function nextHint() {
  if (!hints) {
    const { ok, body } = await solver.request("/api/explain", ruleParams());
    if (!ok) {
      $("steps").replaceChildren(el("li", "", body.error));
      $("next-hint").disabled = true;
      return;
    }
    hints = { steps: body.steps, shown: 0 };
    if (body.difficulty) $("difficulty").textContent = `difficulty ${body.difficulty} of 5`;
    $("legend").replaceChildren(...(body.legend || []).map((line) => el("p", "", line)));  // how to read the steps
  }
  if (hints.shown < hints.steps.length) {
    $("steps").append(el("li", hints.steps[hints.shown].kind || "", hints.steps[hints.shown].text));
    hints.shown += 1;
  }
  if (hints.shown >= hints.steps.length) {
    $("next-hint").disabled = true;
    $("next-hint").textContent = `all ${hints.steps.length} steps shown`;
  }
}

// ---- play: the puzzle by hand, every move checked by the server -----------------------------

// the game on the page: the decisions accepted (replayed by the server on each request, as the link
// holds them), pencil marks, the moves rejected (for easy mode) and the server's last answer
let game = null;

function gameBody(extra) {
  const body = { formula: $("formula").value, decisions: game.decisions };
  for (const [name, value] of ruleParams()) if (name !== "formula") body[name] = value;
  return Object.assign(body, extra);
}

function gameParams() {  // the position in the page's address: the puzzle, the decisions, the marks, easy mode
  const params = ruleParams();
  params.set("play", "1");
  for (const decision of game.decisions) params.append("decision", decision);
  const marks = Object.entries(game.marks).filter(([, digits]) => digits.length)
    .map(([letter, digits]) => `${letter}:${digits.join("")}`);
  if (marks.length) params.set("marks", marks.join(","));
  if ($("easy").checked) params.set("easy", "1");
  return params;
}

function showVerdict(kind, text, steps) {
  $("verdict").replaceChildren(el("span", "verdict " + kind, kind), document.createTextNode(text));
  $("verdict").dataset.verdict = kind;
  $("reason").replaceChildren(...(steps || []).map((step) => {  // a text, or a proved step inside its cases
    const item = el("li", "", typeof step === "string" ? step : step.text);
    if (step.depth) item.style.marginLeft = `${2 * step.depth}em`;
    return item;
  }));
}

// one request at a time, each sent with the decisions the one before it left (a move typed while
// another is answered waits for it)
let playQueue = Promise.resolve();

function playRequest(extra) {
  const request = playQueue.then(() => sendPlay(extra));
  playQueue = request.catch(() => null);
  return request;
}

async function sendPlay(extra) {
  const { before, ...fields } = extra;
  if (before) before(game.decisions);  // the decisions this move is answered under
  const { ok, body } = await solver.request("/api/play", null, gameBody(fields));
  if (!ok) {
    const where = body.column ? ` (column ${body.column})` : "";
    showVerdict("error", `${body.decision ? body.decision + ": " : ""}${body.error}${where}`,
                body.snippet ? [body.snippet] : []);
    return null;
  }
  game.data = body;
  game.decisions = body.decisions;
  history.replaceState(null, "", location.pathname + "?" + gameParams());
  drawBoard();
  return body;
}

function refuted(letter, digit) {  // a try of this digit rejected under decisions all still made
  return game.tried.some((t) => t.letter === letter && t.digit === digit &&
                                t.under.every((decision) => game.decisions.includes(decision)));
}

function drawBoard() {
  const data = game.data, letters = new Set(data.letters);
  const rows = data.lines.map((line) => {
    if (/^\s*-+\s*$/.test(line)) {
      const rule = el("div", "rule");
      rule.style.width = `${line.trimEnd().length * 2.4}rem`;
      rule.style.marginLeft = `${(line.length - line.trimStart().length) * 2.4}rem`;
      return rule;
    }
    const row = el("div", "row");
    // a letter with its marks and joiners is one symbol, as the server cuts words (not Intl.Segmenter,
    // whose conjunct rule would join two consonants the server keeps apart)
    for (const ch of line.match(/[\s\S][\p{M}\u200c\u200d]*/gu) || []) {
      const letter = ch.toUpperCase();
      if (!letters.has(letter) || !/[\p{L}\p{M}]/u.test(ch)) {  // letters of every script, marks too
        row.append(el("span", "char", ch));
        continue;
      }
      const cell = el("span", "cell");
      const box = el("input", "box");
      box.dataset.letter = letter;
      box.setAttribute("aria-label", `digit of ${letter}`);
      box.maxLength = 1;
      box.inputMode = "numeric";
      const known = data.fixed[letter];
      box.value = known === undefined ? "" : String(known);
      if (known !== undefined) box.classList.add("known");
      box.addEventListener("input", () => boxTyped(box));
      cell.append(el("span", "letter", letter), box, el("span", "marks", (game.marks[letter] || []).join(" ")));
      row.append(cell);
    }
    return row;
  });
  $("board").replaceChildren(...rows);
  const decided = data.decisions.length ? `your decisions: ${data.decisions.join(", ")}` : "no decisions yet";
  $("decided").textContent = decided + (data.solved ? " · solved" : "");
  drawPalette();
}

function drawPalette() {
  const table = $("palette");
  table.hidden = !$("easy").checked;
  if (table.hidden) return;
  const rows = game.data.letters.map((letter) => {
    const row = el("tr");
    row.append(el("th", "", letter));
    for (let digit = 0; digit < 10; digit++) {
      const cell = el("td"), button = el("button", "", String(digit));
      button.type = "button";
      const out = !game.data.left[letter].includes(digit) || refuted(letter, digit);
      if (out) button.classList.add("out");
      button.title = out ? `${letter} = ${digit} is ruled out` : `try ${letter} = ${digit}`;
      button.addEventListener("click", () => tryMove(`${letter} = ${digit}`));
      cell.append(button);
      row.append(cell);
    }
    return row;
  });
  table.replaceChildren(...rows);
}

function boxTyped(box) {
  const letter = box.dataset.letter, text = box.value.trim();
  if ($("pencil").checked && /^[0-9]$/.test(text)) {  // a pencil mark: toggled, never a decision
    const digit = Number(text), marks = game.marks[letter] || [];
    game.marks[letter] = marks.includes(digit) ? marks.filter((d) => d !== digit) : [...marks, digit].sort();
    history.replaceState(null, "", location.pathname + "?" + gameParams());
    drawBoard();
    return;
  }
  if (/^[0-9]$/.test(text)) tryMove(`${letter} = ${text}`);
}

async function tryMove(text) {
  const marks = /^\s*([\p{L}\p{M}])\s*:(.*)$/u.exec(text.normalize("NFC"));
  if (marks && game.data && game.data.letters.includes(marks[1].toUpperCase())) {
    game.marks[marks[1].toUpperCase()] = (marks[2].match(/[0-9]/g) || []).map(Number).sort();
    history.replaceState(null, "", location.pathname + "?" + gameParams());
    drawBoard();
    return;
  }
  let under = null;
  const body = await playRequest({ move: text, before: (decisions) => { under = [...decisions]; } });
  if (!body || !body.move) return;
  const move = body.move, parts = /^([\p{Lu}\p{Lt}\p{Lo}\p{Lm}\p{M}])\s*=\s*(\d+)$/u.exec(move.decision);
  if (move.verdict === "rejected" && parts) game.tried.push({ letter: parts[1], digit: Number(parts[2]), under });
  const forced = Object.entries(move.forced).map(([letter, digit]) => `${letter}=${digit}`).join(" ");
  const texts = {
    accepted: `${move.decision}: accepted` + (forced ? `; it forces ${forced}` : ""),
    solved: `Solved: ${move.solution}`,
    rejected: `${move.decision}: no solution has it`,
    unknown: `${move.decision}: ${move.reason}`,
  };
  showVerdict(move.verdict, texts[move.verdict], move.verdict === "rejected" ? move.steps.length ? move.steps : [move.reason] : []);
  drawPalette();
}

async function undoMove() {
  if (!game.decisions.length) { showVerdict("undone", "nothing to undo"); return; }
  const last = game.decisions[game.decisions.length - 1];
  if (await playRequest({ undo: true })) showVerdict("undone", `${last} taken back`);
}

async function gameHint() {
  const body = await playRequest({ hint: true });
  if (body) showVerdict("hint", body.hint);
}

async function startGame(decisions, marks) {
  game = { decisions: decisions || [], marks: marks || {}, tried: [], data: null };
  $("game").hidden = false;
  showVerdict("hint", "type a digit in a box (or a move below); Hint shows the next proved step");
  if (await playRequest({})) {
    for (const dropped of game.data.dropped) showVerdict(dropped.verdict, `${dropped.decision}: ${dropped.reason}`);
    if (game.data.solved) showVerdict("solved", `Solved: ${game.data.solution}`);
  } else {
    $("board").replaceChildren();
  }
}

function loadGame(params) {  // a shared position: the decisions and marks of the link
  const marks = {};
  for (const item of (params.get("marks") || "").split(",")) {
    const [letter, digits] = item.split(":");
    if (letter && digits) marks[letter] = [...digits].map(Number);
  }
  $("easy").checked = params.get("easy") === "1";
  return startGame(params.getAll("decision"), marks);
}

async function shareGame() {
  const link = location.origin + location.pathname + "?" + gameParams();
  history.replaceState(null, "", location.pathname + "?" + gameParams());
  $("link").value = link;
  $("link").hidden = false;
  try { await navigator.clipboard.writeText(link); $("game-share").textContent = "Link copied"; }
  catch (error) { $("game-share").textContent = "Copy the link above"; }
}

// ---- sharing and worksheets -----------------------------------------------------------------

async function share() {
  const link = puzzleLink();
  history.replaceState(null, "", location.pathname + "?" + puzzleParams());
  $("link").value = link;
  $("link").hidden = false;
  $("link").select();
  try { await navigator.clipboard.writeText(link); $("share").textContent = "Link copied"; }
  catch (error) { $("share").textContent = "Copy the link"; }
}

function worksheetFormulas() {
  return $("ws-formulas").value.split("\n").map((line) => line.trim()).filter(Boolean);
}

function updateWorksheetLink() {
  const formulas = worksheetFormulas(), params = new URLSearchParams();
  for (const formula of formulas) params.append("formula", formula);
  params.set("title", $("ws-title").value);
  params.set("paper", $("ws-paper").value);
  $("ws-open").href = "/worksheet?" + params;
  $("ws-open").setAttribute("aria-disabled", formulas.length ? "false" : "true");
}

// Without a server, the sheet is made by the workers and opened as a page of its own (a tab opened at
// the click: opened after the wait, a pop-up blocker may refuse it); its errors are shown here.
async function openWorksheet(event) {
  event.preventDefault();
  if ($("ws-open").getAttribute("aria-disabled") === "true") return;
  const tab = window.open("", "_blank");
  const answer = await solver.worksheet(new URL($("ws-open").href).searchParams);
  $("ws-error").hidden = answer.ok;
  if (answer.ok) {
    if (tab) tab.location = answer.url;
  } else {
    if (tab) tab.close();
    $("ws-error").textContent = answer.body.error;
  }
}

function addToWorksheet() {
  const formula = $("formula").value.split("\n").map((line) => line.trim()).filter(Boolean).join("; ");
  if (!formula) return;
  const lines = worksheetFormulas();
  if (!lines.includes(formula)) lines.push(formula);
  $("ws-formulas").value = lines.join("\n") + "\n";
  updateWorksheetLink();
}

// ---- wiring ---------------------------------------------------------------------------------

async function start() {
  $("form").addEventListener("submit", (event) => { event.preventDefault(); solve(); });
  $("formula").addEventListener("input", checkSoon);
  $("notation").addEventListener("change", checkSoon);
  for (const id of ["formula", "notation", "objective", ...RULES]) $(id).addEventListener("input", followLink);
  for (const id of ["notation", "sense", ...RULES]) $(id).addEventListener("change", followLink);
  $("formula").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) { event.preventDefault(); solve(); }
  });
  for (const name of RULES) $(name).addEventListener("change", checkSoon);
  for (const name of ["digits", "assign", "base"]) $(name).addEventListener("input", checkSoon);
  $("stop").addEventListener("click", stop);
  $("share").addEventListener("click", share);
  $("next-hint").addEventListener("click", nextHint);
  $("ws-add").addEventListener("click", addToWorksheet);
  if (solver.worksheet) $("ws-open").addEventListener("click", openWorksheet);
  $("play").addEventListener("click", () => startGame([], {}));
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("move").value;
    $("move").value = "";
    if (text.trim()) tryMove(text);
  });
  $("undo").addEventListener("click", undoMove);
  $("game-hint").addEventListener("click", gameHint);
  $("easy").addEventListener("change", () => { if (game && game.data) { history.replaceState(null, "", location.pathname + "?" + gameParams()); drawPalette(); } });
  $("game-share").addEventListener("click", shareGame);
  for (const id of ["ws-formulas", "ws-title", "ws-paper"]) $(id).addEventListener("input", updateWorksheetLink);
  updateWorksheetLink();
  try {
    const health = (await solver.health()).body;
    $("footer").textContent = `smtcrypt ${health.version} · each search is limited to ${health.timeout} s`;
  } catch (error) { /* the checks and the search report an unreachable server */ }
  if (loadFromAddress()) {  // a shared link: solve at once, or set out the game it holds
    const params = new URLSearchParams(location.search);
    if (params.has("play")) await loadGame(params);
    else solve();
  } else {
    $("formula").focus();
  }
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);

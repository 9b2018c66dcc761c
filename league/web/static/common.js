// What the three pages share: the API, the live round in the top bar and
// the reloads it drives, formats, and the charts.

// api fetches a JSON answer of the API, and throws the API's message when
// the answer is an error.
// A server busy with other searches answers 503 with Retry-After: the
// request is made again after that many seconds, a few times.
export async function api(path) {
  let res, body;
  for (let tries = 1; ; tries++) {
    res = await fetch(path, { headers: { Accept: "application/json" } });
    body = await res.json().catch(() => null);
    const retry = res.status === 503 && Number(res.headers.get("Retry-After"));
    if (!retry || tries === busyTries) break;
    await new Promise((done) => setTimeout(done, 1000 * retry));
  }
  if (!res.ok) {
    throw new Error(body && body.message ? body.message : `${path}: HTTP ${res.status}`);
  }
  return body;
}

// busyTries is how many times api asks a busy server.
const busyTries = 10;

// gameInfo is the league's game as the pages draw and play it
// (/api/game): its board, its moves and how its players are measured,
// so that no page asks which game it is. It is asked once a page: a page
// whose server comes to hold another league loads itself again (live).
// An answer that failed is asked again at the next call.
let gameAsked = null;
export function gameInfo() {
  gameAsked ??= api("/api/game").catch((err) => {
    gameAsked = null;
    throw err;
  });
  return gameAsked;
}

// landing is the cell, [row, column] with the top row 0, where the move
// m (as typed) of game lands on a board whose empty cells free(row,
// column) tells: the cell it names, numbered row by row from the top
// left, or in a game of drop the lowest empty cell of its column (null
// when the column is full).
export function landing(game, m, free) {
  const k = game.moves.indexOf(m);
  if (!game.drop) return [Math.floor(k / game.cols), k % game.cols];
  for (let r = game.rows - 1; r >= 0; r--) {
    if (free(r, k)) return [r, k];
  }
  return null;
}

// History is an agent's stored rating history (/api/agents/REF/history)
// as a page holds it: asked whole once, and then only for the rows of
// the rounds since the newest it has (?after=ROUND), a few bytes a round
// rather than the whole history again.
// refOf is how an agent is named in an address: its id, or its name
// where it has none (a searched agent the league has not stored,
// best@ab8).
export function refOf(a) {
  return a.id || a.name;
}

export class History {
  static async load(ref) {
    return Object.assign(new History(), await api(`/api/agents/${encodeURIComponent(ref)}/history`));
  }

  // since returns the history with the rows since; the whole history
  // again if the league went back (a copy of it put in its place).
  // An agent is asked for by its id, or by its name where it has none
  // (a searched agent the league has not stored, best@ab8).
  async since() {
    const ref = encodeURIComponent(this.agent.id || this.agent.name);
    const more = await api(`/api/agents/${ref}/history?after=${this.newest_round}`);
    if (more.newest_round < this.newest_round) return History.load(this.agent.id || this.agent.name);
    return Object.assign(new History(), more, { rows: [...this.rows, ...more.rows] });
  }
}

// el makes an element with attributes and children (strings or nodes).
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    // Through the CSSOM: the pages' Content-Security-Policy refuses style
    // attributes.
    else if (k === "style") e.style.cssText = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null) e.append(c);
  }
  return e;
}

// Formats, as the terminal commands print them.
export const fmt = {
  elo: (v) => v.toFixed(1),
  interval: (lo, hi) => `[${Math.round(lo)}, ${Math.round(hi)}]`,
  int: (n) => n.toLocaleString("en-US"),
  // A probability as ttt play shows it: 52.1%.
  pct: (p) => `${(100 * p).toFixed(1)}%`,
  // A share already in percent, as the API gives it: 44.9%.
  pctOf: (p) => `${p.toFixed(1)}%`,
  record: (w, d, l) => `${fmt.int(w)}/${fmt.int(d)}/${fmt.int(l)}`,
  // A count of games in at most five characters, as ttt ratings' table
  // has them: 98,765, 123k, 14.4M (a night's best plays millions).
  count: (n) => (n < 100000 ? fmt.int(n) : n < 1e6 ? `${Math.floor(n / 1000)}k` : `${(n / 1e6).toFixed(1)}M`),
};

// agentURL and playURL link to an agent's pages.
export const agentURL = (ref) => `/agents/${encodeURIComponent(ref)}`;
export const playURL = (ref, side) => `/play/${encodeURIComponent(ref)}${side ? `?as=${side}` : ""}`;

// pathRef is the agent a page at /agents/REF or /play/REF is about.
export function pathRef() {
  const parts = location.pathname.split("/");
  return decodeURIComponent(parts[2] || "best");
}

// Connect Four's agents are measured on two sets of solved positions:
// the random-ply set (positions reached by random moves), the harder,
// and the tactical set (positions from the games of tactical players).
// Where the pages give one share, it is the random-ply set's (leadShare),
// and the tactical set's for an agent measured before that set.
export const leadShare = (shares) => (shares.random ?? shares.all).pct;

// sharesText names both sets and the agent's share of optimal moves on
// each, as the terminal commands give them, the random-ply set's first.
export function sharesText(shares) {
  const tactical = `${fmt.pctOf(shares.all.pct)} of the tactical set`;
  return `optimal moves: ${shares.random ? `${fmt.pctOf(shares.random.pct)} of the random-ply set, ` : ""}${tactical}`;
}

// badge shows an agent's class (tic-tac-toe), or its share of optimal
// moves (Connect Four, leadShare); random has neither.
export function badge(cls, shares, measuring) {
  if (measuring) {
    return el("span", { class: "badge measuring", title: "a searched agent the league has not stored: the server is measuring its play, which takes from seconds to minutes", text: "measuring…" });
  }
  if (!cls && shares) {
    return el("span", { class: "badge share", title: `${sharesText(shares)}: the share of each fixed set of solved positions where its move keeps the value`, text: `${leadShare(shares).toFixed(1)}% opt` });
  }
  return el("span", { class: `badge ${cls || "none"}`, text: cls || "no class" });
}

// showError puts a message at the top of the page's main part.
export function showError(err) {
  const main = document.querySelector("main");
  let box = document.getElementById("error");
  if (!box) {
    box = el("div", { id: "error", class: "error" });
    main.prepend(box);
  }
  box.textContent = err.message || String(err);
}

function clearError() {
  document.getElementById("error")?.remove();
}

// The agents' colours in charts: the Okabe-Ito palette (readers with
// colour-blindness can tell it apart) without its yellow, as ttt ratings
// plot draws them. The learning curve is near black, references grey.
export const colors = ["#e69f00", "#0072b2", "#009e73", "#d55e00", "#56b4e9", "#cc79a7"];
// The colours that change with dark mode come from the stylesheet.
const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
export const curveColor = cssVar("--curve") || "#1e1e1e";
export const referenceColor = "#8a8a8a";
export const bandColor = cssVar("--band") || "rgba(30, 30, 30, 0.09)";
export const shareColor = cssVar("--share") || "#009e73";
// The learning curves' colours, a method's each in a league of several
// learners: the one curve's, then the indigo, wine and olive of Paul
// Tol's muted scheme (lighter in dark mode), as ttt ratings plot draws
// them, apart from the agents' colours.
export const curveColors = [curveColor, cssVar("--method2") || "#332288", cssVar("--method3") || "#882255", cssVar("--method4") || "#999933"];

// tint is the colour #rrggbb at opacity alpha, for a band.
export function tint(hex, alpha) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}
const gridColor = cssVar("--grid") || "#eef0f3";
const textColor = cssVar("--text") || "#1c2230";

// connect follows the server's event stream, calling state with {up,
// data}: whether the stream is up, and the data of its last "round"
// event. The stream is one for all the pages of the browser, in a
// SharedWorker (events.js), where the browser has them; elsewhere (a
// phone's browser) the page's own.
//
// A page the user leaves may stay alive in the browser's back/forward
// cache: it lets go of the stream when it is hidden, and takes it again
// if it comes back from the cache.
function connect(state) {
  if (typeof SharedWorker === "function") {
    try {
      const worker = new SharedWorker("/static/events.js", { name: "ttt serve events" });
      const port = worker.port;
      port.addEventListener("message", (m) => state(m.data));
      port.start();
      addEventListener("pagehide", () => port.postMessage("bye"));
      addEventListener("pageshow", (e) => e.persisted && port.postMessage("hello"));
      return;
    } catch {
      // A worker refused (a browser's setting): the page's own stream.
    }
  }
  let source = null;
  const open = () => {
    source = new EventSource("/api/events");
    source.addEventListener("open", () => state({ up: true }));
    source.addEventListener("round", (e) => state({ up: true, data: e.data }));
    source.addEventListener("error", () => {
      state({ up: false });
      if (source.readyState === EventSource.CLOSED) setTimeout(() => source.readyState === EventSource.CLOSED && open(), 2000);
    });
  };
  open();
  addEventListener("pagehide", () => source.close());
  addEventListener("pageshow", (e) => e.persisted && open());
}

// live follows the league: the top bar shows the newest round and
// whether a league runs, onRound runs at each new round, or when a
// league run starts or stops, and onDown(down) when the stream to the
// server goes down or comes back. The server pushes a "round" event when
// the stream opens and whenever a round commits (/api/events). A page
// that learns that the server's file now holds another league loads
// itself again: what it holds (its curve, its agents) is of the old one.
export function live(onRound, onDown) {
  const box = document.getElementById("live");
  const label = document.getElementById("round");
  let last = null;
  let league = null;
  connect(({ up, data }) => {
    if (!up) {
      box.classList.remove("on");
      box.title = "the connection to ttt serve is down: trying again";
      if (onDown) onDown(true);
      return;
    }
    box.classList.add("on");
    if (onDown) onDown(false);
    if (!data) return;
    const { round, running, league: now, problem } = JSON.parse(data);
    if (problem) {
      // No league at the server's file: what the page shows stays, and
      // says so, until one is there.
      showError(new Error(problem));
      box.dataset.running = false;
      box.classList.add("stopped");
      box.title = problem;
      return;
    }
    if (league !== null && now !== league) {
      location.reload();
      return;
    }
    league = now;
    label.textContent = round ? `round ${fmt.int(round)}` : "no round yet";
    label.dataset.round = round;
    // The dot is green while a league run is at work, amber while the
    // page is live but no league runs, grey when the stream is down.
    box.dataset.running = running;
    box.classList.toggle("stopped", !running);
    box.title = running ? "a league run is at work: the page follows its rounds as they commit" : "no league run is at work: the page will follow one when it starts";
    if (last !== null && round !== last) {
      box.classList.add("flash");
      setTimeout(() => box.classList.remove("flash"), 1200);
    }
    last = round;
    if (onRound) onRound(round, running);
  });
}

// liveGap is the least time between two reloads of a page that rounds
// start: a league of 20 rounds a second costs a page two reloads a
// second, each of the newest round (coalesce), however slow the page.
const liveGap = 500;

// behindAfter is how long a page may show an older round than the
// league's before its top bar says so: its reloads are not getting
// through.
const behindAfter = 5000;

// loadLive loads a page at once and again at each new round, or when a
// league run starts or stops, refresh being its load (made with
// coalesce) and shown the round whose data the page shows. The first
// load does not wait for the event stream, whose first event, which may
// come before that load is done, reloads only if the load missed its
// round. onDown is live's.
export function loadLive(load, shown, onDown) {
  // The round the page shows, on the page, for a test that waits for it.
  const refresh = async () => {
    await load();
    document.documentElement.dataset.shown = shown();
  };
  const first = refresh();
  let running = null;
  let started = 0;
  let timer = null;
  let newest = null;
  let behind = null; // since when the page shows an older round than the league's
  const reload = () => {
    clearTimeout(timer);
    const wait = started + liveGap - Date.now();
    if (wait > 0) {
      timer = setTimeout(reload, wait);
      return;
    }
    started = Date.now();
    refresh();
  };
  live(async (round, now) => {
    newest = round;
    await first;
    // A league run that starts or stops changes what the page says of
    // the league before any round does.
    const moved = running !== null && now !== running;
    running = now;
    if (round !== shown() || moved) reload();
  }, onDown);
  const box = document.getElementById("live");
  setInterval(() => {
    const lags = newest !== null && shown() !== null && shown() < newest;
    behind = lags ? (behind ?? Date.now()) : null;
    const late = behind !== null && Date.now() - behind > behindAfter;
    box.classList.toggle("behind", late);
    document.getElementById("behind").textContent = late ? `showing round ${fmt.int(shown())}: waiting for ttt serve` : "";
  }, 1000);
}

// coalesce runs an async refresh at most once at a time: a call made
// while one runs asks for one more run after it, however many calls come.
export function coalesce(fn) {
  let running = null;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await fn();
          clearError();
        } catch (err) {
          showError(err);
        }
      } while (again);
    })();
    try {
      await running;
    } finally {
      running = null;
    }
  };
  return run;
}

// roundAxis is a chart's x axis: rounds, whole numbers.
const roundAxis = {
  label: "round",
  incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6],
  values: (u, ticks) => ticks.map((v) => (v == null ? "" : fmt.int(v))), // a log scale leaves some ticks unlabelled
  stroke: textColor,
  grid: { stroke: gridColor },
  ticks: { stroke: gridColor },
};

// eloAxis is a chart's y axis.
const eloAxis = { label: "Elo (random = 0)", size: 56, stroke: textColor, grid: { stroke: gridColor }, ticks: { stroke: gridColor } };

// legendValue formats a series' value in a chart's legend: at the cursor,
// or at the newest round while the cursor is elsewhere.
// none is what it says at a round the series has no value.
export function legendValue(format, none = "–") {
  return (u, v, si, i) => {
    const k = i ?? newestIndex(u);
    const val = u.data[si][k];
    return val == null ? none : format(val, k);
  };
}

// newestIndex is the index of a chart's newest round: the last, but
// for a chart of one round (padded), which spans half a round after it.
export function newestIndex(u) {
  return u.data[0].length - 1 - (u.padded ? 1 : 0);
}

// chartSize is the size of a chart that fills its card's width.
function chartSize(box, height) {
  return { width: Math.max(300, box.clientWidth), height };
}

// newChart draws a uPlot chart of Elo over rounds in box, height pixels
// high, as wide as the box and following its width. opts holds the
// series (a line, then the low and high ends of its 95% interval, which
// draw its band only, and have no row in the legend) and the bands,
// xAxis and yAxis over the rounds' and Elo's axes' settings, and axes
// after them; destroy it before it leaves the page.
export function newChart(box, height, opts, data) {
  const { axes = [], xAxis = {}, yAxis = {}, ...rest } = opts;
  const chart = new uPlot(
    {
      ...chartSize(box, height),
      // A round alone spans half a round either side of it, as on the
      // leaderboard's chart, not rounds 0 to 2, which are none of it
      // (uPlot widens a single x to them before it asks the range).
      scales: { x: { time: false, range: (u, min, max) => (u.data?.[0].length && u.data[0][0] === u.data[0].at(-1) ? [u.data[0][0] - 0.5, u.data[0][0] + 0.5] : [min, max]) } },
      axes: [{ ...roundAxis, ...xAxis }, { ...eloAxis, ...yAxis }, ...axes],
      cursor: { drag: { x: true, y: false } },
      ...rest,
    },
    data,
    box,
  );
  const rows = chart.root.querySelectorAll(".u-legend .u-series");
  for (const si of (opts.bands ?? []).flatMap((b) => b.series)) rows[si].style.display = "none";
  const resize = new ResizeObserver(() => chart.setSize(chartSize(box, height)));
  resize.observe(box);
  chart.hooks.destroy = [...(chart.hooks.destroy || []), () => resize.disconnect()];
  return chart;
}

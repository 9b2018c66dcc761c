// The leaderboard page: figures of the league, its learning curve with
// the ratings of the agents ticked in the table, and the leaderboard, all
// refreshed at each new round.
import { api, el, fmt, badge, agentURL, playURL, coalesce, loadLive, newChart, colors, curveColors, tint, referenceColor, bandColor, shareColor, shareAxis, legendValue } from "./common.js";

const chartBox = document.getElementById("chart");
const tbody = document.querySelector("#leaderboard tbody");

// followed are the agents whose ratings the chart follows, by id: their
// names and colours. The best network is followed from the start, and
// the chart keeps following the best as it changes (bestID) until the
// user unticks it; an agent the user ticked stays.
const followed = new Map();
let nextColor = 0;
let chart = null;
let chartKey = "";
let bestID = null; // the best followed as the best, not ticked by the user
let followBest = true;
const chartHeight = 270;

// zoom is the rounds the user chose to look at: null for the whole run,
// {min, max} for a range (dragged on the chart), {last: n} for the n
// newest rounds, which moves on with each round. It survives new rounds
// and a new chart. log puts the rounds on a log scale.
let zoom = null;
let log = false;

// listing is the view of the table: its order, its filters and its page
// (/api/leaderboard's parameters); the defaults are the top 20 by Elo.
const listing = { limit: 20, sort: "elo", order: "desc", q: "", class: "", min: 0, offset: 0 };

// listingQuery is listing as /api/leaderboard's query.
function listingQuery() {
  const q = new URLSearchParams({ limit: listing.limit });
  if (listing.sort !== "elo") q.set("sort", listing.sort);
  if (listing.order !== "desc") q.set("order", listing.order);
  if (listing.q) q.set("q", listing.q);
  if (listing.class) q.set("class", listing.class);
  if (listing.min > 0) q.set("min_games", listing.min);
  if (listing.offset > 0) q.set("offset", listing.offset);
  return q;
}

// The view is kept in the address, to be shared: ?rounds=A-B|lastN,
// log=1, follow=ID,ID (the agents ticked), best=0 (the best unticked),
// and the table's sort, order, q, class, min_games, offset and limit
// (the rows of a page, 20 unless said).
function readURL() {
  const q = new URLSearchParams(location.search);
  listing.sort = q.get("sort") || "elo";
  listing.order = q.get("order") === "asc" ? "asc" : "desc";
  listing.q = q.get("q") || "";
  listing.class = q.get("class") || "";
  listing.min = Math.max(0, Number(q.get("min_games")) || 0);
  listing.offset = Math.max(0, Number(q.get("offset")) || 0);
  listing.limit = Math.min(1000, Math.max(1, Number(q.get("limit")) || 20));
  const r = q.get("rounds") || "";
  let m;
  if ((m = r.match(/^last(\d+)$/))) zoom = { last: Number(m[1]) };
  else if ((m = r.match(/^(\d+)-(\d+)$/)) && Number(m[1]) < Number(m[2])) zoom = { min: Number(m[1]), max: Number(m[2]) };
  log = q.get("log") === "1";
  followBest = q.get("best") !== "0";
  for (const id of (q.get("follow") || "").split(",")) {
    if (/^\d+$/.test(id)) follow(Number(id), null);
  }
}

function writeURL() {
  const q = new URLSearchParams();
  if (zoom) q.set("rounds", zoom.last ? `last${zoom.last}` : `${zoom.min}-${zoom.max}`);
  if (log) q.set("log", "1");
  const ticked = [...followed.keys()].filter((id) => id !== bestID);
  if (ticked.length) q.set("follow", ticked.join(","));
  if (!followBest) q.set("best", "0");
  for (const [k, v] of listingQuery()) if (k !== "limit" || listing.limit !== 20) q.set(k, v);
  const search = q.toString();
  history.replaceState(null, "", search ? `?${search}` : location.pathname);
  for (const b of document.querySelectorAll("#range [data-range]")) {
    const on = b.dataset.range === "all" ? !zoom : b.dataset.range === `last${zoom?.last}`;
    b.setAttribute("aria-pressed", on);
  }
  document.getElementById("log").setAttribute("aria-pressed", log);
}

// xRange is the rounds the chart shows of rounds xs under zoom.
function xRange(xs) {
  if (!zoom || !xs.length) return null;
  if (zoom.last) return { min: Math.max(xs[0], xs[xs.length - 1] - zoom.last + 1), max: xs[xs.length - 1] };
  return zoom;
}

function follow(id, name) {
  followed.set(id, { name, color: colors[nextColor++ % colors.length] });
}

// followTheBest makes the chart follow best, the best of the newest
// round, in place of the best it followed.
function followTheBest(best) {
  const id = best ? best.id : null;
  if (!followBest || id === bestID) return;
  if (bestID !== null) followed.delete(bestID);
  bestID = id;
  if (id !== null && !followed.has(id)) follow(id, best.name);
}

// shownRound is the round whose data the page shows.
let shownRound = null;

// curve is the learning curve the page holds (/api/progress): after the
// first load it asks only for the rounds since its newest.
let curve = null;

async function loadCurve() {
  if (!curve) return (curve = await api("/api/progress"));
  const since = await api(`/api/progress?after=${curve.newest_round}`);
  if (since.whole) return (curve = since);
  curve = { ...since, thinned: curve.thinned, points: [...curve.points, ...since.points] };
  return curve;
}

const refresh = coalesce(async () => {
  // The first load asks for the best's history at once, not after the
  // best: one wait instead of two.
  const [board, progress, best, latest, bestHistory, health] = await Promise.all([
    api(`/api/leaderboard?${listingQuery()}`),
    loadCurve(),
    api("/api/agents/best").catch(() => null), // a league without networks has none
    api("/api/agents/latest").catch(() => null),
    followBest && bestID === null ? api("/api/agents/best/history").catch(() => null) : null,
    api("/api/health"),
  ]);
  showHealth(health);
  followTheBest(best);
  const history = (id) =>
    bestHistory && bestHistory.agent.id === id
      ? bestHistory
      : api(`/api/agents/${id}/history`).catch(() => (followed.delete(id), null)); // an agent of the address that is not there
  const histories = await Promise.all([...followed.keys()].map(history));
  histories.splice(0, histories.length, ...histories.filter((h) => h));
  tiles(board, progress, best, latest);
  table(board);
  draw(progress, histories);
  shownRound = board.round;
});

// The league's health: whether a league run is at work, when the last
// round finished (kept up to date between rounds), its pace, and since
// when the best is the best.
let lastRound = null;

function showHealth(h) {
  lastRound = h.last_round ? new Date(h.last_round) : null;
  const box = document.getElementById("health");
  box.dataset.running = h.running;
  const parts = [
    el("span", { id: "h-running" }, el("b", { text: h.running ? "running" : "stopped" }), h.running ? ` (a league run, pid ${h.writer})` : ": no league run is at work"),
    el("span", { id: "h-ago" }),
  ];
  if (h.rounds_per_hour) parts.push(el("span", { id: "h-pace", title: "from the durations of the last 100 rounds, not counting the time the league was stopped" }, el("b", { text: fmt.int(Math.round(h.rounds_per_hour)) }), " rounds an hour"));
  if (h.best) {
    const since = h.best_since.changed ? `since round ${fmt.int(h.best_since.round)}` : `since round ${fmt.int(h.best_since.round)} or before`;
    parts.push(el("span", { id: "h-best", title: "ttt serve notes when the best changes while it runs; the league does not store it" }, "best ", el("a", { href: agentURL(h.best.id), text: h.best.name }), ` ${since}`));
  }
  box.replaceChildren(...parts);
  ago();
}

// ago says how long ago the last round finished.
function ago() {
  const box = document.getElementById("h-ago");
  if (!box) return;
  if (!lastRound) {
    box.textContent = "no round yet";
    return;
  }
  const s = Math.max(0, (Date.now() - lastRound) / 1000);
  const text = s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : s < 172800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86400)} days`;
  box.replaceChildren("last round ", el("b", { text }), " ago");
}
setInterval(ago, 1000);

function tiles(board, progress, best, latest) {
  document.getElementById("t-rounds").textContent = fmt.int(board.round);
  document.getElementById("t-rounds-sub").textContent = progress.thinned
    ? `the chart shows ${fmt.int(progress.points.length)} of them, evenly spread`
    : `${fmt.int(progress.points.length)} snapshots on the chart`;
  document.getElementById("t-rated").textContent = fmt.int(board.rated);
  const agentTile = (id, a) => {
    const value = document.getElementById(`t-${id}`);
    const sub = document.getElementById(`t-${id}-sub`);
    if (!a) {
      value.textContent = "none yet";
      sub.textContent = "";
      return;
    }
    value.replaceChildren(el("a", { href: agentURL(a.id), text: a.name }));
    const st = a.standing;
    const verdict = a.class || (a.shares ? `${fmt.pctOf(a.shares.all.pct)} optimal` : "not checked");
    sub.textContent = `${verdict}, ` + (st ? `Elo ${fmt.elo(st.elo)} ${fmt.interval(st.lo, st.hi)}` : "not rated yet");
  };
  agentTile("best", best);
  agentTile("latest", latest);
}

// checkColumns are the columns of the leaderboard that say what a check
// found, by game: tic-tac-toe's exhaustive check per side, Connect Four's
// position set overall and by phase.
const checkColumns = {
  tictactoe: {
    about: "class, lines lost and optimal moves per side from the exhaustive check (ttt verify)",
    heads: ["X lost", "X opt", "O lost", "O opt"],
    cells(a) {
      const side = (v) => (v ? [`${v.lost}/${v.lines}`, `${v.optimal_pct.toFixed(1)}%`] : ["–", "–"]);
      return [...side(a.verify && a.verify.x), ...side(a.verify && a.verify.o)];
    },
  },
  connect4: {
    about: "the share of a fixed set of solved positions where its move keeps the value, overall and by phase (early up to 14 stones, middle up to 22, late after)",
    heads: ["Optimal", "Early", "Middle", "Late"],
    cells(a) {
      const sh = a.shares;
      return sh ? [sh.all, sh.early, sh.middle, sh.late].map((x) => fmt.pctOf(x.pct)) : ["–", "–", "–", "–"];
    },
  },
};

function table(board) {
  const check = checkColumns[board.game];
  document.getElementById("board-about").textContent = check.about;
  document.querySelectorAll("#leaderboard th.check").forEach((th, k) => (th.textContent = check.heads[k]));
  const filtered = board.matched < board.rated;
  const first = board.offset + 1;
  const last = board.offset + board.agents.length;
  document.getElementById("shown").textContent = !board.agents.length
    ? filtered ? `none of ${fmt.int(board.rated)} matches` : ""
    : board.agents.length < board.matched || filtered
      ? `${fmt.int(first)}–${fmt.int(last)} of ${fmt.int(board.matched)}${filtered ? ` (of ${fmt.int(board.rated)} rated)` : ""}`
      : "";
  document.getElementById("prev").disabled = board.offset === 0;
  document.getElementById("next").disabled = last >= board.matched;
  document.getElementById("class-filter").hidden = board.game !== "tictactoe";
  // The check's columns sort where a column of the store stands for
  // them: Connect Four's share.
  document.querySelectorAll("#leaderboard th.check").forEach((th, k) => {
    if (board.game === "connect4" && k === 0) th.dataset.sort = "share";
  });
  for (const th of document.querySelectorAll("#leaderboard th[data-sort]")) {
    th.setAttribute("aria-sort", th.dataset.sort === listing.sort ? (listing.order === "asc" ? "ascending" : "descending") : "none");
  }
  tbody.replaceChildren(
    ...board.agents.map((a) => {
      const f = followed.get(a.id);
      return el(
        "tr",
        { class: a.best ? "best" : null, "data-id": a.id, "data-kind": a.kind },
        el("td", { class: "num", text: a.rank }),
        el(
          "td",
          { class: "agent" },
          el("a", { href: agentURL(a.id), text: a.name }),
          a.best ? el("span", { class: "star", title: "best: the export and play default", text: "★" }) : null,
          a.generation ? el("span", { class: "muted made", title: "the league round that made it; its name carries its id", text: ` r${a.generation}` }) : null,
        ),
        el("td", { class: a.method ? "method" : "method muted", text: a.method ?? "–" }),
        el("td", {}, badge(a.class, a.shares)),
        el("td", { class: "num", text: fmt.elo(a.elo) }),
        el("td", { class: "num interval", text: fmt.interval(a.lo, a.hi) }),
        el("td", { class: "num", text: fmt.int(a.games) }),
        el("td", { class: "num", text: fmt.record(a.wins, a.draws, a.losses) }),
        check.cells(a).map((text) => el("td", { class: text === "–" ? "num muted" : "num", text })),
        el(
          "td",
          {},
          el("input", {
            type: "checkbox",
            class: "follow",
            title: "follow its rating on the chart",
            checked: !!f,
            onchange: (e) => {
              if (e.target.checked) follow(a.id, a.name);
              else followed.delete(a.id);
              // Ticked or unticked by hand, the best stays as the user
              // left it.
              if (a.id === bestID) {
                bestID = null;
                followBest = false;
              }
              writeURL();
              refresh();
            },
          }),
          f ? el("span", { class: "swatch", style: `background:${f.color}` }) : null,
        ),
        el("td", {}, a.kind === "random" ? null : el("a", { href: playURL(a.id), text: "play" })),
      );
    }),
  );
}

// carry puts a stored rating history on the rounds xs: at each round the
// last row at or before it (the rating the league held then), none before
// the agent was first rated.
function carry(rows, xs) {
  const out = new Array(xs.length).fill(null);
  let i = -1;
  xs.forEach((x, k) => {
    while (i + 1 < rows.length && rows[i + 1].round <= x) i++;
    if (i >= 0) out[k] = rows[i].elo;
  });
  return out;
}

function draw(progress, histories) {
  const pts = progress.points;
  const xs = pts.map((p) => p.round);
  // A league of several learners has a learning curve for each method,
  // from the rounds that were its turn; the methods in the order of
  // their first rounds.
  const methods = [...new Set(pts.map((p) => p.method))];
  const several = methods.length > 1;
  const data = [xs];
  const series = [{ label: "round", value: legendValue(fmt.int) }];
  const bands = [];
  // Each method's curve, and the low and high ends of its 95% interval,
  // which draw its band; a method's rounds only, joined across the
  // others'.
  methods.forEach((m, k) => {
    const of = (f) => pts.map((p) => (p.method === m ? f(p) : null));
    const at = data.length;
    data.push(of((p) => p.elo), of((p) => p.lo), of((p) => p.hi));
    const color = curveColors[k % curveColors.length];
    series.push(
      {
        label: several ? m : "learning curve",
        stroke: color,
        width: 1.5,
        spanGaps: true,
        points: { show: xs.length <= 80, size: 4 },
        // The interval from the chart's own data: the data of a later
        // round, not that of the first draw. A round of another method
        // shows this method's newest point before it, and its round.
        value: (u, v, si, i) => {
          const k = i ?? u.data[0].length - 1;
          let j = k;
          while (j > 0 && u.data[si][j] == null) j--;
          const val = u.data[si][j];
          if (val == null) return "–";
          return `${val.toFixed(0)} ${fmt.interval(u.data[at + 1][j], u.data[at + 2][j])}` + (j === k ? "" : ` (round ${fmt.int(u.data[0][j])})`);
        },
      },
      { label: "lo", stroke: "transparent", spanGaps: true, points: { show: false } },
      { label: "hi", stroke: "transparent", spanGaps: true, points: { show: false } },
    );
    bands.push({ series: [at + 2, at + 1], fill: k === 0 ? bandColor : tint(color, 0.12) });
  });
  // A game measured on a position set: each snapshot's share of optimal
  // moves there, on a scale of its own, with the built-in players' and
  // random's (the floor) flat.
  const shares = pts.some((p) => p.share != null);
  if (shares) {
    methods.forEach((m, k) => {
      data.push(pts.map((p) => (p.method === m ? (p.share ?? null) : null)));
      series.push({
        label: several ? `${m}'s optimal moves` : "optimal moves",
        scale: "%",
        stroke: several ? curveColors[k % curveColors.length] : shareColor,
        dash: several ? [3, 3] : undefined,
        width: 1.5,
        spanGaps: true,
        points: { show: xs.length <= 80, size: 3 },
        value: legendValue((v) => fmt.pctOf(v)),
      });
    });
    const flat = (label, v) => {
      data.push(xs.map(() => v));
      series.push({ label, scale: "%", stroke: shareColor, width: 1, dash: [2, 4], points: { show: false }, value: () => fmt.pctOf(v) });
    };
    for (const r of progress.references) {
      if (r.share != null) flat(`${r.name}'s optimal moves`, r.share);
    }
    if (progress.floor != null) flat("random's optimal moves", progress.floor);
  }
  [...followed.values()].forEach((f, k) => {
    f.name = histories[k].agent.name; // unknown for an agent from the address
    data.push(carry(histories[k].rows, xs));
    series.push({ label: f.name, stroke: f.color, width: 2, points: { show: false }, value: legendValue((v) => v.toFixed(0)) });
  });
  for (const r of progress.references) {
    data.push(xs.map(() => r.elo));
    series.push({
      label: r.kind === "random" ? "random (the anchor)" : `${r.name} now`,
      stroke: referenceColor,
      width: 1.25,
      dash: [6, 4],
      points: { show: false },
      value: () => r.elo.toFixed(0),
    });
  }
  chartBox.dataset.points = xs.length;
  chartBox.dataset.round = progress.newest_round;
  chartBox.dataset.followed = followed.size;

  if (!xs.length) {
    chart?.destroy();
    chart = null;
    chartBox.replaceChildren(el("p", { class: "muted", text: "No round yet: ttt league run plays the first." }));
    return;
  }
  const key = series.map((s) => s.label).join("|") + (log ? "|log" : "");
  const range = xRange(xs);
  if (chart && key === chartKey) {
    applying = true;
    chart.setData(data, !range);
    if (range) chart.setScale("x", range);
    applying = false;
    // uPlot redraws the legend when the cursor moves: with the cursor
    // away, it would keep the values of the round it was drawn at.
    chart.setLegend({ idx: chart.cursor.idx });
    return;
  }
  chart?.destroy();
  chartBox.replaceChildren();
  chartKey = key;
  applying = true;
  chart = newChart(
    chartBox,
    chartHeight,
    {
      series,
      bands,
      legend: { live: true },
      // The y axis fits the ratings in view, not the widest interval: an
      // early snapshot's [-8044, 5465] would flatten the curve. The band
      // is clipped to the chart.
      scales: { x: log ? { time: false, distr: 3 } : { time: false }, y: { range: (u) => fitRatings(u, "y", 10) }, "%": { range: fitShares } },
      axes: shares ? [shareAxis] : [],
      hooks: {
        // A range the user drags, or sets, is kept; a double click (the
        // whole run) forgets it.
        setScale: [
          (u, key) => {
            if (key !== "x" || applying) return;
            const xs = u.data[0];
            const whole = u.scales.x.min <= xs[0] && u.scales.x.max >= xs[xs.length - 1];
            // Whole rounds, as the address keeps them.
            const min = Math.max(xs[0], Math.round(u.scales.x.min));
            const max = Math.min(xs[xs.length - 1], Math.round(u.scales.x.max));
            zoom = whole || min >= max ? null : { min, max };
            if (zoom && (min !== u.scales.x.min || max !== u.scales.x.max)) {
              // After the hook: uPlot ignores a scale set within it.
              const rounded = zoom;
              queueMicrotask(() => {
                applying = true;
                u.setScale("x", rounded);
                applying = false;
              });
            }
            writeURL();
          },
        ],
      },
    },
    data,
  );
  if (range) chart.setScale("x", range);
  applying = false;
  window.tttChart = chart; // for the browser test
}

// applying is true while the page itself sets the chart's data.
let applying = false;

// fitRatings is the range of the chart's scale (y, Elo): the ratings of
// the curves, the agents followed and the references in the rounds in
// view, with a margin of at least minPad, leaving the intervals (the
// bands' edges) out. A chart with shares fits their scale, "%", the same
// way.
function fitRatings(u, scale, minPad) {
  const xs = u.data[0];
  const x0 = u.scales.x.min ?? xs[0];
  const x1 = u.scales.x.max ?? xs[xs.length - 1];
  const edges = u.bands.flatMap((b) => b.series);
  let min = Infinity;
  let max = -Infinity;
  u.data.forEach((ys, si) => {
    if (si === 0 || edges.includes(si) || (u.series[si].scale ?? "y") !== scale) return;
    ys.forEach((y, k) => {
      if (y == null || xs[k] < x0 || xs[k] > x1) return;
      if (y < min) min = y;
      if (y > max) max = y;
    });
  });
  if (min === Infinity) return [0, 1];
  const pad = Math.max(minPad, 0.08 * (max - min));
  return [min - pad, max + pad];
}

// fitShares is the range of the shares' scale: the shares in view, with
// a margin, within 0-100%.
function fitShares(u) {
  const [lo, hi] = fitRatings(u, "%", 2);
  return [Math.max(0, lo), Math.min(100, hi)];
}

// The range buttons: the newest rounds (following each new one), the
// whole run, a log scale of rounds.
for (const b of document.querySelectorAll("#range [data-range]")) {
  b.addEventListener("click", () => {
    const m = b.dataset.range.match(/^last(\d+)$/);
    zoom = m ? { last: Number(m[1]) } : null;
    writeURL();
    chartKey = ""; // a new chart at the new range
    refresh();
  });
}
document.getElementById("log").addEventListener("click", () => {
  log = !log;
  writeURL();
  refresh();
});

// The table's controls: each sets the listing, back to its first page,
// and reads the table again.
function relist(change) {
  change();
  writeURL();
  refresh();
}
document.querySelector("#leaderboard thead").addEventListener("click", (e) => {
  const th = e.target.closest("th[data-sort]");
  if (!th) return;
  relist(() => {
    // The same column again turns the order round; a new one starts
    // from the top (names from A).
    listing.order = th.dataset.sort === listing.sort ? (listing.order === "desc" ? "asc" : "desc") : th.dataset.sort === "name" ? "asc" : "desc";
    listing.sort = th.dataset.sort;
    listing.offset = 0;
  });
});
const search = document.getElementById("search");
let typing = null;
search.addEventListener("input", () => {
  clearTimeout(typing);
  typing = setTimeout(() => relist(() => ((listing.q = search.value.trim()), (listing.offset = 0))), 250);
});
const classFilter = document.getElementById("class-filter");
classFilter.addEventListener("change", () => relist(() => ((listing.class = classFilter.value), (listing.offset = 0))));
const minGames = document.getElementById("min-games");
minGames.addEventListener("change", () => relist(() => ((listing.min = Math.max(0, Math.floor(Number(minGames.value)) || 0)), (listing.offset = 0))));
document.getElementById("prev").addEventListener("click", () => relist(() => (listing.offset = Math.max(0, listing.offset - listing.limit))));
document.getElementById("next").addEventListener("click", () => relist(() => (listing.offset += listing.limit)));

readURL();
search.value = listing.q;
classFilter.value = listing.class;
minGames.value = listing.min || "";
writeURL();
loadLive(refresh, () => shownRound);

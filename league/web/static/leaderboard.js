// The leaderboard page: figures of the league, its learning curve with
// the ratings of the agents ticked in the table, and the leaderboard, all
// refreshed at each new round.
import { api, el, fmt, badge, sharesText, agentURL, playURL, gameInfo, coalesce, loadLive, newChart, colors, curveColors, tint, referenceColor, bandColor, shareColor, legendValue, newestIndex, History } from "./common.js";

const chartBox = document.getElementById("chart");
const tbody = document.querySelector("#leaderboard tbody");

// followed are the agents whose ratings the chart follows, by id: their
// names and colours. The best network is followed from the start, and
// the chart keeps following the best as it changes (bestID) until the
// user unticks it; an agent the user ticked stays. The best's line has
// the first colour, whichever network it is; the agents ticked take the
// others in turn, each keeping its own while it is followed.
const followed = new Map();
const bestColor = colors[0];
let nextColor = 1;
let bestID = null; // the best followed as the best, not ticked by the user
let followBest = true;
const chartHeight = 270;

// zoom is the rounds the user chose to look at: null for the whole run,
// {min, max} for a range (dragged on the chart, or typed), {last: n} for
// the n newest rounds, which moves on with each round (and shows them
// all while there are fewer). It survives new rounds and a new chart,
// and only the user changes it: the page's own settings of the chart's
// scale never do. log puts the rounds on a log scale.
let zoom = null;
let log = false;
// xBy is what the x axis shows of each round: its number ("round"), the
// time it finished in local time ("time"), or the games the league's
// learners had trained by then ("games"); the range the user chose stays
// one of rounds. chartRounds are the rounds of the chart's points, in
// order, and chartX what the chart shows of them: xBy, or the rounds
// where a point lacks what xBy asks (a round of schema 1 has no end).
let xBy = "round";
// smooth is the weight of the learning curves' running average, as
// TensorBoard's smoothing has it: 0 draws the ratings as they are; at
// 0.9 each point of the smoothed curve is nine parts the one before and
// one part its own rating (debiased at the start). The curves are then
// drawn smoothed, the ratings themselves faint beside them.
let smooth = 0;
let chartRounds = [];
let chartX = "round";

// listing is the view of the table: its order, its filters and its page
// (/api/leaderboard's parameters); the defaults are the top 20 by Elo.
const listing = { limit: 20, sort: "elo", order: "desc", q: "", class: "", min: 0, offset: 0, searched: true };

// listingQuery is listing as /api/leaderboard's query.
function listingQuery() {
  const q = new URLSearchParams({ limit: listing.limit });
  if (listing.sort !== "elo") q.set("sort", listing.sort);
  if (listing.order !== "desc") q.set("order", listing.order);
  if (listing.q) q.set("q", listing.q);
  if (listing.class) q.set("class", listing.class);
  if (listing.min > 0) q.set("min_games", listing.min);
  if (listing.offset > 0) q.set("offset", listing.offset);
  if (!listing.searched) q.set("searched", "0");
  return q;
}

// The view is kept in the address, to be shared: ?rounds=A-B|lastN,
// log=1, follow=ID,ID (the agents ticked), best=0 (the best unticked),
// and the table's sort, order, q, class, min_games, offset, searched
// (0: without the searched agents) and limit (the rows of a page, 20
// unless said).
function readURL() {
  const q = new URLSearchParams(location.search);
  listing.sort = q.get("sort") || "elo";
  listing.order = q.get("order") === "asc" ? "asc" : "desc";
  listing.q = q.get("q") || "";
  listing.class = q.get("class") || "";
  listing.min = Math.max(0, Number(q.get("min_games")) || 0);
  listing.offset = Math.max(0, Number(q.get("offset")) || 0);
  listing.limit = Math.min(1000, Math.max(1, Number(q.get("limit")) || 20));
  listing.searched = q.get("searched") !== "0";
  const r = q.get("rounds") || "";
  let m;
  if ((m = r.match(/^last(\d+)$/))) zoom = { last: Number(m[1]) };
  else if ((m = r.match(/^(\d+)-(\d+)$/)) && Number(m[1]) < Number(m[2])) zoom = { min: Number(m[1]), max: Number(m[2]) };
  log = q.get("log") === "1";
  xBy = ["time", "games", "elapsed"].includes(q.get("x")) ? q.get("x") : "round";
  smooth = Math.min(0.99, Math.max(0, Number(q.get("smooth")) || 0));
  followBest = q.get("best") !== "0";
  for (const id of (q.get("follow") || "").split(",")) {
    if (/^\d+$/.test(id)) follow(Number(id), null);
  }
}

function writeURL() {
  const q = new URLSearchParams();
  if (zoom) q.set("rounds", zoom.last ? `last${zoom.last}` : `${zoom.min}-${zoom.max}`);
  if (log) q.set("log", "1");
  if (xBy !== "round") q.set("x", xBy);
  if (smooth > 0) q.set("smooth", smooth);
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
  document.getElementById("clock").setAttribute("aria-pressed", xBy === "time");
  document.getElementById("games").setAttribute("aria-pressed", xBy === "games");
  document.getElementById("elapsed").setAttribute("aria-pressed", xBy === "elapsed");
  const slider = document.getElementById("smooth");
  if (document.activeElement !== slider) slider.value = smooth;
  document.getElementById("smooth-value").textContent = smooth > 0 ? smooth.toFixed(2) : "off";
}

// applyRange sets the chart's rounds to zoom's, or to all of them, and
// puts them into the range's fields, unless the user is typing in one.
function applyRange() {
  const shown = charts.filter((c) => c.chart);
  if (!shown.length) return;
  const xs = shown[0].chart.data[0];
  const rs = chartRounds;
  const r = xRange(rs) ?? { min: rs[0], max: rs[rs.length - 1] };
  // A single round is half a round (or a minute) either side of it.
  const range = rs.length === 1 ? { min: xs[0], max: xs[xs.length - 1] } : { min: xOf(r.min), max: xOf(r.max) };
  for (const c of shown) c.chart.setScale("x", range);
  if (["from", "to"].includes(document.activeElement?.id)) return;
  document.getElementById("from").value = r.min;
  document.getElementById("to").value = r.max;
}

// xOf is where round r is on the chart's x axis: the round itself, or
// the time the first round from r on finished, or its league's games.
function xOf(r) {
  if (chartX === "round") return r;
  const xs = charts.find((c) => c.chart).chart.data[0];
  const k = chartRounds.findIndex((x) => x >= r);
  return xs[k < 0 ? xs.length - 1 : k];
}

// roundAt is the round of the point nearest x on the chart's x axis.
function roundAt(u, x) {
  if (chartX === "round") return Math.round(x);
  const xs = u.data[0];
  let k = 0;
  xs.forEach((v, i) => {
    if (Math.abs(v - x) < Math.abs(xs[k] - x)) k = i;
  });
  return chartRounds[Math.min(k, chartRounds.length - 1)];
}

// setZoom is a range the user chose.
function setZoom(z) {
  zoom = z;
  writeURL();
  applyRange();
}

// xRange is the rounds the chart shows of rounds xs under zoom.
function xRange(xs) {
  if (!zoom || !xs.length) return null;
  if (zoom.last) return { min: Math.max(xs[0], xs[xs.length - 1] - zoom.last + 1), max: xs[xs.length - 1] };
  return zoom;
}

// follow follows agent id on the chart, in the next colour of the
// agents ticked.
function follow(id, name) {
  followed.set(id, { name, color: colors[1 + (nextColor++ - 1) % (colors.length - 1)] });
}

// followTheBest makes the chart follow best, the league's best
// (/api/health), in place of the best it followed, in the best's colour.
function followTheBest(best) {
  const id = best ? best.id : null;
  if (!followBest || id === bestID) return;
  if (bestID !== null) {
    followed.delete(bestID);
    histories.delete(bestID);
  }
  bestID = id;
  if (id === null) return;
  followed.delete(id); // first in the legend, in the best's colour
  followed.set(id, { name: best.name, color: bestColor });
}

// shownRound is the round whose data the page shows.
let shownRound = null;

// curve is the learning curve the page holds (/api/progress): after the
// first load it asks only for the rounds since its newest. Thinned, it
// is the thinned points up to thinnedTo, and every round's after it;
// once the rounds added are as many again as the points, the page asks
// for the whole curve, thinned anew: it never holds more than twice the
// server's 2,000 points, however long it stays open.
let curve = null;
let thinnedTo = null;

async function loadCurve() {
  if (curve && !(curve.thinned && curve.points.length > 2 * wholePoints)) {
    const since = await api(`/api/progress?after=${curve.newest_round}`);
    if (!since.whole) {
      // The searched agents come whole in every answer.
      curve = { ...since, thinned: curve.thinned, points: [...curve.points, ...since.points] };
      return curve;
    }
    curve = since;
  } else {
    curve = await api("/api/progress");
  }
  wholePoints = curve.points.length;
  thinnedTo = curve.thinned ? curve.newest_round : null;
  return curve;
}
let wholePoints = 0;

// histories are the rating histories of the agents followed, by id: each
// asked whole once, and then for the rows since the round it has.
const histories = new Map();

async function historyOf(id) {
  let h = histories.get(id);
  h = h ? await h.since() : await History.load(id);
  histories.set(id, h);
  return h;
}

// health is the league's health as last read: the league's best among it.
let health = null;

const refresh = coalesce(async () => {
  const [board, progress, h, game, rounds] = await Promise.all([api(`/api/leaderboard?${listingQuery()}`), loadCurve(), api("/api/health"), gameInfo(), api("/api/rounds?limit=10")]);
  health = h;
  showHealth(h);
  followTheBest(h.best);
  const shown = await Promise.all(
    [...followed.keys()].map((id) =>
      historyOf(id).catch(() => {
        // An agent of the address that is not there.
        followed.delete(id);
        return null;
      }),
    ),
  );
  tiles(board, progress, h);
  about(board, game);
  table(board, game);
  draw(progress, shown.filter((x) => x));
  roundTable(rounds);
  await leaguesSideBySide(progress);
  shownRound = board.round;
});

// shownChanges is the most changes of the best the dashboard lists,
// as many as its rounds.
const shownChanges = 10;

// roundTable fills the dashboard: the newest rounds, the changes of the
// best, and the league's settings.
function roundTable(r) {
  // Local time, as ttt rounds writes it, with the seconds: 11-28 21:23:56.
  const when = (t) => {
    if (!t) return "–";
    const d = new Date(t);
    const two = (n) => String(n).padStart(2, "0");
    return `${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  };
  const rate = (games, s) => (games && s > 0 ? fmt.count(Math.round(games / s)) : "–");
  const agent = (a) => (a ? el("a", { href: agentURL(a.id), text: a.name }) : "–");
  document.querySelector("#rounds tbody").replaceChildren(
    ...r.rounds.map((x) =>
      el(
        "tr",
        { "data-round": x.round, class: x.best ? "changed" : null },
        el("td", { class: "num", text: fmt.int(x.round) }),
        el("td", { text: when(x.finished) }),
        el("td", { class: "num", text: x.seconds == null ? "–" : duration(x.seconds) }),
        el("td", { class: "num", text: fmt.count(x.train_games) }),
        el("td", { class: "num", text: rate(x.train_games, x.train_seconds) }),
        el("td", { class: "num", text: fmt.count(x.eval_games) }),
        el("td", { class: "num", text: rate(x.eval_games, x.eval_seconds) }),
        el("td", { class: "num", text: x.cores == null ? "–" : x.cores.toFixed(1) }),
        el("td", {}, agent(x.snapshot)),
        el("td", {}, x.best ? el("span", { class: "star", title: "the best changed at the end of this round", text: "★ " }) : null, x.best ? agent(x.best) : ""),
      ),
    ),
  );
  document.getElementById("best-count").textContent = r.changes
    ? `${fmt.int(r.changes)} change${r.changes === 1 ? "" : "s"}${r.changes > shownChanges ? `, the newest ${shownChanges}` : ""}, read back from the rating history: a restart keeps them`
    : "no best yet";
  document.querySelector("#best-changes tbody").replaceChildren(
    ...r.best_changes.slice(0, shownChanges).map((c) => el("tr", { "data-round": c.round }, el("td", { class: "num", text: fmt.int(c.round) }), el("td", { text: when(c.finished) }), el("td", {}, agent(c.agent)))),
  );
  runFacts(r.run, when);
  lastRun = r.run;
  showNow();
  const settings = Object.entries(r.settings).sort(([a], [b]) => a.localeCompare(b));
  document.getElementById("settings").replaceChildren(...(settings.length ? settings.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]) : [el("dd", { text: "none yet: a league run stores them as it starts" })]));
}

// lastRun is the league's last run as last read (/api/rounds): what it
// is doing, as it last wrote it.
let lastRun = null;

// showNow says what the league run at work is doing, as it last wrote it
// into the league (every few seconds): the round training, k of M games,
// the round evaluated, the best's ladder games, each since when; and,
// past the planned end of a run of --duration, why it goes on.
function showNow() {
  const box = document.getElementById("now");
  const run = lastRun;
  const running = !!health?.running && run && !run.ended;
  const parts = [];
  const clock = (t) => new Date(t).toLocaleTimeString();
  const p = running ? run.progress : null;
  if (p) {
    const share = (w) => (w.total > 0 ? ` (${Math.round((100 * w.done) / w.total)}%)` : "");
    const since = (w) => `since ${clock(w.since)}, ${agoText((Date.now() - Date.parse(w.since)) / 1000)} ago`;
    if (p.training) {
      const t = p.training;
      parts.push(el("span", { id: "now-training" }, el("b", { text: `round ${fmt.int(t.round)}` }), t.done >= t.total ? `: trained, ${fmt.int(t.done)} games, ${since(t)}` : `: training, ${fmt.int(t.done)} of ${fmt.int(t.total)} games${share(t)}, ${since(t)}`));
    }
    if (p.evaluating) {
      const e = p.evaluating;
      parts.push(el("span", { id: "now-evaluating" }, el("b", { text: `round ${fmt.int(e.round)}` }), `: evaluating, ${fmt.int(e.done)} of ${fmt.int(e.total)} matches${share(e)}, ${since(e)}`));
    }
    if (p.ladder) {
      const l = p.ladder;
      parts.push(el("span", { id: "now-ladder" }, el("b", { text: `round ${fmt.int(l.round)}` }), `: ladder games of its best, ${l.best}, ${fmt.int(l.done)} of about ${fmt.int(l.total)}${share(l)}, ${since(l)}`));
    }
    if (parts.length) parts.unshift(el("span", { id: "now-at", title: "what the league run wrote into the league last: it writes every few seconds" }, el("b", { text: "now" }), ` (as of ${clock(run.progress_at)})`));
  }
  if (running && run.deadline && Date.now() > Date.parse(run.deadline)) {
    parts.push(el("span", { id: "now-past" }, `past its planned end (${clock(run.deadline)}, --duration): no round starts after it, but the rounds under way when it came are played to their commit and their best's ladder games`));
  }
  box.hidden = !parts.length;
  box.replaceChildren(...parts);
}

// agoText writes seconds as the health writes a time ago: 40 s, 12 min,
// 3 h, 2 days.
function agoText(s) {
  return s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : s < 172800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86400)} days`;
}

// The run at work writes what it is doing every few seconds, between
// rounds: the page asks for it as often while a run is at work, and for
// the health too, so that a run that started or stopped unannounced (an
// event lost while the stream reconnected) is seen all the same.
const nowPoll = 5000;
setInterval(async () => {
  if (document.hidden) return;
  try {
    health = await api("/api/health");
    showHealth(health);
    if (health.running) roundTable(await api("/api/rounds?limit=10"));
    else showNow();
  } catch {
    // The stream's state says when the server is down.
  }
}, nowPoll);

// runFacts shows the league's last run (/api/rounds' run), its times as
// when writes them: when it started, when a run of --duration is to
// start no more rounds, its limits, and when it ended, or that it runs
// still (/api/health), or that it was stopped without a word (killed).
function runFacts(run, when) {
  const running = !!health?.running && run && !run.ended;
  document.getElementById("run-title").textContent = running ? "This run" : "The last run";
  if (!run) {
    document.getElementById("run").replaceChildren(el("dd", { text: "none kept: a league run of this ttt keeps its own as it starts" }));
    return;
  }
  const facts = [
    ["started", when(run.started)],
    ["planned end", run.deadline ? `${when(run.deadline)} (--duration ${flagDuration((Date.parse(run.deadline) - Date.parse(run.started)) / 1000)}: no round starts after it)` : "none: no --duration"],
    ["rounds", run.rounds ? `${fmt.int(run.rounds)} at most (--rounds)` : "no limit"],
    ["workers", fmt.int(run.workers)],
    ["search", run.search ? `${run.search} (--search): the best rated with each search too` : "none (no --search)"],
    ["ended", run.ended ? when(run.ended) : running ? "not yet: it runs" : "not written: the run was killed"],
  ];
  document.getElementById("run").replaceChildren(...facts.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v, "data-fact": k })]));
}

// flagDuration writes seconds as a --duration flag is written: 8h,
// 1h30m, 45m, 20s.
function flagDuration(s) {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.round(s % 60);
  return [h ? `${h}h` : "", m ? `${m}m` : "", sec || (!h && !m) ? `${sec}s` : ""].join("");
}

// duration writes seconds as people read a round's length: 0.2 s, 58 s,
// 5 min 12 s.
function duration(s) {
  return s < 10 ? `${s.toFixed(1)} s` : s < 90 ? `${Math.round(s)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

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
  if (h.rounds_per_hour) {
    // The pace of now: the last rounds', which it names; and the last
    // round's own length beside it.
    const [from, to] = h.pace_rounds ?? [];
    const over = from == null ? "" : from === to ? ` (round ${fmt.int(to)})` : ` (rounds ${fmt.int(from)}-${fmt.int(to)})`;
    const pace = h.rounds_per_hour >= 10 ? fmt.int(Math.round(h.rounds_per_hour)) : h.rounds_per_hour.toFixed(1);
    parts.push(el("span", { id: "h-pace", title: "from the durations of the last 10 rounds, not counting the time the league was stopped" }, el("b", { text: pace }), ` rounds an hour${over}`));
  }
  if (h.last_seconds != null) parts.push(el("span", { id: "h-last" }, "the last took ", el("b", { text: duration(h.last_seconds) })));
  if (h.best) {
    const since = h.best_since.changed ? `since round ${fmt.int(h.best_since.round)}` : `since round ${fmt.int(h.best_since.round)}, the first with a best`;
    parts.push(el("span", { id: "h-best", title: "the league's best (★, Best agent, export, play), and the round at whose end it became the best, from the rating history" }, "best ", el("a", { href: agentURL(h.best.id), text: h.best.name }), ` ${since}`));
  }
  if (h.float != null) {
    // How far the league's line has drifted from the ladder, at the best.
    parts.push(el("span", { id: "h-float", title: "the best's league Elo minus its ladder Elo (from its games against the built-in players alone): how far the league's scale floats there" },
      `league Elo ${h.float >= 0 ? "+" : "−"}${Math.abs(h.float).toFixed(1)} from the ladder at the best` + (h.best.ladder?.provisional ? " (provisional)" : "")));
  }
  box.replaceChildren(...parts);
  ago();
}

// down says that the stream to the server is down: whether a league
// runs is then not known, and the health says so.
function down(gone) {
  const running = document.querySelector("#h-running");
  if (!running) return;
  document.getElementById("health").classList.toggle("unknown", gone);
  if (gone) running.replaceChildren(el("b", { text: "not known" }), ": ttt serve does not answer");
  else if (health) showHealth(health);
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
  const text = agoText(s);
  box.replaceChildren("last round ", el("b", { text }), " ago");
}
setInterval(ago, 1000);

function tiles(board, progress, h) {
  document.getElementById("t-rounds").textContent = fmt.int(board.round);
  const after = thinnedTo === null ? 0 : progress.points.filter((p) => p.round > thinnedTo).length;
  document.getElementById("t-rounds-sub").textContent = progress.thinned
    ? `the chart shows ${fmt.int(progress.points.length)} of them: ${fmt.int(progress.points.length - after)} evenly spread to round ${fmt.int(thinnedTo)}` + (after ? `, then each round's` : "")
    : `${fmt.int(progress.points.length)} snapshot${progress.points.length === 1 ? "" : "s"} on the chart`;
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
    const sh = a.shares;
    const verdict = a.class || (sh ? `optimal ${sh.random ? `${fmt.pctOf(sh.random.pct)} random-ply, ` : ""}${fmt.pctOf(sh.all.pct)} tactical` : "not checked");
    sub.textContent = `${verdict}, ` + (st ? `Elo ${fmt.elo(st.elo)} ${fmt.interval(st.lo, st.hi)}` : "not rated yet");
    sub.title = !a.class && sh ? sharesText(sh) : "";
  };
  agentTile("best", h.best);
  agentTile("latest", h.latest);
}

// about fills the figures of "About these numbers" from the league shown:
// where the perfect player and the networks of each class stand.
function about(board, game) {
  const perfect = board.agents.find((a) => a.kind === "perfect");
  const top = (cls) => board.agents.find((a) => a.class === cls && a.kind !== "perfect");
  const dt = document.getElementById("about-perfect");
  dt.hidden = dt.nextElementSibling.hidden = !perfect || !game.solved; // the check it speaks of is a solved game's
  if (dt.hidden) return;
  const net = top("perfect") || top("unbeatable");
  dt.textContent = `Perfect at ${fmt.elo(perfect.elo)}` + (net ? `, ${net.class} networks up to ${fmt.elo(net.elo)}` : "");
}

// checkColumns are the columns of the leaderboard that say what a check
// found, by how the game's players are measured: a solved game's
// exhaustive check per side (tic-tac-toe), or the tactical set overall
// and by phase of a game measured on sets of positions (Connect Four; the
// random-ply set's share is the class column's badge).
const checkColumns = {
  solved: {
    about: "class, lines lost and optimal moves per side from the exhaustive check (ttt verify)",
    heads: ["X lost", "X opt", "O lost", "O opt"],
    cells(a) {
      const side = (v) => (v ? [`${v.lost}/${v.lines}`, `${v.optimal_pct.toFixed(1)}%`] : ["–", "–"]);
      return [...side(a.verify && a.verify.x), ...side(a.verify && a.verify.o)];
    },
  },
  sets: {
    sort: "share", // the store's column its first column sorts by
    about: "the share of fixed sets of solved positions where its move keeps the value: under Class the random-ply set's (positions reached by random moves, the harder), then the tactical set's (positions from the games of tactical players), overall and by phase (early up to 14 stones, middle up to 22, late after)",
    heads: ["Optimal", "Early", "Middle", "Late"],
    cells(a) {
      const sh = a.shares;
      return sh ? [sh.all, sh.early, sh.middle, sh.late].map((x) => fmt.pctOf(x.pct)) : ["–", "–", "–", "–"];
    },
  },
};

function table(board, game) {
  const check = game.solved ? checkColumns.solved : checkColumns.sets;
  document.getElementById("board-about").textContent = check.about;
  document.querySelectorAll("#leaderboard th.check").forEach((th, k) => ((th.querySelector("button") || th).textContent = check.heads[k]));
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
  document.getElementById("class-filter").hidden = !game.solved; // only a solved game's players have classes
  // The check's columns sort where a column of the store stands for
  // them: the share of a game measured on sets of positions.
  if (check.sort) document.querySelector("#leaderboard th.check").dataset.sort = check.sort;
  // A sortable column's head is a button, for the keyboard; aria-sort
  // says the order to a screen reader.
  for (const th of document.querySelectorAll("#leaderboard th[data-sort]")) {
    th.setAttribute("aria-sort", th.dataset.sort === listing.sort ? (listing.order === "asc" ? "ascending" : "descending") : "none");
    if (!th.querySelector("button")) th.replaceChildren(el("button", { class: "sort", type: "button", title: th.title || `sort by ${th.textContent}` }, th.textContent));
  }
  // The searched agents' toggle, where the league has some.
  document.getElementById("searched-filter").hidden = !(curve?.searched ?? []).length && listing.searched;
  // The best closes the table where the page leaves it out: a league run
  // with --search can fill the top with the best searched.
  const rows = board.agents.map((a) => boardRow(a, check));
  if (board.best_row) {
    rows.push(
      el("tr", { class: "gap", "aria-hidden": "true" }, el("td", { colspan: 15, class: "muted", text: "…" })),
      boardRow(board.best_row, check),
    );
  }
  tbody.replaceChildren(...rows);
}

// boardRow is agent a's row of the leaderboard, with the check's columns.
function boardRow(a, check) {
  const f = followed.get(a.id);
  return el(
    "tr",
    { class: a.best ? "best" : null, "data-id": a.id, "data-kind": a.kind },
    el("td", { class: "num", text: a.rank || "–" }),
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
    a.ladder
      ? el("td", { class: "num", text: fmt.elo(a.ladder.elo) + (a.ladder.provisional ? "*" : ""),
          title: `95% ${fmt.interval(a.ladder.lo, a.ladder.hi)}, from its games against the built-in players alone` +
            (a.ladder.provisional ? `; provisional (*): its extra games against the ladder after round ${fmt.int(a.ladder.owed_after)} are still to be played` : "") })
      : el("td", { class: "num muted", text: "–" }),
    // Counts short, as ttt ratings has them, so that the table fits its
    // card; in full in their titles.
    el("td", { class: "num", text: fmt.count(a.games), title: fmt.int(a.games) }),
    el("td", { class: "num", text: [a.wins, a.draws, a.losses].map(fmt.count).join("/"), title: fmt.record(a.wins, a.draws, a.losses) }),
    check.cells(a).map((text) => el("td", { class: text === "–" ? "num muted" : "num", text })),
    el(
      "td",
      {},
      el("input", {
        type: "checkbox",
        class: "follow",
        title: "follow its rating on the chart",
        "aria-label": `follow ${a.name} on the chart`,
        checked: !!f,
        onchange: (e) => {
          if (e.target.checked) follow(a.id, a.name);
          else {
            followed.delete(a.id);
            histories.delete(a.id);
          }
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
    // Nothing plays a checkpoint whose weights ttt prune dropped.
    el("td", {}, a.kind === "random" ? null : a.pruned ? el("span", { class: "muted", title: "its weights were dropped by ttt prune: it cannot be played", text: "pruned" }) : el("a", { href: playURL(a.id), "aria-label": `play ${a.name}`, text: "play" })),
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

// carrySearched puts the best searched (points of one search: the round
// that made its network, its rating now) on the rounds xs: at each round
// the newest searched best at or before it, none before the first.
function carrySearched(points, xs) {
  const rows = points.map((p) => ({ round: p.round, elo: p.elo })).sort((a, b) => a.round - b.round);
  return carry(rows, xs);
}

// searchDashes are the dashes of the lines of the best searched, one for
// each search, so that two searches of equal ratings stay apart.
const searchDashes = [[8, 3], [2, 3], [8, 3, 2, 3], [4, 4]];

function draw(progress, rated) {
  const pts = progress.points;
  // The rounds, and where the chart puts them: at their numbers, by the
  // clock where every round's end is known, or by the league's games
  // where every snapshot's are.
  const xs = pts.map((p) => p.round);
  chartRounds = xs;
  const games = leagueGames(pts);
  const known = { time: pts.every((p) => p.finished != null), games: games.every((g) => g > 0) };
  known.elapsed = known.time;
  chartX = pts.length > 0 && known[xBy] ? xBy : "round";
  // Time since the start: since the first round on the chart finished
  // (a league stopped for a night counts its stop too, as the clock
  // does).
  const at = chartX === "time" ? pts.map((p) => p.finished) : chartX === "elapsed" ? pts.map((p) => p.finished - pts[0].finished) : chartX === "games" ? games : xs;
  const xSeries = {
    label: chartX,
    value: (u, v, si, i) => {
      const k = i ?? newestIndex(u);
      const r = chartRounds[Math.min(Math.max(0, k - (u.padded ? 1 : 0)), chartRounds.length - 1)];
      const x = u.data[0][k];
      if (chartX === "time") return `${new Date(x * 1000).toLocaleString()} (round ${fmt.int(r)})`;
      if (chartX === "elapsed") return `${elapsedText(x)} after round ${fmt.int(chartRounds[0])} (round ${fmt.int(r)})`;
      if (chartX === "games") return `${fmt.count(Math.round(x))} (round ${fmt.int(r)})`;
      return fmt.int(x);
    },
  };
  // A league of several learners has a learning curve for each method,
  // from the rounds that were its turn; the methods in the order of
  // their first rounds.
  const methods = [...new Set(pts.map((p) => p.method))];
  const several = methods.length > 1;
  const elo = { data: [at], series: [xSeries], bands: [] };
  // Each method's curve, and the low and high ends of its 95% interval,
  // which draw its band; a method's rounds only, joined across the
  // others'.
  methods.forEach((m, k) => {
    const of = (f) => pts.map((p) => (p.method === m ? f(p) : null));
    const at = elo.data.length;
    elo.data.push(of((p) => p.elo), of((p) => p.lo), of((p) => p.hi));
    const color = curveColors[k % curveColors.length];
    elo.series.push(
      {
        label: several ? m : "learning curve",
        stroke: smooth > 0 ? tint(color, 0.35) : color,
        width: smooth > 0 ? 1 : 1.5,
        spanGaps: true,
        points: { show: xs.length <= 80, size: 4 },
        // The interval from the chart's own data: the data of a later
        // round, not that of the first draw. A round of another method
        // shows this method's newest point before it, and its round.
        value: (u, v, si, i) => {
          const k = i ?? newestIndex(u);
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
    elo.bands.push({ series: [at + 2, at + 1], fill: k === 0 ? bandColor : tint(color, 0.12) });
    if (smooth > 0) {
      // The curve smoothed, over the ratings themselves, faint.
      elo.data.push(smoothed(elo.data[at], smooth));
      elo.series.push({
        label: `${several ? m : "learning curve"}, smoothed (${smooth.toFixed(2)})`,
        stroke: color,
        width: 2.5,
        spanGaps: true,
        points: { show: false },
        value: legendValue((v) => v.toFixed(0)),
      });
    }
  });
  // The best with each search it was rated with (ttt league run
  // --search), rated now: from the round that made the first best it
  // searched, each round the best of that round searched, to the newest
  // round; each search its own dashes.
  const searches = [...new Set((progress.searched ?? []).map((p) => p.search))];
  searches.forEach((s, k) => {
    elo.data.push(carrySearched(progress.searched.filter((p) => p.search === s), xs));
    elo.series.push({
      label: `the best @${s}`,
      stroke: curveColors[(methods.length + k) % curveColors.length],
      width: 1.5,
      dash: searchDashes[k % searchDashes.length],
      points: { show: false },
      value: legendValue((v) => v.toFixed(0), "not searched yet"),
    });
  });
  [...followed.values()].forEach((f, k) => {
    f.name = rated[k].agent.name; // unknown for an agent from the address
    elo.data.push(carry(rated[k].rows, xs));
    elo.series.push({ label: f.name, stroke: f.color, width: 2, points: { show: xs.length === 1, size: 6 }, value: legendValue((v) => v.toFixed(0)) });
  });
  for (const r of progress.references) {
    elo.data.push(xs.map(() => r.elo));
    elo.series.push({
      label: `${r.name} (anchored)`,
      flat: true,
      stroke: referenceColor,
      width: 1.25,
      dash: [6, 4],
      points: { show: false },
      value: () => r.elo.toFixed(0),
    });
  }
  // A game measured on sets of solved positions: each snapshot's share of
  // optimal moves on each set, the random-ply set's (the harder) first
  // and the tactical set's lighter, on a chart of their own below (a
  // share is a percentage, on an axis of 0-100%), with the built-in
  // players' and random's (the floor) flat. A snapshot measured before
  // the random-ply set has none there.
  const shares = pts.some((p) => p.share != null) ? { data: [at], series: [xSeries], bands: [] } : null;
  if (shares) {
    const sets = [
      { key: "random_share", name: "random-ply set", light: false, floor: progress.floor_random },
      { key: "share", name: "tactical set", light: true, floor: progress.floor },
    ].filter((set) => pts.some((p) => p[set.key] != null));
    const shade = (color, set) => (set.light ? tint(color, 0.5) : color);
    methods.forEach((m, k) => {
      for (const set of sets) {
        shares.data.push(pts.map((p) => (p.method === m ? (p[set.key] ?? null) : null)));
        shares.series.push({
          label: several ? `${m}: ${set.name}` : set.name,
          stroke: shade(several ? curveColors[k % curveColors.length] : shareColor, set),
          dash: several ? [3, 3] : undefined,
          width: 1.5,
          spanGaps: true,
          points: { show: xs.length <= 80, size: 4 },
          value: legendValue((v) => fmt.pctOf(v)),
        });
      }
    });
    const flat = (label, v, set) => {
      shares.data.push(xs.map(() => v));
      shares.series.push({ label, flat: true, stroke: shade(shareColor, set), width: 1, dash: [2, 4], points: { show: false }, value: () => fmt.pctOf(v) });
    };
    for (const set of sets) {
      for (const r of progress.references) {
        if (r[set.key] != null) flat(`${r.name} on the ${set.name}`, r[set.key], set);
      }
      if (set.floor != null) flat(`random on the ${set.name}`, set.floor, set);
    }
  }
  // One round is no line: the chart spans half a round (or a minute)
  // either side of it, where the flat lines run across and the others
  // have no value.
  const padded = xs.length === 1;
  if (padded) {
    const half = { time: 60, games: at[0] / 10, round: 0.5 }[chartX];
    for (const c of [elo, shares]) {
      if (!c) continue;
      c.data = c.data.map((ys, si) => (si === 0 ? [at[0] - half, at[0], at[0] + half] : c.series[si].flat ? [ys[0], ys[0], ys[0]] : [null, ys[0], null]));
    }
  }
  chartBox.dataset.points = xs.length;
  chartBox.dataset.round = progress.newest_round;
  chartBox.dataset.followed = followed.size;

  if (!xs.length) {
    for (const c of charts) c.drop();
    chartBox.replaceChildren(el("p", { class: "muted", text: "No round yet: ttt league run plays the first." }));
    return;
  }
  const first = xs[0];
  const newest = xs[xs.length - 1];
  chartBox.setAttribute("aria-label", `Learning curve from round ${fmt.int(first)} to ${fmt.int(newest)}` +
    (pts.length ? `; the newest snapshot at Elo ${pts[pts.length - 1].elo.toFixed(0)}` : "") + (followed.size ? `; following ${[...followed.values()].map((f) => f.name).join(", ")}` : ""));
  eloChart.show(elo, { y: { range: (u) => fitRatings(u, 10) } }, {}, padded);
  window.tttChart = eloChart.chart; // for the browser test
  sharesBox.hidden = !shares;
  if (shares) {
    sharesBox.setAttribute("aria-label", `Optimal moves from round ${fmt.int(first)} to ${fmt.int(newest)}`);
    sharesChart.show(shares, { y: { range: (u) => fitShares(u) } }, { label: "optimal moves (%)", values: (u, ticks) => ticks.map((v) => `${v}%`) }, padded);
  } else sharesChart.drop();
  window.tttShares = sharesChart.chart;
}

// LiveChart is a chart of the page that new rounds redraw: a new uPlot
// when its lines change, new data when only their values do. Both charts
// show the rounds the user chose, and their cursors move together.
class LiveChart {
  constructor(box, height) {
    this.box = box;
    this.height = height;
    this.chart = null;
    this.key = "";
  }

  drop() {
    this.chart?.destroy();
    this.chart = null;
    this.key = "";
  }

  show({ data, series, bands }, scales, yAxis, padded) {
    const key = series.map((s) => s.label).join("|") + (log ? "|log" : "") + `|${chartX}`;
    if (this.chart && key === this.key) {
      this.chart.padded = padded;
      this.chart.setData(data);
      applyRange();
      // uPlot redraws the legend when the cursor moves: with the cursor
      // away, it would keep the values of the round it was drawn at.
      this.chart.setLegend({ idx: this.chart.cursor.idx });
      return;
    }
    this.drop();
    this.box.replaceChildren();
    this.key = key;
    this.chart = newChart(
      this.box,
      this.height,
      {
        series,
        bands,
        legend: { live: true },
        // The y axis fits the values in view, not the widest interval:
        // an early snapshot's [-8044, 5465] would flatten the curve. The
        // band is clipped to the chart. A log scale of rounds fits the
        // rounds, not whole powers of ten, with labels on any range.
        scales: { x: chartX === "time" ? { time: true } : log ? { time: false, distr: 3, log: 10, range: (u, min, max) => [min, max] } : { time: false }, ...scales },
        xAxis: chartX === "time" ? clockAxis : { ...(chartX === "games" ? gamesAxis : chartX === "elapsed" ? elapsedAxis : {}), ...(log ? { splits: (u, ax, min, max) => logSplits(min, max), filter: (u, splits) => splits } : {}) },
        yAxis,
        // The page keeps the range the user chose: a drag across the
        // chart sets it (setSelect), a double click forgets it; uPlot's
        // own zoom is off, so that no setting of the scale by the page is
        // taken for the user's.
        cursor: { sync: { key: "curve" }, drag: { x: true, y: false, setScale: false }, bind: { dblclick: () => () => (setZoom(null), null) } },
        hooks: {
          draw: [intervalAlone],
          setLegend: [cursorTip],
          setSelect: [
            (u) => {
              if (u.select.width < 2) return;
              // Whole rounds, as the address keeps them.
              const min = Math.max(chartRounds[0], roundAt(u, u.posToVal(u.select.left, "x")));
              const max = Math.min(chartRounds[chartRounds.length - 1], roundAt(u, u.posToVal(u.select.left + u.select.width, "x")));
              u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
              if (max > min) setZoom({ min, max });
            },
          ],
        },
      },
      data,
    );
    this.chart.padded = padded;
    // The first draw came before padded was set: a round alone's
    // interval (intervalAlone) needs it.
    if (padded) this.chart.redraw(false);
    applyRange();
  }
}

// clockAxis is the x axis by the clock: local time, its ticks a minute
// to a day apart, the date where the span is a day or more.
const clockAxis = {
  label: "time (local)",
  incrs: [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 7200, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400],
  values: (u, ticks) => {
    const two = (n) => String(n).padStart(2, "0");
    const days = (u.scales.x.max - u.scales.x.min) >= 86400;
    return ticks.map((t) => {
      const d = new Date(t * 1000);
      const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
      return days ? `${two(d.getMonth() + 1)}-${two(d.getDate())} ${hm}` : u.scales.x.max - u.scales.x.min < 300 ? `${hm}:${two(d.getSeconds())}` : hm;
    });
  },
};

// leaguesChart is the chart of the leagues side by side (ttt serve
// --with): each league's learning curve, on the x axis of the learning
// curve above (rounds; the time since each league's own first round;
// the clock), each league its colour, its name in the legend.
let leaguesChart = null;

async function leaguesSideBySide(progress) {
  const card = document.getElementById("leagues-card");
  const { leagues } = await api("/api/leagues");
  card.hidden = leagues.length < 2;
  if (leagues.length < 2) return;
  const curves = await Promise.all(leagues.map((l) => (l.base ? api(`${l.base}/api/progress`) : progress)));
  const by = chartX === "games" ? "round" : chartX; // the games of leagues of other learners say little side by side
  const tables = curves.map((c) => {
    const pts = c.points.filter((p) => by === "round" || p.finished != null);
    const xs = pts.map((p) => (by === "time" ? p.finished : by === "elapsed" ? p.finished - pts[0].finished : p.round));
    // uPlot.join wants each league's x in order, once.
    const seen = new Map();
    xs.forEach((x, i) => seen.set(x, pts[i].elo));
    const keys = [...seen.keys()].sort((a, b) => a - b);
    return [keys, keys.map((x) => seen.get(x))];
  });
  const data = uPlot.join(tables);
  const series = [
    { label: by, value: (u, v) => (v == null ? "–" : by === "time" ? new Date(v * 1000).toLocaleString() : by === "elapsed" ? elapsedText(v) : fmt.int(v)) },
    ...leagues.map((l, k) => ({ label: l.name, stroke: curveColors[k % curveColors.length], width: 1.5, spanGaps: true, points: { show: false }, value: legendValue((v) => v.toFixed(0)) })),
  ];
  const box = document.getElementById("chart-leagues");
  box.dataset.leagues = leagues.length;
  leaguesChart?.destroy();
  box.replaceChildren();
  leaguesChart = newChart(box, 220, { series, legend: { live: true }, scales: { x: by === "time" ? { time: true } : { time: false } }, xAxis: by === "time" ? clockAxis : by === "elapsed" ? elapsedAxis : {}, hooks: { setLegend: [cursorTip] } }, data);
  window.tttLeagues = leaguesChart; // for the browser test
}

// elapsedAxis is the x axis by the time since the first round on the
// chart finished: 0, 30m, 1h, 1h30m, 2d 3h.
const elapsedAxis = {
  label: "time since the first round",
  incrs: [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 7200, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400],
  values: (u, ticks) => ticks.map((t) => (t == null ? "" : elapsedText(t))),
};

// elapsedText writes seconds since the start as the axis does: 40s,
// 12m, 1h30m, 2d 3h.
function elapsedText(s) {
  s = Math.round(s);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${s % 60 ? `${s % 60}s` : ""}`;
  if (s < 86400) return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60) ? `${Math.floor((s % 3600) / 60)}m` : ""}`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

// smoothed is ys (null where a round has none) as a running average of
// weight w, TensorBoard's: each value w parts the average before it and
// 1 - w its own, divided by 1 - w^n (the debiasing that keeps the first
// points from starting at zero); null where ys is.
function smoothed(ys, w) {
  let avg = 0;
  let n = 0;
  return ys.map((y) => {
    if (y == null) return null;
    avg = w * avg + (1 - w) * y;
    n++;
    return avg / (1 - w ** n);
  });
}

// cursorTip shows the values under the cursor beside it, as the legend
// has them: the round (or time, or games) and each line's value, the
// lines that have one there.
function cursorTip(u) {
  let tip = u.over.querySelector(".tip");
  if (!tip) {
    tip = el("div", { class: "tip", "aria-hidden": "true" });
    u.over.append(tip);
  }
  const { left, top, idx } = u.cursor;
  if (idx == null || left == null || left < 0) {
    tip.hidden = true;
    return;
  }
  const rows = [...u.root.querySelectorAll(".u-legend .u-series")];
  const lines = [];
  rows.forEach((r, si) => {
    if (r.style.display === "none" || r.classList.contains("u-off")) return;
    const value = r.querySelector(".u-value")?.textContent ?? "";
    if (!value || value === "–" || (si > 0 && u.data[si]?.[idx] == null && !u.series[si].flat)) return;
    const label = si === 0 ? "" : `${r.querySelector(".u-label")?.textContent ?? ""}: `;
    lines.push(el("div", {}, si === 0 ? el("b", { text: value }) : `${label}${value}`));
  });
  tip.replaceChildren(...lines);
  tip.hidden = !lines.length;
  // Beside the cursor, on the side with room.
  const w = tip.offsetWidth;
  const h = tip.offsetHeight;
  tip.style.left = `${left + 14 + w > u.over.clientWidth ? Math.max(0, left - 14 - w) : left + 14}px`;
  tip.style.top = `${Math.max(0, Math.min(top + 14, u.over.clientHeight - h))}px`;
}

// gamesAxis is the x axis by the league's training games, written short
// (150k, 2.5M).
const gamesAxis = {
  label: "training games of the league",
  incrs: [1, 2, 5].flatMap((m) => [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((p) => m * 10 ** p)).sort((a, b) => a - b),
  values: (u, ticks) => ticks.map((v) => (v == null ? "" : fmt.count(v))),
};

// leagueGames is the games the league's learners had trained by each
// point of pts, in order: each method's newest snapshot's games at or
// before it, added up (a league of several learners trains each in its
// turn).
function leagueGames(pts) {
  const newest = new Map();
  let total = 0;
  return pts.map((p) => {
    total += p.train_games - (newest.get(p.method) ?? 0);
    newest.set(p.method, p.train_games);
    return total;
  });
}

const sharesBox = document.getElementById("chart-shares");
const eloChart = new LiveChart(chartBox, chartHeight);
const sharesChart = new LiveChart(sharesBox, 200);
const charts = [eloChart, sharesChart];

// logSplits are the rounds labelled on a log scale from min to max: 1, 2
// and 5 times the powers of ten within it, or where fewer than three of
// them fall in (a range of the newest rounds), five or so even steps.
function logSplits(min, max) {
  const out = [];
  for (let p = Math.pow(10, Math.floor(Math.log10(Math.max(1, min)))); p <= max; p *= 10) {
    for (const m of [1, 2, 5]) if (m * p >= min && m * p <= max) out.push(m * p);
  }
  if (out.length >= 3) return out;
  const raw = (max - min) / 5;
  const mag = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw))));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag);
  const even = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) even.push(v);
  return even;
}

// fitRatings is the range of a chart's y scale: the values of its lines
// in the rounds in view, with a margin of at least minPad, leaving the
// intervals (the bands' edges) out.
function fitRatings(u, minPad) {
  const xs = u.data[0];
  const x0 = u.scales.x.min ?? xs[0];
  const x1 = u.scales.x.max ?? xs[xs.length - 1];
  const edges = u.bands.flatMap((b) => b.series);
  let min = Infinity;
  let max = -Infinity;
  u.data.forEach((ys, si) => {
    if (si === 0 || edges.includes(si)) return;
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

// fitShares is the range of the shares' chart: the shares in view, with
// a margin, within 0-100%, which no share leaves.
function fitShares(u) {
  const [lo, hi] = fitRatings(u, 2);
  return [Math.max(0, lo), Math.min(100, hi)];
}

// chartPNG is the charts shown as one PNG image: each chart's canvas
// (its lines and axes) with its legend below it, as the legend reads
// now, on the page's background. Each legend row draws its line as the
// chart does, dashed where it is (a search, an anchored player), and
// puts its value in a column of its own, apart from the name: a picture
// shared without the page must still say which line is which.
async function chartPNG() {
  const shown = charts.filter((c) => c.chart && !c.box.hidden);
  const scale = window.devicePixelRatio || 1;
  const rowHeight = 18 * scale;
  const parts = shown.map((c) => {
    // The legend's rows are the chart's series, in order (the x axis's
    // first); those of the bands' ends are hidden.
    const rows = [...c.chart.root.querySelectorAll(".u-legend .u-series")].map((r, si) => ({ r, si, s: c.chart.series[si] })).filter(({ r }) => r.style.display !== "none");
    return {
      canvas: c.chart.ctx.canvas,
      rows: rows.map(({ r, si, s }) => ({
        label: (r.querySelector(".u-label")?.textContent ?? "").replace(/\s+/g, " ").trim(),
        value: (r.querySelector(".u-value")?.textContent ?? "").replace(/\s+/g, " ").trim(),
        stroke: si === 0 ? null : s.stroke(c.chart, si),
        dash: s.dash,
        width: s.width,
      })),
    };
  });
  const width = Math.max(...parts.map((p) => p.canvas.width));
  const height = parts.reduce((h, p) => h + p.canvas.height + (p.rows.length + 1) * rowHeight, 0);
  const out = Object.assign(document.createElement("canvas"), { width, height });
  const g = out.getContext("2d");
  const style = getComputedStyle(chartBox);
  g.fillStyle = getComputedStyle(chartBox.closest(".card")).backgroundColor;
  g.fillRect(0, 0, width, height);
  g.font = `${12 * scale}px ${style.fontFamily}`;
  const line = 28 * scale; // a marker long enough to show its dashes
  const labelX = 10 * scale + line + 10 * scale;
  const valueX = labelX + Math.max(0, ...parts.flatMap((p) => p.rows.map((r) => g.measureText(r.label).width))) + 20 * scale;
  let y = 0;
  for (const p of parts) {
    g.drawImage(p.canvas, 0, y);
    y += p.canvas.height + rowHeight / 2;
    for (const r of p.rows) {
      if (r.stroke) {
        g.strokeStyle = r.stroke;
        g.lineWidth = Math.max(2, r.width ?? 1) * scale;
        g.setLineDash((r.dash ?? []).map((d) => d * scale));
        g.beginPath();
        g.moveTo(10 * scale, y + 6 * scale);
        g.lineTo(10 * scale + line, y + 6 * scale);
        g.stroke();
        g.setLineDash([]);
      }
      g.fillStyle = style.color;
      g.fillText(r.label, labelX, y + 10 * scale);
      g.fillText(r.value, valueX, y + 10 * scale);
      y += rowHeight;
    }
    y += rowHeight / 2;
  }
  return new Promise((resolve) => out.toBlob(resolve, "image/png"));
}

// intervalAlone draws, on a chart of one round, each curve's 95%
// interval as a bar through its point: a band is drawn between rounds,
// and of a round alone it would draw nothing.
function intervalAlone(u) {
  if (!u.padded || !u.bands) return;
  const g = u.ctx;
  const scale = window.devicePixelRatio || 1;
  g.save();
  g.beginPath();
  g.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
  g.clip();
  for (const b of u.bands) {
    const [hi, lo] = b.series;
    const curve = lo - 1; // each curve's series comes before its ends'
    const k = u.data[curve].findIndex((v) => v != null);
    if (k < 0 || u.data[lo][k] == null || u.data[hi][k] == null) continue;
    const x = Math.round(u.valToPos(u.data[0][k], "x", true));
    const top = u.valToPos(u.data[hi][k], "y", true);
    const bottom = u.valToPos(u.data[lo][k], "y", true);
    const cap = 6 * scale;
    g.strokeStyle = u.series[curve].stroke(u, curve);
    g.lineWidth = 2 * scale; // two whole pixels on the round's grid line
    g.setLineDash([]); // the last series drawn may have left its dashes
    g.beginPath();
    g.moveTo(x, top);
    g.lineTo(x, bottom);
    g.moveTo(x - cap, top);
    g.lineTo(x + cap, top);
    g.moveTo(x - cap, bottom);
    g.lineTo(x + cap, bottom);
    g.stroke();
  }
  g.restore();
}

document.getElementById("curve-png").addEventListener("click", async () => {
  const blob = await chartPNG();
  const a = el("a", { href: URL.createObjectURL(blob), download: `learning-curve-round-${chartBox.dataset.round}.png` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
});

// The range buttons: the newest rounds (following each new one), the
// whole run, a log scale of rounds; and the range's fields, from and to,
// which the keyboard reaches as well as the mouse.
for (const b of document.querySelectorAll("#range [data-range]")) {
  b.addEventListener("click", () => {
    const m = b.dataset.range.match(/^last(\d+)$/);
    setZoom(m ? { last: Number(m[1]) } : null);
  });
}
for (const [id, by] of [["clock", "time"], ["games", "games"], ["elapsed", "elapsed"]]) {
  document.getElementById(id).addEventListener("click", () => {
    xBy = xBy === by ? "round" : by;
    if (xBy === "time" || xBy === "elapsed") log = false; // a log of the clock says nothing; of the time since the start, nothing at its 0
    writeURL();
    refresh();
  });
}
// The smoothing's slider: the curves redrawn where it stops, the address
// keeping where it stopped.
document.getElementById("smooth").addEventListener("change", (e) => {
  smooth = Math.min(0.99, Math.max(0, Number(e.target.value) || 0));
  writeURL();
  refresh();
});
document.getElementById("log").addEventListener("click", () => {
  log = !log;
  if (log && (xBy === "time" || xBy === "elapsed")) xBy = "round";
  writeURL();
  refresh();
});
for (const id of ["from", "to"]) {
  document.getElementById(id).addEventListener("change", () => {
    const min = Math.round(Number(document.getElementById("from").value));
    const max = Math.round(Number(document.getElementById("to").value));
    if (Number.isFinite(min) && Number.isFinite(max) && min < max) setZoom({ min, max });
  });
}

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
const searchedBox = document.getElementById("searched");
searchedBox.addEventListener("change", () => relist(() => ((listing.searched = searchedBox.checked), (listing.offset = 0))));
const minGames = document.getElementById("min-games");
minGames.addEventListener("change", () => relist(() => ((listing.min = Math.max(0, Math.floor(Number(minGames.value)) || 0)), (listing.offset = 0))));
document.getElementById("prev").addEventListener("click", () => relist(() => (listing.offset = Math.max(0, listing.offset - listing.limit))));
document.getElementById("next").addEventListener("click", () => relist(() => (listing.offset += listing.limit)));

readURL();
search.value = listing.q;
classFilter.value = listing.class;
minGames.value = listing.min || "";
searchedBox.checked = listing.searched;
writeURL();
loadLive(refresh, () => shownRound, down);

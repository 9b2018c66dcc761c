// The agent page: what the league knows of one agent, its rating
// history, its weight files and a way to play it.
import { api, el, fmt, badge, agentURL, playURL, pathRef, coalesce, loadLive, newChart, showError, colors, legendValue, History, refOf, gameInfo } from "./common.js";

const ref = pathRef();
const chartBox = document.getElementById("chart");
const chartHeight = 260;
let chart = null;
let shownRound = null; // the round whose data the page shows
let shown = null; // the agent the page shows: ref may be best, which moves
let opponents = null; // the opponents the table shows: {total, rows, next_after}

// morePage is how many more opponents "more" adds.
const morePage = 100;

// ratings is the agent's rating history as the page holds it: after the
// first load, only the rows since are asked for.
let ratings = null;

const refresh = coalesce(async () => {
  const [a, h, game] = await Promise.all([api(`/api/agents/${encodeURIComponent(ref)}`), ratings ? ratings.since() : History.load(ref), gameInfo()]);
  // /agents/best follows the best: a new one's history is asked whole.
  ratings = h.agent.id === a.id ? h : await History.load(a.id || a.name);
  // A new round keeps the rows "more" added, read again as they are now.
  let page = a.opponents;
  if (shown && shown.id === a.id && opponents.rows.length > page.rows.length) {
    page = await api(`/api/agents/${encodeURIComponent(refOf(a))}/opponents?limit=${Math.min(opponents.rows.length, 1000)}`);
  }
  shown = a;
  document.title = `${a.name} · ttt`;
  header(a);
  tiles(a, game);
  facts(a);
  checks(a);
  positionSet(a, game);
  ladder(a, page);
  showOpponents(page);
  draw(ratings);
  shownRound = ratings.newest_round;
  // A searched agent being measured: asked again until its figures come.
  if (a.measuring) setTimeout(refresh, measuringPoll);
});

// measuringPoll is how often, in ms, a page asks again for the figures
// of an agent being measured.
const measuringPoll = 2000;

function header(a) {
  document.getElementById("name").textContent = a.name;
  document.getElementById("class").replaceChildren(badge(a.class, a.shares, a.measuring), a.best ? el("span", { class: "star", title: "best: the export and play default", text: "★ best" }) : "");
  document.getElementById("kind").textContent = a.kind;
  const actions = [];
  // A pruned checkpoint has no weights to play or download: the page
  // says so, and offers neither.
  document.getElementById("pruned").hidden = !a.pruned;
  if (a.kind !== "random" && !a.pruned) {
    actions.push(el("a", { class: "button primary", id: "play-x", href: playURL(refOf(a), "X"), text: "Play it as X" }));
    actions.push(el("a", { class: "button", id: "play-o", href: playURL(refOf(a), "O"), text: "as O" }));
  }
  // Its games and opponents are the league's matches: a searched agent
  // the league has not stored (id 0, made for the request) has played
  // none, and the server has no file of them to give.
  if (a.id) {
    actions.push(el("a", { class: "button", id: "games-pgn", href: `/api/agents/${encodeURIComponent(refOf(a))}/games.pgn`, download: "", title: "every game it has played, replayed from the league's matches, as ttt games export --agent writes them", text: "⤓ games" }));
  }
  const csv = document.getElementById("opponents-csv");
  csv.hidden = !a.id;
  csv.href = `/api/agents/${encodeURIComponent(refOf(a))}/opponents.csv`;
  // Compared with the best, or the best with the newest; the best that
  // is the newest has nothing of the kind to compare with.
  if (!(a.best && a.latest)) {
    actions.push(el("a", { class: "button", id: "compare", href: `/compare/${encodeURIComponent(refOf(a))}/${a.best ? "latest" : "best"}`, text: a.best ? "compare with the newest" : "compare with the best" }));
  }
  // Its model's file, whatever the model (a network, a table, an
  // n-tuple network), as ttt export writes it; and, where the model has
  // them, a file of each side. A built-in player, a searched agent and a
  // pruned checkpoint have none.
  if (a.file) {
    const file = (side, text, id, title) =>
      el("a", { class: "button", id, href: `/api/agents/${encodeURIComponent(refOf(a))}/weights${side ? `?side=${side}` : ""}`, download: "", title, text });
    actions.push(file("", a.table ? "⤓ table" : "⤓ weights", "weights", `${a.file}: ${a.model}, as ttt export writes it; plays both sides`));
    // A table's file of one side is its file less the other side's
    // values: the page offers the one file that plays both.
    if (a.sided && !a.table) {
      const folded = (side) => (a.inputs ? `${a.inputs - 1} inputs, the side input folded for ${side}: ttt-rl's format` : `the tables of the positions ${side} leaves, all it reads when it plays ${side}`);
      actions.push(file("X", "for X", "weights-x", folded("X")), file("O", "for O", "weights-o", folded("O")));
    }
  }
  document.getElementById("actions").replaceChildren(...actions);
}

function tiles(a, game) {
  const st = a.standing;
  document.getElementById("t-elo").textContent = st ? fmt.elo(st.elo) : "unrated";
  document.getElementById("t-elo-sub").textContent = st ? `95% ${fmt.interval(st.lo, st.hi)}, as of round ${fmt.int(st.round)}` : "";
  const l = a.ladder;
  // A provisional rating says so: the extra games a league run plays
  // after the round that made it the best are still to come.
  document.getElementById("t-ladder").textContent = l ? fmt.elo(l.elo) + (l.provisional ? " (provisional)" : "") : "–";
  document.getElementById("t-ladder-sub").textContent = l
    ? `95% ${fmt.interval(l.lo, l.hi)}` + (a.float != null ? `; its league Elo ${a.float >= 0 ? "+" : "−"}${Math.abs(a.float).toFixed(1)}` : "") +
      (l.provisional ? `; provisional: its extra games against the ladder after round ${fmt.int(l.owed_after)} are still to be played` : "")
    : "no games against the built-in players";
  document.getElementById("t-record").textContent = st ? fmt.record(st.wins, st.draws, st.losses) : "–";
  document.getElementById("t-record-sub").textContent = st ? `W/D/L over ${fmt.int(st.games)} games` : "";
  if (game.sets) {
    // A game measured on sets of positions has no exact odds against
    // random: its measure is the position set.
    const sh = a.shares;
    const tile = (id, label, value, sub, title) => {
      document.getElementById(`t-${id}-label`).textContent = label;
      document.getElementById(`t-${id}`).textContent = value;
      const s = document.getElementById(`t-${id}-sub`);
      s.textContent = sub;
      s.title = title;
    };
    // The random-ply set, the harder, leads; an agent measured before
    // it has the tactical set's alone. Each share is beside random's.
    const of = (score, set, floor) => `of ${fmt.int(score.positions)} ${set} positions (random ${fmt.pctOf(floor)})`;
    if (sh && sh.random) {
      tile("x", "Optimal moves", fmt.pctOf(sh.random.pct), `${of(sh.random, "random-ply", a.floor.random)}; ${fmt.pctOf(sh.all.pct)} ${of(sh.all, "tactical", a.floor.all)}`,
        "the share of fixed sets of solved positions where its move keeps the position's value: the random-ply set, positions reached by random moves, the harder; then the tactical set, positions from the games of tactical players");
    } else {
      tile("x", "Optimal moves", sh ? fmt.pctOf(sh.all.pct) : "–", sh ? of(sh.all, "tactical", a.floor.all) : "not measured",
        "the share of a fixed set of solved positions, from the games of tactical players, where its move keeps the position's value");
    }
    tile("o", "Early / middle / late", sh ? `${sh.early.pct.toFixed(0)} / ${sh.middle.pct.toFixed(0)} / ${sh.late.pct.toFixed(0)}%` : "–", "optimal moves on the tactical set by phase of the game",
      `early: up to 14 stones; middle: up to 22; late: more`);
    return;
  }
  for (const side of ["x", "o"]) {
    const o = a.vs_random && a.vs_random[side];
    document.getElementById(`t-${side}`).textContent = o ? o.score.toFixed(4) : "–";
  }
}

// positionSet shows the position-set check of an agent of a game measured
// on sets of positions (Connect Four), and the exhaustive check of a
// solved game's (tic-tac-toe).
function positionSet(a, game) {
  document.getElementById("verify-card").hidden = !game.solved;
  document.getElementById("set-card").hidden = !game.sets;
  if (!game.sets) return;
  const tbody = document.querySelector("#shares tbody");
  if (!a.shares) {
    tbody.replaceChildren(el("tr", {}, el("td", { colspan: 4, class: "muted", text: a.kind === "random" ? "random has no fixed move to measure" : "not measured: a built-in player that searches at every move (ttt verify measures it)" })));
  } else {
    // The random-ply set first, where the agent was measured on it; then
    // the tactical set, overall and by phase.
    const rows = [["all", "tactical set"], ["early", "early (up to 14 stones)"], ["middle", "middle (15 to 22)"], ["late", "late (23 and more)"]];
    if (a.shares.random) rows.unshift(["random", "random-ply set"]);
    tbody.replaceChildren(
      ...rows.map(([k, label]) =>
        el(
          "tr",
          { "data-phase": k, class: ["early", "middle", "late"].includes(k) ? "phase" : null },
          el("td", { text: label }),
          el("td", { class: "num", text: `${fmt.int(a.shares[k].optimal)}/${fmt.int(a.shares[k].positions)}` }),
          el("td", { class: "num share", text: fmt.pctOf(a.shares[k].pct) }),
          el("td", { class: "num muted", text: fmt.pctOf(a.floor[k]) }),
        ),
      ),
    );
  }
}

// ladder shows the agent's record against the built-in players among its
// opponents (the first ids of a league, so the first page of opponents
// has them), by side where the league kept it. The card is for networks:
// a built-in player's opponents are the whole league.
function ladder(a, page) {
  const networks = ["checkpoint", "baseline", "imported"];
  document.getElementById("ladder-card").hidden = !networks.includes(a.kind);
  const side = (r) => (r ? el("span", { title: `score ${r.score.toFixed(3)}` }, fmt.record(r.wins, r.draws, r.losses)) : "–");
  const rows = page.rows.filter((o) => !networks.includes(o.kind));
  document.querySelector("#ladder tbody").replaceChildren(
    ...(rows.length
      ? rows.map((o) =>
          el(
            "tr",
            { "data-id": o.id },
            el("td", { class: "agent" }, el("a", { href: agentURL(o.id), text: o.name })),
            el("td", { class: "num", text: fmt.int(o.wins + o.draws + o.losses) }),
            el("td", { class: "num side-x" }, side(o.sides && o.sides.x)),
            el("td", { class: "num side-o" }, side(o.sides && o.sides.o)),
            el("td", { class: "num", text: o.score.toFixed(3) }),
          ),
        )
      : [el("tr", {}, el("td", { colspan: 5, class: "muted", text: "no games against them yet" }))]),
  );
}

function facts(a) {
  const rows = [
    ["id", a.id || "none: not stored"],
    ["kind", a.kind],
    ["parent", a.parent ? el("a", { href: agentURL(a.parent.id), text: `${a.parent.name} (${a.parent.id})` }) : "none"],
    ["generation", a.generation ? `round ${fmt.int(a.generation)}` : "outside the league"],
    ["training games", fmt.int(a.train_games)],
    ["method", a.method || "none (a built-in player)"],
    a.pruned
      ? [a.hidden ? "network" : "table", `${a.hidden ? `${a.hidden} hidden units, its weights` : "its values"} dropped by ttt prune (its record, ratings and games remain)`]
      : a.table ? ["table", `${fmt.int(a.table)} values`]
      : a.hidden ? ["network", `${a.inputs}-${a.hidden}-${a.outputs}, ${fmt.int(a.parameters)} parameters`]
      : ["model", a.model || "none (a built-in player)"], // an n-tuple network, a search around a model
    ["created", a.id ? new Date(a.created).toLocaleString() : "not stored: the league stores a searched agent when it rates it"],
  ];
  document.getElementById("facts").replaceChildren(...rows.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", {}, typeof v === "object" ? v : String(v))]));
}

function checks(a) {
  const tbody = document.querySelector("#verify tbody");
  if (!a.verify) {
    tbody.replaceChildren(el("tr", {}, el("td", { colspan: 5, class: "muted", text: a.measuring ? "measuring…" : a.kind === "random" ? "random has no fixed line to check" : "not measured" })));
    return;
  }
  tbody.replaceChildren(
    ...["x", "o"].map((side) => {
      const v = a.verify[side];
      const o = a.vs_random && a.vs_random[side];
      const odds = o
        ? el("div", { class: "odds", title: `W/D/L ${fmt.pct(o.win)} / ${fmt.pct(o.draw)} / ${fmt.pct(o.loss)}` },
            el("span", { class: "w", style: `width:${100 * o.win}%` }),
            el("span", { class: "d", style: `width:${100 * o.draw}%` }),
            el("span", { class: "l", style: `width:${100 * o.loss}%` }))
        : "–";
      return el(
        "tr",
        {},
        el("td", { text: side.toUpperCase() }),
        el("td", { text: v.worst }),
        el("td", { class: "num", text: `${v.lost}/${v.lines}` }),
        el("td", { class: "num", text: `${v.optimal_pct.toFixed(1)}% (${v.optimal}/${v.positions})` }),
        el("td", {}, odds, o ? el("div", { class: "muted", text: `${fmt.pct(o.win)} / ${fmt.pct(o.draw)} / ${fmt.pct(o.loss)}` }) : null),
      );
    }),
  );
}

// showOpponents fills the table of the agent's record against each
// opponent, by id, and offers more while there are.
function showOpponents(page) {
  opponents = page;
  const tbody = document.querySelector("#opponents tbody");
  if (!page.rows.length) {
    tbody.replaceChildren(el("tr", {}, el("td", { colspan: 5, class: "muted", text: "no games yet" })));
  } else {
    tbody.replaceChildren(
      ...page.rows.map((o) =>
        el(
          "tr",
          { "data-id": o.id },
          el("td", { class: "agent" }, el("a", { href: agentURL(o.id), text: o.name })),
          el("td", { class: "muted", text: o.kind }),
          el("td", { class: "num", text: fmt.int(o.wins + o.draws + o.losses) }),
          el("td", { class: "num", text: fmt.record(o.wins, o.draws, o.losses) }),
          el("td", { class: "num", text: o.score.toFixed(3) }),
        ),
      ),
    );
  }
  document.getElementById("opponents-shown").textContent = page.rows.length < page.total ? `${fmt.int(page.rows.length)} of ${fmt.int(page.total)}` : "";
  const more = document.getElementById("more");
  more.hidden = page.next_after == null;
  more.textContent = `${fmt.int(Math.min(morePage, page.total - page.rows.length))} more`;
}

// more adds the next page of opponents to the table.
async function more() {
  const was = opponents;
  try {
    const next = await api(`/api/agents/${shown.id}/opponents?after=${was.next_after}&limit=${morePage}`);
    if (opponents !== was) return; // a new round reloaded the table meanwhile
    showOpponents({ total: next.total, rows: [...was.rows, ...next.rows], next_after: next.next_after });
  } catch (err) {
    showError(err);
  }
}

// draw charts the stored history as steps: each row holds until the next,
// the last until the newest round.
function draw(history) {
  const rows = history.rows.slice();
  if (rows.length && history.newest_round > rows[rows.length - 1].round) {
    rows.push({ ...rows[rows.length - 1], round: history.newest_round });
  }
  const data = [rows.map((r) => r.round), rows.map((r) => r.elo), rows.map((r) => r.lo), rows.map((r) => r.hi)];
  chartBox.dataset.points = history.rows.length;
  if (!rows.length) {
    chart?.destroy();
    chart = null;
    chartBox.replaceChildren(el("p", { class: "muted", text: "not rated yet" }));
    return;
  }
  // /agents/best follows the best: a new best gets a chart of its own,
  // under its name.
  if (chart && chart.series[1].label === history.agent.name) {
    chart.setData(data);
    chart.setLegend({ idx: chart.cursor.idx }); // the values of the new data
    return;
  }
  chart?.destroy();
  chartBox.replaceChildren();
  const steps = uPlot.paths.stepped({ align: 1 });
  chart = newChart(chartBox, chartHeight, {
    series: [
      { label: "round", value: legendValue(fmt.int) },
      { label: history.agent.name, stroke: colors[1], width: 2, paths: steps, points: { show: rows.length <= 60, size: 4 },
        value: legendValue((v, i) => `${v.toFixed(1)} ${fmt.interval(chart.data[2][i], chart.data[3][i])}`) },
      { label: "lo", stroke: "transparent", paths: steps, points: { show: false } },
      { label: "hi", stroke: "transparent", paths: steps, points: { show: false } },
    ],
    bands: [{ series: [3, 2], fill: "rgba(0, 114, 178, 0.12)" }],
  }, data);
  window.tttChart = chart; // for the browser test
}

document.getElementById("more").addEventListener("click", more);
loadLive(refresh, () => shownRound);

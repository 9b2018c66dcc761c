// The compare page: two agents side by side, their games against each
// other, their ratings on one chart, and the positions where they move
// differently (/api/compare/A/B).
import { api, el, fmt, badge, agentURL, coalesce, loadLive, newChart, showError, colors, legendValue, History, gameInfo, landing } from "./common.js";

const parts = location.pathname.split("/");
const refs = [decodeURIComponent(parts[2] || ""), decodeURIComponent(parts[3] || "")];
const chartBox = document.getElementById("chart");
let chart = null;
let ids = null; // the agents, resolved at the first load: best stays one agent for the page
let histories = null; // theirs, asked whole once and then for the rows since
let shownRound = null;

// page is how many positions the page shows at first, and more adds.
const page = 60;
let differences = [];
let shown = 0;

let game = null; // the league's game (/api/game)

const refresh = coalesce(async () => {
  const first = ids === null;
  const path = (first ? refs : ids).map(encodeURIComponent).join("/");
  const [c, g] = await Promise.all([api(`/api/compare/${path}${first ? "" : "?positions=0"}`), gameInfo()]);
  game = g;
  // By id, or by name for a searched agent the league has not stored.
  ids = [c.a.id || c.a.name, c.b.id || c.b.name];
  histories = await Promise.all(histories ? histories.map((h) => h.since()) : ids.map((id) => History.load(id)));
  const [ha, hb] = histories;
  document.title = `${c.a.name} vs ${c.b.name} · ttt`;
  header(c);
  tiles(c);
  if (first) positions(c);
  draw(c, ha, hb);
  shownRound = c.newest_round;
});

function header(c) {
  for (const [k, a] of [["a", c.a], ["b", c.b]]) {
    const link = document.getElementById(`name-${k}`);
    link.textContent = a.name;
    link.href = agentURL(a.id || a.name);
    document.getElementById(`class-${k}`).replaceChildren(badge(a.class, a.shares));
  }
  document.getElementById("swap").href = `/compare/${encodeURIComponent(c.b.id || c.b.name)}/${encodeURIComponent(c.a.id || c.a.name)}`;
}

function tiles(c) {
  const set = (id, value, sub) => {
    document.getElementById(`t-${id}`).textContent = value;
    document.getElementById(`t-${id}-sub`).textContent = sub;
  };
  const r = c.record;
  set("record", r ? fmt.record(r.wins, r.draws, r.losses) : "never met", r ? `W/D/L of ${c.a.name} in ${fmt.int(r.wins + r.draws + r.losses)} games, a score of ${c.score.toFixed(3)}` : "the league has not paired them");
  const d = c.diff;
  set("diff", d ? `${d.elo >= 0 ? "+" : ""}${fmt.elo(d.elo)}` : "–", d ? `95% ${fmt.interval(d.lo, d.hi)}` : "both must be rated");
  set("expected", c.expected != null ? c.expected.toFixed(3) : "–", c.expected != null ? `for ${c.a.name}, by the ratings${r ? `; played ${c.score.toFixed(3)}` : ""}` : "");
}

// positions shows the first positions where they move differently.
function positions(c) {
  differences = c.differences || [];
  shown = 0;
  // A game measured on sets of positions is compared on them; another
  // in every position.
  const where = game.sets ? "the position set of the share of optimal moves" : "every position where a move is due, including those neither one's own play reaches";
  if (!c.compared) {
    const pruned = [c.a, c.b].filter((a) => a.pruned).map((a) => a.name);
    document.getElementById("t-differ").textContent = "–";
    document.getElementById("t-differ-sub").textContent = pruned.length ? `${pruned.join(" and ")}: weights dropped by ttt prune` : "random and the MCTS players draw their moves";
    document.getElementById("positions-about").textContent = pruned.length
      ? `the moves of ${pruned.join(" and ")} are not known: ttt prune dropped the weights; the record and the ratings above remain`
      : "only players that always make the same move can be compared";
    return;
  }
  document.getElementById("t-differ").textContent = fmt.int(differences.length);
  document.getElementById("t-differ-sub").textContent = `of ${fmt.int(c.compared)} positions compared`;
  document.getElementById("positions-about").textContent = `in ${where}: each agent's move, ringed in its colour, with its exact value for the side to move`;
  // Each position's moves against its value (its best move's): a move
  // below it is a mistake; in a lost position every move is a loss.
  const count = { a: 0, b: 0, both: 0, lost: 0, aOut: 0, bOut: 0 };
  for (const d of differences) {
    const aOK = d.a.value === d.best;
    const bOK = d.b.value === d.best;
    if (aOK && bOK) count[d.best === "loss" ? "lost" : "both"]++;
    else if (aOK) count.a++;
    else count.b++;
    if (d.a.in_play === false && !aOK) count.aOut++;
    if (d.b.in_play === false && !bOK) count.bOut++;
  }
  const line = (text) => el("li", { text });
  const items = [
    line(`${c.a.name} keeps the value where ${c.b.name} does not: ${fmt.int(count.a)}`),
    line(`${c.b.name} keeps the value where ${c.a.name} does not: ${fmt.int(count.b)}`),
    line(`both keep it (two moves as good): ${fmt.int(count.both)}`),
  ];
  if (count.lost) items.push(line(`lost whatever is played (every move a loss): ${fmt.int(count.lost)}`));
  // A solved game's agents have classes, from a check of their own play.
  if (game.solved) {
    items.push(line(`mistakes in positions that an agent's own play never reaches, where its check (its class) does not look: ${c.a.name} ${fmt.int(count.aOut)}, ${c.b.name} ${fmt.int(count.bOut)}`));
  }
  document.getElementById("positions-summary").replaceChildren(
    differences.length ? el("ul", { class: "summary" }, ...items) : el("p", { text: "They make the same move everywhere." }),
  );
  document.getElementById("positions").replaceChildren();
  more(c);
  document.getElementById("more").onclick = () => more(c);
}

// more adds the next page of positions.
function more(c) {
  const next = differences.slice(shown, shown + page);
  document.getElementById("positions").append(...next.map((d) => position(c, d)));
  shown += next.length;
  document.getElementById("positions-shown").textContent = shown < differences.length ? `${fmt.int(shown)} of ${fmt.int(differences.length)}` : "";
  const button = document.getElementById("more");
  button.hidden = shown >= differences.length;
  button.textContent = `${fmt.int(Math.min(page, differences.length - shown))} more`;
}

// position draws one position: its board, each agent's move ringed.
function position(c, d) {
  const rows = d.rows.filter((r) => /^[XO.]+$/.test(r));
  const at = (move) => landing(game, move, (r, col) => rows[r][col] === ".");
  const [ra, ca] = at(d.a.move);
  const [rb, cb] = at(d.b.move);
  const cells = [];
  rows.forEach((row, r) =>
    [...row].forEach((mark, col) => {
      let cls = `mini-cell ${mark === "." ? "" : mark}`;
      if (r === ra && col === ca) cls += " a";
      if (r === rb && col === cb) cls += " b";
      cells.push(el("span", { class: cls, text: !game.drop && mark !== "." ? mark : null }));
    }),
  );
  const board = el("div", { class: `mini ${game.drop ? "drop" : "cells"}` }, ...cells);
  board.style.setProperty("--cols", game.cols);
  const say = (name, m, k) =>
    el("div", { class: `says ${k}` }, el("span", { class: "swatch" }), `${name}: ${m.move}`, el("span", { class: `value ${m.value}`, text: m.value }),
      m.value !== d.best ? el("span", { class: "mark muted", text: m.in_play === false ? "(a mistake, outside its own play)" : "(a mistake)" }) : null);
  const value = d.best === "loss" ? "lost for the side to move" : `a ${d.best} for the side to move`;
  return el("div", { class: "position", "data-a": d.a.move, "data-b": d.b.move, "data-best": d.best }, board,
    el("div", { class: "muted", text: `${d.to_move} to move: ${value}` }), say(c.a.name, d.a, "a"), say(c.b.name, d.b, "b"));
}

// carry puts a stored history on the rounds xs: at each round the last
// row at or before it, none before the first.
function carry(rows, xs, key) {
  const out = new Array(xs.length).fill(null);
  let i = -1;
  xs.forEach((x, k) => {
    while (i + 1 < rows.length && rows[i + 1].round <= x) i++;
    if (i >= 0) out[k] = rows[i][key];
  });
  return out;
}

// draw charts both histories as steps, up to the newest round.
function draw(c, ha, hb) {
  const xs = [...new Set([...ha.rows, ...hb.rows].map((r) => r.round).concat(ha.rows.length || hb.rows.length ? [c.newest_round] : []))].sort((x, y) => x - y);
  chartBox.dataset.points = xs.length;
  if (!xs.length) {
    chart?.destroy();
    chart = null;
    chartBox.replaceChildren(el("p", { class: "muted", text: "neither is rated yet" }));
    return;
  }
  const data = [xs];
  for (const h of [ha, hb]) data.push(carry(h.rows, xs, "elo"), carry(h.rows, xs, "lo"), carry(h.rows, xs, "hi"));
  if (chart) {
    chart.setData(data);
    chart.setLegend({ idx: chart.cursor.idx });
    return;
  }
  chartBox.replaceChildren();
  const steps = uPlot.paths.stepped({ align: 1 });
  const line = (name, color, lo) => [
    { label: name, stroke: color, width: 2, paths: steps, points: { show: false }, value: legendValue((v, i) => `${v.toFixed(1)} ${fmt.interval(chart.data[lo][i], chart.data[lo + 1][i])}`) },
    { label: "lo", stroke: "transparent", paths: steps, points: { show: false } },
    { label: "hi", stroke: "transparent", paths: steps, points: { show: false } },
  ];
  chart = newChart(chartBox, 260, {
    series: [{ label: "round", value: legendValue(fmt.int) }, ...line(c.a.name, colors[1], 2), ...line(c.b.name, colors[3], 5)],
    bands: [{ series: [3, 2], fill: "rgba(0, 114, 178, 0.12)" }, { series: [6, 5], fill: "rgba(213, 94, 0, 0.12)" }],
  }, data);
  window.tttChart = chart; // for the browser test
}

loadLive(() => refresh().catch(showError), () => shownRound);

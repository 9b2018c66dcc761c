// The play page: a game against any stored agent, from either side. The
// server is stateless: each of the agent's moves is one request with the
// squares played so far (/api/agents/ID/move?moves=...), and its answer
// says how the game stands after that move.
import { api, el, fmt, badge, agentURL, playURL, pathRef, live, showError } from "./common.js";

// size is the board's squares a side: the page draws the board from it.
const size = 3;
const lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

const params = new URLSearchParams(location.search);
const human = (params.get("as") || "X").toUpperCase() === "O" ? "O" : "X";
const boardBox = document.getElementById("board");
const status = document.getElementById("status");

let agent = null; // the opponent, resolved once: "best" stays one agent for the session
let moves = [];
let cells = [];
let over = false;
let busy = false;
const tally = { win: 0, tie: 0, loss: 0 };

// position is the board after moves: each square's mark or "".
function position() {
  const b = Array(9).fill("");
  moves.forEach((sq, i) => (b[sq] = i % 2 === 0 ? "X" : "O"));
  return b;
}

// line is the three in a row on b, if there is one: the squares to show
// as won.
function line(b) {
  return lines.find((l) => b[l[0]] && b[l[0]] === b[l[1]] && b[l[1]] === b[l[2]]);
}

function toMove() {
  return moves.length % 2 === 0 ? "X" : "O";
}

function render() {
  const b = position();
  const won = line(b) || [];
  const last = moves[moves.length - 1];
  cells.forEach((cell, sq) => {
    cell.className = `cell ${b[sq] || "free"}${sq === last ? " last" : ""}${won.includes(sq) ? " won" : ""}`;
    cell.firstChild.textContent = b[sq] ? "" : sq;
    cell.lastChild.textContent = b[sq];
    cell.disabled = over || busy || !!b[sq] || toMove() !== human;
  });
  boardBox.dataset.over = over;
  boardBox.dataset.moves = moves.join(",");
  document.getElementById("moves").textContent = moves.length ? `moves: ${moves.join(" ")}` : "";
  document.getElementById("tally").textContent = `this session: you won ${tally.win}, drew ${tally.tie}, lost ${tally.loss}`;
}

// finish ends the game if result, as the API says it (ongoing, X wins,
// O wins or tie), is an end, and says how, as ttt play does.
function finish(result) {
  if (result === "ongoing") return false;
  const outcome = result === "tie" ? "tie" : result === `${human} wins` ? "win" : "loss";
  over = true;
  tally[outcome]++;
  status.classList.add("over", outcome);
  status.textContent = { win: "You win!", tie: "A tie.", loss: `${agent.name} wins.` }[outcome];
  status.dataset.result = outcome;
  return true;
}

// say puts a message in the status line.
function say(text, failed = false, ...more) {
  status.classList.toggle("failed", failed);
  status.replaceChildren(text, ...more);
}

// think shows what the agent thought of each square, its choice outlined.
function think(ans, before) {
  const what = agent.kind === "perfect" ? "the game value of each move for it" : agent.kind === "random" ? "the chance of each square" : "its move probabilities";
  document.getElementById("about").textContent = `${agent.name} plays ${ans.to_move} on ${ans.square}; ${what}:`;
  document.getElementById("thoughts").replaceChildren(
    ...before.map((mark, sq) => {
      if (mark) return el("div", { class: "thought taken", text: mark });
      const chosen = sq === ans.square ? " chosen" : "";
      if (ans.values) {
        const v = ans.values[sq];
        return el("div", { class: `thought ${v}${chosen}`, "data-sq": sq, text: v });
      }
      const p = ans.probabilities[sq];
      return el("div", { class: `thought${chosen}`, "data-sq": sq, text: fmt.pct(p) }, el("span", { class: "bar", style: `width:${Math.min(100, 100 * p)}%` }));
    }),
  );
}

// agentMove asks the agent for its move, and plays it. If the request
// fails, the board waits, with a way to ask again.
async function agentMove() {
  busy = true;
  render();
  status.classList.remove("over");
  say(`${agent.name} is thinking…`);
  const before = position();
  let ans;
  try {
    ans = await api(`/api/agents/${agent.id}/move?moves=${moves.join(",")}`);
  } catch (err) {
    busy = false;
    say(`${agent.name} could not move: ${err.message}`, true, el("button", { class: "button", id: "retry", text: "Try again", onclick: agentMove }));
    render();
    return;
  }
  busy = false;
  moves.push(ans.square);
  think(ans, before);
  if (!finish(ans.result)) say("Your move.");
  render();
}

async function play(sq) {
  if (!agent || over || busy || position()[sq] || toMove() !== human) return;
  moves.push(sq);
  // The server says how the game stands after the agent's moves; after
  // the human's, only the human can have won, or filled the board.
  const b = position();
  if (finish(line(b) ? `${human} wins` : b.every((c) => c) ? "tie" : "ongoing")) {
    render();
    return;
  }
  await agentMove();
}

function newGame() {
  moves = [];
  over = false;
  status.classList.remove("over", "win", "tie", "loss");
  delete status.dataset.result;
  document.getElementById("thoughts").replaceChildren();
  document.getElementById("about").textContent = "What it thought";
  if (human === "X") {
    say("Your move: you are X and move first.");
    render();
  } else {
    agentMove();
  }
}

// opponents fills the opponent list: the leaderboard's top, and the agent
// played now when it is not among them.
async function opponents() {
  const board = await api("/api/leaderboard?limit=50");
  const pick = document.getElementById("pick");
  const list = board.agents.filter((a) => a.kind !== "random");
  if (!list.some((a) => a.id === agent.id)) list.unshift(agent);
  if (!list.some((a) => a.kind === "random")) list.push(...board.agents.filter((a) => a.kind === "random"));
  pick.replaceChildren(
    ...list.map((a) => el("option", { value: a.id, selected: a.id === agent.id, text: `${a.name}${a.class ? ` (${a.class})` : ""}` })),
  );
  pick.onchange = () => (location.href = playURL(pick.value, human));
}

async function main() {
  for (let sq = 0; sq < size * size; sq++) {
    const cell = el("button", { class: "cell free", "data-sq": sq, onclick: () => play(sq) }, el("span", { class: "n" }), el("span"));
    cell.disabled = true; // until the agent is known and the game begins
    cells.push(cell);
  }
  boardBox.style.setProperty("--n", size);
  document.getElementById("thoughts").style.setProperty("--n", size);
  boardBox.replaceChildren(...cells);
  for (const side of ["X", "O"]) {
    const b = document.getElementById(`side-${side.toLowerCase()}`);
    b.setAttribute("aria-pressed", side === human);
    b.onclick = () => (location.href = playURL(agent ? agent.id : pathRef(), side));
  }
  document.getElementById("new").onclick = () => !busy && newGame();
  try {
    agent = await api(`/api/agents/${encodeURIComponent(pathRef())}`);
  } catch (err) {
    showError(err);
    return;
  }
  document.title = `Play ${agent.name} · ttt`;
  const link = document.getElementById("opponent");
  link.textContent = agent.name;
  link.href = agentURL(agent.id);
  document.getElementById("class").replaceChildren(badge(agent.class));
  opponents().catch(showError);
  newGame();
}

main();
live();

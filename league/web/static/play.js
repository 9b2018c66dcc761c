// The play page: a game against any stored agent, from either side. The
// server is stateless: each of the agent's moves is one request with the
// moves played so far (/api/agents/ID/move?moves=...), and its answer
// says how the game stands after that move.
import { api, el, fmt, badge, leadShare, agentURL, playURL, pathRef, live, showError, refOf, gameInfo, landing } from "./common.js";

let game = null; // the league's game (/api/game): its board, its moves and its lines

// position is the board after moves: marks[row][column], the top row 0,
// each cell's mark or ""; whether a cell is where the last move landed,
// or in a line it won; and the winner, if any. The game ends at its first
// line, so every line of one mark is the last move's: a move may complete
// more than one.
function position(moves) {
  const marks = Array.from({ length: game.rows }, () => Array(game.cols).fill(""));
  let last = null;
  moves.forEach((m, i) => {
    last = landing(game, m, (r, c) => !marks[r][c]);
    marks[last[0]][last[1]] = i % 2 === 0 ? "X" : "O";
  });
  const won = game.lines.filter(([[r0, c0], ...rest]) => marks[r0][c0] && rest.every(([r, c]) => marks[r][c] === marks[r0][c0])).flat();
  return {
    marks,
    isLast: (r, c) => last !== null && last[0] === r && last[1] === c,
    isWon: (r, c) => won.some(([wr, wc]) => wr === r && wc === c),
    winner: won.length ? marks[won[0][0]][won[0][1]] : null,
  };
}

// legal is whether the move m can be played after moves.
function legal(moves, m) {
  const { marks } = position(moves);
  const at = landing(game, m, (r, c) => !marks[r][c]);
  return at !== null && !marks[at[0]][at[1]];
}

// resultOf is how the game stands after moves, as the API says it: X wins,
// O wins, tie or ongoing.
function resultOf(moves) {
  const { winner } = position(moves);
  return winner ? `${winner} wins` : moves.length === game.rows * game.cols ? "tie" : "ongoing";
}

// A view draws the board of the game, of one of two layouts (game.drop).
// Moves are kept as the API writes them, as people type them (game.moves):
// a square 0-8, a column 1-7.
const views = {
  // cells: a button for each cell, which a move names, numbered row by
  // row from the top left (tic-tac-toe).
  cells: {
    build(play) {
      this.cells = game.moves.map((m) => {
        const cell = el("button", { class: "cell free", "data-sq": m, onclick: () => play(m) }, el("span", { class: "n", "aria-hidden": "true" }), el("span", { "aria-hidden": "true" }));
        cell.disabled = true; // until the agent is known and the game begins
        return cell;
      });
      boardBox.replaceChildren(...this.cells);
    },
    // where names the cell in row r and column c as people read it: on
    // a board of three by three, as tic-tac-toe's players do.
    where(r, c) {
      if (game.rows === 3 && game.cols === 3) return `${["top", "middle", "bottom"][r]} ${["left", "centre", "right"][c]}`;
      return `row ${r + 1} column ${c + 1}`;
    },
    render(moves, open) {
      const { marks, isLast, isWon } = position(moves);
      this.cells.forEach((cell, k) => {
        const [r, c] = [Math.floor(k / game.cols), k % game.cols];
        const mark = marks[r][c];
        cell.className = `cell ${mark || "free"}${isLast(r, c) ? " last" : ""}${isWon(r, c) ? " won" : ""}`;
        cell.firstChild.textContent = mark ? "" : game.moves[k];
        cell.lastChild.textContent = mark;
        cell.disabled = !open || !!mark;
        // Read as what it is, where it is, and what it holds.
        cell.setAttribute("aria-label", `${game.move} ${game.moves[k]}, ${this.where(r, c)}: ${mark || "empty"}${isWon(r, c) ? ", in the winning line" : ""}`);
      });
    },
    // taken is what the agent's thoughts show of the move k that cannot
    // be played, null where it shows its number: here the cell's mark.
    taken(moves, k) {
      return position(moves).marks[Math.floor(k / game.cols)][k % game.cols] || null;
    },
  },

  // drop: a button for each column, which a move names, on a board of
  // its own colour; a stone drops to the lowest free cell of the column
  // clicked (Connect Four).
  drop: {
    build(play) {
      this.columns = game.moves.map((m) => {
        // A disc's data-row is its height in the column, 0 the bottom.
        const discs = [];
        for (let h = game.rows - 1; h >= 0; h--) discs.push(el("span", { class: "disc", "data-row": h }));
        const column = el("button", { class: "column", "data-col": m, title: `${game.move} ${m}`, onclick: () => play(m) }, ...discs, el("span", { class: "n", "aria-hidden": "true", text: m }));
        column.disabled = true;
        return column;
      });
      boardBox.classList.add("drop");
      boardBox.replaceChildren(...this.columns);
    },
    render(moves, open) {
      const { marks, isLast, isWon } = position(moves);
      this.columns.forEach((column, c) => {
        for (const disc of column.querySelectorAll(".disc")) {
          const r = game.rows - 1 - Number(disc.dataset.row);
          disc.className = `disc ${marks[r][c]}${isLast(r, c) ? " last" : ""}${isWon(r, c) ? " won" : ""}`;
          // The stone falls from the top of its column.
          disc.style.setProperty("--fall", `${r + 1}`);
        }
        const full = !!marks[0][c];
        column.disabled = !open || full;
        // Its stones from the bottom up, X yellow and O red.
        const stones = marks.map((row) => row[c]).filter((m) => m).reverse();
        column.setAttribute("aria-label", `${game.move} ${game.moves[c]}: ${stones.length ? `${stones.join(" ")} from the bottom` : "empty"}${full ? ", full" : ""}`);
      });
    },
    taken(moves, k) {
      return position(moves).marks[0][k] ? game.full : null;
    },
  },
};

const params = new URLSearchParams(location.search);
const human = (params.get("as") || "X").toUpperCase() === "O" ? "O" : "X";
const boardBox = document.getElementById("board");
const status = document.getElementById("status");

let view = null; // the view of the agent's game
let agent = null; // the opponent, resolved once: "best" stays one agent for the session
let moves = [];
let over = false;
let busy = false;
let lastMove = ""; // the agent's last move, said with the status
let played = null; // the square or column the keyboard or mouse played, while the focus is to move on
let toBoardNext = false; // a new game began: the focus goes to the board's first free move once it is the human's
const tally = { win: 0, tie: 0, loss: 0 };

function toMove() {
  return moves.length % 2 === 0 ? "X" : "O";
}

function render() {
  const open = !over && !busy && toMove() === human;
  view.render(moves, open);
  // The keyboard's place: a square played is disabled, and the focus on
  // it would fall to the page's top; it goes to the free square nearest
  // it when it is the human's move again, and to "New game" at the end.
  if (played && (open || over)) {
    const at = played.getBoundingClientRect();
    const far = (b) => Math.hypot(b.getBoundingClientRect().left - at.left, b.getBoundingClientRect().top - at.top);
    const free = [...boardBox.querySelectorAll("button:not([disabled])")].sort((a, b) => far(a) - far(b));
    (over ? document.getElementById("new") : free[0])?.focus();
    played = null;
  }
  if (toBoardNext && open) {
    boardBox.querySelector("button:not([disabled])")?.focus();
    toBoardNext = false;
  }
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
  status.replaceChildren(text === "Your move." ? lastMove + text : text, ...more);
}

// think shows what the agent thought of each move, its choice outlined.
function think(ans, before) {
  const what = ans.values ? "the game value of each move for it" : agent.kind === "random" ? `the chance of each ${game.move}` : ans.probabilities ? "its move probabilities" : ans.expected ? `what it expects to score after each ${game.move}` : ans.table_values ? `the value it puts on the position after each ${game.move}` : null;
  document.getElementById("about").textContent = `${agent.name} plays ${ans.to_move} on ${game.move} ${ans.move}${what ? `; ${what}:` : "."}`;
  lastMove = `${agent.name} played ${game.move} ${ans.move}. `;
  // How long the reply took, and what a search did for it.
  const s = ans.search;
  const did = !s ? "" : `, ${searchDid(s)}, ${fmt.int(s.nodes)} position${s.nodes === 1 ? "" : "s"} judged`;
  const reply = document.getElementById("reply");
  reply.textContent = `replied in ${seconds(ans.seconds)}${did}`;
  reply.dataset.seconds = ans.seconds;
  if (!what) {
    document.getElementById("thoughts").replaceChildren(); // a player that searches shows nothing
    return;
  }
  const cells = [];
  for (const [k, move] of game.moves.entries()) {
    const taken = view.taken(before, k);
    if (taken) {
      cells.push(el("div", { class: "thought taken", text: taken }));
      continue;
    }
    const chosen = move === ans.move ? " chosen" : "";
    // Each cell read out with the move it is of: "column 4: 52.1%, its
    // choice".
    const named = (text) => `${game.move} ${move}: ${text}${chosen ? ", its choice" : ""}`;
    if (ans.values) {
      const v = ans.values[k];
      cells.push(el("div", { class: `thought ${v}${chosen}`, "data-move": move, role: "img", "aria-label": named(v), text: v }));
      continue;
    }
    if (ans.table_values) {
      // On the table's own scale, not a share: no bar.
      const text = ans.table_values[k].toFixed(2);
      cells.push(el("div", { class: `thought${chosen}`, "data-move": move, role: "img", "aria-label": named(text), text }));
      continue;
    }
    const p = (ans.probabilities || ans.expected)[k];
    cells.push(el("div", { class: `thought${chosen}`, "data-move": move, role: "img", "aria-label": named(fmt.pct(p)), text: fmt.pct(p) }, el("span", { class: "bar", style: `width:${Math.min(100, 100 * p)}%` })));
  }
  document.getElementById("thoughts").replaceChildren(...cells);
}

// searchDid says how far a search got for a move: "alpha-beta 8 plies
// deep", "1 ply deep"; where the server's limits on a move (a second, an
// MCTS tree's size) stopped it short of its budget, both, as "alpha-beta
// 6 of 8 plies deep": best@ab8 is no search 8 plies deep when it reached 6.
function searchDid(s) {
  const reached = s[s.unit];
  const unit = reached === 1 ? s.unit_one : s.unit;
  if (s.budget == null || reached >= s.budget) return `${s.title} ${fmt.int(reached)} ${unit} ${s.per}`;
  return `${s.title} ${fmt.int(reached)} of ${fmt.int(s.budget)} ${s.unit} ${s.per} (stopped short by the server's limit on a move)`;
}

// seconds writes a time a move as people read it: 0.04 ms, 0.4 ms, 12
// ms, 1.02 s. Under a millisecond two significant digits: a network's
// reply of 40 µs is no "0.0 ms".
function seconds(s) {
  return s < 0.001 ? `${Number((s * 1000).toPrecision(2))} ms` : s < 1 ? `${Math.round(s * 1000)} ms` : `${s.toFixed(2)} s`;
}

// arrows moves the focus among the board's free squares or columns with
// the arrow keys: left and right along a row, up and down a column of
// squares; Enter or Space plays, as on any button.
function arrows(e) {
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: game.drop ? 0 : -game.cols, ArrowDown: game.drop ? 0 : game.cols }[e.key];
  const buttons = [...boardBox.querySelectorAll("button")];
  let k = buttons.indexOf(document.activeElement);
  if (!step || k < 0) return;
  e.preventDefault();
  for (k += step; k >= 0 && k < buttons.length; k += step) {
    if (!buttons[k].disabled) {
      buttons[k].focus();
      return;
    }
  }
}

// agentMove asks the agent for its move, and plays it. If the request
// fails, the board waits, with a way to ask again.
async function agentMove() {
  busy = true;
  render();
  status.classList.remove("over");
  say(`${agent.name} is thinking…`);
  const before = moves.slice();
  let ans;
  try {
    ans = await api(`/api/agents/${encodeURIComponent(refOf(agent))}/move?moves=${moves.join(",")}`);
  } catch (err) {
    busy = false;
    say(`${agent.name} could not move: ${err.message}`, true, el("button", { class: "button", id: "retry", text: "Try again", onclick: agentMove }));
    render();
    return;
  }
  busy = false;
  moves.push(ans.move);
  think(ans, before);
  if (!finish(ans.result)) say("Your move.");
  render();
}

async function play(m) {
  if (!agent || over || busy || toMove() !== human || !legal(moves, m)) return;
  moves.push(m);
  played = boardBox.contains(document.activeElement) ? document.activeElement : null;
  // The server says how the game stands after the agent's moves; after
  // the human's, only the human can have won, or filled the board.
  if (finish(resultOf(moves))) {
    render();
    return;
  }
  await agentMove();
}

function newGame() {
  moves = [];
  over = false;
  lastMove = "";
  status.classList.remove("over", "win", "tie", "loss");
  delete status.dataset.result;
  document.getElementById("thoughts").replaceChildren();
  document.getElementById("about").textContent = "What it thought";
  document.getElementById("reply").textContent = "";
  if (human === "X") {
    say(`Your move: you are X${game.drop ? " (yellow)" : ""} and move first.`);
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
  const list = board.agents.filter((a) => a.kind !== "random" && !a.pruned);
  if (!list.some((a) => refOf(a) === refOf(agent))) list.unshift(agent);
  if (!list.some((a) => a.kind === "random")) list.push(...board.agents.filter((a) => a.kind === "random"));
  pick.replaceChildren(
    ...list.map((a) => el("option", { value: refOf(a), selected: refOf(a) === refOf(agent), text: `${a.name}${a.class ? ` (${a.class})` : a.shares ? ` (${leadShare(a.shares).toFixed(1)}% opt)` : ""}` })),
  );
  pick.onchange = () => (location.href = playURL(pick.value, human));
}

// measured asks for the agent's figures again, every two seconds, until
// the server has measured them, and then shows its class: the board is
// there, and playable, meanwhile.
async function measured() {
  for (let a = agent; a.measuring; ) {
    await new Promise((done) => setTimeout(done, 2000));
    a = await api(`/api/agents/${encodeURIComponent(refOf(agent))}`);
    document.getElementById("class").replaceChildren(badge(a.class, a.shares, a.measuring));
  }
}

async function main() {
  for (const side of ["X", "O"]) {
    const b = document.getElementById(`side-${side.toLowerCase()}`);
    b.setAttribute("aria-pressed", side === human);
    b.onclick = () => (location.href = playURL(agent ? refOf(agent) : pathRef(), side));
  }
  // A new game takes the focus to the board, as a move does, so that the
  // arrows work at once: "New game" has it at a game's end.
  document.getElementById("new").onclick = () => {
    if (!agent || busy) return;
    toBoardNext = true;
    newGame();
  };
  try {
    [agent, game] = await Promise.all([api(`/api/agents/${encodeURIComponent(pathRef())}`), gameInfo()]);
  } catch (err) {
    showError(err);
    return;
  }
  view = game.drop ? views.drop : views.cells;
  // The board and the thoughts are laid out in the game's rows and
  // columns (style.css).
  const layout = document.querySelector(".play");
  layout.style.setProperty("--cols", game.cols);
  layout.style.setProperty("--rows", game.rows);
  document.getElementById("thoughts").classList.toggle("drop", game.drop);
  view.build(play);
  boardBox.addEventListener("keydown", arrows);
  // The skip link lands on the board's first free square or column.
  // Chromium activates a link on Enter's keydown, and the same key's
  // keypress then goes to whatever has the focus: a square focused by
  // the link would play. So the link's Enter is cancelled on its
  // keydown, and the focus moves on its keyup, once the keypress has
  // gone to the link; a click moves it at once.
  const skip = document.getElementById("skip");
  const toBoard = (e) => {
    const first = boardBox.querySelector("button:not([disabled])");
    if (!first) return;
    e.preventDefault();
    first.focus();
  };
  skip.onclick = toBoard;
  skip.addEventListener("keydown", (e) => e.key === "Enter" && e.preventDefault());
  skip.addEventListener("keyup", (e) => e.key === "Enter" && toBoard(e));
  if (game.drop) {
    document.getElementById("colours").replaceChildren("X", el("span", { class: "stone X", "aria-hidden": "true" }), "yellow, moves first; O", el("span", { class: "stone O", "aria-hidden": "true" }), "red");
  }
  boardBox.dataset.game = game.name;
  document.getElementById("help").textContent = `after each of its moves, as ttt play shows it: a policy network's move probabilities, a value network's expected score after each move, a table's value of the position after each move, perfect's game value of each move, random's chance of each ${game.move}; its choice outlined`;
  document.title = `Play ${agent.name} · ttt`;
  const link = document.getElementById("opponent");
  link.textContent = agent.name;
  link.href = agentURL(refOf(agent));
  document.getElementById("class").replaceChildren(badge(agent.class, agent.shares, agent.measuring));
  if (agent.measuring) measured().catch(showError);
  opponents().catch(showError);
  if (agent.pruned) {
    // Nothing can play it: the page says so, with its record's page,
    // and offers another opponent.
    over = true;
    render();
    say(`${agent.name}'s weights were dropped by ttt prune: it cannot play. `, true, el("a", { href: agentURL(agent.id), text: "its record" }), " remains; choose another opponent above.");
    status.dataset.pruned = "";
    return;
  }
  newGame();
}

main();
live();

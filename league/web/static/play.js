// The play page: a game against any stored agent, from either side. The
// server is stateless: each of the agent's moves is one request with the
// moves played so far (/api/agents/ID/move?moves=...), and its answer
// says how the game stands after that move.
import { api, el, fmt, badge, leadShare, agentURL, playURL, pathRef, live, showError, refOf } from "./common.js";

// A view draws one game's board, and knows of its rules what the page
// needs: where a move lands, and whether the human's move ended the game
// (after the agent's, the server says). Moves are kept as the API writes
// them, as people type them: a square 0-8, a column 1-7.
const views = {
  tictactoe: {
    name: "square",
    count: 9, // the moves there are: one thought each, in order
    label: (k) => String(k), // the k-th move, as typed
    lines: [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]],
    // marks is the board after moves: each square's mark or "".
    marks(moves) {
      const b = Array(9).fill("");
      moves.forEach((m, i) => (b[Number(m)] = i % 2 === 0 ? "X" : "O"));
      return b;
    },
    build(play) {
      this.cells = [];
      for (let sq = 0; sq < 9; sq++) {
        const cell = el("button", { class: "cell free", "data-sq": sq, onclick: () => play(String(sq)) }, el("span", { class: "n", "aria-hidden": "true" }), el("span", { "aria-hidden": "true" }));
        cell.disabled = true; // until the agent is known and the game begins
        this.cells.push(cell);
      }
      boardBox.className = "board";
      boardBox.replaceChildren(...this.cells);
    },
    won(b) {
      return this.lines.find((l) => b[l[0]] && b[l[0]] === b[l[1]] && b[l[1]] === b[l[2]]);
    },
    render(moves, open) {
      const b = this.marks(moves);
      const won = this.won(b) || [];
      const last = Number(moves[moves.length - 1]);
      this.cells.forEach((cell, sq) => {
        cell.className = `cell ${b[sq] || "free"}${sq === last ? " last" : ""}${won.includes(sq) ? " won" : ""}`;
        cell.firstChild.textContent = b[sq] ? "" : sq;
        cell.lastChild.textContent = b[sq];
        cell.disabled = !open || !!b[sq];
        // Read as what it is, where it is, and what it holds.
        const rows = ["top", "middle", "bottom"];
        const cols = ["left", "centre", "right"];
        cell.setAttribute("aria-label", `square ${sq}, ${rows[Math.floor(sq / 3)]} ${cols[sq % 3]}: ${b[sq] || "empty"}${won.includes(sq) ? ", in the winning line" : ""}`);
      });
    },
    legal(moves, m) {
      return !this.marks(moves)[Number(m)];
    },
    result(moves) {
      const b = this.marks(moves);
      const won = this.won(b);
      return won ? `${b[won[0]]} wins` : b.every((c) => c) ? "tie" : "ongoing";
    },
    // taken is what the agent's thoughts show of the move k that cannot
    // be played, null where it shows its number.
    taken(moves, k) {
      return this.marks(moves)[k] || null;
    },
  },

  // Connect Four: seven columns of six cells; a stone drops to the lowest
  // free cell of the column clicked.
  connect4: {
    name: "column",
    count: 7,
    label: (k) => String(k + 1),
    width: 7,
    height: 6,
    // grid is the board after moves: grid[col][row], row 0 the bottom,
    // each cell's mark or "", with where each move landed.
    grid(moves) {
      const g = Array.from({ length: this.width }, () => []);
      const landed = [];
      moves.forEach((m, i) => {
        const col = Number(m) - 1;
        landed.push([col, g[col].length]);
        g[col].push(i % 2 === 0 ? "X" : "O");
      });
      return { g, landed };
    },
    build(play) {
      this.columns = [];
      for (let col = 0; col < this.width; col++) {
        const discs = [];
        for (let row = this.height - 1; row >= 0; row--) discs.push(el("span", { class: "disc", "data-row": row }));
        const column = el("button", { class: "column", "data-col": col + 1, title: `column ${col + 1}`, onclick: () => play(String(col + 1)) }, ...discs, el("span", { class: "n", "aria-hidden": "true", text: col + 1 }));
        column.disabled = true;
        this.columns.push(column);
      }
      boardBox.className = "board c4";
      boardBox.replaceChildren(...this.columns);
    },
    // four is the four in a row through the cell (col, row), if its
    // mark has one: the cells to show as won.
    four(g, col, row) {
      const mark = g[col][row];
      for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        const line = [[col, row]];
        for (const s of [1, -1]) {
          for (let k = 1; ; k++) {
            const c = col + s * k * dc;
            const r = row + s * k * dr;
            if (c < 0 || c >= this.width || g[c][r] !== mark) break;
            line.push([c, r]);
          }
        }
        if (line.length >= 4) return line;
      }
      return null;
    },
    render(moves, open) {
      const { g, landed } = this.grid(moves);
      const last = landed[landed.length - 1];
      const won = last ? this.four(g, ...last) || [] : [];
      this.columns.forEach((column, col) => {
        for (const disc of column.querySelectorAll(".disc")) {
          const row = Number(disc.dataset.row);
          const mark = g[col][row] || "";
          const isLast = last && last[0] === col && last[1] === row;
          disc.className = `disc ${mark}${isLast ? " last" : ""}${won.some(([c, r]) => c === col && r === row) ? " won" : ""}`;
          // The stone falls from the top of its column.
          disc.style.setProperty("--fall", `${this.height - row}`);
        }
        column.disabled = !open || g[col].length === this.height;
        // Its stones from the bottom up, X yellow and O red.
        const stones = g[col].length ? `${g[col].join(" ")} from the bottom` : "empty";
        column.setAttribute("aria-label", `column ${col + 1}: ${stones}${g[col].length === this.height ? ", full" : ""}`);
      });
    },
    legal(moves, m) {
      return this.grid(moves).g[Number(m) - 1].length < this.height;
    },
    result(moves) {
      const { g, landed } = this.grid(moves);
      const last = landed[landed.length - 1];
      if (last && this.four(g, ...last)) return `${g[last[0]][last[1]]} wins`;
      return moves.length === this.width * this.height ? "tie" : "ongoing";
    },
    taken(moves, k) {
      return this.grid(moves).g[k].length === this.height ? "full" : null;
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
  const what = ans.values ? "the game value of each move for it" : agent.kind === "random" ? `the chance of each ${view.name}` : ans.probabilities ? "its move probabilities" : ans.expected ? `what it expects to score after each ${view.name}` : ans.table_values ? `the value it puts on the position after each ${view.name}` : null;
  document.getElementById("about").textContent = `${agent.name} plays ${ans.to_move} on ${view.name} ${ans.move}${what ? `; ${what}:` : "."}`;
  lastMove = `${agent.name} played ${view.name} ${ans.move}. `;
  if (!what) {
    document.getElementById("thoughts").replaceChildren(); // a player that searches shows nothing
    return;
  }
  const cells = [];
  for (let k = 0; k < view.count; k++) {
    const move = view.label(k);
    const taken = view.taken(before, k);
    if (taken) {
      cells.push(el("div", { class: "thought taken", text: taken }));
      continue;
    }
    const chosen = move === ans.move ? " chosen" : "";
    if (ans.values) {
      const v = ans.values[k];
      cells.push(el("div", { class: `thought ${v}${chosen}`, "data-move": move, text: v }));
      continue;
    }
    if (ans.table_values) {
      // On the table's own scale, not a share: no bar.
      cells.push(el("div", { class: `thought${chosen}`, "data-move": move, text: ans.table_values[k].toFixed(2) }));
      continue;
    }
    const p = (ans.probabilities || ans.expected)[k];
    cells.push(el("div", { class: `thought${chosen}`, "data-move": move, text: fmt.pct(p) }, el("span", { class: "bar", style: `width:${Math.min(100, 100 * p)}%` })));
  }
  document.getElementById("thoughts").replaceChildren(...cells);
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
  if (!agent || over || busy || toMove() !== human || !view.legal(moves, m)) return;
  moves.push(m);
  played = boardBox.contains(document.activeElement) ? document.activeElement : null;
  // The server says how the game stands after the agent's moves; after
  // the human's, only the human can have won, or filled the board.
  if (finish(view.result(moves))) {
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
  if (human === "X") {
    say(`Your move: you are X${view === views.connect4 ? " (yellow)" : ""} and move first.`);
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

async function main() {
  for (const side of ["X", "O"]) {
    const b = document.getElementById(`side-${side.toLowerCase()}`);
    b.setAttribute("aria-pressed", side === human);
    b.onclick = () => (location.href = playURL(agent ? refOf(agent) : pathRef(), side));
  }
  document.getElementById("new").onclick = () => agent && !busy && newGame();
  try {
    agent = await api(`/api/agents/${encodeURIComponent(pathRef())}`);
  } catch (err) {
    showError(err);
    return;
  }
  view = views[agent.game];
  view.build(play);
  if (agent.game === "connect4") {
    document.getElementById("colours").replaceChildren("X", el("span", { class: "stone X", "aria-hidden": "true" }), "yellow, moves first; O", el("span", { class: "stone O", "aria-hidden": "true" }), "red");
  }
  boardBox.dataset.game = agent.game;
  document.getElementById("thoughts").classList.toggle("c4", agent.game === "connect4");
  document.getElementById("help").textContent = `after each of its moves, as ttt play shows it: a policy network's move probabilities, a value network's expected score after each move, a table's value of the position after each move, perfect's game value of each move, random's chance of each ${view.name}; its choice outlined`;
  document.title = `Play ${agent.name} · ttt`;
  const link = document.getElementById("opponent");
  link.textContent = agent.name;
  link.href = agentURL(refOf(agent));
  document.getElementById("class").replaceChildren(badge(agent.class, agent.shares));
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

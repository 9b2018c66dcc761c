// Package league runs the self-play league of ttt: learners (networks or
// tables of values, one line for each method of Config.Learners) that
// take turns to train against themselves, their exploiter and random, a
// snapshot of the line after every round, matches between the snapshot
// and a bounded pool of the league's members, and maximum-likelihood Elo
// ratings kept up to date over all results.
//
// A league is built to run all night: every part of a round costs the
// same, in time, memory and disk, whether the league holds a hundred
// checkpoints or a hundred thousand. A snapshot plays a pool of at most
// Config.Opponents members (pool.go), the ratings move only where the
// new results move them (league/elo's incremental fit), the history gets
// a row only for a rating that moved, and the members' move tables are
// loaded on demand into a bounded cache.
//
// # Words
//
// One word for each idea, here and in the commands' output:
//
//   - agent: a player the league stores and rates (store.Agent; Agent as
//     the league plays it); its kind (store.Kind) says what it is: a
//     built-in player (of one of the kinds agents names), a learned model
//     (checkpoint, baseline, imported), or a searched agent (a model with
//     a search around it, best@ab8).
//   - built-in player: one of the players every league of a game has from
//     its creation (agents.Builtin): random, perfect, the tactician, the
//     MCTS ladder, the solver. Each is held at its value on the game's
//     scale: the anchors.
//   - kit: a game and what ttt knows of playing it (agents.Kit).
//   - method: a way of learning (policy, tdlambda, table, selfplay-table,
//     ntuple); learner: a method's model while it learns; model: what a
//     learner has learned, frozen; line: the learner of one method in a
//     league and the checkpoints it leaves (package learn).
//   - snapshot: the frozen model a round makes of the line that trained;
//     committed with the round, it is a checkpoint.
//   - round: train a line, snapshot it, evaluate, rate, commit; a round's
//     commit is all of it or nothing.
//   - member: an agent as the league keeps it between rounds (its kind,
//     round and rating); entrant: an agent that plays its pool this round
//     (the snapshot, and the agents added since the last round);
//     contestant: an agent as evaluation plays it (a player for each
//     game, or its move table).
//   - pool: the opponents an entrant plays once each before it is rated;
//     match: an entrant against one opponent, over every opening of a few
//     moves in both colours; opening: the first moves of a match's games.
//   - ladder: the built-in players of fixed strength that take long to
//     move (the MCTS players, the solver); rung: one of them.
//   - best: the network of the highest class, then the highest lower end
//     of its rating's 95% interval, then the newest (best.go): one rule,
//     the league's, which the commands, the API and the pages all ask.
//   - move table: a deterministic player's move in every position where
//     a move is due (tic-tac-toe), which the league plays in its place;
//     table of values: the model of the table learners. Neither is called
//     a table alone where the other could be meant.
package league

package commands_test

import (
	"slices"
	"strings"
	"testing"

	"ttt/league/commands"
	"ttt/league/commands/clitest"
)

// Every command answers a wrong command line with exit status 2 and one
// line: an unknown flag, a missing or extra argument, a missing required
// flag, a flag value out of range; and a failure of the work itself with
// 1. Nothing refused changes the directory. The walk covers every
// command the program has: a command added without a case here fails.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	p := smallLeague(t)

	// A wrong command line of each command: its arguments, or a flag it
	// cannot do without.
	wrong := map[string]struct {
		want string
		args []string
	}{
		"league":          {`league: unknown command "walk"`, []string{"league", "walk"}},
		"league run":      {`league run: takes no arguments, got "x"`, []string{"league", "run", "x"}},
		"league show":     {`league show: takes no arguments, got "x"`, []string{"league", "show", "x"}},
		"ratings":         {`ratings: unknown command "x"`, []string{"ratings", "x"}},
		"ratings history": {`ratings history: takes no arguments, got "x"`, []string{"ratings", "history", "x"}},
		"ratings plot":    {"ratings plot: say where the plot goes: -o FILE.svg or -o FILE.png", []string{"ratings", "plot"}},
		"ratings refit":   {`ratings refit: takes no arguments, got "x"`, []string{"ratings", "refit", "x"}},
		"rounds":          {`rounds: takes no arguments, got "x"`, []string{"rounds", "x"}},
		"train":           {"train: say where the model goes: -o FILE and/or --db FILE", []string{"train"}},
		"verify":          {"verify: needs FILE|ID|NAME|best|latest", []string{"verify"}},
		"analyze":         {"analyze: needs MOVES", []string{"analyze"}},
		"checkpoints":     {`checkpoints: takes no arguments, got "x"`, []string{"checkpoints", "x"}},
		"show":            {"show: needs ID|NAME|best|latest", []string{"show"}},
		"play":            {`play: takes no arguments, got "4"`, []string{"play", "4"}},
		"export":          {`export: takes no arguments, got "best"`, []string{"export", "best"}},
		"import":          {"import: needs FILE", []string{"import"}},
		"games":           {`games: unknown command "x"`, []string{"games", "x"}},
		"games export":    {"games export: say where the games go: --pgn FILE", []string{"games", "export"}},
		"roundrobin":      {"roundrobin: name two agents or more", []string{"roundrobin", "best"}},
		"compare":         {"compare: needs AGENT", []string{"compare", "best"}},
		"check":           {`check: takes no arguments, got "x"`, []string{"check", "x"}},
		"prune":           {`prune: takes no arguments, got "x"`, []string{"prune", "x"}},
		"upgrade":         {`upgrade: takes no arguments, got "x"`, []string{"upgrade", "x"}},
		"serve":           {`serve: takes no arguments, got "x"`, []string{"serve", "x"}},
		"help":            {`unknown command "nosuch"`, []string{"help", "nosuch"}},
	}
	before := clitest.Snapshot(t, p.Dir)
	cmds := commands.CommandFlags()
	for cmd := range cmds {
		words := strings.Fields(cmd)
		p.Usage(t, cmd+": unknown flag --no-such-flag", append(slices.Clone(words), "--no-such-flag")...)
		c, ok := wrong[cmd]
		if !ok {
			t.Errorf("ttt %s: no wrong command line to try", cmd)
			continue
		}
		p.Usage(t, c.want, c.args...)
	}
	for cmd := range wrong {
		if _, ok := cmds[cmd]; !ok {
			t.Errorf("ttt %s: no such command", cmd)
		}
	}

	// Flag values out of range, each one line and 2.
	for _, c := range []struct {
		want string
		args []string
	}{
		{"league run: --rounds must not be negative (got -1)", []string{"league", "run", "--rounds", "-1"}},
		{"league run: --games-per-round must be at most 1000000000", []string{"league", "run", "--games-per-round", "2000000000"}},
		{`league run: --game: unknown game "chess"`, []string{"league", "run", "--game", "chess", "--db", "chess.db"}},
		{`export: --side: side must be X or O, not "Q"`, []string{"export", "--side", "Q", "-o", "x.bin"}},
		{`verify: --side: side must be X or O, not "Q"`, []string{"verify", "--side", "Q", "net.bin"}},
		{`train: --side: side must be X or O, not "Q"`, []string{"train", "--side", "Q", "-o", "x.bin", "--games", "10"}},
		{`train: --until must be perfect or unbeatable (got "soon")`, []string{"train", "--until", "soon", "-o", "x.bin"}},
		{"train: --check-every must be at least 1 (got 0)", []string{"train", "--until", "perfect", "--check-every", "0", "-o", "x.bin"}},
		{`train: --method must be one of policy, tdlambda, table, selfplay-table, ntuple, conv, lines (got "minimax")`, []string{"train", "--method", "minimax", "-o", "x.bin"}},
		{"train: --lr, the selfplay-table learner's step size, must be within (0, 1] (got 2)", []string{"train", "--method", "selfplay-table", "--lr", "2", "-o", "x.bin"}},
		{"league run: --learners mcts: MCTS does not learn", []string{"league", "run", "--learners", "mcts", "--db", "mcts.db", "--rounds", "1"}},
		{"train: --method mcts: MCTS does not learn", []string{"train", "--method", "mcts", "-o", "mcts.bin"}},
		{"league run: --learners policy,policy: policy is named twice", []string{"league", "run", "--learners", "policy,policy", "--db", "twice.db", "--rounds", "1"}},
		{"league run: --learners selfplay-table: a table of values cannot hold the positions of Connect Four", []string{"league", "run", "--game", "connect4", "--db", "c4.db", "--learners", "selfplay-table"}},
		{`play: --as: side must be X or O, not "Q"`, []string{"play", "--as", "Q"}},
		{"play: takes --checkpoint or --file, not both", []string{"play", "--file", "net.bin", "--checkpoint", "3"}},
		{"ratings: --limit must be at least 1 (got 0)", []string{"ratings", "--limit", "0"}},
		{"rounds: --limit must be at least 1 (got 0)", []string{"rounds", "--limit", "0"}},
		{"checkpoints: --limit must be at least 1 (got 0)", []string{"checkpoints", "--limit", "0"}},
		{`ratings: --format must be table, csv or json (got "xml")`, []string{"ratings", "--format", "xml"}},
		{"games export: --rounds 5-3: want A-B with A at most B", []string{"games", "export", "--pgn", "-", "--rounds", "5-3"}},
		{"ratings plot: -o x.gif: the file must end in .svg or .png", []string{"ratings", "plot", "-o", "x.gif"}},
		{"check: --sample must be at least 1 (got 0)", []string{"check", "--sample", "0"}},
		{"check: --ratings replays no match: --sample goes without it", []string{"check", "--ratings", "--sample", "5"}},
		{`analyze: --game: unknown game "chess"`, []string{"analyze", "--game", "chess", "4"}},
		{`analyze: moves "0314258": move 6 (5): the game is over`, []string{"analyze", "0314258"}},
		{`analyze: moves "4x": "x" is not a square: type 0 to 8`, []string{"analyze", "4x"}},
	} {
		p.Usage(t, c.want, c.args...)
	}

	// Failures of the work: exit 1.
	for _, c := range []struct {
		want string
		args []string
	}{
		{`no such agent: "nobody"`, []string{"show", "nobody"}},
		{"no league database at missing.db", []string{"ratings", "--db", "missing.db"}},
		{"cannot read the model", []string{"import", "missing.bin"}},
	} {
		p.Refused(t, c.want, c.args...)
	}
	if after := clitest.Snapshot(t, p.Dir); after != before {
		t.Errorf("refused commands changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}

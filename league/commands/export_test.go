package commands

import (
	"context"
	"io"
	"math/rand/v2"

	"ttt/agents/game"
	"ttt/agents/verify"
	"ttt/store"
)

// PlayGames runs the game loop of ttt play against agent a, as the command
// does on a pipe: the human's lines come from in and are echoed to out.
// Random's moves come from a generator seeded with seed.
func PlayGames(in io.Reader, out io.Writer, a *store.Agent, human game.Side, seed uint64) (verify.Tally, error) {
	return playGames(context.Background(), in, out, true, newRival(a, rand.New(rand.NewPCG(seed, 0))), human)
}

// ParseMove reads a line typed at the move prompt; ErrQuit is its answer
// to q.
var ParseMove, ErrQuit = parseMove, errQuit

// SeriesColors and RandomColor are the colours of the plotted series.
var SeriesColors, RandomColor = seriesColors, randomColor

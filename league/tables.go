package league

import (
	"context"
	"fmt"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"ttt/agents"
	"ttt/store"
)

// tables loads the move tables of a league's agents on demand and keeps
// the most recently used: a league at 100,000 checkpoints cannot hold them
// all, and needs a few dozen per round.
type tables struct {
	db              *store.DB
	random, perfect int64
	cache           *lru.Cache[int64, player]
}

// tableCache is how many move tables are kept in memory: 2,048 of 4,520
// bytes, 9 MB. A pool reads a few dozen, the recent and top ones again
// and again; the rest load in microseconds from the database.
const tableCache = 2048

// newTables returns the tables of db's agents, whose random and perfect
// players have the ids given.
func newTables(db *store.DB, random, perfect int64) *tables {
	cache, _ := lru.New[int64, player](tableCache) // the size is positive
	return &tables{db: db, random: random, perfect: perfect, cache: cache}
}

// add keeps p as the table of agent id.
func (t *tables) add(id int64, p player) { t.cache.Add(id, p) }

// get returns the move tables of the agents ids (nil for random), from
// the cache or else from the database: the stored table, or for a
// network stored without one (an agent of schema 1), the table of its
// weights.
func (t *tables) get(ctx context.Context, ids []int64) (map[int64]player, error) {
	out := make(map[int64]player, len(ids))
	var missing []int64
	for _, id := range ids {
		switch p, ok := t.cache.Get(id); {
		case ok:
			out[id] = p
		case id == t.random:
			out[id] = nil
		case id == t.perfect:
			out[id] = perfectPlayer()
		default:
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	stored, err := t.db.Moves(ctx, missing)
	if err != nil {
		return nil, err
	}
	var computed []int64
	for _, id := range missing {
		p := player(stored[id])
		if p == nil {
			computed = append(computed, id)
			continue
		}
		if !p.valid() {
			return nil, fmt.Errorf("agent %d: its stored move table is not one this ttt can play", id)
		}
		out[id] = p
		t.cache.Add(id, p)
	}
	if len(computed) > 0 {
		nets, err := t.db.Nets(ctx, computed)
		if err != nil {
			return nil, err
		}
		for _, id := range computed {
			net, ok := nets[id]
			if !ok {
				return nil, fmt.Errorf("agent %d is not a network", id)
			}
			p := compile(net.Table())
			out[id] = p
			t.cache.Add(id, p)
		}
	}
	return out, nil
}

// perfectPlayer is the perfect player, compiled once.
var perfectPlayer = sync.OnceValue(func() player { return compile(agents.Perfect()) })

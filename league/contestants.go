package league

import (
	"context"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"

	"ttt/agents"
	"ttt/agents/learn"
	"ttt/store"
)

// contestants loads a league's agents as evaluation plays them, on
// demand, and keeps the most recently used: a league at 100,000
// checkpoints cannot hold them all, and needs a few dozen per round.
type contestants struct {
	db       *store.DB
	kit      *agents.Kit
	builtins map[int64]agents.Builtin // by id
	cache    *lru.Cache[int64, contestant]
	size     int // the cache's size
}

// contestantCache is how many contestants are kept in memory: 2,048
// tic-tac-toe move tables of 4,520 bytes are 9 MB, and as many Connect
// Four networks of 100 hidden units 76 MB. A pool reads a few dozen, the
// recent and top ones again and again; the rest load in milliseconds
// from the database. Larger models, such as n-tuple networks of tens of
// megabytes, are kept within cacheBytes: fewer of them (never fewer
// than minCache, a pool's worth).
const (
	contestantCache = 2048
	cacheBytes      = 1 << 29 // 512 MB
	minCache        = 16
)

// newContestants returns the contestants of db's agents, which play kit's
// game.
func newContestants(ctx context.Context, db *store.DB, kit *agents.Kit) (*contestants, error) {
	names, err := db.Builtins(ctx)
	if err != nil {
		return nil, err
	}
	c := &contestants{db: db, kit: kit, builtins: map[int64]agents.Builtin{}}
	for id, name := range names {
		b, ok := kit.Builtin(name)
		if !ok {
			return nil, fmt.Errorf("agent %d, %s, is a built-in player that this ttt does not have for %s", id, name, kit.Title())
		}
		c.builtins[id] = b
	}
	c.cache, _ = lru.New[int64, contestant](contestantCache) // the size is positive
	c.size = contestantCache
	return c, nil
}

// random returns the id of the random player, the scale's 0, or 0 when
// the league has none.
func (c *contestants) random() int64 {
	for id, b := range c.builtins {
		if b.Kind == agents.Random {
			return id
		}
	}
	return 0
}

// add keeps c as the contestant of agent id.
func (c *contestants) add(id int64, con contestant) { c.cache.Add(id, con) }

// get returns the contestants ids, from the cache or else from the
// database: a built-in player, a stored move table, or a network's
// weights (a network of a game without tables, or one stored without its
// table by schema 1).
func (c *contestants) get(ctx context.Context, ids []int64) (map[int64]contestant, error) {
	out := make(map[int64]contestant, len(ids))
	var missing []int64
	for _, id := range ids {
		if con, ok := c.cache.Get(id); ok {
			out[id] = con
		} else if b, ok := c.builtins[id]; ok {
			out[id] = contestant{player: b.New, random: b.Random}
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	var nets []int64
	if c.kit.Compiled != nil {
		stored, err := c.db.Compiled(ctx, missing)
		if err != nil {
			return nil, err
		}
		for _, id := range missing {
			if stored[id] == nil {
				nets = append(nets, id)
				continue
			}
			p, err := c.kit.Compiled(stored[id])
			if err != nil {
				return nil, fmt.Errorf("agent %d: its stored move table: %w", id, err)
			}
			out[id] = fixed(p)
			c.cache.Add(id, out[id])
		}
	} else {
		nets = missing
	}
	if len(nets) > 0 {
		stored, err := c.db.Models(ctx, nets)
		if err != nil {
			return nil, err
		}
		for _, id := range nets {
			s, ok := stored[id]
			if !ok {
				return nil, fmt.Errorf("agent %d has no model to play: %w", id, store.ErrPruned)
			}
			m, err := decode(c.kit, s)
			if err != nil {
				return nil, fmt.Errorf("agent %d: stored weights: %w", id, err)
			}
			out[id] = c.ofModel(m)
			c.cache.Add(id, out[id])
		}
	}
	return out, nil
}

// ofModel returns the contestant that plays m: its compiled table where
// the game has tables, else the model itself, a player per game, which
// the cache then keeps fewer of if m is large.
func (c *contestants) ofModel(m learn.Model) contestant {
	if c.kit.Compile != nil {
		p, _ := c.kit.Compiled(c.kit.Compile(m.Player())) // a model's table is a table
		return fixed(p)
	}
	c.fit(m)
	return modelContestant(m)
}

// fit shrinks the cache, if need be, so that it holds no more than
// cacheBytes of models as large as m (four bytes a weight).
func (c *contestants) fit(m learn.Model) {
	if n := max(minCache, int(cacheBytes/(4*int64(max(m.Size(), 1))))); n < c.size {
		c.size = n
		c.cache.Resize(n)
	}
}

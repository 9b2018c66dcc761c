package league

import (
	"context"
	"slices"
	"time"

	"ttt/store"
)

// RoundRobin plays every pair among the agents ids that has not played
// yet, once, as the league plays a pairing (every opening of
// cfg.Openings moves in both colours, seeded from cfg.Seed), stores them
// as one round of its own and rates them: the ratings move as a league
// round moves them. It returns the round, or 0 when every pair had
// played. The caller holds db's league lock.
//
// A league rates each checkpoint from a pool of opponents; a full
// round-robin among chosen agents is the reference those ratings can be
// checked against, and the crosstable a reader wants of the few best.
func RoundRobin(ctx context.Context, db *store.DB, ids []int64, cfg Config) (int64, error) {
	lg, _, err := open(ctx, db, cfg, nil)
	if err != nil {
		return 0, err
	}
	begun := time.Now()
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	var pairs [][2]int64
	for i, a := range ids {
		for _, b := range ids[:i] {
			pairs = append(pairs, [2]int64{a, b})
		}
	}
	played, err := db.PairRecords(ctx, pairs)
	if err != nil {
		return 0, err
	}
	cons, err := lg.contestants.get(ctx, ids)
	if err != nil {
		return 0, err
	}
	var list []pairing
	for _, p := range pairs {
		if _, ok := played[p]; !ok {
			list = append(list, pairing{a: p[0], b: p[1], ca: cons[p[0]], cb: cons[p[1]]})
		}
	}
	if len(list) == 0 {
		return 0, nil
	}
	number := lg.lastRound + 1
	matches, err := lg.play(ctx, number, list, 0, nil)
	if err != nil {
		return 0, err
	}
	evalTime := time.Since(begun)
	fit, err := lg.rate(matches)
	if err != nil {
		return 0, err
	}
	r := &store.Round{Kind: store.RobinRound, Started: begun, Matches: matches, Updates: fit.updates, History: fit.history, Fits: fit.fits,
		Stats: store.RoundStats{EvalGames: evalGames(matches), EvalTime: evalTime,
			FitSteps: fit.settled.Steps, FitPending: fit.settled.Pending}}
	r.Finished = time.Now()
	if err := db.CommitRound(ctx, r); err != nil {
		return 0, err
	}
	return r.ID, nil
}

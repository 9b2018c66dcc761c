package store

import (
	"cmp"
	"slices"

	"ttt/agents/game"
)

// RankRow is a history row of a network whose standing has a class: the
// round, the network, its class and the low end of its interval after
// the round. The league's best rule orders networks by these alone, so
// the rows replayed in round order give the best at the end of every
// round (league.BestHistory), with no table of their own.
type RankRow struct {
	Round, Agent int64
	Class        game.Class
	Lo           float64
}

// RankRows returns the RankRows of the rounds after round, oldest round
// first, and the newest round. The history has no index by round: the
// standings say which networks have rows since (a standing's round is
// its newest row's, or later), and each one's rows are read through its
// own.
func (v *View) RankRows(after int64) (list []RankRow, newest int64, err error) {
	rows, err := v.tx.QueryContext(v.ctx, "SELECT agent_id, class FROM standings WHERE round_id > ? AND class IS NOT NULL", after)
	if err != nil {
		return nil, 0, err
	}
	classes := map[int64]game.Class{}
	for rows.Next() {
		var id int64
		var class game.Class
		if err := rows.Scan(&id, &class); err != nil {
			rows.Close()
			return nil, 0, err
		}
		classes[id] = class
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	for id, class := range classes {
		rs, err := v.tx.QueryContext(v.ctx, "SELECT round_id, lo FROM history WHERE agent_id = ? AND round_id > ?", id, after)
		if err != nil {
			return nil, 0, err
		}
		for rs.Next() {
			r := RankRow{Agent: id, Class: class}
			if err := rs.Scan(&r.Round, &r.Lo); err != nil {
				rs.Close()
				return nil, 0, err
			}
			list = append(list, r)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return nil, 0, err
		}
	}
	slices.SortFunc(list, func(a, b RankRow) int { return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Agent, b.Agent)) })
	if err := v.tx.QueryRowContext(v.ctx, "SELECT coalesce(max(id), 0) FROM rounds").Scan(&newest); err != nil {
		return nil, 0, err
	}
	return list, newest, nil
}

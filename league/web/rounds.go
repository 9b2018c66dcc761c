package web

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"ttt/league"
	"ttt/store"
)

// bestHistory is the league's best round by round, as the server has
// read it from the rating history (league.BestHistory): the first answer
// reads the whole history, each later one the rounds since.
type bestHistory struct {
	mu sync.Mutex
	h  *league.BestHistory
}

// update reads the rounds since the last it read, and returns the
// changes of the best, oldest first.
func (b *bestHistory) update(v *store.View) ([]league.BestChange, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.h == nil {
		b.h = league.NewBestHistory()
	}
	if err := b.h.Update(v); err != nil {
		b.h = nil // read again from the start, rather than half a round
		return nil, err
	}
	return slices.Clone(b.h.Changes), nil
}

// roundRow is a round of the dashboard's table: when it ran, its games
// and their speeds, its snapshot, and the network that became the best
// at its end, if the best changed.
type roundRow struct {
	Round        int64      `json:"round"`
	Kind         string     `json:"kind"`
	Started      time.Time  `json:"started"`
	Finished     *time.Time `json:"finished"` // null where it is unknown (rounds of schema 1)
	Seconds      *float64   `json:"seconds"`  // from its start to its end
	TrainGames   int        `json:"train_games"`
	TrainSeconds float64    `json:"train_seconds"`
	EvalGames    int        `json:"eval_games"`
	EvalSeconds  float64    `json:"eval_seconds"`
	Cores        *float64   `json:"cores"` // the cores it kept busy; null where it was not measured
	Snapshot     *agentRef  `json:"snapshot"`
	Best         *agentRef  `json:"best"` // the new best, where the best changed at its end
}

// bestChange is a change of the league's best: the round at whose end
// it changed, when that round finished, and the new best.
type bestChange struct {
	Round    int64      `json:"round"`
	Finished *time.Time `json:"finished"`
	Agent    agentRef   `json:"agent"`
}

// runInfo is a run of ttt league run: when it started, the deadline of
// a run of --duration (its start and the duration: it starts no round
// after), its --rounds, its workers, its --search, when it ended, and
// what it is doing, as it last wrote it.
type runInfo struct {
	Started  time.Time  `json:"started"`
	Deadline *time.Time `json:"deadline"` // null without --duration
	Rounds   *int       `json:"rounds"`   // null without --rounds
	Workers  int        `json:"workers"`
	Search   *string    `json:"search"` // null without --search
	Ended    *time.Time `json:"ended"`  // null while it runs, and for a run that was killed
	// Progress is what the run is doing (the training of a round, the
	// evaluation of one, the best's ladder games), each part with its
	// round, done, total and since, as the run wrote it at ProgressAt
	// (every few seconds); null before its first write and after its
	// end, and from a run that was killed, whatever it last wrote.
	Progress   json.RawMessage `json:"progress"`
	ProgressAt *time.Time      `json:"progress_at"`
}

// runInfoOf is r as the answer has it; nil for none.
func runInfoOf(r *store.Run) *runInfo {
	if r == nil {
		return nil
	}
	out := &runInfo{Started: r.Started, Workers: r.Workers}
	if !r.Deadline.IsZero() {
		out.Deadline = &r.Deadline
	}
	if r.Rounds > 0 {
		out.Rounds = &r.Rounds
	}
	if !r.Ended.IsZero() {
		out.Ended = &r.Ended
	}
	if r.Search != "" {
		out.Search = &r.Search
	}
	if r.Progress != nil && !r.ProgressAt.IsZero() {
		out.Progress, out.ProgressAt = r.Progress, &r.ProgressAt
	}
	return out
}

// maxChanges is the most changes of the best an answer lists, the newest.
const maxChanges = 100

// roundTable answers GET /api/rounds?limit=N: the newest N rounds (20
// unless said), newest first, with their durations, games and speeds and
// where the best changed; the changes of the league's best, the newest
// first (100 at most, with their count), read back from the rating
// history, so that a restarted server has them all; the league's
// settings; and its last run, the one under way if a run is.
func (s *Server) roundTable(w http.ResponseWriter, r *http.Request, o *opened) {
	limit, err := limitParam(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	var (
		newest  int64
		total   int // changes of the best
		list    []store.RoundInfo
		changes []league.BestChange
		names   = map[int64]store.AgentName{}
		stored  map[string]string
		run     *store.Run
		ended   map[int64]time.Time // when the changes' rounds finished
	)
	ok := s.view(w, r, o, func(v *store.View) (err error) {
		if newest, err = v.NewestRound(); err != nil {
			return err
		}
		if stored, err = v.Settings(); err != nil {
			return err
		}
		if run, err = v.LastRun(); err != nil {
			return err
		}
		if list, err = v.Rounds(max(1, newest-int64(limit)+1), newest); err != nil {
			return err
		}
		if changes, err = o.bestHistory.update(v); err != nil {
			return err
		}
		total = len(changes)
		changes = changes[max(0, total-maxChanges):]
		var ids []int64
		for _, c := range changes {
			ids = append(ids, c.Agent)
		}
		for _, r := range list {
			if r.Snapshot != 0 {
				ids = append(ids, r.Snapshot)
			}
		}
		for _, id := range ids {
			if _, ok := names[id]; !ok {
				if names[id], err = v.Name(strconv.FormatInt(id, 10)); err != nil {
					return err
				}
			}
		}
		// When each change's round finished.
		rounds := make([]int64, len(changes))
		for i, c := range changes {
			rounds[i] = c.Round
		}
		ended, err = v.Finished(rounds)
		return err
	})
	if !ok {
		return
	}
	ref := func(id int64) *agentRef {
		n := names[id]
		return &agentRef{ID: n.ID, Name: n.Name, Kind: n.Kind}
	}
	changedAt := map[int64]int64{}
	for _, c := range changes {
		changedAt[c.Round] = c.Agent
	}
	out := struct {
		NewestRound int64        `json:"newest_round"`
		Rounds      []roundRow   `json:"rounds"`
		BestChanges []bestChange `json:"best_changes"`
		// Changes is how many times the best changed in the whole
		// league; BestChanges lists the newest of them.
		Changes int `json:"changes"`
		// Settings are the league's, as its last run stored them (ttt
		// league show has them as flags): empty before a run.
		Settings map[string]string `json:"settings"`
		// Run is the league's last run of ttt league run, the one under
		// way if a run is (/api/health says whether one is): null before
		// a run of this ttt.
		Run *runInfo `json:"run"`
	}{NewestRound: newest, Rounds: []roundRow{}, BestChanges: []bestChange{}, Changes: total, Settings: stored, Run: runInfoOf(run)}
	for _, r := range slices.Backward(list) {
		row := roundRow{Round: r.ID, Kind: string(r.Kind), Started: r.Started}
		if !r.Finished.IsZero() {
			f, d := r.Finished, r.Finished.Sub(r.Started).Seconds()
			row.Finished, row.Seconds = &f, &d
		}
		if st := r.Stats; st != nil {
			row.TrainGames, row.TrainSeconds, row.EvalGames, row.EvalSeconds = st.TrainGames, st.TrainTime.Seconds(), st.EvalGames, st.EvalTime.Seconds()
			if st.Cores > 0 {
				cores := st.Cores
				row.Cores = &cores
			}
		}
		if r.Snapshot != 0 {
			row.Snapshot = ref(r.Snapshot)
		}
		if id, ok := changedAt[r.ID]; ok {
			row.Best = ref(id)
		}
		out.Rounds = append(out.Rounds, row)
	}
	for _, c := range slices.Backward(changes) {
		bc := bestChange{Round: c.Round, Agent: *ref(c.Agent)}
		if f := ended[c.Round]; !f.IsZero() {
			bc.Finished = &f
		}
		out.BestChanges = append(out.BestChanges, bc)
	}
	writeJSON(w, r, out)
}

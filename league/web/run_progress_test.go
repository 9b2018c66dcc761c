package web_test

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"ttt/league/commands/clitest"
)

// TestRunProgress reads a league run at work through the API: its
// --search, and what it is doing as it writes it into the league, the
// round training with its games and since when; the pace of the last
// rounds, which it names, and the last round's length. A run's end
// clears its progress.
func TestRunProgress(t *testing.T) {
	_, path := newLeague(t, 2)
	_, url := serve(t, path)
	var health struct {
		PaceRounds  []int64  `json:"pace_rounds"`
		LastSeconds *float64 `json:"last_seconds"`
	}
	getJSON(t, url+"api/health", &health)
	if len(health.PaceRounds) != 2 || health.PaceRounds[0] != 1 || health.PaceRounds[1] != 2 || health.LastSeconds == nil || *health.LastSeconds <= 0 {
		t.Errorf("the health's pace is of rounds %v, the last round took %v; want rounds 1-2 and a time", health.PaceRounds, health.LastSeconds)
	}

	run := clitest.TTT{Dir: filepath.Dir(path)}.Start(t, "league", "run", "--db", path, "--games-per-round", "3000000", "--search", "ab1", "--heartbeat", "200ms")
	type part struct {
		Round       int64
		Done, Total int
		Since       time.Time
	}
	var rounds struct {
		Run struct {
			Search   *string
			Ended    *time.Time
			Progress *struct{ Training *part }
		}
	}
	end := time.Now().Add(clitest.Patience(t))
	for {
		getJSON(t, url+"api/rounds?limit=1", &rounds)
		if p := rounds.Run.Progress; p != nil && p.Training != nil && p.Training.Done > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the run at work says it is doing %+v", rounds.Run.Progress)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tr := rounds.Run.Progress.Training
	if tr.Round != 3 || tr.Total != 3000000 || tr.Done > tr.Total || tr.Since.IsZero() || time.Since(tr.Since) < 0 {
		t.Errorf("the run at work is training %+v; want round 3, k of 3,000,000 games, since a moment ago", *tr)
	}
	if s := rounds.Run.Search; s == nil || *s != "ab1" {
		t.Errorf("the run's search is %v; want ab1", s)
	}
	if _, stderr, code := run.Stop(t, syscall.SIGINT); code != 130 {
		t.Fatalf("league run: exit %d after Ctrl-C\n%s", code, stderr)
	}
	getJSON(t, url+"api/rounds?limit=1", &rounds)
	if rounds.Run.Ended == nil || rounds.Run.Progress != nil {
		t.Errorf("after the run's end: ended %v, progress %+v; want an end and no progress", rounds.Run.Ended, rounds.Run.Progress)
	}
}

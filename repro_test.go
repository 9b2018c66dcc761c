package main_test

import (
	"strings"
	"testing"
)

// The same seed and flags give byte-identical ratings and rating history
// whatever the number of workers: evaluation games are seeded by match,
// not by the goroutine that plays them. (Rounds are shorter here than by
// default so that the test stays quick under -race; the rounds' number
// and the flags are otherwise as a user would give them.)
func TestLeagueSameForAnyWorkers(t *testing.T) {
	p := buildTTT(t)
	outputs := map[string][2]string{}
	for _, workers := range []string{"1", "2"} {
		db := "w" + workers + ".db"
		p.ok(t, "league", "run", "--db", db, "--rounds", "10", "--seed", "7", "--games-per-round", "2000", "--workers", workers)
		outputs[workers] = [2]string{
			p.ok(t, "ratings", "--db", db, "--format", "csv"),
			p.ok(t, "ratings", "history", "--db", db, "--format", "csv"),
		}
	}
	one, two := outputs["1"], outputs["2"]
	for i, what := range []string{"ratings", "ratings history"} {
		if one[i] != two[i] {
			t.Errorf("%s differ between 1 and 2 workers:\n%s\n---\n%s", what, one[i], two[i])
		}
	}
	// Ten rounds: ten checkpoints, each rated in every round from its own.
	if n := strings.Count(one[0], "checkpoint-"); n != 10 {
		t.Errorf("ratings list %d checkpoints, want 10:\n%s", n, one[0])
	}
	if rows := strings.Count(one[1], "\n") - 1; rows < 10*2 {
		t.Errorf("history has %d rows, want at least one for random and perfect each round", rows)
	}
}

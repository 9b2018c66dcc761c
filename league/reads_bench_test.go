package league_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ttt/league"
	"ttt/league/commands"
	"ttt/store"
)

// BenchmarkNightReads times the commands a user runs in the morning, each
// through the command line in-process, on the built leagues of
// BenchmarkNight (1,000, 10,000 and 100,000 checkpoints, kept in
// $TTT_BENCH_DIR), and reports each one's median and slowest run in ms:
// the goal is 200 ms at most at 100,000 checkpoints.
//
//	TTT_BENCH_DIR=/var/tmp go test ./league -run '^$' -bench NightReads -benchtime 20x -timeout 2h
//
// A whole league's games are gigabytes of PGN, so games export is timed
// for one round's games and for the newest checkpoint's.
//
// A Connect Four night is timed on a real one, which takes a night to
// make: with TTT_NIGHT_DB naming the file of a league run (copied first,
// so that the benchmark never touches the night's own file; a league run
// that has ended, whose file holds all it wrote),
//
//	go run . league run --game connect4 --duration 8h --db night.db
//	TTT_NIGHT_DB=$PWD/night.db go test ./league -run '^$' -bench 'NightReads/night' -benchtime 20x
func BenchmarkNightReads(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("checkpoints=%d", n), func(b *testing.B) {
			morning(b, league.NightLeague(b, n))
		})
	}
	b.Run("night", func(b *testing.B) {
		night := os.Getenv("TTT_NIGHT_DB")
		if night == "" {
			b.Skip("TTT_NIGHT_DB names no league")
		}
		morning(b, league.CopyFile(b, night, filepath.Join(b.TempDir(), "night.db")))
	})
}

// morning times the morning's commands on the league at db.
func morning(b *testing.B, db string) {
	n, err := latestRound(db)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "best.bin")
	mid := strconv.FormatInt(n/2, 10)
	last := strconv.FormatInt(n, 10)
	for _, r := range []struct {
		name  string
		input string
		args  []string
	}{
		{"ratings", "", []string{"ratings"}},
		{"ratings-limit-100", "", []string{"ratings", "--limit", "100"}},
		{"checkpoints", "", []string{"checkpoints"}},
		{"checkpoints-after", "", []string{"checkpoints", "--after", mid}},
		{"show-best", "", []string{"show", "best"}},
		{"show-mid", "", []string{"show", mid}},
		{"history-best", "", []string{"ratings", "history", "--agent", "best"}},
		{"history-mid", "", []string{"ratings", "history", "--agent", mid}},
		{"export-best", "", []string{"export", "--checkpoint", "best", "-o", out}},
		{"play-best", "4\nq\n", []string{"play", "--checkpoint", "best"}},
		{"games-round", "", []string{"games", "export", "--rounds", last, "--pgn", "-"}},
		{"games-latest", "", []string{"games", "export", "--agent", "latest", "--pgn", "-"}},
	} {
		b.Run(r.name, func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				var errOut strings.Builder
				start := time.Now()
				code := commands.Run(b.Context(), commands.Env{Stdin: strings.NewReader(r.input), Stdout: io.Discard, Stderr: &errOut}, append(r.args, "--db", db))
				times = append(times, time.Since(start))
				if code != 0 {
					b.Fatalf("ttt %s: exit %d: %s", strings.Join(r.args, " "), code, errOut.String())
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
			b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
		})
	}
}

// latestRound is the newest round of the league at path.
func latestRound(path string) (int64, error) {
	db, err := store.OpenRead(context.Background(), path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	return db.NewestRound(context.Background())
}

package league

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/train"
	"ttt/store"
)

// The night-scale benchmarks measure a league of 1,000, 10,000 and
// 100,000 checkpoints: the time of a round beyond its training, the
// memory of a league run and the size of its database. Building a league
// of 100,000 rounds takes many minutes, so a built one is kept in
// $TTT_BENCH_DIR (default: the system's temporary directory) for the
// runs after, and each run plays its rounds on a copy:
//
//	TTT_BENCH_DIR=/var/tmp go test ./league -run '^$' -bench Night -benchtime 50x -timeout 2h
//
// The leagues are built by real rounds: real pools, real matches, the
// real rating fit and commit. Only the snapshots are not trained: each
// round's is one of nightNets networks trained once beforehand, so that
// the build spends its time on what grows with the league.

// nightNets is how many distinct networks a built league's snapshots take
// turns at being: trained for nightTraining games against random each,
// so their move tables are a trained net's.
const (
	nightNets     = 64
	nightTraining = 20000
)

// NightLeague returns the path of a built league of n checkpoints, and
// CopyFile copies a file, for the benchmarks of the league_test package.
var (
	NightLeague = nightLeague
	CopyFile    = copyFile
)

// BenchmarkNight plays rounds of built leagues of each size. ms/round is
// a round's time beyond its training (100 games); peak-MB the most memory
// the process held from the league's loading to its last round;
// KB/checkpoint the database's size after, WAL checkpointed, in KB of
// 1,000 bytes (a network of 100 hidden units is 11.6 KB).
func BenchmarkNight(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("checkpoints=%d", n), func(b *testing.B) {
			path := copyFile(b, nightLeague(b, n), filepath.Join(b.TempDir(), "league.db"))
			defer debug.SetGCPercent(debug.SetGCPercent(GCPercent)) // as ttt league run does
			resetPeakRSS(b)
			ctx := context.Background()
			db, err := store.Open(ctx, path, func() store.Setup { return Setup(agents.TicTacToe) })
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			cfg := Default(agents.TicTacToe)
			cfg.GamesPerRound = 100
			lg, tr, err := open(ctx, db, cfg, nil)
			if err != nil {
				b.Fatal(err)
			}
			var beyond []time.Duration
			hooks := Hooks{Round: func(r Report) { beyond = append(beyond, r.Elapsed-r.TrainTime) }}
			b.ResetTimer()
			for b.Loop() {
				if _, err := oneRoundHooks(ctx, lg, tr, hooks); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(peakRSS(b), "peak-MB")
			slices.Sort(beyond)
			b.ReportMetric(float64(beyond[len(beyond)/2].Microseconds())/1000, "median-ms/round")
			db.Close()
			info, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			nets, err := countNets(path)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(info.Size())/1000/float64(nets), "KB/checkpoint")
		})
	}
}

// countNets counts the networks of the database at path: its agents but
// the built-in players.
func countNets(path string) (int, error) {
	db, err := store.OpenRead(context.Background(), path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n, err := db.Count(context.Background())
	return n - len(agents.TicTacToe.Builtins), err
}

// nightLeague returns the path of a built league of n checkpoints,
// building it unless a run before did.
func nightLeague(b *testing.B, n int) string {
	b.Helper()
	dir := os.Getenv("TTT_BENCH_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("ttt-night-%d.db", n))
	if nets, err := countNets(path); err == nil && nets >= n {
		return path
	}
	b.Logf("building a league of %d checkpoints in %s", n, path)
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	if err := buildNight(path+".building", n); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(path+".building", path); err != nil {
		b.Fatal(err)
	}
	return path
}

// buildNight builds a league of n checkpoints at path with real rounds
// whose snapshots are taken in turn from nightNets trained networks.
func buildNight(path string, n int) error {
	ctx := context.Background()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	db, err := store.Open(ctx, path, func() store.Setup { return Setup(agents.TicTacToe) })
	if err != nil {
		return err
	}
	defer db.Close()
	cfg := Default(agents.TicTacToe)
	nets := make([]*store.Agent, nightNets)
	for i := range nets {
		tc := train.Default(nightTraining)
		tc.Seed = uint64(i + 1)
		trained, err := train.Run(ctx, tc, nil)
		if err != nil {
			return err
		}
		nets[i] = Measure(agents.TicTacToe, &store.Agent{Kind: store.Checkpoint, Method: tc.Method.Name, Weights: trained.Bytes(), Hidden: trained.Layout().Hidden}, trained)
	}
	lg, tr, err := open(ctx, db, cfg, nil)
	if err != nil {
		return err
	}
	for round := int64(1); round <= int64(n); round++ {
		// The steps of round, from the snapshot on.
		net := nets[round%nightNets]
		parent := lg.latest[train.PolicyMethod.Name]
		snapshot := &store.Agent{Kind: store.Checkpoint, Method: net.Method, ParentID: parent, TrainGames: round * 20000, Weights: net.Weights,
			Hidden: net.Hidden, Facts: net.Facts, Compiled: net.Compiled}
		p, _ := agents.TicTacToe.Compiled(snapshot.Compiled)
		con := fixed(p)
		entrants := []entrant{{id: 0, contestant: con, parent: parent}}
		matches, err := lg.evaluate(ctx, round, entrants, nil)
		if err != nil {
			return err
		}
		fit, err := lg.rate(matches)
		if err != nil {
			return err
		}
		r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now(), Snapshot: snapshot,
			Matches: matches, Updates: fit.updates, History: fit.history, Fits: fit.fits}
		if round == int64(n) {
			if r.Learner, err = marshalLearners(tr.lines, 0); err != nil {
				return err
			}
		}
		if err := db.CommitRound(ctx, r); err != nil {
			return err
		}
		if err := lg.committed(ctx, r, con); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies the database at src to dst and returns dst.
func copyFile(b *testing.B, src, dst string) string {
	b.Helper()
	in, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return dst
}

// resetPeakRSS returns the memory the process no longer uses to the
// system (building a league holds more than running one) and restarts
// the count of its peak resident set, which Linux keeps as VmHWM.
func resetPeakRSS(b *testing.B) {
	b.Helper()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("cannot measure the peak resident set here: %v", err)
	}
}

// peakRSS returns the process's peak resident set in MB since the last
// resetPeakRSS, from /proc/self/status.
func peakRSS(b *testing.B) float64 {
	b.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}

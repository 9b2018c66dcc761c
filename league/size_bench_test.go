package league_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ttt/league"
	"ttt/store"
)

// BenchmarkLeague1000 runs a league to 1,000 checkpoints the way
// `ttt league run --rounds 1000 --games-per-round 100` does and reports
// the process's peak resident memory (Linux: VmHWM) and the database's
// size per checkpoint, results included. It takes minutes; run it once:
//
//	go test ./league -run '^$' -bench League1000 -benchtime 1x
func BenchmarkLeague1000(b *testing.B) {
	for range b.N {
		path := filepath.Join(b.TempDir(), "league.db")
		ctx := context.Background()
		db, err := store.Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		cfg := league.Default()
		cfg.Rounds, cfg.GamesPerRound = 1000, 100
		if _, err := league.Run(ctx, db, cfg, league.Hooks{}); err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil { // checkpoints the WAL into the file
			b.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(info.Size())/1000/1024, "KB/checkpoint")
		if rss := peakRSS(b); rss > 0 {
			b.ReportMetric(rss/1024, "MB-peak-RSS")
		}
	}
}

// peakRSS returns the process's peak resident set in KB, from
// /proc/self/status, or 0 where there is none.
func peakRSS(b *testing.B) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb
		}
	}
	return 0
}

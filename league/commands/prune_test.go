package commands_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"ttt/league/commands/clitest"
	"ttt/store"
)

// prunedSizes reads prune's line: the sizes before and after, and what
// it says of the -wal file.
var prunedSizes = regexp.MustCompile(`: ([0-9.]+) MB before, ([0-9.]+) MB now(, [0-9.]+ MB of it in its -wal file until the other ttt reading the league \(ttt serve, a long export\) end: the space comes back then)?\n$`)

// ttt prune gives the file's space back at once while another ttt has the
// league open between its reads (ttt serve). Where one reads an older
// state all along, the space comes back only when that reader ends, and
// prune says so: its sizes alone would show a file that pruning grew.
func TestPruneWithReaders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, pinned := range []bool{false, true} {
		p := clitest.New(t)
		p.OK(t, clitest.LeagueRun(clitest.Quick, "--rounds", "40")...)
		reader, err := store.OpenRead(ctx, filepath.Join(p.Dir, "league.db"))
		if err != nil {
			t.Fatal(err)
		}
		if pinned {
			err = reader.Pin(ctx)
		} else {
			_, err = reader.Count(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		m := prunedSizes.FindStringSubmatch(p.OK(t, "prune", "--every", "0", "--best", "1"))
		reader.Close()
		if m == nil {
			t.Fatalf("pinned %v: prune said nothing of the sizes", pinned)
		}
		before, _ := strconv.ParseFloat(m[1], 64)
		now, _ := strconv.ParseFloat(m[2], 64)
		if pinned != (m[3] != "") || !pinned && now >= before {
			t.Errorf("a reader that pinned a state %v: prune said %q", pinned, m[0])
		}
	}
}

package commands_test

import (
	"strings"
	"testing"
)

// ttt checkpoints --after past the last agent says so, with no hint that
// a script following it would loop on; an --after near the largest int64
// prints no negative or wrapped numbers (issue 26: "(agents 101 to 100 of
// 10: --after 100 for the next page...)", and negative numbers at
// --after 9223372036854775807).
func TestCheckpointsPastTheEnd(t *testing.T) {
	t.Parallel()
	p := smallLeague(t) // agents 1 to 6
	for _, after := range []string{"6", "100", "9223372036854775807"} {
		out := p.OK(t, "checkpoints", "--after", after)
		want := "(no agents after " + after + ": the league's 6 end at agent 6; --after 0 from the first, --all for every one)\n"
		if !strings.HasSuffix(out, want) || strings.Contains(out, "-9") {
			t.Errorf("checkpoints --after %s:\n%s\nwant it to end with %q", after, out, want)
		}
	}
	// Following the hints page by page reaches the end, and then the hint
	// goes back to the first page.
	hints := []string{}
	for after := "0"; ; {
		out := p.OK(t, "checkpoints", "--after", after, "--limit", "2")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		hint := lines[len(lines)-1]
		hints = append(hints, hint)
		next, ok := strings.CutPrefix(hint[strings.Index(hint, ": ")+2:], "--after ")
		next, _, _ = strings.Cut(next, " ")
		if !ok || next == "0" || len(hints) > 3 {
			break
		}
		after = next
	}
	want := []string{
		"(agents 1 to 2 of 6: --after 2 for the next page, --all for every one)",
		"(agents 3 to 4 of 6: --after 4 for the next page, --all for every one)",
		"(agents 5 to 6 of 6: --after 0 from the first, --all for every one)",
	}
	if strings.Join(hints, "\n") != strings.Join(want, "\n") {
		t.Errorf("the hints, page by page:\n%s\nwant\n%s", strings.Join(hints, "\n"), strings.Join(want, "\n"))
	}
}

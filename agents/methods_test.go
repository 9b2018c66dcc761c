package agents

import "testing"

// A file of ttt's own format whose header names a game this ttt does not
// play says so, naming the game and the games it plays, rather than
// "the magic of no kind of model".
func TestFileOfAnUnknownGame(t *testing.T) {
	_, err := ReadFile(nil, []byte("ttt-ntup\x07othello\x00\x01\x00\x00\x00"), nil)
	want := `it is an n-tuple network file of "othello", a game this ttt does not play (it plays tictactoe, connect4)`
	if err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
}

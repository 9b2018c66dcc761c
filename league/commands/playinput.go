package commands

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// maxLine is the longest line that play reads as an answer. A longer one
// is read to its end without being kept, and answered as a bad move.
const maxLine = 64 << 10

// errLongLine is the answer to a line longer than maxLine.
var errLongLine = fmt.Errorf("the line is longer than %d KiB", maxLine>>10)

// lines reads its input line by line in a goroutine, so that the game
// can end on Ctrl-C while a read from the terminal still waits for Enter.
type lines struct {
	ch   chan line
	err  error // why the input ended early; set before ch is closed
	done chan struct{}
}

// line is a line of the input without its end (\n or \r\n), or a mark
// that the line was longer than maxLine.
type line struct {
	text string
	long bool
}

func readLines(in io.Reader) *lines {
	l := &lines{ch: make(chan line), done: make(chan struct{})}
	go func() {
		defer close(l.ch)
		r := bufio.NewReader(in)
		for {
			next, err := readLine(r)
			if err != nil {
				if err != io.EOF {
					l.err = err
				}
				return
			}
			select {
			case l.ch <- next:
			case <-l.done:
				return
			}
		}
	}()
	return l
}

// readLine reads the next line from r, keeping at most maxLine bytes of
// it in memory. The last line of the input needs no \n; after it comes
// io.EOF.
func readLine(r *bufio.Reader) (line, error) {
	var buf []byte
	long := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !long {
			buf = append(buf, chunk...)
			if len(buf) > maxLine+len("\r\n") {
				buf, long = nil, true
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil, err == io.EOF && (len(buf) > 0 || long):
			text := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
			if long || len(text) > maxLine {
				return line{long: true}, nil
			}
			return line{text: text}, nil
		}
		return line{}, err
	}
}

// stop lets the goroutine end at its next line. One blocked in a read of
// a terminal stays there until the process ends; only Ctrl-C leaves it
// there, and the process ends then.
func (l *lines) stop() { close(l.done) }

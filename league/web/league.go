package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"ttt/store"
)

// The league file. The server reads the league database that a path
// names, and that path may come to name another file while it runs: a
// league renamed over it, or removed and made again. SQLite keeps reading
// the file it opened, but each new connection of the pool opens the path
// anew, so that one answer would come from the old file and the next
// from the new one, read as the old one's game. So every answer first
// checks that the path still names the file it reads (a stat, a
// microsecond), and, when it does not, the server closes that file and
// opens the new one before it answers; an answer whose reads began on
// the old file and ended after the change is thrown away (errReplaced)
// rather than sent, since a connection opened meanwhile may have read
// the new file.

// errReplaced: the path named another file by the end of an answer's
// reads than at their start.
var errReplaced = errors.New("the league file was replaced while this answer was read: ask again")

// errGone: the league's path names no file.
var errGone = errors.New("the league file is gone since ttt serve opened it (removed, or renamed away): waiting for a league at its name")

// errStaleJournal: the path names a new file, and beside it is still
// the journal (-wal) of the file it replaced, with pages of the old
// league that SQLite would read as the new file's. Only the last writer
// to close a league empties its journal, not a reader such as ttt serve,
// so the server says so and waits, rather than mix the two.
var errStaleJournal = errors.New("the league file was replaced, but the journal beside its name (-wal) is still the old league's")

// errClosed: the server is shutting down.
var errClosed = errors.New("ttt serve is shutting down")

// walHeader is the size of a -wal file's header: a -wal of that size
// or less holds no page.
const walHeader = 32

// reopenEvery is how often the server tries again to open a league that
// failed to open (a file missing, or not yet whole): not at every
// request.
const reopenEvery = time.Second

// leagueFile is the league database at path, as open opens it.
type leagueFile struct {
	path string
	open func() (*store.DB, error)

	mu    sync.Mutex
	now   *opened // nil while no league opens at path (err says why)
	err   error
	tried time.Time // when the last failed open was tried
	seen  bool      // a file was open: one missing now is gone
	// gone is the file last open and its journal then (nil for none),
	// until a file opens in its place: a new file at the path must not
	// be read through that journal.
	gone, goneJournal os.FileInfo
	closed            bool
}

// opened is one file of the league's path, open: every read of an answer
// goes to one opened.
type opened struct {
	db   *store.DB
	path string
	file os.FileInfo // what path named when db was opened
	// journal is the file path's -wal named then, nil for none.
	journal os.FileInfo
	// league names the league the file holds, for the pages: its game and
	// when it was made (its first agent's creation), so that a page that
	// comes back to a server restarted on another league starts anew.
	league string
	// bestHistory is the league's best round by round, read from the
	// rating history as the answers need it.
	bestHistory bestHistory
	// life ends when the path names another file: the answers under way
	// stop, and db closes once they have.
	life  context.Context
	end   context.CancelFunc
	users sync.WaitGroup
}

// acquire returns the file the league's path names now, opening it if it
// is not the one open, for one answer: release it with done. It fails
// while no league opens at the path, saying why.
func (l *leagueFile) acquire() (*opened, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, errClosed
	}
	if l.now != nil {
		if l.now.current() == nil {
			l.now.users.Add(1)
			return l.now, nil
		}
		l.retire()
	}
	if l.err != nil && time.Since(l.tried) < reopenEvery {
		return nil, l.err
	}
	o, err := l.openNow()
	if err != nil {
		l.err, l.tried = err, time.Now()
		return nil, err
	}
	l.now, l.err, l.gone, l.goneJournal = o, nil, nil, nil
	o.users.Add(1)
	return o, nil
}

// done releases o, taken by acquire.
func (o *opened) done() { o.users.Done() }

// current returns nil when the path still names o's file, and
// errReplaced or the reason it names none otherwise.
func (o *opened) current() error {
	info, err := os.Stat(o.path)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", o.path, errGone)
	case !os.SameFile(info, o.file):
		return errReplaced
	}
	return nil
}

// retire ends the file open now: its answers under way stop, and it
// closes once they have, before another file is opened at its name (its
// last connection empties the -wal file beside the name, which the next
// file would otherwise be read through). l.mu is held.
func (l *leagueFile) retire() {
	o := l.now
	l.now = nil
	o.end()
	o.users.Wait()
	o.db.Close()
	l.gone, l.goneJournal = o.file, o.journal
}

// openNow opens the file at the league's path, and checks that the path
// named the same file before and after: a file renamed over it meanwhile
// is opened again.
func (l *leagueFile) openNow() (*opened, error) {
	for range 3 {
		before, statErr := os.Stat(l.path)
		if errors.Is(statErr, fs.ErrNotExist) && l.seen {
			return nil, fmt.Errorf("%s: %w", l.path, errGone)
		}
		journal, _ := os.Stat(l.path + "-wal")
		// A journal with frames (more than its header) that was the old
		// file's, beside a new file.
		if statErr == nil && l.gone != nil && !os.SameFile(before, l.gone) && l.goneJournal != nil && journal != nil &&
			os.SameFile(journal, l.goneJournal) && journal.Size() > walHeader {
			return nil, fmt.Errorf("%s: %w: once no ttt uses the old league, remove %s-wal and %s-shm, and ttt serve opens the new one", l.path, errStaleJournal, l.path, l.path)
		}
		db, err := l.open() // says best what is wrong with the file
		if err != nil {
			return nil, err
		}
		o := &opened{db: db, path: l.path, file: before}
		if statErr != nil || o.current() != nil {
			db.Close()
			continue
		}
		o.journal, _ = os.Stat(l.path + "-wal") // made by the open, if there was none
		o.league = db.Game().Name()
		if err := db.View(context.Background(), func(v *store.View) error {
			first, err := v.Agent("1") // a built-in player, made with the league
			if err == nil {
				o.league += "@" + first.CreatedAt.Format(time.RFC3339)
			}
			return err
		}); err != nil {
			db.Close()
			return nil, err
		}
		o.life, o.end = context.WithCancel(context.Background())
		l.seen = true
		return o, nil
	}
	return nil, fmt.Errorf("the league file %s keeps changing: ttt serve will try again", l.path)
}

// close closes the file open, and lets none open after.
func (l *leagueFile) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.now != nil {
		l.retire()
	}
	l.closed = true
}

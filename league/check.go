package league

import (
	"bytes"
	"context"
	"fmt"

	"ttt/agents"
	"ttt/store"
)

// CheckModels reads every model db keeps and writes it out as its plain
// file, as ttt export does, and reads that file back as a user's
// command would, with no flags: the file must read as the same method
// and write out as the same bytes again. That is what makes an export
// byte-exact: the stored form loses nothing of the model, and the file
// carries all of it. A model that does not read, or whose file does not
// come back the same, is a line to found. It returns how many it read.
func CheckModels(ctx context.Context, db *store.DB, found func(string)) (int, error) {
	g := db.Game()
	n := 0
	err := db.EachModel(ctx, func(id int64, name string, s store.Stored) error {
		n++
		m, err := agents.Decode(g, s.Method, s.Weights)
		if err != nil {
			found(fmt.Sprintf("agent %d (%s): its stored %s does not read: %v", id, name, s.Method, err))
			return nil
		}
		file := m.File()
		r, err := agents.ReadFile(g, file, nil)
		switch {
		case err != nil:
			found(fmt.Sprintf("agent %d (%s): its exported file does not read back: %v", id, name, err))
		case r.Method != s.Method:
			found(fmt.Sprintf("agent %d (%s): its exported file reads back as %s, not %s", id, name, r.Method, s.Method))
		case !bytes.Equal(r.Model.File(), file):
			found(fmt.Sprintf("agent %d (%s): its exported file reads back as a different %s", id, name, r.What))
		}
		return nil
	})
	return n, err
}

package league

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"ttt/agents"
	"ttt/agents/learn"
	"ttt/store"
)

// CheckResume hands found a line when a league run could not go on with
// the league in db as it is: its stored settings do not parse or are out
// of range, or loading it as a run does (its members, the fit's ratings,
// every result, the learners' state) fails. A file that ttt check calls
// healthy must be one that league run resumes, and a damaged fits blob
// or a league with no learner state is not. It returns an error only
// when the file cannot be read (store.Damaged).
func CheckResume(ctx context.Context, db *store.DB, found func(string)) error {
	err := resumable(ctx, db)
	if err != nil && !store.Damaged(err) {
		return err
	}
	if err != nil {
		found("a league run cannot resume it: " + strings.TrimPrefix(err.Error(), store.ErrCorrupt.Error()+": "))
	}
	return nil
}

// resumable loads the league in db as a league run with no flags does.
func resumable(ctx context.Context, db *store.DB) error {
	kit, err := agents.KitOf(db.Game().Name())
	if err != nil {
		return err
	}
	cfg, _, err := Resume(ctx, db, Default(kit), func(string) bool { return false })
	if err == nil {
		err = cfg.ValidateFor(kit)
	}
	if err != nil {
		if _, ok := errors.AsType[*learn.SettingError](err); ok {
			return fmt.Errorf("its stored settings: %w", err)
		}
		return err
	}
	_, _, err = open(ctx, db, cfg, nil)
	return err
}

// Package store keeps a league in one SQLite file: its agents and their
// networks, the rounds that made and rated them, the results of their
// matches, their standings and a sparse rating history. The schema lives
// in package migrations; the store persists and nothing else: what an
// agent is worth (its exhaustive check, its move table, its rating) is
// computed above it, before it gets here.
//
// The file is the league's only copy, so the store guards it: a file that
// is not a ttt database is refused and left as it was; one league run at
// a time holds a lock on the file itself; readers never create, migrate
// or write; blobs carry checksums that every read checks.
//
// Every public method is one transaction: BeginTx, a lowercase helper that
// takes the *sql.Tx, Commit. Errors from SQLite come back as the sentinel
// errors of this package where one fits, translated in one place (translate).
package store

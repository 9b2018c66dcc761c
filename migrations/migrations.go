// Package migrations holds the schema of the league database as numbered
// SQL files, embedded in the binary so that any ttt can create or upgrade
// its database without files beside it.
//
// A file is named NNNN_what.sql, numbered from 0001 without gaps. The store
// applies the files in order, each in its own transaction, and records the
// number of the last one in the database (PRAGMA user_version). A file is
// never edited once it has been released: a change to the schema is a new
// file.
package migrations

import "embed"

// FS holds the migration files, *.sql at its root.
//
//go:embed *.sql
var FS embed.FS

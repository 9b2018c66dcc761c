package migrations_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"testing"

	"ttt/migrations"
)

// shipped are the SHA-256 of every migration that a release has shipped.
// A league made by one of them was brought to its schema by that file as
// it was then: a file edited afterwards makes a schema that no older
// league has, and upgrades it silently wrong (0002 was, once: 0012 mends
// the leagues it left). A change to the schema is a new file, whose hash
// joins the list.
var shipped = map[string]string{
	"0001_init.sql":         "050158020e14266326e98097d28bd509de16d81df0643de22acc0463dc237e4c",
	"0002_night_scale.sql":  "6eff94e6a1aa5ae0766277d37560ab1b33e3e6f1f6ff4c121011ad3bcab048dd",
	"0003_games.sql":        "1cff5c2eb0ebe880d4b2cec60be4eed332a342eae20c8b0ea5b0ef54c11aa296",
	"0004_best.sql":         "8c1fb4413185ff4fbe5e89e512c244b2d3d70aaafbece0f49bb601dac412c071",
	"0005_sides.sql":        "4f5ddc4b832b3e2d6a72bcd76dacf37889f79a5bc0c034a6b6fcb3d9e3cd555e",
	"0006_setting_keys.sql": "7185986e0a2ad6b1219c7e70cdc32f5fce6ac06d4c8b8717ff157f06cfb97095",
	"0007_learners.sql":     "32a7ccee96ad652900243c8200fc910452c91ef7a7a271b0f93a4b61a15ac11e",
	"0008_methods.sql":      "59f592259be78b719db309a69fd832bfa60d229af24a83ea73234f2a7632f8c9",
	"0009_ladder_games.sql": "bd165589b107129741203f787fa72b9f842534191c6012c11b361dfe60ab1e4f",
	"0010_searched.sql":     "84710a8f8681c8f6d5947cd23821dd184ca4af7870acf84246975bc7e4b29222",
	"0011_any_game.sql":     "de8f1fa263be45770612d32ddab6249e1a9933d559e7009a0bcdf5ee97383f89",
	"0012_round_ranges.sql": "76610962ac2597dd0a7e9988aa1b71cd611fc34b66c9b332749c90eb7952db10",
	"0013_ladder_games.sql": "ea560b50df0984df6422c6c8653eb909d5232235a8bfbd1f84e3915f6af0b5aa",
	"0014_round_cpu.sql":    "0b27d3d44b22f829f9f6c27b7f210f36ad05366158508fd2f7938dba5bbedb8e",
	"0015_never_grow.sql":   "beaa6f12e385a71081e78957e0133cc6dd66bf82bee22c22c9dec03cb24826aa",
	"0016_runs.sql":         "2aa957ed169756efe9a2f81b3946095e3b71399ba82cf8c85069bcc5594fbade",
	"0017_journal.sql":      "09c334e6124c46dcb4ed729b71d1d23f10530d0aa827063be3bb54be9eee9460",
	"0018_ladder_owed.sql":  "7bba8e808d174e6b8a1e8cd29cee6dd60e925c483aaef95a00c808742bb03014",
	"0019_run_progress.sql": "910697fb7d7e186ececf281162b200bad86b3ceb5f767e37736cbd710aefb404",
}

// Every shipped migration is there and as it shipped, byte for byte; a
// file not in the list is a new migration, whose hash must join it.
func TestShippedMigrationsUnchanged(t *testing.T) {
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, name := range files {
		data, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		got := hex.EncodeToString(sum[:])
		want, ok := shipped[name]
		switch {
		case !ok:
			t.Errorf("%s is not in the list of shipped migrations: add its hash, %s, when it ships", name, got)
		case got != want:
			t.Errorf("%s changed since it shipped (SHA-256 %s, shipped %s): a league it upgraded keeps the old schema; restore it and put the change in a new migration", name, got, want)
		}
		seen[name] = true
	}
	for name := range shipped {
		if !seen[name] {
			t.Errorf("the shipped migration %s is missing: a league of its schema could no longer be upgraded", name)
		}
	}
}

package store

import (
	"bytes"
	"compress/flate"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// deflate compresses a move table: a net plays one of a few squares in
// most positions, so its 4,520 bytes shrink to a fraction of that.
func deflate(data []byte) []byte {
	var buf bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&buf)
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

// deflaters keeps flate writers for reuse: a new one allocates most of a
// megabyte, and a league stores a table every round all night.
var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestCompression) // the level is valid
	return w
}}

// maxMoves bounds an inflated move table, so that a damaged or hostile
// blob cannot inflate to gigabytes: a table is 4,520 bytes.
const maxMoves = 1 << 16

// inflate undoes deflate.
func inflate(data []byte) ([]byte, error) {
	r := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(data), nil); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	_, err := out.ReadFrom(io.LimitReader(r, maxMoves+1))
	if err == nil && out.Len() > maxMoves {
		err = errors.New("too long")
	}
	return out.Bytes(), err
}

// inflaters keeps flate readers for reuse: a new one allocates its 32 KB
// window, and a round reads the tables of the members its cache misses.
var inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// checkBlob checks a blob against its stored checksum.
func checkBlob(blob []byte, sum sql.Null[int64]) error {
	if !sum.Valid {
		return fmt.Errorf("%w: none is stored", ErrChecksum)
	}
	if got := int64(crc32.Checksum(blob, crc)); got != sum.V {
		return ErrChecksum
	}
	return nil
}

// Compiled returns the stored move tables of the networks ids, by id, after
// checking their checksums. A network stored without one (an agent of
// schema 1) has none in the map: the caller computes it from the net.
func (db *DB) Compiled(ctx context.Context, ids []int64) (map[int64][]byte, error) {
	tables := make(map[int64][]byte, len(ids))
	err := db.blobs(ctx, "moves", "move table", ids, func(id int64, _ string, blob []byte, _ string) (err error) {
		if tables[id], err = inflate(blob); err != nil {
			return fmt.Errorf("%w: %v", ErrChecksum, err)
		}
		return nil
	})
	return tables, err
}

// Stored is a model as the store keeps it: its method and its bytes,
// and for a searched agent, which plays its parent's model, the search.
type Stored struct {
	Method  string
	Weights []byte
	Search  string
}

// Models returns the stored models of the agents ids, by id, after
// checking their checksums; an agent whose weights were pruned, or that
// has none (a built-in player), has none in the map.
func (db *DB) Models(ctx context.Context, ids []int64) (map[int64]Stored, error) {
	models := make(map[int64]Stored, len(ids))
	err := db.blobs(ctx, "weights", "stored weights", ids, func(id int64, method string, blob []byte, search string) error {
		if len(blob) > 0 {
			models[id] = Stored{Method: method, Weights: blob, Search: search}
		}
		return nil
	})
	return models, err
}

// EachModel hands each to every stored model, in the order of the
// agents' ids, with the agent's name; a model whose checksum does not
// match is skipped (Check says so), and so is a checkpoint whose weights
// ttt prune dropped.
func (db *DB) EachModel(ctx context.Context, each func(id int64, name string, m Stored) error) error {
	return db.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, name, coalesce(method, ''), weights, weights_crc FROM agents
			WHERE length(weights) > 0 ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var (
			id   int64
			name string
			m    Stored
			sum  sql.Null[int64]
		)
		return scanEach(ctx, rows, []any{&id, &name, &m.Method, &m.Weights, &sum}, func() error {
			if checkBlob(m.Weights, sum) != nil {
				return nil
			}
			return each(id, name, m)
		})
	})
}

// blobs reads the blob column (moves or weights) of the agents ids, checks
// each against its checksum (column_crc) and hands it to each; an agent
// with none (random, perfect, or a schema-1 agent's moves) is skipped.
// each also gets the agent's method, which says how to read its weights,
// and its search: a searched agent's weights and method are its
// parent's, its moves its own. Errors name the agent and the blob as
// what.
func (db *DB) blobs(ctx context.Context, column, what string, ids []int64, each func(id int64, method string, blob []byte, search string) error) error {
	from := "a.id"
	if column == "weights" {
		from = "CASE WHEN a.kind = 'searched' THEN a.parent_id ELSE a.id END"
	}
	return db.read(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, "SELECT b."+column+", b."+column+"_crc, coalesce(b.method, ''), coalesce(a.search, '') "+
			"FROM agents a JOIN agents b ON b.id = "+from+" WHERE a.id = ?")
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, id := range ids {
			var blob []byte
			var sum sql.Null[int64]
			var method, search string
			if err := stmt.QueryRowContext(ctx, id).Scan(&blob, &sum, &method, &search); err != nil {
				return fmt.Errorf("agent %d: %w", id, err)
			}
			if blob == nil {
				continue
			}
			if err := checkBlob(blob, sum); err != nil {
				return fmt.Errorf("agent %d: %s: %w", id, what, err)
			}
			if err := each(id, method, blob, search); err != nil {
				return fmt.Errorf("agent %d: %s: %w", id, what, err)
			}
		}
		return nil
	})
}

package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// Fits are exact ratings of the league's rating fit, by agent id: every
// rated agent's (Full), or those a round moved. See the fits table.
type Fits struct {
	Full   bool
	Agents []int64
	Elo    []float64
}

// encode writes f as the fits table keeps it: pairs of a little-endian
// uint32 id and float64.
func (f *Fits) encode() ([]byte, error) {
	buf := make([]byte, 0, 12*len(f.Agents))
	for i, id := range f.Agents {
		if id < 1 || id > math.MaxUint32 {
			return nil, fmt.Errorf("fits of agent %d, not an id", id)
		}
		buf = binary.LittleEndian.AppendUint32(buf, uint32(id))
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(f.Elo[i]))
	}
	return buf, nil
}

// insertFits stores a round's fits: a full row deletes every row before
// it.
func insertFits(ctx context.Context, tx *sql.Tx, round int64, f *Fits) error {
	blob, err := f.encode()
	if err != nil {
		return err
	}
	if f.Full {
		if _, err := tx.ExecContext(ctx, "DELETE FROM fits"); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO fits (round_id, full, ratings, crc) VALUES (?, ?, ?, ?)",
		round, f.Full, blob, int64(crc32.Checksum(blob, crc)))
	return err
}

// Fits returns the exact rating the league's fit holds of every rated
// agent, by id: the last full row, then the rounds after it, in order.
// It also returns the size in bytes of the rows after the full one: the
// league writes a new full row once they outweigh it.
func (db *DB) Fits(ctx context.Context) (fits map[int64]float64, since int, err error) {
	err = db.read(ctx, func(tx *sql.Tx) error {
		fits, since, err = readFits(ctx, tx)
		return err
	})
	return fits, since, err
}

// readFits is Fits, in tx.
func readFits(ctx context.Context, tx *sql.Tx) (fits map[int64]float64, since int, err error) {
	fits = map[int64]float64{}
	rows, err := tx.QueryContext(ctx, "SELECT round_id, full, ratings, crc FROM fits ORDER BY round_id")
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var round int64
		var full bool
		var blob []byte
		var sum sql.Null[int64]
		if err := rows.Scan(&round, &full, &blob, &sum); err != nil {
			return nil, 0, err
		}
		if err := checkBlob(blob, sum); err != nil {
			return nil, 0, fmt.Errorf("round %d: the ratings of the fit: %w", round, err)
		}
		if since += len(blob); full {
			since = 0
			clear(fits)
		}
		if err := decodeFits(blob, fits); err != nil {
			return nil, 0, fmt.Errorf("round %d: the ratings of the fit: %w", round, err)
		}
	}
	return fits, since, rows.Err()
}

// decodeFits reads a row of the fits table into fits.
func decodeFits(blob []byte, fits map[int64]float64) error {
	if len(blob)%12 != 0 {
		return errors.New("not whole pairs of an id and a rating")
	}
	for i := 0; i < len(blob); i += 12 {
		fits[int64(binary.LittleEndian.Uint32(blob[i:]))] = math.Float64frombits(binary.LittleEndian.Uint64(blob[i+4:]))
	}
	return nil
}

package connect4

// table is the solver's transposition table: for a position's key, an
// upper bound of its score found by an earlier search. An entry is one
// word, the whole key (49 bits) above the bound (8 bits), so that a
// lookup never mistakes another position for this one; a newer entry
// replaces an older one at the same place.
type table struct {
	entries []uint64
	shift   uint
}

// newTable returns a table of 2^bits entries.
func newTable(bits int) *table {
	return &table{entries: make([]uint64, 1<<bits), shift: uint(64 - bits)}
}

// slot is where key goes: the top bits of a multiplicative hash, which
// spreads keys that differ in a few low bits.
func (t *table) slot(key uint64) uint64 { return (key * 0x9e3779b97f4a7c15) >> t.shift }

// put keeps value (1 to 255) for key.
func (t *table) put(key uint64, value uint8) { t.entries[t.slot(key)] = key<<8 | uint64(value) }

// get returns the value kept for key, or 0.
func (t *table) get(key uint64) uint8 {
	if e := t.entries[t.slot(key)]; e>>8 == key {
		return uint8(e)
	}
	return 0
}

// clear empties the table.
func (t *table) clear() { clear(t.entries) }

package league

import "strconv"

// AppendNumber appends v as a file (CSV, JSON) writes a figure: to ten
// significant digits, in plain decimals, so that the last bits of a
// float (84.41558441558442 for 325 of 385 positions, 0.30000000000000004
// for 0.1+0.2) do not show as digits of the figure. Ten digits keep any
// share of fewer than a billion games or positions apart from its
// neighbours.
func AppendNumber(dst []byte, v float64) []byte {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 10, 64), 64)
	if err != nil { // NaN or an infinity
		return strconv.AppendFloat(dst, v, 'g', -1, 64)
	}
	return strconv.AppendFloat(dst, r, 'f', -1, 64)
}

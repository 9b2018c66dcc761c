package commands

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"ttt/league"
)

// formatFlagName is --format of the listing commands.
const formatFlagName = "format"

// formatFlag is --format.
func formatFlag() cli.Flag {
	return &cli.StringFlag{Name: formatFlagName, Value: "table", Usage: "print as `table|csv|json`"}
}

// checkFormat refuses a --format that listing.write does not know, before
// a command does any work.
func checkFormat(c *cli.Context) error {
	switch f := c.String(formatFlagName); f {
	case "table", "csv", "json":
		return nil
	default:
		return usage(c.Command, "--format must be table, csv or json (got %q)", f)
	}
}

// listingFlags checks a listing command's arguments (it takes none) and
// --format, and reads how many rows it lists: --limit, or 0 for --all.
func listingFlags(c *cli.Context) (limit int, err error) {
	switch limit = c.Int("limit"); {
	case limit < 1:
		return 0, usage(c.Command, "--limit must be at least 1 (got %d)", limit)
	case c.Bool("all"):
		limit = 0
	}
	return limit, checkListing(c)
}

// checkListing checks a listing command's arguments (it takes none) and
// --format.
func checkListing(c *cli.Context) error {
	if err := checkArgs(c); err != nil {
		return err
	}
	return checkFormat(c)
}

// exact is a number that a listing's CSV prints to ten significant
// digits, such as a probability, where a float64 cell has one decimal;
// JSON has it whole, as the API does.
type exact float64

// listing is what a listing command prints: named columns, and rows whose
// cells are strings, integers, float64 (printed with one decimal) or nil
// for "none".
type listing struct {
	columns []string
	rows    [][]any
	object  bool // JSON: the one row as an object, not an array of one
}

// write prints l as an aligned table, as CSV with a header line, or as a
// JSON array of objects whose keys are the column names, in order.
func (l listing) write(w io.Writer, format string) error {
	// appendText appends a cell as text, without a string per cell: a
	// rating history of 500 checkpoints has a million cells.
	appendText := func(dst []byte, cell any, none string) []byte {
		switch v := cell.(type) {
		case nil:
			return append(dst, none...)
		case float64:
			return strconv.AppendFloat(dst, v, 'f', 1, 64)
		case exact:
			return league.AppendNumber(dst, float64(v))
		case int:
			return strconv.AppendInt(dst, int64(v), 10)
		case int64:
			return strconv.AppendInt(dst, v, 10)
		case string:
			return append(dst, v...)
		}
		return fmt.Append(dst, cell)
	}
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(l.columns)
		for _, row := range l.rows {
			cells := make([]string, len(row))
			for i, cell := range row {
				cells[i] = string(appendText(nil, cell, ""))
			}
			cw.Write(cells)
		}
		cw.Flush()
		return cw.Error()
	case "json":
		var buf bytes.Buffer
		if !l.object {
			buf.WriteByte('[')
		}
		for r, row := range l.rows {
			if r > 0 {
				buf.WriteByte(',')
			}
			buf.WriteByte('{')
			for i, cell := range row {
				if i > 0 {
					buf.WriteByte(',')
				}
				k, _ := json.Marshal(l.columns[i])
				v, err := json.Marshal(cell)
				if err != nil {
					return err
				}
				buf.Write(k)
				buf.WriteByte(':')
				buf.Write(v)
			}
			buf.WriteByte('}')
		}
		if !l.object {
			buf.WriteByte(']')
		}
		var out bytes.Buffer
		if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
			return err
		}
		out.WriteByte('\n')
		_, err := out.WriteTo(w)
		return err
	}
	// Buffered: tabwriter writes every cell and its padding on its own.
	bw := bufio.NewWriter(w)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.ToUpper(strings.Join(l.columns, "\t")))
	var line []byte
	for _, row := range l.rows {
		line = line[:0]
		for i, cell := range row {
			if i > 0 {
				line = append(line, '\t')
			}
			line = appendText(line, cell, "-")
		}
		tw.Write(append(line, '\n'))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

package commands

import (
	"fmt"
	"log"
	"net"

	"github.com/urfave/cli/v2"

	"ttt/league/web"
)

// serveCommand is `ttt serve`: the league in a browser.
func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve the league to a browser: leaderboard, learning curve, agents, a board to play them, and a JSON API",
		UsageText: `ttt serve [options]

   ttt serve                                # http://127.0.0.1:8080/
   ttt serve --addr 127.0.0.1:0             # any free port: the line printed says which
   ttt serve --with other.db --with c4.db   # their learning curves beside this league's

   The pages and the JSON API (docs/serve.md) only read the
   database, and work while ttt league run writes it: the leaderboard
   and the chart follow each round as it commits. The server listens on
   loopback unless --addr says otherwise, and then answers only requests
   addressed to localhost. Ctrl-C stops it.`,
		Flags: []cli.Flag{
			dbFlag(),
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "listen on `HOST:PORT`"},
			&cli.StringSliceFlag{Name: "with", Usage: "another league `FILE` whose learning curve the leaderboard draws beside this league's, on a chart of the leagues (again for more)"},
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			return runServe(jobOf(c), c.String("addr"), c.StringSlice("with"))
		},
	}
}

// runServe serves the job's league on addr until the job's context ends.
func runServe(j *job, addr string, with []string) error {
	errLog := log.New(j.Stderr, "ttt serve: ", log.LstdFlags)
	// The league is opened again by the same rules if its file is
	// replaced under the server. A server follows the league: it reads
	// each answer in a transaction of its own.
	h, err := web.New(j.path(j.db), j.openReader, errLog)
	if err != nil {
		return err
	}
	defer h.Close()
	// Each league of --with is served as the league is, by a server of
	// its own, under /with/N/: the leaderboard reads their curves there.
	for _, name := range with {
		other := *j
		other.db = name
		o, err := web.New(other.path(name), other.openReader, errLog)
		if err != nil {
			return fmt.Errorf("--with %s: %w", name, err)
		}
		defer o.Close()
		h.With(name, o)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(j.ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", addr, err)
	}
	fmt.Fprintf(j.Stdout, "serving %s on http://%s/ (Ctrl-C stops)\n", j.db, ln.Addr())
	if err := web.Serve(j.ctx, ln, h, errLog); err != nil {
		return err
	}
	return j.ctx.Err() // Ctrl-C, the one way it ends: its searches were stopped, its answers written

}

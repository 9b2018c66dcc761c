package web

import (
	"mime"
	"net/http"
	"strconv"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league"
)

// weights answers GET /api/agents/{ref}/weights: the network as the
// plain weight file ttt export writes, 19 inputs, or with side=X or O
// the 18 inputs of ttt export --side; a table of values as its table
// file, which takes no side.
func (s *Server) weights(w http.ResponseWriter, r *http.Request, o *opened) {
	var side *game.Side
	if v := r.URL.Query().Get("side"); v != "" {
		sd, err := game.ParseSide(v)
		if err != nil {
			writeError(w, http.StatusBadRequest, "side: %v", err)
			return
		}
		side = &sd
	}
	a, err := storedAgent(r, o, r.PathValue("ref"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if a.Weights == nil {
		writeError(w, http.StatusNotFound, "agent %d (%s) is the built-in %s player: it learned no model, and has no file", a.ID, a.Name, a.Kind)
		return
	}
	model, err := league.ModelOf(agents.KitFor(o.db.Game()), a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	data := model.File()
	if side != nil {
		data = model.FileFor(*side)
		if data == nil {
			writeError(w, http.StatusBadRequest, "side: agent %d (%s) is a %s, which plays both sides from one file: it has no file of one side", a.ID, a.Name, model.Describe())
			return
		}
	}
	name := league.FileName(a.Agent, model, side)
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("Cache-Control", "no-store")
	w.Write(data)
}

package web

// SetMaxRoundRows sets maxRoundRows to n until the returned func
// restores it.
func SetMaxRoundRows(n int64) (restore func()) {
	was := maxRoundRows
	maxRoundRows = n
	return func() { maxRoundRows = was }
}

// Polling reports whether the event streams' poller runs.
func Polling(s *Server) bool {
	s.rounds.mu.Lock()
	defer s.rounds.mu.Unlock()
	return s.rounds.polling
}

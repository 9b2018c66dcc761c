package web

// SetMaxRoundRows sets maxRoundRows to n until the returned func
// restores it.
func SetMaxRoundRows(n int64) (restore func()) {
	was := maxRoundRows
	maxRoundRows = n
	return func() { maxRoundRows = was }
}

// PollEvery is pollEvery, how often the event streams' poller asks.
const PollEvery = pollEvery

// Leads is leads: whether the league's best a beats b, the best shown, by
// more than noise.
var Leads = leads

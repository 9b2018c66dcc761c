package ntuple

// GrowAgain grows a TD learner's net by more, where Schedule grows it
// once: BenchmarkLearning's second growth, which no league makes.
func GrowAgain(td *TD, more [][]int) error {
	grown, err := td.Net.Grow(more)
	if err != nil {
		return err
	}
	td.Net, td.own.net, td.frozen = grown, grown, nil
	return nil
}

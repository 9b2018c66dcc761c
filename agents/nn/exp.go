package nn

import "math"

// exp32 returns e^x in float32 for the x <= 0 that softmax feeds it,
// within about one unit in the last place: the range reduction and
// polynomial of Cephes' expf. It is several times faster than
// float32(math.Exp(float64(x))), and the softmax runs in every forward
// pass of training.
func exp32(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375
		ln2lo = -2.12194440e-4
	)
	if x < -87.33654 { // below the smallest normal result
		return 0
	}
	// x = k*ln2 + r with |r| <= ln2/2, so e^x = 2^k * e^r.
	k := float32(int32(x*log2e - 0.5))
	r := x - k*ln2hi - k*ln2lo
	p := float32(1.9875691500e-4)
	p = p*r + 1.3981999507e-3
	p = p*r + 8.3334519073e-3
	p = p*r + 4.1665795894e-2
	p = p*r + 1.6666665459e-1
	p = p*r + 5.0000001201e-1
	er := p*r*r + r + 1
	return er * math.Float32frombits(uint32(int32(k)+127)<<23)
}

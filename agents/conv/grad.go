package conv

import (
	"ttt/agents/expert"
	"ttt/agents/game"
)

// Backward adds to grad (a network of n's shape, used for its weights
// only) the gradient of the loss over the batch that p holds, from the
// gradient of the loss by each position's logit, dOut. Forward must have
// run on p just before.
func (n *Net) Backward(dOut []float32, p *Pass, grad *Net) {
	batch, cells := len(dOut), n.geo.cells
	rows := batch * cells

	// STEP 1: the output and the dense layer.
	act := p.act[:batch*n.fc.out]
	gemm(true, false, n.out.in, 1, batch, act, dOut, grad.out.w)
	for _, d := range dOut {
		grad.out.b[0] += d
	}
	dhid := p.scratch(0, batch*n.fc.out)
	gemm(false, true, batch, n.fc.out, 1, dOut, n.out.w, dhid)
	reluBack(dhid, p.hid[:batch*n.fc.out])
	flat := p.flat[:batch*n.fc.in]
	gemm(true, false, n.fc.in, n.fc.out, batch, flat, dhid, grad.fc.w)
	colSum(dhid, n.fc.out, grad.fc.b)
	dx := p.scratch(1, batch*n.fc.in) // the head's output, a row a cell
	gemm(false, true, batch, n.fc.in, n.fc.out, dhid, n.fc.w, dx)

	// STEP 2: the convolutions, from the 1×1 head down to the first.
	for l := len(n.conv) - 1; l >= 0; l-- {
		d, gd := n.conv[l], grad.conv[l]
		dpre := dx
		reluBack(dpre, p.pre[l][:rows*d.out])
		col := p.cols[l][:rows*d.in]
		gemm(true, false, d.in, d.out, rows, col, dpre, gd.w)
		colSum(dpre, d.out, gd.b)
		if l == 0 {
			break // no gradient for the planes
		}
		dcol := p.scratch(2+l%2, rows*d.in)
		gemm(false, true, rows, d.in, d.out, dpre, d.w, dcol)
		if l == len(n.conv)-1 {
			dx = dcol // the 1×1 head read the cells as they were
			continue
		}
		dx = p.scratch(4+l%2, rows*d.in/9)
		n.geo.col2im(dcol, d.in/9, batch, dx)
	}
}

// reluBack zeroes the gradient d where the ReLU's input pre was not
// positive.
func reluBack(d, pre []float32) {
	for i, v := range pre {
		if v <= 0 {
			d[i] = 0
		}
	}
}

// colSum adds the columns of m (rows of width values) into dst.
func colSum(m []float32, width int, dst []float32) {
	for i := 0; i < len(m); i += width {
		for j, v := range m[i : i+width] {
			dst[j] += v
		}
	}
}

// Value returns the worth of pos, after a move by mover, to mover.
func (n *Net) Value(pos game.Position, mover game.Side, p *Pass) float32 {
	n.Forward([]game.Position{pos}, []game.Side{mover}, p)
	return expert.Sigmoid(p.Out[0])
}

// scratch returns the backward pass's buffer i, of k values: gradients
// of one layer's input are read while the next layer down's are written,
// so alternate layers take alternate buffers.
func (p *Pass) scratch(i, k int) []float32 {
	for len(p.grads) <= i {
		p.grads = append(p.grads, nil)
	}
	if cap(p.grads[i]) < k {
		p.grads[i] = make([]float32, k)
	}
	s := p.grads[i][:k]
	clear(s)
	return s
}

// Gradient implements expert.Net.
func (n *Net) Gradient(b *expert.Batch, grad expert.Net) float64 {
	batch := len(b.Positions)
	n.forward(b.Positions, b.Movers, b.Syms, &n.train)
	if cap(n.dOut) < batch {
		n.dOut = make([]float32, batch)
	}
	dOut := n.dOut[:batch]
	loss := expert.Loss(n.train.Out[:batch], b.Labels, dOut)
	n.Backward(dOut, &n.train, grad.(*Net))
	return loss
}

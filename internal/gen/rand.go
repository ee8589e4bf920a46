package gen

// mix is the splitmix64 finaliser: a fast, well-distributed 64-bit hash.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// rng is a splitmix64 stream. Every random choice of the generator comes
// from an rng seeded by a pure function of (seed, what is being generated),
// so that any title or package can be produced on its own, in any order.
type rng struct{ s uint64 }

// newRNG returns a stream for key under seed.
func newRNG(seed, key uint64) rng { return rng{s: mix(seed ^ mix(key))} }

// next returns the next 64 random bits.
func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0,n); n must be in (0, 2^32).
func (r *rng) intn(n int) int {
	return int(((r.next() >> 32) * uint64(n)) >> 32)
}

// between returns a number in [lo,hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// permille reports true with probability p/1000.
func (r *rng) permille(p int) bool { return r.intn(1000) < p }

// float returns a number in [0,1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// pick returns an index drawn with the given relative weights.
func (r *rng) pick(weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	x := r.intn(total)
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// perm is the permutation i → (a·i + b) mod n of [0,n), a bijection because
// gcd(a,n) = 1. It needs no memory, whatever n.
type perm struct{ n, a, b uint64 }

// newPerm returns a permutation of [0,n) chosen by h. The multiplier is
// close to n/φ so that neighbouring positions land far apart.
func newPerm(n int, h uint64) perm {
	if n <= 1 {
		return perm{n: uint64(max(n, 1)), a: 1}
	}
	un := uint64(n)
	a := (uint64(float64(n)*0.6180339887498949) + h%(un/16+1)) % un
	if a == 0 {
		a = 1
	}
	for gcd(a, un) != 1 {
		a = (a + 1) % un
		if a == 0 {
			a = 1
		}
	}
	return perm{n: un, a: a, b: mix(h) % un}
}

// at returns the image of i, for i in [0,n).
func (p perm) at(i int) int { return int((p.a*uint64(i) + p.b) % p.n) }

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

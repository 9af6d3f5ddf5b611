package stats

import "math"

// The distributions below are the ones the intervals and tests need: the
// standard normal and Student's t, and underneath them and the binomial,
// the regularized incomplete beta function. Each is computed to about
// 1e-12 relative error or better (the tests hold them to scipy's values).

// NormalCDF is the standard normal distribution function Φ(x): the chance
// that a standard normal variable is at most x. It is exact to double
// precision in both tails (it uses math.Erfc, which keeps its relative
// accuracy far out).
func NormalCDF(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}

// NormalQuantile is the inverse of NormalCDF: the x with Φ(x) = p. It is
// -Inf at 0, +Inf at 1 and NaN outside [0, 1].
//
// It starts from Acklam's rational approximation (relative error below
// 1.15e-9) and takes one step of Halley's method on Φ, which brings it to
// full double precision. The upper half is computed as −Φ⁻¹(1−p), which
// is exact in floating point for p ≥ 0.5, so both tails keep their
// precision.
func NormalQuantile(p float64) float64 {
	switch {
	case math.IsNaN(p) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p > 0.5:
		return -NormalQuantile(1 - p)
	}
	x := acklam(p)
	// One Halley step: e is the error in Φ(x), u the error over the
	// normal density at x.
	e := NormalCDF(x) - p
	u := e * math.Sqrt(2*math.Pi) * math.Exp(x*x/2)
	return x - u/(1+x*u/2)
}

// acklam is Peter Acklam's approximation of the normal quantile for
// 0 < p ≤ 0.5.
func acklam(p float64) float64 {
	const low = 0.02425
	a := [6]float64{-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00}
	b := [5]float64{-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01}
	c := [6]float64{-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00}
	d := [4]float64{7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00}
	if p < low {
		q := math.Sqrt(-2 * math.Log(p))
		return (((((c[0]*q+c[1])*q+c[2])*q+c[3])*q+c[4])*q + c[5]) /
			((((d[0]*q+d[1])*q+d[2])*q+d[3])*q + 1)
	}
	q := p - 0.5
	r := q * q
	return (((((a[0]*r+a[1])*r+a[2])*r+a[3])*r+a[4])*r + a[5]) * q /
		(((((b[0]*r+b[1])*r+b[2])*r+b[3])*r+b[4])*r + 1)
}

// TCDF is the distribution function of Student's t with df degrees of
// freedom (df > 0, not necessarily whole): the chance that such a
// variable is at most t. It is NaN when df ≤ 0.
//
// The tail beyond |t| is I_x(df/2, 1/2)/2 with x = df/(df+t²), the
// regularized incomplete beta function; 1−x is passed as t²/(df+t²) so
// that neither tail loses precision.
func TCDF(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df) || df <= 0:
		return math.NaN()
	case math.IsInf(t, 1):
		return 1
	case math.IsInf(t, -1):
		return 0
	}
	t2 := t * t
	tail := betaIncXY(df/2, 0.5, df/(df+t2), t2/(df+t2)) / 2
	if t > 0 {
		return 1 - tail
	}
	return tail
}

// TQuantile is the inverse of TCDF: the t with TCDF(t, df) = p. It is ±Inf
// at 1 and 0, and NaN for p outside [0, 1] or df ≤ 0.
func TQuantile(p, df float64) float64 {
	switch {
	case math.IsNaN(p) || p < 0 || p > 1 || math.IsNaN(df) || df <= 0:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	case p < 0.5:
		return -TQuantile(1-p, df)
	}
	// For t > 0, 2(1−p) = I_x(df/2, 1/2) with x = df/(df+t²). Solve for
	// whichever of x and 1−x is the smaller, so that t keeps its
	// precision both near the median and far out.
	q := 2 * (1 - p)
	if q < 0.5 {
		x := betaIncInv(df/2, 0.5, q)
		return math.Sqrt(df * (1 - x) / x)
	}
	y := betaIncInv(0.5, df/2, 1-q) // y = 1−x = t²/(df+t²)
	return math.Sqrt(df * y / (1 - y))
}

// lbeta is the logarithm of the beta function B(a, b).
func lbeta(a, b float64) float64 {
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	return la + lb - lab
}

// betaInc is the regularized incomplete beta function I_x(a, b), for
// a, b > 0 and 0 ≤ x ≤ 1: the distribution function of a Beta(a, b)
// variable at x.
func betaInc(a, b, x float64) float64 {
	return betaIncXY(a, b, x, 1-x)
}

// betaIncXY is betaInc with y = 1−x given by the caller, who may know it
// more precisely than 1−x rounds to.
//
// It is the continued fraction of Numerical Recipes (6.4), evaluated by
// the modified Lentz method, on whichever of I_x(a, b) and
// 1 − I_y(b, a) converges fast.
func betaIncXY(a, b, x, y float64) float64 {
	switch {
	case x <= 0:
		return 0
	case y <= 0:
		return 1
	}
	// front is x^a y^b / B(a, b), in logarithms so it cannot overflow.
	front := math.Exp(a*math.Log(x) + b*math.Log(y) - lbeta(a, b))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, y)/b
}

// betaCF evaluates the continued fraction of the incomplete beta function
// (Numerical Recipes, 6.4.5) by the modified Lentz method. It converges
// quickly for x < (a+1)/(a+b+2), in about √max(a, b) steps.
func betaCF(a, b, x float64) float64 {
	const (
		eps   = 1e-16
		tiny  = 1e-300
		steps = 100000
	)
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= steps; m++ {
		fm := float64(m)
		m2 := 2 * fm
		// The even step.
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		// The odd step.
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// betaIncInv is the inverse of betaInc in x: the x in [0, 1] with
// I_x(a, b) = p, the p-quantile of a Beta(a, b) variable.
//
// It runs Newton's method on I_x − p from a normal approximation, inside
// a bracket that every step narrows: a step that would leave the bracket
// bisects it instead, so it converges for every a, b > 0.
func betaIncInv(a, b, p float64) float64 {
	switch {
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	lo, hi := 0.0, 1.0
	x := betaStart(a, b, p)
	lb := lbeta(a, b)
	for range 1000 {
		f := betaInc(a, b, x) - p
		if f == 0 {
			return x
		}
		if f < 0 {
			lo = x
		} else {
			hi = x
		}
		// The density of Beta(a, b) at x is I_x's derivative.
		density := math.Exp((a-1)*math.Log(x) + (b-1)*math.Log1p(-x) - lb)
		next := x - f/density
		if !(next > lo && next < hi) || math.IsNaN(next) {
			next = lo + (hi-lo)/2
		}
		if math.Abs(next-x) <= 1e-15*x || hi-lo <= 1e-15*lo {
			return next
		}
		x = next
	}
	return x
}

// betaStart is where betaIncInv starts: the normal approximation of the
// Beta(a, b) quantile, kept inside (0, 1).
func betaStart(a, b, p float64) float64 {
	mean := a / (a + b)
	sd := math.Sqrt(a * b / ((a + b) * (a + b) * (a + b + 1)))
	x := mean + NormalQuantile(p)*sd
	return min(max(x, 1e-3*mean), 1-1e-3*(1-mean))
}

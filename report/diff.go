package report

import "unicode"

// An Op says what a Diff does with a piece of text: keeps it (in both
// texts), deletes it (in the first only) or inserts it (in the second
// only).
type Op byte

// The operations of a Diff.
const (
	Keep   Op = '='
	Delete Op = '-'
	Insert Op = '+'
)

// An Edit is one piece of a Diff.
type Edit struct {
	Op   Op
	Text string
}

// maxDiffCells bounds the work of a diff (the product of the two lengths
// in tokens): beyond it, two texts are shown as one deleted and the other
// inserted, whole.
const maxDiffCells = 4 << 20

// Diff returns the edits that turn a into b, token by token, as few as
// can be (a longest common subsequence kept), with runs of one operation
// merged into one edit.
func Diff(a, b []string) []Edit { return diff(a, b, true) }

// DiffLines is Diff with an edit for each line (token): nothing merged.
func DiffLines(a, b []string) []Edit { return diff(a, b, false) }

func diff(a, b []string, merge bool) []Edit {
	// Common ends first: most replies differ in a part of the middle.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []Edit
	add := func(op Op, s string) {
		if n := len(out); merge && n > 0 && out[n-1].Op == op {
			out[n-1].Text += s
			return
		}
		out = append(out, Edit{op, s})
	}
	for _, s := range a[:pre] {
		add(Keep, s)
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > maxDiffCells {
		for _, s := range ma {
			add(Delete, s)
		}
		for _, s := range mb {
			add(Insert, s)
		}
	} else {
		// lcs[i][j] is the length of the longest common subsequence of
		// ma[i:] and mb[j:].
		lcs := make([][]int, len(ma)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(mb)+1)
		}
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				add(Keep, ma[i])
				i, j = i+1, j+1
			case i < len(ma) && (j == len(mb) || lcs[i+1][j] >= lcs[i][j+1]):
				add(Delete, ma[i]) // deletions first, where either would do
				i++
			default:
				add(Insert, mb[j])
				j++
			}
		}
	}
	for _, s := range a[len(a)-suf:] {
		add(Keep, s)
	}
	return out
}

// Words splits s into words and the spaces between them, so that a Diff
// of two texts' words, joined again, gives back the texts.
func Words(s string) []string {
	var out []string
	start, space := 0, false
	for i, r := range s {
		if sp := unicode.IsSpace(r); i > 0 && sp != space {
			out = append(out, s[start:i])
			start = i
		} else if i == 0 {
			space = sp
			continue
		}
		space = unicode.IsSpace(r)
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// WordDiff diffs two texts word by word.
func WordDiff(a, b string) []Edit { return Diff(Words(a), Words(b)) }

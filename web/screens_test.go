package web

import (
	"bytes"
	"cmp"
	"context"
	"flag"
	"image"
	"image/color"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// screens makes TestScreens write the screenshots a reviewer looks at:
//
//	go test ./web -run TestScreens -screens
var screens = flag.Bool("screens", false, "write screenshots of the app's pages to testdata/screens (TestScreens)")

// screensDir is where TestScreens writes, and where the screenshots are
// committed.
const screensDir = "testdata/screens"

// maxScreenHeight is how much of a long page a screenshot shows, in CSS
// pixels: its top, which is what a person sees first, keeping the files
// small.
const maxScreenHeight = 1400

// TestScreens writes a screenshot of each main page of the app (appPages'
// screen ones, over the fixture, as its editor sees them) in each look:
// <page>-desktop.png in the light scheme, <page>-phone.png in the dark
// one, under testdata/screens, replacing the screenshots of this kind
// that are there. It runs with -screens only; without it, it skips.
func TestScreens(t *testing.T) {
	if !*screens {
		t.Skip("writes screenshots with -screens only: go test ./web -run TestScreens -screens")
	}
	tab := newBrowserWithin(t, pagesTimeout)
	f, url := newPagesApp(t)
	tab.login(url, "eddie")

	// Its own screenshots only: TestBrowserPMMorning's morning-*.png stay.
	var old []string
	for _, pattern := range []string{"*-desktop.png", "*-phone.png"} {
		matched, err := filepath.Glob(filepath.Join(screensDir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		old = append(old, matched...)
	}
	for _, path := range old {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(screensDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range looks {
		tab.seeAs(l)
		for _, p := range appPages(f) {
			if !p.screen {
				continue
			}
			tab.visit(url, p)
			shot := compressPNG(t, tab.screenshot(l, p.from))
			path := filepath.Join(screensDir, p.name+"-"+l.name+".png")
			if err := os.WriteFile(path, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d KB", path, len(shot)/1024)
		}
	}
}

// screenshot takes a PNG of the page the tab shows, in look l: the
// window's width, from the page's top or, when from is a CSS selector,
// from a little above the first element it matches, down to the page's
// end or maxScreenHeight, whichever comes first.
func (b *browserTab) screenshot(l look, from string) []byte {
	b.t.Helper()
	top := 0.0
	if from != "" {
		top = readPage(b, "find "+from, chromedp.Evaluate[float64](`Math.max(0, document.querySelector('`+from+`').getBoundingClientRect().top + window.scrollY - 80)`))
	}
	height := readPage(b, "the page's height", chromedp.Evaluate[float64](`document.documentElement.scrollHeight`))
	height = min(height-top, maxScreenHeight)
	return readPage(b, "take a screenshot", chromedp.Action[[]byte](func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:                page.CaptureScreenshotFormatPng,
			Clip:                  &page.Viewport{X: 0, Y: top, Width: float64(l.width), Height: height, Scale: 1},
			CaptureBeyondViewport: new(true),
			FromSurface:           new(true),
		})
		return r.Data, err
	}))
}

// compressPNG makes a screenshot small enough to commit: a paletted PNG
// of the 256 colours it uses most (a page is mostly flat colour; the
// rest, text's anti-aliasing, takes the nearest of them), at the best
// compression Go's encoder has.
func compressPNG(t *testing.T, data []byte) []byte {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode a screenshot: %v", err)
	}
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	colours := slices.Collect(maps.Keys(counts))
	slices.SortFunc(colours, func(a, b color.RGBA) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(uint32(a.R)<<16|uint32(a.G)<<8|uint32(a.B), uint32(b.R)<<16|uint32(b.G)<<8|uint32(b.B))
	})
	palette := make(color.Palette, 0, 256)
	for _, c := range colours[:min(256, len(colours))] {
		palette = append(palette, c)
	}
	out := image.NewPaletted(b, palette)
	nearest := map[color.RGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			i, ok := nearest[c]
			if !ok {
				i = uint8(palette.Index(c))
				nearest[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, out); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

package web_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The pages in the system's dark mode, and the contrast of their colours.

// darkMode checks that the pages follow the system's dark mode: a dark
// page, light text, and a learning curve drawn light.
func darkMode(t *testing.T, ctx context.Context, url, shots string) {
	t.Helper()
	dark := func(on bool) {
		params := emulation.SetEmulatedMediaParams{}
		if on {
			params.Features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, params); err != nil {
			t.Fatal(err)
		}
	}
	dark(true)
	defer dark(false)
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttChart && document.querySelectorAll("#leaderboard tbody tr").length > 0`)
	colors := eval[[]string](t, ctx, `[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).color, getComputedStyle(document.querySelector(".card")).backgroundColor, tttChart.series[1].stroke()]`)
	want := []string{"rgb(15, 19, 26)", "rgb(227, 231, 238)", "rgb(23, 28, 37)", "#e6e6e6"}
	if !slices.Equal(colors, want) {
		t.Errorf("in dark mode the page, its text, a card and the learning curve are %q; want %q", colors, want)
	}
	// 8. The pressed range button stands out from its card: WCAG's 3:1
	// for the parts of a control.
	if c := eval[float64](t, ctx, contrast(`document.querySelector("#range [aria-pressed=true]")`, `document.querySelector(".card")`)); c < 3 {
		t.Errorf("in dark mode the pressed range button's contrast with its card is %.2f:1; want 3:1 at least", c)
	}
	screenshot(t, ctx, shots, "serve-leaderboard-dark.png")
	dark(false)
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `window.tttChart && document.querySelector("#range [aria-pressed=true]")`)
	if c := eval[float64](t, ctx, contrast(`document.querySelector("#range [aria-pressed=true]")`, `document.querySelector(".card")`)); c < 3 {
		t.Errorf("the pressed range button's contrast with its card is %.2f:1; want 3:1 at least", c)
	}
}

// contrast is an expression: the contrast ratio of the background
// colours of the elements that a and b (expressions) are, as WCAG
// reckons it from their relative luminance.
func contrast(a, b string) string {
	return fmt.Sprintf(`(() => {
		const lum = (e) => {
			const [r, g, b] = getComputedStyle(e).backgroundColor.match(/\d+/g).slice(0, 3).map(Number).map((c) => {
				c /= 255;
				return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
			});
			return 0.2126 * r + 0.7152 * g + 0.0722 * b;
		};
		const [x, y] = [lum(%s), lum(%s)].sort((p, q) => q - p);
		return (x + 0.05) / (y + 0.05);
	})()`, a, b)
}

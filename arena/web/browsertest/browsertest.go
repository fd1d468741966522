// Package browsertest drives the system's headless Chromium for the viewer's end-to-end
// tests: Start gives a browser context, or skips the test, saying why, when no Chromium is
// installed (make deps installs Debian's chromium).
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Browser is a headless Chromium tab and what its pages reported.
type Browser struct {
	Ctx context.Context
	mu  sync.Mutex
	// problems are script exceptions and console or policy errors.
	problems []string
}

// Start starts a headless Chromium with one tab for the test, closed at its end; it skips
// the test when no Chromium can be found.
func Start(t *testing.T) *Browser {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("browser test skipped: no chromium on PATH (make deps installs Debian's chromium)")
	}
	// Chromium makes its singleton socket's directory (org.chromium.Chromium.*) in TMPDIR and
	// leaves it there when it is killed at the end: in the test's own directory it goes too.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1100, 1300), chromedp.Env("TMPDIR="+t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	b := &Browser{Ctx: ctx}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Skipf("browser test skipped: chromium at %s does not start headless here: %v", path, err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.mu.Lock()
				b.problems = append(b.problems, string(m.Type)+": "+m.Text)
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// Problems returns the script exceptions and errors (a Content-Security-Policy violation
// among them) the pages reported so far.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// Screenshot saves a screenshot of the whole page as name (a .png) in the test's temporary
// directory, and also in $ARENA_SCREENSHOTS when that is set; it returns the first path.
func (b *Browser) Screenshot(t *testing.T, name string) string {
	t.Helper()
	png, err := chromedp.Run(b.Ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("ARENA_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

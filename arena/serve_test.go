package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/klaverjas-arena/arena/arena/web/browsertest"
)

// startViewer starts the arena binary with args (a command that serves the viewer on
// 127.0.0.1:0) and returns the process and the viewer's base URL, read from its output.
// The rest of its output is collected in out.
func startViewer(t *testing.T, arena string, out *strings.Builder, args ...string) (*exec.Cmd, string, chan error) {
	t.Helper()
	cmd := arenaCommand(arena, args...)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-done
		}
	})
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			out.WriteString(line + "\n")
			if addr, ok := strings.CutPrefix(line, "viewer: "); ok {
				base <- strings.TrimSuffix(strings.Fields(addr)[0], "/")
			}
		}
		done <- cmd.Wait()
	}()
	select {
	case u := <-base:
		return cmd, u, done
	case err := <-done:
		t.Fatalf("arena %v ended before serving: %v\n%s", args, err, out.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("arena %v: no viewer address after 60 s\n%s", args, out.String())
	}
	return nil, "", nil
}

// hostileName and hostileAuthor are a bot's name and author line in the live league: HTML
// that must show as text (a name has no slashes or spaces, so its tags stay unclosed).
const (
	hostileName   = "<u>bot0<u>"
	hostileAuthor = `<a href="http://evil.example/">M</a> & <u>co</u>`
)

// TestServeLiveLeague runs a real league of bot processes with --serve, watches its league
// page in a headless Chromium and sees the progress and the standings change without a
// reload; then serves the finished database with arena serve and its export with --log.
func TestServeLiveLeague(t *testing.T) {
	arena, _ := buildTools(t)
	b := browsertest.Start(t)
	dir := botDir(t)
	// Each bot starts a second late, so that every match takes a second or more: a script
	// beside a copy of the random bot (the sandbox shows the script's directory).
	bin, err := os.ReadFile(randomBot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "random"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	var lf strings.Builder
	fmt.Fprintf(&lf, "name = \"live\"\ngames = 10\nseed = 5\nconcurrency = 1\n")
	for i := range 3 {
		script := filepath.Join(dir, fmt.Sprintf("slow%d.sh", i))
		body := fmt.Sprintf("sleep 1\nexec \"$(dirname \"$0\")/random\" -seed %d\n", i+1)
		if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("bot%d", i)
		if i == 0 {
			name = hostileName // and an author line of HTML: both must show as text
			fmt.Fprintf(&lf, "[[bot]]\nauthor = %q\n", hostileAuthor)
		} else {
			fmt.Fprintf(&lf, "[[bot]]\n")
		}
		fmt.Fprintf(&lf, "name = %q\ncmd = [\"sh\", %q]\n", name, script)
	}
	file := filepath.Join(dir, "live.toml")
	if err := os.WriteFile(file, []byte(lf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "arena.db")
	var out strings.Builder
	_, base, done := startViewer(t, arena, &out, "league", "--db", db, "--serve", "127.0.0.1:0", "--progress-every", "1h", file)
	ctx := b.Ctx
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/league/live"), chromedp.WaitReady(chromedp.ID("standings"))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded = true`)); err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) { // the first event
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`'done' in document.getElementById('progress').dataset`)); err != nil || ok {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("no progress event on the league page in a minute")
		}
	}
	read := func() (int, string) {
		t.Helper()
		done, err := chromedp.Run(ctx, chromedp.Evaluate[int](`parseInt(document.getElementById('progress').dataset.done, 10)`))
		if err != nil {
			t.Fatal(err)
		}
		table, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#standings tbody`)))
		if err != nil {
			t.Fatal(err)
		}
		return done, table
	}
	first, table0 := read()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		n, table := read()
		if n > first && table != table0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no change seen on the league page: %d matches done, then %d\n%s\n%s", first, n, table0, table)
		}
		time.Sleep(200 * time.Millisecond)
	}
	b.Screenshot(t, "league-live.png")
	// The table the events rebuilt shows the hostile name and author line as text.
	if got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelectorAll('#standings u, #standings a[href^="http"], #standings script').length + '',
		[...document.querySelectorAll('#standings .author')].map(e => e.textContent).join('|'),
		[...document.querySelectorAll('#standings .name a')].map(e => e.textContent).sort().join('|')]`)); err != nil ||
		got[0] != "0" || got[1] != hostileAuthor || got[2] != hostileName+"|bot1|bot2" {
		t.Errorf("live standings: injected elements, author lines, names %q (%v)", got, err)
	}
	if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded === true`)); err != nil || !ok {
		t.Errorf("the page was reloaded (%v)", err)
	}
	select {
	case err := <-done:
		if err != nil || !strings.Contains(out.String(), "league live finished") || strings.Contains(out.String(), "crash:") {
			t.Fatalf("league: %v\n%s", err, out.String())
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("the league did not finish\n%s", out.String())
	}
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("the page reported errors: %q", p)
	}

	// The finished database, then its export, served by arena serve; Ctrl-C stops it.
	export := filepath.Join(dir, "live.jsonl")
	if err := arenaCommand(arena, "export", "--db", db, "--output", export).Run(); err != nil {
		t.Fatal(err)
	}
	for _, src := range [][]string{{"--db", db}, {"--log", export}} {
		var sout strings.Builder
		cmd, base, done := startViewer(t, arena, &sout, append([]string{"serve", "--addr", "127.0.0.1:0"}, src...)...)
		league := "live" // a log's league is named after its file: live.jsonl
		for _, path := range []string{"/", "/league/" + league, "/league/" + league + "/match/0/deal/1", "/api/league/" + league} {
			resp, err := http.Get(base + path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "bot1") && path != "/" {
				t.Errorf("%v %s: %d\n%.300s", src, path, resp.StatusCode, body)
			}
		}
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			var exit *exec.ExitError // 130: the arena's exit status after an interrupt
			if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 130) {
				t.Errorf("arena serve %v after Ctrl-C: %v", src, err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("arena serve %v did not stop on Ctrl-C", src)
		}
	}
}

// TestServeLoopbackAnswersLocalNamesOnly: a viewer on 127.0.0.1 answers a browser that
// came by localhost or the address, and refuses one that came by another name, as a page
// of that name pointed at 127.0.0.1 (DNS rebinding) would: it must not read the viewer.
func TestServeLoopbackAnswersLocalNamesOnly(t *testing.T) {
	arena, _ := buildTools(t)
	var out strings.Builder
	_, base, _ := startViewer(t, arena, &out, "serve", "--log", filepath.Join("web", "testdata", "league.jsonl"), "--addr", "127.0.0.1:0")
	port := strings.TrimPrefix(base, "http://127.0.0.1:")
	for host, want := range map[string]int{
		"127.0.0.1:" + port:                     http.StatusOK,
		"localhost:" + port:                     http.StatusOK,
		"LocalHost":                             http.StatusOK,
		"[::1]:" + port:                         http.StatusOK,
		"evil.example:" + port:                  http.StatusMisdirectedRequest,
		"localhost.evil.example:" + port:        http.StatusMisdirectedRequest,
		"127.0.0.1.nip.example:" + port:         http.StatusMisdirectedRequest,
		"viewer.localhost.evil.example:" + port: http.StatusMisdirectedRequest,
	} {
		for _, path := range []string{"/", "/api/leagues"} {
			req, err := http.NewRequest("GET", base+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = host
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != want {
				t.Errorf("Host %s, %s: status %d, want %d: %.200s", host, path, res.StatusCode, want, body)
			}
			if want != http.StatusOK && !strings.Contains(string(body), "DNS rebinding") {
				t.Errorf("Host %s, %s: the refusal does not say why: %s", host, path, body)
			}
		}
	}
}

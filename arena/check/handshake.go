package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// handshakeItems checks the hello and the default ruleset on one start of the bot. A bot
// may refuse the default (spec.md §4), which is a warning: it then plays only where it is
// given a ruleset it accepts, and the check plays its items under the first four-player
// preset it accepts (c.homeName). One that accepts none fails the ruleset item.
func (c *checker) handshakeItems() []Item {
	hsName, rulesName := "handshake", "ruleset amsterdams (the default) accepted"
	s, f := c.start()
	if f != nil {
		return []Item{f.item(hsName), {Name: rulesName, Status: Skip, Detail: "not run: the handshake failed"}}
	}
	def := rules.Default()
	hello, refused, f := s.handshake(def.Options())
	if hello == nil {
		return []Item{f.item(hsName), {Name: rulesName, Status: Skip, Detail: "not run: the handshake failed"}}
	}
	c.report.Name, c.report.Author = hello.Name, hello.Author
	hs := Item{Name: hsName, Status: Pass, Detail: fmt.Sprintf("%q: protocol 1, name %s, author %q", hello.Line(), hello.Name, hello.Author)}
	switch {
	case f != nil:
		return []Item{hs, f.item(rulesName)}
	case refused == "":
		s.quit()
		return []Item{hs, {Name: rulesName, Status: Pass, Detail: `answered "ok"`}}
	}
	it := Item{Name: rulesName, Sent: protocol.Line(&protocol.Rules{Options: def.Options()}), Got: "refuse " + refused,
		Want: "ok: arena match, and a league file without rules, play the default ruleset"}
	for _, name := range rules.PresetNames()[1:] {
		rs, _ := rules.Preset(name)
		s, f := c.start()
		if f != nil {
			return []Item{hs, f.item(rulesName)}
		}
		_, declined, f := s.handshake(rs.Options())
		if f != nil {
			f.detail = "preset " + name + ": " + f.detail
			return []Item{hs, f.item(rulesName)}
		}
		if declined == "" {
			s.quit()
			c.homeName = name
			it.Status, it.Detail = Warn, fmt.Sprintf("refuses the default ruleset: %s; the bot plays only a match or league given a ruleset it accepts (--rules, or rules in the league file); the check plays the items that name no ruleset under %s, the first preset it accepts", refused, name)
			return []Item{hs, it}
		}
	}
	c.homeName = ""
	it.Status, it.Detail = Fail, "refuses the default ruleset, "+refused+", and every other four-player preset: the check has no ruleset to play its items under"
	return []Item{hs, it}
}

// versionItem offers protocol versions 1 and 2, as an arena that speaks both will (spec.md
// §10): a version-1 bot must answer hello 1.
func (c *checker) versionItem() Item {
	const name = "version negotiation: offered \"klaverjas 1 2\", answers hello 1"
	s, f := c.start()
	if f != nil {
		return f.item(name)
	}
	defer s.quit()
	offer := &protocol.Klaverjas{Versions: []int{protocol.Version, protocol.Version + 1}}
	want := "hello 1 <name> <author...>: the bot speaks version 1, so it chooses 1 (spec.md §10)"
	line, f := s.ask(offer, "hello", c.opts.Time.Startup, want)
	if f != nil {
		return f.item(name)
	}
	hello, err := protocol.ParseHello(line)
	if err == nil && hello.Version != protocol.Version {
		err = fmt.Errorf("the bot chose version %d", hello.Version)
	}
	if err != nil {
		return Item{Name: name, Status: Fail, Detail: "bad hello: " + err.Error(), Sent: protocol.Line(offer), Got: line, Want: want, Stderr: stderrExcerpt(s.conn.StderrTail())}
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("answered %q", line)}
}

// rulesetsItem offers every preset and notes which the bot declines.
func (c *checker) rulesetsItem() Item {
	const name = "rulesets: answers every preset with ok or refuse"
	var played, declined []string
	for _, preset := range rules.PresetNames() {
		rs, _ := rules.Preset(preset)
		s, f := c.start()
		if f != nil {
			return f.item(name)
		}
		_, refused, f := s.handshake(rs.Options())
		if f != nil {
			f.detail = "preset " + preset + ": " + f.detail
			return f.item(name)
		}
		if refused != "" {
			declined = append(declined, fmt.Sprintf("declines ruleset %s: %s", preset, refused))
			continue
		}
		s.quit()
		played = append(played, preset)
	}
	if len(played) == 0 {
		return Item{Name: name, Status: Info, Detail: "plays no preset; " + strings.Join(declined, "; ")}
	}
	if len(declined) > 0 {
		return Item{Name: name, Status: Info, Detail: "plays " + strings.Join(played, ", ") + "; " + strings.Join(declined, "; ")}
	}
	return Item{Name: name, Status: Pass, Detail: "plays every preset: " + strings.Join(played, ", ")}
}

// quitItem expects the bot to exit by itself soon after quit (a warning when it does not:
// spec.md §4 says SHOULD).
func (c *checker) quitItem() Item {
	name := fmt.Sprintf("quit: exits within %v", c.opts.QuitWait)
	s, f := c.start()
	if f != nil {
		return f.item(name)
	}
	home := c.home()
	if _, refused, f := s.handshake(home.Options()); f != nil || refused != "" {
		if f != nil {
			return f.item(name)
		}
		return c.homeRefused(name, refused)
	}
	ex, ok := s.conn.(Exiter)
	if !ok {
		s.quit()
		return Item{Name: name, Status: Info, Detail: "not checked: the bot does not run as a process"}
	}
	sent := time.Now()
	s.tell(&protocol.Quit{})
	ex.Quitting()
	for time.Since(sent) < c.opts.QuitWait && ex.ExitStatus() == "" {
		time.Sleep(5 * time.Millisecond)
	}
	status := ex.ExitStatus()
	took := time.Since(sent)
	if status == "" {
		s.stop()
		after := ex.ExitStatus()
		how := "it had to be killed (" + after + ")"
		if strings.HasPrefix(after, "exit status") {
			how = "it exited only when its input was closed (" + after + ")"
		}
		return Item{Name: name, Status: Warn, Detail: fmt.Sprintf("still running %v after quit; %s; the arena stops such a bot (SIGTERM, then SIGKILL), which is no fault but makes every match wait for it", c.opts.QuitWait, how),
			Sent: "quit", Want: "the program exits at once (spec.md §4: SHOULD)", Stderr: stderrExcerpt(s.conn.StderrTail())}
	}
	s.stop()
	if status != "exit status 0" {
		return Item{Name: name, Status: Warn, Detail: fmt.Sprintf("exited %d ms after quit, but with %s", took.Milliseconds(), status), Sent: "quit", Want: "exit status 0", Stderr: stderrExcerpt(s.conn.StderrTail())}
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("exited %d ms after quit (%s)", took.Milliseconds(), status)}
}

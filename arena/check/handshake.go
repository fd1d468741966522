package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee/rules"
)

// handshakeItems checks the hello and the default ruleset on one start of the bot.
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
	case refused != "":
		return []Item{hs, {Name: rulesName, Status: Fail, Detail: "refuses the default ruleset: " + refused,
			Sent: protocol.Line(&protocol.Rules{Options: def.Options()}), Got: "refuse " + refused, Want: "ok: every bot must play the default ruleset"}}
	}
	s.quit()
	return []Item{hs, {Name: rulesName, Status: Pass, Detail: `answered "ok"`}}
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
		return Item{Name: name, Status: Fail, Detail: "bad hello: " + err.Error(), Sent: protocol.Line(offer), Got: line, Want: want, Stderr: lastLines(s.conn.StderrTail(), 5)}
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
			if preset == "amsterdams" {
				return Item{Name: name, Status: Fail, Detail: "refuses the default ruleset: " + refused, Got: "refuse " + refused, Want: "ok"}
			}
			declined = append(declined, fmt.Sprintf("declines ruleset %s: %s", preset, refused))
			continue
		}
		s.quit()
		played = append(played, preset)
	}
	if len(declined) > 0 {
		return Item{Name: name, Status: Info, Detail: "plays " + strings.Join(played, ", ") + "; " + strings.Join(declined, "; ")}
	}
	return Item{Name: name, Status: Pass, Detail: "plays every preset: " + strings.Join(played, ", ")}
}

// quitItem requires the bot to exit by itself soon after quit.
func (c *checker) quitItem() Item {
	name := fmt.Sprintf("quit: exits within %v", c.opts.QuitWait)
	s, f := c.start()
	if f != nil {
		return f.item(name)
	}
	def := rules.Default()
	if _, refused, f := s.handshake(def.Options()); f != nil || refused != "" {
		if f != nil {
			return f.item(name)
		}
		return Item{Name: name, Status: Skip, Detail: "not run: the bot refuses the default ruleset"}
	}
	ex, ok := s.conn.(Exiter)
	if !ok {
		s.quit()
		return Item{Name: name, Status: Info, Detail: "not checked: the bot does not run as a process"}
	}
	sent := time.Now()
	s.tell(&protocol.Quit{})
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
		return Item{Name: name, Status: Fail, Detail: fmt.Sprintf("still running %v after quit; %s", c.opts.QuitWait, how), Sent: "quit", Want: "the program exits at once (spec.md §4)", Stderr: lastLines(s.conn.StderrTail(), 5)}
	}
	s.stop()
	if status != "exit status 0" {
		return Item{Name: name, Status: Warn, Detail: fmt.Sprintf("exited %d ms after quit, but with %s", took.Milliseconds(), status), Sent: "quit", Want: "exit status 0", Stderr: lastLines(s.conn.StderrTail(), 5)}
	}
	return Item{Name: name, Status: Pass, Detail: fmt.Sprintf("exited %d ms after quit (%s)", took.Milliseconds(), status)}
}

package botproc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/klaverjas-arena/arena/protocol"
	"github.com/klaverjas-arena/arena/referee"
)

// Reply is what a bot wrote in answer to an Exchange, with what it cost.
type Reply struct {
	// Line is the answer, without its line end. Empty when no answer was asked for.
	Line string
	// Infos are the info lines (protocol.IsInfo) the bot wrote before its answer, at most
	// MaxInfo of them.
	Infos []string
	// Wall is the time from the end of the write to the arrival of the answer (without an
	// answer: the time the write took).
	Wall time.Duration
	// CPU is the CPU time the bot used since its previous answer was read (for the first
	// answer: since it started), up to this answer: all its processes (µs resolution) where
	// it has a cgroup, else its main process only (ns resolution). So it includes the work
	// on lines sent without an answer due, and any pondering between requests, and the CPU
	// of all answers adds up to the bot's total. Zero when no answer was asked for, and
	// after Conn.MeterCPU (CPUSinceMark then reads it).
	CPU time.Duration
}

// Exchange writes out to the bot's stdin (complete newline-terminated lines, in one write)
// and, if wantReply, reads lines until one that is not an info line arrives: that is the
// answer. timeout bounds the write, and then, separately, the wait for the answer, measured
// from the end of the write. An empty out writes nothing and only waits, for protocols in
// which the bot speaks first. Any line that is not an info line is the answer, a blank one
// too: judging it is the referee's business.
//
// Bot failures are returned as a *Fault (the Reply then still holds the info lines read and
// the times):
//
//   - Timeout: no answer in time (the Detail quotes any partial line);
//   - Crash: EOF on stdout, a write to stdin that found it closed, or a last line without a
//     newline (never taken as an answer); the Detail says how the process ended;
//   - MemoryLimit: as Crash, when the kernel killed the bot at Spec.MemoryMax;
//   - Garbage: a line longer than protocol.MaxLineLength (found as soon as that many bytes
//     without a newline have arrived) or with a byte that is not printable ASCII;
//   - Flood: more than MaxInfo info lines before the answer, or any output, info lines
//     included, written while no answer was due. spec.md says a bot writes only to answer a
//     request; such output is found at the start of the next Exchange with a non-empty out
//     (lines that arrive after that Exchange's write are read as part of it: the protocol
//     has no sequence numbers) and is never carried into the next answer;
//   - WriteBlocked: the write did not finish within timeout (the bot does not read stdin).
//
// After a fault, Exchange with wantReply returns the same fault at once; without wantReply
// it still writes (so the referee can tell the bot why it is being stopped) and returns only
// a write failure. After Stop it returns ErrStopped, and an Exchange that is waiting when
// Stop is called returns ErrStopped at once.
func (p *Proc) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	if timeout <= 0 {
		return Reply{}, fmt.Errorf("botproc: Exchange timeout %v is not positive", timeout)
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		return Reply{}, errors.New("botproc: Exchange output does not end with a newline")
	}
	if p.stopping.Load() {
		return Reply{}, ErrStopped
	}
	if p.fault != nil {
		if wantReply {
			return Reply{}, p.fault
		}
		if _, err := p.pipes.write(out, time.Now().Add(timeout), &p.stopping); err != nil {
			return Reply{}, p.writeFault(err, timeout, len(out))
		}
		return Reply{}, nil
	}
	if wantReply {
		p.turnEdge(true)
		defer p.turnEdge(false)
	}
	start := time.Now()
	if len(out) > 0 {
		if f := p.unsolicited(); f != nil {
			return Reply{}, p.setFault(f)
		}
		if _, err := p.pipes.write(out, start.Add(timeout), &p.stopping); err != nil {
			return Reply{}, p.setFault(p.writeFault(err, timeout, len(out)))
		}
	}
	written := time.Now()
	if !wantReply {
		return Reply{Wall: written.Sub(start)}, nil
	}
	r, err := p.readReply(written, timeout)
	if err == nil && !p.cpuLater {
		r.CPU = p.CPUSinceMark()
	}
	if p.log.Trace().Enabled() {
		p.log.Trace().Bytes("out", out).Str("reply", r.Line).Int("infos", len(r.Infos)).
			Dur("wall", r.Wall).Dur("cpu", r.CPU).Err(err).Msg("botproc: exchange")
	}
	return r, err
}

// readReply reads lines until the answer, from written (the end of the write) for timeout.
func (p *Proc) readReply(written time.Time, timeout time.Duration) (Reply, error) {
	var r Reply
	p.outR.deadline, p.outR.until, p.outR.draining = written.Add(timeout), written.Add(timeout), false
	if p.exitedFlag.Load() { // exited before this Exchange: its wake-up may be spent
		p.outR.drain()
	}
	for {
		line, err := p.lr.ReadLine()
		r.Wall = time.Since(written)
		if err == nil || errors.Is(err, protocol.ErrNotASCII) || errors.Is(err, protocol.ErrLineTooLong) {
			p.consumed++
			if p.consumed > p.meter.newlines { // a last line without a newline: never an answer
				return r, p.setFault(p.crashFault("wrote a partial line " + quote(line) + " and closed its stdout"))
			}
		}
		switch {
		case err == nil:
			s := string(line)
			if !protocol.IsInfo(s) {
				r.Line = s
				return r, nil
			}
			if len(r.Infos) == MaxInfo {
				return r, p.setFault(p.newFault(referee.FaultFlood, fmt.Sprintf("more than %d info lines before an answer", MaxInfo)))
			}
			r.Infos = append(r.Infos, s)
		case errors.Is(err, protocol.ErrNotASCII):
			return r, p.setFault(p.newFault(referee.FaultGarbage, "line with a byte that is not printable ASCII: "+quote(line)))
		case errors.Is(err, protocol.ErrLineTooLong):
			return r, p.setFault(p.newFault(referee.FaultGarbage, fmt.Sprintf("line of %d bytes, longer than the %d bytes allowed, starting %s",
				p.meter.longLen, protocol.MaxLineLength, quoteStart(p.meter.long[:p.meter.longN]))))
		case errors.Is(err, errRunaway):
			return r, p.setFault(p.newFault(referee.FaultGarbage, fmt.Sprintf("line longer than the %d bytes allowed (not read further), starting %s",
				protocol.MaxLineLength, quoteStart(p.meter.head[:p.meter.headN]))))
		case errors.Is(err, io.EOF):
			if p.meter.cur > 0 {
				return r, p.setFault(p.crashFault("wrote a partial line " + p.meter.partial() + " and closed its stdout"))
			}
			return r, p.setFault(p.crashFault("closed its stdout"))
		case errors.Is(err, os.ErrDeadlineExceeded):
			if p.exitedFlag.Load() {
				if !p.pipes.everWritten() { // only our placeholder holds its stdout open
					return r, p.setFault(p.crashFault("exited without writing a line"))
				}
				return r, p.setFault(p.crashFault("exited; a leftover process keeps its stdout open"))
			}
			detail := fmt.Sprintf("no answer within %v", timeout)
			if p.meter.cur > 0 {
				detail += "; partial line " + p.meter.partial()
			}
			detail += p.cpuWaitSinceMark(timeout)
			return r, p.setFault(p.newFault(referee.FaultTimeout, detail))
		case errors.Is(err, os.ErrClosed) && p.stopping.Load():
			return r, ErrStopped
		default:
			return r, p.setFault(p.crashFault("read stdout: " + err.Error()))
		}
	}
}

// unsolicited returns a Flood fault if the bot wrote anything since the last answer was read:
// a complete line or a partial one in the reader, or bytes in the pipe.
func (p *Proc) unsolicited() *Fault {
	const what = "output while no answer was due: "
	switch {
	case p.meter.newlines > p.consumed: // a whole line is buffered; reading it cannot block
		line, _ := p.lr.ReadLine()
		p.consumed++
		return p.newFault(referee.FaultFlood, what+quote(line))
	case p.meter.cur > 0:
		return p.newFault(referee.FaultFlood, what+"partial line "+p.meter.partial())
	}
	var buf [maxQuoted + 2]byte
	k := p.pipes.pending(buf[:])
	if k == 0 {
		return nil
	}
	if i := bytes.IndexByte(buf[:k], '\n'); i >= 0 {
		return p.newFault(referee.FaultFlood, what+quote(bytes.TrimSuffix(buf[:i], []byte{'\r'})))
	}
	if k == len(buf) { // more may follow in the pipe: its length is unknown
		return p.newFault(referee.FaultFlood, what+quoteStart(buf[:k]))
	}
	return p.newFault(referee.FaultFlood, what+"partial line "+quote(buf[:k]))
}

// writeFault classifies a failed write of n bytes.
func (p *Proc) writeFault(err error, timeout time.Duration, n int) error {
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return p.newFault(referee.FaultBlocked, fmt.Sprintf("did not read its input: %d bytes not written within %v", n, timeout))
	case errors.Is(err, syscall.EPIPE):
		return p.crashFault("closed its stdin")
	case errors.Is(err, os.ErrClosed) && p.stopping.Load():
		return ErrStopped
	}
	return p.crashFault("write stdin: " + err.Error())
}

// crashFault returns a Crash fault (or MemoryLimit, if the kernel killed the bot for memory)
// after waiting briefly for the main process to exit, so that the Detail says how it ended.
func (p *Proc) crashFault(what string) *Fault {
	t := time.NewTimer(statusWait)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		return p.newFault(referee.FaultCrash, what+"; the process is still running")
	}
	// Let the stderr drain catch up, so the fault carries the bot's last words (bounded: a
	// leftover process may hold stderr open).
	waitFor(p.drainDone, exitDrain)
	if p.cg != nil && p.memMax > 0 {
		if n := p.cg.oomKills(); n > 0 {
			return p.newFault(referee.FaultMemory, fmt.Sprintf("%s; %s after reaching its memory limit of %d bytes (%d OOM kills)",
				what, p.exitInfo, p.memMax, n))
		}
	}
	if err := p.ctx.Err(); err != nil {
		return p.newFault(referee.FaultCrash, fmt.Sprintf("%s; %s (killed by the arena: %v)", what, p.exitInfo, err))
	}
	return p.newFault(referee.FaultCrash, what+"; "+p.exitInfo.String())
}

func (p *Proc) newFault(k referee.FaultKind, detail string) *Fault {
	return &Fault{Bot: p.name, Kind: k, Detail: detail}
}

// setFault records f as the Proc's fault, with the stderr capture, and returns it. Other
// errors pass through.
func (p *Proc) setFault(err error) error {
	f, ok := err.(*Fault)
	if !ok {
		return err
	}
	f.StderrTail = p.errBuf.String()
	p.fault = f
	return f
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// errRunaway is returned by meter when more bytes than a line may have arrived without a
// newline, so a bot streaming one endless line is stopped at once, not at the deadline.
var errRunaway = errors.New("line without end")

// headLen is how many bytes of the current line meter keeps for messages.
const headLen = maxQuoted + 1

// stdoutReader reads the bot's stdout for the current Exchange, until its deadline. It also
// absorbs the wake-up of the exit watcher (signalled when the bot's main process exits): it
// then keeps reading, for at most exitDrain, what the bot wrote before exiting. The line
// reader never sees that wake-up, which would make bufio drop a partial line.
type stdoutReader struct {
	p        *Proc
	deadline time.Time // of the current Exchange
	until    time.Time // the deadline, or earlier once draining
	draining bool      // the main process has exited; until is at most exitDrain away
}

// drain starts draining: the main process has exited.
func (r *stdoutReader) drain() {
	r.draining = true
	r.until = earlier(r.deadline, time.Now().Add(exitDrain))
}

func (r *stdoutReader) Read(b []byte) (int, error) {
	for {
		n, err := r.p.pipes.read(b, r.until)
		if err != errWake {
			return n, err
		}
		if r.p.stopping.Load() {
			return 0, os.ErrClosed
		}
		if !r.draining && r.p.exitedFlag.Load() {
			r.drain()
		}
	}
}

// meter sits between the bot's stdout and the line reader: it counts newlines (so Exchange
// knows whether a whole line is buffered), tracks the length and the start of the current
// line, and fails a line that can no longer be valid.
type meter struct {
	f        io.Reader     // the bot's stdout (a stdoutReader)
	newlines uint64        // newlines read from the pipe
	cur      int           // bytes read since the last newline
	last     byte          // the last byte read
	head     [headLen]byte // the start of the current line
	headN    int
	long     [headLen]byte // the start of the first complete line that is too long
	longN    int
	longLen  int // that line's length in bytes, without its newline
}

func (m *meter) Read(b []byte) (int, error) {
	if m.cur > protocol.MaxLineLength+1 { // +1: a "\r" before the "\n"
		return 0, errRunaway
	}
	n, err := m.f.Read(b)
	if n > 0 {
		m.account(b[:n])
	}
	return n, err
}

func (m *meter) account(b []byte) {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		m.newlines++
		if n := m.cur + i; m.longN == 0 && (n > protocol.MaxLineLength+1 ||
			n == protocol.MaxLineLength+1 && lastBefore(b, i, m.last) != '\r') {
			m.longN = copy(m.long[:], m.head[:m.headN])
			m.longN += copy(m.long[m.longN:], b[:i])
			m.longLen = n
		}
		m.cur, m.headN = 0, 0
		m.last = '\n'
		b = b[i+1:]
	}
	if len(b) > 0 {
		m.cur += len(b)
		m.headN += copy(m.head[m.headN:], b)
		m.last = b[len(b)-1]
	}
}

// partial quotes the current, unfinished line: its start, and its length when that is cut.
func (m *meter) partial() string {
	if m.cur <= maxQuoted {
		return quote(m.head[:m.headN])
	}
	return quoteStart(m.head[:m.headN]) + " (" + strconv.Itoa(m.cur) + " bytes)"
}

// lastBefore returns the byte before b[i], which is prev if i is 0.
func lastBefore(b []byte, i int, prev byte) byte {
	if i > 0 {
		return b[i-1]
	}
	return prev
}

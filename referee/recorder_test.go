package referee

import (
	"bytes"
	"context"
	"strings"
	"time"
)

// recording wraps a Conn and keeps the transcript: "< line" for every line sent to the bot
// and "> line" for every line it answered.
type recording struct {
	Conn
	lines *[]string
}

func (r recording) Exchange(out []byte, wantReply bool, timeout time.Duration) (Reply, error) {
	for line := range bytes.Lines(out) {
		*r.lines = append(*r.lines, "< "+strings.TrimSuffix(string(line), "\n"))
	}
	reply, err := r.Conn.Exchange(out, wantReply, timeout)
	if err == nil && wantReply {
		*r.lines = append(*r.lines, "> "+reply.Line)
	}
	return reply, err
}

// recorded returns a Starter whose connections append to lines.
func recorded(start Starter, lines *[]string) Starter {
	return func(ctx context.Context) (Conn, error) {
		c, err := start(ctx)
		if err != nil {
			return nil, err
		}
		return recording{Conn: c, lines: lines}, nil
	}
}

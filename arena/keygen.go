package main

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/klaverjas-arena/arena/referee"
	"github.com/urfave/cli/v2"
)

func keygenCommand() *cli.Command {
	return &cli.Command{
		Name:      "keygen",
		Usage:     "write a fresh secret deal key to a new file (mode 0600), for arena league --key and arena match --key",
		ArgsUsage: "FILE",
		Description: "The cards of a match are derived from its seed and, with a key, from the key too: without\n" +
			"the key, knowing the seed (from the command line, a log or the league file) reveals no\n" +
			"hand. A league makes its own key when it starts and keeps it in the database; give one\n" +
			"with --key only to make a league reproducible or to run it in shards. The file holds\n" +
			"64 hexadecimal digits and a newline; keygen never overwrites a file, and the arena\n" +
			"refuses a key file that its group or others may read.",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError{"arena keygen: want one key FILE (arena keygen --help)"}
			}
			path := c.Args().First()
			if err := writeKeyFile(path); err != nil {
				return err
			}
			fmt.Fprintf(c.App.ErrWriter, "arena: new deal key written to %s (mode 0600); keep it secret\n", path)
			return nil
		},
	}
}

// writeKeyFile writes a fresh deal key to a new file that only its owner may read: 64
// lowercase hexadecimal digits and a newline. It never overwrites an existing file.
func writeKeyFile(path string) error {
	key := make([]byte, referee.KeySize)
	rand.Read(key)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("key file %s exists already: keygen never overwrites a key (remove it first, or choose another name)", path)
	}
	if err != nil {
		return fmt.Errorf("key file: %w", err)
	}
	_, err = f.WriteString(hex.EncodeToString(key) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("key file %s: %w", path, err)
	}
	return nil
}

// readKeyFile reads a deal key written by keygen: exactly 64 hexadecimal digits and an
// optional newline, in a file its group and others may not read. Errors name the file,
// never the key.
func readKeyFile(path string) ([]byte, error) {
	// Checked before it is opened too: opening a named pipe waits for a writer.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("key file %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("key file %s is not a regular file", path)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("key file %s is open to its group or others (mode %04o): a deal key must be secret; chmod 600 %s", path, perm, path)
	}
	text, err := io.ReadAll(io.LimitReader(f, 2*referee.KeySize+2))
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	text = bytes.TrimSuffix(text, []byte("\n"))
	key := make([]byte, referee.KeySize)
	if len(text) != 2*referee.KeySize {
		return nil, fmt.Errorf("key file %s: not a deal key (want %d hexadecimal digits and a newline, as arena keygen writes)", path, 2*referee.KeySize)
	}
	if _, err := hex.Decode(key, text); err != nil {
		return nil, fmt.Errorf("key file %s: not a deal key (it may hold only the hexadecimal digits 0-9 and a-f, and a newline)", path)
	}
	return key, nil
}

// keyFromFlag reads the --key file, if given; nil means no key.
func keyFromFlag(c *cli.Context) ([]byte, error) {
	path := c.String("key")
	if path == "" {
		return nil, nil
	}
	return readKeyFile(path)
}

// randomSeed returns a seed from crypto/rand, for a match or demo not given one: a clock
// reading can be guessed.
func randomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.BigEndian.Uint64(b[:])
}

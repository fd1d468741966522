package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// inputFileError names the flag whose FILE could not be opened or read in err: `--deals x:
// no such file`, with what to do (hint, "" for none) when the file is missing. Any other
// error (the file's content) is returned as it is: it names the file.
func inputFileError(flag, path string, err error, hint string) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist) && hint != "":
		return fmt.Errorf("--%s %s: no such file (%s)", flag, path, hint)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--%s %s: no such file", flag, path)
	case errors.As(err, &pe):
		return fmt.Errorf("--%s %s: %w", flag, path, pe.Err)
	}
	return err
}

// checkOutputFile reports why the FILE of flag (a log or a trace) could not be written:
// it is a directory, or its directory is missing, not a directory or not writable. It
// creates nothing.
func checkOutputFile(flag, path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("--%s %s: is a directory; give a file", flag, path)
	} else if err == nil {
		return nil
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil || !fi.IsDir():
		return fmt.Errorf("--%s %s: no directory %s to write it in", flag, path, dir)
	case unix.Access(dir, unix.W_OK) != nil:
		return fmt.Errorf("--%s %s: directory %s is not writable", flag, path, dir)
	}
	return nil
}

// distinctErrors returns errs without the repeats of an error's text (two copies of one bot
// command fail alike), in their order.
func distinctErrors(errs []error) []error {
	seen := map[string]bool{}
	var out []error
	for _, err := range errs {
		if msg := err.Error(); !seen[msg] {
			seen[msg] = true
			out = append(out, err)
		}
	}
	return out
}

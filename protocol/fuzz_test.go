package protocol

import "testing"

func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"JH", "TS", "7C", "AD", "jh", "10H", "", "J", "XX", "JHH"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseCard(text)
		if err != nil {
			if c != NoCard {
				t.Fatalf("ParseCard(%q) failed but returned %v", text, c)
			}
			return
		}
		if !c.Valid() || c.String() != text {
			t.Fatalf("ParseCard(%q) = %v, which prints as %q", text, c, c.String())
		}
	})
}

func FuzzParseCardSet(f *testing.F) {
	for _, s := range []string{"JH TS 7C", "-", "", "JH JH", "  AS\tKS ", "7C 8C 9C TC JC QC KC AC"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseCardSet(text)
		if err != nil {
			return
		}
		back, err := ParseCardSet(s.String())
		if err != nil || back != s {
			t.Fatalf("ParseCardSet(%q) = %v; reparsing %q gives %v, %v", text, s, s.String(), back, err)
		}
	})
}

/* The cheapest possible bot, for benchmarks: it answers every request with its first legal
   option (in the three-player game, it discards the first two cards of its hand) and ignores
   events, so a match measures the arena and the pipes, not the bot. */
#include <stdio.h>
#include <string.h>

/* field returns the n-th space-separated token of line (from 0), terminated in place. */
static char *field(char *line, int n) {
	char *p = line;
	for (int i = 0; i < n && p; i++) {
		p = strchr(p, ' ');
		if (p) p++;
	}
	if (p) p[strcspn(p, " \n")] = 0;
	return p;
}

/* firstTwo turns the card list "c1,c2,c3..." into "c1 c2", in place. */
static char *firstTwo(char *cards) {
	char *comma = strchr(cards, ',');
	if (comma) {
		*comma = ' ';
		comma = strchr(comma, ',');
		if (comma) *comma = 0;
	}
	return cards;
}

int main(void) {
	static char line[1 << 16];
	setvbuf(stdout, NULL, _IOFBF, 1 << 12);
	while (fgets(line, sizeof line, stdin)) {
		if (!strncmp(line, "klaverjas", 9)) puts("hello 1 first-c");
		else if (!strncmp(line, "rules", 5)) puts("ok");
		else if (!strncmp(line, "bid ", 4)) puts(field(line, 3));
		else if (!strncmp(line, "play ", 5)) puts(field(line, 6));
		else if (!strncmp(line, "claim ", 6)) puts("0");
		else if (!strncmp(line, "discard ", 8)) puts(firstTwo(field(line, 4)));
		else if (!strncmp(line, "quit", 4)) return 0;
		else continue;
		fflush(stdout);
	}
	return 0;
}

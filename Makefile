# The two set-up commands of the README: `make demo` and `make test`.
GO ?= go
BIN := bin

## GOAMD64: the x86-64 instruction level the Go compiler may use. Where this machine's CPU
## has the x86-64-v3 instructions (AVX2, BMI1 and BMI2, FMA, LZCNT, MOVBE, F16C), binaries
## use them: the store's reads are 4-8% faster (BENCHMARKS.md). Such a binary refuses to
## start on an older CPU, saying so: `make build GOAMD64=v1` makes one for any x86-64 CPU.
GOAMD64 ?= $(shell for f in avx avx2 bmi1 bmi2 fma movbe f16c abm; do grep -qw $$f /proc/cpuinfo 2>/dev/null || { echo v1; exit; }; done; echo v3)
export GOAMD64

.PHONY: bench-league bench-reads bench-serve ratings-full roem-full demo demo-game soak test test-slurm deps fmt-check vet staticcheck cross unit python bench fuzz build clean

build:
	$(GO) build -ldflags "-X main.version=$$(git describe --tags --always --dirty 2>/dev/null || echo devel)" -o $(BIN)/arena ./arena

## deps: install bubblewrap, which sandboxes every bot (README, "Bots cannot cheat"), when it
## is missing: with apt-get as root, otherwise say how. Also e2fsprogs (scratch_size) and
## Debian's chromium for the web viewer's browser tests, when they can be installed (their
## tests skip, saying so, without them).
deps:
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing bubblewrap (the bots' sandbox)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; \
	  else \
	    echo "bubblewrap (bwrap) sandboxes the bots and is not installed: apt-get install bubblewrap, dnf install bubblewrap or pacman -S bubblewrap"; \
	    exit 1; \
	  fi; }
	@command -v mke2fs >/dev/null 2>&1 || command -v /usr/sbin/mke2fs /sbin/mke2fs >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing e2fsprogs (scratch_size: a scratch file system per bot process)"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq e2fsprogs >/dev/null; } || \
	      echo "e2fsprogs could not be installed: scratch_size is refused and its tests skip"; \
	  else \
	    echo "e2fsprogs is not installed (apt-get install e2fsprogs): scratch_size is refused and its tests skip"; \
	  fi; }
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing chromium (the web viewer's browser tests)"; \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	      echo "chromium could not be installed: the web viewer's browser tests will skip"; \
	  else \
	    echo "chromium is not installed (apt-get install chromium): the web viewer's browser tests will skip"; \
	  fi; }

## demo: build the arena and the example bots (bin/pimc too, which is not in the league: it
## thinks for up to 200 ms a decision), run a small round-robin league of them
## (arena/league/examples/demo.toml) into a fresh database, and print the standings.
demo: deps build
	$(GO) build -o $(BIN)/random ./examplebots/go/random
	$(GO) build -o $(BIN)/heuristic ./examplebots/go/heuristic
	$(GO) build -o $(BIN)/pimc ./examplebots/go/pimc
	@dir=$$(mktemp -d) && echo "database $$dir/arena.db" && \
	$(BIN)/arena league --db $$dir/arena.db arena/league/examples/demo.toml && \
	echo && echo "replay a deal trick by trick:" && \
	echo "  $(BIN)/arena replay --db $$dir/arena.db demo/0/1" && \
	echo "serve the league, its matches and every deal to a browser at http://127.0.0.1:8080:" && \
	echo "  $(BIN)/arena serve --db $$dir/arena.db"

## demo-game: play a whole 16-deal game between random players, deal by deal.
demo-game: build
	$(BIN)/arena demo --seed 1

## soak: the kill -9 resume test with many kills (SOAK kills, default 200) on a league of 15 games per pairing and kill, so that every kill finds it running.
SOAK ?= 200
soak: deps
	ARENA_SOAK=$(SOAK) $(GO) test ./arena -run '^TestLeagueKill9Resume$$' -count 1 -v -timeout 60m

## test: every check CI runs: formatting, vet, staticcheck, the macOS builds, the race-enabled
## Go tests and the Python SDK's tests (which also run the shell and JavaScript bots).
test: deps fmt-check vet staticcheck cross unit python

## test-slurm: start a single-node Slurm cluster on this machine (installing slurm-wlm and munge
## with apt-get as root if needed; .ci/slurm-single-node.sh), submit a league of example bots as
## a 4-task job array and the merge job with arena slurm, check the merged database against
## the league played on one machine, again with one task requeued mid-shard, and stop the
## daemons it started, by pid (TestSlurm in arena/slurm_test.go).
SLURM_DIR ?= /tmp/slurm-single-node
test-slurm: deps
	@SLURM_DIR=$(SLURM_DIR) ./.ci/slurm-single-node.sh up || { SLURM_DIR=$(SLURM_DIR) ./.ci/slurm-single-node.sh down; exit 1; }; \
	SLURM_CONF=$(SLURM_DIR)/slurm.conf ARENA_SLURM=1 $(GO) test ./arena -run '^TestSlurm$$' -count=1 -v -timeout 20m; rc=$$?; \
	SLURM_DIR=$(SLURM_DIR) ./.ci/slurm-single-node.sh down; exit $$rc

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) tool staticcheck ./...

## cross: the arena builds and vets for macOS (darwin/amd64 and darwin/arm64), where bots run
## with the weaker isolation botproc.Limits states (no sandbox, no cgroups).
cross:
	GOOS=darwin GOARCH=amd64 $(GO) build ./...
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=darwin GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...

unit:
	$(GO) test -race -shuffle=on -timeout 20m ./...

python:
	python3 -m unittest discover -s examplebots/python -p 'test_*.py'

## bench: every benchmark, with the figures BENCHMARKS.md records.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./...

## bench-league: an `arena league` against an `arena match` of the same bots and deals,
## alternating, ROUNDS (default 3) rounds, with the ratios and the load average; BASE=an older
## arena binary adds its league to each round (BENCHMARKS.md, "Leagues and the store").
bench-league: build
	ROUNDS=$${ROUNDS:-3} arena/testdata/bench-league.sh $(BIN)/arena $(BASE)

## bench-reads: export, replay --verify and standings --recompute over a stored league of
## DEALS (default 1000000) deals, whole processes, ROUNDS (default 8) rounds alternating with
## BASE=an older arena binary if given: wall and CPU time, deals/s. READS_DB names the
## database (default /var/tmp/arena-reads-DEALS.db, made by the scale test when missing).
bench-reads: build
	ROUNDS=$${ROUNDS:-8} DEALS=$${DEALS:-1000000} GO=$(GO) arena/testdata/bench-reads.sh $(BIN)/arena $(BASE)

## bench-serve: the cost of serving a running league: the same league of C bots without
## --serve, with --serve and spectators (4 event streams, 4 clients loading the league, bot,
## match and deal pages and the API 3 times a second each) and with --serve and one client as
## fast as it can, alternating, ROUNDS (default 3) rounds of GAMES (default 200) games a
## pairing; deals/s and the arena's own CPU per deal, and their ratios (BENCHMARKS.md, "The
## cost of serving a running league"). ARENA_BENCH_SERVE_ARENA=an arena binary measures that.
bench-serve:
	ARENA_BENCH_SERVE=1 ROUNDS=$${ROUNDS:-3} GAMES=$${GAMES:-200} $(GO) test ./arena -run '^TestServeCost$$' -count=1 -v -timeout 60m

## ratings-full: the full simulation study of arena/rating (acceptance_test.go; about 4 minutes).
ratings-full:
	RATING_FULL=1 $(GO) test -count=1 -timeout 60m -v ./arena/rating/

## roem-full: the roem-claiming check of RULES.md's tables with 10,000 deals per variant
## (make test plays 500; about a minute).
roem-full:
	ARENA_ROEM_DEALS=10000 $(GO) test ./arena -run '^TestRoemClaimsFromRulesDoc$$' -count=1 -v -timeout 60m

## fuzz: each fuzz target for FUZZTIME (default 30s).
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./protocol -run '^$$' -fuzz '^FuzzParseCard$$' -fuzztime $(FUZZTIME)
	$(GO) test ./protocol -run '^$$' -fuzz '^FuzzParseCardSet$$' -fuzztime $(FUZZTIME)
	$(GO) test ./protocol -run '^$$' -fuzz '^FuzzParseMessage$$' -fuzztime $(FUZZTIME)
	$(GO) test ./protocol -run '^$$' -fuzz '^FuzzLineReader$$' -fuzztime $(FUZZTIME)
	$(GO) test ./referee/rules/rulesfile -run '^$$' -fuzz '^FuzzParseJSON$$' -fuzztime $(FUZZTIME)
	$(GO) test ./referee/rules/rulesfile -run '^$$' -fuzz '^FuzzParseTOML$$' -fuzztime $(FUZZTIME)
	$(GO) test ./arena -run '^$$' -fuzz '^FuzzReadLog$$' -fuzztime $(FUZZTIME)
	$(GO) test ./arena -run '^$$' -fuzz '^FuzzParseLeague$$' -fuzztime $(FUZZTIME)
	$(GO) test ./arena/store -run '^$$' -fuzz '^FuzzBinRow$$' -fuzztime $(FUZZTIME)
	$(GO) test ./arena/store -run '^$$' -fuzz '^FuzzUnmarshalMatch$$' -fuzztime $(FUZZTIME)
	$(GO) test ./arena/store -run '^$$' -fuzz '^FuzzDamagedFile$$' -fuzztime $(FUZZTIME)
	$(GO) test ./referee -run '^$$' -fuzz '^FuzzHostileAnswers$$' -fuzztime $(FUZZTIME)
	$(GO) test ./arena/web -run '^$$' -fuzz '^FuzzPaths$$' -fuzztime $(FUZZTIME)
	$(GO) test ./arena/dealjson -run '^$$' -fuzz '^FuzzAppendAsMarshal$$' -fuzztime $(FUZZTIME)

clean:
	rm -rf $(BIN)

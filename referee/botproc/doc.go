// Package botproc runs bot programs: it is the only package of the arena that starts
// processes. It knows nothing of Klaverjas; it moves lines between the arena and an
// untrusted program, with a deadline on every wait, and survives anything the program does.
//
// A bot is started with Start from a Spec (argv, no shell), talks through Exchange (one write
// of newline-terminated lines, then, if an answer is due, lines until one that is not an info
// line), and is ended with Stop, which always kills and reaps every process the bot made.
//
// What a bot can do wrong is returned as a *Fault with one of the referee's fault kinds
// (referee.FaultTimeout, FaultCrash, FaultGarbage, FaultFlood, FaultBlocked, FaultMemory,
// FaultStart). After a fault the Proc only accepts writes
// without an answer (so the referee can tell the bot why it is being stopped) and must be
// stopped.
//
// Isolation is layered and detected once per arena process (see Limits):
//
//   - always: own process group (Setpgid) killed as a group; Pdeathsig SIGKILL, with every
//     bot forked from one OS thread that lives as long as the arena (Pdeathsig follows the
//     forking thread, and Go ends threads); own pipes with a deadline on every read and
//     write (stdin and stdout are waited on with ppoll on the calling thread, outside Go's
//     netpoller: see pipes); a bounded line reader for stdout; a constant-memory head+tail
//     capture of stderr drained by a goroutine; an explicit environment; and no inherited
//     file descriptors beyond 0, 1 and 2 (see Harden);
//   - where cgroup v2 is writable: one cgroup per bot, entered at clone time (UseCgroupFD),
//     killed with cgroup.kill (which also catches descendants that called setsid), CPU time
//     from cpu.stat, and memory.max / pids.max when the v2 controllers are enabled;
//   - on hybrid hosts whose v2 hierarchy has no controllers, memory and pids limits from the
//     cgroup v1 memory and pids hierarchies, entered by the forking thread just before the
//     clone so the bot is inside from its first instruction.
//
// Trouble on the arena's side (no pipes, a cgroup that cannot be made) is a plain error, never
// a *Fault: it must not cost a bot its deal. Cgroups and working directories left behind by
// an arena that was killed are swept by the next one.
//
// Package botproc is Linux-only.
package botproc

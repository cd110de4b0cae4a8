//go:build linux

package adapter

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// What an adapter leaves behind. Every adapter process is started with
// CONFORM_ADAPTER_TOKEN=<conform's pid>.<n> in its environment, which its
// descendants inherit, also those that left its process group or session
// with setsid(). After the adapter exits, the sweep finds them in /proc by
// that token and kills them, wherever they were re-parented.
//
// Not chosen: PR_SET_CHILD_SUBREAPER. It would re-parent orphans to
// conform, but then conform must reap any orphan with wait4, which races
// os/exec's own Wait on its children (a stolen reap breaks cmd.Wait), and
// it cannot tell whose orphan a process is; the token can. A descendant
// that scrubs its environment escapes the sweep; the process-group kill
// and, for stdout, the end of the exchange at the adapter's exit still
// bound what it costs.

const markerVar = "CONFORM_ADAPTER_TOKEN"

var markerSeq atomic.Uint64

func newMarker() string {
	return strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(markerSeq.Add(1), 10)
}

// setDeathSignal makes the kernel SIGKILL the adapter when conform dies
// (Pdeathsig; the signal follows the forking thread, which the Go runtime
// keeps while conform runs).
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// sweep SIGKILLs every process whose environment carries the token (or,
// with prefix, any token starting with it) and returns them as
// "pid (command)". Two passes catch what forked during the first.
func sweep(token string, prefix bool) []string {
	want := []byte(markerVar + "=" + token)
	self := os.Getpid()
	var killed []string
	seen := map[int]bool{}
	for pass := 0; pass < 2; pass++ {
		found := false
		entries, err := os.ReadDir("/proc")
		if err != nil {
			return killed
		}
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == self || seen[pid] {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !hasToken(env, want, prefix) {
				continue
			}
			seen[pid] = true
			found = true
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				comm, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
				killed = append(killed, e.Name()+" ("+strings.TrimSpace(string(comm))+")")
			}
		}
		if !found {
			break
		}
	}
	return killed
}

// hasToken reports whether a NUL-separated environment holds the entry want
// (or, with prefix, an entry starting with it).
func hasToken(env, want []byte, prefix bool) bool {
	for len(env) > 0 {
		entry := env
		if i := bytes.IndexByte(env, 0); i >= 0 {
			entry, env = env[:i], env[i+1:]
		} else {
			env = nil
		}
		if bytes.Equal(entry, want) || prefix && bytes.HasPrefix(entry, want) {
			return true
		}
	}
	return false
}

// The guardian takes the adapters' descendants with conform when conform
// is killed (SIGKILL leaves no time to clean up, and a parent-death signal
// reaches the adapter only). It is this same executable, started once with
// CONFORM_ADAPTER_GUARDIAN=<conform's pid> and a pipe as stdin: when the
// pipe ends, conform is gone, and the guardian sweeps every token of that
// pid and exits. Its stdout and stderr are /dev/null, so it holds no pipe
// of conform's callers open.
const guardianVar = "CONFORM_ADAPTER_GUARDIAN"

func init() {
	if pid := os.Getenv(guardianVar); pid != "" {
		_, _ = io.Copy(io.Discard, os.Stdin)
		sweep(pid+".", true)
		os.Exit(0)
	}
}

var guardianPipe *os.File // conform's end, held open for conform's lifetime

var startGuardian = sync.OnceFunc(func() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	defer r.Close()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), guardianVar+"="+strconv.Itoa(os.Getpid()))
	cmd.Stdin = r
	// Its own group: a terminal's ^C to conform's group must not take it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = w.Close()
		return
	}
	guardianPipe = w
	_ = cmd.Process.Release() // it outlives conform; nothing waits for it
})

// Porcupine's side of bench/porcupine.ts: checks the given histories with Porcupine v1.3.1 and
// prints one JSON line per run as it finishes: the run's wall time (reading, parsing and checking
// every file, in this process) and each file's verdict.
//
// The models and log readers here are chaoslua's, written for this program from the format notes
// (suites/unit/ingest/fixtures/porcupine/PROVENANCE.md) and chaoslua's own readers and models
// (src/ingest/porcupine-etcd.ts, src/ingest/jepsen.ts, src/model/register.ts, src/model/kv.ts), so
// both sides judge the same histories under the same semantics and only the checkers differ.
// Porcupine itself is used through its public API alone.
//
//	porcupine-bench -format etcd|kv|lock [-runs 5] [-timeout 0s] [-paced] FILE...
//
// A file that cannot be read or does not hold the format is reported on one line, exit code 2.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"time"

	"github.com/anishathalye/porcupine"
)

// run is the line bench/porcupine.ts reads per run.
type run struct {
	Ms       float64           `json:"ms"`
	Verdicts map[string]string `json:"verdicts"`
	// CheckMs: the part of Ms spent in Porcupine's check alone, reading and parsing left out.
	CheckMs float64 `json:"checkMs"`
}

var verdictNames = map[porcupine.CheckResult]string{porcupine.Ok: "ok", porcupine.Illegal: "illegal", porcupine.Unknown: "unknown"}

func main() {
	format := flag.String("format", "", "etcd, kv or lock (bench/pattern-parity.ts's JSON lines)")
	runs := flag.Int("runs", 5, "timed runs over all files")
	timeout := flag.Duration("timeout", 0, "per-file check timeout (0: none); a timed-out file is unknown")
	paced := flag.Bool("paced", false, "wait for a line on stdin before each run (the bench alternates the sides run by run)")
	flag.Parse()
	var read func(text string) ([]porcupine.Event, error)
	var model porcupine.Model
	switch *format {
	case "etcd":
		read, model = readEtcdLog, registerModel
	case "kv":
		read, model = readKvLog, kvModel
	case "lock":
		read, model = readLockLines, lockModel
	default:
		usage("-format must be etcd, kv or lock, got %q", *format)
	}
	if *runs < 1 {
		usage("-runs must be a positive integer, got %d", *runs)
	}
	files := flag.Args()
	if len(files) == 0 {
		usage("expected at least one FILE to check")
	}
	sort.Strings(files)
	out := json.NewEncoder(os.Stdout)
	stdin := bufio.NewReader(os.Stdin)
	for r := 0; r < *runs; r++ {
		if *paced {
			if _, err := stdin.ReadString('\n'); err != nil {
				return // the bench is done with this side
			}
		}
		started := time.Now()
		verdicts := map[string]string{}
		var checking time.Duration
		for _, file := range files {
			history, err := readFile(file, read)
			if err != nil {
				usage("%v", err)
			}
			checkStarted := time.Now()
			verdicts[file] = verdictNames[porcupine.CheckEventsTimeout(model, history, *timeout)]
			checking += time.Since(checkStarted)
		}
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		if err := out.Encode(run{Ms: ms(time.Since(started)), Verdicts: verdicts, CheckMs: ms(checking)}); err != nil {
			fmt.Fprintf(os.Stderr, "porcupine-bench: cannot write the run's result: %v\n", err)
			os.Exit(3)
		}
	}
}

func readFile(file string, read func(string) ([]porcupine.Event, error)) ([]porcupine.Event, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		var pathError *fs.PathError
		if errors.As(err, &pathError) {
			err = pathError.Err
		}
		return nil, fmt.Errorf("cannot read %s (%v)", file, err)
	}
	history, err := read(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return history, nil
}

func usage(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "porcupine-bench: "+format+"\n", args...)
	os.Exit(2)
}

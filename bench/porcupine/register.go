package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/anishathalye/porcupine"
)

// The etcd logs: a single register with read, write and compare-and-set, the model of Jepsen's
// etcd 2.0 tests, with chaoslua's semantics (src/model/register.ts): a register nobody wrote reads
// nil, a write always succeeds, a cas swaps exactly when the register holds its expected value.

// The state is the value held, or neverWritten: the format's values are non-negative integers
// (\d+), so -1 cannot be one. A plain int rather than a struct with a flag keeps Porcupine's
// search at its fastest (boxing and comparing an int costs less; the etcd logs check about a
// third faster), and Porcupine's default == is its equality.
const neverWritten = -1

type registerOp uint8

const (
	registerRead registerOp = iota
	registerWrite
	registerCas
)

type registerInput struct {
	op    registerOp
	value int // write: the value written; cas: the value expected
	to    int // cas: the value written when the expected one was found
}

// registerOutput is what the client observed. unknown: it never learnt (the operation timed out
// or never completed), so any outcome fits.
type registerOutput struct {
	unknown bool
	found   bool // read: the register held a value (false: it read nil)
	value   int  // read: that value
	swapped bool // cas: it found the expected value and wrote the new one
}

func stepRegister(state, input, output interface{}) (bool, interface{}) {
	held := state.(int)
	in := input.(registerInput)
	out := output.(registerOutput)
	switch in.op {
	case registerRead:
		observed := neverWritten
		if out.found {
			observed = out.value
		}
		return out.unknown || observed == held, held
	case registerWrite:
		return true, in.value
	default:
		if held == in.value {
			return out.unknown || out.swapped, in.to
		}
		return out.unknown || !out.swapped, held
	}
}

var registerModel = porcupine.Model{
	Init: func() interface{} { return neverWritten },
	Step: stepRegister,
}

// One etcd log line, as chaoslua's src/ingest/porcupine-etcd.ts reads it:
//
//	INFO  jepsen.util - <process> :<invoke|ok|fail|info> :<read|write|cas> <nil|N|[from to]|:timed-out>
//
// with tabs and spaces mixed.
var etcdLine = regexp.MustCompile(`^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:(invoke|ok|fail|info)\s+:(read|write|cas)\s+(nil|\d+|\[(\d+)\s+(\d+)\]|:timed-out)\s*$`)

// readEtcdLog reads an etcd log. Two points decide verdicts: `:fail :cas` is a compare-and-set that
// ran and found another value (it completed, not swapped), and `:fail :read :timed-out`, like any
// `:info`, is an operation whose outcome is unknown.
func readEtcdLog(text string) ([]porcupine.Event, error) {
	log := newEventLog()
	for i, raw := range strings.Split(text, "\n") {
		if err := readEtcdLine(log, i+1, raw); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	return log.history(registerOutput{unknown: true})
}

func readEtcdLine(log *eventLog, line int, raw string) error {
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	m := etcdLine.FindStringSubmatch(raw)
	if m == nil {
		return fmt.Errorf(`expected "INFO  jepsen.util - <process> :<invoke|ok|fail|info> :<read|write|cas> <nil|N|[from to]|:timed-out>"`)
	}
	kind, f, arg := m[2], m[3], m[4]
	pair := strings.HasPrefix(arg, "[")
	integer := arg != "nil" && arg != ":timed-out" && !pair
	numbers := []string{m[1], m[5], m[6]}
	if integer {
		numbers = append(numbers, arg)
	}
	for _, digits := range numbers {
		if _, err := strconv.Atoi(digits); digits != "" && err != nil {
			return fmt.Errorf("%s is beyond the integers this reader holds", digits)
		}
	}
	process := number(m[1])
	bad := func(expected string) error {
		return fmt.Errorf(":%s :%s: expected %s, got %s", kind, f, expected, arg)
	}
	switch {
	case kind == "invoke" && f == "read":
		if arg != "nil" {
			return bad("nil")
		}
		return log.invoke(line, process, f, registerInput{op: registerRead})
	case kind == "invoke" && f == "write":
		if !integer {
			return bad("an integer")
		}
		return log.invoke(line, process, f, registerInput{op: registerWrite, value: number(arg)})
	case kind == "invoke":
		if !pair {
			return bad("[from to]")
		}
		return log.invoke(line, process, f, registerInput{op: registerCas, value: number(m[5]), to: number(m[6])})
	case kind == "info":
		return log.unknown(process, f, kind, registerOutput{unknown: true})
	case f == "read" && kind == "fail":
		if arg != ":timed-out" {
			return bad(":timed-out")
		}
		// A read changes nothing, so where its window closes cannot change the verdict: it closes
		// here rather than at the end, which keeps Porcupine's search from carrying it along.
		return log.answered(process, f, kind, registerOutput{unknown: true})
	case f == "read":
		if arg == "nil" {
			return log.answered(process, f, kind, registerOutput{})
		}
		if !integer {
			return bad("nil or an integer")
		}
		return log.answered(process, f, kind, registerOutput{found: true, value: number(arg)})
	case f == "write":
		if kind == "fail" {
			return bad("(a write completes :ok or :info; :fail :write is not in this format)")
		}
		if !integer {
			return bad("an integer")
		}
		return log.answered(process, f, kind, registerOutput{})
	default:
		if !pair {
			return bad("[from to]")
		}
		// The compare-and-set ran: :ok swapped, :fail found another value.
		return log.answered(process, f, kind, registerOutput{swapped: kind == "ok"})
	}
}

// number reads digits already checked to fit an int.
func number(digits string) int {
	n, err := strconv.Atoi(digits)
	if err != nil {
		panic(fmt.Sprintf("%q matched as digits but does not read as an int: %v", digits, err))
	}
	return n
}

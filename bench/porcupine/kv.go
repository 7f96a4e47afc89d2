package main

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/anishathalye/porcupine"
)

// The kv logs: a string per key with get, put and append, with chaoslua's semantics
// (src/model/kv.ts): a key nobody wrote holds "", a get must observe the key's string (nil
// observes ""), put replaces it, append extends it. Keys are independent, so the history is
// checked one key at a time.

type kvOp uint8

const (
	kvGet kvOp = iota
	kvPut
	kvAppend
)

type kvInput struct {
	key   string
	op    kvOp
	value string // put, append: the string written
}

// kvOutput is what the client observed. unknown: it never learnt, so any outcome fits.
type kvOutput struct {
	unknown bool
	value   string // get: the string read
}

func stepKv(state, input, output interface{}) (bool, interface{}) {
	held := state.(string)
	in := input.(kvInput)
	switch in.op {
	case kvGet:
		out := output.(kvOutput)
		return out.unknown || out.value == held, held
	case kvPut:
		return true, in.value
	default:
		return true, held + in.value
	}
}

// byKey splits the history into one history per key, in the order the keys first appear. A return
// belongs to its call's key; every call comes before its return.
func byKey(history []porcupine.Event) [][]porcupine.Event {
	part := map[string]int{} // key -> its index in parts
	partOf := map[int]int{}  // operation id -> its index in parts
	var parts [][]porcupine.Event
	for _, e := range history {
		if e.Kind == porcupine.CallEvent {
			key := e.Value.(kvInput).key
			i, seen := part[key]
			if !seen {
				i = len(parts)
				part[key] = i
				parts = append(parts, nil)
			}
			partOf[e.Id] = i
		}
		i := partOf[e.Id]
		parts[i] = append(parts[i], e)
	}
	return parts
}

// The seed only has to be the same for every state of one run: equal strings, equal hashes.
var kvHashSeed = maphash.MakeSeed()

var kvModel = porcupine.Model{
	PartitionEvent: byKey,
	Init:           func() interface{} { return "" },
	Step:           stepKv,
	Hash:           func(state interface{}) uint64 { return maphash.String(kvHashSeed, state.(string)) },
}

// kvEvent is one line's fields; process is nil for a line that is not a client's (a nemesis's).
type kvEvent struct {
	process *int
	kind, f string
	key     *string
	value   ednValue
}

// readKvLog reads a kv log: one operation map per line, as chaoslua reads Jepsen histories
// (src/ingest/jepsen.ts with the kv codec): :invoke opens an operation, :ok completes it, :fail
// means it did not take effect, :info that it may or may not have. Lines whose :process is not
// an integer are not client operations and are skipped.
func readKvLog(text string) ([]porcupine.Event, error) {
	log := newEventLog()
	for i, raw := range strings.Split(text, "\n") {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		if err := readKvLine(log, i+1, raw); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	return log.history(kvOutput{unknown: true})
}

func readKvLine(log *eventLog, line int, raw string) error {
	var e kvEvent
	err := readEdnMap(raw, func(key string, v ednValue) error {
		switch key {
		case "process":
			if v.kind == ednInteger {
				e.process = &v.integer
			}
		case "type":
			e.kind = name(v)
		case "f":
			e.f = name(v)
		case "key":
			switch v.kind {
			case ednString, ednKeyword:
				e.key = &v.text
			case ednInteger:
				text := strconv.Itoa(v.integer) // 07 is key "7", as chaoslua reads numbers
				e.key = &text
			}
		case "value":
			e.value = v
		}
		return nil
	})
	if err != nil || e.process == nil {
		return err
	}
	process := *e.process
	if e.f != "get" && e.f != "put" && e.f != "append" {
		return fmt.Errorf("expected :f to be :get, :put or :append for the kv model, got %q", e.f)
	}
	switch e.kind {
	case "invoke":
		if e.key == nil {
			return fmt.Errorf("expected :key (the kv model checks each key on its own)")
		}
		input := kvInput{key: *e.key, op: kvGet}
		if e.f != "get" {
			if e.value.kind != ednString {
				return fmt.Errorf("expected :%s :value to be a string", e.f)
			}
			input.op, input.value = kvPut, e.value.text
			if e.f == "append" {
				input.op = kvAppend
			}
		}
		return log.invoke(line, process, e.f, input)
	case "ok":
		out := kvOutput{}
		if e.f == "get" {
			if e.value.kind != ednString && e.value.kind != ednNil {
				return fmt.Errorf("expected :get :value to be a string or nil")
			}
			out.value = e.value.text // nil's text is "": nil observes a key nobody wrote
		}
		return log.answered(process, e.f, e.kind, out)
	case "fail":
		return log.failed(process, e.f, e.kind)
	case "info":
		return log.unknown(process, e.f, e.kind, kvOutput{unknown: true})
	}
	return fmt.Errorf("expected :type to be :invoke, :ok, :fail or :info, got %q", e.kind)
}

// name reads a keyword or a string as a name, as chaoslua does for :type and :f.
func name(v ednValue) string {
	if v.kind == ednKeyword || v.kind == ednString {
		return v.text
	}
	return ""
}

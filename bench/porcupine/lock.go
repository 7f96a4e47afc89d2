package main

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"sort"
	"strings"

	"github.com/anishathalye/porcupine"
)

// The compare-and-delete lock (lua/lock), for bench/pattern-parity.ts: acquire(token, ttl) answers
// 1 when the key was free (it then holds token) and 0 when held; release(token) and
// extend(token, ttl) answer nil when free, -1 when another token holds it, 1 when token does
// (release frees the key). Porcupine's model has no clock, so a lease never runs out here: the
// histories checked with it are generated with leases longer than any key's span, where expiry
// cannot change a verdict. Keys are independent, so the history is checked one key at a time.
//
// The file format is bench/pattern-parity/lock-histories.ts's JSON lines, one operation a line:
//
//	{"id":0,"key":"k","client":3,"op":"acquire","token":"c3a0","ttlMs":60000,
//	 "invokedAt":12,"completedAt":40,"outcome":"ok","output":1}
//
// outcome ok carries output (1, 0, -1 or null); info is unknown (it may or may not have taken
// effect); fail did not take effect and is dropped.

type lockOp uint8

const (
	lockAcquire lockOp = iota
	lockRelease
	lockExtend
)

type lockInput struct {
	key   string
	op    lockOp
	token string
}

// lockOutput is the reply; lockUnknown: the client never learnt it, so any reply fits.
type lockOutput int8

const (
	lockNil     lockOutput = 2
	lockUnknown lockOutput = 3
)

// The state is the holder's token; "" is a free key (the generator's tokens are never empty).
func stepLock(state, input, output interface{}) (bool, interface{}) {
	holder := state.(string)
	in := input.(lockInput)
	out := output.(lockOutput)
	fits := func(expected lockOutput) bool { return out == lockUnknown || out == expected }
	switch in.op {
	case lockAcquire:
		if holder != "" {
			return fits(0), holder
		}
		return fits(1), in.token
	default:
		if holder == "" {
			return fits(lockNil), holder
		}
		if holder != in.token {
			return fits(-1), holder
		}
		if in.op == lockRelease {
			return fits(1), ""
		}
		return fits(1), holder
	}
}

func lockByKey(history []porcupine.Event) [][]porcupine.Event {
	part := map[string]int{}
	partOf := map[int]int{}
	var parts [][]porcupine.Event
	for _, e := range history {
		if e.Kind == porcupine.CallEvent {
			key := e.Value.(lockInput).key
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

var lockHashSeed = maphash.MakeSeed()

var lockModel = porcupine.Model{
	PartitionEvent: lockByKey,
	Init:           func() interface{} { return "" },
	Step:           stepLock,
	Hash:           func(state interface{}) uint64 { return maphash.String(lockHashSeed, state.(string)) },
}

type lockLine struct {
	Id          int      `json:"id"`
	Key         string   `json:"key"`
	Client      int      `json:"client"`
	Op          string   `json:"op"`
	Token       string   `json:"token"`
	InvokedAt   float64  `json:"invokedAt"`
	CompletedAt float64  `json:"completedAt"`
	Outcome     string   `json:"outcome"`
	Output      *float64 `json:"output"`
}

type timedEvent struct {
	at    float64
	event porcupine.Event
}

// readLockLines reads the JSON lines into Porcupine's events, ordered as chaoslua orders its
// nodes: by time, a call before a return at the same instant (intervals are closed), and an
// unknown operation's return after everything else (it may take effect any time after its call,
// or never).
func readLockLines(text string) ([]porcupine.Event, error) {
	var timed []timedEvent
	var last []porcupine.Event
	for i, raw := range strings.Split(text, "\n") {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		var l lockLine
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		in := lockInput{key: l.Key, token: l.Token}
		switch l.Op {
		case "acquire":
			in.op = lockAcquire
		case "release":
			in.op = lockRelease
		case "extend":
			in.op = lockExtend
		default:
			return nil, fmt.Errorf("line %d: op must be acquire, release or extend, got %q", i+1, l.Op)
		}
		call := timedEvent{l.InvokedAt, porcupine.Event{ClientId: l.Client, Kind: porcupine.CallEvent, Value: in, Id: l.Id}}
		switch l.Outcome {
		case "fail":
			continue
		case "info":
			timed = append(timed, call)
			last = append(last, porcupine.Event{ClientId: l.Client, Kind: porcupine.ReturnEvent, Value: lockUnknown, Id: l.Id})
		case "ok":
			out := lockNil
			if l.Output != nil {
				switch *l.Output {
				case 1, 0, -1:
					out = lockOutput(*l.Output)
				default:
					return nil, fmt.Errorf("line %d: output must be 1, 0, -1 or null, got %v", i+1, *l.Output)
				}
			}
			timed = append(timed, call, timedEvent{l.CompletedAt, porcupine.Event{ClientId: l.Client, Kind: porcupine.ReturnEvent, Value: out, Id: l.Id}})
		default:
			return nil, fmt.Errorf("line %d: outcome must be ok, info or fail, got %q", i+1, l.Outcome)
		}
	}
	sort.SliceStable(timed, func(a, b int) bool {
		if timed[a].at != timed[b].at {
			return timed[a].at < timed[b].at
		}
		return timed[a].event.Kind == porcupine.CallEvent && timed[b].event.Kind == porcupine.ReturnEvent
	})
	events := make([]porcupine.Event, 0, len(timed)+len(last))
	for _, t := range timed {
		events = append(events, t.event)
	}
	events = append(events, last...)
	if len(events) == 0 {
		return nil, fmt.Errorf("no client operations in the history")
	}
	return events, nil
}

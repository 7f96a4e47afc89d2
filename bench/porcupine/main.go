// Porcupine's side of bench/porcupine.ts: checks the given histories with Porcupine v1.3.1 and
// prints one JSON line per run as it finishes: the run's wall time (parse and check of every file,
// in this process) and each file's verdict. The models and log parsers are Porcupine's own, copied from its porcupine_test.go
// (MIT licence, Copyright (c) Anish Athalye), so the histories are read exactly as its tests read them.
//
//	porcupine-bench -format etcd|kv [-runs 5] [-timeout 0s] FILE...
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/anishathalye/porcupine"
)

type etcdInput struct {
	op   uint8 // 0 => read, 1 => write, 2 => cas
	arg1 int   // used for write, or for CAS from argument
	arg2 int   // used for CAS to argument
}

type etcdOutput struct {
	ok      bool // used for CAS
	exists  bool // used for read
	value   int  // used for read
	unknown bool // used when operation times out
}

var etcdModel = porcupine.Model{
	Init: func() interface{} { return -1000000 }, // -1000000 corresponds with nil
	Step: func(state interface{}, input interface{}, output interface{}) (bool, interface{}) {
		st := state.(int)
		inp := input.(etcdInput)
		out := output.(etcdOutput)
		if inp.op == 0 {
			ok := (out.exists == false && st == -1000000) || (out.exists == true && st == out.value) || out.unknown
			return ok, state
		} else if inp.op == 1 {
			return true, inp.arg1
		} else {
			ok := (inp.arg1 == st && out.ok) || (inp.arg1 != st && !out.ok) || out.unknown
			result := st
			if inp.arg1 == st {
				result = inp.arg2
			}
			return ok, result
		}
	},
}

type kvInput struct {
	op    uint8 // 0 => get, 1 => put, 2 => append
	key   string
	value string
}

type kvOutput struct {
	value string
}

var kvModel = porcupine.Model{
	PartitionEvent: func(history []porcupine.Event) [][]porcupine.Event {
		m := make(map[string][]porcupine.Event)
		match := make(map[int]string) // id -> key
		for _, v := range history {
			if v.Kind == porcupine.CallEvent {
				key := v.Value.(kvInput).key
				m[key] = append(m[key], v)
				match[v.Id] = key
			} else {
				key := match[v.Id]
				m[key] = append(m[key], v)
			}
		}
		var ret [][]porcupine.Event
		for _, v := range m {
			ret = append(ret, v)
		}
		return ret
	},
	Init: func() interface{} { return "" },
	Step: func(state, input, output interface{}) (bool, interface{}) {
		inp := input.(kvInput)
		out := output.(kvOutput)
		st := state.(string)
		if inp.op == 0 {
			return out.value == st, state
		} else if inp.op == 1 {
			return true, inp.value
		} else {
			return true, (st + inp.value)
		}
	},
	Hash: func(state interface{}) uint64 {
		h := fnv.New64a()
		h.Write([]byte(state.(string)))
		return h.Sum64()
	},
}

func lines(filename string) []string {
	file, err := os.Open(filename)
	if err != nil {
		panic("can't open file " + filename)
	}
	defer file.Close()
	reader := bufio.NewReaderSize(file, 1<<20)
	var out []string
	for {
		line, err := reader.ReadString('\n')
		if len(line) > 0 {
			if line[len(line)-1] == '\n' {
				line = line[:len(line)-1]
			}
			out = append(out, line)
		}
		if err == io.EOF {
			return out
		} else if err != nil {
			panic("error while reading file: " + err.Error())
		}
	}
}

var (
	invokeRead   = regexp.MustCompile(`^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:invoke\s+:read\s+nil$`)
	invokeWrite  = regexp.MustCompile(`^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:invoke\s+:write\s+(\d+)$`)
	invokeCas    = regexp.MustCompile(`^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:invoke\s+:cas\s+\[(\d+)\s+(\d+)\]$`)
	returnRead   = regexp.MustCompile(`^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:ok\s+:read\s+(nil|\d+)$`)
	returnWrite  = regexp.MustCompile(`^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:ok\s+:write\s+(\d+)$`)
	returnCas    = regexp.MustCompile(`^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:(ok|fail)\s+:cas\s+\[(\d+)\s+(\d+)\]$`)
	timeoutRead  = regexp.MustCompile(`^INFO\s+jepsen\.util\s+-\s+(\d+)\s+:fail\s+:read\s+:timed-out$`)
	invokeGet    = regexp.MustCompile(`{:process (\d+), :type :invoke, :f :get, :key "(.*)", :value nil}`)
	invokePut    = regexp.MustCompile(`{:process (\d+), :type :invoke, :f :put, :key "(.*)", :value "(.*)"}`)
	invokeAppend = regexp.MustCompile(`{:process (\d+), :type :invoke, :f :append, :key "(.*)", :value "(.*)"}`)
	returnGet    = regexp.MustCompile(`{:process (\d+), :type :ok, :f :get, :key ".*", :value "(.*)"}`)
	returnPut    = regexp.MustCompile(`{:process (\d+), :type :ok, :f :put, :key ".*", :value ".*"}`)
	returnAppend = regexp.MustCompile(`{:process (\d+), :type :ok, :f :append, :key ".*", :value ".*"}`)
)

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// parseJepsenLog is porcupine_test.go's, reading lines already split.
func parseJepsenLog(filename string) []porcupine.Event {
	var events []porcupine.Event
	id := 0
	procIdMap := make(map[int]int)
	call := func(proc int, value interface{}) {
		events = append(events, porcupine.Event{ClientId: proc, Kind: porcupine.CallEvent, Value: value, Id: id})
		procIdMap[proc] = id
		id++
	}
	ret := func(proc int, value interface{}) {
		matchId := procIdMap[proc]
		delete(procIdMap, proc)
		events = append(events, porcupine.Event{ClientId: proc, Kind: porcupine.ReturnEvent, Value: value, Id: matchId})
	}
	for _, line := range lines(filename) {
		switch {
		case invokeRead.MatchString(line):
			args := invokeRead.FindStringSubmatch(line)
			call(atoi(args[1]), etcdInput{op: 0})
		case invokeWrite.MatchString(line):
			args := invokeWrite.FindStringSubmatch(line)
			call(atoi(args[1]), etcdInput{op: 1, arg1: atoi(args[2])})
		case invokeCas.MatchString(line):
			args := invokeCas.FindStringSubmatch(line)
			call(atoi(args[1]), etcdInput{op: 2, arg1: atoi(args[2]), arg2: atoi(args[3])})
		case returnRead.MatchString(line):
			args := returnRead.FindStringSubmatch(line)
			exists, value := false, 0
			if args[2] != "nil" {
				exists, value = true, atoi(args[2])
			}
			ret(atoi(args[1]), etcdOutput{exists: exists, value: value})
		case returnWrite.MatchString(line):
			args := returnWrite.FindStringSubmatch(line)
			ret(atoi(args[1]), etcdOutput{})
		case returnCas.MatchString(line):
			args := returnCas.FindStringSubmatch(line)
			ret(atoi(args[1]), etcdOutput{ok: args[2] == "ok"})
		case timeoutRead.MatchString(line):
			args := timeoutRead.FindStringSubmatch(line)
			ret(atoi(args[1]), etcdOutput{unknown: true})
		}
	}
	for proc, matchId := range procIdMap {
		events = append(events, porcupine.Event{ClientId: proc, Kind: porcupine.ReturnEvent, Value: etcdOutput{unknown: true}, Id: matchId})
	}
	return events
}

// parseKvLog is porcupine_test.go's, reading lines already split.
func parseKvLog(filename string) []porcupine.Event {
	var events []porcupine.Event
	id := 0
	procIdMap := make(map[int]int)
	call := func(proc int, value interface{}) {
		events = append(events, porcupine.Event{ClientId: proc, Kind: porcupine.CallEvent, Value: value, Id: id})
		procIdMap[proc] = id
		id++
	}
	ret := func(proc int, value interface{}) {
		matchId := procIdMap[proc]
		delete(procIdMap, proc)
		events = append(events, porcupine.Event{ClientId: proc, Kind: porcupine.ReturnEvent, Value: value, Id: matchId})
	}
	for _, line := range lines(filename) {
		switch {
		case invokeGet.MatchString(line):
			args := invokeGet.FindStringSubmatch(line)
			call(atoi(args[1]), kvInput{op: 0, key: args[2]})
		case invokePut.MatchString(line):
			args := invokePut.FindStringSubmatch(line)
			call(atoi(args[1]), kvInput{op: 1, key: args[2], value: args[3]})
		case invokeAppend.MatchString(line):
			args := invokeAppend.FindStringSubmatch(line)
			call(atoi(args[1]), kvInput{op: 2, key: args[2], value: args[3]})
		case returnGet.MatchString(line):
			args := returnGet.FindStringSubmatch(line)
			ret(atoi(args[1]), kvOutput{args[2]})
		case returnPut.MatchString(line):
			args := returnPut.FindStringSubmatch(line)
			ret(atoi(args[1]), kvOutput{})
		case returnAppend.MatchString(line):
			args := returnAppend.FindStringSubmatch(line)
			ret(atoi(args[1]), kvOutput{})
		}
	}
	for proc, matchId := range procIdMap {
		events = append(events, porcupine.Event{ClientId: proc, Kind: porcupine.ReturnEvent, Value: kvOutput{}, Id: matchId})
	}
	return events
}

type run struct {
	Ms       float64           `json:"ms"`
	Verdicts map[string]string `json:"verdicts"`
}

func main() {
	format := flag.String("format", "", "etcd or kv")
	runs := flag.Int("runs", 5, "timed runs over all files")
	timeout := flag.Duration("timeout", 0, "per-file check timeout (0: none); a timed-out file is unknown")
	flag.Parse()
	var parse func(string) []porcupine.Event
	var model porcupine.Model
	switch *format {
	case "etcd":
		parse, model = parseJepsenLog, etcdModel
	case "kv":
		parse, model = parseKvLog, kvModel
	default:
		fmt.Fprintln(os.Stderr, "porcupine-bench: -format must be etcd or kv")
		os.Exit(2)
	}
	files := flag.Args()
	sort.Strings(files)
	names := map[porcupine.CheckResult]string{porcupine.Ok: "ok", porcupine.Illegal: "illegal", porcupine.Unknown: "unknown"}
	out := json.NewEncoder(os.Stdout)
	for r := 0; r < *runs; r++ {
		started := time.Now()
		verdicts := map[string]string{}
		for _, file := range files {
			verdicts[file] = names[porcupine.CheckEventsTimeout(model, parse(file), *timeout)]
		}
		if err := out.Encode(run{Ms: float64(time.Since(started).Microseconds()) / 1000, Verdicts: verdicts}); err != nil {
			panic(err)
		}
	}
}

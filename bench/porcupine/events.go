package main

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// eventLog turns a log's lines (one invocation or one completion each) into Porcupine's event
// history. Pairing goes by process, as chaoslua's src/ingest/pair.ts does it: a process has at most
// one operation open, and its next completion, which must name the same operation, closes it.
//
// An operation whose outcome is unknown (an :info, or never completed before the log ends) may
// take effect at any point after its invocation, or never: its return event goes after every
// other event, so Porcupine may place it anywhere from its call on, including after all the
// rest, where it changes nothing anyone observed. A failed operation never took effect: it is
// dropped from the history.
type eventLog struct {
	events  []porcupine.Event
	open    map[int]openOp // process -> its open operation
	last    []porcupine.Event
	dropped map[int]bool // ids of failed operations
	nextId  int
}

type openOp struct {
	id   int
	f    string
	line int
}

func newEventLog() *eventLog {
	return &eventLog{open: map[int]openOp{}, dropped: map[int]bool{}}
}

func (l *eventLog) invoke(line, process int, f string, input interface{}) error {
	if op, ok := l.open[process]; ok {
		return fmt.Errorf("process %d invokes again while its operation from line %d is still open (expected a completion first)", process, op.line)
	}
	l.open[process] = openOp{id: l.nextId, f: f, line: line}
	l.events = append(l.events, porcupine.Event{ClientId: process, Kind: porcupine.CallEvent, Value: input, Id: l.nextId})
	l.nextId++
	return nil
}

// close ends the process's open operation, checking the completion names it.
func (l *eventLog) close(process int, f, kind string) (openOp, error) {
	op, ok := l.open[process]
	if !ok {
		return op, fmt.Errorf(":%s for process %d, which has no open :invoke (expected an :invoke first)", kind, process)
	}
	if op.f != f {
		return op, fmt.Errorf(":%s :%s for process %d, whose open operation (line %d) is :%s", kind, f, process, op.line, op.f)
	}
	delete(l.open, process)
	return op, nil
}

// answered: the operation completed with this output, here.
func (l *eventLog) answered(process int, f, kind string, output interface{}) error {
	op, err := l.close(process, f, kind)
	if err == nil {
		l.events = append(l.events, porcupine.Event{ClientId: process, Kind: porcupine.ReturnEvent, Value: output, Id: op.id})
	}
	return err
}

// unknown: the operation may or may not take effect; output is one the model accepts whatever the state.
func (l *eventLog) unknown(process int, f, kind string, output interface{}) error {
	op, err := l.close(process, f, kind)
	if err == nil {
		l.last = append(l.last, porcupine.Event{ClientId: process, Kind: porcupine.ReturnEvent, Value: output, Id: op.id})
	}
	return err
}

// failed: the operation did not take effect.
func (l *eventLog) failed(process int, f, kind string) error {
	op, err := l.close(process, f, kind)
	if err == nil {
		l.dropped[op.id] = true
	}
	return err
}

// history closes every operation still open as unknown (with the model's unknown output) and
// returns the events in order: the log's, then the unknown operations' returns.
func (l *eventLog) history(unknownOutput interface{}) ([]porcupine.Event, error) {
	// In invocation order, so the history does not depend on map iteration.
	for _, e := range l.events {
		if op, ok := l.open[e.ClientId]; ok && e.Kind == porcupine.CallEvent && op.id == e.Id {
			l.last = append(l.last, porcupine.Event{ClientId: e.ClientId, Kind: porcupine.ReturnEvent, Value: unknownOutput, Id: e.Id})
		}
	}
	events := make([]porcupine.Event, 0, len(l.events)+len(l.last))
	for _, e := range append(l.events, l.last...) {
		if !l.dropped[e.Id] {
			events = append(events, e)
		}
	}
	if len(events) == 0 {
		return nil, fmt.Errorf("no client operations in the history")
	}
	return events, nil
}

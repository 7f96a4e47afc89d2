package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// serverError is what go-redis returns for an error reply (redis.Error).
type serverError string

func (e serverError) Error() string { return string(e) }
func (serverError) RedisError()     {}

type lock struct{ held map[string]*int }

func (l *lock) Open(string, *redis.ClusterClient, Hello) error { return nil }

func (l *lock) Call(_ context.Context, op, key string, args Args) (any, error) {
	switch {
	case op == "acquire" && args.String("token") == "slow":
		return GaveBack(false), nil
	case op == "acquire" && l.held[key] != nil:
		return nil, Refused("held (the library's own state)")
	case op == "acquire":
		l.held[key] = new(int)
		return WithHandle(true, l.held[key]), nil
	case op == "boom":
		return nil, errors.New("i/o timeout")
	}
	ok := args.Handle() != nil && args.Handle() == any(l.held[key])
	return ok, nil
}

func (l *lock) Keys(key string) ([]string, error) { return []string{"f#" + key, key + ":lock"}, nil }

func converse(t *testing.T, l *lock, lines ...string) []map[string]any {
	t.Helper()
	hello := `{"type":"hello","protocol":"chaoslua-process/1","versions":["chaoslua-process/1","chaoslua-process/1.1"],"pattern":"lock","seeds":[{"host":"127.0.0.1","port":1}],"natMap":{},"options":{"clients":1}}`
	var out bytes.Buffer
	declares := map[string]Declares{"lock": {Capabilities: map[string]any{"acquire": map[string]any{"level": "boolean", "handle": true, "givesBack": true}}, Keys: map[string]bool{"computed": true}}}
	if code := ServeIO(strings.NewReader(hello+"\n"+strings.Join(lines, "\n")+"\n"), &out, "kit-test", "1.0", declares, l); code != 0 {
		t.Fatalf("exit %d", code)
	}
	var msgs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func byID(msgs []map[string]any, id float64) map[string]any {
	for _, m := range msgs {
		if m["id"] == id {
			return m
		}
	}
	return nil
}

func TestErrorTextKeepsRedisCodes(t *testing.T) {
	if got := ErrorText(serverError("BUSY Redis is busy running a script.")); got != "BUSY Redis is busy running a script." {
		t.Fatalf("BUSY: %q", got)
	}
	if got := ErrorText(errors.New("i/o timeout")); got != "client error: i/o timeout" {
		t.Fatalf("timeout: %q", got)
	}
}

func TestLoop(t *testing.T) {
	l := &lock{held: map[string]*int{}}
	msgs := converse(t, l,
		`{"type":"request","id":1,"op":"keys","key":"k","args":{}}`,
		`{"type":"request","id":2,"op":"acquire","key":"k","args":{"token":"a","ttlMs":1000}}`,
		`{"type":"request","id":3,"op":"acquire","key":"j","args":{"token":"slow","ttlMs":1000}}`,
		`{"type":"request","id":4,"op":"boom","key":"j","args":{}}`,
	)
	if msgs[0]["protocol"] != Protocol11 || msgs[0]["keys"].(map[string]any)["computed"] != true {
		t.Fatalf("hello: %v", msgs[0])
	}
	if keys := byID(msgs, 1)["result"].([]any); keys[0] != "f#k" || keys[1] != "k:lock" {
		t.Fatalf("keys: %v", keys)
	}
	acquired := byID(msgs, 2)["result"].(map[string]any)
	if acquired["answer"] != true || acquired["handle"] == nil {
		t.Fatalf("acquire: %v", acquired)
	}
	if gave := byID(msgs, 3)["result"].(map[string]any); gave["gaveBack"] != true || gave["answer"] != false {
		t.Fatalf("gave back: %v", gave)
	}
	if e := byID(msgs, 4); e["ok"] != false || e["error"] != "client error: i/o timeout" {
		t.Fatalf("error: %v", e)
	}
	// A refusal, then a release carrying the handle id back: the adapter receives the live value.
	l2 := &lock{held: map[string]*int{}}
	converse(t, l2, `{"type":"request","id":5,"op":"acquire","key":"k","args":{"token":"a","ttlMs":1000}}`)
	again := converse(t, l2, `{"type":"request","id":6,"op":"acquire","key":"k","args":{"token":"b","ttlMs":1000}}`)
	if r := byID(again, 6); r["refused"] != true || r["error"] != "held (the library's own state)" {
		t.Fatalf("refused: %v", r)
	}
}

func TestHandlesComeBackLive(t *testing.T) {
	l := &lock{held: map[string]*int{}}
	table := &handles{byID: map[string]any{}}
	acquired := respond(l, table, request{Type: "request", ID: 1, Op: "acquire", Key: "k", Args: map[string]json.RawMessage{"token": []byte(`"a"`)}})
	id, _ := json.Marshal(acquired["result"].(map[string]any)["handle"])
	released := respond(l, table, request{Type: "request", ID: 2, Op: "release", Key: "k", Args: map[string]json.RawMessage{"token": []byte(`"a"`), "handle": id}})
	if released["result"] != true {
		t.Fatalf("release with the handle: %v", released)
	}
	stranger := respond(l, table, request{Type: "request", ID: 3, Op: "release", Key: "k", Args: map[string]json.RawMessage{"token": []byte(`"b"`)}})
	if stranger["result"] != false {
		t.Fatalf("release without: %v", stranger)
	}
}

func TestSentinelHello(t *testing.T) {
	var hello Hello
	line := `{"type":"hello","natMap":{"127.0.0.1:7001":{"host":"127.0.0.1","port":8001}},"sentinel":{"sentinels":[{"host":"127.0.0.1","port":26379},{"host":"127.0.0.1","port":26380}],"name":"chaoslua"}}`
	if err := json.Unmarshal([]byte(line), &hello); err != nil {
		t.Fatal(err)
	}
	if hello.Sentinel == nil || hello.Sentinel.Name != "chaoslua" || len(hello.Sentinel.Sentinels) != 2 {
		t.Fatalf("sentinel not read: %+v", hello.Sentinel)
	}
	client := SentinelClient(hello, nil)
	if client == nil {
		t.Fatal("no client for a hello with Sentinels")
	}
	client.Close()
	if SentinelClient(Hello{}, nil) != nil {
		t.Fatal("a client for a hello without Sentinels")
	}
}

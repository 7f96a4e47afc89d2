// Command chaoslua-go-example is a chaoslua-process/1 implementation (docs/process-protocol.md)
// over go-redis's ClusterClient: JSON lines in on stdin, JSON lines out on stdout, logs on stderr.
// Every request runs in its own goroutine, so many are in flight and answers come in any order.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

const (
	protocol = "chaoslua-process/1"
	name     = "go-go-redis"
	version  = "0.1.0"
)

type address struct {
	Host string `json:"host"`
	Port int    `json:"port"`
}

func (a address) String() string { return net.JoinHostPort(a.Host, fmt.Sprint(a.Port)) }

// message is any harness message; which fields are set depends on Type.
type message struct {
	Type     string                     `json:"type"`
	Protocol string                     `json:"protocol"`
	Pattern  string                     `json:"pattern"`
	Seeds    []address                  `json:"seeds"`
	NatMap   map[string]address         `json:"natMap"`
	Options  struct{ Clients int }      `json:"options"`
	ID       int64                      `json:"id"`
	Op       string                     `json:"op"`
	Key      string                     `json:"key"`
	Args     map[string]json.RawMessage `json:"args"`
}

// out writes one JSON message per line; Encode is not safe for concurrent use, hence the lock.
type out struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (o *out) send(v any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.enc.Encode(v); err != nil {
		log.Fatalf("stdout: %v", err)
	}
}

func main() {
	exe, _ := os.Executable()
	luaDir := flag.String("lua-dir", filepath.Join(filepath.Dir(exe), "..", "..", "lua"), "the project's lua/ folder")
	mutant := flag.String("mutant", "", "inject a known bug (release-skips-token-check) to test the harness")
	flag.Parse()
	log.SetPrefix(name + ": ")

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 8*1024*1024)
	stdout := &out{enc: json.NewEncoder(os.Stdout)}
	if !in.Scan() {
		return
	}
	var hello message
	if err := json.Unmarshal(in.Bytes(), &hello); err != nil {
		log.Fatalf("hello: %v", err)
	}
	if refusal := refuse(hello); refusal != "" {
		stdout.send(map[string]any{"type": "refuse", "reason": refusal})
		os.Exit(1)
	}
	ctx := context.Background()
	rdb := connect(hello)
	defer rdb.Close()
	store, err := OpenStore(ctx, rdb, *luaDir, hello.Pattern, *mutant)
	if err != nil {
		stdout.send(map[string]any{"type": "refuse", "reason": err.Error()})
		os.Exit(1)
	}
	patterns := make([]string, 0, len(ops))
	for p := range ops {
		patterns = append(patterns, p)
	}
	sort.Strings(patterns)
	stdout.send(map[string]any{"type": "hello", "protocol": protocol, "name": name, "version": version, "patterns": patterns})

	var inFlight sync.WaitGroup
	for in.Scan() { // ends at EOF: the harness is done or gone
		var m message
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			log.Fatalf("request: %v", err)
		}
		if m.Type == "shutdown" {
			break
		}
		if m.Type != "request" {
			continue
		}
		inFlight.Add(1)
		go func() {
			defer inFlight.Done()
			stdout.send(serve(ctx, store, m))
		}()
	}
	inFlight.Wait() // every request gets its answer before we leave
}

func refuse(hello message) string {
	if hello.Type != "hello" || hello.Protocol != protocol {
		return fmt.Sprintf("%s speaks %s only, got %q", name, protocol, hello.Protocol)
	}
	if _, ok := ops[hello.Pattern]; !ok {
		return fmt.Sprintf("%s does not implement pattern %q", name, hello.Pattern)
	}
	return ""
}

func connect(hello message) *redis.ClusterClient {
	seeds := make([]string, len(hello.Seeds))
	for i, s := range hello.Seeds {
		seeds[i] = s.String()
	}
	dialer := &net.Dialer{Timeout: time.Second}
	clients := max(hello.Options.Clients, 1)
	return redis.NewClusterClient(&redis.ClusterOptions{
		Addrs: seeds,
		// The cluster announces addresses we cannot dial directly; natMap says where to go instead.
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if to, ok := hello.NatMap[addr]; ok {
				addr = to.String()
			}
			return dialer.DialContext(ctx, network, addr)
		},
		// No resend inside go-redis: it would also resend after a timeout or a dropped connection,
		// when the script may already have run. Store follows MOVED/TRYAGAIN itself.
		MaxRedirects: -1,
		ReadTimeout:  2 * time.Second,
		WriteTimeout: 2 * time.Second,
		PoolSize:     2 * clients,
	})
}

func serve(ctx context.Context, store *Store, m message) map[string]any {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	args := make(map[string]string, len(m.Args))
	for k, raw := range m.Args {
		args[k] = argText(raw)
	}
	res, err := store.Call(ctx, m.Op, m.Key, args)
	if err != nil {
		return map[string]any{"type": "response", "id": m.ID, "ok": false, "error": errorText(err)}
	}
	return map[string]any{"type": "response", "id": m.ID, "ok": true, "result": res}
}

// argText is an argument as Redis receives it: a JSON string's text, or a number's digits as
// written (decoding into float64 would turn large integers into 1e+15).
func argText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// errorText passes a Redis error through as the server sent it ("NOSCRIPT ..."): the harness
// reads its first word. Anything else (timeouts, dropped connections) gets a prefix no Redis
// error has, so the harness treats the operation as indeterminate.
func errorText(err error) string {
	var rerr redis.Error
	if errors.As(err, &rerr) {
		return rerr.Error()
	}
	return "client error: " + err.Error()
}

// Command chaoslua-go-example is a chaoslua process-protocol implementation (docs/process-protocol.md)
// over go-redis's ClusterClient, built on the Go kit (examples/kits/go): the kit speaks the protocol,
// dials through natMap, keeps Redis's error codes (a BUSY refusal stays a refusal); this file only maps
// requests onto the project's Lua scripts (store.go).
package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"

	"github.com/chaoslua/kit"
	"github.com/redis/go-redis/v9"
)

const (
	name    = "go-go-redis"
	version = "0.2.0"
)

type referenceScripts struct {
	luaDir, mutant string
	store          *Store
}

func (r *referenceScripts) Open(pattern string, rdb *redis.ClusterClient, _ kit.Hello) error {
	store, err := OpenStore(context.Background(), rdb, r.luaDir, pattern, r.mutant)
	r.store = store
	return err
}

func (r *referenceScripts) Call(ctx context.Context, op, key string, args kit.Args) (any, error) {
	return r.store.Call(ctx, op, key, args.Strings())
}

func main() {
	exe, _ := os.Executable()
	luaDir := flag.String("lua-dir", filepath.Join(filepath.Dir(exe), "..", "..", "lua"), "the project's lua/ folder")
	mutant := flag.String("mutant", "", "inject a known bug (release-skips-token-check) to test the harness")
	flag.Parse()
	// Every pattern exactly as the reference scripts answer: nothing to declare.
	declares := map[string]kit.Declares{}
	for pattern := range ops {
		declares[pattern] = kit.Declares{}
	}
	os.Exit(kit.Serve(name, version, declares, &referenceScripts{luaDir: *luaDir, mutant: *mutant}))
}

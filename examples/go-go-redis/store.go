package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// op is one operation of a pattern: the script that runs it and its ARGV, in order.
type op struct {
	script string
	args   []string
}

var ops = map[string]map[string]op{
	"idempotency": {
		"register": {"register_or_get", []string{"fingerprint", "owner", "leaseMs"}},
		"complete": {"complete", []string{"owner", "status", "body", "ttlMs"}},
		"release":  {"release", []string{"owner"}},
		"renew":    {"renew", []string{"owner", "leaseMs"}},
	},
	"lock": {
		"acquire": {"acquire", []string{"token", "ttlMs"}},
		"release": {"remove_if_matches", []string{"token"}},
		"extend":  {"extend_if_matches", []string{"token", "ttlMs"}},
	},
	"ratelimit": {
		"hit": {"fixed_window", []string{"limit", "windowSeconds"}},
	},
}

// notExecuted are the Redis errors that prove a command never ran, so sending it again is safe.
var notExecuted = []string{"MOVED", "TRYAGAIN", "CLUSTERDOWN", "LOADING", "READONLY", "MASTERDOWN"}

// Store runs a pattern's Lua scripts as seed 000 step 4 does: loaded once on every master, called
// by SHA, reloaded after NOSCRIPT and retried exactly once.
type Store struct {
	rdb     *redis.ClusterClient
	ops     map[string]op
	scripts map[string]*redis.Script
	mutant  string
}

func OpenStore(ctx context.Context, rdb *redis.ClusterClient, luaDir, pattern, mutant string) (*Store, error) {
	s := &Store{rdb: rdb, ops: ops[pattern], scripts: map[string]*redis.Script{}, mutant: mutant}
	for _, o := range s.ops {
		src, err := os.ReadFile(filepath.Join(luaDir, pattern, o.script+".lua"))
		if err != nil {
			return nil, err
		}
		script := redis.NewScript(string(src))
		err = rdb.ForEachMaster(ctx, func(ctx context.Context, master *redis.Client) error {
			return script.Load(ctx, master).Err()
		})
		if err != nil {
			return nil, fmt.Errorf("loading %s.lua: %w", o.script, err)
		}
		s.scripts[o.script] = script
	}
	return s, nil
}

// Call runs one operation; a nil Redis reply comes back as (nil, nil).
func (s *Store) Call(ctx context.Context, name, key string, args map[string]string) (any, error) {
	o, ok := s.ops[name]
	if !ok {
		return nil, fmt.Errorf("unknown op %q", name)
	}
	if s.mutant == "release-skips-token-check" && o.script == "remove_if_matches" {
		// The bug compare-and-delete exists to prevent: a blind DEL frees whoever holds the lock.
		return s.rdb.Del(ctx, key).Result()
	}
	argv := make([]any, len(o.args))
	for i, a := range o.args {
		argv[i] = args[a]
	}
	res, err := s.evalWithRedirects(ctx, o.script, key, argv)
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	return res, err
}

// evalWithRedirects follows MOVED and friends itself: go-redis would also resend after a timeout
// or a dropped connection, when the script may already have run (see main.go's MaxRedirects).
func (s *Store) evalWithRedirects(ctx context.Context, name, key string, argv []any) (any, error) {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var res any
		res, err = s.eval(ctx, name, key, argv)
		if err == nil || !provesNotRun(err) {
			return res, err
		}
		time.Sleep(time.Duration(50*(attempt+1)) * time.Millisecond)
	}
	return nil, err
}

func (s *Store) eval(ctx context.Context, name, key string, argv []any) (any, error) {
	script := s.scripts[name]
	res, err := script.EvalSha(ctx, s.rdb, []string{key}, argv...).Result()
	if err == nil || !redis.HasErrorPrefix(err, "NOSCRIPT") {
		return res, err
	}
	// A failover, restart or SCRIPT FLUSH emptied the key's master's cache: reload there and
	// retry once. A second NOSCRIPT is a real error and goes back to the caller.
	master, err := s.rdb.MasterForKey(ctx, key)
	if err != nil {
		return nil, err
	}
	if err := script.Load(ctx, master).Err(); err != nil {
		return nil, err
	}
	return script.EvalSha(ctx, s.rdb, []string{key}, argv...).Result()
}

func provesNotRun(err error) bool {
	var rerr redis.Error
	if !errors.As(err, &rerr) {
		return false
	}
	for _, prefix := range notExecuted {
		if strings.HasPrefix(rerr.Error(), prefix) {
			return true
		}
	}
	return false
}

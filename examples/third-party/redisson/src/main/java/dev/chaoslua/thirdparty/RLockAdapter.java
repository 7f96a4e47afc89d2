package dev.chaoslua.thirdparty;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chaoslua.kit.Kit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** Redisson's RLock as a chaoslua lock: the async API, which names the owning thread explicitly. */
final class RLockAdapter implements Kit.Adapter {
  static final Map<String, Kit.Declares> DECLARES = Map.of("lock", new Kit.Declares(Map.of("acquire", "boolean", "release", "boolean"), null));
  private final Map<String, Long> owners = new ConcurrentHashMap<>();
  private final AtomicLong next = new AtomicLong(1);
  private RedissonClient redisson;

  @Override public void open(String pattern, RedissonClient redisson, JsonNode hello) {
    this.redisson = redisson;
  }

  @Override public Object call(String op, String key, Kit.Args args) throws Exception {
    RLock lock = redisson.getLock(key);
    // RLock's owner is a thread: each holder (token) is one "thread id" of the async API's.
    long owner = owners.computeIfAbsent(args.string("token"), t -> next.getAndIncrement());
    if (op.equals("acquire")) {
      // RLock is re-entrant (a holder's second lock counts); a holder asking again is not let in twice.
      if (lock.isHeldByThread(owner)) throw new Kit.Refused("re-entry: this holder holds the lock already");
      return lock.tryLockAsync(0, args.integer("ttlMs"), TimeUnit.MILLISECONDS, owner).get();
    }
    try {
      lock.unlockAsync(owner).get();
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IllegalMonitorStateException) return false; // not locked by this holder
      throw e;
    }
  }
}

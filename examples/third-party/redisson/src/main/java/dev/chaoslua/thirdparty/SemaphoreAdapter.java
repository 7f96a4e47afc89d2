package dev.chaoslua.thirdparty;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chaoslua.kit.Kit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;

/** Redisson's RPermitExpirableSemaphore as a chaoslua semaphore: a permit id per holder, with its own lease. */
final class SemaphoreAdapter implements Kit.Adapter {
  static final Map<String, Kit.Declares> DECLARES = Map.of("semaphore", new Kit.Declares(
      Map.of("acquire", Map.of("level", "boolean", "handle", true), "release", "boolean", "refresh", "boolean"),
      List.of("{key}", "{key}:timeout"))); // the available permits, and the permits taken with their deadlines
  private RedissonClient redisson;

  @Override public void open(String pattern, RedissonClient redisson, JsonNode hello) {
    this.redisson = redisson;
  }

  @Override public Object call(String op, String key, Kit.Args args) throws Exception {
    RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(key);
    String permit = (String) args.handle();
    long ttl = args.integer("ttlMs");
    if (op.equals("acquire")) {
      // A holder asking again renews its permit (updateLeaseTime) rather than take a second one.
      if (permit != null && semaphore.updateLeaseTime(permit, ttl, TimeUnit.MILLISECONDS)) return Kit.withHandle(true, permit);
      semaphore.trySetPermits((int) args.integer("limit")); // the first holder sets the limit
      String taken = semaphore.tryAcquire(0, ttl, TimeUnit.MILLISECONDS);
      return Kit.withHandle(taken != null, taken);
    }
    if (permit == null) throw new Kit.Refused("no permit id for this holder");
    return op.equals("release") ? semaphore.tryRelease(permit) : semaphore.updateLeaseTime(permit, ttl, TimeUnit.MILLISECONDS);
  }
}

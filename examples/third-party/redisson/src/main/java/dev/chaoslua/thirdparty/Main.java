package dev.chaoslua.thirdparty;

import dev.chaoslua.kit.Kit;
import org.redisson.Redisson;

/** `java -jar adapters.jar lock|ratelimiter|semaphore`: one Redisson object per adapter. */
public final class Main {
  public static void main(String[] argv) throws Exception {
    // The jar bundles Redisson: its own pom.properties says which version.
    java.util.Properties pom = new java.util.Properties();
    try (var in = Redisson.class.getResourceAsStream("/META-INF/maven/org.redisson/redisson/pom.properties")) {
      if (in != null) pom.load(in);
    }
    String version = pom.getProperty("version", "unknown");
    String which = argv.length > 0 ? argv[0] : "";
    int code = switch (which) {
      case "lock" -> Kit.serve("redisson-rlock", String.valueOf(version), RLockAdapter.DECLARES, new RLockAdapter());
      case "ratelimiter" -> Kit.serve("redisson-rratelimiter", String.valueOf(version), RRateLimiterAdapter.DECLARES, new RRateLimiterAdapter());
      case "semaphore" -> Kit.serve("redisson-rpermitexpirablesemaphore", String.valueOf(version), SemaphoreAdapter.DECLARES, new SemaphoreAdapter());
      default -> {
        System.err.println("usage: java -jar adapters.jar lock|ratelimiter|semaphore");
        yield 2;
      }
    };
    System.exit(code);
  }
}

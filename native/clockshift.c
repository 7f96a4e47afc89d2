/*
 * chaoslua's clock preload: shifts what a process reads of the wall clock, and nothing else.
 *
 *   LD_PRELOAD=.../chaoslua-clock.so CHAOSLUA_CLOCK_FILE=/path/to/page PROGRAM ...
 *
 * Why not libfaketime: its preload resolves the real functions with dlsym on the first clock call,
 * and a server linked with jemalloc reads the clock while its allocator starts, so dlsym re-enters
 * the allocator and the server hangs at start (Debian's redis-server 7.0.15). Here the real
 * clock_gettime is looked up once, in a constructor, after the allocator is up; any call before that
 * goes to the kernel directly. Only CLOCK_REALTIME (and its coarse variant), gettimeofday and time
 * move: the monotonic clocks that timers and timeouts use are never touched, as on a real host whose
 * wall clock is stepped or slewed.
 *
 * The page (the file, at least 32 bytes; the harness writes it while the process runs):
 *   bytes  0..7   u64  seq        odd while the writer is between its writes (a seqlock)
 *   bytes  8..15  i64  offset_ns  added to every wall-clock reading
 *   bytes 16..23  i64  anchor_ns  real wall-clock time from which the drift counts
 *   bytes 24..31  i64  rate_ppm   drift: the clock gains rate_ppm microseconds per second after anchor
 * shifted = real + offset_ns + (real - anchor_ns) * rate_ppm / 1e6   (the last term only past anchor)
 * A missing or short file leaves the clock as it is.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct page {
  volatile uint64_t seq;
  volatile int64_t offset_ns;
  volatile int64_t anchor_ns;
  volatile int64_t rate_ppm;
};

static const struct page *shared;
static int (*real_clock_gettime)(clockid_t, struct timespec *);

__attribute__((constructor)) static void clockshift_init(void) {
  real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  const char *file = getenv("CHAOSLUA_CLOCK_FILE");
  if (!file || !*file) return;
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(struct page)) {
    void *p = mmap(NULL, sizeof(struct page), PROT_READ, MAP_SHARED, fd, 0);
    if (p != MAP_FAILED) shared = (const struct page *)p;
  }
  close(fd);
}

static int kernel_clock_gettime(clockid_t id, struct timespec *ts) {
  if (real_clock_gettime) return real_clock_gettime(id, ts);
  return (int)syscall(SYS_clock_gettime, id, ts);
}

/* The shift to add at real time `real_ns`, read consistently (retried while the writer is mid-write). */
static int64_t shift_ns(int64_t real_ns) {
  const struct page *p = shared;
  if (!p) return 0;
  for (int tries = 0; tries < 1000; tries++) {
    uint64_t before = p->seq;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    int64_t offset = p->offset_ns, anchor = p->anchor_ns, rate = p->rate_ppm;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if ((before & 1) == 0 && before == p->seq) {
      int64_t drift = 0;
      if (rate != 0 && real_ns > anchor) drift = (int64_t)((__int128)(real_ns - anchor) * rate / 1000000);
      return offset + drift;
    }
  }
  return 0;
}

static int is_wall(clockid_t id) { return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE; }

int clock_gettime(clockid_t id, struct timespec *ts) {
  int rc = kernel_clock_gettime(id, ts);
  if (rc != 0 || !is_wall(id) || !shared) return rc;
  int64_t real = (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
  int64_t shifted = real + shift_ns(real);
  ts->tv_sec = shifted / 1000000000;
  ts->tv_nsec = shifted % 1000000000;
  if (ts->tv_nsec < 0) {
    ts->tv_nsec += 1000000000;
    ts->tv_sec -= 1;
  }
  return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
  (void)tz;
  struct timespec ts;
  int rc = clock_gettime(CLOCK_REALTIME, &ts);
  if (rc != 0) return rc;
  tv->tv_sec = ts.tv_sec;
  tv->tv_usec = ts.tv_nsec / 1000;
  return 0;
}

time_t time(time_t *out) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (out) *out = ts.tv_sec;
  return ts.tv_sec;
}

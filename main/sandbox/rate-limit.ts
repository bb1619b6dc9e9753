/**
 * The scenario's rate limit: a fixed window per API key, shared by v1.3 upload and v1.3 analysis
 * retrieval (the only calls the spec gives a 429). Requests refused with 429 do not count.
 */
import type { RateLimit } from './scenario';

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  clear(): void {
    this.windows.clear();
  }

  /** True when the request may proceed (and is counted); false when it is over the limit. */
  admit(key: string, limit: RateLimit, now: number): boolean {
    let w = this.windows.get(key);
    if (!w || now - w.start >= limit.windowMs || now < w.start) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    if (w.count >= limit.maxRequests) return false;
    w.count++;
    return true;
  }
}

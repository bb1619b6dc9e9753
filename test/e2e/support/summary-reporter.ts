/** One plain closing line, like vitest's: `playwright: N passed, N failed, N skipped`. */
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;
  onTestEnd(_t: TestCase, r: TestResult) {
    if (r.status === 'passed') this.passed++;
    else if (r.status === 'skipped') this.skipped++;
    else this.failed++;
  }
  onEnd(_r: FullResult) {
    console.log(`playwright: ${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`);
  }
}

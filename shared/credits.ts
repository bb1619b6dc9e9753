/**
 * The usage buckets a batch can empty, in the researcher's words with what each holds: "the trial
 * credits (the trial holds 10 credits)". Written once for the credit check's message and the import's
 * confirm step.
 */

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

const BUCKET_WORDS: Readonly<Record<string, (holds: number) => string>> = {
  trial: (n) => `the trial credits (the trial holds ${count(n, 'credit')})`,
  included: (n) => `the included credits of this period (${n} left)`,
  purchased: (n) => `the purchased credits (${n} left)`,
  billing_period_limit: (n) =>
    `the upload limit of this billing period (${count(n, 'upload')} left before the limit)`,
};

/** "the trial credits (the trial holds 10 credits), then the included credits of this period (100 left)". */
export const emptiedInWords = (buckets: readonly string[], holds: readonly number[]): string =>
  buckets.map((b, i) => BUCKET_WORDS[b]?.(holds[i] ?? 0) ?? `the ${b.replace(/_/g, ' ')}`).join(', then ');

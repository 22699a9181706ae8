// The request-duration histogram of every answered request (metrics.ts), counted in plain numbers.
// prom-client's Histogram turns the labels into a hash string and checks them again at every
// observation, even through a child made once per route: about 1 % of the app's CPU on exam day
// (docs/decisions/005-exam-save-path.md, issue 34). Here each series (method, route, status class)
// is found by the caller's key and an observation is a bucket search and three additions; the
// registry gets the series at scrape time in prom-client's own shape (the same text, the same JSON
// for the cluster primary's sums), so nothing reading the metrics sees a difference.
import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

interface Series {
  labels: Labels;
  /** Observations per bucket (not cumulative), by the bucket's index in `bounds`. */
  counts: number[];
  sum: number;
  count: number;
}

export interface RequestDurations {
  /** One observation (seconds) of the series `key`; `labels` gives its labels the first time the key is seen. */
  observe(key: string, labels: () => Labels, seconds: number): void;
}

export function createRequestDurations(options: { name: string; help: string; buckets: readonly number[]; registers: Registry[] }): RequestDurations {
  const { name, help } = options;
  const bounds = [...options.buckets].sort((a, b) => a - b);
  const series = new Map<string, Series>();

  /** The values as prom-client's Histogram.getForPromString gives them (labels apart from the shared ones). */
  const values = () => {
    const out: { labels: Record<string, string | number>; sharedLabels: Labels; value: number; metricName: string; exemplar?: null }[] = [];
    for (const { labels, counts, sum, count } of series.values()) {
      let cumulative = 0;
      for (let i = 0; i < bounds.length; i += 1) {
        cumulative += counts[i]!;
        out.push({ labels: { le: bounds[i]! }, sharedLabels: labels, value: cumulative, metricName: `${name}_bucket`, exemplar: null });
      }
      out.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${name}_bucket`, exemplar: null });
      out.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum` });
      out.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count` });
    }
    return out;
  };

  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    labelNames: [] as string[],
    async getForPromString() {
      return { name, help, type: 'histogram', values: values(), aggregator: 'sum' };
    },
    async get() {
      // As Histogram.get: the shared labels folded into each value's own.
      const splayed = values().map(({ labels, sharedLabels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } }));
      return { name, help, type: 'histogram', values: splayed, aggregator: 'sum' };
    },
    reset() {
      series.clear();
    },
  };
  for (const registry of options.registers) registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);

  return {
    observe(key, labels, seconds) {
      let found = series.get(key);
      if (!found) {
        found = { labels: labels(), counts: bounds.map(() => 0), sum: 0, count: 0 };
        series.set(key, found);
      }
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i += 1;
      if (i < bounds.length) found.counts[i]! += 1;
      found.sum += seconds;
      found.count += 1;
    },
  };
}

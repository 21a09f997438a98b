import type { Registry } from 'prom-client';
import type { RequestTallies } from './request-tallies';

type Labels = Record<string, string | number>;

/** One sample as prom-client's `metric.get()` returns it (and its registry formats). */
interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
}

/**
 * A metric of a registry read from {@link RequestTallies} when the registry is scraped: the request counter
 * (`counter`) or the duration histogram (`histogram`). It answers what prom-client's registry asks of its
 * metrics (`name`, `get()`, `reset()`; `aggregator` for `AggregatorRegistry`) with the samples prom-client's
 * own Counter and Histogram produce, so the text, `getMetricsAsJSON()` and cluster aggregation all work.
 */
export class TallyMetric {
  readonly aggregator = 'sum';

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    readonly tallies: RequestTallies,
  ) {}

  /** Adds the metric to `registry` (which takes any object with these methods, though its types say otherwise). */
  registerIn(registry: Registry): this {
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
    return this;
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const { name, help, type, aggregator } = this;
    return { name, help, type, aggregator, values: type === 'counter' ? this.#counts() : this.#histogram() };
  }

  /** Forgets every request so far (`registry.resetMetrics()`): both metrics read the same tallies. */
  reset(): void {
    this.tallies.clear();
  }

  #counts(): Sample[] {
    return Array.from(this.tallies.tallies(), (tally) => ({ labels: { ...tally.labels }, value: tally.count }));
  }

  #histogram(): Sample[] {
    const { bounds } = this.tallies;
    const samples: Sample[] = [];
    for (const tally of this.tallies.tallies()) {
      let cumulative = 0;
      bounds.forEach((le, i) => {
        cumulative += tally.buckets[i];
        samples.push({ labels: { ...tally.labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      samples.push(
        { labels: { ...tally.labels, le: '+Inf' }, value: tally.count, metricName: `${this.name}_bucket` },
        { labels: { ...tally.labels }, value: tally.sum, metricName: `${this.name}_sum` },
        { labels: { ...tally.labels }, value: tally.count, metricName: `${this.name}_count` },
      );
    }
    return samples;
  }
}

// Metrics with several worker processes (src/server/cluster.ts): each worker keeps its own
// registry and answers the primary's requests for it over the cluster's IPC channel; the primary
// serves their aggregate (sums, except where a metric names another aggregator, e.g. max).
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { MetricsSource } from './server';

/** In a worker: let the primary read this registry. */
export function shareWithPrimary(registry: Registry) {
  AggregatorRegistry.setRegistries(registry);
  // The constructor installs prom-client's IPC listener (once per process); the instance is unused.
  new AggregatorRegistry();
}

/** In the primary: the workers' metrics, aggregated at each scrape. */
export function clusterMetricsSource(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() };
}

/** In a single process: its own registry. */
export const registrySource = (registry: Registry): MetricsSource => ({
  contentType: registry.contentType,
  metrics: () => registry.metrics(),
});

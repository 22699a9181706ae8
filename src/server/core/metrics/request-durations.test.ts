import { AggregatorRegistry, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createRequestDurations } from './request-durations';

const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];
const name = 'contest_http_request_duration_seconds';
const help = 'Time to answer an HTTP request';
const observations: [string, string, string, number][] = [
  ['POST', '/api/store-answers-exam', '2xx', 0.004],
  ['POST', '/api/store-answers-exam', '2xx', 0.005],
  ['POST', '/api/store-answers-exam', '2xx', 0.0051],
  ['POST', '/api/store-answers-exam', '5xx', 1.2],
  ['GET', '/api/examing/get-time', '2xx', 0.03],
  ['GET', 'unmatched', '4xx', 16],
  ['GET', '/api/examing/get-time', '2xx', 15],
];

/** The same observations in prom-client's Histogram and in createRequestDurations, each in a registry of its own. */
function both() {
  const reference = new Registry();
  const histogram = new Histogram({ name, help, labelNames: ['method', 'route', 'status_class'] as const, buckets, registers: [reference] });
  const ours = new Registry();
  const durations = createRequestDurations({ name, help, buckets, registers: [ours] });
  for (const [method, route, statusClass, seconds] of observations) {
    histogram.observe({ method, route, status_class: statusClass }, seconds);
    durations.observe(`${method} ${statusClass} ${route}`, () => ({ method, route, status_class: statusClass }), seconds);
  }
  return { reference, ours };
}

describe('request durations in plain numbers', () => {
  it("gives the same exposition text as prom-client's Histogram", async () => {
    const { reference, ours } = both();
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('gives the same JSON, and the cluster primary sums it the same', async () => {
    const { reference, ours } = both();
    const [referenceJson, oursJson] = [await reference.getMetricsAsJSON(), await ours.getMetricsAsJSON()];
    expect(oursJson).toEqual(referenceJson);
    const summed = (json: typeof referenceJson) => AggregatorRegistry.aggregate([json, json]).metrics();
    expect(await summed(oursJson)).toBe(await summed(referenceJson));
  });

  it('starts again from nothing when the registry is reset', async () => {
    const { ours } = both();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(`# HELP ${name} ${help}\n# TYPE ${name} histogram\n`);
  });
});

import { DynamicModule } from '@nestjs/common';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';

let defaultMetricsStarted = false;

/**
 * Serves /metrics with prom-client's process defaults (process_start_time_seconds among them). The
 * defaults live in one global registry, so a second server in the same process (as in tests) must
 * not start them again.
 */
export function prometheusModule(): DynamicModule {
  const enabled = !defaultMetricsStarted;
  defaultMetricsStarted = true;
  return PrometheusModule.register({ path: '/metrics', defaultMetrics: { enabled } });
}

/** A service exporting its traces and metrics to a loopback OTLP receiver, in one of OTLP/HTTP's encodings. */
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';
import { startTestService, type TestService } from './service.js';

/** The receiver, then the service pointed at it (`OTEL_SERVICE_NAME` gateway-under-test), with `env` beside. */
export async function startExportingService(
  protocol: string,
  env: Record<string, string>,
  options: Omit<NonNullable<Parameters<typeof startTestService>[0]>, 'env'> = {},
): Promise<{ receiver: OtlpReceiver; t: TestService }> {
  const receiver = await startOtlpReceiver();
  const t = await startTestService({
    ...options,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_SERVICE_NAME: 'gateway-under-test', ...env },
  });
  return { receiver, t };
}

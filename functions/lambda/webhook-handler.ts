// The webhooks Lambda (AWS): one function, two triggers. Subscribed to the webhook SQS queue, it
// makes one attempt per record ({ batchItemFailures } for the ones to retry, their visibility set to
// the backoff); on its one-minute schedule (an EventBridge event, no Records), it sweeps: outbox ->
// deliveries -> queue. See core/adapters/webhook-queue-sqs.ts.
import { ConfigError } from '../../core/config.ts';
import type { Config } from '../../core/config.ts';
import type { Deps } from '../../core/deps.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { sqsClientFromConfig } from '../../core/adapters/rebuild-queue-sqs.ts';
import { handleWebhookRecords, sweepWebhooks, type SqsBatchResponse, type WebhookSqs, type WebhookSqsRecord } from '../../core/adapters/webhook-queue-sqs.ts';
import { createLambdaDeps } from './lambda-deps.ts';
import { lambdaConfig } from './resource-env.ts';

export type WebhookEvent = { Records: WebhookSqsRecord[] } | { source?: string; 'detail-type'?: string };

export type WebhookHandler = ((event: WebhookEvent) => Promise<SqsBatchResponse | { queued: number }>) & { deps(): Deps };

export function webhookHandler(ports: { objects: (config: Config) => ObjectStore }, options: { config?: () => Config } = {}): WebhookHandler {
  let instance: { deps: Deps; sqs: WebhookSqs } | undefined;
  const init = () => {
    if (instance) return instance;
    const config = (options.config ?? lambdaConfig)();
    if (!config.WEBHOOKS_QUEUE_URL) throw new ConfigError('WEBHOOKS_QUEUE_URL is required by this function: link WebhookQueue to it');
    // No counters, no rebuild queue: this function counts no calls and queues no builds.
    const deps = createLambdaDeps(config, { objects: ports.objects });
    instance = { deps, sqs: { client: sqsClientFromConfig(config), queueUrl: config.WEBHOOKS_QUEUE_URL } };
    return instance;
  };
  const handler = async (event: WebhookEvent) => {
    const { deps, sqs } = init();
    if ('Records' in event) return handleWebhookRecords(deps, event.Records, sqs);
    return { queued: await sweepWebhooks(deps, sqs) };
  };
  return Object.assign(handler, { deps: () => init().deps });
}

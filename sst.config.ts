/// <reference path="./.sst/platform/config.d.ts" />
// SST v3 app. The SST CLI refuses top-level imports in this file (ErrTopLevelImport): it loads the
// file to read app() before resources may be created, and stacks/ modules create resources when
// they are imported. So they are imported dynamically inside run(), one concern per module.
// Type-check with scripts/typecheck-infra.sh; deploy with `npx sst deploy --stage <stage>`.
export default $config({
  app(input) {
    const production = input.stage === 'production';
    return {
      name: 'tms',
      home: 'aws',
      // Production keeps its bucket (and its data) if the app is ever removed, and `sst remove`
      // refuses to run against it at all. Other stages clean up after themselves.
      removal: production ? 'retain' : 'remove',
      protect: production,
    };
  },
  async run() {
    // One runtime for every Lambda in the app, including the queue subscriber, and the packages no
    // Lambda bundles (functions/catalogue.ts, NEVER_BUNDLED: imports that never run).
    const { NEVER_BUNDLED } = await import('./functions/catalogue.ts');
    $transform(sst.aws.Function, (args) => {
      args.runtime ??= 'nodejs22.x';
      args.architecture ??= 'arm64';
      // No stack sets `nodejs` itself; one that does must add NEVER_BUNDLED to its esbuild externals.
      args.nodejs ??= { esbuild: { external: [...NEVER_BUNDLED] } };
    });

    await import('./stacks/secrets.ts');
    const { translationsBucket } = await import('./stacks/storage.ts');
    const { rebuildQueue, rebuildDeadLetterQueue } = await import('./stacks/queue.ts');
    const { api, cdn } = await import('./stacks/api.ts');
    await import('./stacks/builder.ts');
    const { webhookQueue, webhookDeadLetterQueue } = await import('./stacks/webhooks.ts');

    return {
      api: api.url,
      cdn: cdn.url,
      bucket: translationsBucket.name,
      queue: rebuildQueue.url,
      deadLetterQueue: rebuildDeadLetterQueue.url,
      webhookQueue: webhookQueue.url,
      webhookDeadLetterQueue: webhookDeadLetterQueue.url,
    };
  },
});

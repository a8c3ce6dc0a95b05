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
    // One runtime for every Lambda in the app, including the queue subscriber.
    $transform(sst.aws.Function, (args) => {
      args.runtime ??= 'nodejs22.x';
      args.architecture ??= 'arm64';
    });

    await import('./stacks/secrets.ts');
    const { translationsBucket } = await import('./stacks/storage.ts');
    const { rebuildQueue, rebuildDeadLetterQueue } = await import('./stacks/queue.ts');
    const { api, cdn } = await import('./stacks/api.ts');
    await import('./stacks/builder.ts');

    return {
      api: api.url,
      cdn: cdn.url,
      bucket: translationsBucket.name,
      queue: rebuildQueue.url,
      deadLetterQueue: rebuildDeadLetterQueue.url,
    };
  },
});

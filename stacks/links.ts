// The SST links behind each port of functions/catalogue.ts: what a function declares it needs is
// what it is granted, nothing more. The queues are passed in because stacks/queue.ts defines them
// and links its own subscriber (the builder) with this too.
import type { Port } from '../functions/catalogue.ts';
import { databaseLinks, quotaLinks, secrets } from './secrets.ts';
import { translationsBucket } from './storage.ts';

export type Linkable = sst.Secret | sst.aws.Bucket | sst.aws.Queue | sst.Linkable<{ distributionId: $util.Output<string> }>;

export function linksOf(
  ports: readonly Port[],
  queues: {
    rebuildQueue?: sst.aws.Queue;
    rebuildDeadLetterQueue: sst.aws.Queue;
    /** The CDN's EdgeCache link (stacks/api.ts): only the builder has it. */
    edgeCache?: sst.Linkable<{ distributionId: $util.Output<string> }>;
  },
): Linkable[] {
  const links = (port: Port): Linkable[] => {
    switch (port) {
      case 'database':
        return databaseLinks;
      case 'counters':
        return quotaLinks;
      case 'objects':
        return [translationsBucket];
      case 'adminToken':
        return [secrets.adminToken];
      case 'deadLetter':
        return [queues.rebuildDeadLetterQueue];
      case 'queue':
        if (!queues.rebuildQueue) throw new Error('the rebuild queue cannot link to itself');
        return [queues.rebuildQueue];
      case 'edge':
        if (!queues.edgeCache) throw new Error('the edge link exists once the CDN does: link it from stacks/builder.ts');
        return [queues.edgeCache];
    }
  };
  return ports.flatMap(links);
}

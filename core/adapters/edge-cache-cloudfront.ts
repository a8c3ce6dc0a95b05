// EdgeCache on a CloudFront distribution: one CreateInvalidation per build, carrying every changed
// path (wildcards count as one path each toward CloudFront's monthly free allowance).
import { CloudFrontClient, CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import type { Config } from '../config.ts';
import { checkInvalidationPaths, type EdgeCache } from '../ports/edge-cache.ts';
import { AWS_REQUEST_HANDLER } from './aws-deadlines.ts';

export type CloudFrontClientOptions = {
  /** For a CloudFront-compatible server (the test emulator); leave unset on AWS. */
  endpoint?: string;
  /** CloudFront is global; its API lives in us-east-1. */
  region?: string;
};

export function createCloudFrontClient(options: CloudFrontClientOptions = {}): CloudFrontClient {
  return new CloudFrontClient({ region: options.region ?? 'us-east-1', ...(options.endpoint ? { endpoint: options.endpoint } : {}), requestHandler: AWS_REQUEST_HANDLER });
}

export function createCloudFrontEdgeCache(options: { distributionId: string; client: CloudFrontClient }): EdgeCache {
  const { distributionId, client } = options;
  return {
    async invalidate(paths, reference) {
      checkInvalidationPaths(paths);
      const items = [...new Set(paths)];
      await client.send(
        new CreateInvalidationCommand({
          DistributionId: distributionId,
          InvalidationBatch: {
            Paths: { Quantity: items.length, Items: items },
            // Unique per build: a retried call for the same build is answered with the same
            // invalidation instead of creating a second one.
            CallerReference: reference,
          },
        }),
      );
    },
  };
}

/** The edge of this configuration: CloudFront when CLOUDFRONT_DISTRIBUTION_ID is set. */
export function cloudFrontEdgeCacheFromConfig(
  config: Pick<Config, 'CLOUDFRONT_DISTRIBUTION_ID' | 'CLOUDFRONT_ENDPOINT'> & { CLOUDFRONT_DISTRIBUTION_ID: string },
): EdgeCache {
  return createCloudFrontEdgeCache({
    distributionId: config.CLOUDFRONT_DISTRIBUTION_ID,
    client: createCloudFrontClient(config.CLOUDFRONT_ENDPOINT ? { endpoint: config.CLOUDFRONT_ENDPOINT } : {}),
  });
}

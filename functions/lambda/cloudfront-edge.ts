// The CloudFront edge port for the builder, which invalidates the cached paths a build changed.
// Imported only by the builder's entry, so that no other function bundles @aws-sdk/client-cloudfront.
import { ConfigError, type Config } from '../../core/config.ts';
import { cloudFrontEdgeCacheFromConfig } from '../../core/adapters/edge-cache-cloudfront.ts';
import type { EdgeCache } from '../../core/ports/edge-cache.ts';

export function cloudFrontEdge(config: Config): EdgeCache {
  const distributionId = config.CLOUDFRONT_DISTRIBUTION_ID;
  if (!distributionId) throw new ConfigError('CLOUDFRONT_DISTRIBUTION_ID is required by this function: link EdgeCache to it');
  return cloudFrontEdgeCacheFromConfig({ ...config, CLOUDFRONT_DISTRIBUTION_ID: distributionId });
}

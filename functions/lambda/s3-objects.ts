// The S3 object store port for the functions that read or write built cache objects. Imported only
// by their entries, so that no other function bundles @aws-sdk/client-s3.
import { ConfigError, type Config } from '../../core/config.ts';
import { s3ObjectStoreFromConfig } from '../../core/adapters/object-store-s3.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';

export function s3Objects(config: Config): ObjectStore {
  const bucket = config.S3_BUCKET;
  if (!bucket) throw new ConfigError('S3_BUCKET is required by this function: link TranslationsBucket to it');
  return s3ObjectStoreFromConfig({ ...config, S3_BUCKET: bucket });
}

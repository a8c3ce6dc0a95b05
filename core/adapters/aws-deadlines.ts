// Deadlines for the AWS SDK's calls (S3, SQS, CloudFront, or servers speaking their APIs). The SDK
// waits for ever by default: a service that accepts connections and never answers (an overloaded
// MinIO, a network black hole) held every request that met it, and kept a build's claim renewed
// for good. With these an attempt fails, the SDK retries it, and then the error reaches the caller
// as a dependency failure, as with a database that stops answering. Idle, not total: a large
// upload that keeps sending is not cut off.

/** How long connecting may take, and then how long a connection may stay silent, per attempt. */
export const AWS_REQUEST_HANDLER = { connectionTimeout: 3_000, socketTimeout: 5_000 } as const;

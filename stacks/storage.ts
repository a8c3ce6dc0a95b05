// The translations bucket: the builder writes each project's prebuilt files here, the cached
// function reads them, and the cache function reads the build pointer for GET /v1/cache/status
// (all three link it, which grants IAM access and exposes Resource.TranslationsBucket).
//
// It is deliberately private (no `access: 'cloudfront'`). CloudFront does sit in front of the
// cached endpoints (stacks/api.ts), but in front of the cached *function*, not the bucket: that
// function checks X-API-Key and the project, and answers 503 until the first rebuild, none of which
// a bucket origin can do. `access: 'cloudfront'` would also add a bucket policy granting
// s3:GetObject to the CloudFront service principal with no AWS:SourceArn condition, i.e. to any
// distribution in any AWS account that signs with origin access control, for a route we do not have.
export const translationsBucket = new sst.aws.Bucket('TranslationsBucket', {
  // Only Lambdas read and write it, through the SDK; browsers never touch it directly.
  cors: false,
});

// The versioned, immutable URLs of one build's files (issue 16). A build id never names two
// contents, so these paths can be cached for a year by browsers and edges; only the manifest,
// which names the current build, must be revalidated. Paths are relative to the API's origin.
//
//   /v1/cached/builds/<build>/translations/<language>
//   /v1/cached/builds/<build>/translations/<language>/<group>
export const buildLanguagePath = (buildId: string, language: string) =>
  `/v1/cached/builds/${encodeURIComponent(buildId)}/translations/${encodeURIComponent(language)}`;

export const buildGroupPath = (buildId: string, language: string, group: string) =>
  `${buildLanguagePath(buildId, language)}/${encodeURIComponent(group)}`;

// @tms/sdk for browsers, React Native and Node: no dependencies, nothing Node-only (the directory
// storage is in @tms/sdk/node, so a browser bundle never imports node:fs).
export { createClient } from './client.ts';
export { TmsError } from './errors.ts';
export type { BuildEvent, Client, ClientOptions, Manifest, ManifestLanguage, StorageLike, Translations } from './types.ts';

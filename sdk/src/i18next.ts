// @tms/sdk/i18next: an i18next backend over createClient. Switching an app to tms:
//
//   import { TmsBackend } from '@tms/sdk/i18next';
//   i18next.use(TmsBackend).init({ backend: { url, key }, lng: 'de', fallbackLng: 'en' });
//
// Namespaces: `translation` (i18next's default, or `allNamespace`) is the whole language file, every
// group, keys by their full names (`t('home.title')`, as an app with one nested translation.json
// has them). Any other namespace is the tms group of that name, with the group's `name.` prefix
// taken off its keys (`t('home:title')` for the key `home.title` of group `home`).
import { createClient } from './client.ts';
import { toI18next } from './i18next-plural.ts';
import type { Client, ClientOptions } from './types.ts';

export type TmsBackendOptions = Partial<ClientOptions> & {
  /** A client made elsewhere (to share its storage and build events); else one is made from the options. */
  client?: Client;
  /** The namespace that is the whole language file. Default `translation`. */
  allNamespace?: string;
  /** Reload every loaded language and namespace when a newer build is seen. Default true. */
  reloadOnBuild?: boolean;
  /**
   * Give i18next the values as stored, ICU plurals included, for an app that formats with
   * i18next-icu: its lookups skip i18next's plural suffixes, so the suffixed keys the backend
   * otherwise makes of a plural would show as the key. Default false.
   */
  icu?: boolean;
};

type Services = {
  backendConnector?: { reload?(languages: string[], namespaces: string[], callback: () => void): void };
  resourceStore?: { hasResourceBundle?(lng: string, ns: string): boolean; removeResourceBundle?(lng: string, ns: string): unknown };
};
type ReadCallback = (error: unknown, data: unknown) => void;

/**
 * What a backend gave up when it is collected: its build subscription, and a client it made itself
 * (whose polling timer would otherwise keep it, and its requests, going for ever). An app that makes
 * an i18next instance per request (server rendering) with one shared client would keep every
 * instance subscribed, and reloaded on each build, until the process ends.
 */
const collected =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<() => void>((release) => release()) : undefined;

const weakly = <T extends object>(target: T): { deref(): T | undefined } => (typeof WeakRef === 'function' ? new WeakRef(target) : { deref: () => target });

/**
 * The backend's build subscription, made out here so that nothing the listener keeps refers to the
 * backend but a weak reference (a closure made in a method would keep the method's `this`).
 */
function follow(backend: TmsBackend, client: Client, own: Client | undefined, reloadOnBuild: boolean): () => void {
  const ref = weakly(backend);
  const off = reloadOnBuild ? client.onBuild(() => ref.deref()?.reloadLoaded()) : undefined;
  return () => {
    off?.();
    own?.close();
  };
}

export class TmsBackend {
  static type = 'backend' as const;
  type = 'backend' as const;
  /** read(language, namespace, callback): declared, since i18next's guess from the parameter count is deprecated. */
  static callbackApi = true;
  client?: Client;
  private options: TmsBackendOptions = {};
  private services?: Services;
  private languages = new Set<string>();
  private namespaces = new Set<string>();
  /** The language|namespace pairs a build's reload is reading: their old bundles go as the new ones come. */
  private reloading = new Set<string>();
  private release?: () => void;
  /** i18next's pluralSeparator: the plural keys made of an ICU plural are `key${separator}one`... */
  private pluralSeparator = '_';

  constructor(services?: Services, options?: TmsBackendOptions, i18nextOptions?: { pluralSeparator?: string }) {
    if (options) this.init(services, options, i18nextOptions);
  }

  init(services: Services | undefined, options: TmsBackendOptions = {}, i18nextOptions?: { pluralSeparator?: string }): void {
    if (typeof i18nextOptions?.pluralSeparator === 'string') this.pluralSeparator = i18nextOptions.pluralSeparator;
    // i18next calls init again on an instance passed to use(), with `backend` (often unset): the
    // options the constructor took stay, and what init brings is added.
    this.options = { ...this.options, ...options };
    this.services = services;
    this.close();
    const o = this.options;
    if (!o.client && !(o.url && o.key)) throw new Error('TmsBackend: set backend.url and backend.key (or backend.client)');
    const own = o.client ? undefined : createClient(o as ClientOptions);
    this.client = o.client ?? own!;
    // The build listener holds the backend weakly: an i18next instance nobody uses any more is
    // collected, and its subscription (and its own client) released with it.
    this.release = follow(this, this.client, own, o.reloadOnBuild !== false);
    collected?.register(this, this.release, this);
  }

  /** Stops following builds, and a client this backend made (its polling). Read still works. */
  close(): void {
    collected?.unregister(this);
    this.release?.();
    this.release = undefined;
  }

  /** A newer build: i18next reads every loaded language and namespace again (called on build events). */
  reloadLoaded(): void {
    const languages = [...this.languages];
    const namespaces = [...this.namespaces];
    for (const language of languages) for (const namespace of namespaces) this.reloading.add(`${language}|${namespace}`);
    this.services?.backendConnector?.reload?.(languages, namespaces, () => {});
  }

  read(language: string, namespace: string, callback: ReadCallback): void {
    const whole = namespace === (this.options.allNamespace ?? 'translation');
    this.languages.add(language);
    this.namespaces.add(namespace);
    this.client!.getTranslations(language, whole ? undefined : namespace).then(
      (values) => {
        const data = toI18next(values, language, whole ? '' : `${namespace}.`, this.options.icu === true, this.pluralSeparator);
        // i18next adds a reloaded bundle onto the old one: keys and plural forms the new build no
        // longer has would stay. The old bundle goes just before the new one is added, in the same
        // turn, so no t() in between sees neither.
        const pair = `${language}|${namespace}`;
        if (this.reloading.delete(pair) && this.services?.resourceStore?.hasResourceBundle?.(language, namespace)) {
          this.services.resourceStore.removeResourceBundle?.(language, namespace);
        }
        callback(null, data);
      },
      // The client has already retried as the spec says: i18next must not retry on top (false).
      (error: unknown) => {
        this.reloading.delete(`${language}|${namespace}`);
        callback(error, false);
      },
    );
  }
}

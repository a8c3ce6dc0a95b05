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
};

type Services = { backendConnector?: { reload?(languages: string[], namespaces: string[], callback: () => void): void } };
type ReadCallback = (error: unknown, data: unknown) => void;

export class TmsBackend {
  static type = 'backend' as const;
  type = 'backend' as const;
  client?: Client;
  private options: TmsBackendOptions = {};
  private languages = new Set<string>();
  private namespaces = new Set<string>();

  constructor(services?: Services, options?: TmsBackendOptions) {
    if (options) this.init(services, options);
  }

  init(services: Services | undefined, options: TmsBackendOptions = {}): void {
    this.options = options;
    if (!options.client && !(options.url && options.key)) throw new Error('TmsBackend: set backend.url and backend.key (or backend.client)');
    const client = (this.client = options.client ?? createClient(options as ClientOptions));
    if (options.reloadOnBuild !== false) {
      client.onBuild(() => services?.backendConnector?.reload?.([...this.languages], [...this.namespaces], () => {}));
    }
  }

  read(language: string, namespace: string, callback: ReadCallback): void {
    const whole = namespace === (this.options.allNamespace ?? 'translation');
    this.languages.add(language);
    this.namespaces.add(namespace);
    this.client!.getTranslations(language, whole ? undefined : namespace).then(
      (values) => callback(null, toI18next(values, language, whole ? '' : `${namespace}.`)),
      // The client has already retried as the spec says: i18next must not retry on top (false).
      (error: unknown) => callback(error, false),
    );
  }
}

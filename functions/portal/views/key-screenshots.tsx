// On a value's page (a key in one language): the screenshots that show the key, so that the
// translator sees where the text appears and how much room it has. Each is the image with the key's
// region outlined (when one is marked), its name, where the key is in words, and links to the full
// image and to the screenshot's page. Not shown for a key no screenshot shows.
import type { FC } from 'hono/jsx';
import type { Screenshot } from '../../../core/screenshots/schemas.ts';
import { regionWords, screenshotImagePath, screenshotPath, screenshotsPath, ShotImage } from './screenshot-figure.tsx';

/** The screenshots a key's page shows: the first of them (upload order), and how many show it in all. */
export type KeyScreenshots = { keyId: string; keyName: string; list: Screenshot[]; count: number };

export const KeyScreenshotsSection: FC<{ projectId: string; shots: KeyScreenshots }> = ({ projectId, shots }) => {
  const { keyId, keyName, list, count } = shots;
  if (count === 0) return null;
  return (
    <section id="screenshots" aria-labelledby="screenshots-title">
      <h3 id="screenshots-title">Screenshots</h3>
      <p class="hint">{count === 1 ? 'Where this key appears in the product:' : `Where this key appears in the product (${count} screenshots):`}</p>
      <ul class="shots key-shots">
        {list.map((shot) => {
          const region = shot.keys.find((k) => k.key_id === keyId)?.region ?? null;
          return (
            <li>
              <figure class="card">
                <ShotImage projectId={projectId} shot={shot} regions={region ? [region] : []} alt={`Screenshot: ${shot.name}`} size="large" />
                <figcaption>
                  <strong>{shot.name}</strong>
                  <br />
                  <span class="hint">
                    {region ? (
                      <>
                        <span class="mono">{keyName}</span> is outlined, {regionWords(region)} of {shot.width} × {shot.height}.
                      </>
                    ) : (
                      <>
                        <span class="mono">{keyName}</span> is on this screen (where has not been marked).
                      </>
                    )}
                  </span>
                  <br />
                  <a href={screenshotImagePath(projectId, shot.id)}>
                    Full image<span class="sr-only">{` of ${shot.name}`}</span>
                  </a>
                  {' · '}
                  <a href={screenshotPath(projectId, shot.id)}>
                    Details<span class="sr-only">{` of ${shot.name}`}</span>
                  </a>
                </figcaption>
              </figure>
            </li>
          );
        })}
      </ul>
      {count > list.length ? (
        <p>
          <a href={screenshotsPath(projectId, { key: keyId })}>{`All ${count} screenshots of this key`}</a>
        </p>
      ) : null}
    </section>
  );
};

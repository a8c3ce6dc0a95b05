// One screenshot's page (core/screenshots): the image with every linked key's region outlined, and
// the keys it shows with where each is. Members with screenshots.manage rename it, link more keys (by
// name), mark, change or clear a key's region (four numbers, in the image's pixels from its top left
// corner; with JavaScript also drawn on the image, which fills the four numbers), unlink a key, and
// delete the screenshot (asked first). A refused form comes back with what was typed and the message
// at its field, as the glossary's forms do.
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { SCREENSHOT_NAME_MAX_CHARS, type Screenshot } from '../../../core/screenshots/schemas.ts';
import { may } from '../../../core/users/permissions.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { FieldProblem, problemAttrs, type FieldProblems } from './field-problems.tsx';
import { ProjectNav } from './project-nav.tsx';
import { regionWords, screenshotImagePath, screenshotPath, screenshotsPath, ShotImage, sizeWords } from './screenshot-figure.tsx';
import { FormLevelProblems, KeyLinesField } from './screenshots-page.tsx';

/**
 * A refused form, shown again: which one ('rename', 'link', or `key-<key id>` for a key's region and
 * link), what it sent (kept in its fields) and the problems by field.
 */
export type ScreenshotDraft = { form: string; values: Record<string, string>; problems: FieldProblems };

export const keyFormId = (keyId: string) => `key-${keyId}`;
const REGION_FIELDS = ['x', 'y', 'width', 'height'] as const;
/** The large image, on which PORTAL_JS draws a key's region, and the live region that says how. */
const SHOT_ID = 'shot-image';
const DRAW_STATUS_ID = 'draw-status';

type Props = {
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  cache: { last_rebuilt_at: string | null; ready: boolean; pending?: boolean };
  notice?: string | undefined;
  error?: string | undefined;
  shot: Screenshot;
  draft?: ScreenshotDraft | undefined;
};

const when = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/** The form of one linked key: its region's four numbers (Save, Clear) and Unlink. */
const KeyForm: FC<{ csrf: string; projectId: string; shot: Screenshot; link: Screenshot['keys'][number]; draft: ScreenshotDraft | undefined }> = ({ csrf, projectId, shot, link, draft }) => {
  const form = keyFormId(link.key_id);
  const own = draft?.form === form ? draft : undefined;
  const problems = own?.problems;
  const value = (field: (typeof REGION_FIELDS)[number]) => own?.values[field] ?? (link.region ? String(link.region[field]) : '');
  const bounds = { x: [0, shot.width - 1], y: [0, shot.height - 1], width: [1, shot.width], height: [1, shot.height] } as const;
  const labels = { x: 'x', y: 'y', width: 'Width', height: 'Height' } as const;
  return (
    <form method="post" action={`${screenshotPath(projectId, shot.id)}/keys/${link.key_id}`} class="stack region-form" aria-label={`Where ${link.key} is`}>
      <CsrfField csrf={csrf} />
      <FormLevelProblems problems={problems} fields={[...REGION_FIELDS]} />
      <div class="row wrap region-fields">
        {REGION_FIELDS.map((field) => (
          <label>
            {`${labels[field]} (px)`}
            <input
              name={field}
              type="number"
              inputmode="numeric"
              min={String(bounds[field][0])}
              max={String(bounds[field][1])}
              step="1"
              required
              value={value(field)}
              {...problemAttrs(problems, form, field)}
            />
          </label>
        ))}
      </div>
      {REGION_FIELDS.map((field) => (
        <FieldProblem problems={problems} form={form} name={field} />
      ))}
      <div class="row wrap">
        {/* Shown by PORTAL_JS, which draws the region with the pointer: without it the numbers above do. */}
        <button type="button" class="secondary draw" data-draw={SHOT_ID} data-key-name={link.key} aria-pressed="false" hidden>
          Draw on the image<span class="sr-only">{` where ${link.key} is`}</span>
        </button>
        <button type="submit" name="do" value="region" class="secondary">
          Save region<span class="sr-only">{` of ${link.key}`}</span>
        </button>
        {link.region ? (
          <button type="submit" name="do" value="clear" class="secondary" formnovalidate>
            Clear region<span class="sr-only">{` of ${link.key}`}</span>
          </button>
        ) : null}
        <button type="submit" name="do" value="unlink" class="link danger" formnovalidate>
          Unlink<span class="sr-only">{` ${link.key}`}</span>
        </button>
      </div>
    </form>
  );
};

export const ScreenshotPage: FC<Props> = ({ user, csrf, access, cache, notice, error, shot, draft }) => {
  const path = screenshotPath(access.projectId, shot.id);
  const manage = may(access.role, 'screenshots.manage');
  const editor = `${P}/projects/${access.projectId}`;
  const rename = draft?.form === 'rename' ? draft : undefined;
  const link = draft?.form === 'link' ? draft : undefined;
  return (
    <Layout title={`${shot.name}: screenshot of ${access.projectName}`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="screenshots" csrf={csrf} cache={cache} here={path} />
      <p>
        <a href={screenshotsPath(access.projectId)}>All screenshots</a>
      </p>
      <h2>{shot.name}</h2>
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <p class="hint">
        {sizeWords(shot)} · uploaded {when(shot.created_at)} · <a href={screenshotImagePath(access.projectId, shot.id)}>Full image</a>
      </p>
      <ShotImage projectId={access.projectId} shot={shot} regions={shot.keys.flatMap((k) => (k.region ? [k.region] : []))} alt={`Screenshot: ${shot.name}`} size="large" id={SHOT_ID} />
      {/* Empty until a key's "Draw on the image" is pressed: a live region must be on the page before it speaks. */}
      {manage && shot.keys.length ? <p id={DRAW_STATUS_ID} class="hint draw-status" role="status"></p> : null}

      <h3 id="keys-title">{`Keys it shows (${shot.keys.length})`}</h3>
      {shot.keys.length === 0 ? (
        <p class="empty">{manage ? 'No key linked yet: link the keys this screen shows below.' : 'No key linked yet.'}</p>
      ) : (
        <div class="table-scroll">
          <table class="table stacked">
            <caption class="sr-only">The keys {shot.name} shows, and where</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Where</th>
                {manage ? <th scope="col">Region (in the image's pixels, from its top left corner)</th> : null}
              </tr>
            </thead>
            <tbody>
              {shot.keys.map((k) => (
                <tr data-key={k.key_id}>
                  <th scope="row">
                    <a href={`${editor}?q=${encodeURIComponent(k.key)}`} class="mono" aria-label={`${k.key} in the editor`}>
                      {k.key}
                    </a>{' '}
                    <span class="badge muted">{k.group_name}</span>
                  </th>
                  <td>{k.region ? `Outlined ${regionWords(k.region)}` : 'Somewhere on it (no region marked)'}</td>
                  {manage ? (
                    <td>
                      <KeyForm csrf={csrf} projectId={access.projectId} shot={shot} link={k} draft={draft} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {manage ? (
        <>
          <details class="card" open={link !== undefined}>
            <summary>Link keys</summary>
            <form method="post" action={`${path}/keys`} class="stack" aria-label="Link keys">
              <CsrfField csrf={csrf} />
              <FormLevelProblems problems={link?.problems} fields={['keys']} />
              <KeyLinesField form="link" value={link?.values.keys ?? ''} problems={link?.problems} label="Keys to link" required />
              <div>
                <button type="submit">Link keys</button>
              </div>
            </form>
          </details>
          <details class="card" open={rename !== undefined}>
            <summary>Rename</summary>
            <form method="post" action={path} class="stack" aria-label="Rename the screenshot">
              <CsrfField csrf={csrf} />
              {/* The name the page showed: a form sent unchanged says so, and writes nothing. */}
              <input type="hidden" name="name_was" value={rename?.values.name_was ?? shot.name} />
              <FormLevelProblems problems={rename?.problems} fields={['name']} />
              <label>
                Name
                <input name="name" required maxlength={maxUnits(SCREENSHOT_NAME_MAX_CHARS)} value={rename?.values.name ?? shot.name} {...problemAttrs(rename?.problems, 'rename', 'name')} />
              </label>
              <FieldProblem problems={rename?.problems} form="rename" name="name" />
              <div>
                <button type="submit">Save name</button>
              </div>
            </form>
          </details>
          <form method="post" action={`${path}/delete`} data-confirm={`Delete the screenshot ${shot.name}? Its image and its links to keys go with it; this cannot be undone.`}>
            <CsrfField csrf={csrf} />
            <button type="submit" class="danger">
              Delete screenshot<span class="sr-only">{` ${shot.name}`}</span>
            </button>
          </form>
        </>
      ) : null}
    </Layout>
  );
};

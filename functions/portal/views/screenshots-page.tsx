// A project's Screenshots tab (core/screenshots): images of the product's screens, each linked to the
// keys it shows, so that a translator sees where a text appears and how much room it has. Every
// member sees the grid (100 a page, in upload order; or the screenshots of one key); members with
// screenshots.manage (owners, developers, reviewers) upload one here (the file, a name, the keys it
// shows by name) and change or delete it on its own page (screenshot-page.tsx). A refused upload
// comes back with the name and key names kept and the message at the field it is about.
import type { FC } from 'hono/jsx';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { KEYS_PER_SCREENSHOT_MAX, SCREENSHOT_MAX_SIDE, SCREENSHOT_NAME_MAX_CHARS, SCREENSHOTS_PER_PROJECT_MAX, type Screenshot } from '../../../core/screenshots/schemas.ts';
import { may } from '../../../core/users/permissions.ts';
import { CsrfField, Layout, Notice } from './layout.tsx';
import { maxUnits } from './max-units.ts';
import { FieldProblem, problemAttrs, type FieldProblems } from './field-problems.tsx';
import { ProjectNav } from './project-nav.tsx';
import { screenshotPath, screenshotsPath, ShotImage, sizeWords } from './screenshot-figure.tsx';

/** Screenshots a page of the tab lists (the core's `limit`; "Next page" leads on by its cursor). */
export const SCREENSHOTS_PAGE = 100;
/** Key names a card of the grid lists; the screenshot's page lists them all. */
const CARD_KEYS = 8;
/** A key-names field: a hundred names of up to 500 characters, one a line. */
export const KEY_LINES_MAX_CHARS = KEYS_PER_SCREENSHOT_MAX * 502;

/** A refused upload, shown again: what was typed (the file cannot be: a browser never keeps it), and the problems by field. */
export type UploadDraft = { name: string; keys: string; problems: FieldProblems };

type Props = {
  user: SessionUser;
  csrf: string;
  access: ProjectAccess;
  cache: { last_rebuilt_at: string | null; ready: boolean; pending?: boolean };
  notice?: string | undefined;
  error?: string | undefined;
  screenshots: Screenshot[];
  /** Screenshots in the whole project (or of the key), not only on this page. */
  count: number;
  next: string | null;
  cursor?: string | undefined;
  /** Only the screenshots of this key (its id and name). */
  key?: { id: string; name: string } | undefined;
  /** The upload form's one-time token (a double click uploads once). */
  submission: string;
  draft?: UploadDraft | undefined;
};

/** The fields of the upload form; a problem of another (none of these) is said at the form's top. */
const UPLOAD_FIELDS = ['file', 'name', 'keys'];

/** The key-names field: one name a line, "group/name" as the editor shows it also read. */
export const KeyLinesField: FC<{ form: string; value: string; problems: FieldProblems | undefined; label: string; required?: boolean }> = ({ form, value, problems, label, required }) => (
  <>
    <label>
      {label}{' '}
      <span class="hint">{`(one key name a line, as in the editor: auth.sign_in, or auth/sign_in with its group; up to ${KEYS_PER_SCREENSHOT_MAX})`}</span>
      <textarea name="keys" rows={3} maxlength={maxUnits(KEY_LINES_MAX_CHARS)} required={required} spellcheck={false} class="mono" {...problemAttrs(problems, form, 'keys')}>
        {value}
      </textarea>
    </label>
    <FieldProblem problems={problems} form={form} name="keys" />
  </>
);

/** A form's problems about none of its fields, at its top. */
export const FormLevelProblems: FC<{ problems: FieldProblems | undefined; fields: string[] }> = ({ problems, fields }) => {
  const others = Object.entries(problems ?? {}).filter(([field]) => !fields.includes(field));
  return others.length ? (
    <p class="field-error" role="alert">
      {others.map(([, msg]) => msg).join(' ')}
    </p>
  ) : null;
};

export const ScreenshotsPage: FC<Props> = (props) => {
  const { user, csrf, access, cache, notice, error, screenshots, count, next, cursor, key, submission, draft } = props;
  const base = screenshotsPath(access.projectId);
  const here = screenshotsPath(access.projectId, { key: key?.id, cursor });
  const manage = may(access.role, 'screenshots.manage');
  const problems = draft?.problems;
  return (
    <Layout title={`${access.projectName}: screenshots`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="screenshots" csrf={csrf} cache={cache} here={here} />
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      <h2>Screenshots</h2>
      <p class="hint">
        Images of the product's screens, each linked to the keys it shows: a translator sees them on each key's page, with the key's place outlined, and the editor
        counts them beside the key.
      </p>

      {manage ? (
        <details class="card" open={draft !== undefined}>
          <summary>Upload a screenshot</summary>
          <form method="post" action={base} enctype="multipart/form-data" class="stack" aria-label="Upload a screenshot">
            <CsrfField csrf={csrf} />
            <input type="hidden" name="submission" value={submission} />
            <FormLevelProblems problems={problems} fields={UPLOAD_FIELDS} />
            {draft ? <p class="hint">Nothing was uploaded. The name and keys are kept; choose the file again (a browser never keeps a chosen file).</p> : null}
            <label>
              Image{' '}
              <span class="hint">{`(PNG, JPEG or WebP; up to 4 MiB and ${SCREENSHOT_MAX_SIDE.toLocaleString('en-US')} pixels a side)`}</span>
              <input type="file" name="file" accept="image/png,image/jpeg,image/webp" required {...problemAttrs(problems, 'upload', 'file')} {...(problems?.file ? { autofocus: true } : {})} />
            </label>
            <FieldProblem problems={problems} form="upload" name="file" />
            <label>
              Name <span class="hint">(optional: shown to translators; the file's name without its extension if empty)</span>
              <input name="name" maxlength={maxUnits(SCREENSHOT_NAME_MAX_CHARS)} value={draft?.name ?? ''} {...problemAttrs(problems, 'upload', 'name')} />
            </label>
            <FieldProblem problems={problems} form="upload" name="name" />
            <KeyLinesField form="upload" value={draft?.keys ?? ''} problems={problems} label="Keys it shows (optional)" />
            <p class="hint">Where each key is on the image is marked on the screenshot's page, after the upload.</p>
            <div>
              <button type="submit">Upload</button>
            </div>
          </form>
        </details>
      ) : null}

      <p class="hint" role="status">
        {key ? (
          <>
            {`${count} ${count === 1 ? 'screenshot shows' : 'screenshots show'} `}
            <span class="mono">{key.name}</span>
            {' · '}
            <a href={base}>Show every screenshot</a>
          </>
        ) : (
          `${count} ${count === 1 ? 'screenshot' : 'screenshots'} (at most ${SCREENSHOTS_PER_PROJECT_MAX.toLocaleString('en-US')} per project)`
        )}
      </p>

      {screenshots.length === 0 ? (
        <p class="empty">{key ? 'No screenshot shows this key.' : cursor ? 'No more screenshots.' : manage ? 'No screenshots yet: upload the first one above.' : 'No screenshots yet.'}</p>
      ) : (
        <ul class="shots">
          {screenshots.map((shot) => (
            <li class="card shot-card" data-screenshot={shot.id}>
              <a href={screenshotPath(access.projectId, shot.id)} class="shot-link">
                <ShotImage projectId={access.projectId} shot={shot} regions={shot.keys.flatMap((k) => (k.region ? [k.region] : []))} alt="" size="thumb" />
                <strong class="shot-name">{shot.name}</strong>
              </a>
              <span class="hint">{sizeWords(shot)}</span>
              <span class="hint">
                {shot.keys.length === 0 ? (
                  'No key linked yet'
                ) : (
                  <>
                    {`${shot.keys.length} ${shot.keys.length === 1 ? 'key' : 'keys'}: `}
                    {shot.keys.slice(0, CARD_KEYS).map((k, i) => (
                      <>
                        {i ? ', ' : ''}
                        <span class="mono">{k.key}</span>
                      </>
                    ))}
                    {shot.keys.length > CARD_KEYS ? ` and ${shot.keys.length - CARD_KEYS} more` : ''}
                  </>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <nav class="pager" aria-label="Pages">
        {cursor ? <a href={screenshotsPath(access.projectId, { key: key?.id })}>First page</a> : null}
        {next ? (
          <a href={screenshotsPath(access.projectId, { key: key?.id, cursor: next })} rel="next">
            Next page
          </a>
        ) : null}
      </nav>
    </Layout>
  );
};

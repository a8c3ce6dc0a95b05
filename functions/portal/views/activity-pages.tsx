// The activity log (every write to the project, by whom and when) and one value's page: the
// screenshots that show its key (key-screenshots.tsx), its comments (core/comments) and its history
// with a one-click revert.
import type { FC } from 'hono/jsx';
import type { ActivityItem, HistoryItem, ValueHistory } from '../../../core/portal/activity.ts';
import { textAttrs } from '../../../core/languages/text-direction.ts';
import type { SessionUser } from '../../../core/users/schemas.ts';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { COMMENT_MAX_CHARS, type Comment } from '../../../core/comments/schemas.ts';
import { CsrfField, Layout, Notice, P } from './layout.tsx';
import { actorLabel, describeEvent, summarizeChange, valueTarget, type ActivityNames, type Part } from './activity-words.ts';
import { FieldProblem, problemAttrs } from './field-problems.tsx';
import { maxUnits } from './max-units.ts';
import { ProjectNav } from './project-nav.tsx';
import { KeyScreenshotsSection, type KeyScreenshots } from './key-screenshots.tsx';

type Common = { user: SessionUser; csrf: string; access: ProjectAccess; cache: { last_rebuilt_at: string | null; ready: boolean } };

const when = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`;

/** The words of activity-words.ts: names monospaced, a value's text quoted in its own language and direction. */
export const Words: FC<{ parts: Part[] }> = ({ parts }) => (
  <>
    {parts.map((p) =>
      typeof p === 'string' ? (
        p
      ) : 'name' in p ? (
        <span class="mono">{p.name}</span>
      ) : (
        <>
          "<span {...textAttrs(p.language)}>{p.text}</span>"
        </>
      ),
    )}
  </>
);

export const ActivityPage: FC<Common & { items: ActivityItem[]; next: number | null; names: ActivityNames }> = ({ user, csrf, access, cache, items, next, names }) => {
  const base = `${P}/projects/${access.projectId}`;
  return (
    <Layout title={`${access.projectName}: activity`} user={user} csrf={csrf} wide>
      <ProjectNav access={access} current="activity" csrf={csrf} cache={cache} />
      {items.length === 0 ? <p class="empty">Nothing has happened yet.</p> : null}
      <div class="table-scroll">
        <table class="table stacked">
          <caption class="sr-only">Activity, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {items.map((e) => {
              const value = valueTarget(e);
              return (
                <tr>
                  <td class="nowrap">{when(e.occurred_at)}</td>
                  <td>{actorLabel(e, names.apiKeys)}</td>
                  <td>
                    <Words parts={describeEvent(e, names)} />
                    {value ? (
                      <>
                        {' '}
                        <a href={`${base}/keys/${value.keyId}/values/${value.language}/history`}>history</a>
                      </>
                    ) : null}
                  </td>
                  <td class="change">
                    <Words parts={summarizeChange(e)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label="Pages">
        {next !== null ? (
          <a href={`${base}/activity?before=${next}`} rel="next">
            Older
          </a>
        ) : null}
      </nav>
    </Layout>
  );
};

/** A language-wide write in words: "from an import (json)", "by Translate missing". */
function languageWideWrite(source: ActivityItem): string {
  const format = (source.after as { format?: unknown } | null)?.format;
  if (source.type === 'translation.imported') return typeof format === 'string' ? `from an import (${format})` : 'from an import';
  return source.type === 'translation.machine_translated' ? 'by Translate missing' : `by ${source.type}`;
}

/** Where a stored value no recorded write of its own explains came from, in words. */
function unexplainedOrigin(source: ActivityItem | null, apiKeys: ActivityNames['apiKeys']): string {
  if (!source) return 'written without a recorded change of this value';
  return `${languageWideWrite(source)}, ${actorLabel(source, apiKeys)}, ${when(source.occurred_at)}`;
}

/**
 * The form that writes a recorded text again: the `after` of write `e`, or (side 'before') what it
 * replaced. `version`: the stored value's this page shows as current ("none": it shows none), so a
 * change saved after the page was loaded is refused rather than reverted unseen.
 */
const RevertForm: FC<{ action: string; csrf: string; e: HistoryItem; side: 'after' | 'before'; version: string }> = ({ action, csrf, e, side, version }) => (
  <form method="post" action={action} class="inline">
    <CsrfField csrf={csrf} />
    <input type="hidden" name="event_id" value={String(e.id)} />
    <input type="hidden" name="version" value={version} />
    {side === 'before' ? <input type="hidden" name="side" value="before" /> : null}
    <button
      type="submit"
      class="secondary"
      aria-label={side === 'before' ? `Revert to this: the text replaced ${when(e.occurred_at)}` : `Revert to this: the version of ${when(e.occurred_at)}`}
    >
      Revert to this
    </button>
  </form>
);

const openCount = (list: Comment[]) => list.filter((cm) => cm.resolved_at === null).length;

/** A value's comments as its page shows them. */
export type ShownComments = {
  /** Oldest first. */
  list: Comment[];
  /** The member may comment here: they may edit the language, as for a value write. */
  mayAdd: boolean;
  /** The member may delete anyone's comment ('comments.moderate'); everyone deletes their own. */
  moderator: boolean;
  /** A comment refused: the text as typed, kept in the field, and why (beside it). */
  draft?: { text: string; problem: string } | undefined;
  /** The add form's one-time token: sent twice (a double click), it adds one comment. */
  submission: string;
};

/** A comment's author as Activity names a writer: the email or API key's name as they are now, else what actorLabel says. */
const commentAuthor = ({ author }: Comment) =>
  actorLabel({ actor_type: author.type, actor_id: author.id, actor_email: author.type === 'user' ? author.name : null }, { [author.id]: author.name });

/** A comment's text, its line breaks kept (the stylesheet has no pre-wrap for it): the writer's language, not the value's. */
const CommentText: FC<{ text: string }> = ({ text }) => (
  <p dir="auto">
    {text.split(/\r\n?|\n/).map((line, i) => (
      <>
        {i > 0 ? <br /> : null}
        {line}
      </>
    ))}
  </p>
);

/** Who resolved a comment, named as its author is (an API key's name, a member's email as they are now). */
const resolverOf = (cm: Comment) => (cm.resolved_by ? commentAuthor({ ...cm, author: cm.resolved_by }) : '');

/**
 * The thread of one value (key and language, whatever its text): each comment with its author and
 * time, Resolve (or Reopen) for those who may comment here, Delete on those the member may delete,
 * and the form that adds one. A resolved comment stays, marked with who resolved it and when.
 */
const Comments: FC<{ csrf: string; user: SessionUser; action: string; language: string; comments: ShownComments }> = ({ csrf, user, action, language, comments }) => {
  const { list, mayAdd, moderator, draft } = comments;
  const problems = draft ? { text: draft.problem } : undefined;
  return (
    <section id="comments" aria-labelledby="comments-title">
      <h3 id="comments-title">Comments</h3>
      {list.length > 0 ? (
        <p class="hint">
          {list.length === 1 ? '1 comment' : `${list.length} comments`}, {openCount(list)} open
        </p>
      ) : null}
      {list.length === 0 ? (
        <p class="hint">No comments yet.</p>
      ) : (
        <ol class="list comments">
          {list.map((cm) => {
            const by = commentAuthor(cm);
            const own = cm.author.type === 'user' && cm.author.id === user.id;
            return (
              <li class={cm.resolved_at ? 'resolved' : undefined}>
                <div class="row between wrap">
                  <div>
                    <CommentText text={cm.text} />
                    <span class="hint">
                      {by}, {when(cm.created_at)}
                    </span>
                    {cm.resolved_at ? (
                      <span class="hint">
                        {' '}
                        · <span class="badge muted">Resolved</span> by {resolverOf(cm)}, {when(cm.resolved_at)}
                      </span>
                    ) : null}
                  </div>
                  {mayAdd ? (
                    <form method="post" action={`${action}/${cm.id}/resolve`} class="inline">
                      <CsrfField csrf={csrf} />
                      <input type="hidden" name="resolved" value={cm.resolved_at ? 'no' : 'yes'} />
                      <button type="submit" class="secondary" aria-label={`${cm.resolved_at ? 'Reopen' : 'Resolve'} the comment of ${by}, ${when(cm.created_at)}`}>
                        {cm.resolved_at ? 'Reopen' : 'Resolve'}
                      </button>
                    </form>
                  ) : null}
                  {moderator || own ? (
                    <form method="post" action={`${action}/${cm.id}/delete`} class="inline" data-confirm="Delete this comment? It cannot be restored.">
                      <CsrfField csrf={csrf} />
                      <button type="submit" class="secondary" aria-label={`Delete the comment of ${by}, ${when(cm.created_at)}`}>
                        Delete
                      </button>
                    </form>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {mayAdd ? (
        <form method="post" action={action} class="stack">
          <CsrfField csrf={csrf} />
          <input type="hidden" name="submission" value={comments.submission} />
          <label>
            Add a comment
            <textarea name="text" rows={3} maxlength={maxUnits(COMMENT_MAX_CHARS)} required dir="auto" {...problemAttrs(problems, 'comment', 'text')}>
              {draft?.text ?? ''}
            </textarea>
          </label>
          <FieldProblem problems={problems} form="comment" name="text" />
          <div>
            <button type="submit">Add comment</button>
          </div>
        </form>
      ) : (
        <p class="hint">Your membership does not include {language}: you can read its comments, not add one.</p>
      )}
    </section>
  );
};

export const HistoryPage: FC<
  Common & {
    keyName: string;
    language: string;
    keyId: string;
    history: ValueHistory;
    mayRevert: boolean;
    /** The member may edit the language, but the value is approved: only a reviewer or developer may revert it. */
    revertNeedsReviewer?: boolean | undefined;
    notice?: string | undefined;
    /** Why a revert was refused (the value changed after the page it was sent from was loaded). */
    error?: string | undefined;
    apiKeyNames?: ActivityNames['apiKeys'];
    /** The value's comments; null when its slot takes none (its key deleted, its language no longer the project's). */
    comments: ShownComments | null;
    /** The screenshots that show the key (the same in every language); null for a key in the trash. */
    screenshots?: KeyScreenshots | null | undefined;
  }
> = ({
  user,
  csrf,
  access,
  cache,
  keyName,
  language,
  keyId,
  history,
  mayRevert,
  revertNeedsReviewer,
  notice,
  error,
  apiKeyNames,
  comments,
  screenshots,
}) => {
  const base = `${P}/projects/${access.projectId}`;
  const { stored, unexplained, items } = history;
  const text = textAttrs(language);
  const version = stored ? String(stored.version) : 'none';
  return (
    <Layout title={`${keyName} in ${language}: ${comments ? 'comments and history' : 'history'}`} user={user} csrf={csrf}>
      <ProjectNav access={access} current="activity" csrf={csrf} cache={cache} here={`${base}/keys/${keyId}/values/${encodeURIComponent(language)}/history`} />
      <h2>
        <span class="mono">{keyName}</span> in {language}
      </h2>
      {notice ? <Notice kind="ok">{notice}</Notice> : null}
      {error ? <Notice kind="error">{error}</Notice> : null}
      {screenshots ? <KeyScreenshotsSection projectId={access.projectId} shots={screenshots} /> : null}
      {comments ? <Comments csrf={csrf} user={user} action={`${base}/keys/${keyId}/values/${language}/comments`} language={language} comments={comments} /> : null}
      {comments ? <h3>History</h3> : null}
      {items.length === 0 && !stored ? <p class="empty">No recorded change of this value.</p> : null}
      {revertNeedsReviewer ? <p class="hint">This value is approved: only a reviewer or developer can revert it.</p> : null}
      <ol class="list">
        {stored && unexplained ? (
          // The stored value, which none of the value's own recorded writes left: an import that
          // created it (one event per file) or Translate missing (one per language) wrote it.
          <li>
            <strong>
              "<span {...text}>{stored.value}</span>"
            </strong>{' '}
            <span class={`badge status-${stored.status}`}>{stored.status}</span>
            <br />
            <span class="hint">
              {unexplainedOrigin(unexplained.source, apiKeyNames)} (current)
            </span>
          </li>
        ) : null}
        {items.map((e) => {
          const after = e.after as { value?: string; status?: string } | null;
          const revert = `${base}/keys/${keyId}/values/${language}/revert`;
          return (
            <>
              <li>
                <div class="row between wrap">
                  <span>
                    <strong>
                      {e.type === 'translation.deleted' ? (
                        'deleted'
                      ) : (
                        <>
                          "<span {...text}>{after?.value ?? ''}</span>"
                        </>
                      )}
                    </strong>{' '}
                    {after?.status ? <span class={`badge status-${after.status}`}>{after.status}</span> : null}
                    <br />
                    <span class="hint">
                      {actorLabel(e, apiKeyNames)}, {when(e.occurred_at)}
                      {e.via ? `, ${languageWideWrite(e.via)}` : ''}
                      {e.current ? ' (current)' : ''}
                    </span>
                  </span>
                  {mayRevert && !e.current && e.type === 'translation.written' ? <RevertForm action={revert} csrf={csrf} e={e} side="after" version={version} /> : null}
                </div>
              </li>
              {e.earlier ? (
                // The text this write (or delete) replaced, which no recorded write of its own left (an
                // import or Translate missing created it): kept in this event, revertable from there.
                <li>
                  <div class="row between wrap">
                    <span>
                      <strong>
                        "<span {...text}>{e.earlier.value}</span>"
                      </strong>{' '}
                      <span class={`badge status-${e.earlier.status}`}>{e.earlier.status}</span>
                      <br />
                      <span class="hint">
                        written without a recorded change of this value (an import or Translate missing), {e.type === 'translation.deleted' ? 'deleted' : 'replaced'}{' '}
                        {when(e.occurred_at)}
                      </span>
                    </span>
                    {mayRevert ? <RevertForm action={revert} csrf={csrf} e={e} side="before" version={version} /> : null}
                  </div>
                </li>
              ) : null}
            </>
          );
        })}
      </ol>
      <p>
        <a href={`${base}/activity`}>All activity</a>
      </p>
    </Layout>
  );
};

/** An account's own log (the Members page, for its owners): membership, invitations, the plan. */
export const AccountActivity: FC<{ accountId: string; accountName: string; items: ActivityItem[]; next: number | null; names: ActivityNames }> = ({ accountId, accountName, items, next, names }) => (
  <>
    <h2>Activity in this account</h2>
    {items.length === 0 ? (
      <p class="hint">Nothing recorded yet.</p>
    ) : (
      <div class="table-scroll">
        <table class="table stacked">
          <caption class="sr-only">Activity in {accountName}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {items.map((e) => (
              <tr>
                <td class="nowrap">{when(e.occurred_at)}</td>
                <td>{actorLabel(e, names.apiKeys)}</td>
                <td>
                  <Words parts={describeEvent(e, names)} />
                </td>
                <td class="change">
                  <Words parts={summarizeChange(e)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
    {next !== null ? (
      <nav class="pager" aria-label="Account activity pages">
        <a href={`${P}/accounts/${accountId}/members?before=${next}#account-activity`} rel="next">
          Older
        </a>
      </nav>
    ) : null}
  </>
);

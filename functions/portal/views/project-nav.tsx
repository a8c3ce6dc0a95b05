// The project's header: its tabs, the cache status and the Publish button. Publish and Auto-publish
// carry the page they were sent from (`return_to`), so they come back to it, not to the editor.
import type { FC } from 'hono/jsx';
import type { ProjectAccess } from '../../../core/users/memberships.ts';
import { may } from '../../../core/users/permissions.ts';
import { CsrfField, P } from './layout.tsx';

type Tab = 'editor' | 'tasks' | 'languages' | 'glossary' | 'screenshots' | 'api-keys' | 'trash' | 'activity' | 'files' | 'usage';

export const ProjectNav: FC<{
  access: ProjectAccess;
  current: Tab;
  csrf: string;
  cache: { last_rebuilt_at: string | null; ready: boolean; pending?: boolean; build_state?: string };
  /** This page's address, when it is not the tab's own (the editor's filters, a value's history). */
  here?: string | undefined;
}> = ({ access, current, csrf, cache, here }) => {
  const base = `${P}/projects/${access.projectId}`;
  const returnTo = here ?? (current === 'editor' ? base : `${base}/${current}`);
  const tab = (id: typeof current, href: string, label: string) => (
    <a href={href} aria-current={current === id ? 'page' : undefined} class={current === id ? 'tab active' : 'tab'}>
      {label}
    </a>
  );
  return (
    <>
      <p class="crumbs">
        <a href={`${P}`}>Projects</a> / {access.projectName} <span class="badge muted">{access.role}</span>
      </p>
      <div class="row between wrap">
        <h1>{access.projectName}</h1>
        <div class="row wrap publish">
          {/* Pending: a requested build has not finished (it may finish before this page renders). */}
          <span
            class="hint"
            id="cache-status"
            role="status"
            data-status-url={`${base}/cache-status`}
            data-pending={cache.pending ? 'true' : 'false'}
            data-auto={access.autoRebuild ? 'true' : 'false'}
            data-built-at={cache.last_rebuilt_at ?? ''}
          >
            {cache.pending ? (cache.build_state === 'failed' ? 'Publishing failed, retrying…' : 'Publishing…') : cache.ready && cache.last_rebuilt_at ? `Published ${cache.last_rebuilt_at.replace('T', ' ').slice(0, 19)} UTC` : 'Not published yet'}
          </span>
          {may(access.role, 'project.publish') ? (
            <>
              <form method="post" action={`${base}/publish`} class="inline">
                <CsrfField csrf={csrf} />
                <input type="hidden" name="return_to" value={returnTo} />
                <button type="submit">Publish</button>
              </form>
              <form method="post" action={`${base}/settings`} class="inline">
                <CsrfField csrf={csrf} />
                <input type="hidden" name="return_to" value={returnTo} />
                <input type="hidden" name="auto_rebuild" value={access.autoRebuild ? 'false' : 'true'} />
                <button type="submit" class="secondary" aria-pressed={access.autoRebuild ? 'true' : 'false'}>
                  Auto-publish: {access.autoRebuild ? 'on' : 'off'}
                </button>
              </form>
            </>
          ) : null}
        </div>
      </div>
      <nav class="tabs" aria-label="Project">
        {tab('editor', base, 'Editor')}
        {tab('tasks', `${base}/tasks`, 'Tasks')}
        {tab('languages', `${base}/languages`, 'Languages')}
        {tab('glossary', `${base}/glossary`, 'Glossary')}
        {tab('screenshots', `${base}/screenshots`, 'Screenshots')}
        {may(access.role, 'api_keys.manage') ? tab('api-keys', `${base}/api-keys`, 'API keys') : null}
        {may(access.role, 'files.transfer') ? tab('files', `${base}/files`, 'Import / export') : null}
        {may(access.role, 'keys.manage') ? tab('trash', `${base}/trash`, 'Trash') : null}
        {tab('activity', `${base}/activity`, 'Activity')}
        {tab('usage', `${base}/usage`, 'Usage')}
      </nav>
    </>
  );
};

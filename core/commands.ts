// The fields every use-case input starts with: the project it acts on and, for writes, who acts.
import { Actor } from './actor.ts';
import { Uuid } from './validation.ts';

export const InProject = { projectId: Uuid } as const;
export const WriteInProject = { projectId: Uuid, actor: Actor } as const;

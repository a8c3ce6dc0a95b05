import * as v from 'valibot';
import { GroupName, LookupName, Uuid } from '../validation.ts';
import { InProject, WriteInProject } from '../commands.ts';

export const ValidateGroupInput = v.strictObject({ name: GroupName });
export const RenameGroupInput = v.strictObject({ new_name: GroupName });

// Use-case inputs. An existing group is named by any string: one that could never be a group name
// simply does not exist (404), which is what a caller asking for it needs to hear.
export const ValidateGroupCommand = v.object({ ...InProject, name: GroupName });
export const RenameGroupCommand = v.object({ ...WriteInProject, name: LookupName, newName: GroupName });
export const GroupCommand = v.object({ ...WriteInProject, name: LookupName });
export const ListGroupsCommand = v.object({ ...InProject });

export const GroupList = v.object({ project_id: Uuid, groups: v.array(v.string()), count: v.number() });
export type GroupList = v.InferOutput<typeof GroupList>;

export const ValidatedGroup = v.object({ project_id: Uuid, name: v.string(), created: v.literal(true) });
export type ValidatedGroup = v.InferOutput<typeof ValidatedGroup>;

export const RenamedGroup = v.object({
  project_id: Uuid,
  old_name: v.string(),
  new_name: v.string(),
  keys_updated: v.number(),
});
export type RenamedGroup = v.InferOutput<typeof RenamedGroup>;

export const RestoredGroup = v.object({ project_id: Uuid, group_name: v.string(), keys_restored: v.number() });
export type RestoredGroup = v.InferOutput<typeof RestoredGroup>;

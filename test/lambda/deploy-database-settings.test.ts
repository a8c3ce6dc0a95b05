// The database settings a stage's functions get from the deploying environment (stacks/
// deploy-settings.ts): docs/deploy.md tells a team on a slow-waking serverless database to raise
// the connection timeout, which no function received (only what the stacks pass reaches a Lambda).
// Bad values stop the deploy instead of failing every function at its cold start.
import { describe, expect, it } from 'vitest';
import { databaseSettings } from '../../stacks/deploy-settings.ts';
import { loadConfig } from '../../core/config.ts';

describe('databaseSettings (every function that links DatabaseUrl)', () => {
  it('one connection and prepared statements by default, and no connection timeout of its own (the 5 s default)', () => {
    expect(databaseSettings({})).toEqual({ DATABASE_POOL_MAX: '1', DATABASE_PREPARE: 'true' });
    expect(loadConfig(databaseSettings({})).DATABASE_CONNECT_TIMEOUT_SECONDS).toBe(5);
  });

  it('passes TMS_DATABASE_CONNECT_TIMEOUT_SECONDS and TMS_DATABASE_PREPARE on, as the functions read them', () => {
    const settings = databaseSettings({ TMS_DATABASE_CONNECT_TIMEOUT_SECONDS: '8', TMS_DATABASE_PREPARE: 'false' });
    expect(settings).toEqual({ DATABASE_POOL_MAX: '1', DATABASE_PREPARE: 'false', DATABASE_CONNECT_TIMEOUT_SECONDS: '8' });
    expect(loadConfig(settings)).toMatchObject({ DATABASE_CONNECT_TIMEOUT_SECONDS: 8, DATABASE_PREPARE: false, DATABASE_POOL_MAX: 1 });
  });

  it.each(['0', '11', '2.5', 'ten', '-1'])('refuses TMS_DATABASE_CONNECT_TIMEOUT_SECONDS=%s at deploy', (value) => {
    expect(() => databaseSettings({ TMS_DATABASE_CONNECT_TIMEOUT_SECONDS: value })).toThrow(/TMS_DATABASE_CONNECT_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 10/);
  });

  it('refuses a TMS_DATABASE_PREPARE that is neither true nor false', () => {
    expect(() => databaseSettings({ TMS_DATABASE_PREPARE: 'yes' })).toThrow(/TMS_DATABASE_PREPARE must be "true" or "false"/);
  });
});

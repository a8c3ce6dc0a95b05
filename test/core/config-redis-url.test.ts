// REDIS_URL takes Redis over TCP (redis://, rediss://) or, on the same machine, through its Unix
// socket (unix:///run/redis/redis.sock?db=1&password=…, the form redis-py and Sidekiq read). A unix:
// URL the client could not use stops the start with the reason, never with its password.
import { describe, expect, it } from 'vitest';
import { redisConnection } from '../../core/adapters/redis-connection.ts';
import { ConfigError, loadConfig } from '../../core/config.ts';

const refusal = (url: string): Error => {
  try {
    loadConfig({ REDIS_URL: url });
  } catch (error) {
    return error as Error;
  }
  throw new Error(`${url} was accepted`);
};

describe('REDIS_URL through a Unix socket', () => {
  it('is accepted, and the client gets the socket file, the database and the credentials', () => {
    const url = 'unix:///run/redis/redis.sock?db=2&username=tms&password=s%3Acret';
    expect(loadConfig({ REDIS_URL: url }).REDIS_URL).toBe(url);
    expect(redisConnection(url)).toEqual({ path: '/run/redis/redis.sock', db: 2, username: 'tms', password: 's:cret' });
    expect(redisConnection('unix:///var/run/redis%20one/redis.sock')).toEqual({ path: '/var/run/redis one/redis.sock' });
    expect(redisConnection('unix:/tmp/redis.sock')).toEqual({ path: '/tmp/redis.sock' });
  });

  it('leaves TCP URLs to the client as they are', () => {
    for (const url of ['redis://127.0.0.1:6379', 'rediss://:pw@cache.example.com:6380/3']) {
      expect(loadConfig({ REDIS_URL: url }).REDIS_URL).toBe(url);
      expect(redisConnection(url)).toEqual({ url });
    }
  });

  it.each([
    ['a host where the socket file belongs', 'unix://localhost/run/redis/redis.sock', /REDIS_URL: a unix: URL names the socket file.*not a host \("localhost"\)/],
    ['no socket file', 'unix:///', /REDIS_URL: a unix: URL must name the socket file by its absolute path/],
    ['a relative path', 'unix:run/redis.sock', /REDIS_URL: a unix: URL must name the socket file by its absolute path/],
    ['a broken escape in the path', 'unix:///run/redis%zz/redis.sock', /REDIS_URL: the socket file's path in the unix: URL has a % not followed by two hex digits/],
    ['an unknown parameter', 'unix:///run/redis/redis.sock?timeout=5', /REDIS_URL: unknown parameter "timeout" in the unix: URL/],
    ['a database that is not a number', 'unix:///run/redis/redis.sock?db=one', /REDIS_URL: db must be a database number/],
    ['another scheme', 'http://127.0.0.1:6379', /REDIS_URL: must be a URL starting with redis:\/\/ or rediss:\/\/ or unix:\/\//],
  ])('with %s stops the start with a ConfigError naming it', (_name, url, message) => {
    const error = refusal(url);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(message);
  });

  it('never repeats the password in a refusal', () => {
    const error = refusal('unix:///run/redis/redis.sock?password=hunter2-secret&db=x');
    expect(error.message).toMatch(/db must be a database number/);
    expect(error.message).not.toContain('hunter2-secret');
  });
});

// AppError is an answer, not a fault: no stack trace (docs/decisions.md, "Errors without stack traces").
import { describe, expect, it } from 'vitest';
import { AppError, notFound } from '../../core/errors.ts';

describe('AppError', () => {
  it('records no stack frames, and leaves the stack limit as it found it', () => {
    const before = Error.stackTraceLimit;
    const error = notFound('Key g07.k not found');
    expect(error.stack).toBe('AppError: Key g07.k not found');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('ordinary').stack!.split('\n').length).toBeGreaterThan(1);
  });

  it('keeps the stack of the fault behind it as its cause', () => {
    const fault = new Error('connection refused');
    const error = new AppError('dependency', 'The database is unreachable', { cause: fault });
    expect(error.cause).toBe(fault);
    expect(fault.stack!.split('\n').length).toBeGreaterThan(1);
  });

  it('is still an Error with its code, message and data', () => {
    const error = new AppError('rate_limited', 'Daily API call quota exceeded', { data: { used: 3 } });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(AppError);
    expect([error.name, error.code, error.message, error.data]).toEqual(['AppError', 'rate_limited', 'Daily API call quota exceeded', { used: 3 }]);
  });

  it('restores a custom stack limit', () => {
    const before = Error.stackTraceLimit;
    Error.stackTraceLimit = 25;
    try {
      notFound('x');
      expect(Error.stackTraceLimit).toBe(25);
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});

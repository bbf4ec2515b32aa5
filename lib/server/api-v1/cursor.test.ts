import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../http/errors';
import { BlueprintCursor, decodeCursor, encodeCursor, PromptCursor } from './cursor';

describe('page cursors', () => {
  it('give back what they carry, for their own list', () => {
    const c = encodeCursor('blueprints', { title: 'Ünïcode / title', id: 'a/b' });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('blueprints', BlueprintCursor, c)).toEqual({ title: 'Ünïcode / title', id: 'a/b' });
    expect(decodeCursor('blueprints', BlueprintCursor, undefined)).toBeUndefined();
  });

  it('refuse a cursor of another list, a tampered one and garbage with a 400 that says what to do', () => {
    const prompts = encodeCursor('prompts:run-1', { offset: 50 });
    expect(() => decodeCursor('prompts:run-2', PromptCursor, prompts)).toThrow(BadRequestError);
    expect(() => decodeCursor('prompts:run-1', PromptCursor, encodeCursor('prompts:run-1', { offset: -1 }))).toThrow(/next_cursor/);
    expect(() => decodeCursor('blueprints', BlueprintCursor, 'not a cursor!')).toThrow(BadRequestError);
    expect(() => decodeCursor('blueprints', BlueprintCursor, '')).toThrow(BadRequestError);
  });
});

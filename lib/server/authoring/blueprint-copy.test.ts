import { describe, expect, it } from 'vitest';
import { pullRequestPathProblem } from '@/lib/core';
import { pathInBlueprints } from './blueprint-copy';

describe("a copy's suggested path", () => {
  it('is inside blueprints/ whether the file came from a local folder or from GitHub', () => {
    expect(pathInBlueprints('sealed-demo.yml')).toBe('blueprints/sealed-demo.yml');
    expect(pathInBlueprints('./team/x.yml')).toBe('blueprints/team/x.yml');
    expect(pathInBlueprints('blueprints/community/x.yml')).toBe('blueprints/community/x.yml');
    // the pull-request panel accepts it as it is
    expect(pullRequestPathProblem(pathInBlueprints('sealed-demo.yml'))).toBeNull();
    expect(pullRequestPathProblem('sealed-demo.yml')).not.toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { pullRequestPathProblem } from '@/lib/core';
import { pathInBlueprints } from './blueprint-copy';
import { redactSealedSource } from '../untrusted/sealed-source';

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

describe('a copy of a file with sealed prompts', () => {
  it('is not made when an alias outside a sealed prompt carries its text; without the alias it is, without the text', () => {
    const header = 'title: T\nprompts:\n  - id: SEALED-1\n    prompt: &s SECRET question\n    split: test\n    should: [$icontains: x]\n  - id: OPEN-1\n    prompt: OPEN-visible question\n    should: [$icontains: y]\n';
    // what readBlueprintCopy is given (blueprint-source.ts runs this in the untrusted pool): null, so no copy
    expect(redactSealedSource(`${header}description: *s\n`, 'b.yml')).toBeNull();
    expect(redactSealedSource(header.replace('OPEN-visible question', '*s'), 'b.yml')).toBeNull();
    const shown = redactSealedSource(`${header}description: written out\n`, 'b.yml');
    expect(shown).toContain('OPEN-visible question');
    expect(shown).toContain('written out');
    expect(shown).not.toContain('SECRET');
  });
});

import { describe, expect, it } from 'vitest';
import { matchGlob } from './globs';

const PATHS = ['suites/huur.yml', 'suites/huur-extra.yml', 'suites/grenzen.yml', 'suites/deep/huur-x.yml', 'project.yml', 'suites/h1.yml'];

describe('soev suite globs', () => {
  it('matches * and ? within a folder, ** across folders, [..] classes', () => {
    expect(matchGlob('suites/huur*.yml', PATHS)).toEqual(['suites/huur-extra.yml', 'suites/huur.yml']);
    expect(matchGlob('suites/**/huur*.yml', PATHS)).toEqual(['suites/deep/huur-x.yml', 'suites/huur-extra.yml', 'suites/huur.yml']);
    expect(matchGlob('./suites/h?.yml', PATHS)).toEqual(['suites/h1.yml']);
    expect(matchGlob('suites/[gh]*.yml', PATHS)).toEqual(['suites/grenzen.yml', 'suites/h1.yml', 'suites/huur-extra.yml', 'suites/huur.yml']);
    expect(matchGlob('suites/huur.yml', PATHS)).toEqual(['suites/huur.yml']);
    expect(matchGlob('suites.yml', PATHS)).toEqual([]);
  });
});

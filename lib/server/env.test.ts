import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';

describe('configuration', () => {
  it('has working defaults for a fresh machine (embedded database, local blueprints)', () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.ASSAY_DATA_DIR).toBe('.data/pglite');
    expect(env.ASSAY_BLUEPRINTS_DIR).toBe('blueprints');
    expect(env.PORT).toBe(3000);
  });

  it('names every malformed variable and says what it expects', () => {
    const attempt = () => parseEnv({ DATABASE_URL: 'mysql://x', PORT: 'eighty', GITHUB_REPOSITORY: 'nope' });
    expect(attempt).toThrow(EnvError);
    try {
      attempt();
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toMatch(/DATABASE_URL: must be a postgresql:\/\/ URL/);
      expect(msg).toMatch(/PORT:/);
      expect(msg).toMatch(/GITHUB_REPOSITORY: must look like owner\/repo/);
    }
  });

  it('rejects a guessable admin token and treats empty strings as unset', () => {
    expect(() => parseEnv({ ASSAY_ADMIN_TOKEN: 'short' })).toThrow(/ASSAY_ADMIN_TOKEN: must be at least 24 characters/);
    expect(parseEnv({ ASSAY_ADMIN_TOKEN: '', OPENAI_API_KEY: '' }).OPENAI_API_KEY).toBeUndefined();
  });

  it('reads ASSAY_SEED_DEMO as a flag, and rejects anything but 0 or 1', () => {
    expect(parseEnv({}).ASSAY_SEED_DEMO).toBe(false);
    expect(parseEnv({ ASSAY_SEED_DEMO: '1' }).ASSAY_SEED_DEMO).toBe(true);
    expect(parseEnv({ ASSAY_SEED_DEMO: '0' }).ASSAY_SEED_DEMO).toBe(false);
    expect(() => parseEnv({ ASSAY_SEED_DEMO: 'yes' })).toThrow(/ASSAY_SEED_DEMO/);
  });

  it('reads the leaderboard’s minimum coverage as a share between 0 and 1', () => {
    expect(parseEnv({}).ASSAY_LEADERBOARD_MIN_COVERAGE).toBe(0.5);
    expect(parseEnv({ ASSAY_LEADERBOARD_MIN_COVERAGE: '' }).ASSAY_LEADERBOARD_MIN_COVERAGE).toBe(0.5);
    expect(parseEnv({ ASSAY_LEADERBOARD_MIN_COVERAGE: '1' }).ASSAY_LEADERBOARD_MIN_COVERAGE).toBe(1);
    expect(() => parseEnv({ ASSAY_LEADERBOARD_MIN_COVERAGE: '50' })).toThrow(/ASSAY_LEADERBOARD_MIN_COVERAGE: must be between 0 and 1 \(a share/);
    expect(() => parseEnv({ ASSAY_LEADERBOARD_MIN_COVERAGE: 'half' })).toThrow(/ASSAY_LEADERBOARD_MIN_COVERAGE: must be a number/);
  });
});

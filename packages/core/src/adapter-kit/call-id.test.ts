import { generateCallId, stableCallId } from './call-id';

describe('generateCallId', () => {
  it('creates unique ids with the prefix', () => {
    const ids = new Set(Array.from({ length: 100 }, () => generateCallId()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{32}$/);
    expect(generateCallId('fc')).toMatch(/^fc_/);
  });
});

describe('stableCallId', () => {
  it('is deterministic per seed and differs between seeds', () => {
    expect(stableCallId('resp-1/0/get_weather')).toBe(stableCallId('resp-1/0/get_weather'));
    expect(stableCallId('resp-1/0/get_weather')).not.toBe(stableCallId('resp-1/1/get_weather'));
    expect(stableCallId('x')).toMatch(/^call_[0-9a-f]{24}$/);
  });
});

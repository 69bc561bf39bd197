import { idSequence } from './event-id';

describe('idSequence', () => {
  it('makes unique ids of its kind, past the counter string it rebuilds every 36 ids', () => {
    const next = idSequence('e');
    const ids = Array.from({ length: 36 * 40 + 5 }, () => next());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^e-[0-9a-f]{16}-[0-9a-z]{2,}$/);
    // The counter in base 36: the 37th id is 36, the 1297th is 1296.
    expect(ids[36].split('-')[2]).toBe('10');
    expect(ids[36 * 36].split('-')[2]).toBe('100');
  });

  it('shares the process prefix between kinds, each with its own counter', () => {
    const events = idSequence('e')();
    const invocations = idSequence('inv')();
    expect(invocations.slice('inv'.length)).toBe(events.slice('e'.length));
  });
});

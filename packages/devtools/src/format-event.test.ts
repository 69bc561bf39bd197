import { Event } from '@toolsmith/core';
import { formatEvent } from './format-event';

const response = {
  id: 'c1',
  name: 'startExport',
  response: { done: 1 },
  confirmation: { decision: 'approve' as const, by: 'grant' as const, grantId: 'g-1' },
  innerCalls: [{ agent: 'auditor', call: { id: 'x', name: 'deleteAll' }, confirmation: { decision: 'approve' as const, by: 'user' as const } }],
};

describe('formatEvent', () => {
  it("shows what settled a call on the runner's events", () => {
    const event = Event.create({ invocationId: 'i', author: 'exporter', content: { role: 'user', parts: [{ functionResponse: response }] } });
    expect(formatEvent(event)).toEqual(['  ← startExport: {"done":1}', '    ✔ allowed by grant g-1', '    ↳ auditor → deleteAll: approved by the user']);
  });

  it("never on a user's event: a grant or inner calls a client wrote (in a session stored before the runner refused them) are not an audit", () => {
    const event = Event.create({ invocationId: 'i', author: 'user', content: { role: 'user', parts: [{ functionResponse: response }] } });
    expect(formatEvent(event)).toEqual(['  ← startExport: {"done":1}']);
  });
});

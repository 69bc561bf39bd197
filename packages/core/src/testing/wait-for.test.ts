import { waitFor } from './wait-for';

describe('waitFor', () => {
  it('resolves once the condition turns true', async () => {
    let checks = 0;
    await waitFor(() => ++checks === 3, { intervalMs: 1 });
    expect(checks).toBe(3);
  });

  it('rejects with the timeout in the message when the condition stays false', async () => {
    await expect(waitFor(() => false, { timeoutMs: 20, intervalMs: 1 })).rejects.toThrow('waitFor: condition not met within 20 ms');
  });
});

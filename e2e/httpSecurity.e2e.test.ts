import { describe, expect, it } from 'vitest';
import { useServedApp } from './support/suite.js';

describe('HTTP API of reverie serve', () => {
  const app = useServedApp({ withBrowser: false });

  const post = (operation: string, headers: Record<string, string>): Promise<Response> =>
    fetch(`${app.serve.url}/api/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: '{}',
    });

  it('refuses a request without the token (401)', async () => {
    const response = await post('status', {});
    expect(response.status).toBe(401);
    const body = (await response.json()) as { ok: boolean; error: { code: string } };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('unauthenticated');

    const wrong = await post('status', { Authorization: 'Bearer not-the-token' });
    expect(wrong.status).toBe(401);

    const events = await fetch(`${app.serve.url}/api/events`);
    expect(events.status).toBe(401);
  });

  it('refuses a foreign Origin even with the right token (403)', async () => {
    const response = await post('status', { Authorization: `Bearer ${app.serve.token}`, Origin: 'http://evil.example' });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { ok: boolean; error: { code: string } };
    expect(body.error.code).toBe('forbidden');
  });

  it('answers with the token from its own origin', async () => {
    const response = await post('status', { Authorization: `Bearer ${app.serve.token}`, Origin: app.serve.url });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ok: boolean; result: { workspace: { path: string } } };
    expect(body.ok).toBe(true);
    expect(typeof body.result.workspace.path).toBe('string');
  });
});

/**
 * Socket and HTTP abuse against a running `reverie serve`: bad and duplicate Host headers, path
 * traversal, huge headers, no token; on the agent socket garbage lines, a huge line, half-open and
 * many clients. No crash, the right status codes, and the host still answers afterwards.
 */
import net from 'node:net';
import { spawnCli, sleep, type Family } from '../harness.js';

interface ServeInfo {
  url: string;
  launchUrl: string;
  agentSocket: string | null;
}

/** Sends raw bytes and resolves with the first response's status code (0: closed without one). */
function rawHttp(port: number, request: string, timeoutMs = 10_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      socket.destroy();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data });
    };
    socket.setTimeout(timeoutMs, done);
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('end', done);
    socket.on('error', done);
    socket.write(request);
  });
}

/** Writes `payload` to the agent socket and collects `expectLines` answer lines (or what came in time). */
function socketExchange(file: string, payload: string, expectLines: number, timeoutMs = 10_000): Promise<string[]> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    let data = '';
    const finish = () => {
      socket.destroy();
      resolve(data.split('\n').filter(Boolean));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (d: Buffer) => {
      data += d.toString();
      if (data.split('\n').filter(Boolean).length >= expectLines) {
        clearTimeout(timer);
        finish();
      }
    });
    socket.on('error', finish);
    socket.write(payload);
  });
}

export const abuse: Family = {
  name: 'socket and http abuse',
  async run(ctx) {
    const ws = ctx.workspace({ 'MEMORY.md': '# Memory\n\n- The NAS is called atlas.\n' });
    const child = spawnCli(['serve', '--json', '--port', '0', ...ws.at], ws.env);
    const failures: string[] = [];
    let trials = 0;
    let socketCalls = 0;
    let httpRequests = 0;
    try {
      const info = await new Promise<ServeInfo>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as ServeInfo);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const port = Number(new URL(info.url).port);
      const token = new URL(info.launchUrl).hash.replace('#token=', '');
      const host = `127.0.0.1:${port}`;
      const api = (headers: string, body = '{}') => `POST /api/status HTTP/1.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
      const cases: { name: string; request: string; ok: (status: number, body: string) => boolean; want: string }[] = [
        { name: 'good call', request: api(`Host: ${host}\r\nAuthorization: Bearer ${token}\r\n`), ok: (s) => s === 200, want: '200' },
        { name: 'foreign Host', request: api(`Host: evil.com\r\nAuthorization: Bearer ${token}\r\n`), ok: (s) => s >= 400 && s < 500, want: '4xx' },
        { name: 'no Host', request: `GET / HTTP/1.0\r\n\r\n`, ok: (s) => s >= 400 && s < 500, want: '4xx' },
        { name: 'duplicate Host', request: api(`Host: ${host}\r\nHost: evil.com\r\nAuthorization: Bearer ${token}\r\n`), ok: (s) => s === 400, want: '400' },
        { name: 'no token', request: api(`Host: ${host}\r\n`), ok: (s) => s === 401 || s === 403, want: '401/403' },
        { name: 'foreign Origin', request: api(`Host: ${host}\r\nOrigin: http://evil.com\r\nAuthorization: Bearer ${token}\r\n`), ok: (s) => s === 403, want: '403' },
        { name: 'huge header', request: api(`Host: ${host}\r\nX-Big: ${'a'.repeat(200_000)}\r\n`), ok: (s) => s === 431 || s === 400 || s === 0, want: '431 or closed' },
        { name: 'bad JSON body', request: api(`Host: ${host}\r\nAuthorization: Bearer ${token}\r\n`, '{"'), ok: (s) => s === 400, want: '400' },
      ];
      for (const traversal of ['/../../../../etc/passwd', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fpackage.json', '/..\\..\\package.json', '//etc/passwd']) {
        cases.push({ name: `traversal ${traversal}`, request: `GET ${traversal} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, ok: (_s, body) => !/root:.*:0:0:|"devDependencies"/.test(body), want: 'nothing outside the app' });
      }
      for (const c of cases) {
        trials++;
        httpRequests++;
        const { status, body } = await rawHttp(port, c.request);
        if (!c.ok(status, body)) failures.push(`HTTP ${c.name}: got ${status || 'no response'}, want ${c.want}`);
      }
      if (info.agentSocket) {
        const garbage = ['not json', '{', '[1,2,3]', '{"jsonrpc":"2.0","id":1}', '\u0000\u0001', '{"jsonrpc":"2.0","id":2,"method":"memory.search","params":{}}'];
        trials++;
        const answers = await socketExchange(info.agentSocket, garbage.join('\n') + '\n', garbage.length);
        if (answers.length !== garbage.length) failures.push(`socket garbage: ${answers.length} answers to ${garbage.length} lines`);
        trials++;
        const huge = await socketExchange(info.agentSocket, `{"jsonrpc":"2.0","id":3,"method":"memory.search","params":{"query":"${'x'.repeat(5 * 1_048_576)}"}}\n{"jsonrpc":"2.0","id":4,"method":"memory.search","params":{}}\n`, 2, 20_000);
        if (huge.length !== 2) failures.push(`socket huge line: ${huge.length} answers to 2 lines`);
        const halfOpen = Array.from({ length: 20 }, () => net.connect(info.agentSocket!).on('error', () => undefined));
        for (const s of halfOpen) s.write('{"jsonrpc":"2.0","id":5,"me');
        const clients = ctx.trials(10, 50);
        const perClient = ctx.trials(5, 100);
        trials += clients;
        socketCalls = clients * perClient;
        const results = await Promise.all(
          Array.from({ length: clients }, (_, c) => {
            const lines = Array.from({ length: perClient }, (_, k) => JSON.stringify({ jsonrpc: '2.0', id: c * 1000 + k, method: 'memory.search', params: { query: 'atlas' } })).join('\n');
            return socketExchange(info.agentSocket!, `${lines}\n`, perClient, 60_000);
          }),
        );
        const missing = results.reduce((n, r) => n + (perClient - r.length), 0);
        if (missing > 0) failures.push(`socket: ${missing} of ${clients * perClient} calls from ${clients} clients unanswered`);
        for (const s of halfOpen) s.destroy();
      } else failures.push('serve reported no agent socket');
      await sleep(200);
      trials++;
      const after = await rawHttp(port, api(`Host: ${host}\r\nAuthorization: Bearer ${token}\r\n`));
      if (after.status !== 200) failures.push(`the host does not answer after the abuse (got ${after.status || 'nothing'})`);
      if (child.exitCode !== null) failures.push(`serve exited ${child.exitCode} during the abuse`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('close', r)));
    }
    return { trials, failures, figures: { 'http requests': httpRequests, 'socket calls': socketCalls } };
  },
};

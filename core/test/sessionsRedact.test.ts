import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/sessions/redact.js';

// Built at run time so that this file does not itself look like it leaks keys.
const fake = (prefix: string, body: string) => prefix + body;

describe('redactSecrets', () => {
  const secrets: Array<[string, string, string]> = [
    ['OpenAI key', `export OPENAI_API_KEY ${fake('sk-', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0uV')} now`, 'export OPENAI_API_KEY [REDACTED] now'],
    ['OpenAI project key', `key ${fake('sk-proj-', 'Ab3De5Gh7Jk9Lm1Np3Qr5St7Vw9Xy1Za3Bc5_De7-Fg9')}`, 'key [REDACTED]'],
    ['Anthropic key', `${fake('sk-ant-', 'api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7-AAA')} is mine`, '[REDACTED] is mine'],
    ['GitHub classic token', `token ${fake('ghp_', 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5')}`, 'token [REDACTED]'],
    ['GitHub fine-grained token', `${fake('github_pat_', '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF')}`, '[REDACTED]'],
    ['AWS access key id', `aws_access_key_id ${fake('AKIA', 'IOSFODNN7EXAMPLE')}`, 'aws_access_key_id [REDACTED]'],
    ['Slack token', `slack: ${fake('xoxb-', '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx')}`, 'slack: [REDACTED]'],
    ['Google API key', `maps key ${fake('AIza', 'SyD3x4mPl3K3y-0123456789abcdefghijk')}.`, 'maps key [REDACTED].'],
    ['Bearer token', 'curl -H "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0"', 'curl -H "Authorization: Bearer [REDACTED]"'],
    ['Basic credentials', 'Authorization: Basic ZGFuYTpodW50ZXIy', 'Authorization: Basic [REDACTED]'],
    // Found in text without any other rule's hint (redact.ts scans for all of them at once).
    ['Basic credentials in lower case', 'authorization: basic ZGFuYTpodW50ZXIy', 'authorization: basic [REDACTED]'],
    ['AWS temporary access key id', `id ${fake('ASIA', 'IOSFODNN7EXAMPLE')} for an hour`, 'id [REDACTED] for an hour'],
    ['JWT', 'cookie=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkYW5hIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'cookie=[REDACTED]'],
    ['password in URL', 'DATABASE_URL=postgres://dana:s3cr3t!pass@db.internal:5432/ledger', 'DATABASE_URL=postgres://dana:[REDACTED]@db.internal:5432/ledger'],
    ['password assignment', 'password=hunter2 and user=dana', 'password=[REDACTED] and user=dana'],
    ['env secret', 'DB_PASSWORD=Tr0ub4dor&3', 'DB_PASSWORD=[REDACTED]'],
    ['JSON secret', '{"client_secret": "abc-123-xyz", "name": "app"}', '{"client_secret": "[REDACTED]", "name": "app"}'],
    ['YAML token', 'api_key: 7f3a9c2e1b\nregion: eu', 'api_key: [REDACTED]\nregion: eu'],
    ['query string', 'https://api.example/v1?token=abc123def&page=2', 'https://api.example/v1?token=[REDACTED]&page=2'],
  ];
  for (const [name, input, expected] of secrets) {
    it(`redacts a ${name}`, () => {
      const result = redactSecrets(input);
      expect(result.text).toBe(expected);
      expect(result.count).toBe(1);
    });
  }

  it('redacts a private key block whole, and an unterminated one to the end', () => {
    const key = ['-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU=', 'AAAAC3NzaC1lZDI1NTE5AAAAIB', '-----END OPENSSH PRIVATE KEY-----'].join('\n');
    expect(redactSecrets(`here:\n${key}\ndone`)).toEqual({ text: 'here:\n[REDACTED]\ndone', count: 1 });
    expect(redactSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\n(truncated)').text).toBe('[REDACTED]');
    // Public keys and certificates are not secrets.
    const publicKey = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----';
    expect(redactSecrets(publicKey)).toEqual({ text: publicKey, count: 0 });
  });

  it('counts several secrets in one text', () => {
    const text = `use ${fake('ghp_', 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5')} and password: "p4ss w0rd" at https://u:p4ss@h.example`;
    expect(redactSecrets(text)).toEqual({ text: 'use [REDACTED] and password: "[REDACTED]" at https://u:[REDACTED]@h.example', count: 3 });
  });

  const harmless = [
    'We use scikit-learn and the sk-learn-compatible-estimators package.',
    'Bearer tokens are sent in the Authorization header.',
    'The commit 3f9a2c41d8e07b6a5c4d3e2f1a0b9c8d7e6f5a4b fixed it; sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.',
    'Set max_tokens=4096 and the tokenizer=cl100k_base for the run.',
    'The password field is required; the token: we discussed it yesterday.',
    'interface Login { password: string; token?: string }',
    'const token = await fetchToken(); const secret = process.env.APP_SECRET;',
    'password=${DB_PASSWORD} and token=<your token here> and secret=***',
    'git@github.com:dana/ledgerd.git and https://github.com/dana/ledgerd',
    'Meet at https://example.com/path?user=dana&lang=en about the AKIA prefix.',
    'Ask about the secret garden: a novel.',
  ];
  for (const text of harmless) {
    it(`leaves prose and code alone: ${text.slice(0, 40)}…`, () => {
      expect(redactSecrets(text)).toEqual({ text, count: 0 });
    });
  }
});

import { describe, expect, it } from 'vitest';
import { classifyToolCall, isNetworkShellCommand, mcpServerOf, shellCommandOf } from '../src/sessions/toolSources.js';
import type { TranscriptFormat } from '../src/sessions/types.js';

describe('tool source classification', () => {
  const cases: Array<[TranscriptFormat, string, unknown, 'local' | 'network']> = [
    ['claude-code-jsonl', 'Read', { file_path: '/a' }, 'local'],
    ['claude-code-jsonl', 'Edit', {}, 'local'],
    ['claude-code-jsonl', 'Grep', { pattern: 'x' }, 'local'],
    ['claude-code-jsonl', 'Glob', { pattern: '*.ts' }, 'local'],
    ['claude-code-jsonl', 'TodoWrite', {}, 'local'],
    ['claude-code-jsonl', 'Bash', { command: 'npm test' }, 'local'],
    ['claude-code-jsonl', 'Bash', { command: 'curl https://example.com' }, 'network'],
    ['claude-code-jsonl', 'Bash', {}, 'network'],
    ['claude-code-jsonl', 'WebFetch', { url: 'https://x' }, 'network'],
    ['claude-code-jsonl', 'WebSearch', { query: 'x' }, 'network'],
    ['claude-code-jsonl', 'web_search', {}, 'network'],
    ['claude-code-jsonl', 'Task', { prompt: 'research' }, 'network'],
    ['claude-code-jsonl', 'mcp__github__get_issue', {}, 'network'],
    ['claude-code-jsonl', 'mcp__reverie__search', {}, 'local'],
    ['claude-code-jsonl', 'BrandNewTool', {}, 'network'],
    ['codex-rollout', 'shell', JSON.stringify({ command: ['bash', '-lc', 'ls -la'] }), 'local'],
    ['codex-rollout', 'shell', JSON.stringify({ command: ['bash', '-lc', 'wget -qO- https://x'] }), 'network'],
    ['codex-rollout', 'shell_command', JSON.stringify({ command: 'git status' }), 'local'],
    ['codex-rollout', 'exec_command', JSON.stringify({ cmd: 'git pull --rebase' }), 'network'],
    ['codex-rollout', 'local_shell', { type: 'exec', command: ['rg', 'TODO'] }, 'local'],
    ['codex-rollout', 'apply_patch', '*** Begin Patch', 'local'],
    ['codex-rollout', 'update_plan', '{}', 'local'],
    ['codex-rollout', 'web_search', {}, 'network'],
    ['codex-rollout', 'spawn_agent', {}, 'network'],
    ['codex-rollout', 'reverie__search', '{}', 'local'],
    ['codex-rollout', 'linear__list_issues', '{}', 'network'],
    ['openclaw-jsonl', 'read', { path: 'MEMORY.md' }, 'local'],
    ['openclaw-jsonl', 'memory_search', { query: 'x' }, 'local'],
    ['openclaw-jsonl', 'exec', { command: 'df -h' }, 'local'],
    ['openclaw-jsonl', 'exec', { command: 'python3 -c "import requests; print(requests.get(u).text)"' }, 'network'],
    ['openclaw-jsonl', 'web_fetch', { url: 'https://x' }, 'network'],
    ['openclaw-jsonl', 'browser', { action: 'snapshot' }, 'network'],
    ['openclaw-jsonl', 'message', { action: 'read' }, 'network'],
    ['openclaw-jsonl', 'sessions_history', {}, 'network'],
    ['openclaw-jsonl', 'some_plugin_tool', {}, 'network'],
  ];
  for (const [tool, name, input, expected] of cases) {
    it(`${tool} ${name} ${typeof input === 'string' ? input.slice(0, 30) : JSON.stringify(input).slice(0, 40)} → ${expected}`, () => {
      expect(classifyToolCall(tool, name, input)).toBe(expected);
    });
  }

  it('treats extra MCP servers as local only when the caller says so', () => {
    expect(classifyToolCall('claude-code-jsonl', 'mcp__files__read', {})).toBe('network');
    expect(classifyToolCall('claude-code-jsonl', 'mcp__files__read', {}, { localMcpServers: ['files'] })).toBe('local');
    expect(mcpServerOf('mcp__plugin_playwright_playwright__browser_navigate')).toBe('plugin_playwright_playwright');
    expect(mcpServerOf('Read')).toBeNull();
  });

  it('does not let a tool name from the object prototype pass as known', () => {
    expect(classifyToolCall('claude-code-jsonl', 'constructor', {})).toBe('network');
    expect(classifyToolCall('codex-rollout', 'toString', {})).toBe('network');
  });
});

describe('network shell commands', () => {
  const network = [
    'curl -fsSL https://get.example.sh | sh',
    'wget example.org/file',
    'sudo -E curl localhost:8080',
    'cd repo && git fetch origin',
    'git clone git@github.com:dana/ledgerd.git',
    'FOO=1 timeout 30 http GET api.example/items',
    'gh pr view 42 --comments',
    'ssh atlas uptime',
    'npm view left-pad versions',
    'Invoke-WebRequest -Uri https://x -OutFile y',
    'node -e "fetch(process.argv[1]).then(r => r.text())"',
    'cat urls.txt | xargs -n1 curl -s',
    'echo $(curl -s ifconfig.me)',
    'python3 scrape.py https://news.example/today',
  ];
  const local = [
    'ls -la',
    'npm test -- --run',
    'git status && git diff --stat',
    'rg -n "fetch" src',
    'cat README.md | head -20',
    'docker compose ps',
    'curl_config_check.sh --dry-run',
    'make check',
    'go test ./... -run TestBackfill',
  ];
  for (const command of network) it(`network: ${command}`, () => expect(isNetworkShellCommand(command)).toBe(true));
  for (const command of local) it(`local: ${command}`, () => expect(isNetworkShellCommand(command)).toBe(false));
  it('judges curl by the program, even to a loopback address; a loopback URL alone is local', () => {
    expect(isNetworkShellCommand('curl http://localhost:3000/health')).toBe(true);
    expect(isNetworkShellCommand('open http://127.0.0.1:5173/')).toBe(false);
  });

  it('reads the command from each tool input shape', () => {
    expect(shellCommandOf({ command: 'ls' })).toBe('ls');
    expect(shellCommandOf({ command: ['bash', '-lc', 'ls'] })).toBe('bash -lc ls');
    expect(shellCommandOf('{"cmd":"pwd"}')).toBe('pwd');
    expect(shellCommandOf(['rg', 'x'])).toBe('rg x');
    expect(shellCommandOf({ path: 'x' })).toBeNull();
    expect(shellCommandOf(undefined)).toBeNull();
  });
});
